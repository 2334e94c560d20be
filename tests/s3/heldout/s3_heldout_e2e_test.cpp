// Held-out training programs that read their datasets from an S3 store over plain HTTP
// (tests/s3/heldout/README.md), written from common real-world loader patterns by a tester who
// did not read distil's source: a map-style Dataset over a paginated listing (s3torchconnector's
// S3MapDataset.from_prefix), image + label pairs as two objects a sample, records of one big
// object read through an fsspec/s3fs-style block cache, and WebDataset tar shards streamed per
// worker. Each suite puts its program's dataset into a bucket of its own on the s3 fixture's
// Swift server, captures the program's training, distils it, generates and replays the job under
// capture and compares, as a user would (cached in the build tree as the other held-out suites'
// loops, tests/support/heldout_program.hpp). The enabled tests hold what dlgen gets right today
// against the program's own ground truth (its last stdout line); each DISABLED_ test asserts a
// piece of ground truth dlgen gets wrong today, named after the shape, its comment saying what
// dlgen made instead. Needs root (BPF): a suite skips when capture says 77.
#include <gtest/gtest.h>

#include <string>

#include "s3_heldout.hpp"

namespace {

using dlgen::testing::failed_rows;
using dlgen::testing::HeldOutS3;

const auto* const kServer = ::testing::AddGlobalTestEnvironment(new dlgen::testing::S3Server);
const std::string kPrograms = DLGEN_S3_SCRIPTS "/heldout/";

// ---- A map-style Dataset over a paginated listing: one whole-object GET a JPEG ------------------

class HeldOutS3MapListing : public HeldOutS3<HeldOutS3MapListing> {
 protected:
  static void SetUpTestSuite() {
    make_dir("heldout-s3-listing");
    s3_loop(kPrograms, "map_listing.py", "");
  }
};

TEST_F(HeldOutS3MapListing, ListedJpegsBatchWorkersEpochs) {
  EXPECT_EQ(truth("objects"), 64);  // the program did what its README says
  expect_objects("objects");
  EXPECT_EQ(job_.dataset.format, dlgen::Format::jpeg);
  // The JPEGs' sizes vary (1.9-4.7 KiB): the job's mean is theirs.
  EXPECT_NEAR(job_.dataset.sample_size.expected(), truth("dataset_bytes") / truth("objects"),
              0.02 * truth("dataset_bytes") / truth("objects"));
  EXPECT_EQ(job_.reader.read_unit, dlgen::ReadUnit::file) << "one whole-object GET a sample";
  EXPECT_NE(job_.reader.shuffle, dlgen::Shuffle::none);
  EXPECT_EQ(job_.reader.batch_size, truth("batch_size"));
  EXPECT_EQ(job_.reader.workers, truth("workers"));
  EXPECT_EQ(job_.run.epochs, truth("epochs"));
  EXPECT_EQ(original("steps"), total("steps_per_epoch")) << row("steps").dump();
  expect_pass({"bytes_read", "files_read", "read_ops", "request_size", "epoch_bytes_read", "epochs",
               "steps", "readers", "reads_per_file"});
  EXPECT_EQ(said("http")["errors"], 0) << said("http").dump();
}

TEST_F(HeldOutS3MapListing, ValidationPrefixEveryEpoch) {
  ASSERT_TRUE(job_.validation.has_value()) << "PREFIX/val/";
  EXPECT_EQ(job_.validation->dir.string().rfind("s3://", 0), 0u) << job_.validation->dir;
  EXPECT_EQ(job_.validation->num_files, truth("val_objects"));
  EXPECT_EQ(job_.run.eval_every_epochs, truth("eval_every_epochs"));
  EXPECT_EQ(original("eval_passes"), truth("evals")) << row("eval_passes").dump();
  EXPECT_EQ(original("eval_steps"), total("eval_steps_per_pass")) << row("eval_steps").dump();
  expect_pass({"eval_passes", "eval_files", "eval_steps"});
}

TEST_F(HeldOutS3MapListing, PutObjectCheckpointsEveryEpoch) {
  // The state_dict (123,879 B) put_object as PREFIX/ckpt/epoch_N.pt after each of 2 epochs: the
  // PUTs of the trace's /http table are written objects (prepass/object_writes.hpp), replayed as
  // objects of the same store and counted on both sides.
  expect_checkpoints_found();
  EXPECT_EQ(job_.checkpoint.every_epochs, 1u);
  expect_object_checkpoints_replayed();
}

TEST_F(HeldOutS3MapListing, SmallValidationSetBytes) {
  // 16 validation JPEGs of 54.5 KiB in all; the replay's 16 objects drawn by strata from the
  // distilled 16-bin histogram are those 16 sizes (set_draws: 55,885 vs 55,793 B read). Drawn
  // independently they held 60.4 KiB (10.8% more: eval_epoch_bytes_read FAIL at 5%).
  EXPECT_EQ(verdict("eval_epoch_bytes_read"), "PASS") << row("eval_epoch_bytes_read").dump();
}

// ---- Image + label pairs: KEY.jpg then KEY.json, back to back in one worker ---------------------

template <class Suite>
class PairsSuite : public HeldOutS3<Suite> {
 protected:
  // Every GET in the original's trace, none failed: 2 objects a sample, 2 epochs, and the index.
  static void expect_every_get() {
    using S = PairsSuite;
    const auto& http = S::said("http");
    const double gets = S::truth("gets_per_sample") * S::truth("samples") * S::truth("epochs") + 1;
    EXPECT_EQ(http["gets"], gets) << http.dump();
    EXPECT_EQ(http["errors"], 0) << http.dump();
  }
};

class HeldOutS3Pairs : public PairsSuite<HeldOutS3Pairs> {
 protected:
  static void SetUpTestSuite() {
    make_dir("heldout-s3-pairs");
    s3_loop(kPrograms, "pairs.py", "");
  }
};

TEST_F(HeldOutS3Pairs, ImagesBatchWorkersEpochs) {
  EXPECT_EQ(truth("samples"), 48);  // the program did what its README says
  EXPECT_EQ(job_.dataset.dir.string().rfind("s3://", 0), 0u) << job_.dataset.dir;
  EXPECT_EQ(job_.reader.batch_size, truth("batch_size"));
  EXPECT_EQ(job_.reader.workers, truth("workers"));
  EXPECT_NE(job_.reader.shuffle, dlgen::Shuffle::none);
  EXPECT_EQ(job_.run.epochs, truth("epochs"));
  EXPECT_EQ(original("steps"), total("steps_per_epoch")) << row("steps").dump();
  expect_pass({"epochs", "steps", "readers"});
  expect_every_get();
}

TEST_F(HeldOutS3Pairs, TwoObjectsASample) {
  // 48 samples of 2 objects (a 2.3-5.4 KiB JPEG, then its ~40-byte JSON label): 96 objects, 192
  // GETs in 2 epochs (the labels had been ignored as config files by their extension).
  EXPECT_EQ(job_.dataset.files_per_sample, truth("files_per_sample"));
  EXPECT_EQ(job_.dataset.num_files, truth("files_per_sample") * truth("samples"));
  EXPECT_EQ(original("read_ops"), truth("gets_per_sample") * truth("samples") * truth("epochs"))
      << row("read_ops").dump();
  // Other bytes: index.csv (~1.1 KB, read once by the main process), no label any more.
  EXPECT_LT(original("other_bytes_read"), 40 * truth("samples")) << row("other_bytes_read").dump();
}

TEST_F(HeldOutS3Pairs, MultipartCheckpointAtTheEnd) {
  // The model (7,079,911 B) uploaded once at the end with upload_fileobj: a multipart upload of 2
  // parts of 5 MiB, joined into one written object at its completion.
  expect_checkpoints_found();
  expect_object_checkpoints_replayed();
}

// ---- The same pairs, the model torch.save'd to a temporary file that upload_fileobj sends -----

class HeldOutS3PairsSpooled : public PairsSuite<HeldOutS3PairsSpooled> {
 protected:
  static void SetUpTestSuite() {
    make_dir("heldout-s3-spooled");
    s3_loop(kPrograms, "pairs.py", "--spool");
  }
};

TEST_F(HeldOutS3PairsSpooled, EveryGetCaptured) {
  EXPECT_EQ(truth("checkpoint_parts"), 2);  // the program did what its README says
  expect_every_get();
}

TEST_F(HeldOutS3PairsSpooled, TheSpooledCheckpointIsNotTheDataset) {
  // The temporary file (written by torch.save, read back in 2 reads of 5 MiB by the upload's
  // threads) had been taken for the dataset; it is the checkpoint's local staging now, left out
  // of dataset and checkpoint (stages/spooled_uploads.cpp): the objects are the dataset.
  EXPECT_EQ(job_.dataset.dir.string().rfind("s3://", 0), 0u) << job_.dataset.dir;
  EXPECT_EQ(job_.reader.workers, truth("workers"));
  EXPECT_EQ(job_.reader.batch_size, truth("batch_size"));
  EXPECT_EQ(original("steps"), total("steps_per_epoch")) << row("steps").dump();
  expect_checkpoints_found();
}

// ---- Records of one big object through an fsspec/s3fs-style block cache ------------------------

class HeldOutS3BlockCache : public HeldOutS3<HeldOutS3BlockCache> {
 protected:
  static void SetUpTestSuite() {
    make_dir("heldout-s3-blocks");
    // The job as distilled is refused (DISABLED_DistilledJobRuns): the checkpoints on the
    // store, as a user would make it run.
    s3_loop(kPrograms, "block_cache.py", "--out " + root() + "/out",
            " --set checkpoint.dir=s3://BUCKET/checkpoints");
  }
};

TEST_F(HeldOutS3BlockCache, OneObjectInRangesAndLocalCheckpoints) {
  EXPECT_EQ(truth("gets"), 32);  // the program did what its README says: 8 blocks x 2 x 2
  expect_objects("objects");
  EXPECT_EQ(job_.dataset.sample_size.expected() * job_.dataset.samples_per_file,
            truth("object_bytes"));
  EXPECT_EQ(original("request_size"), truth("block_bytes")) << row("request_size").dump();
  EXPECT_EQ(original("bytes_read"), truth("get_bytes")) << row("bytes_read").dump();
  EXPECT_EQ(job_.reader.workers, truth("workers"));
  EXPECT_EQ(job_.run.epochs, truth("epochs"));
  // torch.save to a local file after each epoch.
  expect_checkpoints_found();
  EXPECT_EQ(job_.checkpoint.every_epochs, 1u);
}

TEST_F(HeldOutS3BlockCache, DistilledJobRuns) {
  // The dataset on the store, checkpoint.dir the local "checkpoints/ds" (the program saved to a
  // local file): run accepts it (had refused it, exit 2, while validate said ok): the default
  // file engine writes the checkpoints, the s3 engine reads the dataset.
  EXPECT_EQ(said("run_as_distilled"), std::string());
}

TEST_F(HeldOutS3BlockCache, DISABLED_RecordsThroughABlockCache) {
  // 1,024 records of 8 KiB, random order, batch 32, 2 workers: 64 steps; each worker's cache
  // fetches each 1 MiB block once an epoch (32 GETs, 32 MiB). Today (branch streamsamples) a
  // stream: 32 "samples" of 256 KiB a file, each a batch's worth, batch 1, 64 steps (right); a
  // batch's one /dev/shm tensor (32 x 8 KiB, no labels) does not tell its samples. The replay
  // deals the one object to one worker's stream: 32 GETs of 1 MiB, 31.5 MiB (bytes_read and
  // read_ops pass), but readers 1 vs 2, epochs 4 vs 2, epoch_bytes_read 8 vs 16 MiB fail.
  // Unchanged at stop 31 (32 "samples" of 256 KiB, batch 1; by hand readers 1 vs 2, epochs 4 vs
  // 2, epoch_bytes_read 7.75 vs 16 MiB, reads_per_file 1 vs 2): with one tensor a batch and no
  // labels nothing in the trace tells 32 records of 8 KiB from one of 256 KiB (the cache serves
  // them from memory; its GETs are 1 MiB blocks in random order either way).
  EXPECT_EQ(job_.dataset.samples_per_file, truth("samples"));
  EXPECT_EQ(job_.dataset.sample_size.expected(), truth("sample_bytes"));
  EXPECT_EQ(job_.reader.batch_size, truth("batch_size"));
  EXPECT_EQ(original("steps"), total("steps_per_epoch")) << row("steps").dump();
  expect_pass({"bytes_read", "read_ops", "readers", "steps"});
}

TEST_F(HeldOutS3BlockCache, ReplayCheckpointObjectsCounted) {
  // With --set checkpoint.dir=s3://... the replay PUTs its 2 checkpoints of 132,063 B; compare
  // counts them in the replay's trace (it had counted none: checkpoints 2 vs 0).
  EXPECT_EQ(replay("checkpoints"), truth("checkpoints")) << row("checkpoints").dump();
}

TEST_F(HeldOutS3BlockCache, HeadHasNoBody) {
  // inspect's http.body_bytes counted each HEAD's Content-Length (the object's 8 MiB, no body
  // sent): 64 MiB for the 32 MiB the GETs moved. Only bodies count since stop 29.
  EXPECT_EQ(said("http")["body_bytes"], truth("get_bytes")) << said("http").dump();
}

// ---- WebDataset tar shards: each worker streams its own shards, one GET each -------------------

class HeldOutS3TarShards : public HeldOutS3<HeldOutS3TarShards> {
 protected:
  static void SetUpTestSuite() {
    make_dir("heldout-s3-shards");
    s3_loop(kPrograms, "tar_shards.py", "");
  }
};

TEST_F(HeldOutS3TarShards, ShardsStreamedPerWorker) {
  EXPECT_EQ(truth("objects"), 8);  // the program did what its README says
  expect_objects("objects");
  EXPECT_EQ(job_.reader.read_unit, dlgen::ReadUnit::stream);
  EXPECT_EQ(job_.reader.shuffle, dlgen::Shuffle::file) << "shards reshuffled each epoch";
  EXPECT_EQ(job_.reader.workers, truth("workers"));
  EXPECT_EQ(job_.run.epochs, truth("epochs"));
  EXPECT_EQ(original("steps"), total("steps_per_epoch")) << row("steps").dump();
  // One GET a shard, its body read in bursts as the workers pulled samples (/http_body): each
  // burst is a read, so the original's reads are at least the GETs.
  EXPECT_GE(original("read_ops"), truth("objects") * truth("epochs")) << row("read_ops").dump();
  expect_pass({"bytes_read", "files_read", "epoch_bytes_read", "reads_per_file", "epochs", "steps",
               "readers", "read_ops"});
}

TEST_F(HeldOutS3TarShards, DISABLED_OneGetAShardInTheReplay) {
  // Each shard (140-150 KiB) is one streamed GET read in bursts (54-61 in all, median 40-47 KiB,
  // 4-16 KiB ones at shards' ends: the tar trailer read after the last batch's handover); the
  // replay fetches it as 3 ranged GETs, one a batch of 8 samples: read_ops passes (54 vs 48).
  // request_size: the replay's GETs had held a batch's bytes exactly (48-51 KiB, KS 0.60-0.70);
  // distil now learns the original's 8 KiB socket granule (reader.stream_granule: 22 of 22 inner
  // reads) and each GET ends on it (45-57 KiB): KS 0.35-0.37 (tolerance 0.32), request_size_emd
  // passes. Left: the original's batches differ within a shard (its first 8 samples 57 KiB, its
  // last ~40 KiB; the replay's samples of a shard are alike) and some of its batches' bursts are
  // split where the worker read its index queue (15-16 KiB and 32 KiB reads); no tail is learned
  // (2 of 16 accesses end in a short read of their own). Branch s3tar: the shards are tar
  // archives (format = "tar", the trailer in the last batch's read), a tar stream reads whole
  // 10 KiB records and distil learns the socket grid's 413 B head (reader.stream_head, 20 of 22
  // inner reads): the replay's GETs are the original's commonest bursts exactly (56,931,
  // 49,152 and 47,517 / 37,277 B), yet KS 0.40 and 0.37 in 2 fresh runs: the original's 54 reads
  // hold 15 split ones (4,509-40,960 B) the replay's 48 do not, and the shards' sizes, drawn a
  // sample at a time from a 2-value histogram, come out 7 of 153,600 B and 1 of 143,360 B for
  // the original's 5 and 3 (request_size_emd fails at 0.15-0.17 for 0.15 since).
  expect_pass({"read_ops", "request_size"});
}

TEST_F(HeldOutS3TarShards, SamplesAndBatchOfTheStream) {
  // 24 samples a shard, batch 8, counted from each batch's /dev/shm tensors (its labels 64 B, its
  // images 221,184 B). It was batch 1 and 3 "samples" a shard, each a batch's worth.
  EXPECT_EQ(job_.reader.batch_size, truth("batch_size"));
  EXPECT_EQ(job_.dataset.samples_per_file, truth("samples_per_shard"));
}

TEST_F(HeldOutS3TarShards, PutObjectCheckpointsEveryEpoch) {
  // The state_dict (277,479 B) put_object as PREFIX/ckpt/latest.pt after each epoch.
  expect_checkpoints_found();
  expect_object_checkpoints_replayed();
}

// Fails on request_size (DISABLED_OneGetAShardInTheReplay: KS 0.37, tolerance 0.32; its EMD row
// passes since the granule), and on au (0.63 vs 0.70, 0.64 vs 0.72) in the runs measured. On
// branch s3tar: request_size (KS 0.40, 0.37), request_size_emd (0.152-0.17, tolerance 0.15: one
// generated shard a record larger) and au (0.60 vs 0.75, 0.63 vs 0.75).
TEST_F(HeldOutS3TarShards, DISABLED_TarShardsReplayPasses) {
  EXPECT_EQ(failed_rows(compared_), "");
}

}  // namespace
