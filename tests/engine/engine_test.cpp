// Engines driven directly: submit/reap, -errno results, registered buffers, short reads at EOF.
#include "dlgen/engine/engine.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <thread>
#include <vector>

#include "dlgen/engine/registry.hpp"
#include "dlgen/replay/clock.hpp"
#include "temp_dir.hpp"

namespace dlgen::engine {
namespace {

using replay::ClockHold;
using replay::FakeClock;
using replay::start_thread;

class Engines : public ::testing::TestWithParam<std::string> {};

TEST_P(Engines, ReadsWhatTheFileHoldsAndReportsEof) {
  dlgen::testing::TempDir tmp("dlgen-engine");
  const auto path = tmp / "f";
  std::string content(10000, '\0');
  for (std::size_t i = 0; i < content.size(); ++i) content[i] = static_cast<char>('a' + i % 26);
  std::ofstream(path, std::ios::binary) << content;
  EngineOptions o;
  o.depth = 4;
  o.buffers = 4;
  o.buffer_bytes = 8192;
  auto made = make(GetParam(), o);
  if (!made && made.error().kind == ErrorKind::unsupported) GTEST_SKIP() << made.error().message;
  ASSERT_TRUE(made) << made.error().message;
  IoEngine& e = **made;
  const int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  const IoRequest reqs[3] = {{fd, IoOp::read, 0, 8192, 0, 10},
                             {fd, IoOp::read, 1, 8192, 8192, 11},  // 1808 bytes left: short read
                             {-1, IoOp::read, 2, 100, 0, 12}};     // bad fd: -EBADF
  ASSERT_EQ(e.submit(reqs), 3);
  IoCompletion done[4];
  int got = 0;
  while (got < 3) {
    const int n = e.reap(std::span(done + got, 4 - got), 1);
    ASSERT_GT(n, 0);
    got += n;
  }
  ::close(fd);
  for (int i = 0; i < 3; ++i) {
    if (done[i].user_data == 10) {
      EXPECT_EQ(done[i].result, 8192);
      EXPECT_EQ(std::memcmp(e.buffer(0), content.data(), 8192), 0);
    } else if (done[i].user_data == 11) {
      EXPECT_EQ(done[i].result, 10000 - 8192);
      EXPECT_EQ(std::memcmp(e.buffer(1), content.data() + 8192, 10000 - 8192), 0);
    } else {
      EXPECT_EQ(done[i].user_data, 12u);
      EXPECT_EQ(done[i].result, -EBADF);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Real, Engines, ::testing::Values("uring", "pread"),
                         [](const auto& info) { return std::string(info.param); });

TEST(NullEngine, RecordsRequestsAndCompletesThemWhole) {
  EngineOptions o;
  o.depth = 2;
  o.buffers = 2;
  o.buffer_bytes = 4096;
  o.record = true;
  auto e = make("null", o);
  ASSERT_TRUE(e);
  const IoRequest reqs[3] = {
      {5, IoOp::read, 0, 100, 7, 1}, {5, IoOp::read, 1, 200, 9, 2}, {5, IoOp::read, 0, 1, 0, 3}};
  EXPECT_EQ((*e)->submit(reqs), 2);  // depth 2: the third waits
  IoCompletion done[4];
  ASSERT_EQ((*e)->reap(done, 1), 2);
  EXPECT_EQ(done[0].result, 100);
  EXPECT_EQ(done[1].result, 200);
  ASSERT_EQ((*e)->recorded().size(), 2u);
  EXPECT_EQ((*e)->recorded()[1].offset, 9u);
}

// With a latency, a request completes that long after its issue on the engine's clock, however
// many are in flight: a waiting reap sleeps until the first is due and takes all that are due;
// engines of two threads overlap (both finish one latency after t0, not two).
TEST(NullEngine, LatencyOverlapsOnTheClock) {
  constexpr std::int64_t kLatency = 3'000'000;
  FakeClock clock;
  const std::int64_t t0 = clock.now_ns();
  std::vector<std::vector<IoCompletion>> got(2);
  std::vector<std::int64_t> done_at(2, -1);
  std::vector<int> early(2, -1);
  auto body = [&](std::size_t t) {
    EngineOptions o;
    o.depth = 4;
    o.buffers = 4;
    o.buffer_bytes = 4096;
    o.clock = &clock;
    o.null_latency_ns = kLatency;
    auto e = make("null", o);
    ASSERT_TRUE(e);
    const IoRequest reqs[3] = {{-1, IoOp::read, 0, 100, 0, 1},
                               {-1, IoOp::read, 1, 200, 0, 2},
                               {-1, IoOp::read, 2, 300, 0, 3}};
    ASSERT_EQ((*e)->submit(reqs), 3);
    IoCompletion c[4];
    early[t] = (*e)->reap(c, 0);  // not due yet: nothing, and no wait
    const int n = (*e)->reap(c, 1);
    done_at[t] = clock.now_ns();
    got[t].assign(c, c + std::max(n, 0));
  };
  std::thread a, b;
  {
    const ClockHold hold(clock);  // time stands still until both threads are registered
    a = start_thread(clock, [&] { body(0); });
    b = start_thread(clock, [&] { body(1); });
  }
  a.join();
  b.join();
  for (std::size_t t = 0; t < 2; ++t) {
    SCOPED_TRACE(t);
    EXPECT_EQ(early[t], 0);
    EXPECT_EQ(done_at[t], t0 + kLatency);
    ASSERT_EQ(got[t].size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) {
      EXPECT_EQ(got[t][i].user_data, i + 1);
      EXPECT_EQ(got[t][i].result, static_cast<std::int64_t>(100 * (i + 1)));
      EXPECT_EQ(got[t][i].issued_ns, t0);
      EXPECT_EQ(got[t][i].completed_ns, t0 + kLatency);
    }
  }
}

TEST(EngineNames, RoundTrip) {
  for (const EngineOps& e : registry()) {
    EXPECT_EQ(find(e.name), &e);
    for (const std::string& alias : e.aliases) EXPECT_EQ(find(alias), &e) << alias;
  }
  EXPECT_EQ(find("aio"), nullptr);
}

}  // namespace
}  // namespace dlgen::engine
