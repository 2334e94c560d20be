// Held-out training programs, round 6 (tests/pytorch/heldout_r6/README.md): four common PyTorch
// data-loading patterns no other test was written against (one HDF5 file holding a train and a
// val group of chunked datasets, read an index at a time by persistent workers with
// prefetch_factor 4; one uncompressed zip archive read member by member with zipfile, split into
// train and val by SubsetRandomSampler and an index list, a checkpoint every 12 steps; fixed-size
// records in four shard files read with os.pread through a block-shuffling batch_sampler, 3
// workers, 3 epochs; variable-length clips in .pt files read with torch.load through a
// length-bucketing batch sampler with a padding collate). Each suite makes its program's dataset,
// captures the program, distils it, generates and replays the job under capture and compares, as
// a user would (tests/support/heldout_program.hpp, cached in the build tree). The enabled tests
// hold what dlgen gets right today against the program's own ground truth (its last stdout line);
// each DISABLED_ test asserts a piece of ground truth dlgen gets wrong today, with dlgen's number
// in its comment. Needs root (BPF): a suite skips when capture says 77.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "heldout_program.hpp"

namespace {

using dlgen::testing::failed_rows;

const std::string kPrograms = std::string(DLGEN_SOURCE_DIR) + "/tests/pytorch/heldout_r6/";

template <class Suite>
class HeldOutR6 : public dlgen::testing::HeldOutProgram<Suite> {
  using Base = dlgen::testing::HeldOutProgram<Suite>;

 protected:
  // The suite's SetUpTestSuite: a temporary root named after TAG, then PROGRAM's loop.
  static void set_up(const char* tag, const std::string& program,
                     const std::string& run_args = "") {
    Base::make_dir(tag);
    const std::string root = Base::root();
    Base::loop(kPrograms, program, "", "--data " + root + "/data --ckpt " + root + "/ck", run_args);
  }
  // What the program's DataLoader workers read while loading samples (rchar of /proc/self/io
  // around each load), training and validation together.
  static double read_bytes() {
    return Base::total("train_bytes_read_per_epoch") + Base::total("val_bytes_read_per_pass");
  }
  static double first_epoch_bytes() {
    return Base::truth_["train_bytes_read_per_epoch"][0].template get<double>();
  }
  static double checkpoint_bytes() {
    return Base::truth_["checkpoints"][0]["bytes"].template get<double>();
  }
  static double checkpoints() { return static_cast<double>(Base::truth_["checkpoints"].size()); }
  // What every program does that dlgen finds: its checkpoints, as torch.save writes them.
  static void expect_checkpoints_as_written() {
    EXPECT_EQ(Base::original("checkpoints"), checkpoints()) << Base::row("checkpoints").dump();
    EXPECT_EQ(Base::job_.checkpoint.size_bytes, checkpoint_bytes());
    EXPECT_EQ(Base::job_.checkpoint.write_call, dlgen::WriteCall::writev) << "torch.save";
  }
  // The files, workers, epochs and training steps of the program, in the job and the trace.
  static void expect_files_workers_epochs() {
    EXPECT_EQ(Base::job_.dataset.num_files, Base::truth("files"));
    EXPECT_EQ(Base::job_.reader.workers, Base::truth("workers"));
    EXPECT_EQ(Base::job_.run.epochs, Base::truth("epochs"));
    EXPECT_EQ(Base::original("steps"), Base::total("steps_per_epoch")) << Base::row("steps").dump();
  }
  // The program's forward + backward + optimizer step, timed around each call, against the
  // compute dlgen found for the same step (the k-th training step of the trace, the counts being
  // equal), over the steps whose compute dlgen measured (the next batch was ready; a pass's last
  // step is estimated): the mean within 10% (what the replay spends), and 80% of the steps each
  // within 10% or 0.3 ms (the steps line up: a gap taken for a step lays the pass's steps one
  // off). Not the median of all steps: a bucketed program's computes are bimodal (.pt clips
  // 2-5 ms and 7-14 ms), where two steps moving across the median moved it 15% (one CI run).
  // What the trace cannot separate from compute: the main thread's CPU time outside the
  // program's timer, as when its 2 workers' prefetch at a pass's start takes the cores (2-4 ms
  // on 1-3 steps of 30 seen).
  static void expect_compute() {
    const auto& computes = Base::truth_["computes_s"];
    std::vector<nlohmann::json> train;  // with those that held a checkpoint, in time order
    for (const char* list : {"steps", "checkpoint_steps"})
      for (const auto& st : Base::summary_.value(list, nlohmann::json::array()))
        if (!Base::summary_["epochs"][st["epoch"].template get<std::size_t>()]["evaluation"]
                 .template get<bool>())
          train.push_back(st);
    std::stable_sort(train.begin(), train.end(), [](const auto& a, const auto& b) {
      return a["start_ns"].template get<std::uint64_t>() <
             b["start_ns"].template get<std::uint64_t>();
    });
    ASSERT_EQ(train.size(), computes.size()) << "training steps: trace vs program";
    double program = 0, found = 0;
    std::size_t measured = 0, close = 0;
    std::string off;
    for (std::size_t k = 0; k < train.size(); ++k) {
      if (!train[k]["compute_measured"].template get<bool>()) continue;
      const double truth = computes[k].template get<double>();
      const double got = train[k]["compute_ns"].template get<double>() * 1e-9;
      ++measured;
      program += truth;
      found += got;
      if (std::abs(got - truth) <= std::max(0.1 * truth, 0.0003))
        ++close;
      else
        off += " step " + std::to_string(k) + ": " + std::to_string(got) + " vs " +
               std::to_string(truth) + " s;";
    }
    ASSERT_GT(measured, computes.size() / 2) << "steps with compute measured";
    EXPECT_NEAR(found / measured, program / measured, 0.1 * program / measured)
        << "mean compute of " << measured << " steps";
    EXPECT_GE(close * 5, measured * 4) << close << " of " << measured << " steps close;" << off;
  }
};

// ---- One HDF5 file, train and val groups of chunked datasets, persistent workers ---------------

class HeldOutH5Chunked : public HeldOutR6<HeldOutH5Chunked> {
 protected:
  static void SetUpTestSuite() { set_up("heldout-h5chunked", "h5_chunked.py"); }
};

TEST_F(HeldOutH5Chunked, OneFileReadAChunkAtATime) {
  EXPECT_EQ(truth("chunk_bytes"), 98304);  // the program did what its README says
  EXPECT_EQ(job_.dataset.num_files, truth("files")) << "data.h5";
  EXPECT_EQ(job_.dataset.format, dlgen::Format::hdf5);
  EXPECT_EQ(job_.reader.read_unit, dlgen::ReadUnit::sample);
  EXPECT_EQ(job_.reader.shuffle, dlgen::Shuffle::sample);
  // h5py reads a whole chunk (8 samples) for every sample it is asked for: the job's "samples"
  // are the file's 80 chunks of 96 KiB (train and val groups together).
  EXPECT_EQ(job_.dataset.sample_size.expected(), truth("chunk_bytes"));
  EXPECT_EQ(job_.dataset.samples_per_file,
            (truth("train_samples") + truth("val_samples")) / truth("chunk_samples"));
  // The bytes the trace shows read are the bytes the workers read (chunk re-reads included:
  // 6.4x the samples' payload).
  EXPECT_NEAR(original("bytes_read"), read_bytes(), 0.03 * read_bytes())
      << row("bytes_read").dump();
}

TEST_F(HeldOutH5Chunked, CheckpointsAsWritten) {
  expect_checkpoints_as_written();
}

TEST_F(HeldOutH5Chunked, BatchWorkersAndEpochs) {
  // Batch 32, 2 persistent workers, 2 epochs of 16 steps. Each chunk is read 8 times an epoch
  // (once per sample in it): a pass is the training set's run of reads between the validation
  // passes, not "until a file repeats" (which had made 1,028 epochs of 2 chunk reads).
  EXPECT_EQ(job_.reader.batch_size, truth("batch_size"));
  expect_files_workers_epochs();
  EXPECT_NEAR(original("epoch_bytes_read"), first_epoch_bytes(), 0.05 * first_epoch_bytes())
      << row("epoch_bytes_read").dump();
}

TEST_F(HeldOutH5Chunked, ValidationGroupOfTheSameFile) {
  // /val/x of data.h5 (128 samples, batch 64) after every epoch: 2 passes of 2 steps. The job's
  // [validation] is /val's 16 chunks of the same file, [dataset] /train's 64: sample ranges of
  // one generated file of 80.
  ASSERT_TRUE(job_.validation.has_value());
  EXPECT_EQ(job_.run.eval_every_epochs, 1u);
  EXPECT_EQ(original("eval_steps"), total("eval_steps_per_pass")) << row("eval_steps").dump();
  const double chunks = (truth("train_samples") + truth("val_samples")) / truth("chunk_samples");
  EXPECT_EQ(job_.validation->dir, job_.dataset.dir);
  EXPECT_EQ(job_.dataset.sample_begin, 0u);
  EXPECT_EQ(job_.dataset.sample_end, truth("train_samples") / truth("chunk_samples"));
  EXPECT_EQ(job_.validation->sample_begin, job_.dataset.sample_end);
  EXPECT_EQ(job_.validation->sample_end, chunks);
  EXPECT_EQ(original("eval_passes"), truth("epochs")) << row("eval_passes").dump();
}

TEST_F(HeldOutH5Chunked, CheckpointAfterEveryEpoch) {
  // epoch1.pt, epoch2.pt after each epoch (every_steps = 18 when the passes were cut wrong).
  EXPECT_EQ(job_.checkpoint.every_epochs, 1u);
  EXPECT_EQ(job_.checkpoint.every_steps, 0u);
  EXPECT_EQ(verdict("checkpoints"), "PASS") << row("checkpoints").dump();
}

TEST_F(HeldOutH5Chunked, ComputePerStep) {
  // The program's step: 8.3-11.2 ms (median, four runs). Every measured step within 10% in four
  // loops of stop 33, the mean +1.4 to +1.8% (it had been 4.7-11.8 ms when the passes were cut
  // every 2 chunk reads: one batch a pass, no step's compute measured).
  expect_compute();
}

TEST_F(HeldOutH5Chunked, ReplayPassesOfEachGroup) {
  // compare's summary of the replay trace finds its passes: the replay's worker threads, started
  // afresh each pass, tell /val's chunks from /train's, as the original's worker processes do.
  // Before (branch zipreplay): no evaluation passes, eval_passes 0 vs 2, readers 4 vs 2.
  for (const char* name : {"epochs", "eval_passes", "readers", "files_read"})
    EXPECT_EQ(verdict(name), "PASS") << row(name).dump();
}

TEST_F(HeldOutH5Chunked, DISABLED_H5ChunkedReplayPasses) {
  // The replay reads /train's 64 chunks an epoch (2 steps of 32) and /val's 16 a pass (6.03 and
  // 1.51 MiB), where h5py read each chunk once per sample in it (8 times: 48.25 MiB an epoch, 16
  // steps): bytes_read, read_ops, opens, reads_per_file (7.9 vs 1), steps (32 vs 2), the
  // timing rows.
  EXPECT_EQ(failed_rows(compared_), "");
}

// ---- One zip archive, members read with zipfile, SubsetRandomSampler split ---------------------

class HeldOutZipMembers : public HeldOutR6<HeldOutZipMembers> {
 protected:
  static void SetUpTestSuite() { set_up("heldout-zip", "zip_members.py"); }
};

TEST_F(HeldOutZipMembers, MembersOfOneArchive) {
  EXPECT_EQ(truth("members"), 400);  // the program did what its README says
  EXPECT_EQ(job_.dataset.samples_per_file, truth("members"));
  EXPECT_EQ(job_.reader.read_unit, dlgen::ReadUnit::sample);
  EXPECT_EQ(job_.reader.shuffle, dlgen::Shuffle::sample);
  // A member from its local header (30 B + its 12-byte name) to the next: its data + 42 B.
  EXPECT_NEAR(job_.dataset.sample_size.expected(), truth("member_bytes_mean") + 42,
              0.03 * truth("member_bytes_mean"));
  EXPECT_EQ(job_.reader.batch_size, truth("batch_size"));
  expect_files_workers_epochs();
  EXPECT_NEAR(original("bytes_read"), read_bytes(), 0.03 * read_bytes())
      << row("bytes_read").dump();
}

TEST_F(HeldOutZipMembers, ValidationEveryEpoch) {
  ASSERT_TRUE(job_.validation.has_value()) << "every 5th member";
  EXPECT_EQ(job_.run.eval_every_epochs, 1u);
  EXPECT_EQ(original("eval_passes"), truth("epochs")) << row("eval_passes").dump();
  EXPECT_EQ(original("eval_steps"), total("eval_steps_per_pass")) << row("eval_steps").dump();
}

TEST_F(HeldOutZipMembers, CheckpointsAsWritten) {
  expect_checkpoints_as_written();
}

TEST_F(HeldOutZipMembers, CheckpointEvery12Steps) {
  // last.pt after steps 12, 24, 36. dlgen's every_steps had moved from run to run: 13, 12, 13,
  // 13, 12 and (on a loaded host, checkpoints placed after steps 20, 26, 31) 6; the replay wrote
  // 3 to 8. A step counted early (a gap that was no step: analysis/src/stages/step_gaps.cpp)
  // put a checkpoint one step late; 12 in six fresh loops of stop 33.
  EXPECT_EQ(job_.checkpoint.every_steps, truth("checkpoint_every_steps"));
  EXPECT_EQ(replay("checkpoints"), checkpoints()) << row("checkpoints").dump();
  EXPECT_EQ(verdict("bytes_written"), "PASS") << row("bytes_written").dump();
}

TEST_F(HeldOutZipMembers, TrainAndValAreRangesOfOneArchive) {
  // Training reads 320 of the 400 members an epoch (20 steps), validation the other 80 (5 steps):
  // the job's sample ranges [0, 320) and [320, 400) of one generated archive of 400 (the
  // original's were interleaved, every 5th member validation). The replay runs 20 + 5 steps an
  // epoch (dlgen run: 40 steps, 640 samples, 2 evaluation passes of 80).
  EXPECT_EQ(job_.dataset.samples_per_file, truth("members"));
  EXPECT_EQ(job_.dataset.sample_end - job_.dataset.sample_begin, truth("train_members"));
  ASSERT_TRUE(job_.validation.has_value());
  EXPECT_EQ(job_.validation->sample_end - job_.validation->sample_begin, truth("val_members"));
  EXPECT_EQ(job_.validation->dir, job_.dataset.dir);
}

TEST_F(HeldOutZipMembers, TrainAndValAreSubsetsOfOneArchive) {
  // What compare sees of that replay: its summary of the replay trace splits the one generated
  // archive (an .npz: a zip) into its 400 members, and the validation members, read by worker
  // threads of passes of their own, are the evaluation passes. Before (branch zipreplay): one
  // file, 8 "epochs" of one reader and no evaluation: steps 50 vs 40, eval_steps 0 vs 10,
  // readers 1 vs 2, opens 8 vs 800.
  EXPECT_EQ(replay("steps"), total("steps_per_epoch")) << row("steps").dump();
  EXPECT_EQ(replay("eval_steps"), total("eval_steps_per_pass")) << row("eval_steps").dump();
  for (const char* name : {"epochs", "eval_passes", "readers", "opens", "files_read"})
    EXPECT_EQ(verdict(name), "PASS") << row(name).dump();
}

TEST_F(HeldOutZipMembers, MembersReadThroughTheBuffer) {
  // zipfile reads a member's header and data through Python's buffered file: 4 KiB requests
  // (2,139 of them, 9.88 MB, whole fills past the member's end); the job says so
  // (request_size = stream_granule = 4 KiB) and the replay reads 2,404 fills, 9.85 MB (two
  // fresh loops, branch zipreplay). Before: one request a member of ~10 KiB (800, 8.21 MB; an
  // epoch 3.22 vs 3.94 MB, a validation pass 0.88 vs 1.00 MB).
  EXPECT_EQ(job_.reader.request_size_bytes, 4096u);
  EXPECT_EQ(job_.reader.stream_granule_bytes, 4096u);
  for (const char* name : {"request_size", "request_size_emd", "read_ops", "bytes_read",
                           "epoch_bytes_read", "eval_epoch_bytes_read"})
    EXPECT_EQ(verdict(name), "PASS") << row(name).dump();
}

TEST_F(HeldOutZipMembers, ComputePerStep) {
  // The program's step: 13.9-16.8 ms (median, four runs); every measured step within 10% in four
  // loops of stop 33, the mean +0.9 to +1.3%. It was 7.1-7.5 ms, with a consumer cost of
  // 2.5-9.2 ms: the forward pass's page fault on the labels cut every compute gap in two.
  expect_compute();
}

TEST_F(HeldOutZipMembers, DISABLED_ZipMembersReplayPasses) {
  // Passed in one of two fresh loops (branch zipreplay); the other failed inflight alone (1.00 vs
  // 1.42: time-weighted reads in flight, the two replay workers' fills overlapping on the busy VM).
  EXPECT_EQ(failed_rows(compared_), "");
}

// ---- Fixed-size records in 4 shards, os.pread, a block-shuffling batch_sampler, 3 workers ------

class HeldOutBlockRecords : public HeldOutR6<HeldOutBlockRecords> {
 protected:
  static void SetUpTestSuite() { set_up("heldout-blocks", "block_records.py"); }
};

TEST_F(HeldOutBlockRecords, FourShardsThreeWorkersThreeEpochs) {
  EXPECT_EQ(truth("record_bytes"), 3000);  // the program did what its README says
  EXPECT_EQ(job_.dataset.files_per_sample, 1u);
  expect_files_workers_epochs();
  // One pread a record: the trace's bytes are the records' exactly.
  EXPECT_EQ(original("bytes_read"), read_bytes());
  EXPECT_EQ(original("read_ops"),
            truth("epochs") * (truth("train_records") + truth("val_records")));
  for (const char* name : {"read_ops", "steps"})
    EXPECT_EQ(verdict(name), "PASS") << row(name).dump();
}

TEST_F(HeldOutBlockRecords, ValidationFileAndCheckpointsEveryEpoch) {
  ASSERT_TRUE(job_.validation.has_value()) << "val.bin";
  EXPECT_EQ(job_.validation->num_files, truth("val_files"));
  EXPECT_EQ(job_.run.eval_every_epochs, 1u);
  EXPECT_EQ(original("eval_steps"), total("eval_steps_per_pass")) << row("eval_steps").dump();
  EXPECT_EQ(job_.checkpoint.every_epochs, 1u);
  expect_checkpoints_as_written();
  EXPECT_EQ(verdict("checkpoints"), "PASS") << row("checkpoints").dump();
}

TEST_F(HeldOutBlockRecords, RecordsAndBatches) {
  // 160 records of 3,000 B a shard, batches of 40 of them: each pread a sample, at any pace
  // (records read by position in runs that begin at many offsets; tests/analysis
  // block_records_test.cpp holds the same reads at other gaps). Before: 4 samples of 120,000 B
  // and batch 1 on a quiet host, 160 x 3,000 B and batch 40 on a loaded one.
  EXPECT_EQ(job_.dataset.samples_per_file, truth("train_records") / truth("files"));
  EXPECT_EQ(job_.dataset.sample_size.expected(), truth("record_bytes"));
  EXPECT_EQ(job_.reader.batch_size, truth("batch_size"));
}

TEST_F(HeldOutBlockRecords, BlocksAreRandomAccessNotStreams) {
  // Each batch is 40 consecutive records of one shard, the blocks shuffled every epoch and dealt
  // to the 3 workers in turn: every worker reads every shard, a block at a time. dlgen: read =
  // "sample", shuffle = "sample" in blocks of 40 (reader.shuffle_block); the replay reads the
  // trace's bytes exactly (6.84 MB, 2,280 reads, 3 epochs, 3 readers). Before: read = "stream",
  // and compare saw the replay as 9 epochs, its bytes 10.5% over.
  EXPECT_EQ(job_.reader.read_unit, dlgen::ReadUnit::sample);
  EXPECT_EQ(job_.reader.shuffle, dlgen::Shuffle::sample);
  EXPECT_EQ(job_.reader.shuffle_block, truth("batch_size"));
  for (const char* name : {"epochs", "epoch_bytes_read", "reads_per_file", "readers", "bytes_read"})
    EXPECT_EQ(verdict(name), "PASS") << row(name).dump();
}

TEST_F(HeldOutBlockRecords, ValidationRecords) {
  // val.bin: 120 records of 3,000 B in batches of 48 (3 steps a pass): found so. Before: 1 sample
  // of 360,000 B, no eval_batch_size, and the replay ran 1 step a pass (eval_steps 3 vs 9).
  ASSERT_TRUE(job_.validation.has_value());
  EXPECT_EQ(job_.validation->samples_per_file, truth("val_records"));
  EXPECT_EQ(job_.validation->sample_size.expected(), truth("record_bytes"));
  EXPECT_EQ(job_.reader.eval_batch_size, truth("eval_batch_size"));
  EXPECT_EQ(verdict("eval_steps"), "PASS") << row("eval_steps").dump();
}

TEST_F(HeldOutBlockRecords, ComputePerStep) {
  // The program's step: 14.4-17.8 ms (median, four runs); every measured step within 10% in four
  // loops of stop 33, the mean +0.8 to +1.1%. It was 4.9-6.2 ms, with a consumer cost of
  // 4.8-11.8 ms.
  expect_compute();
}

// Fails on branch records: reshuffle (-0.45 vs 0.02: the replay's block order is drawn afresh,
// the original's epochs anti-correlated by chance), and the timing rows from compute and
// consumer cost (epoch_time, duration, step_time, consumer, throughput).
TEST_F(HeldOutBlockRecords, DISABLED_BlockRecordsReplayPasses) {
  EXPECT_EQ(failed_rows(compared_), "");
}

// ---- Variable-length clips in .pt files, torch.load, a length-bucketing batch sampler ----------

class HeldOutPtBuckets : public HeldOutR6<HeldOutPtBuckets> {
 protected:
  static void SetUpTestSuite() { set_up("heldout-buckets", "pt_buckets.py"); }
};

TEST_F(HeldOutPtBuckets, ClipFilesBatchAndWorkers) {
  EXPECT_EQ(truth("files"), 256);  // the program did what its README says
  EXPECT_EQ(job_.dataset.samples_per_file, 1u);
  EXPECT_EQ(job_.reader.read_unit, dlgen::ReadUnit::file);
  EXPECT_EQ(job_.reader.batch_size, truth("batch_size"));
  expect_files_workers_epochs();
  EXPECT_NEAR(original("bytes_read"), read_bytes(), 0.03 * read_bytes())
      << row("bytes_read").dump();
  for (const char* name : {"files_read", "steps", "epochs", "readers"})
    EXPECT_EQ(verdict(name), "PASS") << row(name).dump();
}

TEST_F(HeldOutPtBuckets, ValidationFolderAndCheckpoints) {
  ASSERT_TRUE(job_.validation.has_value()) << "val/";
  EXPECT_EQ(job_.validation->num_files, truth("val_files"));
  EXPECT_EQ(job_.run.eval_every_epochs, 1u);
  EXPECT_EQ(original("eval_steps"), total("eval_steps_per_pass")) << row("eval_steps").dump();
  EXPECT_EQ(job_.checkpoint.every_epochs, 1u);
  expect_checkpoints_as_written();
  for (const char* name : {"eval_passes", "eval_steps", "checkpoints", "checkpoint_size"})
    EXPECT_EQ(verdict(name), "PASS") << row(name).dump();
}

TEST_F(HeldOutPtBuckets, TorchLoadReads) {
  // torch.load reads a .pt file through Python's buffered file in ~10 requests (median 553 B),
  // going back over its zip records: 1.7x the file's bytes (7.89 MB an epoch for 4.66 MB of
  // files). Its templates differ by a few bytes per file; merged by shape into one recipe of 10
  // steps, the replay reads 7.91 MB an epoch in 6,400 requests (6,400 traced). Before: 5.70 MB
  // in 2 requests a file.
  EXPECT_FALSE(job_.reader.recipe.empty());
  for (const char* name : {"epoch_bytes_read", "bytes_read", "read_ops", "request_size"})
    EXPECT_EQ(verdict(name), "PASS") << row(name).dump();
}

TEST_F(HeldOutPtBuckets, ComputePerStep) {
  // The program's step: 4.9-6.9 ms (median, four runs); every measured step within 10% in four
  // loops of stop 33, the mean +1.8 to +2.0%. It was 2.2-5.3 ms; then one CI run in which the
  // medians disagreed by 12.6% (README: a library search cut the first step, an out-of-order
  // batch's idle time was taken for a step).
  expect_compute();
}

// Fails on branch records: reshuffle (-0.33 vs 0.03: the bucketed batch order, which the job
// cannot say; `shuffle = "file"` draws a plain permutation) and the timing rows (epoch_time,
// duration, step_time, consumer, throughput, eval_step_time).
TEST_F(HeldOutPtBuckets, DISABLED_PtBucketsReplayPasses) {
  EXPECT_EQ(failed_rows(compared_), "");
}

}  // namespace
