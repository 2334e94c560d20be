// A second round of held-out training programs that read their datasets from an S3 store over
// plain HTTP (tests/s3/heldout2/README.md), written from common real-world loader patterns by a
// tester who did not read distil's source or docs/distil.md: a map-style Dataset that fetches
// each batch's objects through a thread pool per worker (`__getitems__`), an IterableDataset
// reading big objects of fixed-size records in 256 KiB Range GETs, and a job that resumes from
// its latest checkpoint on the store and uploads one every 5 steps. The loop is the first
// round's (s3_heldout.hpp). The enabled tests hold what dlgen gets right against the program's
// own ground truth (its last stdout line); each DISABLED_ test asserts a piece of ground truth
// dlgen gets wrong today, its comment saying what dlgen made instead.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "s3_heldout.hpp"

namespace {

using dlgen::testing::failed_rows;
using dlgen::testing::HeldOutS3;

const auto* const kServer = ::testing::AddGlobalTestEnvironment(new dlgen::testing::S3Server);
const std::string kPrograms = DLGEN_S3_SCRIPTS "/heldout2/";

// Non-GET requests of a trace's HTTP figures (`inspect --json`'s "http"): PUTs, multipart
// control, HEADs.
double non_gets(const nlohmann::json& http) {
  return http["requests"].get<double>() - http["gets"].get<double>();
}

// ---- A batch's objects fetched at once through a thread pool in each worker --------------------

class HeldOutS3BatchPool : public HeldOutS3<HeldOutS3BatchPool> {
 protected:
  static void SetUpTestSuite() {
    make_dir("heldout2-s3-pool");
    s3_loop(kPrograms, "batch_pool.py", "");
  }
};

TEST_F(HeldOutS3BatchPool, ObjectsWholeAndValidationPrefix) {
  // The program did what its README says: 8 GETs of a worker in flight at once.
  EXPECT_EQ(truth("peak_inflight_per_worker"), truth("threads_per_worker"));
  expect_objects("objects");
  // The .npy sizes vary (4.8-12.1 KiB): the job's mean is theirs.
  EXPECT_NEAR(job_.dataset.sample_size.expected(), truth("dataset_bytes") / truth("objects"),
              0.02 * truth("dataset_bytes") / truth("objects"));
  EXPECT_EQ(job_.reader.read_unit, dlgen::ReadUnit::file) << "one whole-object GET a sample";
  EXPECT_NE(job_.reader.shuffle, dlgen::Shuffle::none);
  EXPECT_EQ(job_.run.epochs, truth("epochs"));
  expect_pass({"bytes_read", "files_read", "read_ops", "request_size", "epoch_bytes_read", "epochs",
               "reads_per_file"});
  // Every GET in the trace: the samples' and the 2 listings'.
  EXPECT_EQ(said("http")["gets"], truth("gets") + 2) << said("http").dump();
  EXPECT_EQ(said("http")["errors"], 0) << said("http").dump();
  ASSERT_TRUE(job_.validation.has_value()) << "PREFIX/val/";
  EXPECT_EQ(job_.validation->dir.string().rfind("s3://", 0), 0u) << job_.validation->dir;
  EXPECT_EQ(job_.validation->num_files, truth("val_objects"));
  EXPECT_EQ(job_.run.eval_every_epochs, truth("eval_every_epochs"));
  expect_pass({"eval_passes", "eval_files"});
}

TEST_F(HeldOutS3BatchPool, TwoWorkersOfEightThreads) {
  // 2 DataLoader workers, each with 8 threads sending GETs (8 in flight at once). Until stop 30
  // `workers = 16`: each pool thread a reader worker of its own ("16 readers per epoch"); a
  // process that hands batches over is now one reader whatever threads read for it.
  EXPECT_EQ(job_.reader.workers, truth("workers"));
}

TEST_F(HeldOutS3BatchPool, BatchesOfSixteen) {
  // Batch 16: 6 training steps an epoch (12), 2 validation steps a pass (4), each batch collated
  // by its worker's main thread. Until stop 31 the queue feeder's label tensor, shared while the
  // pool fetched the next batch, split that batch (16, 7, 9, 16, 1, 15, ...): compare counted
  // 16 training steps for 12. (Before stop 30: no handover seen, batch 2, 32 steps.)
  EXPECT_EQ(job_.reader.batch_size, truth("batch_size"));
  EXPECT_EQ(original("steps"), total("steps_per_epoch")) << row("steps").dump();
  EXPECT_EQ(original("eval_steps"), total("eval_steps_per_pass")) << row("eval_steps").dump();
  expect_pass({"steps", "eval_steps"});
}

TEST_F(HeldOutS3BatchPool, ItsPoolIsTheWorkersIodepth) {
  // Each worker keeps its pool's 8 GETs in flight: the job's reader.iodepth (stop 31; the replay
  // kept 1 a worker: 1.9 GETs in flight for the original's 13.0, KS 0.95).
  EXPECT_EQ(job_.reader.iodepth, truth("threads_per_worker"));
  expect_pass({"inflight"});
}

TEST_F(HeldOutS3BatchPool, DISABLED_BatchPoolReplayPasses) {
  // Fails at stop 31 on timing rows only (steps, eval_steps and inflight pass): epoch_time and
  // duration 0.46 vs 0.68 s, data_wait 0.61 vs 0.24, au 0.17 vs 0.23, throughput 1.76 vs 1.19
  // MiB/s, eval_step_time 4.4 vs 23.9 ms (the original's evaluation steps are not its 20 ms
  // training compute); another loop by hand: data_wait 0.42 vs 0 and eval_step_time only.
  EXPECT_EQ(failed_rows(compared_), "");
}

// ---- Big objects of fixed-size records in 256 KiB Range GETs, an IterableDataset ---------------

class HeldOutS3RangedRecords : public HeldOutS3<HeldOutS3RangedRecords> {
 protected:
  static void SetUpTestSuite() {
    make_dir("heldout2-s3-ranges");
    s3_loop(kPrograms, "ranged_records.py", "");
  }
};

TEST_F(HeldOutS3RangedRecords, ObjectsStreamedInRanges) {
  EXPECT_EQ(truth("gets"), truth("objects") * truth("gets_per_object") * truth("epochs"));
  expect_objects("objects");
  EXPECT_EQ(job_.dataset.sample_size.expected() * job_.dataset.samples_per_file,
            truth("object_bytes"));
  // Each worker reads its objects front to back: a stream in requests of the range's size.
  EXPECT_EQ(job_.reader.read_unit, dlgen::ReadUnit::stream);
  EXPECT_EQ(job_.reader.request_size_bytes, truth("range_bytes"));
  EXPECT_EQ(job_.reader.workers, truth("workers"));
  EXPECT_EQ(job_.run.epochs, truth("epochs"));
  EXPECT_EQ(original("steps"), total("steps_per_epoch")) << row("steps").dump();
  EXPECT_EQ(original("bytes_read"), truth("get_bytes")) << row("bytes_read").dump();
  EXPECT_EQ(said("http")["ranged"], truth("gets")) << said("http").dump();
  expect_pass({"bytes_read", "files_read", "read_ops", "request_size", "epoch_bytes_read", "epochs",
               "steps", "readers", "reads_per_file"});
}

TEST_F(HeldOutS3RangedRecords, RecordsAndBatch) {
  // 192 records of 16 KiB an object, batch 32: counted from each batch's /dev/shm tensors (its
  // labels one int64 a record; stop 30). Had been 6 "samples" of 512 KiB an object, batch 1.
  EXPECT_EQ(job_.dataset.samples_per_file, truth("samples_per_object"));
  EXPECT_EQ(job_.dataset.sample_size.expected(), truth("sample_bytes"));
  EXPECT_EQ(job_.reader.batch_size, truth("batch_size"));
}

TEST_F(HeldOutS3RangedRecords, DISABLED_RangedRecordsReplayPasses) {
  // Fails at stop 31 only on timing rows: epoch_time and duration 0.42 vs 0.36 s, throughput
  // 28.5 vs 32.9 (the replay 13% faster; 32% in a loop by hand, with step_time and au too).
  EXPECT_EQ(failed_rows(compared_), "");
}

// ---- Resume from the latest checkpoint on the store, then one every 5 steps ---------------------

class HeldOutS3ResumeCheckpoint : public HeldOutS3<HeldOutS3ResumeCheckpoint> {
 protected:
  static void SetUpTestSuite() {
    make_dir("heldout2-s3-resume");
    s3_loop(kPrograms, "resume_ckpt.py", "");
  }
};

TEST_F(HeldOutS3ResumeCheckpoint, SamplesBatchWorkersEpochs) {
  EXPECT_EQ(truth("checkpoints"), 3);  // the program did what its README says
  expect_objects("objects");
  EXPECT_EQ(job_.reader.batch_size, truth("batch_size"));
  EXPECT_EQ(job_.reader.workers, truth("workers"));
  EXPECT_NE(job_.reader.shuffle, dlgen::Shuffle::none);
  EXPECT_EQ(job_.run.epochs, truth("epochs"));
  EXPECT_EQ(original("steps"), total("steps_per_epoch")) << row("steps").dump();
  expect_pass(
      {"bytes_read", "files_read", "read_ops", "epoch_bytes_read", "epochs", "steps", "readers"});
}

TEST_F(HeldOutS3ResumeCheckpoint, RestoreBeforeTraining) {
  // download_fileobj of the latest checkpoint: a HEAD, then 4 ranged GETs of 2 MiB on 4 threads.
  EXPECT_TRUE(job_.checkpoint.restore);
  EXPECT_EQ(summary_["restore_bytes"], truth("restore_bytes")) << summary_["restore_bytes"];
  EXPECT_EQ(said("http")["ranged"], truth("restore_gets")) << said("http").dump();
  // The samples' GETs, the restore's and the checkpoint prefix's listing.
  EXPECT_EQ(said("http")["gets"], truth("objects") * truth("epochs") + truth("restore_gets") + 1)
      << said("http").dump();
}

TEST_F(HeldOutS3ResumeCheckpoint, CheckpointsByStepOnTheStore) {
  expect_checkpoints_found();
  EXPECT_GT(job_.checkpoint.every_steps, 0u) << "a cadence in steps, mid-epoch";
  EXPECT_EQ(job_.checkpoint.every_epochs, 0u);
  EXPECT_EQ(job_.checkpoint.dir.string().rfind("s3://", 0), 0u) << job_.checkpoint.dir;
  EXPECT_EQ(verdict("checkpoint_size"), "PASS") << row("checkpoint_size").dump();
  // Each upload: POST, 2 part PUTs, POST; and the restore's HEAD.
  EXPECT_EQ(non_gets(said("http")), truth("checkpoints") * (truth("checkpoint_parts") + 2) + 1)
      << said("http").dump();
}

TEST_F(HeldOutS3ResumeCheckpoint, EveryFiveStepsAfterSteps5And10And15) {
  // Uploaded after the run's steps 5, 10 and 15 (global 45, 50, 55). Placed by the loop's first
  // touch of each batch's /dev/shm tensor (a page fault of its main thread as its step computes on
  // it; stages/step_touches.cpp). From the main thread's idle gaps (split by those faults, a step
  // before an upload holding the state's serialisation, a wait for data a gap too) and snapped to
  // the pass's end once its last batch was received, they had scattered: 5, 11, 16 and 5, 10, 16
  // at stop 31; 7, 8, 13; 2, 10, 15; 4, 11, 11; 2, 10, 16; 4, 11, 16 at stop 30, every_steps 5 or 6.
  EXPECT_EQ(job_.checkpoint.every_steps, truth("checkpoint_every_steps"));
  const auto& found = summary_["checkpoints"];
  ASSERT_EQ(found.size(), truth_["checkpoint_after_run_steps"].size()) << found.dump();
  for (std::size_t i = 0; i < found.size(); ++i)
    EXPECT_EQ(found[i]["after_step"], truth_["checkpoint_after_run_steps"][i]) << found.dump();
}

TEST_F(HeldOutS3ResumeCheckpoint, ReplayCountsOnlyItsCadencesCheckpoints) {
  // The replay writes a checkpoint every `every_steps` of its 16 steps and restores one. The
  // checkpoint its restore reads is written before the capture starts (stop 30); it was written
  // inside the replay, and compare counted it: with every_steps = 5, 4 for 3 (bytes_written
  // 22.5 vs 30.0 MiB FAIL); with 6, 3 for 2.
  ASSERT_GT(job_.checkpoint.every_steps, 0u);
  EXPECT_EQ(replay("checkpoints"),
            std::floor(total("steps_per_epoch") / double(job_.checkpoint.every_steps)))
      << row("checkpoints").dump();
}

TEST_F(HeldOutS3ResumeCheckpoint, MultipartUploadsAndRangedRestore) {
  // Each checkpoint a multipart upload of 2 parts of 5 MiB (POST, 2 PUTs, POST), the restore 4
  // ranged GETs of 2 MiB. distil writes checkpoint.part_size = "5MiB" (stop 31) and the s3
  // engine uploads in 2 parts: 12 non-GET requests on both sides; the replay had PUT each whole
  // (7.5 MiB under its 8 MiB part): 3-4 for 12. Per checkpoint the replay wrote: how many it
  // writes follows every_steps (EveryFiveStepsAfterSteps5And10And15).
  EXPECT_EQ(job_.checkpoint.part_size_bytes, 5u << 20);
  ASSERT_GT(replay("checkpoints"), 0);
  EXPECT_EQ(non_gets(said("replay_http")),
            replay("checkpoints") * (truth("checkpoint_parts") + 2))
      << said("replay_http").dump();
  // checkpoint.read_size = "2MiB", the restore's GETs' size: the replay restores in ranged GETs
  // of 2 MiB as the original (it had read in GETs of write_size, 5 MiB; the s3 engine's GETs per
  // restore: S3Checkpoint.ARestoreFindsItsCheckpointByListing).
  EXPECT_EQ(job_.checkpoint.read_size_bytes, 2u << 20);
}

}  // namespace
