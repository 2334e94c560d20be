#include "dlgen/mlperf/find_max.hpp"

#include <algorithm>
#include <cmath>
#include "dlgen/core/json.hpp"

#include "dlgen/core/units.hpp"
#include "dlgen/replay/plan.hpp"

namespace dlgen::mlperf {

using replay::EpochPlan;
using replay::plan_epoch;
using replay::Report;

TrialShape size_trial(const Job& base, std::uint32_t accelerators, const FindMaxOptions& options) {
  TrialShape t;
  t.job = base;
  Job& j = t.job;
  j.run.accelerators = accelerators;
  j.run.epochs = 1;
  j.run.max_seconds = 0;
  // Trials measure training reads (evaluation passes included, as the job says); checkpoints are
  // measured by `dlgen run` itself and would only repeat in every trial.
  j.checkpoint.enabled = false;
  j.checkpoint.restore = false;
  // Each trial starts from storage, not from what the previous trial left in the page cache.
  if (!j.reader.direct && j.run.cache == CacheMode::keep) j.run.cache = CacheMode::drop_start;
  const std::uint32_t ranks = std::max<std::uint32_t>(options.ranks, 1);
  const EpochPlan plan = plan_epoch(j, 0, {ranks - 1, ranks});
  std::uint64_t per_epoch = plan.accelerators.empty() ? 0 : UINT64_MAX;
  for (const auto& acc : plan.accelerators)
    per_epoch = std::min<std::uint64_t>(per_epoch, acc.num_batches());
  t.steps_per_epoch = per_epoch;
  if (per_epoch == 0) {
    t.idle = true;
    return t;
  }
  const double step_s = base.compute.effective().expected();
  const std::uint64_t by_time =
      step_s > 0 ? static_cast<std::uint64_t>(std::ceil(options.min_compute_s / step_s))
                 : options.min_steps;
  const std::uint64_t target = std::max(options.min_steps, by_time);
  t.target_steps = target;
  const std::uint64_t epochs = (target + per_epoch - 1) / per_epoch;
  j.run.epochs =
      static_cast<std::uint32_t>(std::clamp<std::uint64_t>(epochs, 1, options.max_epochs));
  return t;
}

namespace {

// What the trials showed beyond their verdicts, for the notes.
struct TrialFlags {
  bool capped = false;  // some trial ran fewer steps than it aimed at (max_epochs)
  bool cached = false;  // some trial repeated epochs of a dataset that fits in RAM
};

std::string page_cache_policy(bool direct, bool can_drop_caches) {
  return direct ? "not used: O_DIRECT reads (reader.direct)"
         : can_drop_caches
             ? "dropped before each trial (sync + /proc/sys/vm/drop_caches)"
             : "not dropped (not root): only the dataset's pages advised out (POSIX_FADV_DONTNEED) "
               "before each trial, which does not guarantee it; every trial is labelled warm";
}

// One trial at `n` accelerators (none when some accelerator would get no batch), appended to
// res.trials and shown to `observe`: whether it passed.
Result<bool> run_trial(const Job& base, std::uint32_t n, const TrialRunner& run,
                       const FindMaxOptions& options, const TrialObserver& observe,
                       FindMaxResult& res, TrialFlags& flags) {
  const bool direct = base.reader.direct;
  const TrialShape shape = size_trial(base, n, options);
  FindMaxTrial t;
  t.accelerators = n;
  t.epochs = shape.job.run.epochs;
  t.steps_per_epoch = shape.steps_per_epoch;
  if (!shape.idle) {
    Result<Report> r = run(shape.job);
    if (!r) return r.error();
    t.ran = true;
    t.passed = r->passed;
    bool drop_failed = false;
    for (const std::string& w : r->warnings)
      if (w.find("drop_caches") != std::string::npos) drop_failed = true;
    const bool later_epochs_cached = shape.job.run.epochs > 1 && r->dataset_fits_in_ram &&
                                     shape.job.run.cache != CacheMode::drop_epoch;
    if (later_epochs_cached) flags.cached = true;
    t.warm_cache = !direct && (!options.can_drop_caches || drop_failed || later_epochs_cached);
    res.warm_cache = res.warm_cache || t.warm_cache;
    t.report = std::move(*r);
  }
  if (!shape.idle && shape.steps_per_epoch * shape.job.run.epochs < shape.target_steps)
    flags.capped = true;
  res.trials.push_back(t);
  if (observe) observe(res.trials.back());
  return t.passed;
}

// What the reader of the result should know about how far the search and its trials went.
void add_notes(FindMaxResult& res, const FindMaxOptions& options, const TrialFlags& flags,
               bool direct) {
  if (res.hit_limit)
    res.notes.push_back("stopped searching at " + std::to_string(options.limit) + " accelerators");
  for (const auto& t : res.trials)
    if (!t.ran) {
      res.notes.push_back(
          "at " + std::to_string(t.accelerators) +
          " accelerators some get no batch of the dataset in an epoch (a larger dataset may allow "
          "more accelerators)");
      break;
    }
  if (flags.capped)
    res.notes.push_back("some trials were cut at " + std::to_string(options.max_epochs) +
                        " epochs, short of " + std::to_string(options.min_steps) + " steps and " +
                        format_duration(options.min_compute_s) +
                        " of compute per accelerator: a larger dataset gives a firmer number");
  if (flags.cached && !direct)
    res.notes.push_back(
        "trials repeat epochs of a dataset that fits in RAM; later epochs may read from the page "
        "cache (run.cache = \"drop_epoch\" avoids it)");
}

}  // namespace

// Doubles the accelerators from 1 until a trial fails (or the limit), then bisects between the
// last that passed and the first that failed.
Result<FindMaxResult> find_max_accelerators(const Job& base, const TrialRunner& run,
                                            const FindMaxOptions& options,
                                            const TrialObserver& observe) {
  if (base.compute.effective().expected() <= 0)
    return input_error(
        "--find-max-accelerators needs a compute time per step (compute.time or --accelerator): "
        "with none, any number of accelerators is \"busy\"");
  FindMaxResult res;
  TrialFlags flags;
  res.page_cache = page_cache_policy(base.reader.direct, options.can_drop_caches);
  auto trial = [&](std::uint32_t n) {
    return run_trial(base, n, run, options, observe, res, flags);
  };
  std::uint32_t good = 0, bad = 0;
  for (std::uint32_t n = 1; n <= options.limit; n *= 2) {
    Result<bool> p = trial(n);
    if (!p) return p.error();
    if (!*p) {
      bad = n;
      break;
    }
    good = n;
  }
  while (bad > 0 && bad - good > 1) {
    const std::uint32_t mid = good + (bad - good) / 2;
    Result<bool> p = trial(mid);
    if (!p) return p.error();
    (*p ? good : bad) = mid;
  }
  res.max_accelerators = good;
  res.hit_limit = bad == 0;
  add_notes(res, options, flags, base.reader.direct);
  return res;
}

std::string find_max_json(const FindMaxResult& r, double au_threshold) {
  nlohmann::json j;
  j["max_accelerators"] = r.max_accelerators;
  j["hit_limit"] = r.hit_limit;
  j["au_threshold"] = au_threshold;
  j["page_cache"] = r.page_cache;
  j["warm_cache"] = r.warm_cache;
  j["notes"] = r.notes;
  nlohmann::json trials = nlohmann::json::array();
  for (const FindMaxTrial& t : r.trials) {
    nlohmann::json x = {{"accelerators", t.accelerators},
                        {"epochs", t.epochs},
                        {"steps_per_epoch", t.steps_per_epoch},
                        {"ran", t.ran},
                        {"passed", t.passed},
                        {"warm_cache", t.warm_cache}};
    if (t.ran) {
      x["au"] = t.report.au;
      x["samples_per_s"] = t.report.samples_per_s;
      x["mib_per_s"] = t.report.mib_per_s;
      x["elapsed_s"] = t.report.elapsed_s;
    }
    trials.push_back(x);
  }
  j["trials"] = trials;
  return j.dump(2) + "\n";
}

}  // namespace dlgen::mlperf
