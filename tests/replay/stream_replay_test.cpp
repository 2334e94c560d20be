// read = "stream" in the replay: each worker reads its shards front to back as a streaming reader
// pulls them, the bytes of a batch's samples before it hands the batch over: with request_size 0
// one request of exactly those bytes (the s3 engine's ranged GET of a batch, as the original's
// body came in a burst a batch), with a request size whole fills of it (a buffered reader's), so
// a shard is read once, in order, whatever its samples. Requests are seen by a fault engine that
// injects nothing, around the null engine.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "dlgen/datasets/layout.hpp"
#include "dlgen/replay/runner.hpp"
#include "replay_fixture.hpp"

namespace dlgen::replay {
namespace {

using namespace fixture;

using Request = std::pair<std::uint64_t, std::uint64_t>;  // offset, length

// Each file's requests, in submit order; `total` the report's.
std::map<std::string, std::vector<Request>> run_recorded(const Job& job, std::uint64_t* total) {
  SeenRequests seen;
  Result<Report> r = run_seen(job, "null", seen);
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

}  // namespace
}  // namespace dlgen::replay
