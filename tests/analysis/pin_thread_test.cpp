// A real GPU capture whose training loop gets its batches through PyTorch's pin-memory thread
// (tests/data/traces/imagenet-resnet50-h200.h5, ground truth in the README there): the loop makes
// no syscall per step, the `pt_data_pin` thread of the same process receives every batch.
// summarize must count the program's own steps exactly, and must not take the compute per step
// from the receiving thread's gaps (about 0.02 s: it runs ahead of the loop) nor from the main
// thread's few syscalls.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "dlgen/analysis/summary.hpp"
#include "dlgen/core/stats.hpp"
#include "dlgen/trace/trace_io.hpp"
#include "stages/consumer_cost.hpp"

namespace dlgen::analysis {
namespace {

TEST(PinThread, RealResnet50CaptureHasTheProgramsStepsPerPass) {
  auto t = trace::read_trace(std::string(DLGEN_SOURCE_DIR) +
                             "/tests/data/traces/imagenet-resnet50-h200.h5");
  ASSERT_TRUE(t) << t.error().message;
  const TraceSummary s = summarize(*t);
  ASSERT_EQ(s.epochs.size(), 6u);
  std::vector<std::size_t> per_pass(s.epochs.size(), 0);
  std::vector<double> train_compute;
  for (const Step& st : s.steps) {
    ASSERT_GE(st.epoch, 0);
    ++per_pass[static_cast<std::size_t>(st.epoch)];
    if (!s.epochs[static_cast<std::size_t>(st.epoch)].evaluation)
      train_compute.push_back(static_cast<double>(st.compute_ns) * 1e-9);
  }
  std::size_t train = 0, eval = 0;
  for (std::size_t i = 0; i < s.epochs.size(); ++i) {
    const bool evaluation = s.epochs[i].evaluation;
    EXPECT_EQ(evaluation, i % 2 == 1) << i;
    EXPECT_EQ(per_pass[i], evaluation ? 4u : 32u) << "pass " << i;
    EXPECT_EQ(s.epochs[i].steps, evaluation ? 4u : 32u) << "pass " << i;
    (evaluation ? eval : train) += per_pass[i];
  }
  EXPECT_EQ(train, 96u);
  EXPECT_EQ(eval, 12u);
  // The program's step with data ready took 0.035-0.040 s on the GPU. Without CUDA probes the
  // loop's compute is fitted to each pass's end (docs/distil.md), an upper bound that holds its
  // own per-step work too: at least the GPU step, and no more than a quarter above it.
  const double median = percentile(train_compute, 0.5);
  EXPECT_GE(median, 0.035);
  EXPECT_LE(median, 0.050);
}

}  // namespace
}  // namespace dlgen::analysis

namespace dlgen::analysis::detail {
namespace {

// The loop model behind an in-process hand-over (consumer_cost.hpp): with every batch there in
// time, n steps of c end at a_0 + n·c, so c = (end − a_0) / n; a late batch restarts the loop at
// its arrival; the fitted c is the largest whose finish is still at most the end.
TEST(PinThread, FittedComputeIsTheLargestStepThatEndsThePassInTime) {
  EXPECT_EQ(fitted_compute({1000, 1000, 1000, 1000}, 1000 + 4 * 250), 250u);
  EXPECT_EQ(fitted_compute({1000, 1010, 1020, 1030}, 1000 + 4 * 250 + 3), 250u);
  // Batch 2 arrives late: the loop waits for it, then two steps remain.
  EXPECT_EQ(loop_finish({0, 100, 1000}, 100), 1100u);
  EXPECT_EQ(fitted_compute({0, 100, 1000}, 1100), 100u);
  for (const std::vector<std::uint64_t>& arrivals :
       {std::vector<std::uint64_t>{0, 5, 7, 300, 301, 900}, std::vector<std::uint64_t>{42}}) {
    for (std::uint64_t end : {950u, 1200u, 5000u}) {
      const std::uint64_t c = fitted_compute(arrivals, end);
      EXPECT_LE(loop_finish(arrivals, c), end) << end;
      EXPECT_GT(loop_finish(arrivals, c + 1), end) << end;
    }
  }
  EXPECT_EQ(fitted_compute({0, 100, 1000}, 999), 0u);  // the last batch came after the end
}

}  // namespace
}  // namespace dlgen::analysis::detail
