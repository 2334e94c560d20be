#include "dlgen/core/limits.hpp"

#include <sys/sysinfo.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "dlgen/core/units.hpp"

namespace dlgen::limits {
namespace {

void add_diag(std::vector<Diagnostic>& out, std::string path, std::string message) {
  out.push_back({std::move(path), std::move(message), 0});
}

std::string num(std::uint64_t v) {
  return std::to_string(v);
}

// A count above its limit: "must be at most 1024 (got 5000): <reason>".
bool count_ok(std::vector<Diagnostic>& out, const std::string& path, std::uint64_t value,
              std::uint64_t limit, const char* reason) {
  if (value <= limit) return true;
  add_diag(out, path, "must be at most " + num(limit) + " (got " + num(value) + "): " + reason);
  return false;
}

bool size_ok(std::vector<Diagnostic>& out, const std::string& path, double bytes,
             std::uint64_t limit, const char* reason) {
  if (!std::isfinite(bytes)) {
    add_diag(out, path, "must be a finite size");
    return false;
  }
  if (bytes <= static_cast<double>(limit)) return true;
  const std::string got =
      bytes < 0x1p64 ? format_size(static_cast<std::uint64_t>(bytes)) : "more than 16EiB";
  add_diag(out, path, "must be at most " + format_size(limit) + " (got " + got + "): " + reason);
  return false;
}

bool seconds_ok(std::vector<Diagnostic>& out, const std::string& path, double s, double limit,
                const char* reason) {
  if (!std::isfinite(s)) {
    add_diag(out, path, "must be a finite duration");
    return false;
  }
  if (s <= limit) return true;
  add_diag(
      out, path,
      "must be at most " + format_duration(limit) + " (got " + format_duration(s) + "): " + reason);
  return false;
}

// Every parameter of a distribution against one limit (bytes or seconds).
template <class Check>
bool distribution_ok(const Distribution& d, const std::string& path, Check check) {
  bool good = true;
  switch (d.kind) {
    case DistKind::fixed:
      good &= check(path, d.value);
      break;
    case DistKind::normal:
    case DistKind::lognormal:
    case DistKind::gamma:
      good &= check(path + ".mean", d.mean);
      good &= check(path + ".stdev", d.stdev);
      break;
    case DistKind::uniform:
      break;
    case DistKind::histogram:
      for (std::size_t i = 0; i < d.bins.size(); ++i) {
        const std::string bp = path + ".bins[" + std::to_string(i) + "]";
        good &= check(bp, d.bins[i].lo) && check(bp, d.bins[i].hi);
      }
      break;
  }
  good &= check(path + ".min", d.min);
  good &= check(path + ".max", d.max);
  return good;
}

// The largest value a draw can take (bounded kinds) or its expected value (unbounded tails):
// what a dataset's total size is estimated with.
double typical_max(const Distribution& d) {
  if (d.max > 0) return d.max;
  if (d.kind == DistKind::histogram) {
    double hi = 0;
    for (const auto& b : d.bins) hi = std::max(hi, b.hi);
    return hi;
  }
  if (d.kind == DistKind::fixed) return d.value;
  return d.expected();
}

constexpr const char* kSampleReason =
    "one sample this large fits no accelerator's memory, and dlgen writes each file whole";

// Counts and sizes of one dataset; returns false when a count is out of range (then the products
// below it mean nothing and the plan is not estimated).
bool check_dataset(const DatasetSpec& d, const std::string& p, std::vector<Diagnostic>& out) {
  bool good = count_ok(
      out, p + ".num_files", d.num_files, kMaxFiles,
      "dlgen generates, lists and opens one file per index; ImageNet has 1.28 million files");
  good &= count_ok(out, p + ".samples_per_file", d.samples_per_file, kMaxSamplesPerFile,
                   "more samples than any record or array file of a training set holds");
  const bool sizes =
      distribution_ok(d.sample_size, p + ".sample_size", [&](const std::string& path, double v) {
        return size_ok(out, path, v, kMaxSampleBytes, kSampleReason);
      });
  if (!good || !sizes) return false;
  // The dataset's bytes: files x samples x the largest (or, unbounded, the mean) sample size.
  const auto samples = mul(d.num_files, std::max<std::uint32_t>(d.samples_per_file, 1));
  const double bytes =
      static_cast<double>(samples.value_or(UINT64_MAX)) * typical_max(d.sample_size);
  if (!samples || !(bytes <= static_cast<double>(kMaxDatasetBytes))) {
    add_diag(out, p + ".num_files",
             "the dataset would hold " +
                 (bytes < 0x1p64 ? format_size(static_cast<std::uint64_t>(bytes))
                                 : std::string("more than 16EiB")) +
                 " (" + num(d.num_files) + " files x " + num(d.samples_per_file) + " samples x " +
                 format_size(static_cast<std::uint64_t>(typical_max(d.sample_size))) +
                 "), more than the limit of " + format_size(kMaxDatasetBytes) +
                 " (byte counts must fit 64 bits)");
    return false;
  }
  return true;
}

// The runner's file table per file (size 8, path offset 8, the path: directory + subdirectory +
// prefix + index + extension), and the layout's file sizes when sample sizes vary (8).
std::uint64_t file_table_bytes(const DatasetSpec& d, bool tables) {
  const std::uint64_t path = d.dir.native().size() + d.file_prefix.size() + 40;
  return 16 + path + (tables ? 8 : 0);
}

// A pass planned by arithmetic (replay::OrderShard): the file order (8 per file, held once) and
// the file table; with varying sizes the layout's per-sample tables (16 per sample) remain.
std::optional<std::uint64_t> arithmetic_plan_bytes(const DatasetSpec& d) {
  const bool tables = d.sample_size.kind != DistKind::fixed;
  auto files = mul(d.num_files, 8 + file_table_bytes(d, tables));
  if (!files || !tables) return files;
  auto samples = mul(d.num_files, std::max<std::uint32_t>(d.samples_per_file, 1));
  auto sample_tables = samples ? mul(*samples, 16) : std::nullopt;
  return sample_tables ? add(*files, *sample_tables) : std::nullopt;
}

// Per-dataset plan memory (see plan_memory_bytes), nullopt on overflow. `eval`: an evaluation
// pass, which reads in file order (no shuffle).
std::optional<std::uint64_t> dataset_plan_bytes(const DatasetSpec& d, const ReaderSpec& r,
                                                std::uint64_t accelerators, bool eval = false) {
  ReaderSpec pass_reader = r;
  if (eval) pass_reader.shuffle = Shuffle::none;
  if (plans_by_arithmetic(d, pass_reader)) return arithmetic_plan_bytes(d);
  const std::uint64_t files = d.num_files;
  const auto samples = mul(files, std::max<std::uint32_t>(d.samples_per_file, 1));
  if (!samples) return std::nullopt;
  const std::uint64_t s = *samples;
  const std::uint64_t batch = std::max<std::uint32_t>(r.batch_size, 1);
  // Per sample: the epoch order (8), the accelerators' SampleRef lists (16), with a shuffle buffer
  // the buffered order (8) and the buffer itself (8 per buffered sample), with varying sizes the
  // layout's offset and length tables (16).
  std::uint64_t per_sample = 8 + 16;
  if (r.shuffle != Shuffle::none && r.shuffle_buffer > 0) per_sample += 8;
  const bool tables = d.sample_size.kind != DistKind::fixed;
  if (tables) per_sample += 16;
  // Per file: the file order (8) and the file table.
  const std::uint64_t per_file = 8 + file_table_bytes(d, tables);
  auto a = mul(s, per_sample);
  auto b = mul(files, per_file);
  auto c = mul(std::min<std::uint64_t>(r.shuffle_buffer, s), 8);
  auto batches = mul(s / batch + 2 * accelerators, 8);
  if (!a || !b || !c || !batches) return std::nullopt;
  auto t = add(*a, *b);
  if (t) t = add(*t, *c);
  if (t) t = add(*t, *batches);
  return t;
}

}  // namespace

std::optional<std::uint64_t> mul(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

std::optional<std::uint64_t> add(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

bool plans_by_arithmetic(const DatasetSpec& dataset, const ReaderSpec& reader) {
  const bool file_order = reader.shuffle == Shuffle::none ||
                          (reader.shuffle == Shuffle::file && reader.shuffle_buffer == 0);
  return reader.read_unit == ReadUnit::row_group && dataset.files_per_sample <= 1 && file_order &&
         !reader.batches_vary();
}

std::uint64_t host_memory_bytes() {
  struct sysinfo si {};
  if (::sysinfo(&si) != 0) return 0;
  return mul(si.totalram, si.mem_unit).value_or(UINT64_MAX);
}

std::uint64_t request_buffer_bytes(const ReaderSpec& reader, std::uint32_t accelerators,
                                   std::uint64_t ram_bytes, std::uint64_t budget_bytes) {
  const std::uint64_t iodepth = reader.iodepth > 0 ? reader.iodepth : 1;
  const std::uint64_t threads =
      std::max<std::uint64_t>(reader.workers, 1) * std::max<std::uint64_t>(accelerators, 1);
  std::uint64_t budget = budget_bytes;
  if (ram_bytes > 0) budget = std::min(budget, ram_bytes / 4 / threads);
  return std::min(std::max(budget / iodepth, kMinRequestBuffer), kMaxRequestBytes);
}

std::optional<std::uint64_t> plan_memory_bytes(const Job& job) {
  const std::uint64_t acc = std::max<std::uint32_t>(job.run.accelerators, 1);
  auto total = dataset_plan_bytes(job.dataset, job.reader, acc);
  if (total && job.validation && job.run.evaluates()) {
    // The runner holds the training plan while it plans an evaluation pass.
    auto eval = dataset_plan_bytes(*job.validation, job.reader, acc, /*eval=*/true);
    total = eval ? add(*total, *eval) : std::nullopt;
  }
  return total;
}

namespace {

// The counts that size threads, plans and loops; false when one is out of range (the products
// check_totals and check_plan_memory take of them would mean nothing).
bool check_counts(const Job& job, std::vector<Diagnostic>& out) {
  bool counts = check_dataset(job.dataset, "dataset", out);
  if (job.validation) counts &= check_dataset(*job.validation, "validation", out);
  const ReaderSpec& r = job.reader;
  const RunSpec& run = job.run;
  counts &= count_ok(out, "reader.batch_size", r.batch_size, kMaxBatchSize,
                     "larger than any training batch (language models use a few thousand samples)");
  counts &= count_ok(out, "reader.workers", r.workers, kMaxWorkers,
                     "each worker is a thread with its own io_uring and buffers; a DataLoader runs "
                     "a few to a few dozen");
  counts &= count_ok(out, "run.accelerators", run.accelerators, kMaxAccelerators,
                     "each simulated accelerator is a thread with its own workers on this host");
  if (r.workers <= kMaxWorkers && run.accelerators <= kMaxAccelerators) {
    const std::uint64_t threads =
        std::uint64_t{run.accelerators} * (std::uint64_t{std::max(r.workers, 1u)} + 1);
    if (threads > kMaxThreads)
      add_diag(out, "reader.workers",
               "run.accelerators x (workers + 1) = " + num(threads) +
                   " threads, more than the limit of " + num(kMaxThreads) +
                   " on one host (each holds a stack, an io_uring and buffers)");
  }
  count_ok(out, "reader.prefetch", r.prefetch, kMaxPrefetch,
           "batches a worker holds ready; PyTorch's default is 2");
  count_ok(out, "reader.iodepth", r.iodepth, kMaxIodepth,
           "each request in flight holds its own buffer; NVMe queues take 1024 entries");
  counts &= count_ok(out, "run.epochs", run.epochs, kMaxEpochs,
                     "every epoch plans a new order of all samples");
  return counts;
}

// Read request sizes; a header read and a probe are one request each, into one request buffer.
void check_request_sizes(const ReaderSpec& r, std::uint32_t accelerators, std::uint64_t ram_bytes,
                         std::vector<Diagnostic>& out) {
  const char* req_reason = "one read request; the replay's request buffers are at most 1GiB";
  size_ok(out, "reader.request_size", double(r.request_size_bytes), kMaxRequestBytes, req_reason);
  const bool header =
      size_ok(out, "reader.header_read", double(r.header_read_bytes), kMaxRequestBytes, req_reason);
  const bool probe =
      size_ok(out, "reader.probe", double(r.probe_bytes), kMaxRequestBytes, req_reason);
  size_ok(out, "reader.readahead", double(r.readahead_bytes), kMaxRequestBytes, req_reason);
  size_ok(out, "reader.stream_granule", double(r.stream_granule_bytes), kMaxRequestBytes,
          "a stream's burst ends on it; the replay's request buffers are at most 1GiB");
  size_ok(out, "reader.stream_tail", double(r.stream_tail_bytes), kMaxRequestBytes, req_reason);
  size_ok(out, "reader.stream_head", double(r.stream_head_bytes), kMaxRequestBytes, req_reason);
  const std::uint64_t buffer = request_buffer_bytes(r, accelerators, ram_bytes);
  const std::string buffer_text =
      "the replay's buffer per request (" + format_size(buffer) + ": " +
      format_size(kWorkerBufferBudget) + " per worker, at most a quarter of RAM over " +
      num(std::uint64_t{std::max(r.workers, 1u)} * std::max(accelerators, 1u)) +
      " worker(s), split over iodepth " + num(std::max(r.iodepth, 1u)) + ")";
  if (header && r.header_read_bytes > buffer)
    add_diag(out, "reader.header_read", "is one request and must fit " + buffer_text);
  if (probe && r.probe_bytes > buffer)
    add_diag(out, "reader.probe", "is one request and must fit " + buffer_text);
}

// A check of a step's duration against kMaxStepSeconds, saying what so long a duration would be.
auto step_seconds(std::vector<Diagnostic>& out, const char* reason) {
  return [&out, reason](const std::string& path, double v) {
    return seconds_ok(out, path, v, kMaxStepSeconds, reason);
  };
}

// Every duration of compute, the reader and the run.
void check_durations(const Job& job, std::vector<Diagnostic>& out) {
  const ReaderSpec& r = job.reader;
  distribution_ok(job.compute.step_time, "compute.time",
                  step_seconds(out, "a training step longer than an hour"));
  if (job.compute.eval_time)
    distribution_ok(*job.compute.eval_time, "compute.eval_time",
                    step_seconds(out, "an evaluation step longer than an hour"));
  distribution_ok(job.compute.batch_overhead, "compute.batch_overhead",
                  step_seconds(out, "a consumer's per-batch cost longer than an hour"));
  if (job.compute.eval_batch_overhead)
    distribution_ok(*job.compute.eval_batch_overhead, "compute.eval_batch_overhead",
                    step_seconds(out, "a consumer's per-batch cost longer than an hour"));
  for (const auto& [name, p] : job.compute.per_accelerator)
    distribution_ok(p.time, "compute." + name + ".time",
                    step_seconds(out, "a training step longer than an hour"));
  distribution_ok(r.preprocess, "reader.preprocess",
                  step_seconds(out, "preprocessing one sample for more than an hour"));
  distribution_ok(r.collate, "reader.collate",
                  step_seconds(out, "collating one batch for more than an hour"));
  seconds_ok(out, "reader.startup", r.startup_s, kMaxStepSeconds,
             "a DataLoader start-up longer than an hour");
  if (r.eval_startup_s)
    seconds_ok(out, "reader.eval_startup", *r.eval_startup_s, kMaxStepSeconds,
               "a DataLoader start-up longer than an hour");
  distribution_ok(r.startup_spread, "reader.startup_spread",
                  step_seconds(out, "accelerators starting a pass more than an hour apart"));
  for (std::size_t i = 0; i < r.worker_pace.size(); ++i)
    if (r.worker_pace[i] > kMaxWorkerPace)
      add_diag(out, "reader.worker_pace",
               "factor " + std::to_string(i) + " must be at most 100 (got " +
                   std::to_string(r.worker_pace[i]) +
                   "): a worker that many times slower than the typical one");
  seconds_ok(out, "reader.warmup", r.warmup_s, kMaxStepSeconds,
             "a worker's first-sample cost longer than an hour");
  seconds_ok(out, "run.max_time", job.run.max_seconds, kMaxRunSeconds,
             "a benchmark run longer than 30 days");
  seconds_ok(out, "checkpoint.serialize", job.checkpoint.serialize_s, kMaxStepSeconds,
             "serializing one checkpoint for more than an hour");
}

void check_checkpoint_sizes(const CheckpointSpec& k, std::vector<Diagnostic>& out) {
  if (!k.enabled) return;
  size_ok(out, "checkpoint.size", double(k.size_bytes), kMaxCheckpointBytes,
          "larger than the checkpoint of any model (a trillion parameters with optimizer state "
          "is ~16TiB)");
  count_ok(out, "checkpoint.files", k.files, kMaxCheckpointFiles,
           "shards of one checkpoint, one file each");
  size_ok(out, "checkpoint.write_size", double(k.write_size_bytes), kMaxRequestBytes,
          "one write request; its buffer is allocated once per writer");
  size_ok(out, "checkpoint.read_size", double(k.read_size_bytes), kMaxRequestBytes,
          "one read request; its buffer is allocated once per reader");
}

// The training dataset's samples (counts in range: no overflow).
std::uint64_t dataset_samples(const DatasetSpec& d) {
  return mul(d.num_files, std::max<std::uint32_t>(d.samples_per_file, 1)).value();
}

// Totals that later arithmetic multiplies: steps of the whole run and checkpoint bytes.
void check_totals(const Job& job, std::vector<Diagnostic>& out) {
  const ReaderSpec& r = job.reader;
  const RunSpec& run = job.run;
  const CheckpointSpec& k = job.checkpoint;
  const std::uint64_t per_step =
      mul(std::max<std::uint32_t>(r.batch_size, 1), std::max<std::uint32_t>(run.accelerators, 1))
          .value();
  const auto total_steps = mul(dataset_samples(job.dataset) / per_step + 1, run.epochs);
  if (!total_steps) add_diag(out, "run.epochs", "the run's step count overflows 64 bits");
  if (k.enabled && total_steps) {
    std::uint64_t checkpoints =
        k.every_epochs > 0 ? run.epochs / k.every_epochs : k.after_epochs.size();
    if (k.every_steps > 0) checkpoints += *total_steps / k.every_steps;
    if (!mul(checkpoints, k.size_bytes))
      add_diag(out, "checkpoint.size",
               "the run writes " + num(checkpoints) + " checkpoints; their bytes overflow 64 bits");
  }
}

// The plan's memory, before anything is planned: at most kPlanMemoryFraction of the host's RAM.
void check_plan_memory(const Job& job, std::uint64_t ram_bytes, std::vector<Diagnostic>& out) {
  if (ram_bytes == 0) return;
  const auto need = plan_memory_bytes(job);
  const auto allowed =
      static_cast<std::uint64_t>(static_cast<double>(ram_bytes) * kPlanMemoryFraction);
  if (need && *need <= allowed) return;
  std::uint64_t all = dataset_samples(job.dataset);
  if (job.validation && job.run.evaluates())
    all += job.validation->num_files * std::max<std::uint32_t>(job.validation->samples_per_file, 1);
  add_diag(out, "dataset.num_files",
           "the plan needs " + (need ? format_size(*need) : std::string("more than 16EiB")) +
               " of memory for " + num(all) +
               " samples (per epoch one entry per sample, plus per-file tables); this host "
               "allows " +
               format_size(allowed) + " (half of its " + format_size(ram_bytes) +
               " RAM): use fewer files or samples per file");
}

}  // namespace

std::vector<Diagnostic> check_limits(const Job& job, std::uint64_t ram_bytes) {
  std::vector<Diagnostic> out;
  const bool counts = check_counts(job, out);
  check_request_sizes(job.reader, job.run.accelerators, ram_bytes, out);
  check_durations(job, out);
  check_checkpoint_sizes(job.checkpoint, out);
  if (!counts) return out;
  check_totals(job, out);
  check_plan_memory(job, ram_bytes, out);
  return out;
}

}  // namespace dlgen::limits
