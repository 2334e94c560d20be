// [dataset] and [validation] of a distilled job: the synthetic copy of each dataset the trace read
// (sections.hpp).
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "dlgen/core/units.hpp"
#include "fit.hpp"
#include "sections.hpp"

namespace dlgen::analysis::sections {
namespace {

// The rows of TraceSummary::sample_files whose samples are all of `d`'s files (the summary's files
// are then virtual samples of a few real files); empty when `d` is a set of ordinary files.
std::set<std::uint32_t> sample_file_rows(const TraceSummary& s, const DatasetSummary& d) {
  std::set<std::uint32_t> rows;
  for (auto f : d.files)
    if (auto it = s.virtual_files.find(f); it != s.virtual_files.end()) rows.insert(it->second);
  if (rows.empty() || rows.size() > d.files.size()) return {};
  std::size_t virtual_count = 0;
  for (auto f : d.files) virtual_count += s.virtual_files.count(f);
  if (virtual_count != d.files.size()) return {};
  return rows;
}

// A dataset of multi-sample files: as many files, each of its slots of the commonest stride.
void sample_file_keys(JobWriter& x, const DatasetSummary& d, const std::string& key,
                      const std::set<std::uint32_t>& rows, DatasetSpec& spec) {
  const auto& s = x.s;
  const SampleFile& sf = s.sample_files[*rows.begin()];
  spec.num_files = rows.size();
  // The file's capacity (its size over the stride), or the samples read if more: a run that
  // stops early (max_steps) reads few of them, but the file, and what the page cache can hold
  // of it, is the whole one.
  std::uint64_t slots = 0;
  for (auto r : rows) slots += s.sample_files[r].samples;
  spec.samples_per_file = static_cast<std::uint32_t>(std::max<std::uint64_t>(
      {1, (d.files.size() + rows.size() / 2) / rows.size(), slots / rows.size()}));
  std::string sizes_why;
  if (sf.extents.empty()) {
    spec.sample_size = Distribution::fixed_at(static_cast<double>(sf.stride));
  } else {  // an archive's members, each its own size
    std::vector<double> sizes(sf.extents.begin(), sf.extents.end());
    spec.sample_size = fit_sizes(sizes, &sizes_why);
  }
  spec.files_per_dir = 0;
  spec.file_prefix = sanitize(std::filesystem::path(sf.path).stem().string());
  x.evidence(key + ".num_files", std::to_string(rows.size()) + " file(s) of many samples (" +
                                     sf.path + (rows.size() > 1 ? ", ..." : "") +
                                     "), read a sample at a time at scattered offsets");
  x.evidence(key + ".samples_per_file",
             std::to_string(sf.samples) +
                 (sf.extents.empty() ? " slots of " : " members of about ") +
                 format_size(sf.stride) + " in " + format_size(sf.size) + "; " +
                 std::to_string(d.files.size()) + " distinct samples read in all");
  if (sf.extents.empty())
    x.evidence(key + ".sample_size",
               "the commonest step between sample offsets (" + std::to_string(sf.reads) +
                   " reads; samples start at byte " + std::to_string(sf.base) + ")");
  else
    x.evidence(key + ".sample_size",
               sizes_why + ": the archive's members, each from its local header to the next (" +
                   std::to_string(sf.reads) + " reads, a run of them from a seek per member)");
  if (sf.mapped) {
    x.evidence(key + ".num_files", std::to_string(rows.size()) + " file(s) of many samples (" +
                                       sf.path + (rows.size() > 1 ? ", ..." : "") +
                                       "), memory-mapped and read by page faults");
    x.evidence(key + ".sample_size",
               "the span page faults show (" + std::to_string(sf.faults) +
                   " faults; fault-around window " + format_size(sf.fault_window) +
                   "): a process's first touch of each window, not each of the program's samples");
    if (key == "dataset" && mapped_items_stand(sf))
      x.note(key + ": " + sf.path +
             " was memory-mapped and read by page faults; the replay reads it with ordinary "
             "reads. Faults show a process's first touch of each fault-around window (" +
             format_size(sf.fault_window) +
             "): batch_size is the items per batch estimated from the workers' runs of faults "
             "between their hand-overs, and a sample is the pages one worker touched for one "
             "item (bytes per epoch and steps are kept); a worker that keeps its mapping across "
             "epochs shows its pages once");
    else
      x.note(key + ": " + sf.path +
             " was memory-mapped and read by page faults; the replay reads it with ordinary "
             "reads. Faults show a process's first touch of each fault-around window (" +
             format_size(sf.fault_window) +
             "), not each sample, so sample_size, samples_per_file, batch_size and the request "
             "size count those windows (bytes per epoch and per step are kept); a worker that "
             "keeps its mapping across epochs shows its pages once");
  }
  x.evidence(key + ".files_per_dir", "one directory");
  x.evidence(key + ".file_prefix", "the traced file's name");
  // The training set's: the reader's keys follow it (a validation set of such files too would
  // otherwise stand in for it).
  if (key == "dataset") x.sample_file = &sf;
}

// samples_per_file of a dataset of ordinary files: 1, or the samples a streamed shard holds; a
// note when files read in many requests may hold many samples the trace cannot show.
void samples_per_file(JobWriter& x, const DatasetSummary& d, const std::string& key,
                      DatasetSpec& spec) {
  const auto& s = x.s;
  spec.samples_per_file = 1;
  // Streamed shards: the samples handed over in the passes that read `d`, over the files read in
  // them. Counted from each batch's tensors (stream_samples), in any pass of `d`; else a batch
  // counts as one sample (the job's reader.batch_size 1), over the training passes.
  std::uint64_t handed = 0, batches = 0, files = 0;
  if (s.stream_shards) {
    std::set<std::int32_t> passes;
    for (std::size_t i = 0; i < s.epochs.size(); ++i) {
      const auto& e = s.epochs[i];
      if (e.dataset < 0 || &s.datasets[e.dataset] != &d || (e.evaluation && !s.stream_samples))
        continue;
      passes.insert(static_cast<std::int32_t>(i));
      files += e.unique_files;
    }
    for (const auto& b : s.batches)
      if (passes.count(b.epoch)) handed += s.stream_samples ? b.samples : 1, ++batches;
  }
  if (handed > 0 && files > 0) {
    spec.samples_per_file =
        static_cast<std::uint32_t>(std::max<std::uint64_t>(1, (handed + files / 2) / files));
    const std::string per = std::to_string(spec.samples_per_file);
    x.evidence(key + ".samples_per_file",
               s.stream_samples
                   ? std::to_string(handed) + " samples handed over in " + std::to_string(batches) +
                         " batches while reading " + std::to_string(files) +
                         " shard files (each batch's samples from its /dev/shm tensors: the "
                         "smallest is its labels, one int64 a sample): about " +
                         per + " a file"
                   : std::to_string(batches) + " batches handed over while reading " +
                         std::to_string(files) +
                         " shard files in the training passes: each file streams about " + per +
                         " batches (a sample here is one batch's worth: samples not inferred, "
                         "the batches' tensors do not tell them and a stream's reads show no "
                         "sample boundaries)");
  } else if ((d.files.size() < 4 && d.read.reads_per_access > 8 && !d.read.whole_file) ||
             d.read.reads_per_access > 32)
    x.note(key + ".samples_per_file: " + std::to_string(d.files.size()) +
           " file(s) read in many requests (" + fmt("%.0f", d.read.reads_per_access) +
           " per open), not on a grid of fixed-size samples: a file may hold many samples (tar or "
           "record "
           "shards streamed through a buffer); samples per file cannot be told from the trace, 1 "
           "assumed, so "
           "batch size, epochs and steps below count files, not samples: check them against the "
           "script");
}

// A dataset of ordinary files: their count, sizes (less the format's framing), directories and
// name prefix.
void file_keys(JobWriter& x, const DatasetSummary& d, const std::string& key, DatasetSpec& spec) {
  const auto& s = x.s;
  spec.num_files = d.files.size();
  std::uint64_t max_unique = 0;
  for (const auto& e : s.epochs)
    if (e.dataset >= 0 && &s.datasets[e.dataset] == &d)
      max_unique = std::max(max_unique, e.unique_files);
  x.evidence(key + ".num_files", std::to_string(d.files.size()) + " distinct files read under " +
                                     d.dir + " (at most " + std::to_string(max_unique) +
                                     " in one pass)");
  // Files the loader listed but never read (a sampler drawing with replacement): the dataset
  // holds them all; their sizes are drawn like those read.
  if (d.listed_files > d.files.size()) {
    spec.num_files = d.listed_files;
    x.evidence(key + ".num_files",
               std::to_string(d.listed_files) + " files listed in the directories of " + d.dir +
                   " (getdents64 bytes over the record size of the names read there), of which " +
                   std::to_string(d.files.size()) + " were read (at most " +
                   std::to_string(max_unique) + " in one pass)");
  }
  samples_per_file(x, d, key, spec);
  if (d.files_per_sample > 1 && d.files.size() % d.files_per_sample == 0) {
    spec.files_per_sample = d.files_per_sample;
    x.evidence(key + ".files_per_sample",
               "every file was read, in every pass, right before or after the same " +
                   std::to_string(d.files_per_sample - 1) +
                   " other file(s) by one worker in one batch (an image and its label): " +
                   std::to_string(d.files.size() / d.files_per_sample) + " samples of " +
                   std::to_string(d.files_per_sample) + " files");
  }
  std::vector<double> sizes(d.file_sizes.begin(), d.file_sizes.end());
  const bool tar = spec.format == Format::tar;
  const double overhead = tar ? 0 : framing_overhead(spec.format, d.size.p50);
  for (auto& v : sizes)
    v = tar ? sample_payload(spec.format, v, spec.samples_per_file)
            : std::max(1.0, (v - overhead) / spec.samples_per_file);
  std::string why;
  spec.sample_size = fit_sizes(sizes, &why);
  x.evidence(key + ".sample_size",
             why + "; file sizes " + format_size(static_cast<std::uint64_t>(d.size.min)) + ".." +
                 format_size(static_cast<std::uint64_t>(d.size.max)) + ", mean " +
                 format_size(static_cast<std::uint64_t>(d.size.mean)) +
                 (overhead > 0 ? ", less " + std::to_string(static_cast<long long>(overhead)) +
                                     " B of " + to_string(spec.format) + " framing"
                               : "") +
                 (tar ? ", less a 512 B header a member, its padding to 512 B, and the archive's "
                        "end (two zero blocks, padded to tar's 10 KiB record), so that a "
                        "generated shard is the traced one's size"
                      : ""));
  spec.files_per_dir = d.dirs > 1 ? d.files_per_dir : 0;
  x.evidence(key + ".files_per_dir", d.dirs > 1
                                         ? std::to_string(d.dirs) + " subdirectories, up to " +
                                               std::to_string(d.files_per_dir) + " files each"
                                         : "all files in one directory");
  const std::string prefix = file_prefix_of(d, s);
  if (!prefix.empty()) spec.file_prefix = prefix;
  x.evidence(key + ".file_prefix", prefix.empty() ? "file names differ: default prefix"
                                                  : "common prefix of the traced names");
}

// The synthetic copy of dataset `d` in `dir`, its keys written under `key` ("dataset",
// "validation").
DatasetSpec dataset_spec(JobWriter& x, const DatasetSummary& d, const std::string& key,
                         const std::filesystem::path& dir) {
  DatasetSpec spec;
  spec.dir = dir;
  x.evidence(key + ".dir",
             "synthetic copy; the traced data was " + d.dir + " (never written by dlgen)");
  spec.format = d.format.value_or(Format::raw);
  x.evidence(key + ".format", d.format_evidence);
  if (const auto rows = sample_file_rows(x.s, d); !rows.empty())
    sample_file_keys(x, d, key, rows, spec);
  else
    file_keys(x, d, key, spec);
  return spec;
}

}  // namespace

// [dataset] and [validation].
void distil_datasets(JobWriter& x, const std::filesystem::path& data_dir) {
  const TraceSummary& s = x.s;
  Job& job = x.out.job;
  const int ti = train_dataset(s);
  const int vi = validation_dataset(s);
  if (ti < 0) {
    x.note("no training dataset in the trace: the dataset section is a placeholder");
    job.dataset.dir = data_dir;
  } else {
    const auto& d = s.datasets[ti];
    job.dataset = dataset_spec(x, d, "dataset", data_dir);
    x.why("training data: " + d.dir + ", " + std::to_string(d.files.size()) + " files, " +
          format_size(d.total_bytes) + ", read " + std::to_string(d.accesses) + " times in all");
  }
  // Files read besides the datasets, by directory (a segmentation mask or an annotation per
  // sample, a label file): the job does not replay them, so say so when they are a real share of
  // the reads.
  if (ti >= 0) {
    std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> other;  // dir → files, bytes
    for (const auto& f : s.files)
      if (f.cls == FileClass::other && f.bytes_read > 0) {
        auto& [n, b] = other[std::filesystem::path(f.path).parent_path().string()];
        ++n, b += f.bytes_read;
      }
    const std::uint64_t train_bytes = std::max<std::uint64_t>(1, s.datasets[ti].bytes_read);
    for (const auto& [dir, nb] : other)
      if (nb.second * 20 >= train_bytes)
        x.note(
            "besides the training set, " + std::to_string(nb.first) + " files under " + dir +
            " were read (" + format_size(nb.second) + ", " +
            fmt("%.0f", 100.0 * static_cast<double>(nb.second) / static_cast<double>(train_bytes)) +
            "% of the training set's bytes): not a dataset of this job, so not replayed "
            "(a second file per sample, such as a segmentation mask, is not modelled yet)");
  }
  if (vi >= 0) {
    const auto& d = s.datasets[vi];
    job.validation = dataset_spec(x, d, "validation", data_dir.string() + "-val");
    job.validation->seed = 1;
    x.why("validation data: " + d.dir + ", " + std::to_string(d.files.size()) + " files");
  }
  shared_container(x, ti, vi);
}

}  // namespace dlgen::analysis::sections
