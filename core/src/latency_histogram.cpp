#include "dlgen/core/latency_histogram.hpp"

#include <algorithm>
#include <cstdlib>

namespace dlgen {

void LatencyHistogram::merge(const LatencyHistogram& o) {
  for (int i = 0; i < kBuckets; ++i) counts_[i] += o.counts_[i];
  count_ += o.count_;
  sum_ += o.sum_;
  max_ = std::max(max_, o.max_);
}

std::uint64_t LatencyHistogram::bucket_low(int b) {
  if (b < kSub) return static_cast<std::uint64_t>(b);
  const int msb = b / kSub + 3;
  const std::uint64_t sub = static_cast<std::uint64_t>(b % kSub);
  return (std::uint64_t{1} << msb) | (sub << (msb - 4));
}

std::vector<std::pair<int, std::uint64_t>> LatencyHistogram::buckets() const {
  std::vector<std::pair<int, std::uint64_t>> out;
  for (int b = 0; b < kBuckets; ++b)
    if (counts_[b] > 0) out.emplace_back(b, counts_[b]);
  return out;
}

LatencyHistogram LatencyHistogram::from_buckets(
    std::span<const std::pair<int, std::uint64_t>> buckets, std::uint64_t sum, std::uint64_t max) {
  LatencyHistogram h;
  for (const auto& [b, n] : buckets) {
    if (b < 0 || b >= kBuckets) std::abort();  // a broken list: a bug, never input
    h.counts_[b] += n;
    h.count_ += n;
  }
  h.sum_ = sum;
  h.max_ = max;
  return h;
}

std::uint64_t LatencyHistogram::percentile(double q) const {
  if (count_ == 0) return 0;
  const auto rank =
      static_cast<std::uint64_t>(std::clamp(q, 0.0, 1.0) * static_cast<double>(count_ - 1)) + 1;
  std::uint64_t seen = 0;
  for (int b = 0; b < kBuckets; ++b) {
    seen += counts_[b];
    if (seen >= rank) {
      const std::uint64_t lo = bucket_low(b);
      const std::uint64_t width = b < kSub ? 1 : std::uint64_t{1} << (b / kSub + 3 - 4);
      return std::min(max_, lo + width / 2);
    }
  }
  return max_;
}

}  // namespace dlgen
