#pragma once
// Arithmetic every module shares, so that the replay (dlgen run), the trace analysis (summarize,
// distil) and compare cannot disagree about a figure: one percentile, one accelerator utilisation.
// Pure functions over plain values; the definitions are written in docs/metrics.md.
#include <cstdint>
#include <span>
#include <vector>

namespace dlgen {

// The p-quantile (p in [0, 1], clamped) of `values` by linear interpolation between the two
// nearest ranks: sorted x[0..n-1], h = p·(n−1), result x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]).
// This is Hyndman & Fan's type 7, the default of numpy.percentile, R's quantile and pandas, so a
// figure can be checked with a one-line script. p = 0 gives the minimum, p = 1 the maximum and
// p = 0.5 the usual median (the mean of the middle two for an even count). It never leaves the
// sample's range and is continuous in p, which matters for the medians distil turns into job
// values (a nearest-rank percentile jumps between neighbours). An empty sample gives 0.
double percentile(std::vector<double> values, double p);
// The same on values already sorted ascending (no copy).
double percentile_sorted(std::span<const double> sorted_values, double p);

// The arithmetic mean of `values`, summed in order; 0 for an empty sample.
double mean(std::span<const double> values);
// The population standard deviation (numpy's np.std, as DLIO and MLPerf Storage compute their
// "stdev" figures); 0 for an empty sample.
double population_stdev(std::span<const double> values);

// One accelerator step as AU sees it, in nanoseconds on one clock: the batch arrived at
// `ready_ns`, the accelerator's compute for it is `compute_ns` (configured in a replay, inferred
// from a trace), and the step ended at `end_ns` (compute done, plus any time the accelerator then
// spent held, e.g. by a checkpoint).
struct AuStep {
  std::int64_t ready_ns = 0;
  std::int64_t compute_ns = 0;
  std::int64_t end_ns = 0;
  bool pass_start = false;  // the first step of a pass (epoch or evaluation pass)
};

// An interval of the run on the same clock, [begin_ns, end_ns).
struct TimeWindow {
  std::int64_t begin_ns = 0;
  std::int64_t end_ns = 0;
};

// AU of one accelerator (MLPerf Storage's definition):
//   AU = Σ compute / wall, wall = run end − arrival of the run's first batch.
// Only the wait for the run's first batch and the harness's own work (`harness`: dlgen dropping
// the page cache and planning the next epoch between passes, windows in which no accelerator
// could be fed by any storage) are left out; epoch boundaries (worker start-up), evaluation passes
// and checkpoints all count as wall time. The run end is `run_end_ns` or the last step's end if
// that is later (a step never ends after the run). An accelerator that took no step has compute 0
// and wall = run end − run begin − harness.
//
// Where the loss (wall − compute) went, in seconds that add up to it exactly:
//   epoch_start_wait_s: from the previous step's end to the batch arrival of each pass's first
//                       step (after the run's first): workers starting, the first batch's read;
//   in_epoch_wait_s:    the same gap for every other step (the storage not keeping up mid-pass);
//   other_s:            the rest (the consumer's per-batch cost, checkpoints holding the
//                       accelerator, the end of the run after its last step).
// Harness windows inside a gap are not part of it; checkpoint windows (`checkpoints`: writes
// between steps, which count in wall time) are `other_s`, not a wait for data.
struct AuParts {
  double compute_s = 0;
  double wall_s = 0;
  double first_wait_s = 0;  // run begin → the first batch's arrival (left out of wall_s)
  double harness_s = 0;     // harness windows after the first batch (left out of wall_s)
  double epoch_start_wait_s = 0;
  double in_epoch_wait_s = 0;
  double other_s = 0;
  double au() const { return wall_s > 0 ? compute_s / wall_s : 0; }
};
AuParts accelerator_utilisation(std::span<const AuStep> steps, std::int64_t run_begin_ns,
                                std::int64_t run_end_ns, std::span<const TimeWindow> harness = {},
                                std::span<const TimeWindow> checkpoints = {});

}  // namespace dlgen
