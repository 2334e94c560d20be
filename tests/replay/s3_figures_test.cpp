// The S3 figures of a result (s3_figures, metrics.hpp; docs/metrics.md "S3 requests") from
// recorded passes: summed over passes, percentiles from the merged histograms, absent for a run
// that read no object store (and then absent from the JSON and the summary too).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "dlgen/replay/metrics.hpp"
#include "dlgen/replay/report.hpp"

namespace dlgen::replay {
namespace {

engine::S3Counters counters(std::uint64_t requests, std::uint64_t slow_downs,
                            std::uint64_t base_ns) {
  engine::S3Counters k;
  k.http_requests = k.gets = requests;
  k.retries = k.slow_downs = slow_downs;
  for (std::uint64_t i = 0; i < requests; ++i) {
    k.ttfb.record(base_ns + i * 1000);
    k.ttlb.record(base_ns + i * 1000 + 50'000);  // 50 us after the first byte
  }
  return k;
}

TEST(S3FiguresLaw, SummedOverPassesWithFirstByteBeforeLast) {
  std::vector<PhaseRecord> phases(3);
  phases[0].s3 = counters(100, 2, 1'000'000);
  phases[2].s3 = counters(50, 1, 2'000'000);  // phases[1] read files: no s3 counters
  const std::optional<S3Result> s = s3_figures(phases);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->requests, 150u);
  EXPECT_EQ(s->gets, 150u);
  EXPECT_EQ(s->retries, 3u);
  EXPECT_EQ(s->slow_downs, 3u);
  EXPECT_EQ(s->ttfb.count, 150u);
  EXPECT_EQ(s->ttlb.count, 150u);
  EXPECT_LE(s->ttfb.p50_us, s->ttlb.p50_us);
  EXPECT_LE(s->ttfb.p90_us, s->ttlb.p90_us);
  EXPECT_LE(s->ttfb.p99_us, s->ttlb.p99_us);
  EXPECT_LE(s->ttfb.max_us, s->ttlb.max_us);
  EXPECT_NEAR(s->ttfb.max_us, 2049.0, 1e-9);  // max is exact: 2 ms + 49 x 1 us
}

TEST(S3FiguresLaw, AbsentWithoutAnObjectStoreInTheJsonAndSummaryToo) {
  std::vector<PhaseRecord> phases(2);
  EXPECT_FALSE(s3_figures(phases));
  Report r;
  EXPECT_FALSE(nlohmann::json::parse(to_json(r)).contains("s3"));
  EXPECT_EQ(format_summary(r).find("  s3 "), std::string::npos);
  std::vector<PhaseRecord> one(1);
  one[0].s3 = counters(4, 0, 1000);
  r.s3 = s3_figures(one);
  const nlohmann::json j = nlohmann::json::parse(to_json(r));
  EXPECT_EQ(j["s3"]["requests"], 4u);
  EXPECT_EQ(j["s3"]["errors"]["slow_down_503"], 0u);
  EXPECT_EQ(j["s3"]["ttlb_us"]["count"], 4u);
  EXPECT_NE(format_summary(r).find("  s3          4 HTTP requests (4 GETs), 0 retries"),
            std::string::npos);
}

// The checkpoints' requests (CheckpointResult::s3) are in the run's figures, and apart in
// `checkpoint`: the readers' are the difference, and every request is a GET, PUT, part or control.
TEST(S3FiguresLaw, CheckpointRequestsAreCountedAndShownApart) {
  std::vector<PhaseRecord> phases(1);
  phases[0].s3 = counters(100, 2, 1'000'000);
  engine::S3Counters ck;
  ck.puts = 2;
  ck.parts = 6;
  ck.control = 6;
  ck.gets = 9;
  ck.http_requests = ck.puts + ck.parts + ck.control + ck.gets;
  for (std::uint64_t i = 0; i < ck.http_requests; ++i) {
    ck.ttfb.record(5'000'000);
    ck.ttlb.record(80'000'000);
  }
  const std::optional<S3Result> s = s3_figures(phases, ck);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->requests, 100u + 23u);
  EXPECT_EQ(s->requests, s->gets + s->puts + s->parts + s->control);
  EXPECT_EQ(s->puts, 2u);
  EXPECT_EQ(s->parts, 6u);
  EXPECT_EQ(s->control, 6u);
  EXPECT_EQ(s->ttlb.count, 123u);
  ASSERT_TRUE(s->checkpoint);
  EXPECT_EQ(s->checkpoint->requests, 23u);
  EXPECT_EQ(s->checkpoint->gets, 9u);
  EXPECT_EQ(s->checkpoint->ttlb.count, 23u);
  EXPECT_NEAR(s->checkpoint->ttlb.max_us, 80'000.0, 1e-9);
  // The checkpoints' requests alone still make figures.
  EXPECT_TRUE(s3_figures(std::vector<PhaseRecord>(1), ck));
  Report r;
  r.s3 = s;
  const nlohmann::json j = nlohmann::json::parse(to_json(r));
  EXPECT_EQ(j["s3"]["parts"], 6u);
  EXPECT_EQ(j["s3"]["checkpoint"]["requests"], 23u);
  EXPECT_EQ(j["s3"]["checkpoint"]["control"], 6u);
  const std::string text = format_summary(r);
  EXPECT_NE(text.find("  s3          123 HTTP requests (109 GETs, 2 PUTs, 6 parts, 6 multipart "
                      "control), 2 retries"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("of which checkpoints: 23 HTTP requests (9 GETs, 2 PUTs, 6 parts"),
            std::string::npos)
      << text;
  // Without checkpoints on the store: no "checkpoint" object.
  r.s3 = s3_figures(phases);
  EXPECT_FALSE(nlohmann::json::parse(to_json(r))["s3"].contains("checkpoint"));
}

}  // namespace
}  // namespace dlgen::replay
