// A real GPU run judged against its replay on a host without a GPU (issue 18): the original is
// tests/data/gpu/cuda/imagenet.h5 (resnet50, batch 64, 8 workers, pin memory, 2 epochs on one H200,
// no warm-up run first: its first training step took 16.5 s of CUDA context, cuDNN autotuning and
// kernel loading); the replay is tests/data/gpu/replays/imagenet.replay.h5, `dlgen run` of the job
// distil made of it (imagenet.job.toml there) under `--capture`, on this 2-core VM.
#include <gtest/gtest.h>

#include <string>

#include "dlgen/analysis/summary.hpp"
#include "dlgen/compare/compare.hpp"
#include "dlgen/compare/profile.hpp"
#include "dlgen/trace/trace_io.hpp"
#include "profiles.hpp"

namespace dlgen::compare {
namespace {

using profiles::metric;

const std::string kData = std::string(DLGEN_SOURCE_DIR) + "/tests/data/gpu/";

Profile profile(const std::string& path) {
  auto t = trace::read_trace(kData + path);
  EXPECT_TRUE(t) << t.error().message;
  return profile_of(*t, analysis::summarize(*t));
}

class CompareGpu : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    original_ = new Profile(profile("cuda/imagenet.h5"));
    replay_ = new Profile(profile("replays/imagenet.replay.h5"));
  }
  static void TearDownTestSuite() {
    delete original_;
    delete replay_;
  }
  static Profile* original_;
  static Profile* replay_;
};
Profile* CompareGpu::original_ = nullptr;
Profile* CompareGpu::replay_ = nullptr;

// Steps, step time, compute, data wait and AU agree at the default tolerances; so do the data, the
// epochs and the checkpoints' count and size (their write time is this VM's disk, not the H200
// host's, and is left out).
TEST_F(CompareGpu, ReplayWithoutAGpuMatchesTheRealRun) {
  const Comparison c = compare(*original_, *replay_, Tolerances{});
  for (const char* row : {"steps", "step_time", "compute", "data_wait", "au", "epochs", "epoch_time",
                          "duration", "throughput", "files_read", "epoch_bytes_read", "readers",
                          "eval_passes", "eval_steps", "checkpoints", "checkpoint_size"})
    EXPECT_EQ(metric(c, row).verdict, Verdict::pass)
        << row << ": " << metric(c, row).original << " vs " << metric(c, row).replay;
}

// The first training pass holds the 16.5 s warm-up. Over the whole run the original's AU and the
// share of its step time spent waiting are those of the warm-up, not of training; the timing rows
// judge the steady state (the passes after the first), as epoch_time and throughput always have.
TEST_F(CompareGpu, TheFirstPassesOneTimeCostsAreNotJudged) {
  const Comparison c = compare(*original_, *replay_, Tolerances{});
  ASSERT_TRUE(original_->au_steady.has_value());
  EXPECT_GT(*original_->au_steady - original_->au, 0.2);  // the warm-up weighs on the whole run
  EXPECT_DOUBLE_EQ(metric(c, "au").original, *original_->au_steady);
  double wait = 0, step = 0;
  for (std::size_t i = 0; i < original_->step_times_s.size(); ++i) {
    wait += original_->data_wait_s[i];
    step += original_->step_times_s[i];
  }
  EXPECT_GT(wait / step, 0.5);  // over every step: the warm-up counted as a wait for data
  EXPECT_LT(metric(c, "data_wait").original, 0.05);
  ASSERT_EQ(original_->step_steady.size(), original_->step_times_s.size());
  std::size_t steady = 0;
  for (char s : original_->step_steady) steady += s ? 1 : 0;
  EXPECT_EQ(steady, 32u);  // the second epoch's 32 steps
}

// The whole loop on the GPU host itself (bench/gpu/device_replay.sh, tests/data/gpu/samehost/): each
// program ran once to warm up, then under capture; its job was replayed on the same host and the
// same storage. These rows hold at the default tolerances today.
void expect_rows_pass(const std::string& name, std::initializer_list<const char*> rows) {
  const Comparison c = compare(profile("samehost/" + name + ".h5"),
                               profile("samehost/" + name + ".replay.h5"), Tolerances{});
  for (const char* row : rows)
    EXPECT_EQ(metric(c, row).verdict, Verdict::pass)
        << name << " " << row << ": " << metric(c, row).original << " vs "
        << metric(c, row).replay;
}

TEST(CompareGpuSameHost, ImagenetDataStepsEvaluationAndCheckpoints) {
  expect_rows_pass("imagenet", {"bytes_read", "bytes_written", "files_read", "epoch_bytes_read",
                                "readers", "epochs", "steps", "compute", "data_wait", "eval_passes",
                                "eval_steps", "eval_step_time", "checkpoints", "checkpoint_size",
                                "checkpoint_interval", "checkpoint_write_time", "checkpoint_copy"});
}
// Not yet: the program's step period in its steady epoch is 0.0368 s on average (its log's batch
// arrivals) where its median is 0.0313 s and the GPU's own step 0.0329 s: every 10th step waits at
// loss.item() for the GPU to drain its queue. distil's GPU-timeline median (0.0341 s) is what the
// replay sleeps, so its epoch is 16% shorter.
TEST(CompareGpuSameHost, DISABLED_ImagenetTiming) {
  expect_rows_pass("imagenet", {"epoch_time", "duration", "step_time", "au", "throughput"});
}

TEST(CompareGpuSameHost, SegmentationStepsComputeAndAu) {
  expect_rows_pass("segmentation", {"files_read", "epoch_bytes_read", "readers", "epochs", "steps",
                                    "step_time", "compute", "data_wait", "au", "eval_passes",
                                    "eval_steps", "checkpoints", "checkpoint_size"});
}
// Not yet: the original's workers np.load each 7.5 MB image and label and cut a random patch from
// both (1.2 GB/s of samples); the replay's readers read the bytes alone (1.8 GB/s), so the I/O span
// of a pass is 42% shorter.
TEST(CompareGpuSameHost, DISABLED_SegmentationReadSpan) {
  expect_rows_pass("segmentation", {"epoch_time", "duration", "throughput"});
}

}  // namespace
}  // namespace dlgen::compare
