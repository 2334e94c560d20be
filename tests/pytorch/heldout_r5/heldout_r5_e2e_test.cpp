// Held-out training programs, round 5 (tests/pytorch/heldout_r5/README.md): four common PyTorch
// data-loading patterns no other test was written against (fixed-size records read with os.pread
// from one packed file, with early stopping and an atomic best-model checkpoint; k-fold
// cross-validation over a folder of .pt files through SubsetRandomSampler and Subset; two
// DataLoaders of two datasets interleaved step by step; a token-budget batch sampler whose batch
// size varies from step to step). Each suite makes its program's dataset, captures the program,
// distils it, generates and replays the job under capture and compares, as a user would (the
// loop is tests/support/heldout_program.hpp, cached in the build tree). The enabled tests hold
// what dlgen gets right today against the program's own ground truth (its last stdout line);
// each DISABLED_ test asserts a piece of ground truth dlgen gets wrong today, named after the
// shape. Needs root (BPF): a suite skips when capture says 77.
#include <gtest/gtest.h>

#include <string>

#include "heldout_program.hpp"

namespace {

using dlgen::testing::failed_rows;

const std::string kPrograms = std::string(DLGEN_SOURCE_DIR) + "/tests/pytorch/heldout_r5/";

template <class Suite>
class HeldOutR5 : public dlgen::testing::HeldOutProgram<Suite> {
 protected:
  static void loop(const std::string& program, const std::string& train_args) {
    dlgen::testing::HeldOutProgram<Suite>::loop(kPrograms, program, "", train_args);
  }
};

// ---- Fixed-size records in one packed file, os.pread at random offsets; early stopping --------

class HeldOutPreadRecords : public HeldOutR5<HeldOutPreadRecords> {
 protected:
  static void SetUpTestSuite() {
    make_dir("heldout-pread");
    loop("pread_records.py", "--data " + root() + "/data --out " + root() + "/out");
  }
};

TEST_F(HeldOutPreadRecords, RecordsOfOneFile) {
  EXPECT_EQ(truth("records"), 2000);  // the program did what its README says
  EXPECT_EQ(job_.dataset.num_files, truth("files")) << "train.bin";
  EXPECT_EQ(job_.reader.read_unit, dlgen::ReadUnit::sample) << "a record at a time";
  EXPECT_EQ(job_.dataset.samples_per_file, truth("records"));
  EXPECT_EQ(job_.dataset.sample_size.expected(), truth("record_bytes"));
  EXPECT_EQ(job_.reader.shuffle, dlgen::Shuffle::sample);
  EXPECT_EQ(job_.reader.batch_size, truth("batch_size"));
  EXPECT_EQ(job_.reader.workers, truth("workers"));
  EXPECT_FALSE(job_.reader.drop_last);
  // Early stopping: the epochs the program ran, not its --max-epochs.
  EXPECT_EQ(job_.run.epochs, truth("epochs"));
  EXPECT_EQ(original("steps"), total("steps_per_epoch")) << row("steps").dump();
  for (const char* name : {"bytes_read", "epoch_bytes_read", "steps", "epochs", "readers"})
    EXPECT_EQ(verdict(name), "PASS") << row(name).dump();
}

TEST_F(HeldOutPreadRecords, BestModelCheckpoints) {
  // torch.save to best.pt.tmp, os.replace over best.pt, only when the validation loss improved.
  EXPECT_EQ(original("checkpoints"), truth("checkpoints")) << row("checkpoints").dump();
  EXPECT_EQ(job_.checkpoint.size_bytes, truth("checkpoint_bytes"));
  EXPECT_EQ(job_.checkpoint.write_call, dlgen::WriteCall::writev) << "torch.save";
}

TEST_F(HeldOutPreadRecords, ValidationFileEveryEpoch) {
  ASSERT_TRUE(job_.validation.has_value()) << "val.bin";
  EXPECT_EQ(job_.validation->num_files, truth("val_files"));
  EXPECT_EQ(job_.run.eval_every_epochs, truth("eval_every_epochs"));
  EXPECT_EQ(original("eval_steps"), total("eval_steps_per_pass")) << row("eval_steps").dump();
}

TEST_F(HeldOutPreadRecords, EarlyStopCheckpointsOnImprovement) {
  // 5 checkpoints, after epochs 0,1,2,3,5 of 8 (the validation loss improved): the job lists
  // them (checkpoint.after_epochs, 1-based); with every_epochs = 1 the replay wrote 8 (bytes_written
  // 14.1 vs 8.8 MiB).
  EXPECT_EQ(static_cast<double>(job_.checkpoint.after_epochs.size()), truth("checkpoints"));
  EXPECT_EQ(job_.checkpoint.every_epochs, 0u);
  EXPECT_EQ(replay("checkpoints"), truth("checkpoints")) << row("checkpoints").dump();
  EXPECT_EQ(verdict("bytes_written"), "PASS") << row("bytes_written").dump();
}

TEST_F(HeldOutPreadRecords, DISABLED_PackedValidationRecords) {
  // val.bin holds 400 records of 4,802 B, read by pread in batches of 200, one pass an epoch;
  // today: 1 sample of 1.8 MiB a file, evaluation batch 1, and 17 passes (each batch of 200
  // records, and the main process's header read, taken for a pass).
  ASSERT_TRUE(job_.validation.has_value());
  EXPECT_EQ(job_.validation->samples_per_file, truth("val_records"));
  EXPECT_EQ(job_.reader.eval_batch_size, truth("eval_batch_size"));
  EXPECT_EQ(original("eval_passes"), truth("evals")) << row("eval_passes").dump();
  for (const char* name : {"eval_passes", "eval_steps", "eval_epoch_bytes_read"})
    EXPECT_EQ(verdict(name), "PASS") << row(name).dump();
}

TEST_F(HeldOutPreadRecords, DISABLED_PreadRecordsReplayPasses) {
  EXPECT_EQ(failed_rows(compared_), "");
}

// ---- K-fold cross-validation over .pt files: SubsetRandomSampler + Subset, a model a fold ------

class HeldOutPtKfold : public HeldOutR5<HeldOutPtKfold> {
 protected:
  static void SetUpTestSuite() {
    make_dir("heldout-kfold");
    loop("pt_kfold.py", "--data " + root() + "/data --out " + root() + "/out");
  }
};

TEST_F(HeldOutPtKfold, PtFilesBatchAndCheckpoints) {
  EXPECT_EQ(truth("folds"), 3);  // the program did what its README says
  EXPECT_EQ(job_.dataset.num_files, truth("files")) << "every file is read in training folds";
  EXPECT_EQ(job_.reader.batch_size, truth("batch_size"));
  EXPECT_EQ(original("checkpoints"), truth("checkpoints")) << row("checkpoints").dump();
  EXPECT_EQ(job_.checkpoint.size_bytes, truth("checkpoint_bytes"));
  EXPECT_EQ(job_.checkpoint.write_call, dlgen::WriteCall::writev) << "torch.save";
  for (const char* name : {"bytes_read", "files_read", "request_size"})
    EXPECT_EQ(verdict(name), "PASS") << row(name).dump();
}

TEST_F(HeldOutPtKfold, DISABLED_KFoldValidationPasses) {
  // Each fold validates on its own third of the folder (160 files, batch 64, 3 steps) after
  // each of its 2 epochs: 6 passes. Today no validation is found: the fold's files are merged
  // into 6 "epochs" of all 480 files, read by 4 "workers" (2 training + 2 validation), 76
  // steps (60 training + 18 validation, less 2).
  EXPECT_TRUE(job_.validation.has_value());
  EXPECT_EQ(job_.run.eval_every_epochs, truth("eval_every_epochs"));
  EXPECT_EQ(original("eval_passes"), truth("evals")) << row("eval_passes").dump();
  EXPECT_EQ(original("steps"), total("steps_per_epoch")) << row("steps").dump();
  EXPECT_EQ(job_.reader.workers, truth("workers"));
  EXPECT_EQ(verdict("steps"), "PASS") << row("steps").dump();
}

TEST_F(HeldOutPtKfold, DISABLED_KFoldCheckpointPerFold) {
  // A checkpoint at the end of each fold (every 2 epochs); today every 25 steps.
  EXPECT_EQ(job_.checkpoint.every_epochs, truth("checkpoint_every_epochs"));
  EXPECT_EQ(job_.checkpoint.every_steps, 0u);
}

TEST_F(HeldOutPtKfold, DISABLED_PtKfoldReplayPasses) {
  EXPECT_EQ(failed_rows(compared_), "");
}

// ---- Two DataLoaders of two datasets, their batches interleaved step by step ------------------

class HeldOutInterleaved : public HeldOutR5<HeldOutInterleaved> {
 protected:
  static void SetUpTestSuite() {
    make_dir("heldout-interleaved");
    loop("interleaved_loaders.py", "--data " + root() + "/data");
  }
};

TEST_F(HeldOutInterleaved, FeatureLoaderFound) {
  // Of the two loaders distil models the feature task's, exactly: 96 .npy files, batch 8, 1
  // worker, 4 passes (the loader restarted twice an epoch), its 48 steps.
  EXPECT_EQ(truth("datasets"), 2);  // the program did what its README says
  EXPECT_EQ(job_.dataset.num_files, truth("feature_files"));
  EXPECT_EQ(job_.reader.batch_size, truth("feature_batch_size"));
  EXPECT_EQ(job_.reader.workers, truth("feature_workers"));
  EXPECT_EQ(job_.run.epochs, truth("feature_passes"));
  EXPECT_EQ(original("steps"), total("feature_steps_per_epoch")) << row("steps").dump();
}

TEST_F(HeldOutInterleaved, DISABLED_TwoInterleavedLoaders) {
  // 384 PNGs (batch 16, 2 workers) and 96 .npy files (batch 8, 1 worker), 96 optimiser steps
  // in 2 epochs. Today the image task is dropped: its 7.9 MiB are "other" reads, not replayed.
  EXPECT_EQ(original("other_bytes_read"), 0) << row("other_bytes_read").dump();
  EXPECT_EQ(original("steps"), total("steps_per_epoch")) << row("steps").dump();
  EXPECT_EQ(original("readers"), truth("workers")) << row("readers").dump();
  EXPECT_EQ(verdict("other_bytes_read"), "PASS") << row("other_bytes_read").dump();
}

TEST_F(HeldOutInterleaved, DISABLED_InterleavedReplayPasses) {
  EXPECT_EQ(failed_rows(compared_), "");
}

// ---- A token-budget batch sampler: 2 to 64 documents a step ------------------------------------

class HeldOutTokenBudget : public HeldOutR5<HeldOutTokenBudget> {
 protected:
  static void SetUpTestSuite() {
    make_dir("heldout-tokens");
    loop("token_budget.py", "--data " + root() + "/data --out " + root() + "/out");
  }
};

TEST_F(HeldOutTokenBudget, DocsWorkersAndCheckpoint) {
  EXPECT_EQ(truth("files"), 1200);  // the program did what its README says
  EXPECT_LT(truth("batch_size_min"), truth("batch_size_max"));
  EXPECT_EQ(job_.dataset.num_files, truth("files"));
  EXPECT_EQ(job_.reader.workers, truth("workers"));
  EXPECT_EQ(job_.run.epochs, truth("epochs"));
  EXPECT_EQ(original("checkpoints"), truth("checkpoints")) << row("checkpoints").dump();
  EXPECT_EQ(job_.checkpoint.size_bytes, truth("checkpoint_bytes"));
  for (const char* name : {"bytes_read", "files_read", "epoch_bytes_read", "epochs", "readers"})
    EXPECT_EQ(verdict(name), "PASS") << row(name).dump();
}

TEST_F(HeldOutTokenBudget, TokenBudgetVariableBatches) {
  // 71 batches an epoch of 2-64 documents (median 11, mean 16.9): 213 steps. Distil finds the 213
  // handovers and writes batch_size as the histogram of their sizes; the replay draws each
  // epoch's batches from it: 213 steps (one size, 4, the commonest, made it run 900).
  EXPECT_TRUE(job_.reader.batches_vary());
  EXPECT_NEAR(job_.reader.batch_sizes.expected(), truth("batch_size_mean"), 0.5);
  EXPECT_EQ(original("steps"), total("steps_per_epoch")) << row("steps").dump();
  EXPECT_EQ(replay("steps"), total("steps_per_epoch")) << row("steps").dump();
  for (const char* name : {"steps", "epoch_time", "duration"})
    EXPECT_EQ(verdict(name), "PASS") << row(name).dump();
}

TEST_F(HeldOutTokenBudget, TokenBudgetReplayPasses) {  // every row, in 3 fresh loops
  EXPECT_EQ(failed_rows(compared_), "");
}

}  // namespace
