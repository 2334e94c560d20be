// Job limits (core/include/dlgen/core/limits.hpp): absurd values are refused before anything is
// allocated, the plan's memory estimate bounds what the replay's planner really holds, and the
// dlgen binary exits 2 with file:line: key on them.
#include "dlgen/core/limits.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "dlgen/core/job_io.hpp"
#include "dlgen/datasets/layout.hpp"
#include "dlgen/replay/plan.hpp"
#include "temp_dir.hpp"

namespace dlgen {
namespace {

constexpr std::uint64_t kGiB = 1ull << 30;

Job small_job() {
  Job j;
  j.dataset.dir = "data/x";
  j.dataset.num_files = 1000;
  j.dataset.sample_size = Distribution::fixed_at(4096);
  return j;
}

bool has(const std::vector<Diagnostic>& ds, const std::string& path, const std::string& part) {
  for (const auto& d : ds)
    if (d.path == path && d.message.find(part) != std::string::npos) return true;
  return false;
}

std::string all(const std::vector<Diagnostic>& ds) {
  std::string s;
  for (const auto& d : ds) s += d.path + ": " + d.message + "\n";
  return s;
}

TEST(JobLimits, CheckedArithmeticDetectsOverflow) {
  EXPECT_EQ(limits::mul(1ull << 32, 1ull << 31), 1ull << 63);
  EXPECT_FALSE(limits::mul(1ull << 32, 1ull << 32));
  EXPECT_FALSE(limits::mul(99999999999999ull, 1ull << 50));
  EXPECT_EQ(limits::mul(0, UINT64_MAX), 0u);
  EXPECT_EQ(limits::add(UINT64_MAX - 1, 1), UINT64_MAX);
  EXPECT_FALSE(limits::add(UINT64_MAX, 1));
}

TEST(JobLimits, SaneJobPassesEveryLimit) {
  const auto ds = validate(small_job(), 8 * kGiB);
  EXPECT_TRUE(ds.empty()) << all(ds);
}

TEST(JobLimits, EachCountAndSizeHasALimitWithAReason) {
  Job j = small_job();
  j.dataset.num_files = limits::kMaxFiles + 1;
  j.reader.batch_size = limits::kMaxBatchSize + 1;
  j.reader.workers = limits::kMaxWorkers + 1;
  j.reader.prefetch = limits::kMaxPrefetch + 1;
  j.reader.iodepth = limits::kMaxIodepth + 1;
  j.reader.request_size_bytes = limits::kMaxRequestBytes + 1;
  j.run.accelerators = limits::kMaxAccelerators + 1;
  j.run.epochs = limits::kMaxEpochs + 1;
  j.compute.step_time = Distribution::fixed_at(limits::kMaxStepSeconds * 2);
  j.checkpoint.enabled = true;
  j.checkpoint.every_epochs = 1;
  j.checkpoint.dir = "ck";
  j.checkpoint.size_bytes = limits::kMaxCheckpointBytes + 1;
  j.checkpoint.files = limits::kMaxCheckpointFiles + 1;
  const auto ds = validate(j, 8 * kGiB);
  for (const char* path :
       {"dataset.num_files", "reader.batch_size", "reader.workers", "reader.prefetch",
        "reader.iodepth", "reader.request_size", "run.accelerators", "run.epochs", "compute.time",
        "checkpoint.size", "checkpoint.files"})
    EXPECT_TRUE(has(ds, path, "must be at most")) << path << "\n" << all(ds);
  // Every limit message says why (text after the "(got N): ").
  for (const auto& d : ds)
    if (d.message.starts_with("must be at most")) {
      EXPECT_NE(d.message.find("): "), std::string::npos) << d.message;
    }
  // Exactly at the limit is allowed.
  Job at = small_job();
  at.reader.workers = limits::kMaxWorkers;
  at.reader.iodepth = limits::kMaxIodepth;
  at.reader.prefetch = limits::kMaxPrefetch;
  EXPECT_FALSE(has(validate(at, 0), "reader.workers", "must be at most"));
  EXPECT_FALSE(has(validate(at, 0), "reader.iodepth", "must be at most"));
}

TEST(JobLimits, DistributionParametersAreBounded) {
  Job j = small_job();
  j.dataset.sample_size.kind = DistKind::normal;
  j.dataset.sample_size.mean = 2.0 * limits::kMaxSampleBytes;
  j.dataset.sample_size.stdev = 1;
  j.reader.preprocess.kind = DistKind::histogram;
  j.reader.preprocess.bins = {{0, 1, 1}, {1, 1e9, 1}};
  j.compute.step_time = Distribution::fixed_at(INFINITY);
  const auto ds = validate(j, 0);
  EXPECT_TRUE(has(ds, "dataset.sample_size.mean", "must be at most 1TiB")) << all(ds);
  EXPECT_TRUE(has(ds, "reader.preprocess.bins[1]", "must be at most 3600s")) << all(ds);
  EXPECT_TRUE(has(ds, "compute.time", "must be a finite duration")) << all(ds);
}

TEST(JobLimits, DatasetBytesMustFit64Bits) {
  Job j = small_job();
  j.dataset.num_files = limits::kMaxFiles;
  j.dataset.sample_size = Distribution::fixed_at(double(limits::kMaxSampleBytes));
  EXPECT_TRUE(has(validate(j, 0), "dataset.num_files", "the dataset would hold"))
      << all(validate(j, 0));
}

TEST(JobLimits, TooManyThreadsOnOneHost) {
  Job j = small_job();
  j.dataset.num_files = 1'000'000;
  j.run.accelerators = 512;
  j.reader.workers = 16;  // 512 x 17 = 8704 threads
  EXPECT_TRUE(has(validate(j, 0), "reader.workers", "8704 threads")) << all(validate(j, 0));
  j.reader.workers = 15;  // 8192: at the limit
  EXPECT_FALSE(has(validate(j, 0), "reader.workers", "threads")) << all(validate(j, 0));
}

TEST(JobLimits, RequestBufferFollowsTheReplaysBudget) {
  ReaderSpec r;
  EXPECT_EQ(limits::request_buffer_bytes(r, 1, 0), 256ull << 20);
  r.iodepth = 4;
  EXPECT_EQ(limits::request_buffer_bytes(r, 1, 0), 64ull << 20);
  // A quarter of 8 GiB over 16 workers x 8 accelerators: 16 MiB per worker, 4 MiB per request.
  r.workers = 16;
  EXPECT_EQ(limits::request_buffer_bytes(r, 8, 8 * kGiB), 4ull << 20);
  // Never below 128 KiB per request.
  r.iodepth = 1024;
  EXPECT_EQ(limits::request_buffer_bytes(r, 8, 8 * kGiB), 128ull << 10);
}

TEST(JobLimits, HeaderAndProbeMustFitTheRequestBuffer) {
  Job j = small_job();
  j.dataset.format = Format::npz;
  j.reader.iodepth = 64;  // 256 MiB / 64 = 4 MiB per request
  j.reader.header_read_bytes = 4ull << 20;
  j.reader.probe_bytes = 4ull << 20;
  EXPECT_FALSE(has(validate(j, 0), "reader.header_read", "must fit")) << all(validate(j, 0));
  j.reader.header_read_bytes = (4ull << 20) + 1;
  j.reader.probe_bytes = 8ull << 20;
  const auto ds = validate(j, 0);
  EXPECT_TRUE(has(ds, "reader.header_read",
                  "is one request and must fit the replay's buffer per request (4MiB"))
      << all(ds);
  EXPECT_TRUE(has(ds, "reader.probe", "is one request and must fit")) << all(ds);
}

TEST(JobLimits, PlanMemoryIsCheckedAgainstRam) {
  Job j = small_job();
  j.dataset.num_files =
      10'000'000;  // 10 M files of one sample: ~1 GB of plan, order and file table
  const auto need = limits::plan_memory_bytes(j);
  ASSERT_TRUE(need);
  EXPECT_GT(*need, 240'000'000u);
  EXPECT_LT(*need, 2'000'000'000u);
  EXPECT_FALSE(has(validate(j, 4 * kGiB), "dataset.num_files", "the plan needs"));
  const auto ds = validate(j, 256ull << 20);
  EXPECT_TRUE(has(ds, "dataset.num_files", "the plan needs")) << all(ds);
  EXPECT_TRUE(has(ds, "dataset.num_files", "for 10000000 samples")) << all(ds);
  // Varying sizes add the layout's per-sample tables; evaluation passes add the validation set.
  Job v = j;
  v.dataset.sample_size = {DistKind::normal, 0, 4096, 100};
  EXPECT_GT(*limits::plan_memory_bytes(v), *need + 15 * j.dataset.num_files);
  Job e = j;
  e.validation = j.dataset;
  e.run.eval_every_epochs = 1;
  EXPECT_GT(*limits::plan_memory_bytes(e), 2 * *need - 1);
}

// The estimate bounds what replay::plan_epoch really holds at its peak: the epoch order plus the
// accelerators' sample lists and batch offsets (capacities, not sizes), across job shapes.
TEST(JobLimits, PlanMemoryEstimateBoundsTheRealPlan) {
  struct Shape {
    std::uint64_t files;
    std::uint32_t per_file, batch, accelerators;
    Shuffle shuffle;
    std::uint64_t buffer;
  };
  for (const Shape& s :
       {Shape{1000, 1, 1, 1, Shuffle::file, 0}, Shape{300, 7, 3, 5, Shuffle::sample, 0},
        Shape{5000, 2, 64, 8, Shuffle::file, 100}, Shape{1, 1, 1, 1, Shuffle::none, 0},
        Shape{20000, 1, 400, 24, Shuffle::sample, 0}}) {
    Job j = small_job();
    j.dataset.num_files = s.files;
    j.dataset.samples_per_file = s.per_file;
    j.reader.batch_size = s.batch;
    j.reader.shuffle = s.shuffle;
    j.reader.shuffle_buffer = s.buffer;
    j.run.accelerators = s.accelerators;
    const replay::EpochPlan plan = replay::plan_epoch(j, 0);
    std::uint64_t held =
        replay::epoch_order(j.dataset, j.reader, 0).capacity() * sizeof(std::uint64_t);
    for (const auto& a : plan.accelerators)
      held += a.samples.capacity() * sizeof(replay::SampleRef) +
              a.batch_begin.capacity() * sizeof(std::uint64_t);
    const auto need = limits::plan_memory_bytes(j);
    ASSERT_TRUE(need);
    EXPECT_GE(*need, held) << s.files << " files, " << s.accelerators << " accelerators";
  }
}

// Parquet row-group reads in a file-level order are planned by arithmetic (replay::OrderShard):
// the estimate holds the file order and table, no per-sample entry, and still bounds the plan.
TEST(JobLimits, RowGroupPlansByArithmeticNeedMemoryPerFileOnly) {
  Job j = small_job();
  j.dataset.format = Format::parquet;
  j.dataset.num_files = 64;
  j.dataset.samples_per_file = 10'000;
  j.dataset.sample_size = Distribution::fixed_at(160);
  j.reader.read_unit = ReadUnit::row_group;
  j.reader.batch_size = 1000;
  j.run.accelerators = 3;
  ASSERT_TRUE(limits::plans_by_arithmetic(j.dataset, j.reader));
  const replay::EpochPlan plan = replay::plan_epoch(j, 0);
  ASSERT_TRUE(plan.accelerators[0].shard);
  std::uint64_t held = plan.accelerators[0].shard->files->capacity() * sizeof(std::uint64_t);
  for (const auto& a : plan.accelerators)
    held += a.samples.capacity() * sizeof(replay::SampleRef) +
            a.batch_begin.capacity() * sizeof(std::uint64_t);
  const auto need = limits::plan_memory_bytes(j);
  ASSERT_TRUE(need);
  EXPECT_GE(*need, held);
  EXPECT_LT(*need, 64u * 200);  // per file, not per sample (640,000 samples)
  // A sample-level order is listed: one entry per sample again.
  for (auto [shuffle, buffer] : {std::pair{Shuffle::sample, 0u}, std::pair{Shuffle::file, 100u}}) {
    Job listed = j;
    listed.reader.shuffle = shuffle;
    listed.reader.shuffle_buffer = buffer;
    EXPECT_FALSE(limits::plans_by_arithmetic(listed.dataset, listed.reader));
    EXPECT_GT(*limits::plan_memory_bytes(listed), 640'000u * 24);
  }
  Job stream = j;
  stream.reader.read_unit = ReadUnit::sample;
  EXPECT_FALSE(limits::plans_by_arithmetic(stream.dataset, stream.reader));
}

// Issue 20: MLPerf Storage v3.0's dlrm at full size (1,024 Parquet files of 4,194,304 rows, 4.3
// billion samples) passes every limit on a 4 GiB host; its plan needs well under a MiB.
TEST(JobLimits, FullSizeDlrmIsAcceptedAndItsPlanFitsInAMiB) {
  Result<Job> j = load_job(DLGEN_SOURCE_DIR "/jobs/dlrm.toml");
  ASSERT_TRUE(j) << j.error().message;
  ASSERT_EQ(j->dataset.num_files * j->dataset.samples_per_file, 4'294'967'296u);
  const auto ds = limits::check_limits(*j, 4 * kGiB);
  EXPECT_TRUE(ds.empty()) << all(ds);
  const auto need = limits::plan_memory_bytes(*j);
  ASSERT_TRUE(need);
  EXPECT_LT(*need, 1u << 20);
  // Its epoch plan: four billion samples in 262,144 batches, each batch's rows computed.
  const replay::EpochPlan plan = replay::plan_epoch(*j, 0);
  ASSERT_EQ(plan.accelerators.size(), 1u);
  const replay::AcceleratorPlan& a = plan.accelerators[0];
  EXPECT_EQ(a.num_samples(), 4'294'967'296u);
  EXPECT_EQ(a.num_batches(), 262'144u);
  EXPECT_EQ(plan.num_samples(), replay::summarize_plan(*j).samples_per_epoch);
  const replay::SampleRef last = a.sample(a.num_batches() - 1, 16'383);
  EXPECT_EQ(last.sample, 4'194'303u);
  // Listed sample by sample (a sample-level shuffle) it is refused on that host.
  Job listed = *j;
  listed.reader.shuffle = Shuffle::sample;
  EXPECT_TRUE(has(limits::check_limits(listed, 4 * kGiB), "dataset.num_files", "the plan needs"));
}

TEST(JobLimits, OverridesGoThroughTheSameChecks) {
  constexpr std::string_view text = "[dataset]\ndir = \"d\"\nsample_size = 4096\n";
  JobLoadOptions o;
  o.overrides = {"dataset.num_files=99999999999999"};
  auto r = parse_job(text, "t.toml", o);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::bad_input);
  EXPECT_NE(r.error().message.find("t.toml: dataset.num_files (from --set "
                                   "dataset.num_files=99999999999999): must be at most"),
            std::string::npos)
      << r.error().message;
  o.overrides = {"reader.request_size=1e30"};
  r = parse_job(text, "t.toml", o);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find(
                "reader.request_size (from --set reader.request_size=1e30): must be at most 1GiB"),
            std::string::npos)
      << r.error().message;
}

// What issue 9 saw: `dlgen run huge.toml --dry-run` died of std::bad_alloc (exit 134).
TEST(JobLimits, DlgenRunDryRunRefusesAHugeJobWithExit2) {
  testing::TempDir dir;
  const auto job = dir / "huge.toml";
  std::ofstream(job)
      << "[dataset]\ndir = \"data/huge\"\nnum_files = 99999999999999\nsample_size = \"1PiB\"\n";
  const std::string cmd = std::string(DLGEN_BINARY) + " run " + job.string() + " --dry-run 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string out;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  const int status = ::pclose(p);
  ASSERT_TRUE(WIFEXITED(status)) << out;
  EXPECT_EQ(WEXITSTATUS(status), 2) << out;
  EXPECT_NE(out.find(job.string() + ":3: dataset.num_files: must be at most 1000000000"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find(job.string() + ":4: dataset.sample_size: must be at most 1TiB (got 1PiB)"),
            std::string::npos)
      << out;
}

}  // namespace
}  // namespace dlgen
