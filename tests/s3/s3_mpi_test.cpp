// `mpirun -np 2 dlgen run` of a job on the real S3 server (issue 21): rank 0's result holds the
// whole job's S3 figures, the ranks' requests added up and their TTFB / TTLB histograms merged
// (docs/metrics.md, "Several ranks"), each rank's own in per_rank[].s3, and the summary prints
// the s3 lines once. Only in builds with MPI and an mpirun (as tests/mpi).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include "dlgen/core/json.hpp"
#include <sstream>
#include <string>

#include "s3_server.hpp"
#include "temp_dir.hpp"

#ifdef DLGEN_MPIEXEC
namespace {

using dlgen::testing::new_bucket;
using dlgen::testing::Outcome;
using dlgen::testing::sh;
using dlgen::testing::TempDir;
namespace fs = std::filesystem;

std::string mpirun(int np) {
  return std::string("'" DLGEN_MPIEXEC "' --allow-run-as-root --oversubscribe -np ") +
         std::to_string(np) + " ";
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::uint64_t u(const nlohmann::json& j) {
  return j.get<std::uint64_t>();
}

// 16 objects of 128 KiB read by 2 ranks of 1 accelerator each, one epoch; one checkpoint of 2
// shards of 1 MiB (one PUT per rank) to the store too. The ranks inherit the server's AWS_*
// variables from mpirun on this host.
TEST(S3Mpi, RankZerosResultHoldsEveryRanksRequests) {
  // mpirun itself must work here (a container without a process manager cannot start ranks): a
  // feature missing, not a failure of dlgen.
  if (const Outcome probe = sh(mpirun(2) + "true"); probe.code != 0)
    GTEST_SKIP() << "mpirun cannot start 2 ranks here: " << probe.out;
  TempDir dir("dlgen-s3-mpi");
  const std::string b = new_bucket();
  std::ofstream(dir / "job.toml")
      << "[job]\nname = \"s3mpi\"\n\n[dataset]\ndir = \"s3://" << b
      << "/ds\"\nnum_files = 16\nfile_size = \"128KiB\"\nformat = \"raw\"\n\n[reader]\n"
         "batch_size = 2\nworkers = 1\n\n[compute]\ntime = \"1ms\"\n\n[checkpoint]\n"
         "every_epochs = 1\nsize = \"2MiB\"\nfiles = 2\ndir = \"s3://"
      << b << "/ckpt\"\n\n[run]\nepochs = 1\naccelerators = 1\n";
  const Outcome run = sh("cd '" + dir.path().string() + "' && DLGEN_NO_PROGRESS=1 timeout 120 " +
                         mpirun(2) + "'" DLGEN_BINARY "' run job.toml -o r.json");
  ASSERT_EQ(run.code, 0) << run.out;
  const nlohmann::json r = nlohmann::json::parse(std::ifstream(dir / "r.json"));
  ASSERT_EQ(r["ranks"], 2u) << r.dump();
  ASSERT_TRUE(r.contains("s3")) << r.dump();
  const nlohmann::json& s = r["s3"];
  // Laws: the job's requests = the sum of the ranks' = GETs + PUTs + parts + control; every rank
  // read some objects; one TTFB per request answered.
  std::uint64_t sum = 0, gets = 0, retries = 0;
  for (const nlohmann::json& row : r["per_rank"]) {
    ASSERT_TRUE(row.contains("s3")) << row.dump();
    EXPECT_GT(u(row["s3"]["gets"]), 0u) << "rank " << row["rank"];
    sum += u(row["s3"]["requests"]);
    gets += u(row["s3"]["gets"]);
    retries += u(row["s3"]["retries"]);
  }
  EXPECT_EQ(u(s["requests"]), sum) << s.dump();
  EXPECT_EQ(u(s["gets"]), gets);
  EXPECT_EQ(u(s["retries"]), retries);
  EXPECT_EQ(u(s["requests"]), u(s["gets"]) + u(s["puts"]) + u(s["parts"]) + u(s["control"]));
  // The readers of both ranks: every object read once (16 GETs over the cluster's requests).
  EXPECT_EQ(u(s["requests"]) - u(s["checkpoint"]["requests"]),
            u(r["totals"]["requests"]) + u(s["retries"]) - u(s["checkpoint"]["retries"]))
      << s.dump();
  // Each rank's 1 MiB shard: one PUT each.
  EXPECT_EQ(u(s["checkpoint"]["puts"]), 2u) << s.dump();
  const std::uint64_t unanswered = u(s["errors"]["timeouts"]) + u(s["errors"]["resets"]);
  EXPECT_EQ(u(s["ttfb_us"]["count"]), u(s["requests"]) - unanswered);
  EXPECT_LE(s["ttfb_us"]["p50"].get<double>(), s["ttlb_us"]["p50"].get<double>());
  // Rank 0's summary: the s3 lines once, with the whole job's requests.
  EXPECT_EQ(occurrences(run.out, "  s3          all ranks: "), 1u) << run.out;
  EXPECT_EQ(occurrences(run.out, "  s3  "), 1u) << run.out;
  EXPECT_NE(run.out.find("all ranks: " + std::to_string(u(s["requests"])) + " HTTP requests"),
            std::string::npos)
      << run.out;
  EXPECT_FALSE(fs::exists(dir / "s3:"));
}

// `mpirun -np 2 dlgen generate` of a dataset of objects: rank 0 claims the prefix (its manifest,
// incomplete), each rank writes the objects at its rank modulo 2, and once both are done rank 0
// marks the manifest complete. boto3 then sees every object at its size, and the run after it
// finds the dataset whole under --no-generate.
TEST(S3Mpi, RanksShareTheGenerationOfObjects) {
  if (const Outcome probe = sh(mpirun(2) + "true"); probe.code != 0)
    GTEST_SKIP() << "mpirun cannot start 2 ranks here: " << probe.out;
  TempDir dir("dlgen-s3-mpi");
  const std::string b = new_bucket();
  std::ofstream(dir / "job.toml")
      << "[job]\nname = \"s3mpigen\"\n\n[dataset]\ndir = \"s3://" << b
      << "/ds\"\nnum_files = 33\nfile_size = \"64KiB\"\nformat = \"raw\"\n\n[reader]\n"
         "batch_size = 3\n\n[compute]\ntime = \"1ms\"\n\n[run]\nepochs = 1\n";
  const std::string cd = "cd '" + dir.path().string() + "' && DLGEN_NO_PROGRESS=1 timeout 120 ";
  const Outcome gen = sh(cd + mpirun(2) + "'" DLGEN_BINARY "' generate job.toml -q");
  ASSERT_EQ(gen.code, 0) << gen.out;
  EXPECT_NE(gen.out.find("generated s3://" + b + "/ds with 2 ranks: 33 files"), std::string::npos)
      << gen.out;
  const Outcome ls = dlgen::testing::s3_check("ls " + b + " ds/");
  ASSERT_EQ(ls.code, 0) << ls.out;
  std::istringstream lines(ls.out);
  int objects = 0;
  bool manifest = false;
  for (std::string key, size; lines >> key >> size;) {
    if (key == "ds/.dlgen-manifest.json") {
      manifest = true;
      continue;
    }
    EXPECT_EQ(size, "65536") << key;
    ++objects;
  }
  EXPECT_EQ(objects, 33);
  EXPECT_TRUE(manifest);
  const Outcome again = sh(cd + mpirun(2) + "'" DLGEN_BINARY "' generate job.toml -q");
  EXPECT_NE(again.out.find("up to date (33 files)"), std::string::npos) << again.out;
  const Outcome run = sh(cd + "'" DLGEN_BINARY "' run job.toml --no-generate -q");
  EXPECT_EQ(run.code, 0) << run.out;
}

// `mpirun -np 2 dlgen run` of a checkpoint-only job on objects: rank 0 claims the prefix, each
// host writes and reads its 4 of the 8 simulated ranks' objects, and the one result holds both
// hosts' bytes, which boto3 finds below each checkpoint's prefix, and both hosts' requests.
TEST(S3Mpi, HostsShareACheckpointOnlyJobOnObjects) {
  if (const Outcome probe = sh(mpirun(2) + "true"); probe.code != 0)
    GTEST_SKIP() << "mpirun cannot start 2 ranks here: " << probe.out;
  TempDir dir("dlgen-s3-mpi");
  const std::string b = new_bucket();
  const Outcome run =
      sh("cd '" + dir.path().string() + "' && DLGEN_NO_PROGRESS=1 timeout 120 " + mpirun(2) +
         "'" DLGEN_BINARY "' run '" DLGEN_SOURCE_DIR
         "/jobs/llama3-8b.toml' --scale small --set checkpoint.dir=s3://" +
         b + "/ckpt -q -o r.json");
  ASSERT_EQ(run.code, 0) << run.out;
  const nlohmann::json r = nlohmann::json::parse(std::ifstream(dir / "r.json"));
  ASSERT_EQ(r["hosts"].size(), 2u) << r.dump();
  const std::uint64_t checkpoint = u(r["config"]["checkpoint_bytes"]);
  EXPECT_EQ(u(r["write"]["count"]), 2u);
  for (const auto& pass : r["read"]["checkpoints"]) EXPECT_EQ(u(pass["bytes"]), checkpoint);
  for (const char* step : {"ckpt/global_epoch1_step1/", "ckpt/global_epoch1_step2/"}) {
    const Outcome ls = dlgen::testing::s3_check("ls " + b + " " + step);
    ASSERT_EQ(ls.code, 0) << ls.out;
    std::istringstream lines(ls.out);
    std::uint64_t bytes = 0;
    for (std::string key, size; lines >> key >> size;) bytes += std::stoull(size);
    EXPECT_EQ(bytes, checkpoint) << step;
  }
  EXPECT_EQ(dlgen::testing::s3_check("uploads " + b).out, "");
  // Both hosts' HTTP requests: every object of the 2 checkpoints one PUT or one multipart
  // upload (initiate, complete), read back with at least one GET each.
  const std::uint64_t objects = 2 * u(r["config"]["checkpoint_files"]);
  const nlohmann::json& w = r["write"]["s3"];
  EXPECT_EQ(u(w["puts"]) + u(w["control"]) / 2, objects) << w.dump();
  EXPECT_GE(u(r["read"]["s3"]["gets"]), objects) << r["read"].dump();
  EXPECT_EQ(u(r["read"]["s3"]["ttlb_us"]["count"]), u(r["read"]["s3"]["requests"]));
}

}  // namespace
#endif
