#include "dlgen/core/distribution.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace dlgen {
namespace {

// The transforms below use only the engine's raw 64-bit output (never std::*_distribution, whose
// algorithms differ between standard libraries), so a (seed, index) gives the same size everywhere.
double uniform01(Rng& rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

double standard_normal(Rng& rng) {
  // Box-Muller; u1 in (0, 1] so the log is finite.
  const double u1 = 1.0 - uniform01(rng);
  const double u2 = uniform01(rng);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

// Marsaglia-Tsang for shape >= 1; shape < 1 boosted by U^(1/shape).
double standard_gamma(double shape, Rng& rng) {
  if (shape < 1.0) {
    const double u = 1.0 - uniform01(rng);
    return standard_gamma(shape + 1.0, rng) * std::pow(u, 1.0 / shape);
  }
  const double d = shape - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    double x, v;
    do {
      x = standard_normal(rng);
      v = 1.0 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const double u = 1.0 - uniform01(rng);
    if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) return d * v;
  }
}

double raw_draw(const Distribution& d, Rng& rng) {
  switch (d.kind) {
    case DistKind::fixed:
      return d.value;
    case DistKind::normal:
      return d.mean + d.stdev * standard_normal(rng);
    case DistKind::lognormal: {
      if (d.mean <= 0) return 0;
      // Parameters of log(X) from the mean and stdev of X itself.
      const double s2 = std::log1p((d.stdev * d.stdev) / (d.mean * d.mean));
      const double mu = std::log(d.mean) - s2 / 2;
      return std::exp(mu + std::sqrt(s2) * standard_normal(rng));
    }
    case DistKind::uniform:
      return d.min + (d.max - d.min) * uniform01(rng);
    case DistKind::gamma: {
      if (d.mean <= 0) return 0;
      if (d.stdev <= 0) return d.mean;
      const double shape = (d.mean * d.mean) / (d.stdev * d.stdev);
      const double scale = (d.stdev * d.stdev) / d.mean;
      return standard_gamma(shape, rng) * scale;
    }
    case DistKind::histogram: {
      double total = 0;
      for (const auto& b : d.bins) total += std::max(0.0, b.weight);
      if (d.bins.empty() || total <= 0) return 0;
      double pick = uniform01(rng) * total;
      const HistogramBin* chosen = &d.bins.back();
      for (const auto& b : d.bins) {
        const double w = std::max(0.0, b.weight);
        if (pick < w) {
          chosen = &b;
          break;
        }
        pick -= w;
      }
      return chosen->lo + (chosen->hi - chosen->lo) * uniform01(rng);
    }
  }
  return 0;
}

bool in_bounds(const Distribution& d, double v) {
  return v >= d.min && (d.max <= 0 || v <= d.max) && v >= 0;
}

double normal_pdf(double x) {
  return std::exp(-0.5 * x * x) / std::sqrt(2 * std::numbers::pi);
}
double normal_cdf(double x) {
  return 0.5 * std::erfc(-x / std::numbers::sqrt2);
}

}  // namespace

double sample(const Distribution& d, Rng& rng) {
  // Bounded kinds are truncated: a draw outside [min, max] is redrawn (a few times, so a bound far
  // in the tail costs little), then clamped. Truncation keeps the shape; clamping alone would pile
  // probability mass onto the bounds.
  double v = raw_draw(d, rng);
  if (d.kind != DistKind::fixed && d.kind != DistKind::histogram && d.kind != DistKind::uniform) {
    for (int i = 0; i < 16 && !in_bounds(d, v); ++i) v = raw_draw(d, rng);
  }
  v = std::max(v, std::max(d.min, 0.0));
  if (d.max > 0) v = std::min(v, d.max);
  return v;
}

std::uint64_t mix_seed(std::uint64_t seed, std::uint64_t index) {
  auto splitmix = [](std::uint64_t z) {
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  };
  return splitmix(splitmix(seed) ^ (index * 0xd1b54a32d192ed03ull + 0x8cb92ba72f3d8dd7ull));
}

double sample_at(const Distribution& d, std::uint64_t seed, std::uint64_t index) {
  Rng rng(mix_seed(seed, index));
  return sample(d, rng);
}

double Distribution::expected() const {
  const double lo = std::max(min, 0.0);
  const double hi = max > 0 ? max : INFINITY;
  auto clamp = [&](double v) { return std::min(std::max(v, lo), hi); };
  switch (kind) {
    case DistKind::fixed:
      return clamp(value);
    case DistKind::uniform:
      return (min + max) / 2;
    case DistKind::normal: {
      if (stdev <= 0) return clamp(mean);
      // Mean of a normal truncated to [lo, hi].
      const double a = (lo - mean) / stdev;
      const double b = std::isinf(hi) ? INFINITY : (hi - mean) / stdev;
      const double z = normal_cdf(b) - normal_cdf(a);
      if (z <= 1e-12) return clamp(mean);
      const double pb = std::isinf(b) ? 0.0 : normal_pdf(b);
      return mean + stdev * (normal_pdf(a) - pb) / z;
    }
    case DistKind::lognormal:
    case DistKind::gamma:
      return clamp(mean);  // approximate when bounds cut the tails
    case DistKind::histogram: {
      double total = 0, acc = 0;
      for (const auto& b : bins) {
        const double w = std::max(0.0, b.weight);
        total += w;
        acc += w * (b.lo + b.hi) / 2;
      }
      return total > 0 ? clamp(acc / total) : 0;
    }
  }
  return 0;
}

}  // namespace dlgen
