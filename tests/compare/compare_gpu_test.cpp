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

// The first training pass holds the 16.5 s warm-up (CUDA context, cuDNN's autotuning) inside its
// first step: from that batch's copy to the GPU to the next batch's, the GPU's own first step, as
// the program's CUDA events time it. So the original's AU over the whole run is the program's own
// (Σ compute_s / wall: 0.912, docs/metrics.md) and its steps barely wait for data; until the steps
// behind a pin-memory thread started at their batches' copies, the warm-up was fitted as a wait for
// data (the whole run's AU 0.147, waits over half the step time). The timing rows judge the steady
// state (the passes after the first), as epoch_time and throughput always have.
TEST_F(CompareGpu, TheFirstPassesOneTimeCostsAreNotJudged) {
  const Comparison c = compare(*original_, *replay_, Tolerances{});
  ASSERT_TRUE(original_->au_steady.has_value());
  EXPECT_NEAR(original_->au, 0.912, 0.05);
  EXPECT_DOUBLE_EQ(metric(c, "au").original, *original_->au_steady);
  double wait = 0, step = 0;
  for (std::size_t i = 0; i < original_->step_times_s.size(); ++i) {
    wait += original_->data_wait_s[i];
    step += original_->step_times_s[i];
  }
  EXPECT_LT(wait / step, 0.05);
  EXPECT_LT(metric(c, "data_wait").original, 0.05);
  ASSERT_EQ(original_->step_steady.size(), original_->step_times_s.size());
  std::size_t steady = 0;
  for (char s : original_->step_steady) steady += s ? 1 : 0;
  EXPECT_EQ(steady, 32u);  // the second epoch's 32 steps
}

// The whole loop on the GPU host itself (`REPEAT=1 bash bench/gpu/device_replay.sh`,
// tests/data/gpu/samehost/): each program ran once to warm up, then twice under capture (NAME.h5,
// NAME.b.h5); the first capture's job was replayed on the same host and the same storage and
// judged against both captures, so each host-time row's tolerance widens to the program's own
// spread between them where that is larger (`dlgen compare --original-repeat`). These rows hold
// at the default tolerances today.
void expect_rows_pass(const std::string& name, std::initializer_list<const char*> rows) {
  const Comparison c = compare(
      std::vector<Profile>{profile("samehost/" + name + ".h5"), profile("samehost/" + name + ".b.h5")},
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
// Not yet: the replay's AU 0.526 against the program's 0.432 (its spread between captures
// 0.007). Since its steps start at their batches' copies to the GPU, the original's compute is the
// GPU's (it was fitted to the pin thread's span, 11% long, which gave AU 0.483 and hid this); the
// replay's steady state is ~0.65 s shorter: its checkpoint writes take 0.06 s for the program's
// 0.13-0.19 s (torch.save pickles between its writes) and it has no gap after the last
// evaluation read (the program's loop takes the evaluation's 4 batches only after all are read,
// then copies the state_dict back: 0.135 s a pass). docs/fidelity.md.
TEST(CompareGpuSameHost, DISABLED_ImagenetAu) {
  expect_rows_pass("imagenet", {"au"});
}
// The readers' span and the loop's step: the workers' paces (reader.worker_pace: the slowest of 8
// took 25% longer than their mean and ended the pass), PIL's header parsing in reader.preprocess,
// and the steps measured from copy to copy (the program's median period, where fitting the pin
// thread's span gave 0.0385 s for 0.0330 s), with the step's distribution from those periods
// scaled to the GPU's mean. Before: epoch_time 1.026 vs 1.28 s, step_time 0.0341 vs 0.0385 s.
TEST(CompareGpuSameHost, ImagenetTiming) {
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
// span of a pass was 42% short (epoch_time 0.263 vs 0.153 s); now 0.226 vs 0.252 s (11.7%, within
// the program's own spread of 28.6% between its two captures).
TEST(CompareGpuSameHost, SegmentationReadSpan) {
  expect_rows_pass("segmentation", {"epoch_time", "duration", "throughput"});
}
// AU 0.624 against the program's 0.617 (the capture of 12:00 was at the 0.05 tolerance's edge,
// 0.624 vs 0.674, when the steps behind the pin thread were fitted to its span rather than
// started at their batches' copies to the GPU).
TEST(CompareGpuSameHost, SegmentationAu) {
  expect_rows_pass("segmentation", {"au"});
}

}  // namespace
}  // namespace dlgen::compare
