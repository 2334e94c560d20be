// read = "stream" in the replay: each worker reads its shards front to back as a streaming reader
// pulls them, the bytes of a batch's samples before it hands the batch over: with request_size 0
// one request of exactly those bytes (the s3 engine's ranged GET of a batch, as the original's
// body came in a burst a batch), with a request size whole fills of it (a buffered reader's), so
// a shard is read once, in order, whatever its samples. Requests are seen by a fault engine that
// injects nothing, around the null engine.
#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "dlgen/datasets/layout.hpp"
#include "dlgen/engine/fault.hpp"
#include "dlgen/replay/runner.hpp"
#include "replay_fixture.hpp"

namespace dlgen::replay {
namespace {

using namespace fixture;

struct Request {
  std::uint64_t offset = 0, length = 0;
  bool operator==(const Request&) const = default;
};

// Each file's requests, in submit order.
std::map<std::string, std::vector<Request>> run_recorded(const Job& job, std::uint64_t* total) {
  std::mutex mu;
  std::map<std::string, std::vector<Request>> seen;
  auto f = std::make_shared<FaultInjection>();
  f->plan.fail = [&](const FaultRequest& q) {
    std::lock_guard lock(mu);
    seen[std::string(q.path)].push_back({q.offset, q.length});
    return 0;
  };
  RunOptions o;
  o.engine = "null";
  o.series = false;
  o.engine_factory = fault_engine_factory("null", f);
  Result<Report> r = run_job(job, o);
  EXPECT_TRUE(r) << r.error().message;
  if (r) *total = r->requests;
  return seen;
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

// 24 samples a shard, 3 batches: each shard in 3 requests, each a batch's samples exactly (the
// last to the shard's end), in order.
TEST(StreamReplay, ABatchsBytesInOneRequestWithoutARequestSize) {
  const Job job = stream_job(24, 0);
  const datasets::Layout layout(job.dataset);
  std::uint64_t total = 0;
  auto seen = run_recorded(job, &total);
  ASSERT_EQ(seen.size(), 4u);
  for (std::uint64_t f = 0; f < 4; ++f) {
    auto end_of = [&](std::uint32_t s) {
      const auto e = layout.sample_extent(f, s);
      return e.offset + e.length;
    };
    const std::vector<Request> want = {{0, end_of(7)},
                                       {end_of(7), end_of(15) - end_of(7)},
                                       {end_of(15), layout.file_size(f) - end_of(15)}};
    EXPECT_EQ(seen[layout.path(f).string()], want) << f;
  }
  EXPECT_EQ(total, 12u);
}

// With request_size 10 KiB: whole 10 KiB fills from each shard's start to its end (the last
// shorter), however the batches fall; a batch whose samples an earlier fill read needs none.
TEST(StreamReplay, WholeFillsOfTheRequestSize) {
  const Job job = stream_job(24, 10240);
  const datasets::Layout layout(job.dataset);
  std::uint64_t total = 0, want_total = 0;
  auto seen = run_recorded(job, &total);
  for (std::uint64_t f = 0; f < 4; ++f) {
    std::vector<Request> want;
    for (std::uint64_t at = 0; at < layout.file_size(f); at += 10240)
      want.push_back({at, std::min<std::uint64_t>(10240, layout.file_size(f) - at)});
    want_total += want.size();
    EXPECT_EQ(seen[layout.path(f).string()], want) << f;
  }
  EXPECT_EQ(total, want_total);
}

// 20 samples a shard: a worker's third batch ends one shard and begins the next. Each shard is
// still read once, front to back without a gap or an overlap, in a request per batch it serves.
TEST(StreamReplay, ABatchAcrossShardsReadsEachOnceInOrder) {
  const Job job = stream_job(20, 0);
  const datasets::Layout layout(job.dataset);
  std::uint64_t total = 0;
  auto seen = run_recorded(job, &total);
  ASSERT_EQ(seen.size(), 4u);
  std::uint64_t requests = 0;
  for (std::uint64_t f = 0; f < 4; ++f) {
    const auto& got = seen[layout.path(f).string()];
    std::uint64_t at = 0;
    for (const Request& q : got) {
      EXPECT_EQ(q.offset, at) << f;
      at = q.offset + q.length;
    }
    EXPECT_EQ(at, layout.file_size(f)) << f;
    EXPECT_EQ(got.size(), 3u) << f << ": 20 samples in batches of 8 touch 3 batches";
    requests += got.size();
  }
  EXPECT_EQ(total, requests);
}

}  // namespace
}  // namespace dlgen::replay
