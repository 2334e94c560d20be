// find_max_accelerators (find_max.hpp): the doubling-then-bisecting search over a storage model,
// how each trial is sized, and how the page cache is dealt with before each trial. Moved from
// tests/replay/metrics_test.cpp with the search (issue 19); the test names are unchanged.
#include "dlgen/mlperf/find_max.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include "dlgen/core/json.hpp"

#include "shape_job.hpp"

namespace dlgen::mlperf {
namespace {

using replay::Report;

// The job the searches start from: the replay laws' shape_job (shape_job.hpp), with one
// accelerator, two workers and one epoch, nothing else on.
using testing::Shape;
Job find_max_job(const Shape& s) {
  return testing::shape_job(s);
}

// A storage model: AU falls as accelerators share a fixed bandwidth. The search must return the
// largest count that passes, try counts in doubling-then-bisecting order, and size each trial.
TEST(FindMax, FindsTheLargestPassingCount) {
  Job base = find_max_job({1, 2, 4096, 8, 1, false, false, 0, 0});
  std::vector<std::uint32_t> tried;
  auto model = [&](const Job& j) -> Result<Report> {
    tried.push_back(j.run.accelerators);
    Report r;
    r.au = std::min(1.0, 37.0 / (j.run.accelerators * 4.0));  // >= 0.9 up to 10 accelerators
    r.au_threshold = j.compute.au_threshold;
    r.passed = r.au >= r.au_threshold;
    return r;
  };
  Result<FindMaxResult> r = find_max_accelerators(base, model);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->max_accelerators, 10u);
  EXPECT_FALSE(r->hit_limit);
  const std::vector<std::uint32_t> want = {1, 2, 4, 8, 16, 12, 10, 11};
  EXPECT_EQ(tried, want);
}

TEST(FindMax, TrialsRunWholeEpochsUntilEnoughStepsAndNoCheckpoints) {
  Job base = find_max_job({1, 2, 64, 8, 1, false, true, 0, 0});
  base.compute.step_time =
      Distribution::fixed_at(0.5);  // 3 s of compute needs 6 steps; 30 steps win
  const TrialShape t = size_trial(base, 4, {});
  EXPECT_EQ(t.steps_per_epoch, 2u);  // 64 samples / 4 accelerators / batch 8
  EXPECT_EQ(t.job.run.epochs, 15u);  // 30 steps
  EXPECT_FALSE(t.job.checkpoint.enabled);
  EXPECT_EQ(t.job.run.max_steps, 0u) << "whole epochs: epoch boundaries count, as in training";
  const TrialShape idle = size_trial(base, 16, {});
  EXPECT_TRUE(idle.idle) << "16 accelerators x batch 8 > 64 samples: some get nothing";
}

TEST(FindMax, IdleAcceleratorsFailWithoutRunningAndANoteSaysWhy) {
  Job base = find_max_job({1, 2, 32, 8, 1, false, false, 0, 0});
  int runs = 0;
  auto always_busy = [&](const Job& j) -> Result<Report> {
    ++runs;
    Report r;
    r.au = 1.0;
    r.au_threshold = j.compute.au_threshold;
    r.passed = true;
    return r;
  };
  Result<FindMaxResult> r = find_max_accelerators(base, always_busy);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->max_accelerators, 4u);  // 32 samples, batch 8: a fifth accelerator gets no batch
  EXPECT_EQ(runs, 3);                  // 1, 2, 4 ran; 8, 6, 5 failed without running
  ASSERT_FALSE(r->notes.empty());
  EXPECT_NE(r->notes[0].find("no batch"), std::string::npos);
}

// Trials run back to back on the same files: each must start from storage, not from what the
// previous trial left in the page cache, and say so; a figure that may come from RAM is labelled.
struct CacheModel {
  bool fits_in_ram = false;
  std::string warning;
  std::vector<CacheMode> modes;
  Result<Report> operator()(const Job& j) {
    modes.push_back(j.run.cache);
    Report r;
    r.au = j.run.accelerators <= 2 ? 1.0 : 0.5;
    r.au_threshold = j.compute.au_threshold;
    r.passed = r.au >= r.au_threshold;
    r.dataset_fits_in_ram = fits_in_ram;
    if (!warning.empty()) r.warnings.push_back(warning);
    return r;
  }
};

TEST(FindMax, EveryTrialDropsThePageCacheFirst) {
  const Job base = find_max_job({1, 2, 4096, 8, 1, false, false, 0, 0});
  ASSERT_EQ(base.run.cache, CacheMode::keep);
  CacheModel m;
  FindMaxOptions o;
  o.can_drop_caches = true;  // root
  Result<FindMaxResult> r = find_max_accelerators(base, std::ref(m), o);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->max_accelerators, 2u);
  ASSERT_FALSE(m.modes.empty());
  for (CacheMode c : m.modes) EXPECT_EQ(c, CacheMode::drop_start);
  EXPECT_NE(r->page_cache.find("/proc/sys/vm/drop_caches"), std::string::npos) << r->page_cache;
  EXPECT_FALSE(r->warm_cache);
  for (const FindMaxTrial& t : r->trials) EXPECT_FALSE(t.warm_cache);
  const auto j = nlohmann::json::parse(find_max_json(*r, base.compute.au_threshold));
  EXPECT_EQ(j["max_accelerators"], 2);
  EXPECT_EQ(j["warm_cache"], false);
  EXPECT_EQ(j["page_cache"], r->page_cache);
  EXPECT_EQ(j["trials"].size(), r->trials.size());
}

TEST(FindMax, AFigureThatMayComeFromThePageCacheIsLabelled) {
  const Job base = find_max_job({1, 2, 4096, 8, 1, false, false, 0, 0});
  // Not root: the cache cannot be dropped for sure.
  CacheModel plain;
  Result<FindMaxResult> r = find_max_accelerators(base, std::ref(plain), {});
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->warm_cache);
  EXPECT_NE(r->page_cache.find("not root"), std::string::npos) << r->page_cache;
  for (const FindMaxTrial& t : r->trials) EXPECT_TRUE(t.warm_cache);
  EXPECT_EQ(nlohmann::json::parse(find_max_json(*r, 0.9))["warm_cache"], true);
  // Root, but the drop failed.
  FindMaxOptions root;
  root.can_drop_caches = true;
  CacheModel failed;
  failed.warning =
      "cannot write /proc/sys/vm/drop_caches; dropped the dataset's pages with fadvise";
  r = find_max_accelerators(base, std::ref(failed), root);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->warm_cache);
  // Root, but trials repeat epochs of a dataset that fits in RAM (this one needs several epochs
  // for 30 steps), without dropping between them.
  Job small = find_max_job({1, 2, 64, 8, 1, false, false, 0, 0});
  CacheModel in_ram;
  in_ram.fits_in_ram = true;
  r = find_max_accelerators(small, std::ref(in_ram), root);
  ASSERT_TRUE(r);
  ASSERT_GT(r->trials.front().epochs, 1u);
  EXPECT_TRUE(r->trials.front().warm_cache);
  EXPECT_TRUE(r->warm_cache);
  // O_DIRECT: no page cache to drop or to read from.
  Job direct = base;
  direct.reader.direct = true;
  CacheModel d;
  d.fits_in_ram = true;
  r = find_max_accelerators(direct, std::ref(d), {});
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->warm_cache);
  EXPECT_NE(r->page_cache.find("O_DIRECT"), std::string::npos);
  for (CacheMode c : d.modes) EXPECT_EQ(c, CacheMode::keep);
}

TEST(FindMax, NeedsAComputeTime) {
  Job base = find_max_job({1, 2, 32, 8, 1, false, false, 0, 0});
  base.compute.step_time = Distribution::fixed_at(0);
  Result<FindMaxResult> r =
      find_max_accelerators(base, [](const Job&) -> Result<Report> { return Report{}; });
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::bad_input);
}

}  // namespace
}  // namespace dlgen::mlperf
