// The S3 figures of a multi-rank run (docs/metrics.md, "Several ranks"): the ranks' requests add
// up, and the cluster's TTFB / TTLB percentiles are those of every rank's requests together (the
// ranks' histograms merged, sent exactly as their buckets), never an average of the ranks' own
// percentiles. Histograms built by hand, sent through gather_ranks on ranks that are threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include "dlgen/core/json.hpp"
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "dlgen/cluster/cluster.hpp"
#include "dlgen/cluster/cluster_report.hpp"
#include "dlgen/replay/metrics.hpp"

namespace dlgen::cluster {
namespace {

using replay::Report;

constexpr std::uint64_t kMs = 1'000'000;  // ns

// `gets` GETs each answered with its first byte after `ttfb_ns` and its last 1 ms later, of which
// `retries` were sent again after a 503.
engine::S3Counters reads(std::uint64_t gets, std::uint64_t ttfb_ns, std::uint64_t retries = 0) {
  engine::S3Counters k;
  k.http_requests = k.gets = gets;
  k.retries = k.slow_downs = retries;
  for (std::uint64_t i = 0; i < gets; ++i) {
    k.ttfb.record(ttfb_ns);
    k.ttlb.record(ttfb_ns + kMs);
  }
  return k;
}

// One checkpoint shard written as a multipart upload: 4 parts and its 2 control requests.
engine::S3Counters checkpoint_upload() {
  engine::S3Counters k;
  k.parts = 4;
  k.control = 2;
  k.http_requests = 6;
  for (int i = 0; i < 6; ++i) {
    k.ttfb.record(20 * kMs);
    k.ttlb.record(20 * kMs);
  }
  return k;
}

// Rank 0: 300 GETs with their first byte after 1 ms and a checkpoint upload; rank 1: 103 GETs
// after 100 ms, 3 of them retries of a 503.
std::vector<engine::S3Counters> rank_wires(std::optional<engine::S3Counters>& ck0) {
  engine::S3Counters r0 = reads(300, kMs);
  ck0 = checkpoint_upload();
  r0.merge(*ck0);
  return {r0, reads(103, 100 * kMs, 3)};
}

// Each rank's report with its S3 figures as the runner computes them, through gather_ranks.
std::vector<ClusterResult> gather_two_ranks(std::vector<Report>& reports) {
  std::optional<engine::S3Counters> ck0;
  const std::vector<engine::S3Counters> wires = rank_wires(ck0);
  auto ranks = make_thread_clusters(2, {"a", "b"});
  std::vector<ClusterResult> got(2);
  reports.assign(2, Report{});
  std::vector<std::thread> threads;
  for (std::uint32_t r = 0; r < 2; ++r)
    threads.emplace_back([&, r] {
      reports[r].accelerators = 1;
      reports[r].s3 = replay::s3_result(wires[r], r == 0 ? ck0 : std::nullopt);
      got[r] = gather_ranks(*ranks[r], reports[r]);
    });
  for (auto& t : threads) t.join();
  return got;
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(LatencyHistogram, ItsBucketsRebuildItExactly) {
  std::mt19937_64 rng(7);
  LatencyHistogram h;
  for (int i = 0; i < 5000; ++i) h.record(rng() % (std::uint64_t{1} << (rng() % 40)));
  const auto buckets = h.buckets();
  EXPECT_LT(buckets.size(), 700u);  // sparse: only the buckets that hold something
  const LatencyHistogram back = LatencyHistogram::from_buckets(buckets, h.sum(), h.max());
  EXPECT_EQ(back, h);
  EXPECT_EQ(back.count(), 5000u);
  for (double q : {0.0, 0.5, 0.9, 0.99, 1.0}) EXPECT_EQ(back.percentile(q), h.percentile(q));
}

TEST(ClusterS3, RequestsAreSumsAndPercentilesThoseOfEveryRanksRequestsTogether) {
  std::vector<Report> reports;
  const std::vector<ClusterResult> got = gather_two_ranks(reports);
  std::optional<engine::S3Counters> ck0;
  std::vector<engine::S3Counters> wires = rank_wires(ck0);
  engine::S3Counters all = wires[0];
  all.merge(wires[1]);
  for (const ClusterResult& c : got) {
    ASSERT_TRUE(c.s3.has_value());
    // Laws: the cluster's requests = the sum of the ranks' = GETs + PUTs + parts + control.
    EXPECT_EQ(c.s3->http_requests, 306u + 103);
    EXPECT_EQ(c.s3->http_requests, c.s3->gets + c.s3->puts + c.s3->parts + c.s3->control);
    EXPECT_EQ(c.s3->gets, 403u);
    EXPECT_EQ(c.s3->retries, 3u);
    EXPECT_EQ(c.s3->slow_downs, 3u);
    // The merged histograms are the union's, bucket by bucket, after the trip between ranks.
    EXPECT_EQ(c.s3->ttfb, all.ttfb);
    EXPECT_EQ(c.s3->ttlb, all.ttlb);
    ASSERT_TRUE(c.s3_checkpoint.has_value());
    EXPECT_EQ(c.s3_checkpoint->http_requests, 6u);
    EXPECT_EQ(c.per_rank[0].s3->http_requests, 306u);
    EXPECT_EQ(c.per_rank[1].s3->http_requests, 103u);
    EXPECT_FALSE(c.per_rank[1].s3_checkpoint.has_value());
  }

  Report rep = reports[0];
  apply_cluster(got[0], rep);
  ASSERT_TRUE(rep.s3.has_value());
  const replay::S3Result& s = *rep.s3;
  EXPECT_EQ(s.requests, 409u);
  // 409 samples of TTFB: 300 at 1 ms, 6 at 20 ms, 103 at 100 ms. Nearest rank ⌊q·408⌋+1: p50 is
  // the 205th (1 ms), p90 the 368th and p99 the 404th (100 ms). The mean of the ranks' own p90s
  // (1 ms and 100 ms) would say 50.5 ms: no request took that long.
  const double tolerance = 0.03125;  // half a bucket (core/latency_histogram.hpp)
  EXPECT_NEAR(s.ttfb.p50_us, 1000, 1000 * tolerance);
  EXPECT_NEAR(s.ttfb.p90_us, 100000, 100000 * tolerance);
  EXPECT_NEAR(s.ttfb.p99_us, 100000, 100000 * tolerance);
  const double mean_of_p90s =
      (reports[0].s3->ttfb.p90_us + reports[1].s3->ttfb.p90_us) / 2;  // the wrong answer
  EXPECT_GT(std::abs(s.ttfb.p90_us - mean_of_p90s), 40000);
  EXPECT_EQ(s.ttfb.count, 409u);
  EXPECT_EQ(s.ttfb.max_us, replay::percentiles(all.ttfb).max_us);
  EXPECT_DOUBLE_EQ(s.ttfb.mean_us, replay::percentiles(all.ttfb).mean_us);
  ASSERT_TRUE(s.checkpoint.has_value());
  EXPECT_EQ(s.checkpoint->parts, 4u);
  EXPECT_EQ(s.checkpoint->control, 2u);

  // The JSON: the whole job's figures at the top, each rank's requests and retries per rank.
  const nlohmann::json j = nlohmann::json::parse(cluster_json(rep, got[0]));
  EXPECT_EQ(j["s3"]["requests"], 409u);
  EXPECT_EQ(j["s3"]["checkpoint"]["requests"], 6u);
  EXPECT_EQ(j["per_rank"][0]["s3"]["requests"].get<std::uint64_t>() +
                j["per_rank"][1]["s3"]["requests"].get<std::uint64_t>(),
            j["s3"]["requests"].get<std::uint64_t>());
  EXPECT_EQ(j["per_rank"][1]["s3"]["retries"], 3u);
  EXPECT_EQ(j["per_rank"][0]["s3"]["gets"], 300u);

  // The summary: the s3 lines once, with the whole job's figures.
  const std::string text = format_cluster_summary(rep, got[0]);
  EXPECT_EQ(occurrences(text, "  s3  "), 1u) << text;
  EXPECT_NE(text.find("s3          all ranks: 409 HTTP requests (403 GETs, 0 PUTs, 4 parts, 2 "
                      "multipart control), 3 retries; errors: 3 SlowDown (503)"),
            std::string::npos)
      << text;
  EXPECT_EQ(occurrences(text, "of which checkpoints: 6 HTTP requests"), 1u) << text;
}

// A run on files: no S3 figures anywhere, and the JSON keeps its keys.
TEST(ClusterS3, ARunOnFilesHasNone) {
  RankResult a, b;
  a.rank = 0;
  b.rank = 1;
  const ClusterResult c = reduce_ranks({a, b});
  EXPECT_FALSE(c.s3.has_value());
  Report rep;
  apply_cluster(c, rep);
  EXPECT_FALSE(rep.s3.has_value());
  const nlohmann::json j = nlohmann::json::parse(cluster_json(rep, c));
  EXPECT_FALSE(j.contains("s3"));
  EXPECT_FALSE(j["per_rank"][0].contains("s3"));
  EXPECT_EQ(format_cluster_summary(rep, c).find("  s3  "), std::string::npos);
}

}  // namespace
}  // namespace dlgen::cluster
