// The runner with a fake clock and the null engine (AU arithmetic, steps, checkpoints at no real
// cost), and with the io_uring and pread engines on real files (bytes read exact, O_DIRECT).
#include <gtest/gtest.h>
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "dlgen/datasets/layout.hpp"
#include "dlgen/replay/checkpoint.hpp"
#include "dlgen/replay/runner.hpp"
#include "temp_dir.hpp"

namespace dlgen::replay {
namespace {

using dlgen::testing::TempDir;

Job small_job(const std::filesystem::path& dir, std::uint64_t files, Distribution size) {
  Job job;
  job.name = "runner-test";
  job.dataset.dir = dir;
  job.dataset.format = Format::raw;
  job.dataset.num_files = files;
  job.dataset.sample_size = size;
  job.dataset.seed = 3;
  job.reader.batch_size = 4;
  job.reader.workers = 2;
  job.reader.prefetch = 2;
  job.reader.iodepth = 4;
  job.reader.shuffle = Shuffle::file;
  job.compute.step_time = Distribution::fixed_at(0);
  job.compute.au_threshold = 0.9;
  job.run.epochs = 1;
  return job;
}

Distribution uniform(double lo, double hi) {
  Distribution d;
  d.kind = DistKind::uniform;
  d.min = lo;
  d.max = hi;
  return d;
}

// Writes the files the layout names, with their exact sizes (random bytes): the replay only
// needs the sizes to be right, so these tests do not depend on the generator.
void write_dataset(const DatasetSpec& spec) {
  const datasets::Layout layout(spec);
  std::mt19937_64 rng(9);
  std::vector<char> buf;
  for (std::uint64_t f = 0; f < layout.num_files(); ++f) {
    std::filesystem::create_directories(layout.path(f).parent_path());
    buf.resize(layout.file_size(f));
    for (auto& c : buf) c = static_cast<char>(rng());
    std::ofstream(layout.path(f), std::ios::binary).write(buf.data(), static_cast<std::streamsize>(buf.size()));
  }
}

bool uring_available() { return static_cast<bool>(probe_engine(EngineKind::uring)); }

bool direct_supported(const std::filesystem::path& dir) {
  const auto p = dir / "direct-probe";
  std::ofstream(p) << "x";
  const int fd = ::open(p.c_str(), O_RDONLY | O_DIRECT);
  std::filesystem::remove(p);
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

// Runs `job` on the null engine and a fresh fake clock (no real time, no real I/O).
Result<Report> run_fake(const Job& job) {
  FakeClock clock;
  RunOptions o;
  o.engine = EngineKind::null;
  o.series = false;
  o.clock = &clock;
  return run_job(job, o);
}

TEST(Runner, FakeClockComputesWithoutRealTimeAndAuIsFull) {
  Job job = small_job("/nonexistent/fake", 40, Distribution::fixed_at(10000));
  job.compute.step_time = Distribution::fixed_at(0.120);  // 120 ms a step, 10 steps, 3 epochs
  job.run.epochs = 3;
  const auto t0 = std::chrono::steady_clock::now();
  Result<Report> r = run_fake(job);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(3)) << "fake time must cost no real time";
  EXPECT_EQ(r->steps, 30u);
  EXPECT_EQ(r->samples, 120u);
  EXPECT_EQ(r->bytes_read, 120u * 10000u);  // raw, one sample a file: whole files
  EXPECT_EQ(r->requests, 120u);
  EXPECT_NEAR(r->elapsed_s, 30 * 0.120, 1e-6);
  ASSERT_EQ(r->per_accelerator.size(), 1u);
  EXPECT_NEAR(r->per_accelerator[0].compute_s, 30 * 0.120, 1e-6);  // every step computes
  EXPECT_DOUBLE_EQ(r->au, 1.0);
  EXPECT_TRUE(r->passed);
  EXPECT_NEAR(r->compute.measured_mean_s, 0.120, 1e-9);
  EXPECT_NEAR(r->compute.mean_abs_error_s, 0, 1e-9);
  ASSERT_EQ(r->epochs_detail.size(), 3u);
  EXPECT_EQ(r->epochs_detail[1].samples, 40u);
}

// reader.startup: each epoch's readers begin that long after the epoch starts (PyTorch re-forking its
// DataLoader workers); the accelerator waits meanwhile, on the fake clock at no real cost.
TEST(Runner, ReaderStartupDelaysEachEpoch) {
  Job job = small_job("/nonexistent/fake", 40, Distribution::fixed_at(10000));
  job.compute.step_time = Distribution::fixed_at(0.120);
  job.run.epochs = 3;
  job.reader.startup_s = 0.5;
  const auto t0 = std::chrono::steady_clock::now();
  Result<Report> r = run_fake(job);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(3)) << "fake time must cost no real time";
  EXPECT_EQ(r->steps, 30u);
  EXPECT_NEAR(r->elapsed_s, 30 * 0.120 + 3 * 0.5, 1e-6);
}

// reader.warmup: each worker's first sample of an epoch takes that much longer, so the first batch of
// every epoch arrives that much later (one worker: the whole delay is on the accelerator's path).
TEST(Runner, ReaderWarmupDelaysEachEpochsFirstBatch) {
  Job job = small_job("/nonexistent/fake", 40, Distribution::fixed_at(10000));
  job.reader.workers = 1;
  job.compute.step_time = Distribution::fixed_at(0.120);
  job.run.epochs = 3;
  Result<Report> base = run_fake(job);
  ASSERT_TRUE(base) << base.error().message;
  job.reader.warmup_s = 0.25;
  Result<Report> r = run_fake(job);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->steps, base->steps);
  EXPECT_NEAR(r->elapsed_s - base->elapsed_s, 3 * 0.25, 0.01);
}

// reader.preprocess: one worker processes its 40 samples one after another after reading each
// (fake clock: no real time), so a data-bound epoch lasts about samples x preprocess / workers.
TEST(Runner, ReaderPreprocessDelaysEverySample) {
  Job job = small_job("/nonexistent/fake", 40, Distribution::fixed_at(10000));
  job.reader.workers = 1;
  job.compute.step_time = Distribution::fixed_at(0.001);
  job.run.epochs = 2;
  Result<Report> base = run_fake(job);
  ASSERT_TRUE(base) << base.error().message;
  job.reader.preprocess = Distribution::fixed_at(0.010);
  const auto t0 = std::chrono::steady_clock::now();
  Result<Report> r = run_fake(job);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(3)) << "fake time must cost no real time";
  EXPECT_EQ(r->steps, 20u);
  EXPECT_EQ(r->epochs_detail[0].samples, 40u);
  // 2 epochs x 40 samples x 10 ms on one worker; the last step's compute follows.
  EXPECT_NEAR(r->elapsed_s - base->elapsed_s, 2 * 40 * 0.010, 0.02);
}

TEST(Runner, EvaluationPassesReadTheValidationSet) {
  Job job = small_job("/nonexistent/train", 16, Distribution::fixed_at(1000));
  DatasetSpec v = job.dataset;
  v.dir = "/nonexistent/valid";
  v.num_files = 6;
  v.sample_size = Distribution::fixed_at(500);
  job.validation = v;
  job.run.epochs = 4;
  job.run.eval_every_epochs = 2;
  job.compute.step_time = Distribution::fixed_at(0.05);
  Result<Report> r = run_fake(job);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->epochs_detail.size(), 6u);  // 4 epochs + 2 evaluation passes
  EXPECT_FALSE(r->epochs_detail[1].eval);
  EXPECT_TRUE(r->epochs_detail[2].eval);
  EXPECT_EQ(r->epochs_detail[2].epoch, 2u);
  EXPECT_EQ(r->epochs_detail[2].samples, 6u);
  EXPECT_EQ(r->epochs_detail[2].bytes, 6u * 500u);
  EXPECT_EQ(r->samples, 4u * 16u);  // training samples only
  EXPECT_EQ(r->bytes_read, 4u * 16u * 1000u + 2u * 6u * 500u);
}

TEST(Runner, MaxTimeStopsTheRunEarly) {
  Job job = small_job("/nonexistent/maxtime", 400, Distribution::fixed_at(100));
  job.compute.step_time = Distribution::fixed_at(0.1);  // 100 steps of 0.1 s an epoch
  job.run.epochs = 3;
  job.run.max_seconds = 1.0;
  Result<Report> r = run_fake(job);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->epochs_detail.size(), 1u);
  EXPECT_GE(r->steps, 10u);
  EXPECT_LE(r->steps, 11u);
  ASSERT_FALSE(r->warnings.empty());
  EXPECT_NE(r->warnings.back().find("max_time"), std::string::npos);
}

TEST(Runner, CacheDropModesRunOnRealFiles) {
  TempDir tmp("dlgen-cache");
  Job job = small_job(tmp / "data", 12, Distribution::fixed_at(8192));
  job.run.epochs = 2;
  job.run.cache = CacheMode::drop_epoch;
  write_dataset(job.dataset);
  RunOptions o;
  o.engine = EngineKind::pread;
  o.series = false;
  o.drop_caches_globally = false;  // fadvise only: do not disturb the rest of the machine
  Result<Report> r = run_job(job, o);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->bytes_read, 2u * 12u * 8192u);
  EXPECT_EQ(r->cache_mode, "drop_epoch");
}

TEST(Runner, ChunkedReadsAndHeaderRequests) {
  Job job = small_job("/nonexistent/chunks", 10, Distribution::fixed_at(100000));
  job.reader.request_size_bytes = 32768;  // 100000 B → 4 requests
  job.reader.header_read_bytes = 128;     // + 1 header request
  Result<Report> r = run_fake(job);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->requests, 10u * 5u);
  EXPECT_EQ(r->bytes_read, 10u * 100000u);  // the header range is not read twice
}

TEST(Runner, StepCheckpointsAreWrittenWithTheirSizes) {
  TempDir tmp("dlgen-ckpt");
  Job job = small_job("/nonexistent/ck", 32, Distribution::fixed_at(1000));
  job.run.accelerators = 2;
  job.run.epochs = 2;  // 4 steps an epoch per accelerator
  job.checkpoint.enabled = true;
  job.checkpoint.every_steps = 3;
  job.checkpoint.every_epochs = 2;
  job.checkpoint.size_bytes = 3 * 1000 * 1000 + 1;
  job.checkpoint.files = 3;
  job.checkpoint.write_size_bytes = 65536;
  job.checkpoint.fsync = false;
  job.checkpoint.dir = tmp / "ck";
  Result<Report> r = run_fake(job);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->checkpoint.count, 2u + 1u);  // steps 3 and 6 of 8, and after epoch 2
  EXPECT_EQ(r->checkpoint.bytes, 3 * job.checkpoint.size_bytes);
  const auto paths = checkpoint_paths(job.checkpoint);
  ASSERT_EQ(paths.size(), 3u);
  std::uint64_t total = 0;
  for (const auto& p : paths) total += std::filesystem::file_size(p);
  EXPECT_EQ(total, job.checkpoint.size_bytes);
  EXPECT_EQ(std::filesystem::file_size(paths[0]), 1000001u);
  EXPECT_EQ(std::filesystem::file_size(paths[2]), 1000000u);
}

TEST(Runner, RestoreReadsTheCheckpointBack) {
  TempDir tmp("dlgen-restore");
  CheckpointSpec c;
  c.enabled = true;
  c.size_bytes = 2 << 20;
  c.files = 2;
  c.write_size_bytes = 1 << 20;
  c.dir = tmp / "ck";
  CheckpointResult res;
  ASSERT_TRUE(restore_checkpoint(c, res));
  EXPECT_EQ(res.restore_bytes, 2u << 20);
  EXPECT_EQ(res.count, 0u);  // the setup write is not reported as a checkpoint
}

class RealFiles : public ::testing::TestWithParam<std::tuple<EngineKind, bool>> {};

TEST_P(RealFiles, ReadsExactlyTheDatasetsBytes) {
  const auto [engine, direct] = GetParam();
  if (engine == EngineKind::uring && !uring_available()) GTEST_SKIP() << "io_uring is not available here";
  TempDir tmp("dlgen-real");
  if (direct && !direct_supported(tmp.path())) GTEST_SKIP() << "the temp file system refuses O_DIRECT";
  Job job = small_job(tmp / "data", 60, uniform(1, 300000));  // odd sizes, some below one block
  job.dataset.files_per_dir = 16;
  job.reader.direct = direct;
  job.reader.iodepth = 8;
  job.run.epochs = 2;
  write_dataset(job.dataset);
  const datasets::Layout layout(job.dataset);
  RunOptions o;
  o.engine = engine;
  o.series = true;
  Result<Report> r = run_job(job, o);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->bytes_read, 2 * layout.total_bytes());
  EXPECT_EQ(r->samples, 120u);
  EXPECT_EQ(r->files_opened, 120u);
  EXPECT_EQ(r->requests, 120u);  // a whole file in one request
  EXPECT_EQ(r->latency.count, 120u);
  EXPECT_GT(r->latency.max_us, 0.0);
  EXPECT_GT(r->mib_per_s, 0.0);
}

// reader.probe: each file is first read `probe` bytes at 0, then from its start again.
TEST(Runner, ProbeReadsTheStartOfEachFileFirst) {
  Job job = small_job("/nonexistent/fake", 10, Distribution::fixed_at(20000));
  job.run.epochs = 1;
  Result<Report> base = run_fake(job);
  ASSERT_TRUE(base) << base.error().message;
  job.reader.probe_bytes = 4096;
  Result<Report> r = run_fake(job);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->requests, base->requests + 10);
  EXPECT_EQ(r->bytes_read, base->bytes_read + 10 * 4096);
}

// reader.readahead: each small sample is read with (at least) that many bytes from its start, as
// HDF5's sieve buffer does, clipped at the end of the file (buffered, as such libraries read).
TEST(Runner, ReadaheadReadsMoreThanEachSample) {
  for (EngineKind engine : {EngineKind::uring, EngineKind::pread}) {
    if (engine == EngineKind::uring && !uring_available()) continue;  // the pread engine still runs
    SCOPED_TRACE(engine == EngineKind::uring ? "uring" : "pread");
    TempDir tmp("dlgen-readahead");
    Job job = small_job(tmp / "data", 4, Distribution::fixed_at(1000));
    job.dataset.samples_per_file = 10;
    job.reader.read_unit = ReadUnit::sample;
    job.reader.shuffle = Shuffle::sample;
    job.reader.readahead_bytes = 4096;
    write_dataset(job.dataset);
    const datasets::Layout layout(job.dataset);
    std::uint64_t want = 0;
    for (std::uint64_t f = 0; f < 4; ++f)
      for (std::uint32_t s = 0; s < 10; ++s) {
        const auto e = layout.sample_extent(f, s);
        want += std::min<std::uint64_t>(4096, layout.file_size(f) - e.offset);
      }
    RunOptions o;
    o.engine = engine;
    o.series = false;
    Result<Report> r = run_job(job, o);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->samples, 40u);
    EXPECT_EQ(r->requests, 40u);
    EXPECT_EQ(r->bytes_read, want);
    EXPECT_GT(r->bytes_read, 40u * 1000u);
  }
}

TEST_P(RealFiles, ReadsSampleExtentsInsideFiles) {
  const auto [engine, direct] = GetParam();
  if (engine == EngineKind::uring && !uring_available()) GTEST_SKIP() << "io_uring is not available here";
  TempDir tmp("dlgen-extent");
  if (direct && !direct_supported(tmp.path())) GTEST_SKIP() << "the temp file system refuses O_DIRECT";
  Job job = small_job(tmp / "data", 8, uniform(1000, 9000));
  job.dataset.samples_per_file = 5;
  job.reader.read_unit = ReadUnit::sample;
  job.reader.shuffle = Shuffle::sample;
  job.reader.direct = direct;
  job.reader.request_size_bytes = 4096;
  write_dataset(job.dataset);
  const datasets::Layout layout(job.dataset);
  std::uint64_t want = 0, requests = 0;
  for (std::uint64_t f = 0; f < 8; ++f)
    for (std::uint32_t s = 0; s < 5; ++s) {
      const auto e = layout.sample_extent(f, s);
      want += e.length;
      requests += direct ? (e.offset + e.length + 4095) / 4096 - e.offset / 4096 : (e.length + 4095) / 4096;
    }
  RunOptions o;
  o.engine = engine;
  o.series = false;
  Result<Report> r = run_job(job, o);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->bytes_read, want);
  EXPECT_EQ(r->samples, 40u);
  EXPECT_EQ(r->requests, requests);
}

INSTANTIATE_TEST_SUITE_P(Engines, RealFiles,
                         ::testing::Combine(::testing::Values(EngineKind::uring, EngineKind::pread),
                                            ::testing::Bool()),
                         [](const auto& info) {
                           return std::string(to_string(std::get<0>(info.param))) +
                                  (std::get<1>(info.param) ? "_direct" : "_buffered");
                         });

TEST(Runner, MissingFileNamesThePathAndHowToGenerate) {
  TempDir tmp("dlgen-missing");
  Job job = small_job(tmp / "nothing", 4, Distribution::fixed_at(100));
  RunOptions o;
  o.engine = EngineKind::pread;
  o.series = false;
  Result<Report> r = run_job(job, o);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find((tmp / "nothing").string()), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("dlgen generate"), std::string::npos) << r.error().message;
}

TEST(Runner, RealClockComputeDelayIsAccurate) {
  Job job = small_job("/nonexistent/clock", 24, Distribution::fixed_at(100));
  job.compute.step_time = Distribution::fixed_at(0.004);
  RunOptions o;
  o.engine = EngineKind::null;
  o.series = false;
  Result<Report> r = run_job(job, o);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->compute.steps, 6u);
  EXPECT_GE(r->compute.measured_mean_s, 0.004);  // an absolute deadline never wakes early
  EXPECT_NEAR(r->compute.configured_mean_s, 0.004, 1e-9);
}

TEST(Report, JsonHasTheFieldsScriptsRead) {
  Job job = small_job("/nonexistent/json", 16, Distribution::fixed_at(4096));
  job.compute.step_time = Distribution::fixed_at(0.01);
  Result<Report> r = run_fake(job);
  ASSERT_TRUE(r) << r.error().message;
  const auto j = nlohmann::json::parse(to_json(*r));
  for (const char* k : {"job", "engine", "elapsed_s", "samples", "steps", "bytes_read", "requests", "samples_per_s",
                        "mib_per_s", "au", "au_threshold", "passed", "latency_us", "per_accelerator", "epochs",
                        "checkpoint", "compute", "dataset", "warnings"})
    EXPECT_TRUE(j.contains(k)) << k;
  EXPECT_EQ(j["samples"].get<std::uint64_t>(), 16u);
  EXPECT_EQ(j["bytes_read"].get<std::uint64_t>(), 16u * 4096u);
  EXPECT_TRUE(j["latency_us"].contains("p99.9"));
  EXPECT_EQ(j["epochs"].size(), 1u);
  EXPECT_EQ(j["passed"].get<bool>(), true);
  EXPECT_NE(format_summary(*r).find("PASS"), std::string::npos);
}

TEST(Histogram, PercentilesWithinBucketPrecision) {
  LatencyHistogram h;
  for (std::uint64_t v = 1; v <= 100000; ++v) h.record(v * 1000);  // 1 us .. 100 ms
  EXPECT_EQ(h.count(), 100000u);
  EXPECT_EQ(h.max(), 100000u * 1000u);
  EXPECT_NEAR(static_cast<double>(h.percentile(0.5)), 50e6, 50e6 * 0.07);
  EXPECT_NEAR(static_cast<double>(h.percentile(0.99)), 99e6, 99e6 * 0.07);
  EXPECT_LE(h.percentile(1.0), h.max());
  for (std::uint64_t v : {0ull, 1ull, 15ull, 16ull, 17ull, 1000ull, 123456789ull, ~0ull}) {
    const int b = LatencyHistogram::bucket(v);
    ASSERT_LT(b, LatencyHistogram::kBuckets);
    EXPECT_LE(LatencyHistogram::bucket_low(b), v);
    if (b + 1 < LatencyHistogram::kBuckets) {
      EXPECT_GT(LatencyHistogram::bucket_low(b + 1), v);
    }
  }
}

}  // namespace
}  // namespace dlgen::replay
