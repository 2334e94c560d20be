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

}  // namespace
}  // namespace dlgen::replay
