// Held-out GPU programs, round 2 (tests/pytorch/heldout_gpu2/README.md), on CPU at tiny scale:
// a Hugging Face Trainer-style text classifier (JSON lines read whole at start, tokenising
// collate, evaluation every N steps, checkpoint directories of ten files, rotated), a
// torchvision-references-style detector (COCO annotations JSON, aspect-ratio-grouped batches of
// variable-size images, two checkpoint files an epoch, evaluation at batch 1) and a
// WebDataset-style IterableDataset streaming tar shards (per-worker batches, gradient
// checkpointing). Each suite makes its program's dataset (`--make`), captures the program,
// distils it, generates and replays the job under capture and compares, as a user would (the
// loop is tests/support/heldout_program.hpp, cached in the build tree). The enabled tests hold
// what dlgen gets right today against the program's own ground truth (its last stdout line);
// each DISABLED_ test asserts a piece of ground truth dlgen gets wrong today, with what distil
// made instead. Needs root (BPF): a suite skips when capture says 77.
#include <gtest/gtest.h>

#include <string>

#include "heldout_program.hpp"

namespace {

using dlgen::testing::failed_rows;

const std::string kPrograms = std::string(DLGEN_SOURCE_DIR) + "/tests/pytorch/heldout_gpu2/";

template <class Suite>
class HeldOutGpu2 : public dlgen::testing::HeldOutProgram<Suite> {
 protected:
  static void loop(const std::string& program, const std::string& train_args) {
    dlgen::testing::HeldOutProgram<Suite>::loop(kPrograms, program, "", train_args);
  }
  // The job's training step time against the program's median compute time, within 10 %.
  static void expect_compute_near_truth() {
    const double job = HeldOutGpu2::job_.compute.effective().expected();
    const double truth = HeldOutGpu2::truth("compute_median_s");
    EXPECT_NEAR(job, truth, 0.10 * truth) << "compute.time";
  }
  // The evaluation batch the replay uses (reader.eval_batch_size, else reader.batch_size).
  static double eval_batch() {
    const auto& r = HeldOutGpu2::job_.reader;
    return r.eval_batch_size != 0 ? r.eval_batch_size : r.batch_size;
  }
};

// ---- Hugging Face Trainer-style: JSON lines in memory, tokenising collate, checkpoint dirs -----

class HeldOutHfText : public HeldOutGpu2<HeldOutHfText> {
 protected:
  static void SetUpTestSuite() {
    make_dir("heldout-hftext");
    loop("hf_textcls.py",
         root() + "/data --device cpu --model tiny -b 8 --eval-batch-size 16 -j 2 --epochs 2 "
                  "--eval-steps 10 --save-steps 12 --logging-steps 5 --max-length 128 --output-dir " +
             root() + "/out");
  }
};

TEST_F(HeldOutHfText, ProgramDidWhatItsReadmeSays) {
  EXPECT_EQ(truth("train_files"), 2);
  EXPECT_EQ(total("steps_per_epoch"), 30);  // ceil(120 / 8) x 2
  EXPECT_EQ(truth("eval_passes"), 3);       // after global steps 10, 20, 30
  EXPECT_EQ(truth("checkpoints"), 3);       // checkpoint-12, checkpoint-24, the final save
  EXPECT_EQ(truth("checkpoint_dir_files"), 10);
}

TEST_F(HeldOutHfText, EveryFileReadOnceAtStart) {
  // The main process reads the 2 train files and validation.jsonl whole before step 0: one pass
  // over 3 files, each read front to back.
  EXPECT_EQ(original("files_read"), truth("files")) << row("files_read").dump();
  EXPECT_EQ(original("bytes_read"), truth("file_bytes")) << row("bytes_read").dump();
  for (const char* name : {"bytes_read", "files_read", "epoch_bytes_read"})
    EXPECT_EQ(verdict(name), "PASS") << row(name).dump();
}

TEST_F(HeldOutHfText, CheckpointSaves) {
  // 3 saves (2 directories and the final model), each ~1 % short of its directory (distil's 5
  // files a save are the torch.save ones: 25,135,097 of 25,404,495 B).
  EXPECT_EQ(original("checkpoints"), truth("checkpoints")) << row("checkpoints").dump();
  EXPECT_NEAR(job_.checkpoint.size_bytes, truth("checkpoint_size_bytes"), 0.02 * truth("checkpoint_size_bytes"));
  EXPECT_EQ(job_.checkpoint.write_call, dlgen::WriteCall::writev) << "torch.save";
}

TEST_F(HeldOutHfText, InMemoryDatasetSteps) {
  // 2 train files (+ validation.jsonl apart) of 120 records, batch 8 (each batch's labels tensor,
  // an int64 a sample), 2 workers that only tokenise, 2 epochs of 15 steps: dataset.load =
  // "memory", the passes from the workers' hand-overs (stages/memory_training.cpp).
  EXPECT_EQ(job_.dataset.load, dlgen::Load::memory);
  EXPECT_EQ(job_.dataset.num_files, truth("train_files"));
  EXPECT_EQ(job_.dataset.num_files * job_.dataset.samples_per_file, truth("train_samples"));
  EXPECT_EQ(job_.reader.batch_size, truth("batch_size"));
  EXPECT_EQ(job_.reader.workers, truth("workers"));
  EXPECT_EQ(job_.run.epochs, truth("epochs"));
  EXPECT_EQ(original("steps"), total("steps_per_epoch")) << row("steps").dump();
}

TEST_F(HeldOutHfText, EvaluationEveryTenSteps) {
  // 3 evaluations of 3 steps (batch 16 over 40 records) after global steps 10, 20, 30, over
  // validation.jsonl set apart by its name and loaded into memory with the train files.
  ASSERT_TRUE(job_.validation.has_value());
  EXPECT_EQ(job_.validation->load, dlgen::Load::memory);
  EXPECT_EQ(job_.validation->num_files, truth("val_files"));
  EXPECT_EQ(eval_batch(), truth("eval_batch_size"));
  EXPECT_EQ(job_.run.eval_every_steps, truth("eval_steps"));
  EXPECT_EQ(original("eval_passes"), truth("eval_passes")) << row("eval_passes").dump();
  EXPECT_EQ(original("eval_steps"), total("val_steps_per_pass")) << row("eval_steps").dump();
}

TEST_F(HeldOutHfText, ReplayOfTheInMemoryJob) {
  // The replay reads the 3 files once at its start (the load), then runs the epochs and
  // evaluations from memory: compare finds the same passes and steps in its trace.
  for (const char* name : {"bytes_read", "files_read", "read_ops", "request_size", "epochs",
                           "steps", "readers", "eval_passes", "eval_steps", "eval_files",
                           "data_wait", "checkpoints"})
    EXPECT_EQ(verdict(name), "PASS") << row(name).dump();
  // The dataset once: its bytes as distil's fixed sample size rounds them.
  EXPECT_NEAR(replay("bytes_read"), truth("file_bytes"), 0.005 * truth("file_bytes"))
      << row("bytes_read").dump();
}

TEST_F(HeldOutHfText, CheckpointDirectoryEveryTwelveSteps) {
  // A directory of 10 files (25,404,495 B) every 12 steps, then a final 5-file save: every_steps
  // 12 (it was 10: "after steps 14,24,30", the evaluation's receipts counted as training batches
  // and the final save as a checkpoint), 10 files (5: the JSON and tokenizer files left out),
  // final_size the final save's. The size is the directories' median: trainer_state.json grows
  // between saves (224 B), so within 0.1 % of the first.
  EXPECT_EQ(job_.checkpoint.every_steps, truth("save_steps"));
  EXPECT_EQ(job_.checkpoint.files, truth("checkpoint_dir_files"));
  EXPECT_NEAR(job_.checkpoint.size_bytes, truth("checkpoint_size_bytes"),
              0.001 * truth("checkpoint_size_bytes"));
  EXPECT_EQ(job_.checkpoint.final_size_bytes, truth("final_model_bytes"));
  EXPECT_EQ(replay("checkpoints"), truth("checkpoints")) << row("checkpoints").dump();
}

TEST_F(HeldOutHfText, ComputePerStep) {
  // Truth: the loop body's wall time, ~0.12-1.6 s a step on this CPU (load-dependent): 203 and
  // 209 ms in two fresh runs on the loaded 2-core VM; distil 203 and 208 ms (-0.5%). It was ~60 %
  // of it, batch_overhead the rest: the CPU forward and backward's page faults and munmaps had cut
  // its compute gap (branch consumer).
  expect_compute_near_truth();
}

TEST_F(HeldOutHfText, EvaluationStepsReplayed) {
  // The test loop takes its batches with no cost of its own (the training loop: ~80 ms a batch):
  // compute.eval_batch_overhead apart from batch_overhead, and eval_time from the evaluation
  // steps (an out-of-order batch's step split from the one computed before it). eval_step_time
  // 0.080 vs 0.080 s (0.091 vs 0.092 in another run); before, the replay spent the training batch_overhead on each evaluation
  // step (0.14-0.19 s vs 0.10 s).
  ASSERT_TRUE(job_.compute.eval_batch_overhead.has_value());
  EXPECT_LT(job_.compute.overhead(true).expected(), 0.25 * job_.compute.batch_overhead.expected());
  ASSERT_TRUE(job_.compute.eval_time.has_value());
  EXPECT_EQ(verdict("eval_step_time"), "PASS") << row("eval_step_time").dump();
}

TEST_F(HeldOutHfText, DISABLED_ReplayPasses) {
  // Fails epoch_time and duration (1.92 vs 2.58 s; 2.25 vs 2.73), au (0.65 vs 0.54) and
  // throughput: the original's first epoch took 2.8 s against the replay's 1.8 s (branch evalstart, with
  // eval_time, eval_batch_overhead and eval_startup distilled; eval_step_time passes).
  EXPECT_EQ(failed_rows(compared_), "");
}

// ---- torchvision detection reference: COCO JSON, grouped batches, two files an epoch -----------

class HeldOutCocoDetect : public HeldOutGpu2<HeldOutCocoDetect> {
 protected:
  static void SetUpTestSuite() {
    make_dir("heldout-coco");
    loop("coco_detect.py", root() + "/data --device cpu --arch tiny -b 4 -j 2 --epochs 3 "
                                    "--min-size 96 --max-size 160 --output-dir " +
                               root() + "/out");
  }
};

TEST_F(HeldOutCocoDetect, ProgramDidWhatItsReadmeSays) {
  EXPECT_EQ(truth("train_images_on_disk"), 48);
  EXPECT_EQ(truth("train_files"), 45);      // every 16th has no annotation
  EXPECT_EQ(total("steps_per_epoch"), 33);  // floor(45 / 4) x 3
  EXPECT_EQ(truth("checkpoints"), 6);       // model_E.pth and checkpoint.pth after each epoch
}

TEST_F(HeldOutCocoDetect, FilesWorkersSteps) {
  // The annotated images only (45 of 48), 2 workers, 33 batch hand-overs.
  EXPECT_EQ(job_.dataset.num_files, truth("train_files"));
  EXPECT_EQ(job_.reader.workers, truth("workers"));
  EXPECT_EQ(original("steps"), total("steps_per_epoch")) << row("steps").dump();
  EXPECT_EQ(original("files_read"), truth("files")) << row("files_read").dump();
}

TEST_F(HeldOutCocoDetect, EvaluationEveryEpochAtBatchOne) {
  // 3 passes of 12 steps over val2017, at eval_batch_size 1 (the training batch is 4).
  ASSERT_TRUE(job_.validation.has_value());
  EXPECT_EQ(job_.validation->num_files, truth("val_files"));
  EXPECT_EQ(eval_batch(), truth("eval_batch_size"));
  EXPECT_EQ(original("eval_passes"), truth("eval_passes")) << row("eval_passes").dump();
  EXPECT_EQ(original("eval_steps"), total("val_steps_per_pass")) << row("eval_steps").dump();
  for (const char* name : {"eval_passes", "eval_steps"})
    EXPECT_EQ(verdict(name), "PASS") << row(name).dump();
}

TEST_F(HeldOutCocoDetect, TwoCheckpointFilesAfterEachEpoch) {
  // One save of 2 files (model_E.pth, checkpoint.pth, ~1.36 MB each) after each of the 3 epochs.
  EXPECT_EQ(original("checkpoints"), truth("epochs")) << row("checkpoints").dump();
  EXPECT_EQ(job_.checkpoint.files, truth("checkpoints_per_epoch"));
  EXPECT_NEAR(job_.checkpoint.size_bytes, truth("checkpoints_per_epoch") * truth("checkpoint_size_bytes"),
              0.001 * truth("checkpoint_size_bytes"));
  EXPECT_EQ(job_.checkpoint.write_call, dlgen::WriteCall::writev) << "torch.save";
  EXPECT_EQ(verdict("checkpoints"), "PASS") << row("checkpoints").dump();
}

TEST_F(HeldOutCocoDetect, GroupedBatchesAndEpochs) {
  // Batches of 4 images of one aspect-ratio group, 11 an epoch, 3 epochs; the last batches of an
  // epoch repeat images of their group, which no longer split the epoch (each epoch's fresh
  // workers are its pass), and the evaluation's 36 batches of 1 no longer outnumber training's
  // 33 of 4 (distil said batch 1, 6 epochs, max_steps 42, evaluation and checkpoints every 2; the
  // replay ran 252 steps for 33).
  EXPECT_EQ(job_.reader.batch_size, truth("batch_size"));
  EXPECT_EQ(job_.run.epochs, truth("epochs"));
  EXPECT_EQ(job_.run.eval_every_epochs, truth("eval_every_epochs"));
  EXPECT_EQ(job_.checkpoint.every_epochs, truth("checkpoint_every_epochs"));
  EXPECT_EQ(replay("steps"), total("steps_per_epoch")) << row("steps").dump();
}

TEST_F(HeldOutCocoDetect, DISABLED_ComputePerStep) {
  // Truth: the loop body (to device, forward, loss.item(), backward, step) ~16-70 ms median
  // (16.3 ms on a loaded 2-core VM; 17.6 and 18.6 ms in two fresh runs). Distil was 9.0 ms, the
  // rest in batch_overhead; since branch consumer its median is right (18.9 ms both runs, +7% and
  // +2%), but this test's figure is the job's mean (a 20-quantile histogram of a right-skewed
  // compute): 20.7 ms (+14%) in one run of two. batch_overhead is still 8.7-9.9 ms a batch, not
  // looked into.
  expect_compute_near_truth();
}

TEST_F(HeldOutCocoDetect, DISABLED_ReplayPasses) { EXPECT_EQ(failed_rows(compared_), ""); }

// ---- WebDataset-style: tar shards streamed, split over workers, per-worker batches -------------

class HeldOutWdsShards : public HeldOutGpu2<HeldOutWdsShards> {
 protected:
  static void SetUpTestSuite() {
    make_dir("heldout-wds");
    loop("wds_shards.py", root() + "/data --device cpu --arch tiny -b 16 -j 2 --epochs 3 "
                                   "--image-size 48 --shuffle-buffer 20 --grad-ckpt --out " +
                              root() + "/out");
  }
};

TEST_F(HeldOutWdsShards, ProgramDidWhatItsReadmeSays) {
  EXPECT_EQ(truth("train_files"), 4);
  EXPECT_EQ(total("steps_per_epoch"), 18);  // 2 workers x 3 batches of 16 x 3 epochs
  EXPECT_EQ(truth("checkpoints"), 4);       // 3 epochs + the float16 weights
}

TEST_F(HeldOutWdsShards, ShardsWorkersEpochs) {
  EXPECT_EQ(job_.dataset.num_files, truth("train_files"));
  EXPECT_EQ(job_.reader.workers, truth("workers"));
  EXPECT_EQ(job_.run.epochs, truth("epochs"));
  for (const char* name : {"files_read", "epoch_bytes_read", "epochs", "readers"})
    EXPECT_EQ(verdict(name), "PASS") << row(name).dump();
}

TEST_F(HeldOutWdsShards, EvaluationEveryEpoch) {
  ASSERT_TRUE(job_.validation.has_value());
  EXPECT_EQ(job_.validation->num_files, truth("val_files"));
  EXPECT_EQ(job_.run.eval_every_epochs, truth("eval_every_epochs"));
  EXPECT_EQ(original("eval_passes"), truth("eval_passes")) << row("eval_passes").dump();
  EXPECT_EQ(original("eval_steps"), total("val_steps_per_pass")) << row("eval_steps").dump();
}

TEST_F(HeldOutWdsShards, CheckpointEveryEpoch) {
  EXPECT_EQ(job_.checkpoint.every_epochs, truth("checkpoint_every_epochs"));
  EXPECT_EQ(job_.checkpoint.size_bytes, truth("checkpoint_size_bytes"));
  EXPECT_EQ(job_.checkpoint.write_call, dlgen::WriteCall::writev) << "torch.save";
}

TEST_F(HeldOutWdsShards, StreamedShardsPerWorkerBatches) {
  // Each worker streams its 2 shards front to back (tarfile "r|"), 48 samples in batches of 16: 6
  // steps an epoch, 18 in all. Its shuffle buffer hands 2 of its 3 batches over after it closed
  // its last shard (distil said read = "file", 2 shards a batch, 6 steps, before those counted).
  EXPECT_EQ(job_.reader.read_unit, dlgen::ReadUnit::stream);
  EXPECT_EQ(original("steps"), total("steps_per_epoch")) << row("steps").dump();
}

TEST_F(HeldOutWdsShards, StreamBatchSize) {
  // Truth: batches of 16 samples. The shards' buffered reads show no sample boundaries; each
  // batch's /dev/shm tensors do (its labels, one int64 a sample). Distil had said batch_size 1
  // ("each of the 21 handovers is a batch, counted as one sample").
  EXPECT_EQ(job_.reader.batch_size, truth("batch_size"));
}

TEST_F(HeldOutWdsShards, FinalWeightsAreASave) {
  // 4 saves: checkpoint.pt (716,665 B) after each epoch, model_final.pt (193,273 B) at the end,
  // its own (distil had said 3, the last 909,938 B); the replay writes it as checkpoint.final_size.
  EXPECT_EQ(original("checkpoints"), truth("checkpoints")) << row("checkpoints").dump();
  EXPECT_EQ(job_.checkpoint.final_size_bytes, truth("final_model_bytes"));
  EXPECT_EQ(replay("checkpoints"), truth("checkpoints")) << row("checkpoints").dump();
}

TEST_F(HeldOutWdsShards, ComputePerStep) {
  // Truth: ~10 ms median a step on this CPU (9.4 ms on a loaded 2-core VM; 10.9 and 10.8 ms in
  // two fresh runs). Distil: 11.1 and 11.0 ms (+2%); it was 5.9 ms, faults cutting its compute gap
  // (before that normal(mean 0.14 ms, stdev 8.7 ms) over 6 steps for 18).
  expect_compute_near_truth();
}

// Failed rows measured on branch streamsamples: request_size_emd (6.7 vs 7.7 KiB), checkpoint_size
// (the final weights merged into a save: DISABLED_FinalWeightsAreASave) and the timing rows
// epoch_time, duration, throughput. Steps pass since a shard's samples are counted (they were 18
// vs 24: the job streamed 2 batches a shard, samples_per_file counting whole batches, for a
// worker's 3 over its 2 shards).
TEST_F(HeldOutWdsShards, DISABLED_ReplayPasses) { EXPECT_EQ(failed_rows(compared_), ""); }

}  // namespace
