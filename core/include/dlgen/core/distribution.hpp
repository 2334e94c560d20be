#pragma once
// A distribution of a non-negative quantity (bytes or seconds, named by the field that holds it).
// Sampling is deterministic for a (seed, index) pair, so the dataset layout is a pure function of
// the job: the generator and the replay agree on every file's size without listing directories.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace dlgen {

enum class DistKind { fixed, normal, lognormal, uniform, gamma, histogram };

// One bin of an empirical histogram: values in [lo, hi] (lo == hi: that exact value), with a
// weight.
struct HistogramBin {
  double lo = 0;
  double hi = 0;
  double weight = 1;
  bool operator==(const HistogramBin&) const = default;
};

struct Distribution {
  DistKind kind = DistKind::fixed;
  double value = 0;                // fixed
  double mean = 0;                 // normal, lognormal, gamma: of the value itself (not of its log)
  double stdev = 0;                // normal, lognormal, gamma
  double min = 0;                  // lower bound for every kind; uniform: range start
  double max = 0;                  // upper bound (0: unbounded) ; uniform: range end
  std::vector<HistogramBin> bins;  // histogram

  static Distribution fixed_at(double v) {
    Distribution d;
    d.value = v;
    return d;
  }
  // The distribution's expected value (after bounds, approximately for clipped kinds).
  double expected() const;
  bool operator==(const Distribution&) const = default;
};

using Rng = std::mt19937_64;

// One draw, clipped to [min, max] (max 0: no upper bound) and never negative.
double sample(const Distribution& d, Rng& rng);
// A deterministic draw for item `index` of a stream seeded with `seed` (independent per index).
double sample_at(const Distribution& d, std::uint64_t seed, std::uint64_t index);
// Mixes a seed and an index into a well-spread 64-bit value (splitmix64).
std::uint64_t mix_seed(std::uint64_t seed, std::uint64_t index);

}  // namespace dlgen
