#include "cluster_s3.hpp"

#include <cstdint>
#include <utility>
#include <vector>

#include "dlgen/cluster/cluster_report.hpp"
#include "dlgen/replay/report.hpp"

namespace dlgen::cluster {

using nlohmann::json;

json histogram_to_j(const LatencyHistogram& h) {
  return {{"sum", h.sum()}, {"max", h.max()}, {"buckets", h.buckets()}};
}

LatencyHistogram histogram_from_j(const json& j) {
  const auto buckets = j.at("buckets").get<std::vector<std::pair<int, std::uint64_t>>>();
  return LatencyHistogram::from_buckets(buckets, j.at("sum"), j.at("max"));
}

json s3_to_j(const engine::S3Counters& k) {
  return {{"http_requests", k.http_requests},
          {"gets", k.gets},
          {"puts", k.puts},
          {"parts", k.parts},
          {"control", k.control},
          {"retries", k.retries},
          {"slow_downs", k.slow_downs},
          {"server_errors", k.server_errors},
          {"timeouts", k.timeouts},
          {"resets", k.resets},
          {"ttfb", histogram_to_j(k.ttfb)},
          {"ttlb", histogram_to_j(k.ttlb)}};
}

engine::S3Counters s3_from_j(const json& j) {
  engine::S3Counters k;
  k.http_requests = j.at("http_requests");
  k.gets = j.at("gets");
  k.puts = j.at("puts");
  k.parts = j.at("parts");
  k.control = j.at("control");
  k.retries = j.at("retries");
  k.slow_downs = j.at("slow_downs");
  k.server_errors = j.at("server_errors");
  k.timeouts = j.at("timeouts");
  k.resets = j.at("resets");
  k.ttfb = histogram_from_j(j.at("ttfb"));
  k.ttlb = histogram_from_j(j.at("ttlb"));
  return k;
}

json s3_rank_json(const engine::S3Counters& k) {
  const replay::Percentiles ttfb = replay::percentiles(k.ttfb);
  const replay::Percentiles ttlb = replay::percentiles(k.ttlb);
  return {{"requests", k.http_requests},
          {"gets", k.gets},
          {"puts", k.puts},
          {"parts", k.parts},
          {"control", k.control},
          {"retries", k.retries},
          {"errors",
           {{"slow_down_503", k.slow_downs},
            {"other_5xx", k.server_errors},
            {"timeouts", k.timeouts},
            {"resets", k.resets}}},
          {"ttfb_us", {{"p50", ttfb.p50_us}, {"p99", ttfb.p99_us}}},
          {"ttlb_us", {{"p50", ttlb.p50_us}, {"p99", ttlb.p99_us}}}};
}

std::string s3_counters_text(const engine::S3Counters& k) {
  return s3_to_j(k).dump();
}

engine::S3Counters s3_counters_from_text(const std::string& text) {
  return s3_from_j(json::parse(text));
}

}  // namespace dlgen::cluster
