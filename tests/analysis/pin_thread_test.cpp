// A real GPU capture whose training loop gets its batches through PyTorch's pin-memory thread
// (tests/data/traces/imagenet-resnet50-h200.h5, ground truth in the README there): the loop makes
// no syscall per step, the `pt_data_pin` thread of the same process receives every batch.
// summarize must count the program's own steps exactly, and must not take the compute per step
// from the receiving thread's gaps (about 0.02 s: it runs ahead of the loop) nor from the main
// thread's few syscalls.
#include <gtest/gtest.h>

#include <vector>

#include "dlgen/analysis/summary.hpp"
#include "dlgen/core/stats.hpp"
#include "dlgen/trace/trace_io.hpp"

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
