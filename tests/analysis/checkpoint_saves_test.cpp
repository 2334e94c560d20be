// Checkpoints as the program saved them (stages/checkpoints.cpp, distil/checkpoint.cpp) on Sim
// traces: a final save after the last epoch's checkpoint is a checkpoint of its own and distils
// to checkpoint.final_size; a step's gap under gradient accumulation; the restore's staging
// written before training is no checkpoint; the writers' time between writes (serialize).
#include <gtest/gtest.h>

#include "dlgen/analysis/distil.hpp"
#include "dlgen/analysis/summary.hpp"
#include "sim.hpp"

namespace dlgen::analysis {
namespace {

using testing::Sim;
using testing::SimConfig;

TraceSummary summary_of(const SimConfig& c) {
  Sim sim(c);
  return summarize(sim.build());
}

// checkpoint.pt (8 MiB) after each of 3 epochs, then model_final.pt (2 MiB) with no step between:
// 4 saves, the last its own. Merged, the last save was 10 MiB and the final weights were lost.
TEST(CheckpointSaves, FinalSaveAfterTheLastCheckpointIsItsOwn) {
  SimConfig c;
  c.epochs = 3;
  c.ckpt_every_epochs = 1;
  c.ckpt_names = {"checkpoint.pt"};
  c.final_save_bytes = 2 << 20;
  const TraceSummary s = summary_of(c);
  ASSERT_EQ(s.checkpoints.size(), 4u);
  EXPECT_EQ(s.checkpoints[2].bytes, 8u << 20);
  EXPECT_EQ(s.checkpoints[3].bytes, 2u << 20);
  const Distilled d = distil(s);
  EXPECT_EQ(d.job.checkpoint.every_epochs, 1u);
  EXPECT_EQ(d.job.checkpoint.size_bytes, 8u << 20);
  EXPECT_EQ(d.job.checkpoint.final_size_bytes, 2u << 20);
  EXPECT_EQ(d.job.checkpoint.final_files, 1u);
  EXPECT_TRUE(validate(d.job).empty());
}

// One checkpoint.pt after epoch 1 of 3, then model_final.pt after the last: the one save before
// it is enough to tell them apart (two were needed: both were checkpoints, after_epochs [1, 3] at
// their median size, 5 MiB).
TEST(CheckpointSaves, OneCheckpointThenAFinalSaveAreApart) {
  SimConfig c;
  c.epochs = 3;
  c.ckpt_after_epochs = {1};
  c.ckpt_names = {"checkpoint.pt"};
  c.final_save_bytes = 2 << 20;
  const TraceSummary s = summary_of(c);
  ASSERT_EQ(s.checkpoints.size(), 2u);
  const Distilled d = distil(s);
  EXPECT_EQ(d.job.checkpoint.after_epochs, (std::vector<std::uint32_t>{1}));
  EXPECT_EQ(d.job.checkpoint.size_bytes, 8u << 20);
  EXPECT_EQ(d.job.checkpoint.final_size_bytes, 2u << 20);
  EXPECT_NE(d.comments.at("checkpoint.final_size").find("the 1 before it"), std::string::npos)
      << d.comments.at("checkpoint.final_size");
  EXPECT_TRUE(validate(d.job).empty());
}

// The same file names every time: no final save.
TEST(CheckpointSaves, NoFinalSaveWithoutOneOfOtherNames) {
  SimConfig c;
  c.epochs = 3;
  c.ckpt_every_epochs = 1;
  c.ckpt_names = {"checkpoint.pt"};
  const TraceSummary s = summary_of(c);
  ASSERT_EQ(s.checkpoints.size(), 3u);
  EXPECT_EQ(distil(s).job.checkpoint.final_size_bytes, 0u);
}

// Every 4th step also runs the optimizer (35 ms more than 50): its gap is a step all the same.
// Counted only up to 1.5 x the median compute, a save every 8 steps was placed after 6, 12 ...
TEST(CheckpointSaves, OptimizerStepsUnderGradientAccumulationCount) {
  SimConfig c;
  c.workers = 3;
  c.batch = 8;
  c.files = 96;  // 12 steps an epoch
  c.epochs = 2;
  c.ckpt_every_steps = 8;
  c.accum_every = 4;
  c.accum_extra_ns = 35'000'000;
  const TraceSummary s = summary_of(c);
  ASSERT_EQ(s.checkpoints.size(), 3u);
  EXPECT_EQ(s.checkpoints[0].after_step, 8u);
  EXPECT_EQ(s.checkpoints[1].after_step, 16u);
  EXPECT_EQ(distil(s).job.checkpoint.every_steps, 8u);
}

// The checkpoint a restore reads, written and synced before training (dlgen's replay stages
// one when none is there): a restore, no checkpoint, and its fdatasync no checkpoint's.
TEST(CheckpointSaves, RestoreStagingIsNoCheckpoint) {
  SimConfig c;
  c.epochs = 2;
  c.ckpt_every_epochs = 1;
  c.ckpt_names = {"last.pt"};
  c.restore_bytes = 4 << 20;
  c.restore_staged = true;
  const TraceSummary s = summary_of(c);
  EXPECT_TRUE(s.checkpoint_restore);
  ASSERT_EQ(s.checkpoints.size(), 2u);
  for (const auto& k : s.checkpoints) EXPECT_FALSE(k.fsync);
  EXPECT_FALSE(distil(s).job.checkpoint.fsync);
}

}  // namespace
}  // namespace dlgen::analysis

namespace dlgen::analysis {
namespace {

// A checkpoint every 5 steps of 2 epochs of 8 (resume_ckpt.py's shape): after steps 5, 10, 15.
// Before each, the loop serialises the state into memory for 200 ms (a 7.5 MiB upload on a
// loaded host: 230 ms), and its step's faults on the batch's /dev/shm tensors (at the start,
// half-way, the labels at the loss) split its compute. The loop's first touch of each batch is its
// step (step_touches.cpp). Counted from the main thread's idle gaps instead, split by the faults,
// they were placed after steps 6, 11, 16, the last at its epoch's end (the held-out program's
// gaps gave 4, 10, 15 and 5, 11, 16 from run to run).
TEST(CheckpointSaves, EveryFiveStepsFromTheLoopsFirstTouchOfEachBatch) {
  SimConfig c;
  c.workers = 2;
  c.batch = 8;
  c.files = 64;  // 8 steps an epoch
  c.epochs = 2;
  c.shm_tensors = true;
  c.ckpt_every_steps = 5;
  c.ckpt_delay_ns = 200'000'000;
  const TraceSummary s = summary_of(c);
  ASSERT_EQ(s.checkpoints.size(), 3u);
  EXPECT_EQ(s.checkpoints[0].after_step, 5u);
  EXPECT_EQ(s.checkpoints[1].after_step, 10u);
  EXPECT_EQ(s.checkpoints[2].after_step, 15u);
  EXPECT_EQ(s.checkpoints[2].after_epoch, 1u);
  EXPECT_FALSE(s.checkpoints[2].at_epoch_end);
  EXPECT_EQ(distil(s).job.checkpoint.every_steps, 5u);
}

// checkpoint.serialize: the time a checkpoint's writer spends outside its write calls, from the
// file's open to its last write, is the saving program's serializing (torch.save pickling, GPU
// tensors copied to the host between its writes); an fsync after the last write is not in it.
SimConfig saves_every_epoch(std::uint64_t gap_ns) {
  SimConfig c;
  c.epochs = 3;
  c.ckpt_every_epochs = 1;
  c.ckpt_gap_ns = gap_ns;  // 8 writes of 1 MiB, 0.3 ms each: 7 gaps between them
  return c;
}

// 5 ms between each of 8 writes, 20 us from the open to the first: 35.02 ms a checkpoint.
TEST(CheckpointSerialize, TimeBetweenWritesOutsideTheCallsIsSerializing) {
  const TraceSummary s = summary_of(saves_every_epoch(5000000));
  ASSERT_EQ(s.checkpoints.size(), 3u);
  for (const auto& c : s.checkpoints) EXPECT_EQ(c.serialize_ns, 20000u + 7u * 5000000u);
  const Distilled d = distil(s);
  EXPECT_NEAR(d.job.checkpoint.serialize_s, 0.03502, 1e-9);
  EXPECT_NE(d.comments.at("checkpoint.serialize").find("outside its write calls"),
            std::string::npos);
  EXPECT_TRUE(validate(d.job).empty());
}

// Writes back to back (10 us apart): 90 us, under a millisecond, so no serialize is written.
TEST(CheckpointSerialize, WritesBackToBackSerializeNothing) {
  const TraceSummary s = summary_of(saves_every_epoch(10000));
  ASSERT_EQ(s.checkpoints.size(), 3u);
  EXPECT_EQ(s.checkpoints[0].serialize_ns, 20000u + 7u * 10000u);
  const Distilled d = distil(s);
  EXPECT_EQ(d.job.checkpoint.serialize_s, 0);
  EXPECT_EQ(d.comments.count("checkpoint.serialize"), 0u);
}

}  // namespace
}  // namespace dlgen::analysis
