// The reader workers' I/O buffers (phase_config's request_bytes; the engine allocates iodepth of
// them per worker): each buffer is the largest request the worker makes, capped by the per-worker
// budget split over the requests in flight. So a worker holds at most (in flight x largest
// request) and at most the budget (limits::kWorkerBufferBudget), never the flat budget when its
// reads are small: the full-size dlrm (row groups of 1.25 MiB in ~640 MiB files) gets one row
// group's bytes per buffer, not 256 MiB; unet3d (whole npz files of ~140 MiB) gets its largest
// file up to the budget.
#include <gtest/gtest.h>

#include "dataset_files.hpp"
#include "dlgen/core/job_io.hpp"
#include "dlgen/core/limits.hpp"
#include "dlgen/core/recipe.hpp"
#include "dlgen/datasets/layout.hpp"
#include "dlgen/datasets/parquet.hpp"
#include "phase_config.hpp"

namespace dlgen::replay {
namespace {

struct Sized {
  std::uint64_t buffer = 0;      // one request's buffer
  std::uint64_t per_worker = 0;  // what one worker's engine allocates: in flight x buffer
  std::uint64_t in_flight = 0;
  std::uint64_t largest_file = 0;
  std::uint64_t cap = 0;  // the budget's share of one request (limits::request_buffer_bytes)
};

// The buffers a pass of the shipped job `name` gives each worker, without reading a file.
Sized sized(const char* name, std::vector<std::string> overrides = {}, std::string scale = "") {
  JobLoadOptions lo;
  lo.overrides = std::move(overrides);
  lo.scale = std::move(scale);
  Result<Job> job = load_job(std::string(DLGEN_SOURCE_DIR "/jobs/") + name + ".toml", lo);
  EXPECT_TRUE(job) << job.error().message;
  const datasets::Layout layout(job->dataset);
  const FileTable files = make_table(layout);
  EpochPlan plan;
  plan.accelerators.resize(job->run.accelerators);
  const ReaderSpec& rd = job->reader;
  const Recipe legacy = legacy_recipe(rd.probe_bytes, rd.header_read_bytes, rd.request_size_bytes);
  const PhaseConfig cfg = phase_config(rd, RunOptions{}, plan, files, legacy);
  return {cfg.request_bytes, cfg.iodepth * cfg.request_bytes, cfg.iodepth, files.max_size,
          limits::request_buffer_bytes(rd, job->run.accelerators, limits::host_memory_bytes())};
}

TEST(BufferSizing, DlrmWorkersHoldARowGroupNotTheBudget) {
  const Sized s = sized("dlrm");
  Result<Job> job = load_job(DLGEN_SOURCE_DIR "/jobs/dlrm.toml");
  ASSERT_TRUE(job);
  const datasets::Layout layout(job->dataset);
  const datasets::parquet::FileGeometry& g = *layout.parquet();
  // A row group of 8,192 rows of 160 B, its three chunks adjacent: one read of 1.25 MiB and its
  // page headers.
  const std::uint64_t group = datasets::parquet::largest_row_group_read(g);
  EXPECT_GE(group, 8192u * 160);
  EXPECT_LT(group, 8192u * 160 + (64u << 10));
  EXPECT_EQ(s.buffer, group);
  EXPECT_EQ(s.per_worker, s.in_flight * group);
  EXPECT_LE(s.per_worker, limits::kWorkerBufferBudget);
  // The flat budget (256 MiB a worker) would be 100 times this.
  EXPECT_LT(s.per_worker * 100, limits::kWorkerBufferBudget);
  EXPECT_GT(s.largest_file, 600u << 20);  // ~640 MiB files: sizing by the file would be no better
  // More requests in flight: one row group each.
  const Sized deep = sized("dlrm", {"reader.iodepth=8"});
  EXPECT_EQ(deep.buffer, group);
  EXPECT_EQ(deep.per_worker, 8 * group);
}

TEST(BufferSizing, Unet3dWorkersHoldTheirLargestFileUpToTheBudget) {
  const Sized s = sized("unet3d");
  ASSERT_EQ(s.in_flight, 1u);
  // Whole files of ~140 MiB: one buffer of the largest file, capped by the budget (and by a
  // quarter of this host's RAM over the workers).
  EXPECT_LE(s.cap, limits::kWorkerBufferBudget);
  EXPECT_EQ(s.buffer, std::min(s.largest_file, s.cap));
  EXPECT_LE(s.per_worker, limits::kWorkerBufferBudget);
  // Eight in flight: the budget split eight ways, each no larger than the largest file.
  const Sized deep = sized("unet3d", {"reader.iodepth=8"});
  EXPECT_LE(deep.cap, limits::kWorkerBufferBudget / 8);
  EXPECT_EQ(deep.buffer, std::min(deep.largest_file, deep.cap));
  EXPECT_LE(deep.per_worker, limits::kWorkerBufferBudget);
  EXPECT_LE(deep.per_worker, 8 * deep.largest_file);
  // The small scale's files (~9 MiB): the buffer is the largest file, far under the budget.
  const Sized small = sized("unet3d", {}, "small");
  EXPECT_LT(small.largest_file, 64u << 20);
  EXPECT_EQ(small.buffer, small.largest_file);
  EXPECT_EQ(small.per_worker, small.largest_file);
}

// Issue 20: flux's row group (one per file) holds a T5 chunk of 512 MiB, over the per-worker
// budget. A reader reads it in pieces of Arrow's range_size_limit (32 MiB), each into a buffer of
// that size: a worker holds in-flight x 32 MiB, not one buffer of the budget (256 MiB) and not the
// chunk.
TEST(BufferSizing, FluxWorkersReadTheirRowGroupInPiecesOfArrowsRangeLimit) {
  Result<Job> job = load_job(DLGEN_SOURCE_DIR "/jobs/flux.toml");
  ASSERT_TRUE(job);
  const datasets::Layout layout(job->dataset);
  const std::uint64_t range = datasets::parquet::largest_row_group_read(*layout.parquet());
  EXPECT_GT(range, 500u << 20);  // the T5 encodings: 256 rows x 2,097,312 B
  const Sized s = sized("flux");
  EXPECT_EQ(s.buffer, std::min(datasets::parquet::kRangeSizeLimit, s.cap));
  EXPECT_EQ(s.per_worker, s.in_flight * s.buffer);
  EXPECT_LE(s.per_worker, limits::kWorkerBufferBudget);
  // The small scale's 32-row files: a 64 MiB chunk, still read in 32 MiB pieces.
  const Sized small = sized("flux", {}, "small");
  EXPECT_EQ(small.buffer, std::min(datasets::parquet::kRangeSizeLimit, small.cap));
}

// Issue 20: read = "sample" reads one record of a multi-sample file per request, so a buffer holds
// the longest sample, not the file: resnet50's TFRecord files hold 1,251 records of 114,660 B
// (~143 MB a file) and its workers' buffers are one record's payload.
TEST(BufferSizing, SampleReadsHoldTheLongestSampleNotTheFile) {
  const Sized s = sized("resnet50");
  Result<Job> job = load_job(DLGEN_SOURCE_DIR "/jobs/resnet50.toml");
  ASSERT_TRUE(job);
  ASSERT_EQ(job->reader.read_unit, ReadUnit::sample);
  const datasets::Layout layout(job->dataset);
  EXPECT_EQ(layout.largest_sample_extent(), 114660u);
  EXPECT_GT(s.largest_file, 1251u * 114660u);
  EXPECT_EQ(s.buffer, 114660u);
  EXPECT_EQ(s.per_worker, s.in_flight * 114660u);
  // Sizes drawn per sample: the longest of them, found in the layout's tables.
  const Sized varied = sized("resnet50", {"dataset.sample_size={dist=\"uniform\", min=\"1KiB\", "
                                          "max=\"200KiB\"}",
                                          "dataset.num_files=3"});
  JobLoadOptions lo;
  lo.overrides = {"dataset.sample_size={dist=\"uniform\", min=\"1KiB\", max=\"200KiB\"}",
                  "dataset.num_files=3"};
  Result<Job> vj = load_job(DLGEN_SOURCE_DIR "/jobs/resnet50.toml", lo);
  ASSERT_TRUE(vj) << vj.error().message;
  const datasets::Layout vl(vj->dataset);
  std::uint64_t longest = 0;
  for (std::uint64_t f = 0; f < vl.num_files(); ++f)
    for (std::uint32_t j = 0; j < vl.spec().samples_per_file; ++j)
      longest = std::max(longest, vl.sample_extent(f, j).length);
  EXPECT_EQ(vl.largest_sample_extent(), longest);
  EXPECT_LE(longest, 200u << 10);
  EXPECT_EQ(varied.buffer, longest);
}

}  // namespace
}  // namespace dlgen::replay
