#pragma once
// What a replay measured, in the terms storage people ask for: accelerator utilisation (AU),
// samples/s, MiB/s of bytes actually read, request latency percentiles, per-epoch figures,
// checkpoint bandwidth, and how exactly the simulated compute time was kept.
#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dlgen/core/latency_histogram.hpp"
#include "dlgen/core/result.hpp"
#include "dlgen/engine/s3.hpp"

namespace dlgen::replay {

// Request latencies in nanoseconds (core/latency_histogram.hpp): one per worker thread, merged at
// the end.
using dlgen::LatencyHistogram;

// One step of one accelerator, in clock nanoseconds: it started waiting for its batch at
// `wait_begin`, got it at `ready`, finished computing at `end`. `compute_ns` is the configured
// compute time; `end - ready - excluded_ns` the measured one. `excluded_ns`: time after the step
// spent outside the step (the accelerator waiting for a checkpoint to be written); it still counts
// as wall time for AU. `samples`: the batch's size.
struct StepRecord {
  std::int64_t wait_begin = 0, ready = 0, end = 0;
  std::int64_t compute_ns = 0;
  // The consumer's own per-batch cost spent before compute (compute.batch_overhead), as measured:
  // from `ready` to the start of compute. Host time: in wall time, not in AU's compute.
  std::int64_t overhead_ns = 0;
  std::int64_t excluded_ns = 0;
  std::uint32_t samples = 0;
};

struct Percentiles {
  double p50_us = 0, p90_us = 0, p99_us = 0, p999_us = 0, max_us = 0, mean_us = 0;
  std::uint64_t count = 0;
};
Percentiles percentiles(const LatencyHistogram& h);

// HTTP requests to an object store (the s3 engine): every try is one request, counted by what it
// was (GET, PUT of a whole object, PUT of a part, a multipart upload's control request), the
// failures by kind, and per request answered in full its time to first byte (TTFB) and to last
// byte (TTLB) from the moment it was sent. Definitions: docs/metrics.md, "S3 requests".
struct S3Figures {
  std::uint64_t requests = 0, gets = 0, puts = 0, parts = 0, control = 0, retries = 0;
  std::uint64_t slow_downs = 0;     // 503 SlowDown answers
  std::uint64_t server_errors = 0;  // other 5xx answers
  std::uint64_t timeouts = 0, resets = 0;
  Percentiles ttfb, ttlb;
};

// Every request a run sent to the store: the passes' reads, the checkpoints' writes and the
// restore's reads. `checkpoint`: the checkpoints' share (writes and restore), when they went to
// the store. `wire` and `checkpoint_wire`: the engines' counters, histograms included, that the
// figures are computed from; the ranks of a multi-host run add theirs up and compute the figures
// again (cluster_report.hpp), so percentiles come from merged histograms.
struct S3Result : S3Figures {
  std::optional<S3Figures> checkpoint;
  engine::S3Counters wire;
  std::optional<engine::S3Counters> checkpoint_wire;
};

struct AcceleratorResult {
  std::uint32_t id = 0;
  std::uint64_t steps = 0, samples = 0;  // training and evaluation steps
  double compute_s = 0;                  // AU numerator: configured compute of every step
  double wall_s = 0;        // AU denominator: first batch's arrival to the end of the run
  double first_wait_s = 0;  // the wait for the run's first batch (left out of AU)
  double harness_s = 0;     // dlgen's own work between passes (cache drops, planning): left out
  double wait_s = 0;        // time spent waiting for batches (all steps)
  // AU's loss (wall − compute) split (core/stats.hpp AuParts): waits for each pass's first batch,
  // waits inside passes, and the rest (per-batch cost, checkpoints, the run's tail).
  double epoch_start_wait_s = 0, in_epoch_wait_s = 0, other_loss_s = 0;
  double au = 0;
};

struct EpochResult {
  std::uint32_t epoch = 0;  // 1-based
  bool eval = false;
  double seconds = 0;
  std::uint64_t steps = 0, samples = 0, bytes = 0, requests = 0;
  double au = 0;  // a column: this pass's compute / wall over all accelerators (never the verdict)
  // The pass's start and end on the run's clock (ns): only differences, or instants compared on
  // one clock (the ranks' common window: cluster_report.hpp), mean anything.
  std::int64_t begin_ns = 0, end_ns = 0;
  // Training steps accelerator 0 had taken, over the run, before the pass began (an evaluation
  // pass by run.eval_every_steps: a multiple of it).
  std::uint64_t after_step = 0;
  double samples_per_s() const { return seconds > 0 ? static_cast<double>(samples) / seconds : 0; }
  double mib_per_s() const {
    return seconds > 0 ? static_cast<double>(bytes) / 1048576.0 / seconds : 0;
  }
};

struct CheckpointResult {
  std::uint64_t count = 0, bytes = 0, files = 0;
  double write_s = 0;  // total, fsync included
  // Of write_s, the time spent serializing (checkpoint.serialize), not in storage's calls.
  double serialize_s = 0;
  // Per checkpoint written by this process, in order: its bytes and seconds (fsync included).
  std::vector<std::uint64_t> write_bytes;
  std::vector<double> write_seconds;
  // ... and the training steps accelerator 0 had taken, over the run, before it began.
  std::vector<std::uint64_t> after_steps;
  double restore_s = 0;
  std::uint64_t restore_bytes = 0;
  // The HTTP requests of the writes and the restore when the checkpoints are objects of a store
  // (the s3 engine; the restore's untimed write of a missing checkpoint included); none else.
  std::optional<engine::S3Counters> s3;
  // The storage's rate: bytes over the write time less the serializing (docs/metrics.md).
  double write_mib_s() const {
    const double storage = write_s - serialize_s;
    return storage > 0 ? static_cast<double>(bytes) / 1048576.0 / storage : 0;
  }
  double restore_mib_s() const {
    return restore_s > 0 ? static_cast<double>(restore_bytes) / 1048576.0 / restore_s : 0;
  }
};

struct ComputeAccuracy {
  std::uint64_t steps = 0;
  double configured_mean_s = 0;
  double measured_mean_s = 0;
  double mean_error_s = 0;  // measured − configured, averaged (positive: late)
  double mean_abs_error_s = 0;
  double max_error_s = 0;
  double relative_error() const {
    return configured_mean_s > 0 ? mean_abs_error_s / configured_mean_s : 0;
  }
};

// The client's CPU over the run, as fio reports it: this process's user and system seconds, that
// as a share of all the host's CPUs, and how busy the host's CPUs were (every process).
struct CpuResult {
  double user_s = 0, system_s = 0;
  unsigned cpus = 0;
  double process_percent = 0;    // (user + system) / (elapsed × cpus) × 100
  double host_busy_percent = 0;  // busy / total jiffies of all CPUs over the run × 100
};

// One row per second of the run.
struct SeriesPoint {
  double t_s = 0;
  std::uint64_t bytes = 0, samples = 0, requests = 0;  // during this interval
  std::uint32_t in_flight = 0;                         // requests in flight at the sample instant
  std::uint32_t ready_batches = 0;                     // batches waiting in prefetch queues
};

struct Report {
  std::string job_name;
  std::string engine;
  std::string accelerator;  // compute profile name, "" when a plain step time
  std::uint32_t accelerators = 0, workers = 0, iodepth = 0, epochs = 0;
  bool direct = false;
  std::string cache_mode;
  double elapsed_s = 0;  // the whole run (evaluation passes and checkpoints included)
  std::int64_t begin_ns = 0, end_ns = 0;  // the run's start and end on its clock (ns)
  // Training passes: samples, steps (per accelerator, the most of any), bytes and seconds.
  std::uint64_t samples = 0, steps = 0;
  double train_seconds = 0;
  std::uint64_t train_bytes = 0;
  // Evaluation passes, apart.
  std::uint64_t eval_samples = 0;
  double eval_seconds = 0;
  std::uint64_t eval_bytes = 0;
  // dataset.load = "memory": the files read once before the first epoch (0 otherwise).
  std::uint64_t load_bytes = 0, load_files = 0;
  double load_seconds = 0;
  // All reads together: bytes_read = train_bytes + eval_bytes + load_bytes.
  std::uint64_t bytes_read = 0, requests = 0, files_opened = 0;
  double samples_per_s = 0;       // training samples / training seconds
  double eval_samples_per_s = 0;  // evaluation samples / evaluation seconds
  double mib_per_s = 0;  // bytes_read / (train_seconds + eval_seconds + load_seconds)
  double train_mib_per_s = 0, eval_mib_per_s = 0;
  CpuResult cpu;
  // The host's CPUs were saturated while AU missed its threshold: the client, not the storage, may
  // be what held the accelerators back.
  bool client_bound = false;
  // Every accelerator thread ran with real-time priority (SCHED_FIFO; root only): compute delays
  // then wake on time even on a loaded host.
  bool realtime = false;
  Percentiles latency;
  LatencyHistogram latency_histogram;  // what `latency` is taken from (merged across ranks)
  // The readers' S3 requests: only when the passes read an object store (otherwise absent, and
  // absent from the JSON and the summary).
  std::optional<S3Result> s3;
  std::vector<AcceleratorResult> per_accelerator;
  std::vector<EpochResult> epochs_detail;
  CheckpointResult checkpoint;
  ComputeAccuracy compute;
  double au = 0;  // the lowest accelerator's whole-run AU (the verdict)
  double au_mean = 0;
  double au_threshold = 0;
  // False when the job configures no compute time (a pure I/O run): AU means nothing then, and
  // the run passes.
  bool au_applicable = true;
  bool passed = false;
  // The lowest accelerator's row (the verdict's): where its AU's loss went.
  AcceleratorResult au_loss;
  // "PASS", "n/a", or "FAIL..." naming what dominated the loss (au_verdict, metrics.hpp).
  std::string verdict;
  // SIGINT/SIGTERM stopped the run: the figures are over the passes that ran (whole passes, and
  // the interrupted pass's steps up to the stop); epochs_completed counts whole training epochs.
  bool interrupted = false;
  std::uint32_t epochs_completed = 0;
  // Batch hand-over tokens (the sendmsg/recvmsg a trace of the replay shows per batch) dropped
  // because their socket was full; 0 unless the socket could not be sized for every window.
  std::uint64_t batch_signals_dropped = 0;
  std::uint64_t dataset_bytes = 0, ram_bytes = 0;
  bool dataset_fits_in_ram = false;  // dataset < 5 × RAM: MLPerf calls such a run invalid
  std::vector<std::string> warnings;
  std::vector<SeriesPoint> series;
};

std::string to_json(const Report& report);  // the full result, pretty-printed
std::string format_summary(const Report& report);
// The summary's s3 lines (requests, errors, TTFB and TTLB, the checkpoints' share), the first
// opened by `scope`: the multi-rank summary prints the ranks' merged figures with them.
std::string s3_summary_lines(const S3Result& s3, std::string_view scope = {});
// The result JSON's "s3" object (to_json's), compact: for other results that carry S3 figures in
// the same shape (the checkpoint-only workflow's writes and reads).
std::string s3_json_text(const S3Result& s3);
Result<void> write_json(const Report& report, const std::filesystem::path& path);
Result<void> write_timeseries_csv(const Report& report, const std::filesystem::path& path);

}  // namespace dlgen::replay
