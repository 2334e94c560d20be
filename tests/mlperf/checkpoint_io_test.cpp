// The one checkpoint writer (checkpoint_io.hpp): the training replay's checkpoints and the
// checkpoint-only workflow write through it on the engine they are given, so for the same seed
// both write the same bytes on every engine; O_DIRECT applies through the engine; a diskless
// engine writes no file; an unknown engine is refused with the registered names.
#include "dlgen/replay/checkpoint_io.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "dlgen/core/job_io.hpp"
#include "dlgen/core/llm.hpp"
#include "dlgen/replay/checkpoint.hpp"
#include "dlgen/mlperf/checkpoint_workflow.hpp"
#include "dlgen/replay/own_files.hpp"
#include "replay_fixture.hpp"
#include "temp_dir.hpp"

namespace dlgen::replay {
namespace {

using dlgen::testing::TempDir;
using mlperf::CheckpointRunOptions;
using mlperf::CheckpointRunResult;
using mlperf::run_checkpoint_workflow;
using fixture::direct_supported;
using fixture::uring_available;

std::vector<std::string> posix_engines() {
  std::vector<std::string> out = {"pread"};
  if (uring_available()) out.push_back("uring");
  return out;
}

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A checkpoint-only job without a model: one rank writing one file of `size`, written once and
// read once.
Job workflow_job(const std::filesystem::path& dir, const std::string& size) {
  const std::string toml = "[job]\nname = \"one\"\n[checkpoint]\nwrites = 1\nreads = 1\nsize = \"" +
                           size + "\"\nfiles = 1\nwrite_size = \"64KiB\"\nfsync = false\ndir = \"" +
                           dir.string() + "\"\n[run]\ntrain = false\n";
  Result<Job> j = parse_job(toml, "one.toml");
  EXPECT_TRUE(j) << (j ? "" : j.error().message);
  return j ? *j : Job{};
}

CheckpointSpec training_spec(const std::filesystem::path& dir, std::uint64_t bytes) {
  CheckpointSpec c;
  c.enabled = true;
  c.dir = dir;
  c.files = 1;
  c.size_bytes = bytes;
  c.write_size_bytes = 64 << 10;
  c.fsync = false;
  return c;
}

// The workflow's checkpoint 1 (rank 0, file 0) and the training replay's second checkpoint (count
// 1, shard 0) draw the same content stream: written by one writer, they are the same bytes, on
// every engine.
TEST(CheckpointWriter, TrainingAndWorkflowCheckpointsAreTheSameBytesOnEveryEngine) {
  TempDir tmp("dlgen-ckio");
  std::string first;
  for (const std::string& engine : posix_engines()) {
    SCOPED_TRACE(engine);
    const Job job = workflow_job(tmp / ("wf-" + engine), "1000000");
    const std::vector<RankShard> shards = host_shards(job);
    ASSERT_EQ(shards.size(), 1u);
    ASSERT_EQ(shards[0].files.size(), 1u);
    const ShardFile& file = shards[0].files[0];
    CheckpointRunOptions o;
    o.engine = engine;
    o.drop_caches = false;
    Result<CheckpointRunResult> wf = run_checkpoint_workflow(job, o);
    ASSERT_TRUE(wf) << wf.error().message;

    const CheckpointSpec spec = training_spec(tmp / ("train-" + engine), file.bytes);
    CheckpointResult into;
    into.count = 1;
    ASSERT_TRUE(write_checkpoint(spec, into, engine));

    const std::string workflow_bytes =
        slurp(job.checkpoint.dir / "global_epoch1_step1" / file.name);
    const std::string training_bytes = slurp(checkpoint_paths(spec)[0]);
    ASSERT_EQ(workflow_bytes.size(), file.bytes);
    EXPECT_TRUE(workflow_bytes == training_bytes) << "the two paths wrote different bytes";
    if (first.empty()) first = training_bytes;
    EXPECT_TRUE(first == training_bytes) << "the engines wrote different bytes";
  }
}

// Written with O_DIRECT through the engine, a checkpoint leaves at most its buffered tail in the
// page cache; written buffered, all of it stays there.
TEST(CheckpointWriter, DirectWritesBypassThePageCacheOnEveryPosixEngine) {
  TempDir tmp("dlgen-ckio");
  if (!direct_supported(tmp.path())) GTEST_SKIP() << "no O_DIRECT on " << tmp.path();
  constexpr std::uint64_t kBytes = (4 << 20) + 100;  // an unaligned tail, written buffered
  for (const std::string& engine : posix_engines()) {
    for (bool direct : {true, false}) {
      SCOPED_TRACE(engine + (direct ? " O_DIRECT" : " buffered"));
      CheckpointSpec spec =
          training_spec(tmp / (engine + (direct ? "-direct" : "-buffered")), kBytes);
      spec.direct = direct;
      CheckpointResult into;
      ASSERT_TRUE(write_checkpoint(spec, into, engine));
      Result<own::Residency> r = own::residency(checkpoint_paths(spec));
      ASSERT_TRUE(r) << r.error().message;
      EXPECT_EQ(r->total_bytes, kBytes);
      if (direct)
        EXPECT_LE(r->resident_bytes, 2u * 4096) << "only the tail's page";
      else
        EXPECT_EQ(r->resident_bytes, kBytes) << "all of it, written through the page cache";
    }
  }
}

// A request size that is not a multiple of 4 KiB (a distilled job's: the traced program wrote
// 4,109,184-byte pieces): the engine's pool rounds its memory up to the alignment, but every read
// back must ask for no more than the buffer's size, buffered and with O_DIRECT (the merge of the
// one writer asked for the rounded size and the uring engine aborted: "got a request of 4112384
// bytes ... but its buffers are 4109184 bytes").
TEST(CheckpointWriter, UnalignedRequestSizeWritesAndReadsBackOnEveryEngine) {
  TempDir tmp("dlgen-ckio");
  constexpr std::uint64_t kPiece = 4109184;
  constexpr std::uint64_t kBytes = 2 * kPiece + 12345;
  for (const std::string& engine : posix_engines()) {
    for (bool direct : {false, true}) {
      if (direct && !direct_supported(tmp.path())) continue;
      SCOPED_TRACE(engine + (direct ? " O_DIRECT" : " buffered"));
      CheckpointSpec spec =
          training_spec(tmp / (engine + (direct ? "-direct" : "-buffered")), kBytes);
      spec.write_size_bytes = kPiece;
      spec.direct = direct;
      CheckpointResult into;
      ASSERT_TRUE(write_checkpoint(spec, into, engine));
      EXPECT_EQ(std::filesystem::file_size(checkpoint_paths(spec)[0]), kBytes);
      Result<void> back = restore_checkpoint(spec, into, engine);
      ASSERT_TRUE(back) << back.error().message;
      EXPECT_EQ(into.restore_bytes, kBytes);
    }
  }
}

TEST(CheckpointWriter, DisklessEngineWritesNoFileAndCountsTheBytes) {
  TempDir tmp("dlgen-ckio");
  const CheckpointSpec spec = training_spec(tmp / "null", 300000);
  CheckpointResult into;
  ASSERT_TRUE(write_checkpoint(spec, into, "null"));
  EXPECT_EQ(into.bytes, 300000u);
  EXPECT_EQ(into.count, 1u);
  EXPECT_FALSE(std::filesystem::exists(checkpoint_paths(spec)[0]));
  ASSERT_TRUE(restore_checkpoint(spec, into, "null"));
  EXPECT_EQ(into.restore_bytes, 300000u);
}

TEST(CheckpointWriter, UnknownEngineIsRefusedWithTheRegisteredNames) {
  TempDir tmp("dlgen-ckio");
  CheckpointResult into;
  Result<void> r = write_checkpoint(training_spec(tmp / "x", 4096), into, "aio");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::bad_input);
  EXPECT_NE(r.error().message.find("expected uring, pread, null or s3"), std::string::npos)
      << r.error().message;
  CheckpointRunOptions o;
  o.engine = "aio";
  o.drop_caches = false;
  Result<CheckpointRunResult> wf = run_checkpoint_workflow(workflow_job(tmp / "wf", "4096"), o);
  ASSERT_FALSE(wf);
  EXPECT_NE(wf.error().message.find("expected uring, pread, null or s3"), std::string::npos)
      << wf.error().message;
}

// The reader-back refuses a file shorter than the checkpoint wrote (a torn checkpoint).
TEST(CheckpointWriter, ReadBackOfATornFileNamesIt) {
  TempDir tmp("dlgen-ckio");
  for (const std::string& engine : posix_engines()) {
    SCOPED_TRACE(engine);
    Result<CheckpointIo> io = CheckpointIo::open({.engine = engine, .request_bytes = 8192});
    ASSERT_TRUE(io) << io.error().message;
    Result<own::Fd> dir = own::open_dir(tmp.path());
    ASSERT_TRUE(dir);
    const CheckpointFile f{dir->get(), "torn-" + engine, tmp / ("torn-" + engine), 50000};
    ASSERT_TRUE(io->write(f, 1, 2, nullptr));
    CheckpointFile longer = f;
    longer.bytes = 60000;
    Result<std::uint64_t> n = io->read(longer, false, nullptr, nullptr);
    ASSERT_FALSE(n);
    EXPECT_NE(
        n.error().message.find(f.path.string() + ": read 50000 bytes, the checkpoint wrote 60000"),
        std::string::npos)
        << n.error().message;
    EXPECT_EQ(*io->read(f, false, nullptr, nullptr), 50000u);
  }
}

}  // namespace
}  // namespace dlgen::replay
