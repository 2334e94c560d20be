#pragma once
// Latencies in nanoseconds, in log-linear buckets: the replay's request latencies and the S3
// engine's times to first and last byte use the one histogram, so their percentiles are read the
// same way (docs/metrics.md, Latency). Fixed size: recording never allocates.
#include <array>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace dlgen {

// 16 buckets per power of two (≤ 6.25% error). One per thread, merged at the end.
class LatencyHistogram {
 public:
  static constexpr int kSub = 16;
  static constexpr int kBuckets = 61 * kSub;  // up to msb 63
  void record(std::uint64_t ns) {
    ++counts_[bucket(ns)];
    ++count_;
    sum_ += ns;
    if (ns > max_) max_ = ns;
  }
  void merge(const LatencyHistogram& o);
  std::uint64_t count() const { return count_; }
  std::uint64_t max() const { return max_; }
  std::uint64_t sum() const { return sum_; }
  double mean() const {
    return count_ ? static_cast<double>(sum_) / static_cast<double>(count_) : 0;
  }
  // The value below which a fraction q (0..1) of the recorded latencies fall: a histogram lookup,
  // not dlgen::percentile (which interpolates between exact samples; a run keeps no samples). The
  // nearest rank ⌊q·(n−1)⌋+1 is found among the buckets and answered with its bucket's midpoint,
  // never above max(). Resolution: exact below 16 ns; above, a bucket spans 1/16 of its power of
  // two (2^m .. 2^m + 2^(m−4) for m ≥ 4), so the midpoint is within half a bucket, at most 3.125%
  // of the true nearest-rank latency (6.25% is the bucket's width). Monotone: when every value of
  // one histogram is at most its partner's in another of the same count, each percentile is too.
  std::uint64_t percentile(double q) const;
  static int bucket(std::uint64_t ns) {
    if (ns < kSub) return static_cast<int>(ns);
    const int msb = 63 - __builtin_clzll(ns);
    const int shift = msb - 4;  // keep the 4 bits below the leading one
    return (msb - 3) * kSub + static_cast<int>((ns >> shift) & (kSub - 1));
  }
  static std::uint64_t bucket_low(int b);

  // The non-empty buckets as (bucket, count), in bucket order: with sum() and max(), all that the
  // histogram holds, in a compact form (a run fills a few dozen of its 976 buckets) that
  // from_buckets rebuilds exactly, so that the ranks of a multi-host run can send theirs to be
  // merged (cluster_report.cpp) and the merge's percentiles are those of all their samples.
  std::vector<std::pair<int, std::uint64_t>> buckets() const;
  // The histogram whose buckets(), sum() and max() these are. A bucket outside 0..kBuckets-1 is
  // a bug in whoever built the list (abort).
  static LatencyHistogram from_buckets(std::span<const std::pair<int, std::uint64_t>> buckets,
                                       std::uint64_t sum, std::uint64_t max);
  bool operator==(const LatencyHistogram&) const = default;

 private:
  std::array<std::uint64_t, kBuckets> counts_{};
  std::uint64_t count_ = 0, sum_ = 0, max_ = 0;
};

}  // namespace dlgen
