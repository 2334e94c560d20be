// Held-out GPU programs (issue 18): tests/pytorch/heldout_gpu/ was written by someone who had not
// read distil, from common real-world loader patterns, and captured once on one H200
// (bench/gpu/device_heldout.sh; tests/data/gpu/heldout/README.md). Each program logged its own
// ground truth (NAME.truth.jsonl). What distil gets right is checked here; what it does not yet
// is kept as DISABLED_ tests that state the program's figures, to enable as distil learns them.
#include <gtest/gtest.h>

#include <string>

#include "heldout_captures.hpp"

namespace dlgen::analysis {
namespace {

const std::string kDir = std::string(DLGEN_SOURCE_DIR) + "/tests/data/gpu/heldout/";

using Truth = HeldOutTruth;
using Captured = HeldOutCapture;
Truth truth_of(const std::string& name) { return dlgen::analysis::truth_of(kDir, name); }
Captured capture_of(const std::string& name) { return dlgen::analysis::capture_of(kDir, name); }

std::vector<std::uint64_t> checkpoint_steps(const TraceSummary& s) {
  std::vector<std::uint64_t> steps;
  for (const auto& k : s.checkpoints) steps.push_back(k.after_step);
  return steps;
}

std::vector<std::uint64_t> eval_after_steps(const TraceSummary& s) {
  std::vector<std::uint64_t> steps;
  for (const auto& e : s.epochs)
    if (e.evaluation) steps.push_back(e.after_step);
  return steps;
}

// lm_shards.py: a GPT over np.memmap'd token shards, 4 workers, pin memory, bf16 autocast,
// gradient accumulation over 4 micro-batches; the CPU runs ahead of the GPU.
class HeldOutGpuLm : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    truth_ = new Truth(truth_of("lm_shards"));
    cap_ = new Captured(capture_of("lm_shards"));
  }
  static void TearDownTestSuite() {
    delete truth_;
    delete cap_;
  }
  static Truth* truth_;
  static Captured* cap_;
};
Truth* HeldOutGpuLm::truth_ = nullptr;
Captured* HeldOutGpuLm::cap_ = nullptr;

TEST_F(HeldOutGpuLm, ComputeIsTheGpusMicroStep) {
  const double truth = truth_->summary.at("compute_median_s").get<double>();
  EXPECT_NEAR(cap_->distilled.job.compute.step_time.expected(), truth, 0.1 * truth);
}
TEST_F(HeldOutGpuLm, CheckpointsAreTheTorchSaves) {
  EXPECT_EQ(checkpoint_bytes(cap_->summary), truth_->saves);
}
// 16 windows of 2 KiB a micro-batch inside 16 MiB memmaps: the items each worker touched between
// its hand-overs (was 42 fault windows); 2 epochs of 80 micro-steps, each interrupted by an
// evaluation while its workers live on (were 4 passes of 48 and 32).
TEST_F(HeldOutGpuLm, MicroBatchesAndEpochs) {
  EXPECT_EQ(cap_->distilled.job.reader.batch_size, truth_->summary.at("batch_size"));
  EXPECT_EQ(cap_->distilled.job.reader.workers, truth_->summary.at("workers"));
  EXPECT_EQ(pass_steps(cap_->summary, false), counts(truth_->summary.at("steps_per_epoch")));
}
TEST_F(HeldOutGpuLm, EvaluationEveryTenOptimizerSteps) {
  EXPECT_EQ(pass_steps(cap_->summary, true), counts(truth_->summary.at("val_steps_per_pass")));
}
// 4 evaluations after optimizer steps 10, 20, 30, 40 = micro-steps 40, 80, 120, 160 (2 of them in
// the middle of an epoch): counted by the loop's kernel launches (the CPU runs ahead of the GPU,
// so its idle gaps are not steps). The job evaluates every 40 micro-steps (it said every epoch:
// 2 evaluations).
TEST_F(HeldOutGpuLm, EvaluationsPlacedByTheLoopsSteps) {
  EXPECT_EQ(truth_->eval_steps, (std::vector<std::uint64_t>{40, 80, 120, 160}));
  EXPECT_EQ(eval_after_steps(cap_->summary), truth_->eval_steps);
  const std::uint64_t every = truth_->summary.at("eval_every").get<std::uint64_t>() *
                              truth_->summary.at("accum").get<std::uint64_t>();
  EXPECT_EQ(cap_->distilled.job.run.eval_every_steps, every);
  EXPECT_EQ(cap_->distilled.job.run.eval_every_epochs, 0u);
}
// torch.save after optimizer steps 20 and 40: the end of each epoch of 80 micro-steps.
TEST_F(HeldOutGpuLm, CheckpointsAfterEachEpoch) {
  EXPECT_EQ(checkpoint_steps(cap_->summary), truth_->save_steps);
  EXPECT_EQ(cap_->distilled.job.checkpoint.every_epochs, 1u);
}

// prefetch_imagenet.py: apex-style CUDA-stream prefetcher, files chosen by train.csv / val.csv in
// one flat folder, persistent workers for both loaders, a checkpoint every 20 steps of which only
// the last 2 are kept.
class HeldOutGpuPrefetch : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    truth_ = new Truth(truth_of("prefetch_imagenet"));
    cap_ = new Captured(capture_of("prefetch_imagenet"));
  }
  static void TearDownTestSuite() {
    delete truth_;
    delete cap_;
  }
  static Truth* truth_;
  static Captured* cap_;
};
Truth* HeldOutGpuPrefetch::truth_ = nullptr;
Captured* HeldOutGpuPrefetch::cap_ = nullptr;

TEST_F(HeldOutGpuPrefetch, TrainingPasses) {
  EXPECT_EQ(cap_->distilled.job.run.epochs, truth_->summary.at("epochs"));
}
TEST_F(HeldOutGpuPrefetch, ComputeIsTheGpusStep) {
  const double truth = truth_->summary.at("compute_median_s").get<double>();
  EXPECT_NEAR(cap_->distilled.job.compute.step_time.expected(), truth, 0.1 * truth);
}
TEST_F(HeldOutGpuPrefetch, BatchWorkersAndSteps) {
  EXPECT_EQ(cap_->distilled.job.reader.batch_size, truth_->summary.at("batch_size"));
  EXPECT_EQ(cap_->distilled.job.reader.workers, truth_->summary.at("workers"));
  EXPECT_EQ(pass_steps(cap_->summary, false), counts(truth_->summary.at("steps_per_epoch")));
}
TEST_F(HeldOutGpuPrefetch, ValidationByCsvInTheSameFolder) {
  EXPECT_EQ(cap_->distilled.job.dataset.num_files, truth_->summary.at("train_samples"));
  ASSERT_TRUE(cap_->distilled.job.validation.has_value());
  EXPECT_EQ(cap_->distilled.job.validation->num_files, truth_->summary.at("val_samples"));
  EXPECT_EQ(pass_steps(cap_->summary, true), counts(truth_->summary.at("val_steps_per_pass")));
}
TEST_F(HeldOutGpuPrefetch, CheckpointsAreTheTorchSaves) {
  EXPECT_EQ(checkpoint_bytes(cap_->summary), truth_->saves);
}
// A torch.save every 20 steps: after steps 20, 40, 60, 80 of 3 epochs of 32. The loader's 8
// persistent workers (prefetch_factor 4) hand each epoch over before the loop's second step, and
// the loop makes no syscall a step; its kernel launches count its steps (were: after 32, 35, 42,
// 67 by the main thread's idle gaps).
TEST_F(HeldOutGpuPrefetch, CheckpointsEveryTwentySteps) {
  EXPECT_EQ(truth_->save_steps, (std::vector<std::uint64_t>{20, 40, 60, 80}));
  EXPECT_EQ(checkpoint_steps(cap_->summary), truth_->save_steps);
  EXPECT_EQ(cap_->distilled.job.checkpoint.every_steps, truth_->summary.at("ckpt_every"));
  EXPECT_EQ(cap_->distilled.job.checkpoint.every_epochs, 0u);
}
// Validation after each epoch: after steps 32, 64, 96, so the job evaluates every epoch.
TEST_F(HeldOutGpuPrefetch, ValidationAfterEachEpoch) {
  EXPECT_EQ(eval_after_steps(cap_->summary), (std::vector<std::uint64_t>{32, 64, 96}));
  EXPECT_EQ(cap_->distilled.job.run.eval_every_epochs, 1u);
  EXPECT_EQ(cap_->distilled.job.run.eval_every_steps, 0u);
}

}  // namespace
}  // namespace dlgen::analysis
