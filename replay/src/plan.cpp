#include "dlgen/replay/plan.hpp"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "dlgen/core/limits.hpp"
#include "dlgen/core/llm.hpp"
#include "dlgen/core/printf_text.hpp"
#include "dlgen/core/units.hpp"
#include "dlgen/datasets/layout.hpp"
#include "dlgen/datasets/parquet.hpp"
#include "row_group_reads.hpp"

namespace dlgen::replay {
namespace {

// Uniform integer in [0, n) without modulo bias worth speaking of (Lemire's multiply-shift).
std::uint64_t below(Rng& rng, std::uint64_t n) {
  return static_cast<std::uint64_t>((static_cast<unsigned __int128>(rng()) * n) >> 64);
}

// Fisher–Yates written out, so the order is the same with every standard library.
template <class T>
void permute(std::vector<T>& v, Rng& rng) {
  for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[below(rng, i)]);
}

constexpr std::uint64_t kShuffleSalt = 0x5348554646ULL;  // "SHUFF"
constexpr std::uint64_t kEvalSalt = 0x6576616cULL;       // "eval"
constexpr std::uint64_t kBatchSalt = 0x4241544348ULL;    // "BATCH"

// The epoch's file order: 0 .. files-1, permuted unless shuffle = "none".
std::vector<std::uint64_t> files_in_order(std::uint64_t files, Shuffle shuffle, Rng& rng) {
  std::vector<std::uint64_t> order(files);
  for (std::uint64_t i = 0; i < files; ++i) order[i] = i;
  if (shuffle != Shuffle::none) permute(order, rng);
  return order;
}

// shuffle = "sample" with shuffle_block = n: each file's samples cut into blocks of n consecutive
// ones (a file's last block may be shorter), the blocks permuted, each block's samples in order.
std::vector<std::uint64_t> block_order(std::uint64_t files, std::uint64_t per_file,
                                       std::uint64_t n, Rng& rng) {
  std::vector<std::uint64_t> starts;
  for (std::uint64_t f = 0; f < files; ++f)
    for (std::uint64_t s = 0; s < per_file; s += n) starts.push_back(f * per_file + s);
  permute(starts, rng);
  std::vector<std::uint64_t> order;
  order.reserve(files * per_file);
  for (const std::uint64_t start : starts) {
    const std::uint64_t len = std::min(n, per_file - start % per_file);
    for (std::uint64_t i = 0; i < len; ++i) order.push_back(start + i);
  }
  return order;
}

}  // namespace

std::uint64_t EpochPlan::num_samples() const {
  std::uint64_t n = 0;
  for (const auto& a : accelerators) n += a.num_samples();
  return n;
}

std::uint64_t EpochPlan::num_steps() const {
  std::uint64_t n = 0;
  for (const auto& a : accelerators) n = std::max<std::uint64_t>(n, a.num_batches());
  return n;
}

std::vector<std::uint64_t> epoch_order(const DatasetSpec& dataset, const ReaderSpec& reader,
                                       std::uint32_t epoch) {
  const std::uint64_t files = dataset.num_files;
  const std::uint64_t per_file = std::max<std::uint32_t>(1, dataset.samples_per_file);
  std::vector<std::uint64_t> order(files * per_file);
  Rng rng(mix_seed(mix_seed(reader.seed, kShuffleSalt), epoch));

  if (reader.shuffle == Shuffle::sample && reader.shuffle_buffer == 0 && reader.shuffle_block > 0)
    return block_order(files, per_file, reader.shuffle_block, rng);
  if (reader.shuffle == Shuffle::sample && reader.shuffle_buffer == 0) {
    for (std::uint64_t i = 0; i < order.size(); ++i) order[i] = i;
    permute(order, rng);
    return order;
  }
  const std::vector<std::uint64_t> file_order = files_in_order(files, reader.shuffle, rng);
  std::size_t at = 0;
  for (std::uint64_t f : file_order)
    for (std::uint64_t s = 0; s < per_file; ++s) order[at++] = f * per_file + s;

  if (reader.shuffle == Shuffle::none || reader.shuffle_buffer == 0) return order;
  // A shuffle buffer: fill with the first N samples of the stream; then each output is a random
  // buffer slot, refilled with the next stream sample; the rest leaves in random order.
  const std::size_t n = std::min<std::uint64_t>(reader.shuffle_buffer, order.size());
  std::vector<std::uint64_t> buffer(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n));
  std::vector<std::uint64_t> out;
  out.reserve(order.size());
  for (std::size_t next = n; next < order.size(); ++next) {
    const std::size_t pick = below(rng, buffer.size());
    out.push_back(buffer[pick]);
    buffer[pick] = order[next];
  }
  permute(buffer, rng);
  out.insert(out.end(), buffer.begin(), buffer.end());
  return out;
}

namespace {

// read = "stream": the epoch's shard order (files; samples stay in file order) dealt round-robin
// to every worker of every accelerator of every rank; each worker's batches are the next `batch`
// samples of its own shards. The accelerator takes its workers' batches in turn (batch k from
// worker k mod W, as the replay's workers serve them and PyTorch's DataLoader takes them); a
// worker whose shards ran out leaves its turn to the next one with samples left.
void plan_streams(const DatasetSpec& dataset, const ReaderSpec& r, const RunSpec& run,
                  std::uint32_t epoch, Topology topology, EpochPlan& plan) {
  const std::uint32_t local = std::max<std::uint32_t>(1, run.accelerators);
  const std::uint32_t workers = std::max<std::uint32_t>(1, r.workers);
  const std::uint64_t slots = std::uint64_t{topology.nranks} * local * workers;
  const std::uint64_t per_file = std::max<std::uint32_t>(1, dataset.samples_per_file);
  const std::uint64_t batch = std::max<std::uint32_t>(1, r.batch_size);
  std::vector<std::uint64_t> files(dataset.num_files);
  for (std::uint64_t i = 0; i < files.size(); ++i) files[i] = i;
  if (r.shuffle != Shuffle::none) {
    Rng rng(mix_seed(mix_seed(r.seed, kShuffleSalt), epoch));
    permute(files, rng);
  }
  plan.accelerators.resize(local);
  for (std::uint32_t a = 0; a < local; ++a) {
    AcceleratorPlan& acc = plan.accelerators[a];
    acc.global_id = static_cast<std::uint32_t>(topology.rank * local + a);
    // Each worker's stream: its shards' samples in order; `next` = how far it has been taken.
    std::vector<std::vector<SampleRef>> stream(workers);
    for (std::uint32_t w = 0; w < workers; ++w)
      for (std::uint64_t i = std::uint64_t{acc.global_id} * workers + w; i < files.size();
           i += slots)
        for (std::uint64_t s = 0; s < per_file; ++s)
          stream[w].push_back({files[i], static_cast<std::uint32_t>(s)});
    std::vector<std::size_t> next(workers, 0);
    acc.batch_begin.assign(1, 0);
    for (std::uint64_t k = 0;;) {
      if (run.max_steps > 0 && k >= run.max_steps) break;
      std::uint32_t w = static_cast<std::uint32_t>(k % workers);
      for (std::uint32_t tried = 0; tried < workers && next[w] == stream[w].size(); ++tried)
        w = (w + 1) % workers;
      if (next[w] == stream[w].size()) break;
      const std::size_t take = std::min<std::size_t>(batch, stream[w].size() - next[w]);
      if (r.drop_last && take < batch) {  // a worker's last partial batch (PyTorch drops it)
        next[w] = stream[w].size();
        continue;
      }
      ++k;
      acc.samples.insert(acc.samples.end(),
                         stream[w].begin() + static_cast<std::ptrdiff_t>(next[w]),
                         stream[w].begin() + static_cast<std::ptrdiff_t>(next[w] + take));
      next[w] += take;
      acc.batch_begin.push_back(acc.samples.size());
    }
  }
}

// The plan of a file-level order by arithmetic (OrderShard): the same samples in the same
// batches as the listed plan below gives (epoch_order's file order, sample i of the order to
// global accelerator i mod N, drop_last, max_steps), without listing them.
void plan_by_arithmetic(const DatasetSpec& dataset, const ReaderSpec& r, const RunSpec& run,
                        std::uint32_t epoch, Topology topology, EpochPlan& plan) {
  Rng rng(mix_seed(mix_seed(r.seed, kShuffleSalt), epoch));
  auto files = std::make_shared<const std::vector<std::uint64_t>>(
      files_in_order(dataset.num_files, r.shuffle, rng));
  const std::uint64_t per_file = std::max<std::uint32_t>(1, dataset.samples_per_file);
  const std::uint64_t total = dataset.num_files * per_file;
  const std::uint32_t local = std::max<std::uint32_t>(1, run.accelerators);
  const std::uint64_t global = std::uint64_t{local} * topology.nranks;
  const std::uint64_t batch = std::max<std::uint32_t>(1, r.batch_size);
  const std::uint64_t usable = r.drop_last ? total / global * global : total;
  plan.accelerators.resize(local);
  for (std::uint32_t a = 0; a < local; ++a) {
    AcceleratorPlan& acc = plan.accelerators[a];
    acc.global_id = static_cast<std::uint32_t>(topology.rank * local + a);
    acc.batch_begin.clear();
    const std::uint64_t g = acc.global_id;
    std::uint64_t n = usable > g ? (usable - g - 1) / global + 1 : 0;
    std::uint64_t batches = r.drop_last ? n / batch : (n + batch - 1) / batch;
    if (run.max_steps > 0) batches = std::min<std::uint64_t>(batches, run.max_steps);
    n = std::min(n, batches * batch);
    acc.shard = OrderShard{files, per_file, g, global, n, batch, batches};
  }
}

// Where an accelerator's batches begin in its share of n samples, and where the last ends:
// batches of r.batch_size (the last partial, dropped with drop_last), or of sizes drawn with
// `seed` when they vary (batch_cuts); at most max_steps batches (0: no limit).
std::vector<std::uint64_t> batch_bounds(const ReaderSpec& r, std::uint64_t n,
                                        std::uint64_t max_steps, std::uint64_t seed) {
  std::vector<std::uint64_t> sizes;
  if (r.batches_vary()) {
    sizes = batch_cuts(r.batch_sizes, n, seed);
  } else {
    const std::uint64_t batch = std::max<std::uint32_t>(1, r.batch_size);
    sizes.assign(n / batch, batch);
    if (n % batch != 0 && !r.drop_last) sizes.push_back(n % batch);
  }
  if (max_steps > 0 && sizes.size() > max_steps) sizes.resize(max_steps);
  std::vector<std::uint64_t> bounds{0};
  for (const std::uint64_t s : sizes) bounds.push_back(bounds.back() + s);
  return bounds;
}

}  // namespace

EpochPlan plan_dataset(const DatasetSpec& dataset, const ReaderSpec& reader, const RunSpec& run,
                       std::uint32_t epoch, Phase phase, Topology topology) {
  assert(topology.nranks >= 1 && topology.rank < topology.nranks);
  EpochPlan plan;
  plan.epoch = epoch;
  plan.phase = phase;
  ReaderSpec r = reader;
  if (phase == Phase::eval) {
    r.shuffle = Shuffle::none;
    r.drop_last = false;
    r.seed = mix_seed(reader.seed, kEvalSalt);
    r.batch_sizes = {};  // evaluation batches are of one size
    if (reader.eval_batch_size > 0) r.batch_size = reader.eval_batch_size;
  }
  if (r.read_unit == ReadUnit::stream) {
    plan_streams(dataset, r, run, epoch, topology, plan);
    return plan;
  }
  if (limits::plans_by_arithmetic(dataset, r)) {
    plan_by_arithmetic(dataset, r, run, epoch, topology, plan);
    return plan;
  }
  // Samples of several files: the order, sharding and batches are over samples (groups of k
  // files), and each sample is read as its k files back to back by the worker of its batch.
  // A range of each file's samples (sample_range): the order is over those, sample i of a file
  // being its first_sample_read + i.
  const std::uint64_t k = std::max<std::uint32_t>(1, dataset.files_per_sample);
  DatasetSpec samples_of = dataset;
  samples_of.num_files = dataset.num_files / k;
  samples_of.samples_per_file = samples_read_per_file(dataset);
  const std::vector<std::uint64_t> order = epoch_order(samples_of, r, epoch);
  const std::uint32_t local = std::max<std::uint32_t>(1, run.accelerators);
  const std::uint64_t global = std::uint64_t{local} * topology.nranks;
  const std::uint64_t per_file = samples_of.samples_per_file;
  const std::uint32_t first = first_sample_read(dataset);
  // With drop_last every accelerator gets the same number of samples (as DistributedSampler).
  const std::uint64_t usable = r.drop_last ? order.size() / global * global : order.size();

  plan.accelerators.resize(local);
  for (std::uint32_t a = 0; a < local; ++a) {
    AcceleratorPlan& acc = plan.accelerators[a];
    acc.global_id = static_cast<std::uint32_t>(topology.rank * local + a);
    acc.samples.reserve((usable / global + 1) * k);
    std::uint64_t n = 0;  // samples (of k files each)
    for (std::uint64_t i = acc.global_id; i < usable; i += global, ++n)
      for (std::uint64_t f = 0; f < k; ++f)
        acc.samples.push_back(
            {order[i] / per_file * k + f, first + static_cast<std::uint32_t>(order[i] % per_file)});
    const std::vector<std::uint64_t> bounds =
        batch_bounds(r, n, run.max_steps,
                     mix_seed(mix_seed(mix_seed(r.seed, kBatchSalt), epoch), acc.global_id));
    acc.samples.resize(bounds.back() * k);
    acc.batch_begin.clear();
    for (const std::uint64_t b : bounds) acc.batch_begin.push_back(b * k);
  }
  return plan;
}

std::uint64_t most_batches(const DatasetSpec& dataset, const ReaderSpec& reader, const RunSpec& run,
                           Phase phase, std::uint32_t nranks) {
  const bool drop_last = phase == Phase::train && reader.drop_last;
  if (phase == Phase::eval && reader.eval_batch_size > 0) {
    ReaderSpec r = reader;
    r.batch_size = reader.eval_batch_size;
    r.eval_batch_size = 0;
    return most_batches(dataset, r, run, phase, nranks);
  }
  if (reader.read_unit == ReadUnit::stream) {
    // Global accelerator 0 holds the first shard slots, which get the most shards; its batches
    // are every worker's own (each ends in a partial batch, dropped with drop_last).
    const std::uint64_t workers = std::max<std::uint32_t>(1, reader.workers);
    const std::uint64_t slots = std::uint64_t{std::max<std::uint32_t>(1, run.accelerators)} *
                                std::max<std::uint32_t>(1, nranks) * workers;
    const std::uint64_t per_file = std::max<std::uint32_t>(1, dataset.samples_per_file);
    const std::uint64_t batch = std::max<std::uint32_t>(1, reader.batch_size);
    std::uint64_t batches = 0;
    for (std::uint64_t w = 0; w < workers; ++w) {
      const std::uint64_t files =
          dataset.num_files > w ? (dataset.num_files - w - 1) / slots + 1 : 0;
      const std::uint64_t n = files * per_file;
      batches += drop_last ? n / batch : (n + batch - 1) / batch;
    }
    if (run.max_steps > 0) batches = std::min<std::uint64_t>(batches, run.max_steps);
    return batches;
  }
  const std::uint64_t samples = dataset.num_files * samples_read_per_file(dataset) /
                                std::max<std::uint32_t>(1, dataset.files_per_sample);
  const std::uint64_t global = std::uint64_t{std::max<std::uint32_t>(1, run.accelerators)} *
                               std::max<std::uint32_t>(1, nranks);
  const std::uint64_t batch = std::max<std::uint32_t>(1, reader.batch_size);
  const std::uint64_t usable = drop_last ? samples / global * global : samples;
  const std::uint64_t n = (usable + global - 1) / global;  // global accelerator 0's samples
  std::uint64_t batches = drop_last ? n / batch : (n + batch - 1) / batch;
  if (phase == Phase::train && reader.batches_vary())
    batches = varied_batch_count(reader.batch_sizes, n);
  if (run.max_steps > 0) batches = std::min<std::uint64_t>(batches, run.max_steps);
  return batches;
}

EpochPlan plan_epoch(const Job& job, std::uint32_t epoch, Topology topology) {
  return plan_dataset(job.dataset, job.reader, job.run, epoch, Phase::train, topology);
}

EpochPlan plan_eval(const Job& job, std::uint32_t epoch, Topology topology) {
  if (!job.validation) {
    EpochPlan empty;
    empty.epoch = epoch;
    empty.phase = Phase::eval;
    return empty;
  }
  return plan_dataset(*job.validation, job.reader, job.run, epoch, Phase::eval, topology);
}

std::uint64_t checkpoint_count(const Job& job, std::uint64_t steps_per_epoch) {
  const CheckpointSpec& c = job.checkpoint;
  if (!c.enabled) return 0;
  std::uint64_t n = 0;
  for (std::uint32_t e = 1; e <= job.run.epochs; ++e) n += c.after_epoch(e) ? 1 : 0;
  if (c.every_steps > 0) n += steps_per_epoch * job.run.epochs / c.every_steps;
  return n + (c.final_size_bytes > 0 ? 1 : 0);
}

std::uint64_t eval_count(const Job& job, std::uint64_t steps_per_epoch) {
  const RunSpec& r = job.run;
  if (!job.validation) return 0;
  std::uint64_t n = r.eval_every_epochs > 0 ? r.epochs / r.eval_every_epochs : 0;
  if (r.eval_every_steps > 0) n += steps_per_epoch * r.epochs / r.eval_every_steps;
  return n;
}

namespace {

// What plan_dataset gives this rank's accelerators, counted without building it: each
// accelerator's samples (sample i of the epoch order goes to global accelerator i mod N) and
// batches from the sharding arithmetic alone. A dry run of a dataset of billions of samples (MLPerf
// v3.0's dlrm: 4.3 billion rows) then needs no plan; plan_test checks it against the plan. Stream
// reads deal whole files to workers: those are planned.
struct PlanCounts {
  std::uint64_t samples = 0;  // over this rank's accelerators (samples of several files: one)
  std::uint64_t steps = 0;    // the most batches of any of its accelerators
};
PlanCounts count_plan(const DatasetSpec& dataset, const ReaderSpec& reader, const RunSpec& run,
                      std::uint32_t epoch, Phase phase, Topology topology) {
  ReaderSpec r = reader;
  if (phase == Phase::eval) {
    r.drop_last = false;
    if (reader.eval_batch_size > 0) r.batch_size = reader.eval_batch_size;
  }
  PlanCounts c;
  // Stream reads deal files to workers, and batches that vary are drawn: both are planned.
  if (r.read_unit == ReadUnit::stream || (phase == Phase::train && r.batches_vary())) {
    const EpochPlan plan = plan_dataset(dataset, reader, run, epoch, phase, topology);
    c.samples = plan.num_samples();
    c.steps = plan.num_steps();
    return c;
  }
  const std::uint64_t k = std::max<std::uint32_t>(1, dataset.files_per_sample);
  const std::uint64_t total = dataset.num_files / k * samples_read_per_file(dataset);
  const std::uint32_t local = std::max<std::uint32_t>(1, run.accelerators);
  const std::uint64_t global = std::uint64_t{local} * topology.nranks;
  const std::uint64_t batch = std::max<std::uint32_t>(1, r.batch_size);
  const std::uint64_t usable = r.drop_last ? total / global * global : total;
  for (std::uint32_t a = 0; a < local; ++a) {
    const std::uint64_t g = std::uint64_t{topology.rank} * local + a;
    std::uint64_t n = usable > g ? (usable - g - 1) / global + 1 : 0;
    std::uint64_t batches = r.drop_last ? n / batch : (n + batch - 1) / batch;
    if (run.max_steps > 0) batches = std::min<std::uint64_t>(batches, run.max_steps);
    n = std::min(n, batches * batch);
    c.samples += n;
    c.steps = std::max(c.steps, batches);
  }
  return c;
}

}  // namespace

PlanSummary summarize_plan(const Job& job, Topology topology) {
  PlanSummary s;
  const datasets::Layout layout(job.dataset);
  s.files = layout.num_files();
  s.dataset_bytes = layout.total_bytes();
  if (const datasets::parquet::FileGeometry* pq = layout.parquet()) {
    s.row_groups_per_file = pq->row_groups.size();
    if (job.reader.read_unit == ReadUnit::row_group && job.reader.shuffle == Shuffle::sample) {
      // Rows in random order: each batch reads the row groups its rows fall in (epoch 0's plan,
      // this rank's accelerators; row_group_reads.hpp).
      const datasets::parquet::FileReads reads = shuffled_plan_reads(
          plan_epoch(job, 0, topology), *pq, layout.num_files(), job.reader.workers);
      s.read_bytes_per_epoch = reads.bytes;
      s.read_ranges_per_epoch = reads.requests;
    } else if (job.reader.read_unit == ReadUnit::row_group) {
      const datasets::parquet::FileReads per_file = datasets::parquet::file_reads(*pq);
      s.read_bytes_per_epoch = per_file.bytes * s.files;
      s.read_ranges_per_epoch = per_file.requests * s.files;
    }
  }
  const PlanCounts first = count_plan(job.dataset, job.reader, job.run, 0, Phase::train, topology);
  s.samples_per_epoch = first.samples;  // a sample of several files counts once
  s.steps_per_epoch = first.steps;
  s.total_steps = s.steps_per_epoch * job.run.epochs;
  if (job.validation && job.run.evaluates()) {
    const datasets::Layout eval_layout(*job.validation);
    s.eval_files = eval_layout.num_files();
    s.eval_bytes = eval_layout.total_bytes();
    s.eval_steps =
        count_plan(*job.validation, job.reader, job.run, 0, Phase::eval, topology).steps *
        eval_count(job, s.steps_per_epoch);
  }
  s.checkpoints = checkpoint_count(job, s.steps_per_epoch);
  s.checkpoint_size = job.checkpoint.size_bytes;
  s.checkpoint_files = std::max<std::uint32_t>(job.checkpoint.files, 1);
  if (job.model) {
    const std::vector<RankShard> shards = training_shards(job, topology.rank);
    s.checkpoint_size = checkpoint_bytes(shards);
    s.checkpoint_files = 0;
    for (const RankShard& r : shards) s.checkpoint_files += r.files.size();
  }
  s.checkpoint_bytes = s.checkpoints * s.checkpoint_size;
  s.compute_step_s = job.compute.effective().expected();
  s.min_runtime_s = static_cast<double>(s.total_steps + s.eval_steps) * s.compute_step_s;
  return s;
}

std::string plan_json(const Job& job, const PlanSummary& s) {
  nlohmann::json j;
  j["job"] = job.name;
  j["dataset"] = {{"dir", job.dataset.dir.string()},
                  {"format", to_string(job.dataset.format)},
                  {"num_files", s.files},
                  {"bytes", s.dataset_bytes},
                  {"samples_per_file", job.dataset.samples_per_file}};
  if (job.dataset.format == Format::parquet) {
    const ParquetSpec& q = job.dataset.parquet;
    j["dataset"]["parquet"] = {{"columns", q.columns.empty() ? 1 : q.columns.size()},
                               {"row_groups_per_file", s.row_groups_per_file},
                               {"compression", to_string(q.compression)}};
    if (job.reader.read_unit == ReadUnit::row_group)
      j["parquet_reads_per_epoch"] = {{"bytes", s.read_bytes_per_epoch},
                                      {"ranges", s.read_ranges_per_epoch}};
  }
  if (s.eval_steps > 0) j["validation"] = {{"num_files", s.eval_files}, {"bytes", s.eval_bytes}};
  j["accelerators"] = job.run.accelerators;
  j["batch_size"] = job.reader.batch_size;
  j["epochs"] = job.run.epochs;
  j["samples_per_epoch"] = s.samples_per_epoch;
  j["steps_per_epoch_per_accelerator"] = s.steps_per_epoch;
  j["steps_per_accelerator"] = s.total_steps;
  j["eval_steps_per_accelerator"] = s.eval_steps;
  const bool ck = s.checkpoints > 0;
  j["checkpoint"] = {{"count", s.checkpoints},
                     {"bytes", ck ? s.checkpoint_size : 0},
                     {"files", ck ? s.checkpoint_files : 0},
                     {"total_bytes", s.checkpoint_bytes}};
  j["compute_step_s"] = s.compute_step_s;
  j["min_runtime_s"] = s.min_runtime_s;
  return j.dump(2) + "\n";
}

std::string format_plan(const Job& job, const PlanSummary& s) {
  std::string out;
  PrintfText add(out);
  using ull = unsigned long long;
  add("plan for %s\n", job.name.empty() ? job.source.string().c_str() : job.name.c_str());
  add("  dataset      %s: %llu files, %s, %s\n", job.dataset.dir.string().c_str(), ull(s.files),
      format_size(s.dataset_bytes).c_str(), to_string(job.dataset.format));
  if (job.dataset.format == Format::parquet) {
    const ParquetSpec& q = job.dataset.parquet;
    const std::size_t columns = q.columns.empty() ? 1 : q.columns.size();
    const std::size_t read = q.read_columns.empty() ? columns : q.read_columns.size();
    add("  parquet      %llu row group(s) per file, %zu column(s), %s compression\n",
        ull(s.row_groups_per_file), columns, to_string(q.compression));
    if (job.reader.read_unit == ReadUnit::row_group)
      add("  reads        %s per epoch in %llu ranges (footers, and %zu of %zu column chunks per "
          "row group, coalesced as Arrow's pre-buffering does%s)\n",
          format_size(s.read_bytes_per_epoch).c_str(), ull(s.read_ranges_per_epoch), read, columns,
          job.reader.shuffle == Shuffle::sample
              ? "; sample shuffle: each batch reads the row groups of its rows"
              : "");
  }
  add("  per epoch    %llu samples, %llu steps per accelerator (batch %s%u, %u accelerator(s), %u "
      "worker(s) each)\n",
      ull(s.samples_per_epoch), ull(s.steps_per_epoch),
      job.reader.batches_vary() ? "varying, mean " : "", job.reader.batch_size,
      job.run.accelerators, job.reader.workers);
  add("  epochs       %u: %llu steps per accelerator in all\n", job.run.epochs, ull(s.total_steps));
  if (s.eval_steps > 0)
    add("  evaluation   %llu files, %s, %llu steps in all\n", ull(s.eval_files),
        format_size(s.eval_bytes).c_str(), ull(s.eval_steps));
  if (s.checkpoints > 0)
    add("  checkpoints  %llu x %s in %llu file(s) under %s\n", ull(s.checkpoints),
        format_size(s.checkpoint_size).c_str(), ull(s.checkpoint_files),
        job.checkpoint.dir.string().c_str());
  if (s.checkpoints > 0 && job.model) {
    const LlmModel& m = *job.model;
    add("  model        %llu parameters, TP %u x PP %u x DP %u, ZeRO %u, %s weights, %s "
        "optimizer state: each of the %u accelerator(s) writes its rank's shards\n",
        ull(parameter_count(m)), m.tensor, m.pipeline, m.data, m.zero_stage, to_string(m.datatype),
        to_string(m.optimizer_datatype), job.run.accelerators);
  }
  add("  compute      %s per step%s%s\n", format_duration(s.compute_step_s).c_str(),
      job.compute.accelerator.empty() ? "" : " on ", job.compute.accelerator.c_str());
  add("  min runtime  %s (steps x compute time: a storage that never stalls)\n",
      format_duration(s.min_runtime_s).c_str());
  return out;
}

std::vector<std::int64_t> accelerator_start_offsets(const Distribution& spread, std::uint64_t seed,
                                                    std::size_t accelerators) {
  std::vector<std::int64_t> out(accelerators, 0);
  if (accelerators < 2 || spread == Distribution{}) return out;
  Rng rng(seed);
  const double s = sample(spread, rng);
  std::vector<std::size_t> order(accelerators);
  for (std::size_t i = 0; i < accelerators; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  for (std::size_t i = 0; i < accelerators; ++i)
    out[order[i]] = static_cast<std::int64_t>(s * 1e9 * static_cast<double>(i) /
                                              static_cast<double>(accelerators - 1));
  return out;
}

}  // namespace dlgen::replay
