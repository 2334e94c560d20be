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
// AU passes since the job models the workers' collate (reader.collate, 35 ms a batch of 64:
// stacking 38 MB of images into the /dev/shm tensor): the replay's AU 0.529 against the
// program's 0.483 on the H200; the same job with collate 0 gave 0.552 (bench/gpu/
// device_variants.sh), over the 0.05 tolerance.
TEST(CompareGpuSameHost, ImagenetAu) {
  expect_rows_pass("imagenet", {"au"});
}
// Not yet: the replay's epoch (its readers' span) is 1.026 s against the program's 1.28 s, and its
// step 0.0341 s (the GPU's median between loss.item() synchronisations) against 0.0385 s: the
// program's loop stalls at every 10th step's loss.item() and its readers are held back by the
// consumer more than the replay's (prefetch 1, 8 workers). Same-host variants tried on the H200
// (prefetch 2, a batch overhead of the stall, compute at the mean period) moved epoch_time by at
// most 3 points (bench/gpu/device_variants.sh; docs/fidelity.md).
TEST(CompareGpuSameHost, DISABLED_ImagenetTiming) {
  expect_rows_pass("imagenet", {"epoch_time", "duration", "step_time", "throughput"});
}

TEST(CompareGpuSameHost, SegmentationStepsAndCompute) {
  expect_rows_pass("segmentation", {"files_read", "epoch_bytes_read", "readers", "epochs", "steps",
                                    "step_time", "compute", "data_wait", "eval_passes",
                                    "eval_steps", "checkpoints", "checkpoint_size"});
}
// The workers' own time is in the job: each image + label sample's patch cutting (preprocess
// 9.7 ms, the gaps after both of its files; it was 0 s while the image-to-label gaps were counted
// alone) and each batch's collate (44 ms: two samples of 2 x 8 MB stacked into /dev/shm). The I/O
// span of a pass was 42% short (epoch_time 0.263 vs 0.153 s); now 8.5% (0.252 vs 0.274 s).
TEST(CompareGpuSameHost, SegmentationReadSpan) {
  expect_rows_pass("segmentation", {"epoch_time", "duration", "throughput"});
}
// Not yet: AU 0.624 against the original's 0.674, at the 0.05 tolerance's edge: the slower
// workers now leave the replay's first steps of each pass waiting longer than the program's.
TEST(CompareGpuSameHost, DISABLED_SegmentationAu) {
  expect_rows_pass("segmentation", {"au"});
}

}  // namespace
}  // namespace dlgen::compare
