// The sizes of batches that vary (reader.batch_size as a distribution: a token-budget batch
// sampler), cut from one accelerator's share of an epoch.
#include <algorithm>
#include <cmath>

#include "dlgen/core/set_draws.hpp"
#include "dlgen/replay/plan.hpp"

namespace dlgen::replay {

std::uint64_t varied_batch_count(const Distribution& sizes, std::uint64_t samples) {
  if (samples == 0) return 0;
  const double mean = std::max(sizes.expected(), 1.0);
  const auto count = static_cast<std::uint64_t>(std::llround(static_cast<double>(samples) / mean));
  return std::clamp<std::uint64_t>(count, 1, samples);
}

std::vector<std::uint64_t> batch_cuts(const Distribution& sizes, std::uint64_t samples,
                                      std::uint64_t seed) {
  const std::uint64_t count = varied_batch_count(sizes, samples);
  if (count == 0) return {};
  const std::vector<double> draws = set_draws(sizes, seed, count);
  double drawn = 0;
  for (const double v : draws) drawn += std::max(v, 1.0);
  // Scaled to the share, rounded, at least 1 each.
  std::vector<std::uint64_t> out(count);
  std::uint64_t sum = 0;
  const double scale = static_cast<double>(samples) / drawn;
  for (std::uint64_t i = 0; i < count; ++i) {
    out[i] = std::max<std::uint64_t>(1, std::llround(std::max(draws[i], 1.0) * scale));
    sum += out[i];
  }
  // The rounding's remainder, one sample a batch from a seeded batch on (the batches are in a
  // seeded order already). count <= samples, so a batch above 1 is always there to shrink.
  for (std::uint64_t i = mix_seed(seed, count) % count; sum != samples; i = (i + 1) % count) {
    if (sum < samples) {
      ++out[i];
      ++sum;
    } else if (out[i] > 1) {
      --out[i];
      --sum;
    }
  }
  return out;
}

}  // namespace dlgen::replay
