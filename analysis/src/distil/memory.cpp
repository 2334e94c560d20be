// A dataset the main process read whole before training (TraceSummary::dataset_in_memory):
// dataset.load = "memory" for it and its validation set, the samples its files hold (the batches'
// samples over the files, which the trace shows only as the batches' label tensors), and the
// load's read size (sections.hpp).
#include <algorithm>
#include <cmath>
#include <string>

#include "dlgen/core/units.hpp"
#include "sections.hpp"

namespace dlgen::analysis::sections {
namespace {

// The samples of the first pass of one kind (training or evaluation): its batches' samples when
// every batch's are known, each at most `batch` (a batch whose smallest tensor was not its labels
// cannot hold more than the commonest batch), else its batches times `batch`.
std::uint64_t pass_samples(const TraceSummary& s, bool evaluation, std::uint32_t batch,
                           bool* counted) {
  std::int32_t first = -1;
  for (std::size_t i = 0; i < s.epochs.size() && first < 0; ++i)
    if (s.epochs[i].evaluation == evaluation) first = static_cast<std::int32_t>(i);
  std::uint64_t samples = 0, batches = 0;
  *counted = true;
  for (const auto& b : s.batches) {
    if (b.epoch != first) continue;
    ++batches;
    samples += batch > 0 ? std::min(b.samples, batch) : b.samples;
    *counted = *counted && b.samples > 0;
  }
  if (!*counted) samples = batches * std::max<std::uint32_t>(batch, 1);
  return samples;
}

// samples_per_file and a fixed sample_size that keep the set's bytes: the pass's samples over
// its files, rounded down so that ceil(files x samples_per_file / batch) stays the pass's steps.
void samples_of(JobWriter& x, const std::string& key, DatasetSpec& d, bool evaluation,
                std::uint32_t batch) {
  bool counted = false;
  const std::uint64_t samples = pass_samples(x.s, evaluation, batch, &counted);
  if (samples == 0 || d.num_files == 0) return;
  const double bytes = d.sample_size.expected() * d.samples_per_file * d.num_files;
  d.samples_per_file =
      static_cast<std::uint32_t>(std::max<std::uint64_t>(1, samples / d.num_files));
  d.sample_size = Distribution::fixed_at(
      std::max(1.0, std::round(bytes / (double(d.samples_per_file) * d.num_files))));
  x.evidence(key + ".samples_per_file",
             std::to_string(samples) + " samples in the first " +
                 (evaluation ? "evaluation" : "training") + " pass (" +
                 (counted ? "each batch's label tensor: an int64 a sample"
                          : "not inferred: its batches times the batch size") +
                 ") over " + std::to_string(d.num_files) + " files");
  x.evidence(key + ".sample_size", "the files' bytes over their samples (the set is read whole)");
}

}  // namespace

void distil_memory(JobWriter& x) {
  const TraceSummary& s = x.s;
  Job& job = x.out.job;
  const int ti = train_dataset(s);
  if (!s.dataset_in_memory || ti < 0) return;
  job.dataset.load = Load::memory;
  x.evidence("dataset.load",
             "\"memory\": the main process read every file whole before its first batch, and its "
             "DataLoader workers read no file (" +
                 std::to_string(s.batches.size()) + " hand-overs of batches from memory)");
  ReaderSpec& r = job.reader;
  // Batches whose samples are unseen: as many samples a batch as files, so that each file holds
  // a pass's steps and the replay takes exactly the original's steps.
  if (s.batch_size == 0) {
    r.batch_size = static_cast<std::uint32_t>(job.dataset.num_files);
    x.evidence("reader.batch_size",
               "not inferred: the hand-overs carried no file reads and no tensor sizes; " +
                   std::to_string(r.batch_size) +
                   " (the files) keeps the original's steps an epoch, not its samples");
  }
  if (job.validation && s.eval_batch_size == 0) {
    r.eval_batch_size = static_cast<std::uint32_t>(job.validation->num_files);
    x.evidence("reader.eval_batch_size",
               "not inferred (no tensor sizes): the validation files, keeping its steps");
  }
  // The samples are known here: a note that they are not (files read in many requests) goes.
  std::erase_if(x.out.notes, [](const std::string& n) {
    return n.starts_with("dataset.samples_per_file") || n.starts_with("validation.samples_per_file");
  });
  samples_of(x, "dataset", job.dataset, false, r.batch_size);
  if (job.validation) {
    job.validation->load = Load::memory;
    samples_of(x, "validation", *job.validation, true,
               r.eval_batch_size > 0 ? r.eval_batch_size : r.batch_size);
  }
  // The load's reads: each file as it was read (reader.recipe, learned by file_reads: pickle's
  // header, body and tail in pieces), else the dataset's dominant read size, one request a file
  // when it read each whole in one. The passes read nothing.
  if (!r.recipe.empty()) return;
  const ReadPattern& rp = s.datasets[ti].read;
  r.header_read_bytes = r.probe_bytes = 0;
  r.request_size_bytes = rp.request_bytes;
  x.evidence("reader.request_size",
             rp.request_bytes > 0 ? "the load's read size (" + format_size(rp.request_bytes) +
                                        " a read, the main process reading each file)"
                                  : "0: the load read each file in one request");
}

}  // namespace dlgen::analysis::sections
