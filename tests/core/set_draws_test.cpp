// A set's sizes drawn together (set_draws): stratified for a histogram or a uniform, so that a
// small set holds the distribution's shares and bytes; each value still a draw of it.
#include "dlgen/core/set_draws.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace dlgen {
namespace {

// A small set drawn from a histogram holds the histogram's bytes (set_draws): 16 files from 16
// equal bins of exact sizes are those 16 sizes, each once, in a seeded order. Independent draws
// (sample_at) repeat some and miss others: the held-out S3 listing's 16 validation JPEGs of
// 54.5 KiB were drawn as 60.4 KiB.
TEST(SetDraws, OfAHistogramHoldItsBins) {
  Distribution d;
  d.kind = DistKind::histogram;
  const std::vector<double> sizes = {1956, 2122, 2376, 2381, 2711, 3043, 3385, 3689,
                                     3712, 3714, 3721, 4443, 4454, 4592, 4737, 4757};
  for (double v : sizes) d.bins.push_back({v, v, 1});
  for (std::uint64_t seed : {1, 2, 3}) {
    std::vector<double> got = set_draws(d, seed, sizes.size());
    EXPECT_EQ(got, set_draws(d, seed, sizes.size())) << "deterministic for (seed, count)";
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, sizes) << "seed " << seed;
  }
  EXPECT_NE(set_draws(d, 1, sizes.size()), set_draws(d, 2, sizes.size())) << "seeded order";
}

// Each item's value is still a draw of the distribution: bins keep their shares over a large
// set, and a continuous bin's values spread over it; a set's mean is the expected value closely.
TEST(SetDraws, KeepTheDistribution) {
  Distribution d;
  d.kind = DistKind::histogram;
  d.bins = {{100, 200, 3}, {1000, 1000, 1}, {5000, 6000, 0}};
  const std::vector<double> v = set_draws(d, 5, 4000);
  int first = 0, exact = 0, low_half = 0;
  double sum = 0;
  for (double x : v) {
    sum += x;
    if (x >= 100 && x <= 200)
      ++first, low_half += x < 150;
    else if (x == 1000)
      ++exact;
    else
      ADD_FAILURE() << "value outside every weighted bin: " << x;
  }
  EXPECT_EQ(first, 3000);
  EXPECT_EQ(exact, 1000);
  EXPECT_NEAR(low_half, 1500, 5);
  EXPECT_NEAR(sum / 4000, d.expected(), 0.1);
  // Seven draws of a 2-bin histogram: the bins' shares to within one item.
  Distribution two;
  two.kind = DistKind::histogram;
  two.bins = {{10, 10, 1}, {30, 30, 1}};
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    const std::vector<double> w = set_draws(two, seed, 7);
    const auto tens = std::count(w.begin(), w.end(), 10.0);
    EXPECT_TRUE(tens == 3 || tens == 4) << "seed " << seed << ": " << tens;
  }
}

TEST(SetDraws, OfAUniformAreStratifiedAndOthersIndependent) {
  Distribution u;
  u.kind = DistKind::uniform;
  u.min = 0;
  u.max = 100;
  std::vector<double> v = set_draws(u, 9, 10);
  std::sort(v.begin(), v.end());
  for (int i = 0; i < 10; ++i) {
    EXPECT_GE(v[i], 10.0 * i);
    EXPECT_LT(v[i], 10.0 * (i + 1));
  }
  Distribution n;
  n.kind = DistKind::normal;
  n.mean = 1000;
  n.stdev = 100;
  const std::vector<double> w = set_draws(n, 42, 5);
  for (std::uint64_t i = 0; i < 5; ++i) EXPECT_EQ(w[i], sample_at(n, 42, i));
}

}  // namespace
}  // namespace dlgen
