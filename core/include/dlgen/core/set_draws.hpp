#pragma once
// A set's draws of one distribution together (a dataset's sample sizes): stratified, so that a
// small set holds the distribution's shares and expected total (docs/job-format.md, "Values").
#include <cstdint>
#include <vector>

#include "dlgen/core/distribution.hpp"

namespace dlgen {

// The draws of a set of `count` items, item i the i-th value: stratified where the distribution
// has a quantile function (histogram, uniform). The unit interval is cut into `count` strata of
// equal probability, a seeded permutation gives each item its own stratum, and the item's value
// is the quantile of a seeded point inside it; so a set of any size holds each bin's share of
// items to within one and its total is the expected total to within about one item's spread,
// where independent draws of a small set stray (16 files of the held-out S3 listing: +10.8% of
// their bytes). Each value is still a draw of the distribution (the same marginal),
// deterministic for (seed, count). Other kinds: sample_at(d, seed, i) for each item.
std::vector<double> set_draws(const Distribution& d, std::uint64_t seed, std::uint64_t count);
// The value at cumulative probability `u` in [0, 1) of a histogram (its bins in their order, as
// sample() picks them) or a uniform distribution, bounded as sample() bounds it (other kinds: 0).
double quantile(const Distribution& d, double u);
// True for the kinds quantile() knows.
bool has_quantile(const Distribution& d);

}  // namespace dlgen
