// BatchSignal: the socket holds every token that can wait (each worker's prefetch window full),
// beyond the default send buffer (~278 tokens), and a token that does not fit is reported.
#include "batch_signal.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "dlgen/replay/runner.hpp"
#include "replay_fixture.hpp"

namespace dlgen::replay {
namespace {

using namespace dlgen::replay::fixture;

TEST(BatchSignal, HoldsAsManyTokensAsItWasSizedFor) {
  for (std::uint64_t tokens : {std::uint64_t{100}, std::uint64_t{2000}, std::uint64_t{8000}}) {
    SCOPED_TRACE(tokens);
    BatchSignal s(tokens);
    ASSERT_GE(s.send_fd(), 0);
    for (std::uint64_t i = 0; i < tokens; ++i)
      ASSERT_TRUE(BatchSignal::send(s.send_fd(), i)) << "token " << i;
    for (std::uint64_t i = 0; i < tokens; ++i) ASSERT_TRUE(s.receive()) << "token " << i;
    EXPECT_FALSE(s.receive());
  }
}

TEST(BatchSignal, ADroppedTokenIsReported) {
  BatchSignal s(1);
  std::uint64_t sent = 0, dropped = 0;
  for (std::uint64_t i = 0; i < 100000 && dropped < 10; ++i)
    (BatchSignal::send(s.send_fd(), i) ? sent : dropped) += 1;
  EXPECT_EQ(dropped, 10u) << "a socket sized for one token fills up";
  std::uint64_t received = 0;
  while (s.receive()) ++received;
  EXPECT_EQ(received, sent) << "every token reported sent is there";
  EXPECT_FALSE(BatchSignal::send(-1, 0)) << "no socket: the token is dropped";
}

// 16 workers with windows of 32 batches ahead of one slow accelerator (real time: 1 ms a step):
// up to 512 tokens wait at once, about twice what a default socket holds. None is dropped, and
// the count is in the JSON.
TEST(BatchSignal, RunnerSizesTheSocketForEveryWindow) {
  Job job = small_job("/nonexistent/signals", 640, Distribution::fixed_at(100));
  job.reader.workers = 16;
  job.reader.prefetch = 32;
  job.reader.batch_size = 1;
  job.compute.step_time = Distribution::fixed_at(0.001);
  RunOptions o;
  o.engine = "null";
  o.series = false;
  Result<Report> r = run_or_die(job, o);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->steps, 640u);
  EXPECT_EQ(r->batch_signals_dropped, 0u);
  const auto j = nlohmann::json::parse(to_json(*r));
  ASSERT_TRUE(j.contains("batch_signals_dropped"));
  EXPECT_EQ(j["batch_signals_dropped"].get<std::uint64_t>(), 0u);
}

}  // namespace
}  // namespace dlgen::replay
