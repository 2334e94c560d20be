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

namespace dlgen::mlperf {

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
  // Whether this process may drop the whole page cache (root: sync + /proc/sys/vm/drop_caches).
  // Every trial starts with the dataset's pages dropped (the trial's run.cache = "drop_start"),
  // so that no trial reads what the previous one left in RAM; without root only the dataset's
  // own pages are advised out (POSIX_FADV_DONTNEED, not guaranteed) and every trial is labelled
  // warm. With reader.direct (O_DIRECT) nothing is dropped: no read goes through the cache.
  bool can_drop_caches = false;
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
  // Its figures may come from the page cache: not dropped before it (no root, or the drop
  // failed), or it repeats epochs of a dataset under 5x RAM without dropping between them.
  bool warm_cache = false;
  replay::Report report;  // when ran
};

struct FindMaxResult {
  std::uint32_t max_accelerators = 0;  // 0: not even one accelerator keeps its AU
  bool hit_limit = false;              // every trial up to options.limit passed
  std::vector<FindMaxTrial> trials;    // in the order they ran
  std::vector<std::string> notes;
  std::string page_cache;   // what was done about the page cache before each trial
  bool warm_cache = false;  // some trial that ran is warm_cache: the result is labelled so
};

// Runs one trial job; run_job with the caller's RunOptions in the CLI, a model in tests.
using TrialRunner = std::function<Result<replay::Report>(const Job&)>;
using TrialObserver = std::function<void(const FindMaxTrial&)>;

// Needs a compute time per step (an input error otherwise).
Result<FindMaxResult> find_max_accelerators(const Job& base, const TrialRunner& run,
                                            const FindMaxOptions& options = {},
                                            const TrialObserver& observe = {});

// The search as JSON: max_accelerators, hit_limit, page_cache, warm_cache, notes, and every
// trial (accelerators, epochs, steps_per_epoch, ran, passed, warm_cache, au, samples_per_s,
// mib_per_s, elapsed_s). docs/metrics.md, "--find-max-accelerators".
std::string find_max_json(const FindMaxResult& r, double au_threshold);

}  // namespace dlgen::mlperf
