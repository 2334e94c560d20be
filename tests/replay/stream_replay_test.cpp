// read = "stream" in the replay: each worker reads its shards front to back as a streaming reader
// pulls them, the bytes of a batch's samples before it hands the batch over: with request_size 0
// one request of exactly those bytes (the s3 engine's ranged GET of a batch, as the original's
// body came in a burst a batch), with a request size whole fills of it (a buffered reader's), so
// a shard is read once, in order, whatever its samples; with reader.stream_granule a batch's read
// ends on the reader's granule past its last sample, and with reader.stream_tail a shard's end is
// a read of its own. Requests are seen by a fault engine that injects nothing, around the null
// engine or io_uring on a written dataset.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "dlgen/datasets/layout.hpp"
#include "dlgen/replay/runner.hpp"
#include "replay_fixture.hpp"
#include "temp_dir.hpp"

namespace dlgen::replay {
namespace {

using namespace fixture;

using Request = std::pair<std::uint64_t, std::uint64_t>;  // offset, length

// Each file's requests, in submit order; `total` the report's.
std::map<std::string, std::vector<Request>> run_recorded(const Job& job, std::uint64_t* total,
                                                         const std::string& engine = "null") {
  SeenRequests seen;
  Result<Report> r = run_seen(job, engine, seen);
  EXPECT_TRUE(r) << r.error().message;
  if (r) *total = r->requests;
  return seen.by_file;
}

// 4 shards of `per_file` samples of 5-7 KiB each, streamed by 2 workers, batch 8.
Job stream_job(std::uint32_t per_file, std::uint64_t request_size) {
  Job job = small_job("/nonexistent/stream", 4, uniform(5000, 7000));
  job.dataset.samples_per_file = per_file;
  job.reader.read_unit = ReadUnit::stream;
  job.reader.batch_size = 8;
  job.reader.iodepth = 1;
  job.reader.request_size_bytes = request_size;
  return job;
}

// A stream job run, with each file's requests.
struct Streamed {
  Streamed(std::uint32_t per_file, std::uint64_t request_size)
      : job(stream_job(per_file, request_size)),
        layout(job.dataset),
        seen(run_recorded(job, &total)) {}
  const std::vector<Request>& of(std::uint64_t f) { return seen[layout.path(f).string()]; }
  Job job;
  datasets::Layout layout;
  std::uint64_t total = 0;
  std::map<std::string, std::vector<Request>> seen;
};

// 24 samples a shard, 3 batches: each shard in 3 requests, each a batch's samples exactly (the
// last to the shard's end), in order.
TEST(StreamReplay, ABatchsBytesInOneRequestWithoutARequestSize) {
  Streamed run(24, 0);
  ASSERT_EQ(run.seen.size(), 4u);
  for (std::uint64_t f = 0; f < 4; ++f) {
    auto end_of = [&](std::uint32_t s) {
      const auto e = run.layout.sample_extent(f, s);
      return e.offset + e.length;
    };
    const std::vector<Request> want = {{0, end_of(7)},
                                       {end_of(7), end_of(15) - end_of(7)},
                                       {end_of(15), run.layout.file_size(f) - end_of(15)}};
    EXPECT_EQ(run.of(f), want) << f;
  }
  EXPECT_EQ(run.total, 12u);
}

// With request_size 10 KiB: whole 10 KiB fills from each shard's start to its end (the last
// shorter), however the batches fall; a batch whose samples an earlier fill read needs none.
TEST(StreamReplay, WholeFillsOfTheRequestSize) {
  Streamed run(24, 10240);
  std::uint64_t want_total = 0;
  for (std::uint64_t f = 0; f < 4; ++f) {
    const std::uint64_t size = run.layout.file_size(f);
    std::vector<Request> want;
    for (std::uint64_t at = 0; at < size; at += 10240)
      want.push_back({at, std::min<std::uint64_t>(10240, size - at)});
    want_total += want.size();
    EXPECT_EQ(run.of(f), want) << f;
  }
  EXPECT_EQ(run.total, want_total);
}

// 20 samples a shard: a worker's third batch ends one shard and begins the next. Each shard is
// still read once, front to back without a gap or an overlap, in a request per batch it serves.
TEST(StreamReplay, ABatchAcrossShardsReadsEachOnceInOrder) {
  Streamed run(20, 0);
  ASSERT_EQ(run.seen.size(), 4u);
  std::uint64_t requests = 0;
  for (std::uint64_t f = 0; f < 4; ++f) {
    const auto& got = run.of(f);
    std::uint64_t at = 0;
    for (const auto& [offset, length] : got) {
      EXPECT_EQ(offset, at) << f;
      at = offset + length;
    }
    EXPECT_EQ(at, run.layout.file_size(f)) << f;
    EXPECT_EQ(got.size(), 3u) << f << ": 20 samples in batches of 8 touch 3 batches";
    requests += got.size();
  }
  EXPECT_EQ(run.total, requests);
}

// The requests a stream of `layout`'s shard f makes with a granule g and a tail t (the rule of
// docs/job-format.md, reader.stream_granule and stream_tail): 24 samples a shard, batches of 8
// (3 a shard, as 4 shards over 2 workers deal them), each batch's read from where the shard's
// reading stands to the first multiple of g past its last sample, the last batch's to the first
// multiple past the shard's size less t, then the rest of the shard in one read.
std::vector<Request> granule_requests(const datasets::Layout& layout, std::uint64_t f,
                                      std::uint64_t g, std::uint64_t t) {
  const std::uint64_t size = layout.file_size(f);
  auto up = [&](std::uint64_t at) { return std::min(size, (at + g - 1) / g * g); };
  std::vector<Request> want;
  std::uint64_t at = 0;
  for (const std::uint32_t last : {7u, 15u}) {
    const auto e = layout.sample_extent(f, last);
    const std::uint64_t end = up(e.offset + e.length);
    if (end > at) want.push_back({at, end - at}), at = end;
  }
  const std::uint64_t end = std::max(at, up(size - t));
  if (end > at) want.push_back({at, end - at}), at = end;
  if (size > at) want.push_back({at, size - at});
  return want;
}

// reader.stream_granule 4 KiB and stream_tail 3000 B with request_size 0 (a streamed S3 body's
// bursts): each batch's request ends on a 4 KiB boundary of the shard past its last sample (not at
// the sample), the shard's last 3000 B (to the first boundary past them) a request of their own;
// each shard still read once, front to back. On io_uring over written shards and on the null
// engine alike. Without the keys the requests ended at the samples (ABatchsBytesInOneRequest...).
TEST(StreamReplay, BurstsEndOnTheGranuleAndTheTailIsAReadOfItsOwn) {
  for (const std::string engine : {"null", "uring"}) {
    if (engine == "uring" && !fixture::uring_available()) continue;
    SCOPED_TRACE(engine);
    dlgen::testing::TempDir tmp("dlgen-stream-granule");
    Job job = stream_job(24, 0);
    job.dataset.dir = tmp / "data";
    job.reader.stream_granule_bytes = 4096;
    job.reader.stream_tail_bytes = 3000;
    if (engine != "null") write_dataset(job.dataset);
    const datasets::Layout layout(job.dataset);
    std::uint64_t total = 0;
    auto seen = run_recorded(job, &total, engine);
    ASSERT_EQ(seen.size(), 4u);
    std::uint64_t requests = 0, tails = 0;
    for (std::uint64_t f = 0; f < 4; ++f) {
      const std::vector<Request>& got = seen[layout.path(f).string()];
      EXPECT_EQ(got, granule_requests(layout, f, 4096, 3000)) << f;
      std::uint64_t at = 0;
      for (const auto& [offset, length] : got) {
        EXPECT_EQ(offset, at) << f;
        at = offset + length;
        if (at < layout.file_size(f) - 3000) {
          EXPECT_EQ(at % 4096, 0u) << f;
        }
      }
      EXPECT_EQ(at, layout.file_size(f)) << f;
      EXPECT_GE(got.size(), 3u) << f << ": 3 batches (and the tail where a boundary precedes it)";
      tails += got.size() == 4 && got.back().second < 4096;
      requests += got.size();
    }
    EXPECT_GE(tails, 1u) << "some shard's tail read on its own";
    EXPECT_EQ(total, requests);
  }
}

// format = "tar" streamed from S3 with an 8 KiB granule and a 413 B head (tests/s3/heldout/
// tar_shards.py's bursts): a batch's request reaches the 10 KiB record holding its last sample
// (tarfile's `r|` reads whole records), then the socket's next 8 KiB read, the grid counted from
// 413 B before the shard (the response's head came in its first read); the shard's last batch
// reads to its end, the archive's end blocks and record padding with it, as the original's last
// burst did (without the trailer in the shard the bytes were not there to read).
TEST(StreamReplay, TarShardsReadWholeRecordsOnTheSocketsGrid) {
  Job job = stream_job(24, 0);
  job.dataset.format = Format::tar;
  job.reader.stream_granule_bytes = 8192;
  job.reader.stream_head_bytes = 413;
  const datasets::Layout layout(job.dataset);
  std::uint64_t total = 0;
  auto seen = run_recorded(job, &total, "null");
  ASSERT_EQ(seen.size(), 4u);
  for (std::uint64_t f = 0; f < 4; ++f) {
    std::vector<Request> want;
    std::uint64_t at = 0;
    for (const std::uint32_t last : {7u, 15u}) {
      const auto e = layout.sample_extent(f, last);
      const std::uint64_t record = (e.offset + e.length + 10239) / 10240 * 10240;
      const std::uint64_t end = (record + 413 + 8191) / 8192 * 8192 - 413;
      want.push_back({at, end - at}), at = end;
    }
    want.push_back({at, layout.file_size(f) - at});
    EXPECT_EQ(seen[layout.path(f).string()], want) << f;
    EXPECT_EQ(layout.file_size(f) % 10240, 0u);
  }
}

}  // namespace
}  // namespace dlgen::replay
