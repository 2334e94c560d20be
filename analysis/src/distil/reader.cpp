// [reader] of a distilled job: who reads (workers), how much they hand over (batch size,
// prefetch), in what order (shuffle) and how much of the dataset per epoch (sections.hpp).
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "dlgen/core/units.hpp"
#include "sections.hpp"

namespace dlgen::analysis::sections {

// The training passes (epochs), in time order.
std::vector<const EpochSummary*> training_passes(const TraceSummary& s) {
  std::vector<const EpochSummary*> out;
  for (const auto& e : s.epochs)
    if (!e.evaluation) out.push_back(&e);
  return out;
}

namespace {

// reader.workers: the first accelerator's readers per epoch, or 0 when it reads its own samples.
void workers(JobWriter& x) {
  const TraceSummary& s = x.s;
  auto& r = x.out.job.reader;
  const int ti = train_dataset(s);
  const auto train_epochs = training_passes(s);
  if (!s.accelerators.empty()) {
    const auto& a = s.accelerators[0];
    r.workers = a.reads_itself ? 0 : std::max<std::uint32_t>(1, a.workers);
    std::string names;
    std::map<std::string, int> comms;
    for (const auto& p : s.processes)
      if (p.role == ProcessRole::reader_worker && p.accelerator == 0) ++comms[p.comm];
    for (auto& [c, n] : comms) names += (names.empty() ? "" : ", ") + c;
    std::uint64_t train_files = ti >= 0 ? s.datasets[ti].files.size() : 0;
    if (a.reads_itself) {
      x.evidence(
          "reader.workers",
          "the main process reads its own samples (no separate workers): 0, loading and compute "
          "take turns");
    } else {
      std::uint64_t per_epoch_files = train_epochs.empty() ? 0 : train_epochs.front()->unique_files;
      x.evidence("reader.workers", std::to_string(a.workers) + " readers per epoch (" +
                                       (names.empty() ? std::string("unnamed") : names) +
                                       ") read " + std::to_string(per_epoch_files) + " of " +
                                       std::to_string(train_files) + " train files in epoch 0; " +
                                       std::to_string(a.readers.size()) + " distinct over the run");
    }
  }
}

// reader.batch_size: the commonest samples per handover (or read burst); a stream's handovers
// count one each; a memory-mapped file's windows per handover.
void batch_size(JobWriter& x) {
  const TraceSummary& s = x.s;
  auto& r = x.out.job.reader;
  const auto train_epochs = training_passes(s);
  const auto mapped_batch = [&]() -> std::uint32_t {
    // A memory-mapped file's windows come unevenly per batch (a window another worker mapped
    // first is not seen again), so the mode would be noise: windows read per handover instead,
    // which keeps the bytes per step.
    if (!x.sample_file || !x.sample_file->mapped) return 0;
    std::uint64_t reads = 0, steps = 0;
    for (const auto* e : train_epochs) reads += e->accesses, steps += e->steps;
    return steps
               ? static_cast<std::uint32_t>(std::max<std::uint64_t>(1, (reads + steps / 2) / steps))
               : 0;
  }();
  if (mapped_batch > 0 && !s.stream_shards) {
    r.batch_size = mapped_batch;
    x.evidence("reader.batch_size",
               "fault-around windows read per handover over the training passes (" +
                   std::to_string(s.batches.size()) +
                   " handovers): the memory-mapped file's samples are not seen");
  } else if (s.batch_size > 0) {
    r.batch_size = s.batch_size;
    std::uint64_t full = 0;
    const int ti = train_dataset(s);
    const std::uint32_t k = ti >= 0 ? s.datasets[ti].files_per_sample : 1;
    for (const auto& b : s.batches) full += b.samples == s.batch_size * k;
    if (s.stream_shards)
      x.evidence(
          "reader.batch_size",
          "1: each of the " + std::to_string(s.batches.size()) +
              " handovers is a batch, counted as one sample (the trace shows no sample "
              "boundaries in a stream); for samples/s in the script's units set batch_size to its "
              "batch and multiply dataset.samples_per_file by it, dividing sample_size");
    else
      x.evidence("reader.batch_size",
                 std::to_string(full) + " of " + std::to_string(s.batches.size()) +
                     (s.batches_from_read_bursts ? " read bursts (no handovers seen) had "
                                                 : " handovers carried ") +
                     (k > 1 ? std::to_string(s.batch_size * k) + " files, " : "") +
                     std::to_string(s.batch_size) + " samples" +
                     (k > 1 ? " of " + std::to_string(k) + " files" : ""));
  } else {
    x.note(
        "reader.batch_size: no worker→main handovers (sendmsg, /dev/shm) in the trace; 1 assumed");
    x.evidence("reader.batch_size", "not inferred (no handovers seen)");
  }
}

// reader.eval_batch_size: the commonest samples per handover of the evaluation passes, when it
// is not the training batch (MLPerf's UNet3D evaluates one case a step).
void eval_batch_size(JobWriter& x) {
  const TraceSummary& s = x.s;
  auto& r = x.out.job.reader;
  const int vi = validation_dataset(s);
  if (vi < 0 || s.stream_shards || s.batches_from_read_bursts ||
      (x.sample_file && x.sample_file->mapped))
    return;
  std::map<std::uint32_t, std::uint64_t> per_size;  // files per handover → handovers
  std::uint64_t n = 0;
  for (const auto& b : s.batches)
    if (b.epoch >= 0 && s.epochs[b.epoch].evaluation) ++per_size[b.samples], ++n;
  std::uint32_t files = 0;
  for (const auto& [size, count] : per_size)
    if (files == 0 || count > per_size[files]) files = size;
  const std::uint32_t k = s.datasets[vi].files_per_sample;
  if (n == 0 || files % k != 0 || files / k == r.batch_size) return;
  r.eval_batch_size = files / k;
  x.evidence("reader.eval_batch_size",
             std::to_string(per_size[files]) + " of " + std::to_string(n) +
                 " handovers of the evaluation passes carried " + std::to_string(files) +
                 " files (" + std::to_string(r.eval_batch_size) + " samples)");
}

}  // namespace

// [reader]: workers, batch size and prefetch.
void distil_loader(JobWriter& x) {
  const TraceSummary& s = x.s;
  auto& r = x.out.job.reader;
  workers(x);
  batch_size(x);
  eval_batch_size(x);
  if (s.prefetch > 0) {
    r.prefetch = s.prefetch;
    x.evidence("reader.prefetch",
               "up to " + std::to_string(s.prefetch * std::max<std::uint32_t>(1, r.workers)) +
                   " batches were ready ahead of the consumer (90th percentile), per worker");
  } else {
    x.evidence("reader.prefetch", "not inferred: default");
  }
}

// [reader]: shuffle, from the training set's order.
void distil_shuffle(JobWriter& x, const DatasetSummary& d) {
  auto& r = x.out.job.reader;
  const auto train_epochs = training_passes(x.s);
  const auto& o = d.order;
  const std::string stat = "Spearman rho=" + fmt("%.2f", o.spearman) +
                           " (z=" + fmt("%.1f", o.spearman_z) +
                           "), per-reader ascending=" + fmt("%.2f", o.ascending_fraction) +
                           ", epoch-to-epoch rho=" + fmt("%.2f", o.cross_epoch_spearman);
  switch (o.kind) {
    case OrderKind::sequential:
      r.shuffle = Shuffle::none;
      x.evidence("reader.shuffle", "sequential path order: " + stat);
      break;
    case OrderKind::shuffled:
      r.shuffle = Shuffle::file;
      x.evidence("reader.shuffle",
                 std::string(o.reshuffled ? "random permutation, reshuffled each epoch: "
                                          : "random permutation: ") +
                     stat);
      if (!o.reshuffled && train_epochs.size() > 1)
        x.note(
            "reader.shuffle: the same permutation was used every epoch; the job reshuffles each "
            "epoch");
      break;
    case OrderKind::buffer_shuffled:
      r.shuffle = Shuffle::file;
      r.shuffle_buffer = std::max<std::uint64_t>(2, o.buffer_estimate);
      x.evidence("reader.shuffle", "ordered overall but locally random (shuffle buffer): " + stat);
      x.evidence("reader.shuffle_buffer", "stdev of displacement from path order: about " +
                                              std::to_string(o.buffer_estimate) + " samples");
      break;
    case OrderKind::unknown:
      r.shuffle = Shuffle::file;
      x.note("reader.shuffle: order not classified (" + stat + "); random assumed");
      x.evidence("reader.shuffle", "not classified: random assumed");
      break;
  }
}

// [reader] drop_last or [run] max_steps, from the files read per epoch.
void distil_epoch_size(JobWriter& x, const DatasetSummary& d) {
  Job& job = x.out.job;
  auto& r = job.reader;
  const auto train_epochs = training_passes(x.s);
  // drop_last and max_steps from samples per epoch.
  if (!train_epochs.empty() && r.batch_size > 0) {
    const std::uint64_t n = d.files.size();
    const std::uint64_t per_epoch = train_epochs.front()->accesses;
    const std::uint64_t hosts = std::max<std::size_t>(1, x.s.hosts.size());
    const std::uint64_t global_batch = std::uint64_t(r.batch_size) * job.run.accelerators * hosts;
    if (per_epoch >= n) {
      r.drop_last = false;
      x.evidence("reader.drop_last",
                 "every file read each epoch (" + std::to_string(per_epoch) + " reads)");
    } else if (n - per_epoch < global_batch && per_epoch % global_batch == 0) {
      r.drop_last = true;
      x.evidence("reader.drop_last",
                 std::to_string(n - per_epoch) + " files skipped per epoch, fewer than a batch");
    } else {
      job.run.max_steps = per_epoch / global_batch;
      x.evidence("run.max_steps", "epochs read only " + std::to_string(per_epoch) + " of " +
                                      std::to_string(n) + " files");
    }
  }
}

}  // namespace dlgen::analysis::sections
