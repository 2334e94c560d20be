// Checkpoints on the real S3 server (issue 21): the checkpoint-only workflow and `dlgen mlperf`'s
// checkpointing with checkpoint.dir = "s3://BUCKET/PREFIX" (every shard an object, a multipart
// upload past 8 MiB, read back with ranged GETs; v3.0's write phase and read phase as separate
// invocations, the phase record an object), DLIO's object-mode checkpoint config as published,
// the prefix claimed by a manifest object before anything is written (a prefix holding someone
// else's objects is refused), and LIST before a read: a missing object is named with the command
// that writes it, a restore finds its checkpoint rather than writing it again.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include "dlgen/core/json.hpp"
#include <sstream>

#include "s3_server.hpp"
#include "temp_dir.hpp"

namespace {

using dlgen::testing::new_bucket;
using dlgen::testing::Outcome;
using dlgen::testing::s3_check;
using dlgen::testing::sh;
using dlgen::testing::TempDir;
namespace fs = std::filesystem;

Outcome dlgen(const std::string& args, const fs::path& cwd) {
  return sh("cd '" + cwd.string() + "' && DLGEN_NO_PROGRESS=1 timeout 300 '" DLGEN_BINARY "' " +
            args);
}

nlohmann::json read_json(const fs::path& p) {
  return nlohmann::json::parse(std::ifstream(p));
}

// Every "KEY SIZE" line of boto3's listing below `prefix`.
std::vector<std::pair<std::string, std::uint64_t>> listing(const std::string& b,
                                                           const std::string& prefix) {
  const Outcome ls = s3_check("ls " + b + " '" + prefix + "'");
  EXPECT_EQ(ls.code, 0) << ls.out;
  std::vector<std::pair<std::string, std::uint64_t>> out;
  std::istringstream lines(ls.out);
  for (std::string key, size; lines >> key >> size;) out.emplace_back(key, std::stoull(size));
  return out;
}

// llama3-8b at the small scale, widened so that one rank's largest shard passes a part (8 MiB):
// 8 simulated ranks, 2 checkpoints written and 2 read.
const std::string kLlama = "'" DLGEN_SOURCE_DIR
                           "/jobs/llama3-8b.toml' --scale small --set model.hidden_size=512 "
                           "--set model.ffn_hidden_size=1792";

TEST(S3Checkpoint, CheckpointOnlyJobWritesMultipartObjectsAndReadsThemBack) {
  TempDir dir("dlgen-s3-ckpt");
  const std::string b = new_bucket();
  const Outcome run =
      dlgen("run " + kLlama + " --set checkpoint.dir=s3://" + b + "/ckpt -o r.json", dir.path());
  ASSERT_EQ(run.code, 0) << run.out;
  EXPECT_FALSE(fs::exists(dir / "s3:"));
  EXPECT_FALSE(fs::exists(dir / "data"));
  const nlohmann::json r = read_json(dir / "r.json");
  ASSERT_EQ(r["write"]["count"], 2u) << r.dump();
  ASSERT_EQ(r["read"]["count"], 2u) << r.dump();
  // boto3 sees each checkpoint's files under its step prefix, at the sizes the plan gives, the
  // prefix's manifest, and no upload left in progress.
  const auto objects = listing(b, "ckpt/");
  std::uint64_t step1 = 0, step2 = 0, files = 0;
  std::string largest;
  std::uint64_t largest_bytes = 0;
  bool manifest = false;
  for (const auto& [key, size] : objects) {
    if (key == "ckpt/.dlgen-checkpoints.json") {
      manifest = true;
      continue;
    }
    ++files;
    if (key.rfind("ckpt/global_epoch1_step1/", 0) == 0) step1 += size;
    if (key.rfind("ckpt/global_epoch1_step2/", 0) == 0) step2 += size;
    if (size > largest_bytes) largest = key, largest_bytes = size;
  }
  EXPECT_TRUE(manifest);
  const std::uint64_t checkpoint = r["config"]["checkpoint_bytes"].get<std::uint64_t>();
  EXPECT_EQ(step1, checkpoint);
  EXPECT_EQ(step2, checkpoint);
  EXPECT_EQ(files, 2 * r["config"]["checkpoint_files"].get<std::uint64_t>());
  // Past 8 MiB an object is a multipart upload: S3 gives it an ETag ending "-PARTS".
  ASSERT_GT(largest_bytes, 8u << 20) << "the job's shards are too small to need parts";
  const Outcome etag = s3_check("etag " + b + " " + largest);
  EXPECT_NE(etag.out.find("-2"), std::string::npos) << largest << ": " << etag.out;
  EXPECT_EQ(s3_check("uploads " + b).out, "");
  // Every checkpoint was read back whole (a torn one is an error), from the store.
  for (const auto& pass : r["read"]["checkpoints"]) EXPECT_EQ(pass["bytes"], checkpoint);
  EXPECT_EQ(r["page_cache"]["method"], "object store") << r["page_cache"].dump();
}

TEST(S3Checkpoint, AReadPhaseNamesTheMissingObjectsAndTheWritePhase) {
  TempDir dir("dlgen-s3-ckpt");
  const std::string b = new_bucket();
  const Outcome run = dlgen("run " + kLlama + " --set checkpoint.dir=s3://" + b +
                                "/ckpt --set checkpoint.writes=0 --set checkpoint.reads=1",
                            dir.path());
  EXPECT_EQ(run.code, 1) << run.out;
  EXPECT_NE(run.out.find("checkpoint object(s) to read are missing"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("s3://" + b + "/ckpt/global_epoch1_step1/"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("--set checkpoint.writes=1 --set checkpoint.reads=0"), std::string::npos)
      << run.out;
  EXPECT_EQ(run.out.find("404"), std::string::npos) << run.out;
  // Refused before anything was written: not even the prefix's claim.
  EXPECT_TRUE(listing(b, "ckpt/").empty());
  // The same under `dlgen mlperf`'s v3.0 read phase.
  const Outcome ml = dlgen("mlperf " + kLlama + " --accelerator b200 --set checkpoint.dir=s3://" +
                               b + "/ckpt --set checkpoint.writes=0 --output-dir r",
                           dir.path());
  EXPECT_EQ(ml.code, 1) << ml.out;
  EXPECT_NE(ml.out.find("checkpoint object(s) to read are missing"), std::string::npos) << ml.out;
  EXPECT_TRUE(listing(b, "").empty());
}

// --engine null does no I/O: with checkpoints (and a dataset) on an s3:// location it runs
// without contacting the store at all. With the server's endpoint nothing appears in the bucket
// (no manifest, no object); with an endpoint where nothing listens the runs still succeed, so
// not one request (GET, LIST or PUT) was sent.
TEST(S3Checkpoint, TheNullEngineNeverContactsTheStore) {
  TempDir dir("dlgen-s3-ckpt");
  const std::string b = new_bucket();
  std::ofstream(dir / "train.toml")
      << "[job]\nname = \"s3null\"\n\n[dataset]\ndir = \"s3://" << b
      << "/ds\"\nnum_files = 8\nfile_size = \"128KiB\"\n\n[reader]\nbatch_size = 4\n\n"
         "[compute]\ntime = \"1ms\"\n\n[checkpoint]\nevery_epochs = 1\nsize = \"20MiB\"\n"
         "files = 2\nrestore = true\ndir = \"s3://"
      << b << "/ckpt\"\n\n[run]\nepochs = 2\n";
  const std::string llama = "run " + kLlama + " --set checkpoint.dir=s3://" + b +
                            "/ck --set checkpoint.keep=1 --engine null";
  const std::string mlperf = "mlperf " + kLlama + " --accelerator b200 --set checkpoint.dir=s3://" +
                             b + "/ml --engine null";
  const std::string dead = "AWS_ENDPOINT_URL=http://127.0.0.1:9 ";
  for (const std::string& env : {std::string(), dead}) {
    const Outcome ck =
        sh("cd '" + dir.path().string() + "' && " + env +
           "DLGEN_NO_PROGRESS=1 timeout 300 '" DLGEN_BINARY "' " + llama + " -o ck.json");
    ASSERT_EQ(ck.code, 0) << env << ck.out;
    const nlohmann::json r = read_json(dir / "ck.json");
    EXPECT_EQ(r["write"]["count"], 2u);
    EXPECT_EQ(r["read"]["count"], 2u);
    EXPECT_FALSE(r["write"].contains("s3")) << r["write"].dump();  // no HTTP request was sent
    EXPECT_EQ(r["page_cache"]["method"], "no storage");
    const Outcome train = sh("cd '" + dir.path().string() + "' && " + env +
                             "DLGEN_NO_PROGRESS=1 timeout 300 '" DLGEN_BINARY
                             "' run train.toml --engine null -q -o t.json");
    ASSERT_EQ(train.code, 0) << env << train.out;
    EXPECT_FALSE(read_json(dir / "t.json").contains("s3"));
    const Outcome ml = sh("cd '" + dir.path().string() + "' && " + env +
                          "DLGEN_NO_PROGRESS=1 timeout 300 '" DLGEN_BINARY "' " + mlperf +
                          " --set checkpoint.reads=0 --output-dir ml" + (env.empty() ? "1" : "2"));
    ASSERT_EQ(ml.code, 0) << env << ml.out;
    EXPECT_NE(ml.out.find("engine null stores nothing, so no phase record is kept"),
              std::string::npos)
        << ml.out;
    EXPECT_TRUE(listing(b, "").empty()) << env;
  }
  EXPECT_FALSE(fs::exists(dir / "s3:"));
}

TEST(S3Checkpoint, APrefixHoldingOthersObjectsIsNeverWritten) {
  TempDir dir("dlgen-s3-ckpt");
  const std::string b = new_bucket();
  ASSERT_EQ(s3_check("put " + b + " theirs/global_epoch1_step1/model.pt 1000").code, 0);
  const Outcome run =
      dlgen("run " + kLlama + " --set checkpoint.dir=s3://" + b + "/theirs", dir.path());
  EXPECT_EQ(run.code, 1) << run.out;
  EXPECT_NE(run.out.find("s3://" + b +
                         "/theirs: holds objects (theirs/global_epoch1_step1/"
                         "model.pt) and no dlgen checkpoint manifest"),
            std::string::npos)
      << run.out;
  const auto objects = listing(b, "theirs/");
  ASSERT_EQ(objects.size(), 1u);  // nothing added, nothing replaced
  EXPECT_EQ(s3_check("verify " + b + " theirs/global_epoch1_step1/model.pt 1000").out, "ok\n");
}

// MLPerf Storage v3.0 (rule 4.7.1) on objects: a write-phase invocation leaves its end time as an
// object of the checkpoint prefix; the read-phase invocation after it reads the write phase's
// checkpoints with GETs and finds the record.
TEST(S3Checkpoint, MlperfWritePhaseThenReadPhaseOnObjects) {
  TempDir dir("dlgen-s3-ckpt");
  const std::string b = new_bucket();
  const std::string job = kLlama + " --accelerator b200 --set checkpoint.dir=s3://" + b + "/ck";
  const Outcome w = dlgen("mlperf " + job + " --set checkpoint.reads=0 --output-dir w", dir.path());
  ASSERT_EQ(w.code, 0) << w.out;
  EXPECT_NE(w.out.find("1 run(s) x (2 written + 0 read)"), std::string::npos) << w.out;
  const Outcome record = s3_check("stat " + b + " ck/dlgen-checkpoint-phase.json");
  ASSERT_EQ(record.code, 0) << record.out;
  // results.json carries the runs' HTTP requests: the write phase's objects were each one PUT
  // or one multipart upload (initiate and complete), and it sent no GET.
  const nlohmann::json wr = read_json(dir / "w/results.json");
  ASSERT_TRUE(wr.contains("s3")) << wr.dump();
  const nlohmann::json& ws = wr["s3"]["write"];
  const std::uint64_t objects = listing(b, "ck/global_epoch1_step").size();
  const auto u = [](const nlohmann::json& j) { return j.get<std::uint64_t>(); };
  EXPECT_EQ(u(ws["puts"]) + u(ws["control"]) / 2, objects) << ws.dump();
  EXPECT_EQ(u(ws["gets"]), 0u);
  EXPECT_EQ(u(ws["ttlb_us"]["count"]), u(ws["requests"]));
  EXPECT_TRUE(wr["s3"]["read"].is_null()) << wr["s3"].dump();
  EXPECT_EQ(wr["runs"][0]["write"]["s3"], ws);  // one run: its requests are all of them
  const Outcome r =
      dlgen("mlperf " + job + " --set checkpoint.writes=0 --output-dir r", dir.path());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("1 run(s) x (0 written + 2 read)"), std::string::npos) << r.out;
  const std::string reasons = read_json(dir / "r/results.json")["reasons"].dump();
  EXPECT_NE(reasons.find("after the write phase ended (rule 4.7.1: within 30 s)"),
            std::string::npos)
      << reasons;
  const nlohmann::json rs = read_json(dir / "r/results.json")["s3"]["read"];
  EXPECT_GE(u(rs["gets"]), objects) << rs.dump();  // every object read, to its end
  EXPECT_EQ(u(rs["requests"]), u(rs["gets"]));
  EXPECT_EQ(u(rs["ttfb_us"]["count"]), u(rs["requests"]));
  EXPECT_LE(rs["ttfb_us"]["p50"].get<double>(), rs["ttlb_us"]["p50"].get<double>());
  EXPECT_FALSE(fs::exists(dir / "s3:"));
  EXPECT_EQ(s3_check("uploads " + b).out, "");
}

// MLPerf's object-mode checkpoint config (tests/data/dlio/s3/llama3_8b_checkpoint_minio.yaml, as
// published) run by `dlgen run CONFIG.yaml`: the checkpoints go to the s3:// checkpoint_folder it
// names. Only the model is shrunk, the pause cut and the bucket renamed, by Hydra overrides; the
// endpoint is the environment's (the test server's), which wins over the config's.
const std::string kShrinkLlama =
    " ++workload.model.num_layers=2 "
    "++workload.model.transformer.hidden_size=256 "
    "++workload.model.transformer.ffn_hidden_size=896 "
    "++workload.model.transformer.vocab_size=2000 "
    "++workload.model.transformer.num_attention_heads=8 "
    "++workload.model.transformer.num_kv_heads=2 "
    "++workload.checkpoint.time_between_checkpoints=0 "
    "++workload.checkpoint.num_checkpoints_write=1 ++workload.checkpoint.num_checkpoints_read=1";

TEST(S3Checkpoint, DliosObjectCheckpointConfigRunsAsItIs) {
  TempDir dir("dlgen-s3-ckpt");
  const std::string b = new_bucket();
  const std::string shrink = " ++workload.storage.storage_root=" + b +
                             " ++workload.checkpoint.checkpoint_folder=s3://" + b +
                             "/minio/llama3-8b" + kShrinkLlama;
  const Outcome run =
      dlgen("run '" DLGEN_SOURCE_DIR "/tests/data/dlio/s3/llama3_8b_checkpoint_minio.yaml'" +
                shrink + " -o r.json",
            dir.path());
  ASSERT_EQ(run.code, 0) << run.out;
  const nlohmann::json r = read_json(dir / "r.json");
  EXPECT_EQ(r["config"]["ranks"], 8u) << r.dump();
  std::uint64_t bytes = 0;
  for (const auto& [key, size] : listing(b, "minio/llama3-8b/global_epoch1_step1/")) bytes += size;
  EXPECT_EQ(bytes, r["config"]["checkpoint_bytes"].get<std::uint64_t>());
  EXPECT_FALSE(fs::exists(dir / "s3:"));
}

// The same config with a relative checkpoint_folder, as DLIO's pt_s3_save takes it: a prefix
// below storage_root (s3://BUCKET/checkpoints/llama3/...), never a local folder.
TEST(S3Checkpoint, ADliosRelativeCheckpointFolderIsAPrefixOfTheBucket) {
  TempDir dir("dlgen-s3-ckpt");
  const std::string b = new_bucket();
  const Outcome run = dlgen("run '" DLGEN_SOURCE_DIR
                            "/tests/data/dlio/s3/llama3_8b_checkpoint_minio.yaml' "
                            "++workload.storage.storage_root=" +
                                b + " ++workload.checkpoint.checkpoint_folder=checkpoints/llama3" +
                                kShrinkLlama + " -o r.json",
                            dir.path());
  ASSERT_EQ(run.code, 0) << run.out;
  EXPECT_NE(run.out.find("checkpoints are objects below s3://" + b + "/checkpoints/llama3"),
            std::string::npos)
      << run.out;
  const nlohmann::json r = read_json(dir / "r.json");
  EXPECT_EQ(r["config"]["dir"], "s3://" + b + "/checkpoints/llama3");
  std::uint64_t bytes = 0;
  for (const auto& [key, size] : listing(b, "checkpoints/llama3/global_epoch1_step1/"))
    bytes += size;
  EXPECT_EQ(bytes, r["config"]["checkpoint_bytes"].get<std::uint64_t>());
  EXPECT_FALSE(fs::exists(dir / "checkpoints"));
  EXPECT_FALSE(fs::exists(dir / "s3:"));
}

// A training job's restore LISTs first: the first run writes the checkpoint its restore reads
// before the replay (untimed, outside its figures: its parts are epoch 1's alone), the second
// finds the one the first left and reads it back whole, in ranged GETs of checkpoint.read_size
// (the first in GETs of its write size, 4 MiB).
TEST(S3Checkpoint, ARestoreFindsItsCheckpointByListing) {
  TempDir dir("dlgen-s3-ckpt");
  const std::string b = new_bucket();
  std::ofstream(dir / "ckpt.toml")
      << "[job]\nname = \"s3restore\"\n\n[dataset]\ndir = \"s3://" << b
      << "/ds\"\nnum_files = 8\nfile_size = \"128KiB\"\n\n[reader]\nbatch_size = 4\n\n"
         "[compute]\ntime = \"1ms\"\n\n[checkpoint]\nevery_epochs = 1\nsize = \"20MiB\"\n"
         "files = 2\nrestore = true\ndir = \"s3://"
      << b << "/ckpt\"\n\n[run]\nepochs = 1\n";
  const Outcome first = dlgen("run ckpt.toml -q -o 1.json", dir.path());
  ASSERT_EQ(first.code, 0) << first.out;
  const Outcome second =
      dlgen("run ckpt.toml -q -o 2.json --set checkpoint.read_size=2MiB", dir.path());
  ASSERT_EQ(second.code, 0) << second.out;
  const nlohmann::json one = read_json(dir / "1.json")["s3"]["checkpoint"];
  const nlohmann::json two = read_json(dir / "2.json")["s3"]["checkpoint"];
  // 2 shards of 10 MiB: 2 parts each per checkpoint written.
  EXPECT_EQ(one["parts"], 4u) << one.dump();  // epoch 1's alone
  EXPECT_EQ(two["parts"], 4u) << two.dump();  // epoch 1's alone
  EXPECT_EQ(read_json(dir / "1.json")["checkpoint"]["restore_bytes"], 20u << 20);
  EXPECT_EQ(read_json(dir / "2.json")["checkpoint"]["restore_bytes"], 20u << 20);
  // 2 shards of 10 MiB read back: 3 GETs each of at most 4 MiB (8 GETs in all with the prefix's
  // own), 5 each of 2 MiB (12).
  EXPECT_EQ(one["gets"], 8u) << one.dump();
  EXPECT_EQ(two["gets"].get<std::uint64_t>() - one["gets"].get<std::uint64_t>(), 2u * (5 - 3))
      << two.dump();
}

// A dataset of objects whose manifest matches but which lost an object: `run --no-generate` names
// it and the command that writes it (no 404 from a worker), and `generate` writes that one alone.
TEST(S3Checkpoint, AMissingDatasetObjectIsNamedAndWrittenAlone) {
  TempDir dir("dlgen-s3-ckpt");
  const std::string b = new_bucket();
  std::ofstream(dir / "s3.toml") << "[job]\nname = \"s3gap\"\n\n[dataset]\ndir = \"s3://" << b
                                 << "/ds\"\nnum_files = 16\nfile_size = \"64KiB\"\nformat = "
                                    "\"raw\"\n\n[reader]\nbatch_size = 4\n\n[compute]\ntime = "
                                    "\"1ms\"\n\n[run]\nepochs = 1\n";
  ASSERT_EQ(dlgen("generate s3.toml -q", dir.path()).code, 0);
  const auto objects = listing(b, "ds/");
  std::string victim;
  for (const auto& [key, size] : objects)
    if (key.find(".dlgen") == std::string::npos) victim = key;
  ASSERT_FALSE(victim.empty());
  ASSERT_EQ(s3_check("rm " + b + " " + victim).code, 0);
  const Outcome run = dlgen("run s3.toml --no-generate -q", dir.path());
  EXPECT_EQ(run.code, 1) << run.out;
  EXPECT_NE(run.out.find("1 of its 16 objects are missing or of another size (" + victim + ")"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("dlgen generate s3.toml"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("404"), std::string::npos) << run.out;
  const Outcome gen = dlgen("generate s3.toml -q", dir.path());
  ASSERT_EQ(gen.code, 0) << gen.out;
  EXPECT_NE(gen.out.find("wrote 1 files"), std::string::npos) << gen.out;
  EXPECT_EQ(listing(b, "ds/").size(), objects.size());
  EXPECT_EQ(dlgen("run s3.toml --no-generate -q", dir.path()).code, 0);
}

}  // namespace
