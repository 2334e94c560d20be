// The dlgen binary as a user meets it (cli/): exit codes (0 ok, 1 runtime failure, 2 bad usage or
// bad input), --help of every verb, bad flags and unknown verbs, a job with a misspelt key named
// by file, line and key, a tiny replay on the null engine writing its JSON, `generate` then
// `run --no-generate`, and one path for one process and many: `dlgen run` without mpirun is a
// cluster of one, so its result carries every key the `mpirun -np 2` result does.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include "dlgen/core/json.hpp"
#include <set>
#include <string>

#include "shell.hpp"
#include "temp_dir.hpp"

namespace {

using dlgen::testing::Outcome;
using dlgen::testing::sh;
using dlgen::testing::TempDir;
namespace fs = std::filesystem;

// dlgen ARGS in `cwd` (no progress bars; a timeout so that a hang fails instead of blocking).
Outcome dlgen(const std::string& args, const fs::path& cwd = fs::temp_directory_path()) {
  return sh("cd '" + cwd.string() + "' && DLGEN_NO_PROGRESS=1 timeout 120 '" DLGEN_BINARY "' " +
            args);
}

void write(const fs::path& p, const std::string& text) {
  std::ofstream(p) << text;
}

// 16 files of 16 KiB, 2 accelerators, 2 epochs: seconds at most on any engine.
std::string tiny_job(const fs::path& data) {
  return "[job]\nname = \"tiny\"\n\n[dataset]\ndir = \"" + data.string() +
         "\"\nnum_files = 16\nfile_size = \"16KiB\"\nformat = \"raw\"\n\n[reader]\nbatch_size = "
         "2\nworkers = 1\n\n[compute]\ntime = \"1ms\"\n\n[run]\nepochs = 2\naccelerators = 2\n";
}

// Every key path of a JSON document ("totals.samples", "epochs[].seconds").
void key_paths(const nlohmann::json& v, const std::string& at, std::set<std::string>& out) {
  if (v.is_object()) {
    for (const auto& [k, x] : v.items()) key_paths(x, at + "." + k, out);
  } else if (v.is_array()) {
    for (const auto& x : v) key_paths(x, at + "[]", out);
    if (v.empty()) out.insert(at + "[]");
  } else {
    out.insert(at);
  }
}
std::set<std::string> key_paths(const fs::path& file) {
  std::set<std::string> out;
  key_paths(nlohmann::json::parse(std::ifstream(file)), "", out);
  return out;
}

const char* const kVerbs[] = {"run",     "generate", "mlperf", "convert", "validate", "capture",
                              "inspect", "export",   "distil", "compare", "fidelity"};

TEST(Cli, HelpOfEveryVerbExitsZeroAndNamesIt) {
  const Outcome top = dlgen("--help");
  EXPECT_EQ(top.code, 0) << top.out;
  for (const char* verb : kVerbs) {
    EXPECT_NE(top.out.find(verb), std::string::npos) << verb << " missing from:\n" << top.out;
    const Outcome o = dlgen(std::string(verb) + " --help");
    EXPECT_EQ(o.code, 0) << verb << ": " << o.out;
    EXPECT_NE(o.out.find(verb), std::string::npos) << verb << ": " << o.out;
  }
}

TEST(Cli, BadUsageExitsTwo) {
  const Outcome flag = dlgen("run job.toml --no-such-flag");
  EXPECT_EQ(flag.code, 2) << flag.out;
  EXPECT_NE(flag.out.find("not expected: --no-such-flag"), std::string::npos) << flag.out;
  const Outcome verb = dlgen("frobnicate job.toml");
  EXPECT_EQ(verb.code, 2) << verb.out;
  EXPECT_NE(verb.out.find("A subcommand is required"), std::string::npos) << verb.out;
  EXPECT_EQ(dlgen("").code, 2);                        // a verb is required
  EXPECT_EQ(dlgen("run").code, 2);                     // the job is required
  EXPECT_EQ(dlgen("validate /no/such.toml").code, 2);  // a job that cannot be read is bad input
}

TEST(Cli, MisspeltKeyIsNamedByFileLineAndKey) {
  TempDir dir;
  const fs::path job = dir.path() / "job.toml";
  write(job,
        "[job]\nname = \"typo\"\n\n[dataset]\ndir = \"data\"\nnum_files = 4\nfile_size = "
        "\"4KiB\"\n\n[reader]\nbatch_sise = 2\n");
  for (const char* verb : {"validate", "run", "generate", "mlperf"}) {
    const Outcome o = dlgen(std::string(verb) + " '" + job.string() + "'", dir.path());
    EXPECT_EQ(o.code, 2) << verb << ": " << o.out;
    EXPECT_NE(o.out.find("job.toml:10"), std::string::npos) << verb << ": " << o.out;
    EXPECT_NE(o.out.find("batch_sise"), std::string::npos) << verb << ": " << o.out;
  }
  EXPECT_FALSE(fs::exists(dir.path() / "data"));  // refused before any I/O
}

// An engine name nobody registered is bad input for every kind of job, before any I/O: a
// checkpoint-only job's checkpoints go through the engine too (it was ignored there and the
// checkpoints written with the default engine).
TEST(Cli, UnknownEngineIsRefusedForTrainingAndCheckpointJobs) {
  TempDir dir;
  const fs::path ckpt = dir.path() / "ckpt.toml";
  write(ckpt,
        "[job]\nname = \"ckpt\"\n\n[checkpoint]\nwrites = 1\nreads = 1\nsize = "
        "\"1MiB\"\nfiles = 1\ndir = \"" +
            (dir.path() / "ckpt").string() + "\"\n\n[run]\ntrain = false\n");
  const fs::path train = dir.path() / "train.toml";
  write(train, tiny_job(dir.path() / "data"));
  for (const fs::path& job : {ckpt, train})
    for (const char* verb : {"run", "mlperf"}) {
      const std::string out = std::string(verb) == "mlperf"
                                  ? " --output-dir '" + (dir.path() / "out").string() + "'"
                                  : "";
      const Outcome r =
          dlgen(std::string(verb) + " '" + job.string() + "' --engine nosuch" + out, dir.path());
      EXPECT_EQ(r.code, 2) << verb << " " << job.filename() << ": " << r.out;
      EXPECT_NE(r.out.find("--engine nosuch: expected uring"), std::string::npos)
          << verb << " " << job.filename() << ": " << r.out;
    }
  EXPECT_FALSE(fs::exists(dir.path() / "ckpt"));  // refused before any I/O
  EXPECT_FALSE(fs::exists(dir.path() / "data"));
}

TEST(Cli, TinyRunOnTheNullEngineWritesItsJson) {
  TempDir dir;
  write(dir.path() / "tiny.toml", tiny_job(dir.path() / "data"));
  const Outcome o = dlgen("run tiny.toml --engine null -q -o result.json", dir.path());
  ASSERT_EQ(o.code, 0) << o.out;
  EXPECT_EQ(o.out.rfind("tiny: AU ", 0), 0u) << o.out;  // the one -q line
  const nlohmann::json j = nlohmann::json::parse(std::ifstream(dir.path() / "result.json"));
  EXPECT_EQ(j["totals"]["samples"].get<std::uint64_t>(), 2u * 16u);  // 2 epochs of 16 samples
  EXPECT_EQ(j["epochs"].size(), 2u);
  EXPECT_FALSE(fs::exists(dir.path() / "data"));  // the null engine reads nothing
}

TEST(Cli, GenerateThenRunWithoutGenerating) {
  TempDir dir;
  write(dir.path() / "tiny.toml", tiny_job(dir.path() / "data"));
  // A missing dataset with --no-generate is a runtime failure naming the command that writes it.
  const Outcome missing = dlgen("run tiny.toml --engine pread --no-generate -q", dir.path());
  EXPECT_EQ(missing.code, 1) << missing.out;
  EXPECT_NE(missing.out.find("dlgen generate tiny.toml"), std::string::npos) << missing.out;

  const Outcome gen = dlgen("generate tiny.toml -q", dir.path());
  ASSERT_EQ(gen.code, 0) << gen.out;
  EXPECT_NE(gen.out.find("wrote 16 files"), std::string::npos) << gen.out;
  const Outcome again = dlgen("generate tiny.toml -q", dir.path());
  EXPECT_EQ(again.code, 0) << again.out;
  EXPECT_NE(again.out.find("up to date (16 files)"), std::string::npos) << again.out;

  const Outcome run = dlgen("run tiny.toml --engine pread --no-generate -q", dir.path());
  EXPECT_EQ(run.code, 0) << run.out;
  EXPECT_EQ(run.out.rfind("tiny: AU ", 0), 0u) << run.out;
}

// A URL is never taken for a path: an s3:// dataset goes to the object store (here without
// credentials: refused before any I/O), never to a local folder named "s3:"; a file engine is
// refused for it; an s3:// checkpoint directory (the s3 engine writes checkpoint-only jobs there)
// needs credentials before any I/O; a scheme dlgen does not know is a bad job naming the key.
TEST(Cli, ObjectLocationsAreNeverLocalFolders) {
  TempDir dir;
  write(dir.path() / "s3.toml", tiny_job("s3://bucket/ds"));
  const std::string no_credentials = "env -u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY ";
  for (const char* verb : {"generate", "run"}) {
    const Outcome r = sh("cd '" + dir.path().string() + "' && DLGEN_NO_PROGRESS=1 " +
                         no_credentials + "timeout 120 '" DLGEN_BINARY "' " + verb + " s3.toml -q");
    EXPECT_EQ(r.code, 2) << verb << ": " << r.out;
    EXPECT_NE(r.out.find("S3 needs credentials: set AWS_ACCESS_KEY_ID"), std::string::npos)
        << verb << ": " << r.out;
  }
  for (const char* verb : {"run", "generate"}) {
    const Outcome pread = dlgen(std::string(verb) + " s3.toml --engine pread -q", dir.path());
    EXPECT_EQ(pread.code, 2) << verb << ": " << pread.out;
    EXPECT_NE(pread.out.find("--engine pread reads files; dataset.dir = \"s3://bucket/ds\" is an "
                             "object location"),
              std::string::npos)
        << verb << ": " << pread.out;
  }
  write(dir.path() / "ckpt.toml",
        "[job]\nname = \"ckpt\"\n\n[checkpoint]\nwrites = 1\nreads = 1\nsize = \"1MiB\"\n"
        "dir = \"s3://bucket/ckpt\"\n\n[run]\ntrain = false\n");
  const Outcome ck = sh("cd '" + dir.path().string() + "' && DLGEN_NO_PROGRESS=1 " +
                        no_credentials + "timeout 120 '" DLGEN_BINARY "' run ckpt.toml -q");
  EXPECT_EQ(ck.code, 2) << ck.out;
  EXPECT_NE(ck.out.find("S3 needs credentials: set AWS_ACCESS_KEY_ID"), std::string::npos)
      << ck.out;
  // A checkpoint directory beside a dataset of objects (a program reading from S3, saving to a
  // local disk): validate and run accept it (run then needs the store: its credentials).
  write(dir.path() / "mixed.toml", tiny_job("s3://bucket/ds") +
                                       "\n[checkpoint]\nevery_epochs = 1\nsize = \"1MiB\"\n"
                                       "dir = \"ckpt\"\n");
  EXPECT_EQ(dlgen("validate mixed.toml", dir.path()).code, 0);
  const Outcome mixed = sh("cd '" + dir.path().string() + "' && DLGEN_NO_PROGRESS=1 " +
                           no_credentials + "timeout 120 '" DLGEN_BINARY "' run mixed.toml -q");
  EXPECT_NE(mixed.out.find("S3 needs credentials"), std::string::npos) << mixed.out;
  EXPECT_EQ(mixed.out.find("is a directory"), std::string::npos) << mixed.out;
  // Checkpoint objects of a dataset of files: refused by both, with the same message.
  write(dir.path() / "inverse.toml", tiny_job("data") +
                                         "\n[checkpoint]\nevery_epochs = 1\nsize = \"1MiB\"\n"
                                         "dir = \"s3://bucket/ckpt\"\n");
  for (const char* verb : {"validate", "run"}) {
    const Outcome inverse = dlgen(std::string(verb) + " inverse.toml", dir.path());
    EXPECT_EQ(inverse.code, 2) << verb << ": " << inverse.out;
    EXPECT_NE(inverse.out.find("checkpoint.dir = \"s3://bucket/ckpt\" is an object location, "
                               "dataset.dir a directory"),
              std::string::npos)
        << verb << ": " << inverse.out;
  }
  EXPECT_FALSE(fs::exists(dir.path() / "ckpt"));
  write(dir.path() / "gs.toml", tiny_job("gs://bucket/ds"));
  const Outcome gs = dlgen("validate gs.toml", dir.path());
  EXPECT_EQ(gs.code, 2) << gs.out;
  EXPECT_NE(gs.out.find("gs:// locations are not supported"), std::string::npos) << gs.out;
  EXPECT_FALSE(fs::exists(dir.path() / "s3:"));
  EXPECT_FALSE(fs::exists(dir.path() / "gs:"));
}

#ifdef DLGEN_MPIEXEC
std::string mpirun(int np) {
  return std::string("'" DLGEN_MPIEXEC "' --allow-run-as-root --oversubscribe -np ") +
         std::to_string(np) + " ";
}

// The same job, the same code path: the result of one process carries every key of the result of
// two ranks but the ranks' own ("ranks", "hosts", "per_rank", "per_host", "cluster"), and the
// dataset that `mpirun -np 2 dlgen generate` wrote is the one a single `dlgen run --no-generate`
// reads.
TEST(Cli, OneProcessAndTwoRanksTakeTheSamePath) {
  TempDir dir;
  write(dir.path() / "tiny.toml", tiny_job(dir.path() / "data"));
  const Outcome one = dlgen("run tiny.toml --engine null -q -o one.json", dir.path());
  ASSERT_EQ(one.code, 0) << one.out;
  const Outcome two =
      sh("cd '" + dir.path().string() + "' && DLGEN_NO_PROGRESS=1 timeout 120 " + mpirun(2) +
         "'" DLGEN_BINARY "' run tiny.toml --engine null -q -o two.json");
  ASSERT_EQ(two.code, 0) << two.out;
  EXPECT_NE(two.out.find("tiny: 2 ranks, AU "), std::string::npos) << two.out;
  const std::set<std::string> single = key_paths(dir.path() / "one.json");
  std::set<std::string> ranks;
  for (const std::string& k : key_paths(dir.path() / "two.json"))
    if (k.rfind(".ranks", 0) != 0 && k.rfind(".hosts", 0) != 0 && k.rfind(".per_rank", 0) != 0 &&
        k.rfind(".per_host", 0) != 0 && k.rfind(".cluster", 0) != 0)
      ranks.insert(k);
  for (const std::string& k : single) EXPECT_TRUE(ranks.count(k)) << k << " only without mpirun";
  for (const std::string& k : ranks) EXPECT_TRUE(single.count(k)) << k << " only under mpirun";

  const Outcome gen = sh("cd '" + dir.path().string() + "' && DLGEN_NO_PROGRESS=1 timeout 120 " +
                         mpirun(2) + "'" DLGEN_BINARY "' generate tiny.toml -q");
  ASSERT_EQ(gen.code, 0) << gen.out;
  EXPECT_NE(gen.out.find("with 2 ranks: 16 files"), std::string::npos) << gen.out;
  const Outcome run = dlgen("run tiny.toml --engine pread --no-generate -q", dir.path());
  EXPECT_EQ(run.code, 0) << run.out;
}
#endif

}  // namespace
