// step_launches (analysis/src/stages/step_launches.cpp): the training loop's steps counted by the
// kernels it launches once a step, which place checkpoints and evaluation passes after the steps
// the loop took, however far ahead its loader read.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "stages/stages.hpp"

namespace dlgen::analysis::stages {
namespace {

using trace::Event;
using trace::Op;

Event launch(std::uint64_t ts, std::uint32_t pid, std::uint32_t tid, std::uint64_t kernel) {
  Event e;
  e.ts_ns = ts;
  e.pid = pid;
  e.tid = tid;
  e.op = Op::cuda_launch;
  e.offset = kernel;
  return e;
}

// A loop of `steps` training steps, 10 ms apart from t = 1 s, then `eval` evaluation steps: each
// training step launches a forward kernel (1) on the main thread and a backward kernel (2) on the
// autograd thread, each evaluation step the forward kernel only; an optimizer kernel (3) every
// `accum` steps (0: none). Another process (pid 200) launches the backward kernel as often.
trace::Trace loop(std::uint64_t steps, std::uint64_t eval, std::uint64_t accum = 0) {
  trace::Trace t;
  for (std::uint64_t i = 0; i < steps + eval; ++i) {
    const std::uint64_t at = 1'000'000'000 + i * 10'000'000;
    t.events.push_back(launch(at, 100, 100, 1));
    if (i >= steps) continue;
    t.events.push_back(launch(at + 2'000'000, 100, 101, 2));
    t.events.push_back(launch(at + 2'000'000, 200, 201, 2));
    if (accum > 0 && (i + 1) % accum == 0) t.events.push_back(launch(at + 3'000'000, 100, 100, 3));
  }
  return t;
}

TEST(StepLaunches, CountsTheStepsQueuedBeforeAPoint) {
  const StepLaunches s = step_launches(loop(96, 12), 100, 96);
  ASSERT_FALSE(s.empty());
  EXPECT_EQ(s.kernels.size(), 1u);  // the backward kernel; the forward one ran in evaluation too
  EXPECT_EQ(s.before(0), 0u);
  // A checkpoint written after step 20 (0-based step 19 launched at 1.19 s, its backward at 1.192).
  EXPECT_EQ(s.before(1'195'000'000), 20u);
  EXPECT_EQ(s.before(1'200'000'000), 20u);  // step 21's forward is queued, its backward is not
  EXPECT_EQ(s.before(1'202'000'001), 21u);
  EXPECT_EQ(s.before(UINT64_MAX), 96u);
}

// Gradient accumulation: micro-steps are the steps (the batches); the optimizer kernel, launched
// once every 4, is not a step kernel.
TEST(StepLaunches, MicroStepsUnderGradientAccumulation) {
  const StepLaunches s = step_launches(loop(160, 40, 4), 100, 160);
  ASSERT_EQ(s.kernels.size(), 1u);
  EXPECT_EQ(s.before(1'000'000'000 + 40 * 10'000'000), 40u);  // an evaluation after micro-step 40
}

// Without a kernel launched exactly once a step (no CUDA events, or a count that matches no
// kernel) there is nothing to count by: the caller falls back on the loop's idle gaps.
TEST(StepLaunches, NoneWithoutAKernelOncePerStep) {
  EXPECT_TRUE(step_launches(trace::Trace{}, 100, 96).empty());
  EXPECT_TRUE(step_launches(loop(96, 12), 100, 95).empty());
  EXPECT_TRUE(step_launches(loop(96, 12), 100, 0).empty());
  EXPECT_EQ(StepLaunches{}.before(1), 0u);
}

// Law: steps before t never decrease as t grows, and run from 0 before the first launch to every
// step after the last, whatever the spacing of the steps.
TEST(StepLaunches, StepsBeforeGrowFromNoneToAll) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    trace::Trace t;
    const std::uint64_t steps = 1 + rng() % 50;
    std::uint64_t at = 1000;
    for (std::uint64_t i = 0; i < steps; ++i) {
      at += 1 + rng() % 1'000'000;
      t.events.push_back(launch(at, 7, 8, 42));
    }
    const StepLaunches s = step_launches(t, 7, steps);
    ASSERT_FALSE(s.empty());
    EXPECT_EQ(s.before(1000), 0u);
    EXPECT_EQ(s.before(at + 1), steps);
    std::uint64_t last = 0;
    for (std::uint64_t q = 0; q <= at + 1; q += 1 + at / 97) {
      EXPECT_GE(s.before(q), last);
      last = s.before(q);
    }
  }
}

}  // namespace
}  // namespace dlgen::analysis::stages
