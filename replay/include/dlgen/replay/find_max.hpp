#pragma once
// MLPerf Storage's headline: the most simulated accelerators on this host whose whole-trial AU
// (metrics.hpp: compute / wall of the whole trial, only the wait for the first batch left out)
// stays at or above the job's threshold. Doubling until a trial fails, then bisecting.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "dlgen/core/job.hpp"
#include "dlgen/core/result.hpp"
#include "dlgen/replay/report.hpp"

namespace dlgen::replay {

struct FindMaxOptions {
  // A trial runs whole epochs until every accelerator took at least this many steps and this much
  // compute time, so that the first batch (the only wait AU leaves out) cannot decide it.
  std::uint64_t min_steps = 30;
  double min_compute_s = 3.0;
  // A trial never runs more epochs than this: one of few steps an epoch is then shorter than the
  // targets above, but still judged on its whole-trial AU (every epoch boundary counted).
  std::uint32_t max_epochs = 64;
  std::uint32_t limit = 1024;  // stop doubling here
  // Ranks of a multi-host run (each runs the trial's accelerators): the trial is sized on the
  // last rank's share, whose accelerators get the fewest samples.
  std::uint32_t ranks = 1;
};

// How one trial is sized: the job with `accelerators`, whole epochs (run.epochs), no restore.
struct TrialShape {
  Job job;
  std::uint64_t steps_per_epoch = 0;  // the fewest batches any accelerator gets in an epoch
  std::uint64_t target_steps =
      0;              // what the options ask for; epochs x steps_per_epoch may fall short
  bool idle = false;  // some accelerator gets no batch at all: AU 0, fails at once
};
TrialShape size_trial(const Job& base, std::uint32_t accelerators,
                      const FindMaxOptions& options = {});

struct FindMaxTrial {
  std::uint32_t accelerators = 0;
  std::uint32_t epochs = 0;
  std::uint64_t steps_per_epoch = 0;
  bool ran = false;  // false: failed without running (an idle accelerator)
  bool passed = false;
  Report report;  // when ran
};

struct FindMaxResult {
  std::uint32_t max_accelerators = 0;  // 0: not even one accelerator keeps its AU
  bool hit_limit = false;              // every trial up to options.limit passed
  std::vector<FindMaxTrial> trials;    // in the order they ran
  std::vector<std::string> notes;
};

// Runs one trial job; run_job with the caller's RunOptions in the CLI, a model in tests.
using TrialRunner = std::function<Result<Report>(const Job&)>;
using TrialObserver = std::function<void(const FindMaxTrial&)>;

// Needs a compute time per step (an input error otherwise).
Result<FindMaxResult> find_max_accelerators(const Job& base, const TrialRunner& run,
                                            const FindMaxOptions& options = {},
                                            const TrialObserver& observe = {});

}  // namespace dlgen::replay
