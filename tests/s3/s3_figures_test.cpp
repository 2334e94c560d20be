// The S3 figures of `dlgen run` (result JSON "s3", the summary's s3 lines; docs/metrics.md, "S3
// requests") against the real S3 server: requests are the reads the plan issued plus retries,
// TTFB <= TTLB at every percentile, and the failures by kind, with a proxy in front of the server
// (tests/s3/fault_proxy.py) that answers 503 SlowDown on cue or dies mid-run.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include "dlgen/core/json.hpp"
#include <thread>

#include "s3_server.hpp"
#include "temp_dir.hpp"

namespace {

using dlgen::testing::new_bucket;
using dlgen::testing::Outcome;
using dlgen::testing::sh;
using dlgen::testing::TempDir;
namespace fs = std::filesystem;

// The server: the binary's one S3Server environment (s3_engine_test.cpp adds it).

// 32 objects of 128 KiB, 2 reader workers, one epoch.
std::string job_text(const std::string& dir) {
  return "[job]\nname = \"s3fig\"\n\n[dataset]\ndir = \"" + dir +
         "\"\nnum_files = 32\nfile_size = \"128KiB\"\nformat = \"raw\"\n\n[reader]\nbatch_size = "
         "4\nworkers = 2\n\n[compute]\ntime = \"1ms\"\n\n[run]\nepochs = 1\naccelerators = 1\n";
}

// `dlgen ARGS` in `cwd`, with `env` ("NAME=value ...") before it.
Outcome dlgen(const std::string& args, const fs::path& cwd, const std::string& env = "") {
  return sh("cd '" + cwd.string() + "' && " + env +
            " DLGEN_NO_PROGRESS=1 timeout 300 '" DLGEN_BINARY "' " + args);
}

nlohmann::json read_json(const fs::path& p) {
  return nlohmann::json::parse(std::ifstream(p));
}

// fault_proxy.py in front of the server for one test; stopped (SIGTERM) at the end.
class FaultProxy {
 public:
  FaultProxy(const fs::path& dir, const std::string& flags) : dir_(dir) {
    fs::create_directories(dir_);
    const char* upstream = std::getenv("AWS_ENDPOINT_URL");
    sh("'" DLGEN_S3_SCRIPTS "/fault_proxy.py' '" + std::string(upstream ? upstream : "") + "' '" +
       dir_.string() + "' " + flags + " </dev/null >'" + (dir_ / "log").string() + "' 2>&1 &");
    // Readiness, not speed: the port file appears once the proxy listens.
    for (int i = 0; i < 600 && !fs::exists(dir_ / "port"); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::ifstream(dir_ / "port") >> port_;
    std::ifstream(dir_ / "pid") >> pid_;
  }
  ~FaultProxy() {
    if (pid_ > 0) ::kill(pid_, SIGTERM);
  }
  std::string endpoint_env() const {
    return "AWS_ENDPOINT_URL=http://127.0.0.1:" + std::to_string(port_);
  }
  int port() const { return port_; }
  std::uint64_t slow_downs() const {
    std::uint64_t n = 0;
    std::ifstream(dir_ / "slow_downs") >> n;
    return n;
  }

 private:
  fs::path dir_;
  int port_ = 0;
  int pid_ = 0;
};

// Generates the job's dataset on the server (not through any proxy).
void generate(const TempDir& dir, const std::string& bucket) {
  std::ofstream(dir / "s3.toml") << job_text("s3://" + bucket + "/ds");
  const Outcome gen = dlgen("generate s3.toml -q", dir.path());
  ASSERT_EQ(gen.code, 0) << gen.out;
}

// The laws that hold for every run: requests = the plan's reads + retries (the readers send
// nothing else), every request a GET, TTFB <= TTLB at every percentile, one TTFB and one TTLB
// per request answered in full.
void expect_laws(const nlohmann::json& r) {
  ASSERT_TRUE(r.contains("s3")) << r.dump();
  const nlohmann::json& s = r["s3"];
  EXPECT_EQ(s["requests"],
            r["totals"]["requests"].get<std::uint64_t>() + s["retries"].get<std::uint64_t>())
      << s.dump();
  EXPECT_EQ(s["gets"], s["requests"]);
  const nlohmann::json& e = s["errors"];
  const std::uint64_t unanswered =
      e["timeouts"].get<std::uint64_t>() + e["resets"].get<std::uint64_t>();
  EXPECT_EQ(s["ttfb_us"]["count"], s["requests"].get<std::uint64_t>() - unanswered);
  EXPECT_EQ(s["ttlb_us"]["count"], s["ttfb_us"]["count"]);
  for (const char* p : {"p50", "p90", "p99", "max", "mean"}) {
    EXPECT_GT(s["ttfb_us"][p].get<double>(), 0) << p;
    EXPECT_LE(s["ttfb_us"][p].get<double>(), s["ttlb_us"][p].get<double>()) << p;
  }
  EXPECT_LE(s["ttfb_us"]["p50"].get<double>(), s["ttfb_us"]["p90"].get<double>());
  EXPECT_LE(s["ttfb_us"]["p90"].get<double>(), s["ttfb_us"]["p99"].get<double>());
  // The last byte comes at most when the replay saw the request complete.
  EXPECT_LE(s["ttlb_us"]["max"].get<double>(), r["latency_us"]["max"].get<double>());
}

TEST(S3Figures, RequestsAreThePlansReadsAndFirstBytePrecedesLast) {
  TempDir dir("dlgen-s3-fig");
  const std::string b = new_bucket();
  generate(dir, b);
  const Outcome run = dlgen("run s3.toml --no-generate -o s3.json", dir.path());
  ASSERT_EQ(run.code, 0) << run.out;
  const nlohmann::json r = read_json(dir / "s3.json");
  expect_laws(r);
  EXPECT_EQ(r["totals"]["requests"], 32u);  // one whole-object read per object
  EXPECT_EQ(r["s3"]["retries"], 0u);
  for (const char* k : {"slow_down_503", "other_5xx", "timeouts", "resets"})
    EXPECT_EQ(r["s3"]["errors"][k], 0u) << k;
  EXPECT_NE(run.out.find("  s3          32 HTTP requests (32 GETs), 0 retries; errors: 0 SlowDown"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("first byte p50 "), std::string::npos) << run.out;

  // A run on local files has no s3 figures, in the JSON or the summary.
  std::ofstream(dir / "local.toml") << job_text((dir / "data").string());
  const Outcome local = dlgen("run local.toml --engine pread -o local.json", dir.path());
  ASSERT_EQ(local.code, 0) << local.out;
  EXPECT_FALSE(read_json(dir / "local.json").contains("s3"));
  EXPECT_EQ(local.out.find("  s3 "), std::string::npos) << local.out;
}

// The requests one shard of `bytes` costs when written in requests of `write` bytes into parts of
// max(8 MiB, write) (each part holding the whole write requests that fit), and read back in
// requests of `write` bytes and one more that finds the end: docs/metrics.md, "S3 requests".
struct ShardRequests {
  std::uint64_t puts = 0, parts = 0, control = 0, gets = 0;
};
ShardRequests shard_requests(std::uint64_t bytes, std::uint64_t write) {
  const std::uint64_t part = std::max<std::uint64_t>(8u << 20, write);
  const std::uint64_t writes = (bytes + write - 1) / write, per_part = part / write;
  ShardRequests r;
  if (writes <= per_part) {
    r.puts = 1;
  } else {
    r.parts = (writes + per_part - 1) / per_part;
    r.control = 2;  // initiate, complete
  }
  r.gets = writes + 1;
  return r;
}

// A training run whose checkpoints go to the store: `size` in 2 shards, written once after the
// epoch and read back once by the restore (the checkpoint it reads is written before the run,
// untimed and outside its figures, as the dataset is). The checkpoints' requests are counted, by
// kind, exactly as the sizes say, and the readers' are what they were without them.
void expect_checkpoint_requests(const std::string& size, std::uint64_t shard_bytes) {
  TempDir dir("dlgen-s3-fig");
  const std::string b = new_bucket();
  std::ofstream(dir / "ckpt.toml")
      << "[job]\nname = \"s3ckptfig\"\n\n[dataset]\ndir = \"s3://" << b
      << "/ds\"\nnum_files = 16\nfile_size = \"128KiB\"\n\n[reader]\nbatch_size = 4\n\n"
         "[compute]\ntime = \"1ms\"\n\n[checkpoint]\nevery_epochs = 1\nsize = \""
      << size << "\"\nfiles = 2\nrestore = true\ndir = \"s3://" << b
      << "/ckpt\"\n\n[run]\nepochs = 1\n";
  const Outcome run = dlgen("run ckpt.toml -o r.json", dir.path());
  ASSERT_EQ(run.code, 0) << run.out;
  const nlohmann::json r = read_json(dir / "r.json");
  ASSERT_TRUE(r.contains("s3")) << r.dump();
  const nlohmann::json& s = r["s3"];
  ASSERT_TRUE(s.contains("checkpoint")) << s.dump();
  const nlohmann::json& c = s["checkpoint"];
  const ShardRequests one = shard_requests(shard_bytes, 4u << 20);
  const std::uint64_t shards = 2, writes = 1;  // the epoch's checkpoint
  EXPECT_EQ(c["puts"], shards * writes * one.puts) << c.dump();
  EXPECT_EQ(c["parts"], shards * writes * one.parts) << c.dump();
  EXPECT_EQ(c["control"], shards * writes * one.control) << c.dump();
  EXPECT_EQ(c["gets"], shards * one.gets) << c.dump();
  const auto n = [](const nlohmann::json& j, const char* k) { return j[k].get<std::uint64_t>(); };
  for (const nlohmann::json* f : {&s, &c})
    EXPECT_EQ(n(*f, "requests"), n(*f, "gets") + n(*f, "puts") + n(*f, "parts") + n(*f, "control"))
        << f->dump();
  // The readers' requests: every one a GET of the plan's reads, or a retry.
  EXPECT_EQ(n(s, "requests") - n(c, "requests"),
            n(r["totals"], "requests") + n(s, "retries") - n(c, "retries"));
  EXPECT_EQ(n(s, "puts"), n(c, "puts"));
  EXPECT_EQ(n(s["ttlb_us"], "count"),
            n(s, "requests") - n(s["errors"], "timeouts") - n(s["errors"], "resets"));
  EXPECT_EQ(n(c["ttlb_us"], "count"),
            n(c, "requests") - n(c["errors"], "timeouts") - n(c["errors"], "resets"));
  EXPECT_EQ(r["checkpoint"]["restore_bytes"], 2 * shard_bytes);
  EXPECT_NE(
      run.out.find("of which checkpoints: " + std::to_string(n(c, "requests")) + " HTTP requests"),
      std::string::npos)
      << run.out;
}

// 10 MiB shards: multipart uploads of 2 parts (8 MiB + 2 MiB).
TEST(S3Figures, CheckpointRequestsAreCounted) {
  expect_checkpoint_requests("20MiB", 10u << 20);
}

// 3 MiB shards: one PUT each.
TEST(S3Figures, CheckpointRequestsAreCountedForWholeObjectPuts) {
  expect_checkpoint_requests("6MiB", 3u << 20);
}

// A checkpoint-only job on the store (docs/metrics.md, "S3 requests"): 2 checkpoints of 2 shards
// of 10 MiB written (multipart: 8 MiB + 2 MiB) and read back in 4 MiB requests. Its result holds
// the writes' and the reads' HTTP requests apart, by kind exactly as the sizes say, with TTFB and
// TTLB, and its summary prints them as the training replay prints its own.
TEST(S3Figures, CheckpointOnlyRunCountsItsWritesAndReadsApart) {
  TempDir dir("dlgen-s3-fig");
  const std::string b = new_bucket();
  std::ofstream(dir / "ckpt.toml") << "[job]\nname = \"s3ckptonly\"\n\n[checkpoint]\nwrites = 2\n"
                                      "reads = 2\nsize = \"20MiB\"\nfiles = 2\nwrite_size = "
                                      "\"4MiB\"\ndir = \"s3://"
                                   << b << "/ck\"\n\n[run]\ntrain = false\n";
  const Outcome run = dlgen("run ckpt.toml -o r.json", dir.path());
  ASSERT_EQ(run.code, 0) << run.out;
  const nlohmann::json r = read_json(dir / "r.json");
  ASSERT_TRUE(r["write"].contains("s3")) << r.dump();
  ASSERT_TRUE(r["read"].contains("s3")) << r.dump();
  const nlohmann::json& w = r["write"]["s3"];
  const nlohmann::json& rd = r["read"]["s3"];
  const ShardRequests one = shard_requests(10u << 20, 4u << 20);
  const std::uint64_t shards = 2 * 2;  // 2 checkpoints of 2 shards
  EXPECT_EQ(w["parts"], shards * one.parts) << w.dump();
  EXPECT_EQ(w["control"], shards * one.control) << w.dump();
  EXPECT_EQ(w["puts"], shards * one.puts) << w.dump();
  EXPECT_EQ(w["gets"], 0u) << w.dump();
  EXPECT_EQ(rd["gets"], shards * one.gets) << rd.dump();
  EXPECT_EQ(rd["requests"], rd["gets"]) << rd.dump();
  const auto n = [](const nlohmann::json& j, const char* k) { return j[k].get<std::uint64_t>(); };
  for (const nlohmann::json* f : {&w, &rd}) {
    EXPECT_EQ(n(*f, "requests"), n(*f, "gets") + n(*f, "puts") + n(*f, "parts") + n(*f, "control"))
        << f->dump();
    EXPECT_EQ(n(*f, "retries"), 0u);
    EXPECT_EQ(n((*f)["ttfb_us"], "count"), n(*f, "requests")) << f->dump();
    EXPECT_EQ(n((*f)["ttlb_us"], "count"), n(*f, "requests")) << f->dump();
    for (const char* p : {"p50", "p99", "max"}) {
      EXPECT_GT((*f)["ttfb_us"][p].get<double>(), 0) << p;
      EXPECT_LE((*f)["ttfb_us"][p].get<double>(), (*f)["ttlb_us"][p].get<double>()) << p;
    }
  }
  EXPECT_NE(run.out.find("  s3          write: " + std::to_string(n(w, "requests")) +
                         " HTTP requests (0 GETs, 0 PUTs, " + std::to_string(n(w, "parts")) +
                         " parts, " + std::to_string(n(w, "control")) +
                         " multipart control), 0 retries; errors: 0 SlowDown (503)"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("  s3          read: " + std::to_string(n(rd, "requests")) +
                         " HTTP requests (" + std::to_string(n(rd, "gets")) + " GETs), 0 retries"),
            std::string::npos)
      << run.out;
  // The same workflow on files carries no s3 figures.
  std::ofstream(dir / "files.toml") << "[job]\nname = \"filesonly\"\n\n[checkpoint]\nwrites = 1\n"
                                       "reads = 1\nsize = \"1MiB\"\ndir = \"ck\"\n\n[run]\n"
                                       "train = false\n";
  const Outcome files = dlgen("run files.toml --engine pread -o f.json", dir.path());
  ASSERT_EQ(files.code, 0) << files.out;
  EXPECT_FALSE(read_json(dir / "f.json")["write"].contains("s3"));
  EXPECT_EQ(files.out.find("  s3 "), std::string::npos) << files.out;
}

// Every 4th object read answered 503 SlowDown (each read at most once): each is retried, and
// counted once as a SlowDown and once as a retry; the bytes are all read.
TEST(S3Figures, SlowDownsAreRetriedAndCountedByKind) {
  TempDir dir("dlgen-s3-fig");
  const std::string b = new_bucket();
  generate(dir, b);
  const FaultProxy proxy(dir / "proxy", "--slow-down-every 4");
  ASSERT_GT(proxy.port(), 0);
  const Outcome run =
      dlgen("run s3.toml --no-generate -q -o s3.json", dir.path(), proxy.endpoint_env());
  ASSERT_EQ(run.code, 0) << run.out;
  const nlohmann::json r = read_json(dir / "s3.json");
  expect_laws(r);
  EXPECT_EQ(r["totals"]["bytes_read"], 32u * 131072u);
  const std::uint64_t sent = proxy.slow_downs();
  // Every 4th object read of the N = 32 + sent the proxy saw is refused, unless it is the retry
  // of a refused one (forwarded): floor((32 + sent) / 4) <= 2 * sent, so sent >= 5 however the
  // retries interleave (8 only when no retry lands on a 4th read: timing, not a law).
  EXPECT_GE(sent, 5u);
  EXPECT_EQ(r["s3"]["errors"]["slow_down_503"], sent);
  EXPECT_EQ(r["s3"]["retries"], sent);
  EXPECT_EQ(r["s3"]["errors"]["other_5xx"], 0u);
}

// The store dies after 10 object reads: the run fails with an error that names the object and
// what the client saw, and writes no result.
TEST(S3Figures, AStoreThatDiesMidRunIsAnErrorNamingTheObject) {
  TempDir dir("dlgen-s3-fig");
  const std::string b = new_bucket();
  generate(dir, b);
  const FaultProxy proxy(dir / "proxy", "--die-after 10");
  ASSERT_GT(proxy.port(), 0);
  const Outcome run =
      dlgen("run s3.toml --no-generate -q -o s3.json", dir.path(), proxy.endpoint_env());
  EXPECT_EQ(run.code, 1) << run.out;
  EXPECT_NE(run.out.find("s3://" + b + "/ds/"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find(": read at "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("Couldn't connect to server"), std::string::npos) << run.out;
  EXPECT_FALSE(fs::exists(dir / "s3.json"));
}

}  // namespace
