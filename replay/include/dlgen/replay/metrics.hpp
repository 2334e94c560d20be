#pragma once
// Every figure `dlgen run` prints, computed by pure functions from what the runner recorded: one
// StepRecord per accelerator step, byte/request counters and a latency histogram per pass, the
// run's start and end, checkpoint timings and CPU counters. The runner records; this file computes.
// The definitions (AU, MiB/s, samples/s, latency, step, CPU) are written in docs/metrics.md, and
// each has a unit test of its law in tests/replay/metrics_test.cpp.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "dlgen/core/stats.hpp"
#include "dlgen/engine/s3.hpp"
#include "dlgen/replay/report.hpp"

namespace dlgen::replay {

// One pass over a dataset as the runner recorded it: a training epoch or an evaluation pass.
struct PhaseRecord {
  std::uint32_t epoch = 0;  // 1-based
  bool eval = false;
  std::int64_t begin_ns = 0, end_ns = 0;  // clock time the pass started and ended
  // Of that, the time it stood still for evaluation passes run inside it (run.eval_every_steps):
  // theirs, not this pass's.
  std::int64_t paused_ns = 0;
  std::uint64_t after_step = 0;                // EpochResult::after_step
  std::vector<std::vector<StepRecord>> steps;  // per accelerator of this host, in step order
  std::uint64_t samples = 0, bytes = 0, requests = 0, files = 0;
  LatencyHistogram latency;
  // The readers' HTTP requests when they read an object store (the s3 engine); none otherwise.
  std::optional<engine::S3Counters> s3;
  double seconds() const { return static_cast<double>(end_ns - begin_ns - paused_ns) * 1e-9; }
};

// dataset.load = "memory": the run's reads of its datasets' files, once, before the first epoch.
// Not a pass: it takes no step, and AU counts it as part of the wait for the run's first batch.
struct LoadRecord {
  std::int64_t begin_ns = 0, end_ns = 0;
  std::uint64_t bytes = 0, requests = 0, files = 0;
  LatencyHistogram latency;
  double seconds() const { return static_cast<double>(end_ns - begin_ns) * 1e-9; }
};

// CPU time counters at one instant: this process's user and system seconds (getrusage) and the
// host's busy and total jiffies over all CPUs (/proc/stat).
struct CpuSample {
  double user_s = 0, system_s = 0;
  std::uint64_t host_busy = 0, host_total = 0;
};
CpuSample read_cpu_sample();  // the only impure function here: reads the kernel's counters
unsigned online_cpus();

// What a whole run recorded, in order.
struct RunRecord {
  std::int64_t begin_ns = 0, end_ns = 0;  // the run's first and last instant (checkpoints included)
  std::vector<std::uint32_t> accelerator_ids;
  std::vector<PhaseRecord> phases;  // train epochs and eval passes, in the order they ran
  LoadRecord load;                  // dataset.load = "memory" (all 0 otherwise)
  // dlgen's own work between passes (page-cache drops, planning the next pass): left out of AU's
  // wall time. Checkpoints written between passes: in AU's wall time, apart from data waits.
  std::vector<TimeWindow> harness, checkpoints;
  CheckpointResult checkpoint;
  CpuSample cpu_begin, cpu_end;
  unsigned cpus = 1;
  bool realtime = false;  // every accelerator thread ran with real-time priority
  double au_threshold = 0;
};

// AU of one accelerator (MLPerf Storage's definition): compute time / wall time of the whole run,
// leaving out only the wait for the run's first batch. Compute is the configured compute time of
// every step it took (training and evaluation); wall time runs from the moment its first batch
// arrived to the end of the run, so epoch boundaries, worker start-up, evaluation passes and
// checkpoints all count. An accelerator that took no step has AU 0 over the whole run.
// The arithmetic is dlgen::accelerator_utilisation (core/stats.hpp), which summarize also uses for
// the original run's AU from a trace: this only gathers the accelerator's steps from the passes.
using AuParts = dlgen::AuParts;
AuParts accelerator_utilisation(std::span<const PhaseRecord> phases, std::size_t accelerator,
                                std::int64_t run_begin_ns, std::int64_t run_end_ns,
                                std::span<const TimeWindow> harness = {},
                                std::span<const TimeWindow> checkpoints = {});

// A pass's AU column: Σ compute / Σ wall over this host's accelerators inside the pass; the
// first pass of the run leaves out each accelerator's wait for its first batch, as the run's AU.
// A column for reading where time went, never the verdict.
double phase_utilisation(const PhaseRecord& phase, bool first_of_run);

// Bytes over the seconds of the same passes; 0 when no time passed.
double mib_per_s(std::uint64_t bytes, double seconds);

// Measured minus configured compute time per step (the accelerator's sleep accuracy).
ComputeAccuracy compute_accuracy(std::span<const PhaseRecord> phases);

// This process's CPU between two samples, and the host's: see docs/metrics.md.
CpuResult cpu_usage(const CpuSample& begin, const CpuSample& end, double elapsed_s, unsigned cpus);

// The S3 figures of a run (docs/metrics.md, "S3 requests"): the passes' reads and the
// checkpoints' requests (`checkpoint`: CheckpointResult::s3) together, their HTTP requests,
// retries and errors summed, their times to first and last byte as percentiles of the merged
// histograms, and the checkpoints' share apart; none when nothing went through the s3 engine.
std::optional<S3Result> s3_figures(std::span<const PhaseRecord> phases,
                                   const std::optional<engine::S3Counters>& checkpoint = {});
// The figures of `all` (every request), with the checkpoints' share when there is one: what
// s3_figures computes from the run's counters, and a multi-host run from every rank's, added up.
S3Result s3_result(const engine::S3Counters& all,
                   const std::optional<engine::S3Counters>& checkpoint);

// Fills every computed figure of `report` (totals, rates, AU, per-accelerator, per-epoch, latency,
// CPU, the verdict and the warnings that follow from them) from the record.
void compute_report(const RunRecord& record, Report& report);

// The verdict line: "PASS", "n/a" (no compute time), or a FAIL that says which part of the lowest
// accelerator's loss dominated: waits at epoch starts (which few steps an epoch cannot hide: the
// scale, not the storage), waits inside passes (the storage), or the rest (per-batch cost,
// checkpoints). Needs per_accelerator, au_loss, passed and epochs_detail set.
std::string au_verdict(const Report& report);

}  // namespace dlgen::replay
