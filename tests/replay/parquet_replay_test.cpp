// read = "row_group" in the replay: a Parquet reader's requests, checked against each generated
// file's own footer (parsed from the file, not from the layout): the footer from the end of the
// file first, then per row group the selected columns' chunks, exactly their bytes; and the run's
// bytes and requests are the plan's (summarize_plan) figures.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <mutex>
#include <set>

#include "dlgen/core/job_io.hpp"
#include "dlgen/core/limits.hpp"
#include "dlgen/datasets/codec.hpp"
#include "dlgen/datasets/layout.hpp"
#include "dlgen/datasets/parquet.hpp"
#include "dlgen/engine/fault.hpp"
#include "dlgen/replay/plan.hpp"
#include "dlgen/replay/runner.hpp"
#include "replay_fixture.hpp"
#include "temp_dir.hpp"

namespace dlgen::replay {
namespace {

using namespace fixture;
using dlgen::testing::TempDir;
using Request = std::pair<std::uint64_t, std::uint64_t>;  // offset, length

Job parquet_job(const std::filesystem::path& dir, ParquetCompression compression) {
  Job job = small_job(dir, 3, Distribution::fixed_at(0));
  job.dataset.format = Format::parquet;
  job.dataset.samples_per_file = 1000;
  job.dataset.parquet.columns = {{"label", ParquetDtype::float32, 1},
                                 {"numerical", ParquetDtype::float32, 13},
                                 {"categorical", ParquetDtype::int8, 26}};
  job.dataset.sample_size = Distribution::fixed_at(4 + 52 + 26);
  job.dataset.parquet.row_group_size = 300;  // 4 groups, the last of 100 rows
  job.dataset.parquet.compression = compression;
  job.dataset.parquet.read_columns = {"label", "categorical"};
  job.reader.read_unit = ReadUnit::row_group;
  job.reader.batch_size = 128;
  job.reader.workers = 1;  // one reader: each file's footer is its first request
  return job;
}

std::vector<std::uint8_t> file_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// Chunks [offset, length) in file order coalesced as Arrow's ReadRangeCache does with its defaults
// (CoalesceReadRanges: a hole of at most 8 KiB and a merged read of at most 32 MiB), written here
// from Arrow's rule, apart from datasets/parquet.cpp.
std::vector<Request> arrow_coalesced(const std::vector<Request>& chunks) {
  std::vector<Request> out;
  for (const auto& [off, len] : chunks) {
    if (!out.empty()) {
      auto& [start, length] = out.back();
      if (off - (start + length) <= 8192 && off + len - start <= (32u << 20)) {
        length = off + len - start;
        continue;
      }
    }
    out.push_back({off, len});
  }
  return out;
}

// Writes every file of `layout`.
void write_files(const datasets::Layout& layout) {
  for (std::uint64_t f = 0; f < layout.num_files(); ++f) {
    std::filesystem::create_directories(layout.path(f).parent_path());
    ASSERT_TRUE(datasets::write_file(layout, f, layout.path(f)));
  }
}

// jobs/dlrm.toml at `files` files of 3 row groups (24,576 rows) under `dir`: batches of 4,096, two
// workers, no compute; `more` overrides after those.
Result<Job> small_dlrm(const std::filesystem::path& dir, std::uint64_t files,
                       std::vector<std::string> more = {}) {
  JobLoadOptions lo;
  lo.overrides = {"dataset.dir=" + dir.string(),
                  "dataset.num_files=" + std::to_string(files),
                  "dataset.samples_per_file=24576",
                  "reader.batch_size=4096",
                  "reader.workers=2",
                  "compute.b200.time=0s"};
  lo.overrides.insert(lo.overrides.end(), more.begin(), more.end());
  return load_job(DLGEN_SOURCE_DIR "/jobs/dlrm.toml", lo);
}

TEST(ParquetReplay, RequestsAreTheFootersRangesAndThePlansFigures) {
  for (ParquetCompression codec :
       {ParquetCompression::none, ParquetCompression::zstd, ParquetCompression::snappy}) {
    SCOPED_TRACE(to_string(codec));
    TempDir tmp("dlgen-parquet-replay");
    const Job job = parquet_job(tmp / "data", codec);
    ASSERT_TRUE(validate(job, 0).empty()) << validate(job, 0)[0].message;
    const datasets::Layout layout(job.dataset);
    ASSERT_NO_FATAL_FAILURE(write_files(layout));
    SeenRequests seen;
    Result<Report> r = run_seen(job, "pread", seen);
    ASSERT_TRUE(r) << r.error().message;

    std::uint64_t bytes = 0, requests = 0;
    for (std::uint64_t f = 0; f < layout.num_files(); ++f) {
      const auto data = file_bytes(layout.path(f));
      auto footer = datasets::parquet::parse_footer(data, data.size());
      ASSERT_TRUE(footer) << footer.error().message;
      ASSERT_EQ(footer->row_groups.size(), 4u);
      // What a Parquet reader reads, from the file's own footer: its last 64 KiB (the whole
      // small file), then the selected chunks of every row group.
      std::multiset<Request> want;
      const std::uint64_t tail = std::min<std::uint64_t>(data.size(), 64 << 10);
      want.insert({data.size() - tail, tail});
      ASSERT_LE(footer->metadata_bytes + 8, tail);
      // Per group the two selected chunks, apart (the 15.6 KB "numerical" chunk between them),
      // but in the last group of 100 rows, whose 5.2 KB "numerical" chunk is a hole Arrow reads
      // through: one range.
      for (const auto& rg : footer->row_groups) {
        std::vector<Request> chunks;
        for (const auto& ch : rg.columns)
          if (ch.path == "label" || ch.path == "categorical")
            chunks.push_back({static_cast<std::uint64_t>(ch.data_page_offset),
                              static_cast<std::uint64_t>(ch.total_compressed_size)});
        const auto ranges = arrow_coalesced(chunks);
        EXPECT_EQ(ranges.size(), rg.num_rows == 100 ? 1u : 2u);
        want.insert(ranges.begin(), ranges.end());
      }
      const auto& got = seen.by_file[layout.path(f).string()];
      EXPECT_EQ(std::multiset<Request>(got.begin(), got.end()), want) << layout.path(f);
      // The footer first: the reader knows no chunk before it.
      ASSERT_FALSE(got.empty());
      EXPECT_EQ(got.front(), (Request{data.size() - tail, tail}));
      for (const auto& [off, len] : want) bytes += len, ++requests;
    }
    const PlanSummary plan = summarize_plan(job);
    EXPECT_EQ(plan.read_bytes_per_epoch, bytes);
    EXPECT_EQ(plan.read_ranges_per_epoch, requests);
    EXPECT_EQ(r->bytes_read, bytes);
    EXPECT_EQ(r->requests, requests);
    EXPECT_EQ(r->samples, 3000u);
  }
}

// Issue 20: jobs/dlrm.toml at two files of 3 row groups, counted against each file's own footer:
// per row group exactly one request, spanning its three column chunks (adjacent, so a Parquet
// reader pre-buffering the group reads them at once), plus the footer; and each worker's engine
// was given buffers of that size, not the flat per-worker budget: in flight x the largest range,
// at most limits::kWorkerBufferBudget.
TEST(ParquetReplay, DlrmReadsEachRowGroupInOneRequestIntoBuffersOfItsSize) {
  TempDir tmp("dlgen-parquet-dlrm-groups");
  Result<Job> job = small_dlrm(tmp / "data", 2);
  ASSERT_TRUE(job) << job.error().message;
  const datasets::Layout layout(job->dataset);
  ASSERT_NO_FATAL_FAILURE(write_files(layout));
  std::mutex mu;
  SeenRequests seen;
  std::vector<EngineOptions> engines;
  const EngineFactory inner = seeing_factory("pread", seen);
  RunOptions o;
  o.engine = "pread";
  o.series = false;
  o.engine_factory = [&](const EngineOptions& eo) {
    std::lock_guard lock(mu);
    engines.push_back(eo);
    return inner(eo);
  };
  Result<Report> r = run_job(*job, o);
  ASSERT_TRUE(r) << r.error().message;

  std::uint64_t largest = 0;
  for (std::uint64_t f = 0; f < layout.num_files(); ++f) {
    const auto data = file_bytes(layout.path(f));
    auto footer = datasets::parquet::parse_footer(data, data.size());
    ASSERT_TRUE(footer) << footer.error().message;
    ASSERT_EQ(footer->row_groups.size(), 3u);
    const auto& got = seen.by_file[layout.path(f).string()];
    std::multiset<Request> want;
    const std::uint64_t tail = std::min<std::uint64_t>(data.size(), 64 << 10);
    want.insert({data.size() - tail, tail});
    largest = std::max(largest, tail);
    for (const auto& rg : footer->row_groups) {
      ASSERT_EQ(rg.columns.size(), 3u);
      const std::uint64_t begin = rg.columns.front().data_page_offset;
      const std::uint64_t end =
          rg.columns.back().data_page_offset + rg.columns.back().total_compressed_size;
      // The group's requests: those that touch its chunks' bytes, but for the footer's read of
      // the file's last 64 KiB (which may take in the end of the last group).
      std::size_t in_group = 0;
      for (const auto& [off, len] : got)
        in_group += off < end && off + len > begin && off != data.size() - tail;
      EXPECT_EQ(in_group, 1u) << layout.path(f) << " group at " << begin;
      want.insert({begin, end - begin});
      largest = std::max(largest, end - begin);
    }
    EXPECT_EQ(std::multiset<Request>(got.begin(), got.end()), want) << layout.path(f);
  }
  EXPECT_EQ(r->requests, 2u * (3 + 1));
  // The buffers: one per request in flight, each the largest range, within the budget.
  ASSERT_EQ(engines.size(), 2u);  // one engine per worker
  for (const EngineOptions& eo : engines) {
    EXPECT_EQ(eo.buffer_bytes, largest);
    EXPECT_LE(std::uint64_t{eo.buffers} * eo.buffer_bytes, std::uint64_t{eo.depth} * largest);
    EXPECT_LE(std::uint64_t{eo.buffers} * eo.buffer_bytes, limits::kWorkerBufferBudget);
  }
}

// Issue 20: read = "row_group" with a sample shuffle. Rows come in random order; each batch reads
// the row groups its rows fall in, once per batch (a group is read again by a later batch that
// holds more of its rows), and each file's footer once per worker. Counted here from the plan and
// each file's own footer, apart from the replay's ShuffledRowGroups; the plan's figures
// (summarize_plan) say the same, and a shuffled epoch reads more than a sequential one.
TEST(ParquetReplay, ShuffledBatchesReadTheRowGroupsOfTheirRows) {
  TempDir tmp("dlgen-parquet-shuffled");
  Job job = parquet_job(tmp / "data", ParquetCompression::none);
  job.reader.shuffle = Shuffle::sample;
  job.reader.batch_size = 64;
  job.reader.workers = 2;
  ASSERT_TRUE(validate(job, 0).empty()) << validate(job, 0)[0].message;
  const datasets::Layout layout(job.dataset);
  ASSERT_NO_FATAL_FAILURE(write_files(layout));
  std::mutex mu;
  std::multiset<std::pair<std::string, Request>> seen;
  auto faults = std::make_shared<FaultInjection>();
  faults->plan.fail = [&](const FaultRequest& q) {
    std::lock_guard lock(mu);
    seen.insert({std::string(q.path), {q.offset, q.length}});
    return 0;
  };
  RunOptions o;
  o.engine = "pread";
  o.series = false;
  o.engine_factory = fault_engine_factory("pread", faults);
  Result<Report> r = run_job(job, o);
  ASSERT_TRUE(r) << r.error().message;

  // Each file's ranges, from its own footer: per group the coalesced selected chunks.
  std::vector<std::vector<std::vector<Request>>> group_ranges(layout.num_files());
  std::vector<Request> footer(layout.num_files());
  for (std::uint64_t f = 0; f < layout.num_files(); ++f) {
    const auto data = file_bytes(layout.path(f));
    auto parsed = datasets::parquet::parse_footer(data, data.size());
    ASSERT_TRUE(parsed) << parsed.error().message;
    const std::uint64_t tail = std::min<std::uint64_t>(data.size(), 64 << 10);
    footer[f] = {data.size() - tail, tail};
    for (const auto& rg : parsed->row_groups) {
      std::vector<Request> chunks;
      for (const auto& ch : rg.columns)
        if (ch.path == "label" || ch.path == "categorical")
          chunks.push_back({static_cast<std::uint64_t>(ch.data_page_offset),
                            static_cast<std::uint64_t>(ch.total_compressed_size)});
      group_ranges[f].push_back(arrow_coalesced(chunks));
    }
  }
  const EpochPlan plan = plan_epoch(job, 0);
  ASSERT_EQ(plan.accelerators.size(), 1u);
  const AcceleratorPlan& a = plan.accelerators[0];
  std::multiset<std::pair<std::string, Request>> want;
  std::set<std::pair<std::uint32_t, std::uint64_t>> footer_read;  // (worker, file)
  std::uint64_t group_reads = 0;
  for (std::size_t k = 0; k < a.num_batches(); ++k) {
    std::set<std::pair<std::uint64_t, std::uint64_t>> groups;  // (file, group) of this batch
    for (const SampleRef& s : a.batch(k)) {
      if (!groups.insert({s.file, s.sample / 300}).second) continue;
      const std::string path = layout.path(s.file).string();
      if (footer_read.insert({static_cast<std::uint32_t>(k % 2), s.file}).second)
        want.insert({path, footer[s.file]});
      for (const Request& q : group_ranges[s.file][s.sample / 300]) want.insert({path, q});
      ++group_reads;
    }
  }
  EXPECT_EQ(seen, want);
  // 3,000 rows in 47 batches of 64: nearly every batch holds rows of all 12 groups.
  EXPECT_GT(group_reads, 12u * 40);
  std::uint64_t bytes = 0;
  for (const auto& [path, q] : want) bytes += q.second;
  EXPECT_EQ(r->requests, want.size());
  EXPECT_EQ(r->bytes_read, bytes);
  const PlanSummary s = summarize_plan(job);
  EXPECT_EQ(s.read_ranges_per_epoch, want.size());
  EXPECT_EQ(s.read_bytes_per_epoch, bytes);
  Job sequential = job;
  sequential.reader.shuffle = Shuffle::file;
  EXPECT_GT(s.read_bytes_per_epoch, 10 * summarize_plan(sequential).read_bytes_per_epoch);
}

// Issue 20: jobs/dlrm.toml scaled down (its schema and row groups, fewer rows and files), replayed
// from its plan by arithmetic on two accelerators of two workers each: every row is consumed
// exactly once, as the plan's arithmetic says, and the bytes read are every file's footer and row
// groups once (summarize_plan's figures).
TEST(ParquetReplay, DlrmRowGroupPlanReadsWhatItsArithmeticSays) {
  TempDir tmp("dlgen-parquet-dlrm");
  Result<Job> loaded = small_dlrm(tmp / "data", 4, {"run.accelerators=2"});
  ASSERT_TRUE(loaded) << loaded.error().message;
  const Job& job = *loaded;
  const EpochPlan plan = plan_epoch(job, 0);
  ASSERT_EQ(plan.accelerators.size(), 2u);
  ASSERT_TRUE(plan.accelerators[0].shard) << "row_group reads plan by arithmetic";
  const datasets::Layout layout(job.dataset);
  ASSERT_NO_FATAL_FAILURE(write_files(layout));
  std::vector<ConsumedPass> consumed;
  RunOptions o;
  o.engine = "pread";
  o.series = false;
  o.consumed = &consumed;
  Result<Report> r = run_job(job, o);
  ASSERT_TRUE(r) << r.error().message;

  const PlanSummary s = summarize_plan(job);
  EXPECT_EQ(s.samples_per_epoch, 4u * 24576);
  EXPECT_EQ(r->samples, s.samples_per_epoch);
  EXPECT_EQ(r->bytes_read, s.read_bytes_per_epoch);
  // Each range in one request: the buffers are sized to the largest range (a row group).
  EXPECT_EQ(r->requests, s.read_ranges_per_epoch);
  const datasets::parquet::FileReads per_file = datasets::parquet::file_reads(*layout.parquet());
  EXPECT_EQ(s.read_bytes_per_epoch, 4 * per_file.bytes);
  // 3 groups, each one range (its 3 chunks are adjacent), and one footer.
  EXPECT_EQ(s.read_ranges_per_epoch, 4u * (3 + 1));
  // Each accelerator consumed its shard's rows in the plan's order; together every row once.
  ASSERT_EQ(consumed.size(), 1u);
  const ConsumedPass& c = consumed[0];
  ASSERT_EQ(c.samples.size(), s.samples_per_epoch);
  std::set<std::pair<std::uint64_t, std::uint32_t>> rows;
  std::map<std::uint32_t, std::uint64_t> at;  // per accelerator: samples seen so far
  for (std::size_t i = 0; i < c.samples.size(); ++i) {
    const AcceleratorPlan& a = plan.accelerators[c.accelerator[i]];
    const std::uint64_t n = at[c.accelerator[i]]++;
    ASSERT_EQ(c.samples[i], a.sample(n / 4096, n % 4096)) << i;
    EXPECT_TRUE(rows.insert({c.samples[i].file, c.samples[i].sample}).second);
  }
  EXPECT_EQ(rows.size(), s.samples_per_epoch);
}

}  // namespace
}  // namespace dlgen::replay
