#pragma once
// The epoch plan: a pure, seeded function of the job that says, for every simulated accelerator on
// this host, which samples it consumes in which batches. Same (job, epoch, topology) → same plan;
// a different epoch mixes a different seed, so the order really changes between epochs. Every
// sample of the dataset appears exactly once per epoch across all accelerators of all ranks
// (fewer when drop_last or max_steps cut the tail).
#include <algorithm>
#include <cassert>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "dlgen/core/job.hpp"

namespace dlgen::replay {

// Where this process sits among the MPI ranks ({0, 1} without mpirun; RunOptions::cluster sets it
// under mpirun, docs/cluster.md). Rank r runs
// job.run.accelerators accelerators, global accelerator ids r*accelerators ... + accelerators-1.
struct Topology {
  std::uint32_t rank = 0;
  std::uint32_t nranks = 1;
};

// One sample of the dataset: sample `sample` of file `file`; with dataset.files_per_sample k > 1,
// one of a sample's k files (a batch of B samples holds B x k entries, each sample's files in a
// row, read back to back by the batch's worker).
struct SampleRef {
  std::uint64_t file = 0;
  std::uint32_t sample = 0;
  friend bool operator==(const SampleRef&, const SampleRef&) = default;
};

// A shard of a file-level epoch order, planned by arithmetic instead of listed: sample i of the
// accelerator is the epoch's sample p = first + i x stride, row p mod per_file of file
// files[p / per_file]. Used for read = "row_group" with shuffle "none" or "file" (no shuffle
// buffer; plans_by_arithmetic, core/limits.hpp): it holds O(files), not O(samples), so MLPerf
// v3.0's dlrm (4.3 billion rows; a listed plan needs ~100 GB) plans in a few KiB.
struct OrderShard {
  std::shared_ptr<const std::vector<std::uint64_t>> files;  // the epoch's file order (shared)
  std::uint64_t per_file = 1;
  std::uint64_t first = 0;    // the accelerator's global id
  std::uint64_t stride = 1;   // global accelerators
  std::uint64_t samples = 0;  // the accelerator's, after drop_last and max_steps
  std::uint64_t batch = 1;
  std::uint64_t batches = 0;
};

// The ordered batches of one accelerator, stored flat: batch k is
// samples[batch_begin[k] .. batch_begin[k+1]); or, when `shard` is set, computed from it (then
// `samples` and `batch_begin` stay empty and batch() must not be called).
struct AcceleratorPlan {
  std::uint32_t global_id = 0;
  std::vector<SampleRef> samples;
  std::vector<std::uint64_t> batch_begin{0};
  std::optional<OrderShard> shard;
  std::size_t num_batches() const { return shard ? shard->batches : batch_begin.size() - 1; }
  std::uint64_t num_samples() const { return shard ? shard->samples : samples.size(); }
  std::uint64_t batch_size(std::size_t k) const {
    if (!shard) return batch_begin[k + 1] - batch_begin[k];
    return std::min(shard->samples, (k + 1) * shard->batch) - k * shard->batch;
  }
  // Entry j of batch k (the worker's hot path: a division, no allocation).
  SampleRef sample(std::size_t k, std::uint64_t j) const {
    if (!shard) return samples[batch_begin[k] + j];
    const std::uint64_t p = shard->first + (k * shard->batch + j) * shard->stride;
    return {(*shard->files)[p / shard->per_file], static_cast<std::uint32_t>(p % shard->per_file)};
  }
  std::span<const SampleRef> batch(std::size_t k) const {
    assert(!shard);
    return {samples.data() + batch_begin[k], samples.data() + batch_begin[k + 1]};
  }
};

enum class Phase { train, eval };

struct EpochPlan {
  std::uint32_t epoch = 0;
  Phase phase = Phase::train;
  std::vector<AcceleratorPlan> accelerators;  // this rank's accelerators only
  std::uint64_t num_samples() const;
  std::uint64_t num_steps() const;  // the largest batch count of any accelerator
};

// The order in which one epoch visits the dataset's samples (global sample id = file *
// samples_per_file + sample), before sharding: none (file order), file (files permuted, samples
// in file order), sample (full permutation; with shuffle_block = n a permutation of blocks of n
// consecutive samples of one file, each block in order); shuffle_buffer > 0 streams the file-level order
// through a DLIO/tf.data-style buffer of that many samples instead of a full permutation.
std::vector<std::uint64_t> epoch_order(const DatasetSpec& dataset, const ReaderSpec& reader,
                                       std::uint32_t epoch);

// Shards the epoch order over the global accelerators (sample i → accelerator i mod N, as
// PyTorch's DistributedSampler), cuts batches (of reader.batch_size, or of sizes drawn from
// reader.batch_sizes for a training pass: batch_cuts), applies drop_last and run.max_steps.
EpochPlan plan_epoch(const Job& job, std::uint32_t epoch, Topology topology = {});
// The evaluation pass over the validation set (no shuffle, partial last batch kept).
// Returns an empty plan when the job has no validation set.
EpochPlan plan_eval(const Job& job, std::uint32_t epoch, Topology topology = {});
EpochPlan plan_dataset(const DatasetSpec& dataset, const ReaderSpec& reader, const RunSpec& run,
                       std::uint32_t epoch, Phase phase, Topology topology);

// Training batches that vary in size (reader.batch_size as a distribution): an accelerator's
// share of `samples` samples in varied_batch_count batches, samples / mean batch rounded (at
// least 1, at most `samples`), whose sizes are drawn by strata (set_draws, seeded with `seed`:
// a histogram's shares held to within one batch), rounded, at least 1, and scaled so that they
// add up to `samples` exactly. So steps per epoch are the same in every epoch and every sample
// is taken (no partial batch for drop_last to drop); the sizes are in a seeded order.
std::uint64_t varied_batch_count(const Distribution& sizes, std::uint64_t samples);
std::vector<std::uint64_t> batch_cuts(const Distribution& sizes, std::uint64_t samples,
                                      std::uint64_t seed);

// The most batches any accelerator of any rank gets in one pass (global accelerator 0's, which
// the sharding gives the most samples): what every rank of a multi-host run counts its step
// checkpoints against. Equals the largest plan_dataset(...).num_steps() over the ranks.
std::uint64_t most_batches(const DatasetSpec& dataset, const ReaderSpec& reader, const RunSpec& run,
                           Phase phase, std::uint32_t nranks);

// What a dry run prints: the work a job implies, and the least time it can take
// (steps × mean compute time: a storage that never makes an accelerator wait).
struct PlanSummary {
  std::uint64_t files = 0;
  std::uint64_t dataset_bytes = 0;
  std::uint64_t samples_per_epoch = 0;  // over all accelerators of this rank
  std::uint64_t steps_per_epoch = 0;    // per accelerator
  std::uint64_t total_steps = 0;        // per accelerator, all epochs
  std::uint64_t eval_files = 0;
  std::uint64_t eval_bytes = 0;
  std::uint64_t eval_steps = 0;  // per accelerator, all evaluation passes
  std::uint64_t checkpoints = 0;
  std::uint64_t checkpoint_bytes = 0;  // all checkpoints together
  // One checkpoint of this rank: checkpoint.size in checkpoint.files, or with a [model] the shard
  // files of this host's accelerators (core/llm.hpp training_shards).
  std::uint64_t checkpoint_size = 0;
  std::uint64_t checkpoint_files = 0;
  double compute_step_s = 0;  // mean compute time per step
  double min_runtime_s = 0;
  // format = "parquet": row groups per file, and with read = "row_group" what one epoch reads
  // over the whole dataset (every row group's selected column chunks, each file's footer once):
  // bytes and ranges (before the replay splits a range larger than its buffer).
  std::uint64_t row_groups_per_file = 0;
  std::uint64_t read_bytes_per_epoch = 0;
  std::uint64_t read_ranges_per_epoch = 0;
};
PlanSummary summarize_plan(const Job& job, Topology topology = {});
std::string format_plan(const Job& job, const PlanSummary& summary);
// The plan as JSON (`dlgen run JOB --dry-run --output plan.json`): dataset.num_files / bytes, steps
// per accelerator, checkpoint.bytes (all shards of one checkpoint) / files / count, min_runtime_s.
std::string plan_json(const Job& job, const PlanSummary& summary);

// How many checkpoints a run writes (by epoch and by step cadence, and a final save).
std::uint64_t checkpoint_count(const Job& job, std::uint64_t steps_per_epoch);
// How many evaluation passes a run makes (by epoch and by step cadence); 0 without [validation].
std::uint64_t eval_count(const Job& job, std::uint64_t steps_per_epoch);

// reader.startup_spread for one pass of `accelerators` accelerators: nanoseconds each one's
// readers start after the pass's `reader.startup`. One spread S is drawn from `spread` with
// `seed` (one seed per pass); the accelerators start evenly spaced over it, S × i / (n − 1) for
// the i-th in a seeded random order, so the first starts at 0 and the last at S. One accelerator
// (or a spread of 0): all zero.
std::vector<std::int64_t> accelerator_start_offsets(const Distribution& spread, std::uint64_t seed,
                                                    std::size_t accelerators);

}  // namespace dlgen::replay
