// Held-out training programs end to end (tests/pytorch/heldout/README.md): six common PyTorch
// data-loading patterns that no other test was written against (a nanoGPT token stream, CIFAR's
// pickled batches, images in one zip, one HDF5 file of images + labels, gradient accumulation with
// resume, a weighted sampler over two folders). Each suite makes its program's dataset, captures
// the program, distils it, generates and replays the job under capture and compares, as a user
// would. One enabled test a suite (ctest runs each test in its own process, so each enabled test
// repeats its suite's loop) holds what dlgen gets right today (against the program's own ground
// truth, its last stdout line), so a change that breaks it fails; each DISABLED_ test asserts a
// piece of ground truth dlgen gets wrong today, named after the shape, for the distil work to
// enable. Needs root (BPF): a suite skips when capture says 77.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include "dlgen/core/json.hpp"
#include <optional>
#include <sstream>
#include <string>

#include "heldout_program.hpp"

namespace {

using dlgen::testing::failed_rows;

const std::string kPrograms = std::string(DLGEN_SOURCE_DIR) + "/tests/pytorch/heldout/";

// One held-out program's loop (tests/support/heldout_program.hpp), its programs in this folder.
template <class Suite>
class HeldOut : public dlgen::testing::HeldOutProgram<Suite> {
 protected:
  static void loop(const std::string& program, const std::string& make_args,
                   const std::string& train_args, const std::string& run_args = "") {
    dlgen::testing::HeldOutProgram<Suite>::loop(kPrograms, program, make_args, train_args,
                                                run_args);
  }
};

// ---- nanoGPT: np.memmap of train.bin/val.bin, random windows in the main process, eval and
// checkpoint every 40 iterations ---------------------------------------------------------------

class HeldOutNanoGpt : public HeldOut<HeldOutNanoGpt> {
 protected:
  static void SetUpTestSuite() {
    make_dir("heldout-nanogpt");
    loop("nanogpt.py", "", "--data " + root() + "/data --out " + root() + "/out");
  }
};

TEST_F(HeldOutNanoGpt, MainProcessReadsTheMappedFileAndCheckpoints) {
  EXPECT_EQ(truth("train_steps"), 120);  // the program did what its README says
  EXPECT_EQ(job_.reader.workers, 0u) << "no DataLoader workers: the training process reads";
  EXPECT_EQ(job_.reader.read_unit, dlgen::ReadUnit::sample) << "ranges of a mapped file";
  // Every batch's windows, read again through each fresh mapping (the run's bytes:
  // DISABLED_NanoGptBytesWithTheFirstEvaluation).
  EXPECT_EQ(verdict("epoch_bytes_read"), "PASS") << row("epoch_bytes_read").dump();
  EXPECT_EQ(verdict("eval_epoch_bytes_read"), "PASS") << row("eval_epoch_bytes_read").dump();
  EXPECT_EQ(verdict("readers"), "PASS") << row("readers").dump();
  // The checkpoint as torch.save wrote it (its cadence is DISABLED_NanoGptCheckpointEveryNSteps).
  EXPECT_EQ(job_.checkpoint.size_bytes, truth("checkpoint_bytes"));
  EXPECT_EQ(job_.checkpoint.write_call, dlgen::WriteCall::writev);
  EXPECT_FALSE(job_.checkpoint.fsync);
  EXPECT_EQ(original("checkpoints"), truth("checkpoints"));
  EXPECT_EQ(verdict("checkpoint_size"), "PASS") << row("checkpoint_size").dump();
}

TEST_F(HeldOutNanoGpt, NanoGptTrainingSteps) {
  // 120 iterations, each one get_batch() burst of 12 windows then a step (before: no steps).
  EXPECT_EQ(original("steps"), truth("train_steps")) << row("steps").dump();
  EXPECT_EQ(verdict("steps"), "PASS") << row("steps").dump();
}

TEST_F(HeldOutNanoGpt, NanoGptBatchOfWindows) {
  // A batch is 12 windows of 257 tokens (514 bytes each for x, overlapping y); before: 139.
  EXPECT_EQ(job_.reader.batch_size, truth("batch_size"));
}

TEST_F(HeldOutNanoGpt, DISABLED_NanoGptBytesWithTheFirstEvaluation) {
  // The evaluation at iteration 0 comes before any training step; the job evaluates after each of
  // its 3 epochs (eval_every_epochs), so the replay reads one evaluation's bytes less (129 vs
  // 142 MB) and takes 48 evaluation steps of 64.
  EXPECT_EQ(verdict("bytes_read"), "PASS") << row("bytes_read").dump();
  EXPECT_EQ(replay("eval_passes"), truth("evals")) << row("eval_passes").dump();
}

TEST_F(HeldOutNanoGpt, NanoGptStepsPerEval) {
  // estimate_loss() every 40 iterations (0, 40, 80, 120): 4 passes of 8 train + 8 val batches.
  EXPECT_EQ(original("eval_passes"), truth("evals")) << row("eval_passes").dump();
  EXPECT_TRUE(job_.validation.has_value()) << "val.bin is the evaluation set, not training data";
}
// Not yet reliable: compare counts the steps of the original's step list, and on a loaded host
// (CI, a fresh clone) one evaluation burst of 64 had no step there (63) while its pass still
// counted 16 steps: two bursts read too close together for their gap to split them.
TEST_F(HeldOutNanoGpt, DISABLED_NanoGptEvalStepsExact) {
  EXPECT_EQ(original("eval_steps"), truth("evals") * truth("eval_batches_per_eval"))
      << row("eval_steps").dump();
}

TEST_F(HeldOutNanoGpt, DISABLED_NanoGptCheckpointEveryNSteps) {
  // torch.save every 40 iterations after the first: 3 checkpoints; today: every epoch (1).
  EXPECT_EQ(job_.checkpoint.every_steps, truth("checkpoint_every_steps"));
  EXPECT_EQ(replay("checkpoints"), truth("checkpoints")) << row("checkpoints").dump();
}

TEST_F(HeldOutNanoGpt, DISABLED_NanoGptComputePerStep) {
  // 20 ms of "accelerator" a step; today: 0.06 s, the gap between loading bursts, which also holds
  // the forward and backward passes and the optimizer step on the CPU (a loaded 2-core host).
  EXPECT_NEAR(job_.compute.effective().expected(), truth("compute_s"), 0.2 * truth("compute_s"));
}

TEST_F(HeldOutNanoGpt, DISABLED_NanoGptReplayPasses) {
  EXPECT_EQ(failed_rows(compared_), "");
}

// ---- CIFAR-10 pickles: every batch file pickle.load()ed at start, training from memory --------

class HeldOutCifarPickle : public HeldOut<HeldOutCifarPickle> {
 protected:
  static void SetUpTestSuite() {
    make_dir("heldout-cifar");
    loop("cifar_pickle.py", "", "--data " + root() + "/data --checkpoint-dir " + root() + "/ckpt");
  }
};

TEST_F(HeldOutCifarPickle, EveryBatchFileReadOnceAndCheckpoints) {
  // 5 data_batch files and test_batch (a validation set by its name), read whole at start and
  // loaded into memory at the replay's start too.
  EXPECT_EQ(job_.dataset.num_files, 5u);
  ASSERT_TRUE(job_.validation.has_value());
  EXPECT_EQ(job_.validation->num_files, 1u);
  EXPECT_EQ(job_.dataset.load, dlgen::Load::memory);
  double bytes = 0;
  for (const auto& [name, b] : truth_["file_bytes"].items()) bytes += b.get<double>();
  const auto set_bytes = [](const dlgen::DatasetSpec& d) {
    return d.sample_size.expected() * d.samples_per_file * static_cast<double>(d.num_files);
  };
  EXPECT_NEAR(set_bytes(job_.dataset) + set_bytes(*job_.validation), bytes, 0.01 * bytes);
  for (const char* name : {"bytes_read", "files_read"})
    EXPECT_EQ(verdict(name), "PASS") << row(name).dump();
  EXPECT_EQ(original("files_read"), 6);
  // The checkpoint as torch.save wrote it, one an epoch.
  EXPECT_EQ(job_.checkpoint.size_bytes, truth("checkpoint_bytes"));
  EXPECT_EQ(job_.checkpoint.write_call, dlgen::WriteCall::writev);
  EXPECT_EQ(original("checkpoints"), truth("checkpoints"));
  EXPECT_EQ(verdict("checkpoint_size"), "PASS") << row("checkpoint_size").dump();
}

TEST_F(HeldOutCifarPickle, CifarEpochsFromMemory) {
  // 3 epochs over arrays in memory after the up-front load (dataset.load = "memory").
  EXPECT_EQ(original("epochs"), truth("epochs")) << row("epochs").dump();
  EXPECT_EQ(job_.run.epochs, truth("epochs"));
}

TEST_F(HeldOutCifarPickle, CifarStepsFromMemory) {
  // 79 steps an epoch handed over by 2 workers that read no file, batch 64 (the labels tensor).
  EXPECT_EQ(original("steps"), total("steps_per_epoch")) << row("steps").dump();
  EXPECT_EQ(job_.reader.workers, truth("workers"));
  EXPECT_EQ(job_.reader.batch_size, truth("batch_size"));
  EXPECT_EQ(verdict("steps"), "PASS") << row("steps").dump();
}

TEST_F(HeldOutCifarPickle, CifarEvalPasses) {
  // A test pass after every epoch (8 steps of 128).
  EXPECT_EQ(original("eval_passes"), truth("epochs")) << row("eval_passes").dump();
  EXPECT_EQ(original("eval_steps"), total("eval_steps_per_pass")) << row("eval_steps").dump();
}

TEST_F(HeldOutCifarPickle, CifarCheckpointsPerEpoch) {
  // One torch.save per epoch: 3.
  EXPECT_EQ(replay("checkpoints"), truth("checkpoints")) << row("checkpoints").dump();
}

TEST_F(HeldOutCifarPickle, CifarLoadReadsAndStepsReplayed) {
  // The load reads each file as pickle did (reader.recipe: 5 reads a file, read_ops 30 vs 30,
  // 4 KiB median request), and the replay's trace shows compute and the consumer's cost apart
  // (compute 11.2 vs 11.2 ms, consumer 2.4 vs 2.4 ms). Before: 2 reads a file (12 vs 30), and
  // compute + batch_overhead as one gap (compute 14.5 vs 11.6 ms, consumer 0 vs 3.1 ms).
  for (const char* name : {"read_ops", "request_size", "request_size_emd", "bytes_read", "compute",
                           "consumer", "step_time", "eval_step_time"})
    EXPECT_EQ(verdict(name), "PASS") << row(name).dump();
}

TEST_F(HeldOutCifarPickle, CifarEvaluationLoaderStartsUpApart) {
  // The test DataLoader hands its first batch over later after a training pass (24-43 ms in two
  // runs) than the training loader after an evaluation (16-23 ms): reader.eval_startup apart from
  // reader.startup,
  // waited before each evaluation pass. Before: one start-up of 12-17 ms (the median over both,
  // to the workers' fork), and the replay's evaluation passes began at once.
  ASSERT_TRUE(job_.reader.eval_startup_s.has_value());
  EXPECT_GT(*job_.reader.eval_startup_s, job_.reader.startup_s);
  for (const char* name : {"duration", "epoch_time", "eval_step_time", "eval_steps"})
    EXPECT_EQ(verdict(name), "PASS") << row(name).dump();
}

TEST_F(HeldOutCifarPickle, DISABLED_CifarReplayPasses) {
  // Every row passed on this host in two runs with reader.eval_startup (au 0.757 vs 0.781, 0.708 vs
  // 0.730; branch evalstart), but au is load-sensitive: under load the original's first epoch ran 0.7 s longer than its
  // others (its steps, not its start-ups), and au failed (0.625 vs 0.721). Stop 33: every row
  // passed in three fresh loops at load ~4; left disabled until au's load sensitivity is understood.
  EXPECT_EQ(failed_rows(compared_), "");
}

// ---- Images in one zip: each worker opens its own ZipFile, ZipFile.read(member) a sample -------

class HeldOutZipImages : public HeldOut<HeldOutZipImages> {
 protected:
  static void SetUpTestSuite() {
    make_dir("heldout-zip");
    loop("zip_images.py", "", "--data " + root() + "/data/images.zip");
  }
};

TEST_F(HeldOutZipImages, OneFileAndItsSteps) {
  EXPECT_EQ(job_.dataset.num_files, 1u);
  EXPECT_EQ(original("steps"), total("steps_per_epoch")) << row("steps").dump();
  EXPECT_EQ(original("files_read"), 1);
  EXPECT_EQ(verdict("compute"), "PASS") << row("compute").dump();
  EXPECT_EQ(verdict("files_read"), "PASS") << row("files_read").dump();
}

TEST_F(HeldOutZipImages, ZipMembersAreSamples) {
  // 1,200 JPEG members of 2.5-11.5 KiB read at random offsets (sample shuffle); today: a stream
  // of 4 KiB requests, samples_per_file 13-15 "batches".
  EXPECT_EQ(job_.reader.read_unit, dlgen::ReadUnit::sample);
  EXPECT_EQ(job_.dataset.samples_per_file, truth("samples"));
  EXPECT_NEAR(job_.dataset.sample_size.expected(), truth("sample_bytes_mean"),
              0.1 * truth("sample_bytes_mean"));
  EXPECT_EQ(job_.reader.shuffle, dlgen::Shuffle::sample);
}

TEST_F(HeldOutZipImages, ZipBatchAndWorkers) {
  // batch 32, 2 workers; today: batch 1, 1 worker.
  EXPECT_EQ(job_.reader.batch_size, truth("batch_size"));
  EXPECT_EQ(job_.reader.workers, truth("workers"));
}

TEST_F(HeldOutZipImages, ZipEpochs) {
  // 2 epochs; today: 5-6 (each worker's open of the zip starts a "pass").
  EXPECT_EQ(original("epochs"), truth("epochs")) << row("epochs").dump();
  EXPECT_EQ(job_.run.epochs, truth("epochs"));
}

TEST_F(HeldOutZipImages, ZipReplayReadsTheMembers) {
  // compare's summary of the replay trace splits the generated archive (an .npz: a zip) into its
  // members: each worker's reads are not a pass of their own. Before (branch zipreplay): readers
  // 1 vs 2, epochs 4 vs 2, opens 4 vs 2,400.
  for (const char* name : {"readers", "epochs", "steps", "opens", "files_read"})
    EXPECT_EQ(verdict(name), "PASS") << row(name).dump();
}

TEST_F(HeldOutZipImages, ZipReplayPasses) {
  // Every row in two fresh loops (branch zipreplay): zipfile reads a member through Python's
  // 4 KiB buffer (5,224 reads, 21.40 MB), the replay in whole 4 KiB fills from its header (5,192,
  // 21.27 MB); before, one read a member (2,400, 16.67 MB: bytes_read, read_ops, request_size,
  // epoch_bytes_read failed).
  EXPECT_EQ(failed_rows(compared_), "");
}

// ---- One HDF5 file, two datasets a sample (images[i], labels[i]), h5py in 2 workers ------------

// The job's epochs are far off today (thousands: H5PairsEpochs), so the replay runs the
// program's 2 epochs to keep the test short and judge the rest.
class HeldOutH5Pairs : public HeldOut<HeldOutH5Pairs> {
 protected:
  static void SetUpTestSuite() {
    make_dir("heldout-h5");
    loop("h5_pairs.py", "", "--data " + root() + "/data/train.h5", "--set run.epochs=2");
  }
};

TEST_F(HeldOutH5Pairs, OneFileReadASampleAtATime) {
  EXPECT_EQ(job_.dataset.format, dlgen::Format::hdf5);
  EXPECT_EQ(job_.dataset.num_files, 1u);
  EXPECT_EQ(job_.reader.read_unit, dlgen::ReadUnit::sample);
  EXPECT_EQ(job_.dataset.sample_size.expected(), truth("image_bytes"));
  EXPECT_EQ(job_.reader.shuffle, dlgen::Shuffle::sample);
  EXPECT_EQ(verdict("compute"), "PASS") << row("compute").dump();
}

TEST_F(HeldOutH5Pairs, H5PairsEpochs) {
  // 2 epochs; today: thousands (a "pass" ends whenever a sample repeats).
  EXPECT_EQ(job_.run.epochs, truth("epochs"));
  EXPECT_EQ(original("epochs"), truth("epochs")) << row("epochs").dump();
}

TEST_F(HeldOutH5Pairs, H5PairsSamplesBatchWorkers) {
  // 2,000 samples, batch 32, 2 workers; today: 2,001 slots, batch 55, 1 worker.
  EXPECT_EQ(job_.dataset.samples_per_file, truth("samples"));
  EXPECT_EQ(job_.reader.batch_size, truth("batch_size"));
  EXPECT_EQ(job_.reader.workers, truth("workers"));
  EXPECT_EQ(original("steps"), total("steps_per_epoch")) << row("steps").dump();
}

TEST_F(HeldOutH5Pairs, DISABLED_H5PairsTwoDatasetsPerSample) {
  // Each sample reads a 12 KiB image row and an 8-byte label (through HDF5's sieve buffer): two
  // reads a sample; the replay makes one 64 KiB read.
  for (const char* name : {"bytes_read", "read_ops", "request_size", "request_size_emd"})
    EXPECT_EQ(verdict(name), "PASS") << row(name).dump();
}

TEST_F(HeldOutH5Pairs, DISABLED_H5PairsReplayPasses) {
  EXPECT_EQ(failed_rows(compared_), "");
}

// ---- Gradient accumulation, checkpoint every 5 optimizer steps, resume with torch.load ---------

class HeldOutGradAccum : public HeldOut<HeldOutGradAccum> {
 protected:
  static void SetUpTestSuite() {
    make_dir("heldout-ga");
    loop("grad_accum.py", "",
         "--data " + root() + "/data/data --ckpt " + root() + "/data/ckpt/last.pt");
  }
};

TEST_F(HeldOutGradAccum, DataLoaderShapeAndResume) {
  EXPECT_EQ(job_.dataset.num_files, truth("files"));
  EXPECT_EQ(job_.reader.batch_size, truth("batch_size"));
  EXPECT_EQ(job_.reader.workers, truth("workers"));
  EXPECT_EQ(job_.run.epochs, truth("epochs"));
  EXPECT_TRUE(job_.checkpoint.restore) << "torch.load of the checkpoint before training";
  EXPECT_EQ(job_.checkpoint.size_bytes, truth("checkpoint_bytes"));
  EXPECT_EQ(job_.checkpoint.write_call, dlgen::WriteCall::writev);
  EXPECT_FALSE(job_.checkpoint.fsync);
  EXPECT_EQ(original("checkpoints"), truth("checkpoints"));
  for (const char* name : {"bytes_read", "files_read", "read_ops", "epoch_bytes_read", "readers",
                           "epochs", "compute", "checkpoint_size"})
    EXPECT_EQ(verdict(name), "PASS") << row(name).dump();
}

TEST_F(HeldOutGradAccum, GradAccumCheckpointEveryNMicroBatches) {
  // torch.save every 5 optimizer steps = every 20 DataLoader batches: 6 (it was every 16 steps:
  // the optimizer's micro-steps, longer gaps, went uncounted; and compare counted 8 in the
  // replay, 7 and the one written for the restore).
  EXPECT_EQ(job_.checkpoint.every_steps, truth("checkpoint_every_micro_batches"));
  EXPECT_EQ(replay("checkpoints"), truth("checkpoints")) << row("checkpoints").dump();
}

TEST_F(HeldOutGradAccum, GradAccumSteps) {
  // 60 micro-batches an epoch, each a handover (116 of 120 had been found).
  EXPECT_EQ(original("steps"), total("micro_batches_per_epoch")) << row("steps").dump();
}

TEST_F(HeldOutGradAccum, GradAccumRestoreWithoutFsync) {
  // The program never fsyncs; the checkpoint the replay writes (and syncs) for its restore to
  // read is the restore's staging, no checkpoint of the run.
  EXPECT_EQ(verdict("checkpoint_fsync"), "PASS") << row("checkpoint_fsync").dump();
}

// Every row passes since the checkpoint the replay's restore reads is written before the capture
// starts (bytes_written was 55.1 MB vs 64.3 MB: that setup write, 8.7 MB, was in the trace).
TEST_F(HeldOutGradAccum, GradAccumReplayPasses) {
  EXPECT_EQ(failed_rows(compared_), "");
}

// ---- ConcatDataset of two folders, WeightedRandomSampler with replacement ----------------------

class HeldOutWeightedConcat : public HeldOut<HeldOutWeightedConcat> {
 protected:
  static void SetUpTestSuite() {
    make_dir("heldout-wc");
    loop("weighted_concat.py", "", "--data " + root() + "/data");
  }
};

TEST_F(HeldOutWeightedConcat, BatchWorkersAndSteps) {
  EXPECT_EQ(job_.reader.batch_size, truth("batch_size"));
  EXPECT_EQ(job_.reader.workers, truth("workers"));
  EXPECT_EQ(original("steps"), total("steps_per_epoch")) << row("steps").dump();
  for (const char* name : {"compute", "step_time", "sequential_fraction"})
    EXPECT_EQ(verdict(name), "PASS") << row(name).dump();
}

TEST_F(HeldOutWeightedConcat, WeightedSamplerEpochs) {
  // 2 epochs of 600 draws with replacement; today: tens of "epochs" (a pass ends when a file
  // repeats), 2 steps each.
  EXPECT_EQ(job_.run.epochs, truth("epochs"));
  EXPECT_EQ(job_.run.max_steps, 0u);
  EXPECT_EQ(original("epochs"), truth("epochs")) << row("epochs").dump();
}

TEST_F(HeldOutWeightedConcat, WeightedSamplerAllFiles) {
  // 600 files in two folders (480 of ~8 KiB, 120 of ~125 KiB), ~460 drawn: the folders'
  // listings say 600.
  EXPECT_EQ(job_.dataset.num_files, truth("files"));
}

TEST_F(HeldOutWeightedConcat, DISABLED_WeightedSamplerBytesBySize) {
  // Half the draws hit the 120 large files: bytes and request sizes follow the weights.
  for (const char* name : {"bytes_read", "request_size", "request_size_emd", "epoch_bytes_read"})
    EXPECT_EQ(verdict(name), "PASS") << row(name).dump();
}

TEST_F(HeldOutWeightedConcat, DISABLED_WeightedSamplerReplayPasses) {
  EXPECT_EQ(failed_rows(compared_), "");
}

}  // namespace
