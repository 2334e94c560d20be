// `dlgen run`, `generate` and `validate` as a user runs them: the real binary on small jobs written
// into a temporary directory, with the io_uring engine; checks the result JSON against the job.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <iterator>
#include "dlgen/core/json.hpp"
#include <string>

#include "temp_dir.hpp"

namespace {

using dlgen::testing::TempDir;

struct Outcome {
  int code = -1;
  std::string out;  // stdout and stderr together
};

// Runs a shell command; its exit code and what it printed.
Outcome shell(const std::string& cmd) {
  Outcome o;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return o;
  std::array<char, 4096> buf{};
  for (std::size_t n; (n = std::fread(buf.data(), 1, buf.size(), p)) > 0;)
    o.out.append(buf.data(), n);
  const int st = ::pclose(p);
  o.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return o;
}

// The dlgen binary in `cwd`, stdout and stderr together.
Outcome dlgen(const std::string& args, const std::filesystem::path& cwd) {
  return shell("cd '" + cwd.string() + "' && DLGEN_NO_PROGRESS=1 '" DLGEN_BINARY "' " + args +
               " 2>&1");
}

void write(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p) << text;
}

// 48 raw files of 20-200 KiB (a few MiB), batch 4, 2 workers, QD 4, 2 epochs, checkpoints.
const char* kJob = R"(
[job]
name = "e2e"

[dataset]
dir = "data"
format = "raw"
num_files = 48
sample_size = { dist = "uniform", min = "20KiB", max = "200KiB" }
seed = 5

[reader]
batch_size = 4
workers = 2
prefetch = 2
iodepth = 4
shuffle = "file"
seed = 11

[compute]
time = "2ms"
au_threshold = 0.0

[checkpoint]
enabled = true
every_epochs = 1
size = "3MiB"
files = 2
write_size = "1MiB"
fsync = true
dir = "ckpt"

[run]
epochs = 2
accelerators = 1
)";

bool uring_skip(const Outcome& o) {
  return o.code == 77;
}

// Whether process `pid` has a dataset file under `dir` open (its /proc/PID/fd links): a regular
// file, not dlgen's manifest and not a folder (the safety scan before the replay opens those).
bool has_open_under(pid_t pid, const std::filesystem::path& dir) {
  std::error_code ec;
  const std::string prefix = std::filesystem::canonical(dir, ec).string() + "/";
  for (const auto& e : std::filesystem::directory_iterator(
           "/proc/" + std::to_string(pid) + "/fd", std::filesystem::directory_options::none, ec)) {
    const auto target = std::filesystem::read_symlink(e.path(), ec);
    if (ec || target.string().rfind(prefix, 0) != 0) continue;
    if (target.filename().string().starts_with(".dlgen-manifest")) continue;
    if (std::filesystem::is_regular_file(target, ec)) return true;
  }
  return false;
}

// Ctrl-C during `dlgen run` (SIGINT, then SIGTERM the same way): the workers stop, the result file
// is still written with "interrupted": true and the figures over what ran, and the exit status is
// 130. The signal is sent once the replay reads the dataset (a dataset file open in the process:
// a handshake, not a guess at timing); the job would take ~40 s uninterrupted.
TEST(RunE2E, InterruptedRunWritesItsResultsAndExits130) {
  TempDir tmp("dlgen-e2e-int");
  std::string job = kJob;
  job.replace(job.find("time = \"2ms\""), 12, "time = \"50ms\"");
  job.replace(job.find("epochs = 2"), 10, "epochs = 30");
  write(tmp / "job.toml", job);
  const Outcome gen = dlgen("generate job.toml", tmp.path());
  ASSERT_EQ(gen.code, 0) << gen.out;
  for (int sig : {SIGINT, SIGTERM}) {
    const std::filesystem::path out = tmp / ("result-" + std::to_string(sig) + ".json");
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      if (::chdir(tmp.path().c_str()) != 0) ::_exit(120);
      ::execl(DLGEN_BINARY, "dlgen", "run", "job.toml", "-q", "--output", out.c_str(),
              static_cast<char*>(nullptr));
      ::_exit(121);
    }
    bool reading = false;
    for (int i = 0; i < 60000 && !reading; ++i) {  // up to a minute on a loaded host
      reading = has_open_under(pid, tmp / "data");
      if (!reading) ::usleep(1000);
    }
    ASSERT_TRUE(reading) << "the replay never opened a dataset file";
    ::kill(pid, sig);
    int st = 0;
    ASSERT_EQ(::waitpid(pid, &st, 0), pid);
    ASSERT_TRUE(WIFEXITED(st)) << "killed by signal " << WTERMSIG(st);
    EXPECT_EQ(WEXITSTATUS(st), 130);
    std::ifstream f(out);
    ASSERT_TRUE(f.good()) << "no result file after the interrupt";
    const nlohmann::json j = nlohmann::json::parse(f);
    EXPECT_TRUE(j.at("interrupted").get<bool>());
    EXPECT_LT(j.at("epochs_completed").get<int>(), 30);
    EXPECT_LT(j.at("steps").get<int>(), 30 * 12);
    // The figures are over what ran: samples/s is the samples over the training seconds.
    const double secs = j.at("train").at("seconds").get<double>();
    if (secs > 0) {
      EXPECT_NEAR(j.at("samples_per_s").get<double>(), j.at("samples").get<double>() / secs,
                  1e-6 * j.at("samples_per_s").get<double>() + 1e-9);
    }
  }
}

TEST(RunE2E, RunsAJobWithIoUringAndReportsExactCounts) {
  TempDir tmp("dlgen-e2e");
  write(tmp / "job.toml", kJob);
  const Outcome o =
      dlgen("run job.toml --engine uring --output result.json --timeseries series.csv", tmp.path());
  if (uring_skip(o)) GTEST_SKIP() << "io_uring not available: " << o.out;
  ASSERT_EQ(o.code, 0) << o.out;
  EXPECT_NE(o.out.find("MiB/s"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("PASS"), std::string::npos) << o.out;
  std::ifstream f(tmp / "result.json");
  ASSERT_TRUE(f) << o.out;
  const auto j = nlohmann::json::parse(f);
  std::uint64_t dataset = 0, files = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(tmp / "data"))
    if (e.is_regular_file() && e.path().filename().string()[0] != '.') {
      dataset += e.file_size();
      ++files;
    }
  EXPECT_EQ(files, 48u);
  EXPECT_EQ(j["bytes_read"].get<std::uint64_t>(), 2 * dataset);
  EXPECT_EQ(j["samples"].get<std::uint64_t>(), 96u);
  EXPECT_EQ(j["steps"].get<std::uint64_t>(), 24u);
  EXPECT_EQ(j["requests"].get<std::uint64_t>(), 96u);
  EXPECT_EQ(j["engine"].get<std::string>(), "uring");
  EXPECT_EQ(j["epochs"].size(), 2u);
  EXPECT_EQ(j["checkpoint"]["count"].get<std::uint64_t>(), 2u);
  EXPECT_EQ(j["checkpoint"]["bytes"].get<std::uint64_t>(), 2u * 3 * 1048576);
  EXPECT_GT(j["checkpoint"]["write_mib_s"].get<double>(), 0.0);
  EXPECT_GE(j["latency_us"]["p99"].get<double>(), j["latency_us"]["p50"].get<double>());
  EXPECT_TRUE(j["passed"].get<bool>());
  EXPECT_EQ(std::filesystem::file_size(tmp / "ckpt" / "checkpoint-0-of-2.dlgen") +
                std::filesystem::file_size(tmp / "ckpt" / "checkpoint-1-of-2.dlgen"),
            3u * 1048576);
  std::ifstream csv(tmp / "series.csv");
  std::string header;
  std::getline(csv, header);
  EXPECT_EQ(header.rfind("t_s,bytes,mib_per_s", 0), 0u) << header;

  // A second run reuses the dataset; --set and O_DIRECT change what is read, not what exists.
  const Outcome d =
      dlgen("run job.toml --no-generate --set reader.direct=true --set run.epochs=1 -o d.json",
            tmp.path());
  ASSERT_EQ(d.code, 0) << d.out;
  const auto dj = nlohmann::json::parse(std::ifstream(tmp / "d.json"));
  EXPECT_EQ(dj["bytes_read"].get<std::uint64_t>(), dataset);
  EXPECT_TRUE(dj["config"]["direct"].get<bool>());
}

TEST(RunE2E, FixedIodepthDrivesThatManyRequestsInFlight) {
  TempDir tmp("dlgen-e2e-qd");
  write(tmp / "job.toml", kJob);
  const Outcome o = dlgen(
      "run job.toml --set reader.request_size=4KiB --set reader.iodepth=16 --set reader.workers=1 "
      "--set checkpoint.enabled=false --set run.epochs=1 -o r.json",
      tmp.path());
  if (uring_skip(o)) GTEST_SKIP() << o.out;
  ASSERT_EQ(o.code, 0) << o.out;
  const auto j = nlohmann::json::parse(std::ifstream(tmp / "r.json"));
  EXPECT_EQ(j["config"]["iodepth"].get<std::uint32_t>(), 16u);
  EXPECT_GT(j["requests"].get<std::uint64_t>(), 48u * 5);  // 4 KiB chunks of 20-200 KiB files
}

TEST(RunE2E, NoGenerateOnAMissingDatasetSaysHowToGenerate) {
  TempDir tmp("dlgen-e2e-missing");
  write(tmp / "job.toml", kJob);
  const Outcome o = dlgen("run job.toml --no-generate", tmp.path());
  EXPECT_EQ(o.code, 1) << o.out;
  EXPECT_NE(o.out.find("dlgen generate job.toml"), std::string::npos) << o.out;
  EXPECT_FALSE(std::filesystem::exists(tmp / "data" / ".dlgen-manifest.json"));
}

TEST(RunE2E, DryRunPrintsThePlanWithoutTouchingStorage) {
  TempDir tmp("dlgen-e2e-dry");
  write(tmp / "job.toml", kJob);
  const Outcome o =
      dlgen("run --set run.epochs=2 job.toml --dry-run", tmp.path());  // --set takes one value
  ASSERT_EQ(o.code, 0) << o.out;
  EXPECT_NE(o.out.find("48 files"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("12 steps per accelerator"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("min runtime"), std::string::npos) << o.out;
  EXPECT_FALSE(std::filesystem::exists(tmp / "data"));
}

TEST(RunE2E, GenerateThenValidate) {
  TempDir tmp("dlgen-e2e-gen");
  write(tmp / "job.toml", kJob);
  const Outcome g = dlgen("generate job.toml", tmp.path());
  ASSERT_EQ(g.code, 0) << g.out;
  EXPECT_TRUE(std::filesystem::exists(tmp / "data"));
  const Outcome again = dlgen("generate job.toml", tmp.path());
  ASSERT_EQ(again.code, 0) << again.out;
  EXPECT_NE(again.out.find("up to date"), std::string::npos) << again.out;
  const Outcome v = dlgen("validate job.toml", tmp.path());
  EXPECT_EQ(v.code, 0) << v.out;
  EXPECT_NE(v.out.find("ok"), std::string::npos) << v.out;
}

TEST(RunE2E, ValidateABadJobExits2WithFileLineAndKey) {
  TempDir tmp("dlgen-e2e-bad");
  write(tmp / "bad.toml",
        "[dataset]\ndir = \"d\"\nnum_files = 4\nsample_size = \"1KiB\"\n\n[reader]\nbatch_sise = "
        "4\n");
  const Outcome o = dlgen("validate bad.toml", tmp.path());
  EXPECT_EQ(o.code, 2) << o.out;
  EXPECT_NE(o.out.find("bad.toml:7"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("batch_sise"), std::string::npos) << o.out;
  const Outcome r = dlgen("run bad.toml", tmp.path());
  EXPECT_EQ(r.code, 2) << r.out;
  const Outcome e = dlgen("run bad.toml --engine aio", tmp.path());
  EXPECT_EQ(e.code, 2) << e.out;
}

TEST(RunE2E, CaptureTracesTheReplayItself) {
  TempDir tmp("dlgen-e2e-cap");
  write(tmp / "job.toml", kJob);
  const Outcome o =
      dlgen("run job.toml --set run.epochs=1 --set checkpoint.enabled=false --capture replay.h5 -q",
            tmp.path());
  if (o.code == 77) GTEST_SKIP() << "capture cannot run here: " << o.out;
  ASSERT_EQ(o.code, 0) << o.out;
  EXPECT_GT(std::filesystem::file_size(tmp / "replay.h5"), 0u) << o.out;
  EXPECT_NE(o.out.find("samples/s"), std::string::npos)
      << o.out;  // the replay ran under the tracer
}

// checkpoint.restore with no checkpoint there yet: the checkpoint the restore reads is written
// before the capture starts, as the dataset is, so the replay's trace holds the one checkpoint
// the epoch writes (3 MiB), not also the restore's setup write (compare counted it as a
// checkpoint the original never made: tests/s3/heldout2 resume_ckpt).
TEST(RunE2E, CaptureOfARestoringRunHoldsNoSetupWrite) {
  TempDir tmp("dlgen-e2e-restore");
  write(tmp / "job.toml", kJob);
  const Outcome o =
      dlgen("run job.toml --set run.epochs=1 --set checkpoint.restore=true --capture replay.h5 -q "
            "--output result.json",
            tmp.path());
  if (o.code == 77) GTEST_SKIP() << "capture cannot run here: " << o.out;
  ASSERT_EQ(o.code, 0) << o.out;
  const Outcome i = dlgen("inspect replay.h5 --json", tmp.path());
  ASSERT_EQ(i.code, 0) << i.out;
  const auto j = nlohmann::json::parse(i.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << i.out;
  const std::uint64_t written = j["bytes_written"].get<std::uint64_t>();
  EXPECT_GE(written, 3u << 20);  // the epoch's checkpoint
  EXPECT_LT(written, 4u << 20);  // and not the restore's setup write besides
  const auto result = nlohmann::json::parse(std::ifstream(tmp / "result.json"));
  EXPECT_EQ(result["checkpoint"]["restore_bytes"], 3u << 20) << result["checkpoint"].dump();
}

// `dlgen generate` writes the checkpoint a restore reads with the dataset (a later `run
// --no-generate --capture` then traces the replay alone), and leaves it for the run to read.
TEST(RunE2E, GenerateWritesTheCheckpointARestoreReads) {
  TempDir tmp("dlgen-e2e-gen-restore");
  write(tmp / "job.toml", kJob);
  const Outcome g = dlgen("generate job.toml --set checkpoint.restore=true -q", tmp.path());
  if (uring_skip(g)) GTEST_SKIP() << g.out;
  ASSERT_EQ(g.code, 0) << g.out;
  std::uint64_t bytes = 0;
  for (const auto& e : std::filesystem::directory_iterator(tmp / "ckpt"))
    if (e.path().extension() == ".dlgen") bytes += e.file_size();
  EXPECT_EQ(bytes, 3u << 20) << "the checkpoint's 2 shards of 3 MiB in all";
  const Outcome r = dlgen(
      "run job.toml --set run.epochs=1 --set checkpoint.restore=true --no-generate -q -o r.json",
      tmp.path());
  ASSERT_EQ(r.code, 0) << r.out;
  const auto result = nlohmann::json::parse(std::ifstream(tmp / "r.json"));
  EXPECT_EQ(result["checkpoint"]["restore_bytes"], 3u << 20) << result["checkpoint"].dump();
}

// The issue's scenario: 24 simulated H100s (0.224 s a step) on a resnet50-like set of 16,000
// files of 64 KiB, batch 400, 4 workers each, page cache warm. Each accelerator gets 2 steps an
// epoch, so every epoch's first batch (worker start-up, 24 x 400 samples read before anyone
// computes) is a large share of the run. The old AU left each epoch's first step out and printed
// 99.9%; the whole-run AU must agree with the samples the run delivered and the wall time it took.
TEST(RunE2E, ManyAcceleratorsWithTwoStepsAnEpochReportAnHonestAu) {
  TempDir tmp("dlgen-e2e-24");
  write(tmp / "job.toml", R"(
[job]
name = "resnet50-24"
[dataset]
dir = "data"
format = "raw"
num_files = 16000
sample_size = "64KiB"
[reader]
batch_size = 400
workers = 4
shuffle = "file"
[compute]
time = "0.224s"
au_threshold = 0.9
[run]
epochs = 4
accelerators = 24
)");
  const Outcome g = dlgen("generate job.toml -q", tmp.path());
  ASSERT_EQ(g.code, 0) << g.out;
  const Outcome o =
      dlgen("run job.toml --no-generate -q -o r.json", tmp.path());  // warm: just written
  if (uring_skip(o)) GTEST_SKIP() << o.out;
  ASSERT_EQ(o.code, 0) << o.out;
  const auto j = nlohmann::json::parse(std::ifstream(tmp / "r.json"));
  const double elapsed = j["elapsed_s"].get<double>();
  const double au = j["au"].get<double>();
  ASSERT_EQ(j["per_accelerator"].size(), 24u);
  std::uint64_t steps = 0;
  double longest_first_wait = 0, longest_harness = 0;
  for (const auto& a : j["per_accelerator"]) {
    // AU's wall: the run less the first batch's wait and dlgen's own work between passes.
    const double window = elapsed - a["first_wait_s"].get<double>() - a["harness_s"].get<double>();
    longest_first_wait = std::max(longest_first_wait, a["first_wait_s"].get<double>());
    longest_harness = std::max(longest_harness, a["harness_s"].get<double>());
    steps += a["steps"].get<std::uint64_t>();
    EXPECT_EQ(a["steps"].get<std::uint64_t>(), 8u);  // 2 an epoch (400 + 266 or 267 samples)
    // AU x wall = compute: the accelerator computed 0.224 s for each step it took, no more.
    EXPECT_LE(a["au"].get<double>(), a["steps"].get<double>() * 0.224 / window + 1e-9);
    EXPECT_GE(a["au"].get<double>(), au);
  }
  EXPECT_EQ(j["samples"].get<std::uint64_t>(), 4u * 16000u);
  // AU and samples/s agree: the samples the run delivered (samples/s x training seconds) make at
  // most ceil(samples / batch) steps of 0.224 s per accelerator (8 steps for 6.67 batches of
  // samples: a factor 1.2), spread over a wall time no shorter than the run less the longest wait
  // for a first batch. The lowest accelerator's AU cannot exceed that.
  const double train_s = j["samples"].get<double>() / j["samples_per_s"].get<double>();
  const double delivered_steps = j["samples_per_s"].get<double>() * train_s / 24 / 400 * 1.2;
  EXPECT_LE(au, delivered_steps * 0.224 / (elapsed - longest_first_wait - longest_harness) + 1e-9)
      << "AU " << au << " vs " << j["samples_per_s"].get<double>() << " samples/s";
  EXPECT_LT(au, 0.95) << "two steps an epoch: every epoch's start-up wait counts";
  for (const auto& e : j["epochs"]) EXPECT_LT(e["au"].get<double>(), 1.0);
}

TEST(RunE2E, FindMaxAcceleratorsRepeatsEpochsToSizeEachTrial) {
  TempDir tmp("dlgen-e2e-max");
  std::string job = kJob;
  job.replace(job.find("num_files = 48"), 14, "num_files = 400");
  job.replace(job.find("au_threshold = 0.0"), 18, "au_threshold = 0.5");
  write(tmp / "job.toml", job);
  const Outcome o = dlgen(
      "run job.toml --find-max-accelerators --set checkpoint.enabled=false -o fm.json", tmp.path());
  if (uring_skip(o)) GTEST_SKIP() << o.out;
  ASSERT_EQ(o.code, 0) << o.out;
  EXPECT_NE(o.out.find("max accelerators: "), std::string::npos) << o.out;
  // 2 ms steps: a trial needs 3 s / 2 ms = 1500 steps; an epoch of 400 samples in batches of 4
  // gives one accelerator 100, so the trial runs 15 whole epochs (every boundary counted).
  EXPECT_NE(o.out.find("1 accelerator(s)"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("15 epoch(s) x 100 steps"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("whole trial"), std::string::npos) << o.out;
  // Trials run back to back on the same files: the page cache is dropped before each (root) and
  // the result says so; 15 epochs of a dataset far under 5x RAM still read it from RAM after the
  // first, so the figure is labelled warm, in the text and in the JSON.
  const auto j = nlohmann::json::parse(std::ifstream(tmp / "fm.json"));
  if (::geteuid() == 0) {
    EXPECT_NE(o.out.find("page cache: dropped before each trial (sync + /proc/sys/vm/drop_caches)"),
              std::string::npos)
        << o.out;
  } else {
    EXPECT_NE(o.out.find("page cache: not dropped (not root)"), std::string::npos) << o.out;
  }
  EXPECT_NE(o.out.find("(warm page cache)"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("FROM A WARM PAGE CACHE"), std::string::npos) << o.out;
  EXPECT_EQ(j["warm_cache"], true);
  ASSERT_FALSE(j["trials"].empty());
  EXPECT_EQ(j["trials"][0]["accelerators"], 1);
  EXPECT_EQ(j["trials"][0]["epochs"], 15);
  EXPECT_EQ(j["trials"][0]["warm_cache"], true);
  EXPECT_GE(j["max_accelerators"].get<int>(), 1);
}

TEST(RunE2E, FindMaxAcceleratorsStopsWhereAcceleratorsGetNoBatch) {
  TempDir tmp("dlgen-e2e-max-tiny");
  std::string job = kJob;
  job.replace(job.find("au_threshold = 0.0"), 18, "au_threshold = 0.01");
  write(tmp / "job.toml", job);
  // 48 samples: 49 or more accelerators leave some without a batch; 1 step an epoch from 12 on.
  const Outcome o =
      dlgen("run job.toml --find-max-accelerators --set checkpoint.enabled=false", tmp.path());
  if (uring_skip(o)) GTEST_SKIP() << o.out;
  ASSERT_EQ(o.code, 0) << o.out;
  EXPECT_NE(o.out.find("64 accelerator(s): some get no batch"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("note: at 64 accelerators some get no batch"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("cut at 64 epochs"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("max accelerators: 48 "), std::string::npos) << o.out;
}

// A DLIO workload config run as it is, with Hydra-style overrides as DLIO users type them; the
// same config converted to TOML runs the same plan; a bad key is refused with file:line.
TEST(RunE2E, DlioConfigRunsWithOverridesAndConverts) {
  TempDir tmp("dlgen-e2e-dlio");
  write(tmp / "tiny.yaml", R"(model:
  name: tiny
  model_size: 1048576
framework: pytorch
workflow:
  generate_data: True
  train: True
  checkpoint: True
dataset:
  data_folder: data/tiny
  format: npz
  num_files_train: 16
  num_samples_per_file: 1
  record_length_bytes: 65536
reader:
  data_loader: pytorch
  batch_size: 4
  read_threads: 2
  file_shuffle: seed
train:
  epochs: 1
  computation_time: 0.001
checkpoint:
  checkpoint_folder: ck
  checkpoint_after_epoch: 2
  epochs_between_checkpoints: 2
metric:
  au: 0.0
)");
  Outcome o = dlgen(
      "run tiny.yaml ++workload.train.epochs=3 workload.reader.read_threads=1 -q -o r.json "
      "--dlio-summary summary.json",
      tmp.path());
  if (uring_skip(o)) GTEST_SKIP() << o.out;
  ASSERT_EQ(o.code, 0) << o.out;
  auto j = nlohmann::json::parse(std::ifstream(tmp / "r.json"));
  // DLIO's summary.json names, for scripts that read DLIO results; the real MiB/s beside the
  // nominal.
  auto sum = nlohmann::json::parse(std::ifstream(tmp / "summary.json"));
  const auto& m = sum["metric"];
  EXPECT_EQ(m["train_au_percentage"].size(), 3u);
  EXPECT_EQ(m["train_throughput_samples_per_second"].size(), 3u);
  // DLIO's aggregation: the mean of the per-epoch list; the verdict's AU under "dlgen".
  double au_mean = 0;
  for (const auto& a : m["train_au_percentage"]) au_mean += a.get<double>() / 3;
  EXPECT_NEAR(m["train_au_mean_percentage"].get<double>(), au_mean, 1e-9);
  EXPECT_DOUBLE_EQ(sum["dlgen"]["au_percentage"].get<double>(), j["au"].get<double>() * 100);
  EXPECT_EQ(m["train_au_meet_expectation"], "success");  // threshold 0
  EXPECT_DOUBLE_EQ(m["train_throughput_mean_samples_per_second"].get<double>(),
                   j["samples_per_s"].get<double>());
  EXPECT_NEAR(m["train_io_mean_MB_per_second"].get<double>(),
              j["samples_per_s"].get<double>() * 65536 / 1048576.0, 1e-6);
  EXPECT_DOUBLE_EQ(sum["dlgen"]["train_io_actual_mean_MiB_per_second"].get<double>(),
                   j["train"]["mib_per_s"].get<double>());
  EXPECT_EQ(sum["num_files_train"].get<std::uint64_t>(), 16u);
  EXPECT_EQ(sum["num_accelerators"].get<std::uint64_t>(), 1u);
  EXPECT_EQ(j["samples"].get<std::uint64_t>(), 3u * 16u);  // 3 epochs from the override
  EXPECT_EQ(j["checkpoint"]["count"].get<std::uint64_t>(),
            1u);  // after epoch 2 only (then 4, 6...)
  EXPECT_TRUE(std::filesystem::exists(tmp / "data/tiny/train"));  // DLIO's <data_folder>/train

  o = dlgen("convert tiny.yaml ++workload.train.epochs=3 -o tiny.toml", tmp.path());
  ASSERT_EQ(o.code, 0) << o.out;
  std::ifstream t(tmp / "tiny.toml");
  const std::string toml{std::istreambuf_iterator<char>(t), std::istreambuf_iterator<char>()};
  EXPECT_NE(toml.find("num_files = 16  # DLIO dataset.num_files_train (line 12)"),
            std::string::npos)
      << toml;
  EXPECT_NE(toml.find("epochs = 3  # DLIO train.epochs (command line)"), std::string::npos) << toml;
  o = dlgen("run tiny.toml --no-generate -q -o t.json", tmp.path());
  ASSERT_EQ(o.code, 0) << o.out;
  auto k = nlohmann::json::parse(std::ifstream(tmp / "t.json"));
  EXPECT_EQ(k["samples"], j["samples"]);
  EXPECT_EQ(k["checkpoint"]["count"], j["checkpoint"]["count"]);

  // --set still works on a DLIO config, after the conversion.
  o = dlgen("run tiny.yaml --set run.epochs=1 --set checkpoint.enabled=false -q -o s.json",
            tmp.path());
  ASSERT_EQ(o.code, 0) << o.out;
  EXPECT_EQ(nlohmann::json::parse(std::ifstream(tmp / "s.json"))["samples"].get<std::uint64_t>(),
            16u);

  // The plan as JSON: 16 files of 64 KiB, batch 4 on 2 accelerators: 2 steps an epoch each.
  o = dlgen(
      "run tiny.yaml ++workload.train.epochs=4 --set run.accelerators=2 --dry-run -q --output "
      "plan.json",
      tmp.path());
  ASSERT_EQ(o.code, 0) << o.out;
  auto p = nlohmann::json::parse(std::ifstream(tmp / "plan.json"));
  EXPECT_EQ(p["dataset"]["num_files"].get<std::uint64_t>(), 16u);
  EXPECT_GE(p["dataset"]["bytes"].get<std::uint64_t>(), 16u * 65536u);  // npz: payload plus headers
  EXPECT_EQ(p["steps_per_epoch_per_accelerator"].get<std::uint64_t>(), 2u);
  EXPECT_EQ(p["steps_per_accelerator"].get<std::uint64_t>(), 8u);
  EXPECT_EQ(p["checkpoint"]["count"].get<std::uint64_t>(), 2u);  // after epochs 2 and 4
  EXPECT_EQ(p["checkpoint"]["bytes"].get<std::uint64_t>(), 1048576u);
  EXPECT_EQ(p["checkpoint"]["files"].get<std::uint64_t>(), 1u);
  EXPECT_DOUBLE_EQ(p["min_runtime_s"].get<double>(), 8 * 0.001);

  write(tmp / "bad.yaml", "dataset:\n  num_files_train: 4\n  record_lenght_bytes: 100\n");
  o = dlgen("validate bad.yaml", tmp.path());
  EXPECT_EQ(o.code, 2) << o.out;
  EXPECT_NE(o.out.find("bad.yaml:3: dataset.record_lenght_bytes"), std::string::npos) << o.out;
  o = dlgen("run tiny.yaml notanoverride --dry-run", tmp.path());
  EXPECT_EQ(o.code, 2) << o.out;
}

// MLPerf Storage's run rules end to end: the dataset sized by the rules, warm-up + runs, the
// verdict and the three report files; the HTML summary loads in headless Chromium with its plots.
TEST(RunE2E, MlperfRulesWriteAVerdictAndReports) {
  TempDir tmp("dlgen-e2e-mlperf");
  std::string job = kJob;
  job.replace(job.find("au_threshold = 0.0"), 18, "au_threshold = 0.5");
  write(tmp / "job.toml", job);
  const Outcome o = dlgen(
      "mlperf job.toml --ram 1MiB --runs 2 --set checkpoint.enabled=false --set "
      "reader.batch_size=1 "
      "--set run.epochs=1 --results-dir sub --submitter ACME --system box1",
      tmp.path());
  if (uring_skip(o)) GTEST_SKIP() << o.out;
  ASSERT_EQ(o.code, 0) << o.out;
  EXPECT_NE(o.out.find("dataset sized to 500 files"), std::string::npos)
      << o.out;                                                       // 500 steps x batch 1
  EXPECT_NE(o.out.find("e2e: INVALID"), std::string::npos) << o.out;  // not an MLPerf workload
  const auto j = nlohmann::json::parse(std::ifstream(tmp / "mlperf-results/results.json"));
  EXPECT_EQ(j["runs"].size(), 3u);  // warm-up + 2
  EXPECT_EQ(j["dataset"]["files"].get<std::uint64_t>(), 500u);
  EXPECT_GT(j["mean"]["samples_per_s"].get<double>(), 0);
  EXPECT_TRUE(std::filesystem::exists(tmp / "mlperf-results/results.csv"));
  const std::string html = (tmp / "mlperf-results/summary.html").string();
  const Outcome dom = shell("chromium --headless --no-sandbox --disable-gpu --dump-dom 'file://" +
                            html + "' 2>/dev/null");
  ASSERT_EQ(dom.code, 0) << dom.out;
  EXPECT_NE(dom.out.find("class=\"verdict\">INVALID</p>"), std::string::npos) << dom.out;
  EXPECT_NE(dom.out.find("<rect"), std::string::npos);
  // The submission folder: the warm-up and both runs, each with DLIO's summary.json.
  const std::filesystem::path run = tmp / "sub/invalid/ACME/results/box1/training/e2e/run";
  EXPECT_TRUE(std::filesystem::exists(run / "results.json"));
  std::size_t folders = 0;
  for (const auto& d : std::filesystem::directory_iterator(run)) {
    if (!d.is_directory()) continue;
    ++folders;
    const auto s = nlohmann::json::parse(std::ifstream(d.path() / "summary.json"));
    EXPECT_GT(s["metric"]["train_throughput_mean_samples_per_second"].get<double>(), 0);
    EXPECT_TRUE(std::filesystem::exists(d.path() / "dlio_config/config.yaml"));
  }
  EXPECT_EQ(folders, 3u);
  EXPECT_TRUE(std::filesystem::exists(tmp / "sub/invalid/ACME/systems/box1.json"));
}

// The job the MLPerf rules resize is validated again before anything is generated or planned:
// 1-byte samples and 1 PiB of client RAM ask for more files than dlgen can hold (exit 2, the
// limit named), where the resized job used to go straight to planning 5.6e15 samples.
TEST(RunE2E, MlperfValidatesTheResizedJob) {
  TempDir tmp("dlgen-e2e-mlperf-resize");
  write(tmp / "job.toml", kJob);
  const Outcome o = dlgen(
      "mlperf job.toml --engine null --ram 1PiB --set dataset.sample_size=1 --set "
      "checkpoint.enabled=false",
      tmp.path());
  EXPECT_EQ(o.code, 2) << o.out;
  EXPECT_NE(o.out.find("resized by the MLPerf rules to"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("dataset.num_files"), std::string::npos) << o.out;
  EXPECT_FALSE(std::filesystem::exists(tmp / "data")) << "nothing generated";
  EXPECT_FALSE(std::filesystem::exists(tmp / "mlperf-results"));
}

// MLPerf Storage's checkpointing rules end to end on the shipped Llama 3 8B job at its small
// scale: 2 written and 2 read, one of each per run by default; INVALID (the small model is not
// the workload) with the reason; the HTML summary loads in headless Chromium with its plots; the
// submission folder holds each run's DLIO-named summary.json.
TEST(RunE2E, MlperfCheckpointingRulesAndSubmissionFolder) {
  TempDir tmp("dlgen-e2e-mlperf-ck");
  // v2.0's rules: one checkpoint written and read per run (v3.0: RulesV3 tests below).
  const Outcome o = dlgen("mlperf '" DLGEN_SOURCE_DIR
                          "/jobs/llama3-8b.toml' --rules v2.0 --scale small --output-dir out "
                          "--results-dir sub --submitter 'ACME Labs' --system fast1",
                          tmp.path());
  ASSERT_EQ(o.code, 0) << o.out;
  EXPECT_NE(o.out.find("llama3-8b: INVALID: 2 run(s) x (1 written + 1 read)"), std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("model: 2 layers"), std::string::npos) << o.out;
  const auto j = nlohmann::json::parse(std::ifstream(tmp / "out/results.json"));
  ASSERT_EQ(j["runs"].size(), 2u);
  for (const auto& r : j["runs"]) {
    EXPECT_EQ(r["write"]["checkpoints"], 1);
    EXPECT_EQ(r["read"]["checkpoints"], 1);
    EXPECT_GT(r["write"]["throughput_bytes_per_s"].get<double>(), 0);
    EXPECT_GT(r["read"]["duration_s"].get<double>(), 0);
  }
  // Run 2 wrote its own checkpoint, as one combined run would.
  EXPECT_TRUE(std::filesystem::exists(tmp / "data/checkpoints/llama3-8b/global_epoch1_step2"));
  const std::string html = (tmp / "out/summary.html").string();
  const Outcome dom = shell("chromium --headless --no-sandbox --disable-gpu --dump-dom 'file://" +
                            html + "' 2>/dev/null");
  ASSERT_EQ(dom.code, 0) << dom.out;
  EXPECT_NE(dom.out.find("class=\"verdict\">INVALID</p>"), std::string::npos) << dom.out;
  EXPECT_NE(dom.out.find("<rect"), std::string::npos);
  const std::filesystem::path w =
      tmp / "sub/invalid/ACME-Labs/results/fast1/checkpointing/llama3-8b";
  EXPECT_TRUE(std::filesystem::exists(w / "results.json"));
  std::size_t folders = 0;
  for (const auto& d : std::filesystem::directory_iterator(w)) {
    if (!d.is_directory()) continue;
    ++folders;
    const auto s = nlohmann::json::parse(std::ifstream(d.path() / "summary.json"));
    EXPECT_GT(s["metric"]["save_checkpoint_io_mean_GB_per_second"].get<double>(), 0);
    EXPECT_GT(s["metric"]["load_checkpoint_duration_mean_seconds"].get<double>(), 0);
    EXPECT_TRUE(std::filesystem::exists(d.path() / "checkpointing_run.stdout.log"));
  }
  EXPECT_EQ(folders, 2u);
  // The same submission folder again: refused before any run.
  const Outcome again = dlgen("mlperf '" DLGEN_SOURCE_DIR
                              "/jobs/llama3-8b.toml' --rules v2.0 --scale small --results-dir sub "
                              "--submitter 'ACME Labs' --system fast1",
                              tmp.path());
  EXPECT_EQ(again.code, 2) << again.out;
  EXPECT_NE(again.out.find("already there"), std::string::npos) << again.out;
  EXPECT_EQ(again.out.find("run 1"), std::string::npos) << again.out;
  // 2 checkpoints do not split over 3 runs: refused as bad input.
  const Outcome bad =
      dlgen("mlperf '" DLGEN_SOURCE_DIR "/jobs/llama3-8b.toml' --rules v2.0 --scale small --runs 3",
            tmp.path());
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("do not split evenly"), std::string::npos) << bad.out;
}

// MLPerf Storage's LLM checkpointing, checkpoint-only: the shipped Llama 3 8B job at its small
// scale (8 ranks, ZeRO 3, 2 checkpoints written and 2 read), then MLPerf's DLIO config as it is
// with Hydra overrides shrinking the model; the JSON's figures obey their definitions.
TEST(RunE2E, LlmCheckpointOnlyWorkflowFromTheShippedJobAndTheDlioConfig) {
  TempDir tmp("dlgen-e2e-llm");
  const std::string src = DLGEN_SOURCE_DIR;
  Outcome o = dlgen("run '" + src + "/jobs/llama3-8b.toml' --scale small -o r.json", tmp.path());
  ASSERT_EQ(o.code, 0) << o.out;
  EXPECT_NE(o.out.find("8 simulated rank(s) of 8"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("page cache   dropped before the reads"), std::string::npos) << o.out;
  auto j = nlohmann::json::parse(std::ifstream(tmp / "r.json"));
  EXPECT_EQ(j["workflow"], "checkpoint");
  EXPECT_EQ(j["config"]["ranks"], 8);
  const std::uint64_t bytes = j["config"]["checkpoint_bytes"];
  for (const char* phase : {"write", "read"}) {
    SCOPED_TRACE(phase);
    EXPECT_EQ(j[phase]["count"], 2);
    EXPECT_EQ(j[phase]["bytes"].get<std::uint64_t>(), 2 * bytes);
    for (const auto& c : j[phase]["checkpoints"]) {
      double slowest = 0;
      std::uint64_t sum = 0;
      for (const auto& r : c["ranks"]) {
        slowest = std::max(slowest, r["seconds"].get<double>());
        sum += r["bytes"].get<std::uint64_t>();
      }
      EXPECT_EQ(sum, bytes);
      EXPECT_DOUBLE_EQ(c["duration_s"].get<double>(), slowest);
      EXPECT_NEAR(c["throughput_bytes_per_s"].get<double>() * slowest, double(bytes),
                  1e-6 * double(bytes));
    }
  }
  EXPECT_TRUE(std::filesystem::exists(tmp / "data/checkpoints/llama3-8b/global_epoch1_step2"));

  // The DLIO config as MLPerf ships it, shrunk by overrides: same shards as the TOML job's scale.
  const std::string shrink =
      " ++workload.model.num_layers=2 ++workload.model.transformer.hidden_size=256"
      " ++workload.model.transformer.ffn_hidden_size=896 "
      "++workload.model.transformer.vocab_size=2000"
      " ++workload.model.transformer.num_attention_heads=8 "
      "++workload.model.transformer.num_kv_heads=2"
      " ++workload.checkpoint.num_checkpoints_write=1 ++workload.checkpoint.num_checkpoints_read=1";
  o = dlgen("run '" + src + "/tests/data/dlio/llama3_8b.yaml'" + shrink + " -q -o d.json",
            tmp.path());
  ASSERT_EQ(o.code, 0) << o.out;
  auto d = nlohmann::json::parse(std::ifstream(tmp / "d.json"));
  EXPECT_EQ(d["config"]["checkpoint_bytes"].get<std::uint64_t>(), bytes);
  EXPECT_EQ(d["write"]["count"], 1);
  EXPECT_TRUE(std::filesystem::exists(tmp / "checkpoints/llama_8b/global_epoch1_step1"));

  // The plan, full size, writes nothing: 104.7 GiB per checkpoint over 8 ranks.
  o = dlgen("run '" + src + "/jobs/llama3-8b.toml' --dry-run -q -o plan.json", tmp.path());
  ASSERT_EQ(o.code, 0) << o.out;
  auto p = nlohmann::json::parse(std::ifstream(tmp / "plan.json"));
  EXPECT_NEAR(p["checkpoint"]["bytes"].get<double>() / (1024.0 * 1024 * 1024), 104.7, 0.05);
  EXPECT_EQ(p["checkpoint"]["files"], 16);
  EXPECT_FALSE(std::filesystem::exists(tmp / "data/checkpoints/llama3-8b/global_epoch1_step3"));
  o = dlgen("run '" + src + "/jobs/llama3-8b.toml' --find-max-accelerators", tmp.path());
  EXPECT_EQ(o.code, 2) << o.out;
}

}  // namespace
