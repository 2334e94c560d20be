// The runner's requests against its buffers: header, probe and readahead ranges larger than a
// worker's buffer (budget / iodepth) are split into buffer-sized requests on every engine, direct
// or buffered, and the bytes counted stay exact; a sample's read in whole fills. Before, such a request overflowed the buffer
// (a heap overflow with pread, "Bad address" with registered io_uring buffers).
#include <gtest/gtest.h>

#include <atomic>
#include <system_error>
#include <tuple>

#include "dlgen/datasets/layout.hpp"
#include "dlgen/replay/runner.hpp"
#include "replay_fixture.hpp"
#include "temp_dir.hpp"

namespace dlgen::replay {
namespace {

using namespace dlgen::replay::fixture;
using dlgen::testing::TempDir;

constexpr std::uint64_t kBuffer = 128
                                  << 10;  // budget 256 KiB / iodepth 2 (also the smallest allowed)

RunOptions small_buffers(std::string engine) {
  RunOptions o;
  o.engine = engine;
  o.series = false;
  o.buffer_budget_bytes = 2 * kBuffer;
  return o;
}

// Requests needed for the byte range [begin, end) in requests of at most kBuffer (whole blocks
// around it when direct).
std::uint64_t requests_for(std::uint64_t begin, std::uint64_t end, bool direct,
                           std::uint64_t buffer = kBuffer) {
  if (begin >= end) return 0;
  if (direct) {
    begin = align_down(begin, 4096);
    end = align_up(end, 4096);
  }
  return ceil_div(end - begin, buffer);
}

class LargeRanges : public ::testing::TestWithParam<std::tuple<std::string, bool>> {
 protected:
  void SetUp() override {
    const auto [engine, direct] = GetParam();
    if (engine == "uring" && !uring_available()) GTEST_SKIP() << "io_uring is not available here";
    if (direct && !direct_supported(tmp_.path()))
      GTEST_SKIP() << "the temp file system refuses O_DIRECT";
  }
  TempDir tmp_{"dlgen-large-ranges"};
};

TEST_P(LargeRanges, HeaderAndProbeLargerThanTheBufferAreSplit) {
  const auto [engine, direct] = GetParam();
  Job job = small_job(tmp_ / "data", 6, uniform(200000, 1500000));
  job.reader.iodepth = 2;
  job.reader.direct = direct;
  job.reader.header_read_bytes = 1000000;  // ~8 buffers, larger than some files
  job.reader.probe_bytes = 300001;         // ~2.3 buffers
  write_dataset(job.dataset);
  const datasets::Layout layout(job.dataset);
  std::uint64_t bytes = 0, requests = 0;
  for (std::uint64_t f = 0; f < layout.num_files(); ++f) {
    const std::uint64_t size = layout.file_size(f);
    const std::uint64_t probe = std::min<std::uint64_t>(job.reader.probe_bytes, size);
    const std::uint64_t header = std::min<std::uint64_t>(job.reader.header_read_bytes, size);
    bytes += probe + size;  // the probe reads its bytes again; header + data = the file once
    requests += requests_for(0, probe, direct) + requests_for(0, header, direct) +
                requests_for(header, size, direct);
  }
  Result<Report> r = run_job(job, small_buffers(engine));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->samples, 6u);
  EXPECT_EQ(r->bytes_read, bytes);
  EXPECT_EQ(r->requests, requests);
}

TEST_P(LargeRanges, ReadaheadLargerThanTheBufferIsSplit) {
  const auto [engine, direct] = GetParam();
  Job job = small_job(tmp_ / "data", 3, Distribution::fixed_at(1000));
  job.dataset.samples_per_file = 600;  // 600 KB files
  job.reader.read_unit = ReadUnit::sample;
  job.reader.shuffle = Shuffle::sample;
  job.reader.iodepth = 2;
  job.reader.direct = direct;
  job.reader.readahead_bytes = 400000;  // ~3 buffers from each sample's start
  job.reader.batch_size = 30;
  job.run.max_seconds = 0;
  write_dataset(job.dataset);
  const datasets::Layout layout(job.dataset);
  std::uint64_t bytes = 0, requests = 0;
  for (std::uint64_t f = 0; f < layout.num_files(); ++f)
    for (std::uint32_t s = 0; s < 600; ++s) {
      const auto e = layout.sample_extent(f, s);
      const std::uint64_t end =
          std::min<std::uint64_t>(layout.file_size(f), e.offset + job.reader.readahead_bytes);
      bytes += end - e.offset;
      // Direct whole-sample reads get one block more of buffer (an unaligned sample straddles it).
      requests += requests_for(e.offset, end, direct, direct ? kBuffer + 4096 : kBuffer);
    }
  Result<Report> r = run_job(job, small_buffers(engine));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->samples, 1800u);
  EXPECT_EQ(r->bytes_read, bytes);
  EXPECT_EQ(r->requests, requests);
}

INSTANTIATE_TEST_SUITE_P(Engines, LargeRanges,
                         ::testing::Combine(::testing::Values("uring", "pread"), ::testing::Bool()),
                         [](const auto& info) {
                           return std::string(std::get<0>(info.param)) +
                                  (std::get<1>(info.param) ? "_direct" : "_buffered");
                         });

// A sample read through a buffered file (zipfile's members over Python's 4 KiB buffer, distilled
// as request_size = stream_granule = 4 KiB): whole fills from the sample's start, the last past
// its end (the file's end at most). Without the granule the last request stops at the sample's end.
TEST(SampleFills, SampleReadEndsOnTheGranule) {
  TempDir tmp("dlgen-sample-fills");
  Job job = small_job(tmp / "data", 1, uniform(4146, 16390));
  job.dataset.samples_per_file = 200;
  job.reader.read_unit = ReadUnit::sample;
  job.reader.shuffle = Shuffle::sample;
  job.reader.request_size_bytes = 4096;
  job.reader.batch_size = 20;
  job.run.max_seconds = 0;
  write_dataset(job.dataset);
  const datasets::Layout layout(job.dataset);
  std::uint64_t bytes = 0, requests = 0, exact = 0;
  for (std::uint32_t s = 0; s < 200; ++s) {
    const auto e = layout.sample_extent(0, s);
    const std::uint64_t end =
        std::min<std::uint64_t>(layout.file_size(0), e.offset + ceil_div(e.length, 4096) * 4096);
    bytes += end - e.offset;
    requests += ceil_div(end - e.offset, 4096);
    exact += e.length;
  }
  Result<Report> plain = run_job(job, small_buffers("pread"));
  ASSERT_TRUE(plain) << plain.error().message;
  EXPECT_EQ(plain->bytes_read, exact);
  job.reader.stream_granule_bytes = 4096;
  Result<Report> r = run_job(job, small_buffers("pread"));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->samples, 200u);
  EXPECT_EQ(r->bytes_read, bytes);
  EXPECT_EQ(r->requests, requests);
  EXPECT_GT(bytes, exact + 200 * 1024);  // about half a fill more a sample
}

// The engines refuse (abort on) a request longer than its buffer: the overflow can no longer be
// silent, whichever caller makes it.
TEST(EngineCheckDeathTest, RequestLongerThanItsBufferAborts) {
  for (std::string kind : {"null", "pread", "uring"}) {
    if (kind == "uring" && !uring_available()) continue;
    SCOPED_TRACE(kind);
    EngineOptions o;
    o.depth = 2;
    o.buffers = 2;
    o.buffer_bytes = 4096;
    auto made = engine::make(kind, o);
    ASSERT_TRUE(made) << made.error().message;
    const IoRequest too_long{-1, IoOp::read, 0, 4097, 0, 1};
    EXPECT_DEATH((*made)->submit({&too_long, 1}), "request of 4097 bytes");
    const IoRequest no_such_buffer{-1, IoOp::read, 2, 100, 0, 1};
    EXPECT_DEATH((*made)->submit({&no_such_buffer, 1}), "into buffer 2");
  }
}

// Thread creation failing (many accelerators x workers): the threads already started are stopped
// and joined, the run fails saying which thread of how many, and nothing hangs, whether the
// failure hits a worker (accelerators not started yet) or an accelerator (the others wait for it
// at the checkpoint barrier).
TEST(RunnerThreads, ThreadStartFailureStopsTheOthersAndSaysHowManyWereNeeded) {
  for (std::size_t fail_at : {std::size_t{5}, std::size_t{85}, std::size_t{119}}) {
    SCOPED_TRACE(fail_at);
    TempDir tmp("dlgen-threads");
    FakeClock clock;
    Job job = small_job("/nonexistent/threads", 400, Distribution::fixed_at(1000));
    job.run.accelerators = 40;  // 40 x (2 workers + 1) = 120 threads
    job.compute.step_time = Distribution::fixed_at(0.05);
    job.checkpoint.enabled = true;
    job.checkpoint.every_steps = 1;
    job.checkpoint.size_bytes = 4096;
    job.checkpoint.write_size_bytes = 4096;
    job.checkpoint.fsync = false;
    job.checkpoint.dir = tmp / "ck";
    RunOptions o;
    o.engine = "null";
    o.series = false;
    o.clock = &clock;
    std::atomic<std::size_t> calls{0};
    o.before_thread_start = [&calls, &clock, fail_at](std::size_t i) {
      ++calls;
      if (i != fail_at) return;
      // Every thread already started has blocked (accelerators at the checkpoint barrier or in
      // compute, workers on a full window) or ended: only the starter's hold still runs. So the
      // test sees whether they are woken.
      clock.wait_until_running(1);
      throw std::system_error(EAGAIN, std::generic_category(), "thread");
    };
    Result<Report> r = run_or_die(job, o);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message,
              "cannot start thread " + std::to_string(fail_at + 1) +
                  " of 120: Resource temporarily unavailable; lower run.accelerators or "
                  "reader.workers");
    EXPECT_EQ(r.error().kind, ErrorKind::runtime);
    EXPECT_EQ(calls.load(), fail_at + 1);
  }
}

}  // namespace
}  // namespace dlgen::replay
