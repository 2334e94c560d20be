// [reader] of a distilled job: who reads (workers), how much they hand over (batch size,
// prefetch), in what order (shuffle) and how much of the dataset per epoch (sections.hpp).
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "dlgen/core/limits.hpp"
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
    if (a.reads_itself && s.memory_handovers > 0) {
      const std::string from_memory =
          std::to_string(s.memory_handovers) + " hand-overs (sendmsg) by " +
          std::to_string(s.memory_workers) +
          " processes that read no dataset file: DataLoader workers serving a dataset the main "
          "process loaded into memory first";
      x.evidence("reader.workers",
                 "the main process read the dataset's files itself (0); " + from_memory +
                     ". The trace shows no reads of theirs, so the epochs, steps, batch and "
                     "compute of the training from memory are not in this job: it replays the "
                     "load");
      x.note("reader.workers: " + from_memory +
             "; the training from memory made no I/O and is not replayed (the job's epochs, "
             "steps, batch and compute are the load's, not the training's)");
    } else if (a.reads_itself) {
      x.evidence(
          "reader.workers",
          "the main process reads its own samples (no separate workers): 0, loading and compute "
          "take turns");
    } else if (s.dataset_in_memory) {
      x.evidence("reader.workers", std::to_string(a.workers) + " workers per training pass (" +
                                       (names.empty() ? std::string("unnamed") : names) +
                                       ") that read no file: they collate batches of the data the "
                                       "main process loaded; " +
                                       std::to_string(a.readers.size()) + " over the run");
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

// A memory-mapped file's batch (in fault-around windows) and drop_last, chosen together so that
// the replay takes the original's steps per epoch (LMDB's values or np.memmap rows of one file,
// read by page faults). The windows come unevenly per batch (a window another worker mapped first
// is not seen again), so the mode would be noise: windows read per step keeps the bytes per step.
// But the replay's steps are ceil(windows / batch) (or floor, dropping the last partial batch),
// and the rounded ratio can miss the original's steps (2,307 windows in 56 steps an epoch: 41.2
// a step, and no batch gives ceil = 56); the batch nearest the ratio that gives them exactly is
// taken, with drop_last when only flooring does. 0: not a mapped file.
struct MappedBatch {
  std::uint32_t batch = 0;
  bool drop_last = false;
  std::uint64_t steps = 0;  // training steps per epoch the batch keeps (0: none found)
  bool items = false;       // batch counts the program's items (touches), not windows
  bool own = false;         // ... or the windows of the main process's own read bursts
};

// The memory-mapped training set's items per batch (mapped_touches), when they stand
// (mapped_items_stand): batch = the estimate rounded, and the dataset becomes that many items a
// step over the original's steps an epoch, each the epoch's window bytes over its items (a sample
// is the pages one worker touched for one item), so steps, batch and bytes an epoch are the
// original's.
MappedBatch items_per_step(JobWriter& x, std::uint64_t target, std::uint32_t batch) {
  MappedBatch m;
  m.batch = std::max<std::uint32_t>(1, batch);
  m.steps = target;
  m.items = true;
  DatasetSpec& d = x.out.job.dataset;
  const std::uint64_t files = std::max<std::uint64_t>(1, d.num_files);
  const std::uint64_t items = target * m.batch;
  d.samples_per_file = static_cast<std::uint32_t>((items + files - 1) / files);
  // Rounding up per file can add a partial step: dropped, as the original's steps an epoch.
  m.drop_last = std::uint64_t{d.samples_per_file} * files != items;
  std::uint64_t bytes = 0, passes = 0;
  for (const auto* e : training_passes(x.s)) bytes += e->bytes_read, ++passes;
  const double per_item = static_cast<double>(bytes) / static_cast<double>(passes * items);
  d.sample_size = Distribution::fixed_at(std::max(1.0, std::round(per_item)));
  x.evidence("dataset.samples_per_file",
             std::to_string(items) + " items an epoch (" + std::to_string(m.batch) + " a batch x " +
                 std::to_string(target) + " steps) over " + std::to_string(files) +
                 " file(s): the items the workers touched, not the file's slots");
  x.evidence(
      "dataset.sample_size",
      "the pages one worker touched for one item: the training passes' fault-around bytes (" +
          format_size(bytes / std::max<std::uint64_t>(1, passes)) + " an epoch) over their items");
  return m;
}

// The evaluation passes of a main process reading its own batches: each reads its batches of
// windows at random too (nanoGPT's estimate_loss: eval_iters batches of each split), so the
// validation set becomes the items one pass reads, `batch` a step: the passes' steps (their
// median) x batch, each the passes' window bytes over their items.
void own_validation_items(JobWriter& x, std::uint32_t batch) {
  if (!x.out.job.validation) return;
  std::vector<std::uint64_t> steps;
  std::uint64_t bytes = 0;
  for (const auto& e : x.s.epochs)
    if (e.evaluation) steps.push_back(e.steps), bytes += e.bytes_read;
  if (steps.empty()) return;
  std::nth_element(steps.begin(), steps.begin() + steps.size() / 2, steps.end());
  const std::uint64_t items = std::max<std::uint64_t>(1, steps[steps.size() / 2] * batch);
  DatasetSpec& v = *x.out.job.validation;
  const std::uint64_t files = std::max<std::uint64_t>(1, v.num_files);
  v.samples_per_file = static_cast<std::uint32_t>((items + files - 1) / files);
  const double per_item = static_cast<double>(bytes) / static_cast<double>(steps.size() * items);
  v.sample_size = Distribution::fixed_at(std::max(1.0, std::round(per_item)));
  x.evidence("validation.samples_per_file",
             std::to_string(items) + " items a pass (" + std::to_string(batch) + " a batch x " +
                 std::to_string(steps[steps.size() / 2]) +
                 " steps, the evaluation passes' median) over " + std::to_string(files) +
                 " file(s): windows read at random, a batch a step");
  x.evidence("validation.sample_size", "the evaluation passes' fault-around bytes (" +
                                           format_size(bytes / steps.size()) +
                                           " a pass) over their items");
}

MappedBatch mapped_items(JobWriter& x, std::uint64_t target) {
  const SampleFile& sf = *x.sample_file;
  if (!mapped_items_stand(sf) || target == 0) return {};
  return items_per_step(x, target, static_cast<std::uint32_t>(std::lround(sf.batch_items)));
}

MappedBatch mapped_batch_for_steps(JobWriter& x) {
  if (!x.sample_file || !x.sample_file->mapped) return {};
  const auto train_epochs = training_passes(x.s);
  std::uint64_t reads = 0, steps = 0;
  std::vector<std::uint64_t> per_epoch;
  for (const auto* e : train_epochs) {
    reads += e->accesses, steps += e->steps;
    per_epoch.push_back(e->steps);
  }
  if (steps == 0) return {};
  MappedBatch m;
  m.batch = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, (reads + steps / 2) / steps));
  const DatasetSpec& d = x.out.job.dataset;
  const std::uint64_t windows =
      std::uint64_t{d.num_files} * std::max<std::uint32_t>(1, d.samples_per_file);
  const Job& job = x.out.job;
  if (job.run.accelerators > 1 || x.s.hosts.size() > 1 || windows == 0) return m;
  std::nth_element(per_epoch.begin(), per_epoch.begin() + per_epoch.size() / 2, per_epoch.end());
  const std::uint64_t target = per_epoch[per_epoch.size() / 2];
  if (target == 0) return m;
  if (MappedBatch items = mapped_items(x, target); items.items) return items;
  // The main process reading its own batches (nanoGPT's get_batch) draws its windows at random:
  // a step is its burst of windows, and its passes no permutation of the file's slots, so the
  // batch is the windows a step read and the items an epoch that many a step.
  if (x.s.accelerators[0].reads_itself) {
    MappedBatch own = items_per_step(x, target, m.batch);
    own.own = true;
    own_validation_items(x, own.batch);
    return own;
  }
  std::uint64_t best = 0;
  bool best_drop = false;
  const auto distance = [&](std::uint64_t b) { return b > m.batch ? b - m.batch : m.batch - b; };
  for (std::uint64_t b = std::max<std::uint64_t>(1, windows / (target + 1));
       b <= windows / std::max<std::uint64_t>(1, target - 1) + 1; ++b)
    for (bool drop : {false, true}) {
      const std::uint64_t n = drop ? windows / b : (windows + b - 1) / b;
      if (n == target && (best == 0 || distance(b) < distance(best))) best = b, best_drop = drop;
    }
  if (best == 0) return m;
  m.batch = static_cast<std::uint32_t>(best);
  m.drop_last = best_drop;
  m.steps = target;
  return m;
}

// reader.batch_size: the commonest samples per handover (or read burst); a stream's batches
// their tensors' samples, or one each when those do not tell; a memory-mapped file's windows per
// handover.
void batch_size(JobWriter& x) {
  const TraceSummary& s = x.s;
  auto& r = x.out.job.reader;
  const MappedBatch mapped = mapped_batch_for_steps(x);
  const std::uint32_t mapped_batch = mapped.batch;
  if (mapped_batch > 0 && !s.stream_shards) {
    r.batch_size = mapped_batch;
    if (mapped.own)
      x.evidence("reader.batch_size",
                 "fault-around windows read per step by the main process's own bursts of reads (" +
                     std::to_string(s.batches.size()) +
                     " bursts): each burst is a batch, read at random from the memory-mapped file");
    else if (mapped.items)
      x.evidence("reader.batch_size",
                 "items per batch of the memory-mapped file (" +
                     fmt("%.1f", x.sample_file->batch_items) +
                     "): each worker's runs of faults "
                     "in adjacent windows between its hand-overs, over the share of the windows "
                     "that could still fault for it (" +
                     std::to_string(x.sample_file->touch_batches) + " batches)");
    else
      x.evidence("reader.batch_size",
                 "fault-around windows read per handover over the training passes (" +
                     std::to_string(s.batches.size()) +
                     " handovers): the memory-mapped file's samples are not seen" +
                     (mapped.steps ? "; the nearest batch that keeps the original's " +
                                         std::to_string(mapped.steps) + " steps an epoch"
                                   : std::string()));
    if (mapped.steps) {
      r.drop_last = mapped.drop_last;
      x.evidence("reader.drop_last",
                 std::string(mapped.drop_last ? "true" : "false") +
                     (mapped.items ? ": with the items an epoch, the original's steps an epoch"
                                   : ": with the batch of windows, the original's steps an epoch"));
    }
  } else if (s.batch_size > 0) {
    r.batch_size = s.batch_size;
    // Counted over the training passes' batches (their commonest: find_batches).
    std::uint64_t full = 0, counted = 0, evaluation = 0;
    const int ti = train_dataset(s);
    const std::uint32_t k = ti >= 0 ? s.datasets[ti].files_per_sample : 1;
    if (write_varying_batches(x, k)) return;
    auto in_evaluation = [&](const auto& b) {
      return b.epoch >= 0 && static_cast<std::size_t>(b.epoch) < s.epochs.size() &&
             s.epochs[b.epoch].evaluation;
    };
    for (const auto& b : s.batches) evaluation += in_evaluation(b);
    const bool training_only = evaluation > 0 && evaluation < s.batches.size();
    for (const auto& b : s.batches)
      if (!training_only || !in_evaluation(b)) full += b.samples == s.batch_size * k, ++counted;
    if (s.stream_shards && !s.stream_samples)
      x.evidence(
          "reader.batch_size",
          "1: each of the " + std::to_string(s.batches.size()) +
              " handovers is a batch, counted as one sample (samples not inferred: a stream's "
              "reads show no sample boundaries and its batches' /dev/shm tensors do not tell "
              "them); for samples/s in the script's units set batch_size to its batch and "
              "multiply dataset.samples_per_file by it, dividing sample_size");
    else if (s.stream_shards)
      x.evidence("reader.batch_size",
                 std::to_string(full) + " of " + std::to_string(counted) +
                     " streamed batches carried " + std::to_string(s.batch_size) +
                     " samples, counted from the /dev/shm tensors each was handed over in (the "
                     "smallest its labels, one int64 a sample; a stream's reads show no sample "
                     "boundaries)");
    else
      x.evidence("reader.batch_size",
                 std::to_string(full) + " of " + std::to_string(counted) +
                     (s.batches_from_read_bursts ? " read bursts (no handovers seen) had "
                      : training_only            ? " handovers of the training passes carried "
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

// Files per handover of the evaluation passes → handovers, each pass's remainder left out: a pass
// of a validation set that is not a multiple of the batch ends in one partial batch (60 files of
// a random_split in batches of 32: 32 and 28), which, in a pass of two batches, is as common as
// the full one. The remainder is the pass's smallest handover, when it is smaller than another;
// a pass of one batch, or of equal ones, keeps all.
std::map<std::uint32_t, std::uint64_t> eval_handover_sizes(const TraceSummary& s) {
  std::map<std::int32_t, std::vector<std::uint32_t>> per_pass;
  for (const auto& b : s.batches)
    if (b.epoch >= 0 && s.epochs[b.epoch].evaluation) per_pass[b.epoch].push_back(b.samples);
  std::map<std::uint32_t, std::uint64_t> per_size;
  for (auto& [pass, sizes] : per_pass) {
    const auto smallest = std::min_element(sizes.begin(), sizes.end());
    if (*smallest < *std::max_element(sizes.begin(), sizes.end())) sizes.erase(smallest);
    for (auto n : sizes) ++per_size[n];
  }
  return per_size;
}

// reader.eval_batch_size: the commonest samples per full handover of the evaluation passes, when
// it is not the training batch (MLPerf's UNet3D evaluates one case a step).
void eval_batch_size(JobWriter& x) {
  const TraceSummary& s = x.s;
  auto& r = x.out.job.reader;
  const int vi = validation_dataset(s);
  if (vi < 0 || s.stream_shards || s.batches_from_read_bursts ||
      (x.sample_file && x.sample_file->mapped))
    return;
  std::map<std::uint32_t, std::uint64_t> per_size = eval_handover_sizes(s);
  std::uint64_t n = 0;
  for (const auto& [size, count] : per_size) n += count;
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

// reader.iodepth: the reads a reader kept in flight at once, when more than one (a worker
// fetching its batch on a thread pool, an io_uring reader); else the default, one at a time.
void iodepth(JobWriter& x) {
  if (x.s.accelerators.empty()) return;
  const std::uint32_t depth = x.s.accelerators[0].reader_depth;
  if (depth <= 1) return;
  x.out.job.reader.iodepth = static_cast<std::uint32_t>(std::min<std::uint64_t>(depth, limits::kMaxIodepth));
  x.evidence("reader.iodepth",
             "a reader kept up to " + std::to_string(depth) +
                 " reads in flight at once (90% of its busy time; median over the readers): its "
                 "threads read for it (a worker's thread pool) or it submits asynchronously");
}

}  // namespace

// [reader]: workers, reads in flight, batch size and prefetch.
void distil_loader(JobWriter& x) {
  const TraceSummary& s = x.s;
  auto& r = x.out.job.reader;
  workers(x);
  iodepth(x);
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
  // A memory-mapped file's drop_last came with its batch (mapped_batch_for_steps): its windows are
  // not samples, so the files read per epoch say nothing of a dropped batch.
  if (x.sample_file && x.sample_file->mapped) return;
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
