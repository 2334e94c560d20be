#pragma once
// The S3 figures of a multi-rank run (docs/metrics.md, "Several ranks"): each rank sends its
// engines' counters, its TTFB and TTLB histograms as their non-empty buckets (exact, a few dozen
// pairs), and the reduction adds the counts and merges the histograms, so the cluster's
// percentiles are those of every rank's requests together, never an average of the ranks'.
#include "dlgen/core/json.hpp"

#include "dlgen/engine/s3.hpp"

namespace dlgen::cluster {

// A latency histogram as a rank sends it (its non-empty buckets, sum and max), and back, exactly.
nlohmann::json histogram_to_j(const LatencyHistogram& h);
LatencyHistogram histogram_from_j(const nlohmann::json& j);

// The counters as a rank sends them, and back: s3_from_j(s3_to_j(k)) holds exactly what k holds.
nlohmann::json s3_to_j(const engine::S3Counters& k);
engine::S3Counters s3_from_j(const nlohmann::json& j);
// A rank's row in the result JSON (per_rank[].s3): its requests by kind, retries, failures and
// its own TTFB and TTLB p50 / p99 (µs), to find the rank whose requests fared worst.
nlohmann::json s3_rank_json(const engine::S3Counters& k);

}  // namespace dlgen::cluster
