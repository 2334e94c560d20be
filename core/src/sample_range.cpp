// sample_range: a set that reads a range of its files' samples (a training and a validation set
// kept in one container file), and the rules that keep such a job sound.
#include <algorithm>
#include <string>

#include "dlgen/core/job.hpp"

namespace dlgen {

bool reads_sample_range(const DatasetSpec& d) {
  return d.sample_begin != 0 || d.sample_end != 0;
}

std::uint32_t samples_read_per_file(const DatasetSpec& d) {
  const std::uint32_t all = std::max<std::uint32_t>(1, d.samples_per_file);
  if (!reads_sample_range(d) || d.sample_end > all || d.sample_begin >= d.sample_end) return all;
  return d.sample_end - d.sample_begin;
}

std::uint32_t first_sample_read(const DatasetSpec& d) {
  return samples_read_per_file(d) == std::max<std::uint32_t>(1, d.samples_per_file)
             ? 0
             : d.sample_begin;
}

namespace {

void add(std::vector<Diagnostic>& out, std::string path, std::string message) {
  out.push_back({std::move(path), std::move(message), 0});
}

// One set's range: within its files' samples, and read a sample at a time or a file at a time
// (a shard streamed front to back, or a Parquet row group, is read whole).
void check_range(const DatasetSpec& d, const ReaderSpec& r, const std::string& p,
                 std::vector<Diagnostic>& out) {
  if (!reads_sample_range(d)) return;
  if (d.sample_begin >= d.sample_end || d.sample_end > d.samples_per_file)
    add(out, p + ".sample_range",
        "must be [begin, end] with 0 <= begin < end <= samples_per_file (" +
            std::to_string(d.samples_per_file) + "), got [" + std::to_string(d.sample_begin) +
            ", " + std::to_string(d.sample_end) + "]");
  if (r.read_unit == ReadUnit::stream || r.read_unit == ReadUnit::row_group)
    add(out, p + ".sample_range",
        "needs reader.read = \"sample\" or \"file\" (a stream or a row group reads whole shards)");
  if (d.files_per_sample > 1)
    add(out, p + ".sample_range", "needs files_per_sample = 1 (a sample is whole files)");
}

// The files of a validation set in the training set's directory are the training set's own:
// every key that shapes them must be the same.
void check_shared_files(const DatasetSpec& train, const DatasetSpec& v,
                        std::vector<Diagnostic>& out) {
  if (v.dir != train.dir) return;
  DatasetSpec same = v;
  same.sample_begin = train.sample_begin, same.sample_end = train.sample_end;
  same.load = train.load;
  if (same != train)
    add(out, "validation.dir",
        "is dataset.dir: a validation set in the training set's files (with sample_range) must "
        "keep their format, num_files, samples_per_file, sample_size, seed, files_per_dir, "
        "file_prefix and parquet keys");
}

}  // namespace

void check_sample_ranges(const Job& job, std::vector<Diagnostic>& out) {
  if (job.run.train) check_range(job.dataset, job.reader, "dataset", out);
  if (!job.validation) return;
  check_range(*job.validation, job.reader, "validation", out);
  if (job.run.train) check_shared_files(job.dataset, *job.validation, out);
}

}  // namespace dlgen
