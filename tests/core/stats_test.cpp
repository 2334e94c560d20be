// The shared arithmetic (core/stats.hpp): the one percentile's definition on small arrays whose
// answer is known (the values numpy.percentile gives), and AU from hand-built step records.
#include "dlgen/core/stats.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace dlgen {
namespace {

TEST(CoreStats, PercentileInterpolatesBetweenTheTwoNearestRanks) {
  // numpy.percentile([1, 2, 3, 4], [25, 50, 90]) = 1.75, 2.5, 3.7
  EXPECT_DOUBLE_EQ(percentile({1, 2, 3, 4}, 0.25), 1.75);
  EXPECT_DOUBLE_EQ(percentile({1, 2, 3, 4}, 0.5), 2.5);
  EXPECT_DOUBLE_EQ(percentile({1, 2, 3, 4}, 0.9), 3.7);
  // Odd count: the median is the middle value; order of the input does not matter.
  EXPECT_DOUBLE_EQ(percentile({50, 10, 40, 20, 30}, 0.5), 30.0);
  EXPECT_DOUBLE_EQ(percentile({50, 10, 40, 20, 30}, 0.9), 46.0);  // h = 3.6: 40 + 0.6 x 10
  EXPECT_DOUBLE_EQ(percentile({50, 10, 40, 20, 30}, 0.1), 14.0);  // h = 0.4: 10 + 0.4 x 10
  // Ties and negative values.
  EXPECT_DOUBLE_EQ(percentile({-2, 5, 5, 5}, 0.5), 5.0);
  EXPECT_DOUBLE_EQ(percentile({-2, 5, 5, 5}, 0.0), -2.0);
}

TEST(CoreStats, PercentileEndsAreMinAndMaxAndPIsClamped) {
  const std::vector<double> v = {7, -1, 3, 12, 0.5};
  EXPECT_DOUBLE_EQ(percentile(v, 0.0), -1.0);
  EXPECT_DOUBLE_EQ(percentile(v, 1.0), 12.0);
  EXPECT_DOUBLE_EQ(percentile(v, -0.5), -1.0);
  EXPECT_DOUBLE_EQ(percentile(v, 1.5), 12.0);
  for (double p : {0.0, 0.3, 0.5, 1.0}) EXPECT_DOUBLE_EQ(percentile({4.25}, p), 4.25);
}

TEST(CoreStats, PercentileOfNothingIsZero) {
  EXPECT_EQ(percentile({}, 0.0), 0.0);
  EXPECT_EQ(percentile({}, 0.5), 0.0);
  EXPECT_EQ(percentile_sorted({}, 1.0), 0.0);
}

TEST(CoreStats, PercentileSortedAgreesWithPercentile) {
  const std::vector<double> sorted = {1, 1, 2, 3, 5, 8, 13, 21};
  for (double p = 0; p <= 1.0; p += 0.05)
    EXPECT_DOUBLE_EQ(percentile_sorted(sorted, p), percentile(sorted, p)) << p;
}

constexpr std::int64_t kMs = 1'000'000;

// Two epochs of two steps with 100 ms compute; the run's first batch came at 40 ms, each epoch's
// first batch waited 60 ms (an epoch boundary), a 30 ms checkpoint after the first step of epoch 2
// held the step, an evaluation step of 20 ms, and the run ended with a checkpoint at 700 ms.
TEST(CoreStats, AuIsComputeOverWallFromTheFirstBatchToTheRunEnd) {
  const std::vector<AuStep> steps = {
      {40 * kMs, 100 * kMs, 140 * kMs},  // epoch 1
      {140 * kMs, 100 * kMs, 240 * kMs},
      {300 * kMs, 100 * kMs, 430 * kMs},  // epoch 2: 60 ms boundary; 30 ms checkpoint after it
      {430 * kMs, 100 * kMs, 530 * kMs},
      {560 * kMs, 20 * kMs, 580 * kMs},  // evaluation
  };
  const AuParts p = accelerator_utilisation(steps, 0, 700 * kMs);
  EXPECT_DOUBLE_EQ(p.compute_s, 0.42);
  EXPECT_DOUBLE_EQ(p.first_wait_s, 0.04);
  EXPECT_DOUBLE_EQ(p.wall_s, 0.66);
  EXPECT_DOUBLE_EQ(p.au(), 0.42 / 0.66);
  // The run cannot end before a step did: a run end too early is the last step's end.
  EXPECT_DOUBLE_EQ(accelerator_utilisation(steps, 0, 100 * kMs).wall_s, 0.54);
  // The order of the records does not matter.
  const std::vector<AuStep> reversed(steps.rbegin(), steps.rend());
  EXPECT_DOUBLE_EQ(accelerator_utilisation(reversed, 0, 700 * kMs).au(), p.au());
}

// The loss (wall − compute) splits exactly into waits at pass starts, waits inside passes and the
// rest; the harness's windows (cache drops between passes) leave wall time and the waits, a
// checkpoint between passes is wall time but not a data wait.
TEST(CoreStats, AuLossSplitsIntoEpochStartAndInEpochWaitsAndHarnessIsLeftOut) {
  const std::vector<AuStep> steps = {
      {40 * kMs, 100 * kMs, 140 * kMs, true},  // epoch 1
      {160 * kMs, 100 * kMs, 260 * kMs},       // 20 ms in-epoch wait
      {265 * kMs, 100 * kMs, 375 * kMs},       // 5 ms wait, 10 ms per-batch cost (other)
      // between passes: 50 ms harness (cache drop), 100 ms checkpoint, 30 ms worker start-up
      {555 * kMs, 100 * kMs, 655 * kMs, true},  // epoch 2
      {695 * kMs, 100 * kMs, 795 * kMs},        // 40 ms in-epoch wait
  };
  const std::vector<TimeWindow> harness = {{10 * kMs, 30 * kMs}, {375 * kMs, 425 * kMs}};
  const std::vector<TimeWindow> checkpoints = {{425 * kMs, 525 * kMs}};
  const AuParts p = accelerator_utilisation(steps, 0, 800 * kMs, harness, checkpoints);
  EXPECT_DOUBLE_EQ(p.compute_s, 0.5);
  EXPECT_DOUBLE_EQ(p.first_wait_s, 0.04);
  EXPECT_NEAR(p.harness_s, 0.05, 1e-12);  // the window before the first batch is first wait
  EXPECT_NEAR(p.wall_s, 0.76 - 0.05, 1e-12);
  EXPECT_NEAR(p.epoch_start_wait_s, 0.03, 1e-12);
  EXPECT_NEAR(p.in_epoch_wait_s, 0.065, 1e-12);
  EXPECT_NEAR(p.other_s, 0.01 + 0.1 + 0.005, 1e-12);  // per-batch cost, checkpoint, the tail
  EXPECT_NEAR(p.compute_s + p.epoch_start_wait_s + p.in_epoch_wait_s + p.other_s, p.wall_s, 1e-12);
  // Without the windows the harness's time is a wait at the pass start and lowers AU.
  const AuParts raw = accelerator_utilisation(steps, 0, 800 * kMs);
  EXPECT_NEAR(raw.wall_s, 0.76, 1e-12);
  EXPECT_NEAR(raw.epoch_start_wait_s, 0.18, 1e-12);
  EXPECT_LT(raw.au(), p.au());
}

TEST(CoreStats, AuOfAnAcceleratorWithoutStepsIsZeroOverTheWholeRun) {
  const AuParts p = accelerator_utilisation({}, 10 * kMs, 510 * kMs);
  EXPECT_EQ(p.compute_s, 0.0);
  EXPECT_DOUBLE_EQ(p.wall_s, 0.5);
  EXPECT_EQ(p.au(), 0.0);
  EXPECT_EQ(AuParts{}.au(), 0.0);  // no wall time: 0, not NaN
}

}  // namespace
}  // namespace dlgen
