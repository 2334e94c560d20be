#include "dlgen/core/set_draws.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace dlgen {

bool has_quantile(const Distribution& d) {
  return d.kind == DistKind::histogram || d.kind == DistKind::uniform;
}

double quantile(const Distribution& d, double u) {
  u = std::clamp(u, 0.0, std::nextafter(1.0, 0.0));
  double v = 0;
  if (d.kind == DistKind::uniform) {
    v = d.min + (d.max - d.min) * u;
  } else if (d.kind == DistKind::histogram) {
    double total = 0;
    for (const auto& b : d.bins) total += std::max(0.0, b.weight);
    if (d.bins.empty() || total <= 0) return 0;
    // The bins in their order, as raw_draw picks them: bin b holds (its weight / total) of [0, 1).
    double pick = u * total;
    const HistogramBin* chosen = &d.bins.back();
    double within = 1.0;
    for (const auto& b : d.bins) {
      const double w = std::max(0.0, b.weight);
      if (pick < w) {
        chosen = &b;
        within = pick / w;
        break;
      }
      pick -= w;
    }
    v = chosen->lo + (chosen->hi - chosen->lo) * within;
  } else {
    return 0;
  }
  v = std::max(v, std::max(d.min, 0.0));
  if (d.max > 0) v = std::min(v, d.max);
  return v;
}

std::vector<double> set_draws(const Distribution& d, std::uint64_t seed, std::uint64_t count) {
  std::vector<double> out(count);
  if (!has_quantile(d)) {
    for (std::uint64_t i = 0; i < count; ++i) out[i] = sample_at(d, seed, i);
    return out;
  }
  // Fisher-Yates on the raw engine output (not std::shuffle, whose algorithm differs between
  // standard libraries): stratum[i] is item i's stratum.
  std::vector<std::uint64_t> stratum(count);
  for (std::uint64_t i = 0; i < count; ++i) stratum[i] = i;
  Rng order(mix_seed(seed, 0x5354524154ull));  // "STRAT"
  for (std::uint64_t i = count; i > 1; --i) std::swap(stratum[i - 1], stratum[order() % i]);
  for (std::uint64_t i = 0; i < count; ++i) {
    Rng rng(mix_seed(seed, i));
    const double within = static_cast<double>(rng() >> 11) * 0x1.0p-53;  // [0, 1)
    out[i] = quantile(d, (static_cast<double>(stratum[i]) + within) / static_cast<double>(count));
  }
  return out;
}

}  // namespace dlgen
