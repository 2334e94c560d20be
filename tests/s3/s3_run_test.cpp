// `dlgen generate` and `dlgen run` on a dataset of objects (dataset.dir = "s3://BUCKET/PREFIX")
// against the real S3 server: the objects are the bytes dlgen writes to files (boto3 reads them),
// the manifest is an object, a prefix holding someone else's objects is refused, and the replay
// against S3 reads the bytes and makes the requests the same job makes on local files.
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

// 64 objects of 128 KiB, 2 reader workers, 2 epochs.
std::string job_text(const std::string& dir) {
  return "[job]\nname = \"s3small\"\n\n[dataset]\ndir = \"" + dir +
         "\"\nnum_files = 64\nfile_size = \"128KiB\"\nformat = \"raw\"\n\n[reader]\nbatch_size = "
         "4\nworkers = 2\n\n[compute]\ntime = \"1ms\"\n\n[run]\nepochs = 2\naccelerators = 1\n";
}

Outcome dlgen(const std::string& args, const fs::path& cwd) {
  return sh("cd '" + cwd.string() + "' && DLGEN_NO_PROGRESS=1 timeout 300 '" DLGEN_BINARY "' " +
            args);
}

nlohmann::json read_json(const fs::path& p) {
  return nlohmann::json::parse(std::ifstream(p));
}

TEST(S3Run, GenerateWritesObjectsAndRunReadsThemAsOnFiles) {
  TempDir dir("dlgen-s3-run");
  const std::string b = new_bucket();
  std::ofstream(dir / "s3.toml") << job_text("s3://" + b + "/ds");
  std::ofstream(dir / "local.toml") << job_text((dir / "data").string());

  const Outcome gen = dlgen("generate s3.toml -q", dir.path());
  ASSERT_EQ(gen.code, 0) << gen.out;
  EXPECT_NE(gen.out.find("s3://" + b + "/ds: wrote 64 files"), std::string::npos) << gen.out;
  EXPECT_FALSE(fs::exists(dir / "s3:"));
  // boto3 sees 64 objects and the manifest, and object 0 holds the bytes of the local file 0.
  const Outcome ls = s3_check("ls " + b + " ds/");
  ASSERT_EQ(ls.code, 0) << ls.out;
  std::istringstream lines(ls.out);
  int objects = 0;
  bool manifest = false;
  std::string first_key;
  for (std::string key, size; lines >> key >> size;) {
    if (key == "ds/.dlgen-manifest.json") {
      manifest = true;
      continue;
    }
    if (first_key.empty()) first_key = key;
    EXPECT_EQ(size, "131072") << key;
    ++objects;
  }
  EXPECT_EQ(objects, 64);
  EXPECT_TRUE(manifest);
  ASSERT_EQ(dlgen("generate local.toml -q", dir.path()).code, 0);
  const std::string local = (dir / "data" / fs::path(first_key).filename()).string();
  const Outcome md5 = sh("md5sum < '" + local + "'");
  const Outcome obj = s3_check("stat " + b + " " + first_key);
  ASSERT_EQ(obj.code, 0) << obj.out;
  EXPECT_EQ(obj.out.substr(obj.out.find(' ') + 1, 32), md5.out.substr(0, 32)) << first_key;

  const Outcome again = dlgen("generate s3.toml -q", dir.path());
  EXPECT_NE(again.out.find("up to date (64 files)"), std::string::npos) << again.out;

  // The replay against S3 (the s3 engine, picked for an s3:// dataset) and on local files.
  const Outcome run = dlgen("run s3.toml --no-generate -q -o s3.json", dir.path());
  ASSERT_EQ(run.code, 0) << run.out;
  ASSERT_EQ(dlgen("run local.toml --engine pread --no-generate -q -o local.json", dir.path()).code,
            0);
  const nlohmann::json s3 = read_json(dir / "s3.json"), files = read_json(dir / "local.json");
  EXPECT_EQ(s3["totals"]["bytes_read"], 2u * 64u * 131072u);
  EXPECT_EQ(s3["totals"]["bytes_read"], files["totals"]["bytes_read"]);
  EXPECT_EQ(s3["totals"]["requests"], files["totals"]["requests"]);
  EXPECT_EQ(s3["totals"]["samples"], 2u * 64u);
}

TEST(S3Run, APrefixHoldingOthersObjectsIsNeverWritten) {
  TempDir dir("dlgen-s3-run");
  const std::string b = new_bucket();
  ASSERT_EQ(s3_check("put " + b + " theirs/keep.bin 1000").code, 0);
  std::ofstream(dir / "s3.toml") << job_text("s3://" + b + "/theirs");
  const Outcome gen = dlgen("generate s3.toml -q", dir.path());
  EXPECT_EQ(gen.code, 1) << gen.out;
  EXPECT_NE(gen.out.find("s3://" + b +
                         "/theirs: holds objects (theirs/keep.bin) and no dlgen "
                         "manifest"),
            std::string::npos)
      << gen.out;
  const Outcome ls = s3_check("ls " + b + " theirs/");
  EXPECT_EQ(ls.out, "theirs/keep.bin 1000\n");  // nothing added, nothing replaced
  EXPECT_EQ(s3_check("verify " + b + " theirs/keep.bin 1000").out, "ok\n");
}

// Checkpoints of a training job on an s3:// dataset go to the store too: each shard an object
// written as a multipart upload (10 MiB: two parts), read back by the restore, whole in boto3's
// eyes, no upload left in progress, and the prefix claimed by dlgen's manifest object.
TEST(S3Run, CheckpointsAreMultipartObjectsReadBackByTheRestore) {
  TempDir dir("dlgen-s3-run");
  const std::string b = new_bucket();
  std::ofstream(dir / "ckpt.toml")
      << "[job]\nname = \"s3ckpt\"\n\n[dataset]\ndir = \"s3://" << b
      << "/ds\"\nnum_files = 16\nfile_size = \"128KiB\"\n\n[reader]\nbatch_size = 4\n\n"
         "[compute]\ntime = \"1ms\"\n\n[checkpoint]\nevery_epochs = 1\nsize = \"20MiB\"\n"
         "files = 2\nrestore = true\ndir = \"s3://"
      << b << "/ckpt\"\n\n[run]\nepochs = 2\n";
  const Outcome run = dlgen("run ckpt.toml -q -o r.json", dir.path());
  ASSERT_EQ(run.code, 0) << run.out;
  const nlohmann::json r = read_json(dir / "r.json");
  EXPECT_EQ(r["checkpoint"]["bytes"], 2u * (20u << 20)) << r["checkpoint"].dump();
  EXPECT_EQ(r["checkpoint"]["restore_bytes"], 20u << 20) << r["checkpoint"].dump();
  // The shards, and the manifest object that claimed the prefix for dlgen before the first write.
  const std::string ls = s3_check("ls " + b + " ckpt/").out;
  EXPECT_EQ(ls.substr(ls.find('\n') + 1),
            "ckpt/checkpoint-0-of-2.dlgen 10485760\nckpt/checkpoint-1-of-2.dlgen 10485760\n");
  EXPECT_EQ(ls.rfind("ckpt/.dlgen-checkpoints.json ", 0), 0u) << ls;
  EXPECT_EQ(s3_check("uploads " + b).out, "");
  EXPECT_FALSE(fs::exists(dir / "s3:"));
}

}  // namespace
