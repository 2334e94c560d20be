// The data reads' latency of a multi-rank run (docs/metrics.md, "Several ranks"): the cluster's
// latency_us percentiles are those of every rank's reads together (each rank's histogram sent
// exactly as its buckets and merged), never rank 0's alone nor an average of the ranks' own
// percentiles; per_rank[].latency_us keeps each rank's. Ranks are threads (gather_ranks).
#include <gtest/gtest.h>

#include "dlgen/core/json.hpp"
#include <string>
#include <thread>
#include <vector>

#include "dlgen/cluster/cluster.hpp"
#include "dlgen/cluster/cluster_report.hpp"
#include "dlgen/replay/metrics.hpp"

namespace dlgen::cluster {
namespace {

using replay::Report;

constexpr std::uint64_t kUs = 1'000;  // ns

// Rank 0: 900 reads of 100 us; rank 1: 100 reads of 20 ms (a slow mount on one host).
TEST(ClusterLatency, PercentilesAreThoseOfEveryRanksReadsTogether) {
  auto ranks = make_thread_clusters(2, {"a", "b"});
  std::vector<Report> reports(2);
  std::vector<ClusterResult> got(2);
  std::vector<std::thread> threads;
  for (std::uint32_t r = 0; r < 2; ++r)
    threads.emplace_back([&, r] {
      reports[r].accelerators = 1;
      const std::uint64_t n = r == 0 ? 900 : 100, ns = r == 0 ? 100 * kUs : 20'000 * kUs;
      for (std::uint64_t i = 0; i < n; ++i) reports[r].latency_histogram.record(ns);
      reports[r].latency = replay::percentiles(reports[r].latency_histogram);
      got[r] = gather_ranks(*ranks[r], reports[r]);
    });
  for (auto& t : threads) t.join();

  Report rep = reports[0];
  apply_cluster(got[0], rep);
  EXPECT_EQ(rep.latency.count, 1000u);
  // The union: p50 is a rank-0 read, p99 a rank-1 read (the slowest 10% are rank 1's).
  EXPECT_NEAR(rep.latency.p50_us, 100, 10);
  EXPECT_NEAR(rep.latency.p99_us, 20'000, 2'000);
  // Rank 0's own p99 would say 100 us; the mean of the ranks' p99s ~10 ms: neither is the answer.
  EXPECT_NEAR(reports[0].latency.p99_us, 100, 10);
  const nlohmann::json j = nlohmann::json::parse(cluster_json(rep, got[0]));
  EXPECT_NEAR(j["latency_us"]["p99"].get<double>(), 20'000, 2'000) << j["latency_us"];
  ASSERT_EQ(j["per_rank"].size(), 2u);
  EXPECT_NEAR(j["per_rank"][0]["latency_us"]["p99"].get<double>(), 100, 10);
  EXPECT_NEAR(j["per_rank"][1]["latency_us"]["p50"].get<double>(), 20'000, 2'000);
  EXPECT_NE(format_cluster_summary(rep, got[0]).find("latency     all ranks: "), std::string::npos);
}

}  // namespace
}  // namespace dlgen::cluster
