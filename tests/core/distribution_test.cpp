#include "dlgen/core/distribution.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <vector>

namespace dlgen {
namespace {

struct Moments {
  double mean = 0, stdev = 0, lo = INFINITY, hi = -INFINITY;
};

Moments draw(const Distribution& d, int n, std::uint64_t seed = 1) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(sample_at(d, seed, i));
  Moments m;
  for (double x : v) {
    m.mean += x;
    m.lo = std::min(m.lo, x);
    m.hi = std::max(m.hi, x);
  }
  m.mean /= n;
  for (double x : v) m.stdev += (x - m.mean) * (x - m.mean);
  m.stdev = std::sqrt(m.stdev / (n - 1));
  return m;
}

TEST(Distribution, SeededDrawsAreDeterministicAndIndependentPerIndex) {
  Distribution d;
  d.kind = DistKind::normal;
  d.mean = 1000;
  d.stdev = 100;
  EXPECT_EQ(sample_at(d, 7, 3), sample_at(d, 7, 3));
  EXPECT_NE(sample_at(d, 7, 3), sample_at(d, 7, 4));
  EXPECT_NE(sample_at(d, 7, 3), sample_at(d, 8, 3));
  std::set<std::uint64_t> mixed;
  for (std::uint64_t i = 0; i < 1000; ++i) mixed.insert(mix_seed(1, i));
  EXPECT_EQ(mixed.size(), 1000u);
  EXPECT_NE(mix_seed(1, 2), mix_seed(2, 1));
}

// Sizes already on disk (and their manifests) depend on these exact draws: a change to the
// seeding or the transforms must be deliberate, so pin a few values.
TEST(Distribution, DrawsAreStableAcrossVersions) {
  EXPECT_EQ(mix_seed(42, 7), 8206567017358125704ull);
  Distribution n;
  n.kind = DistKind::normal;
  n.mean = 146600628;
  n.stdev = 68341808;
  n.min = 4 << 20;
  EXPECT_DOUBLE_EQ(sample_at(n, 42, 0), 76679919.730290532);
  EXPECT_DOUBLE_EQ(sample_at(n, 42, 167), 119329834.02748746);
  Distribution l;
  l.kind = DistKind::lognormal;
  l.mean = 112640;
  l.stdev = 61440;
  EXPECT_DOUBLE_EQ(sample_at(l, 1000, 5), 46653.169328163072);
  Distribution g;
  g.kind = DistKind::gamma;
  g.mean = 0.323;
  g.stdev = 0.02;
  EXPECT_DOUBLE_EQ(sample_at(g, 1, 1), 0.33115614315395964);
}

TEST(Distribution, FixedIsItsValue) {
  auto d = Distribution::fixed_at(114660);
  EXPECT_EQ(sample_at(d, 1, 99), 114660);
  EXPECT_EQ(d.expected(), 114660);
}

TEST(Distribution, NormalMatchesMeanAndStdev) {
  Distribution d;
  d.kind = DistKind::normal;
  d.mean = 146600628;
  d.stdev = 6834180;
  auto m = draw(d, 20000);
  EXPECT_NEAR(m.mean, d.mean, d.mean * 0.01);
  EXPECT_NEAR(m.stdev, d.stdev, d.stdev * 0.05);
}

TEST(Distribution, LognormalIsParameterisedByTheValueItself) {
  Distribution d;
  d.kind = DistKind::lognormal;
  d.mean = 110 * 1024.0;
  d.stdev = 60 * 1024.0;
  auto m = draw(d, 50000);
  EXPECT_NEAR(m.mean, d.mean, d.mean * 0.02);
  EXPECT_NEAR(m.stdev, d.stdev, d.stdev * 0.08);
  EXPECT_GT(m.lo, 0);
}

TEST(Distribution, GammaFromMeanAndStdev) {
  Distribution d;
  d.kind = DistKind::gamma;
  d.mean = 0.323;
  d.stdev = 0.05;
  auto m = draw(d, 20000);
  EXPECT_NEAR(m.mean, 0.323, 0.323 * 0.01);
  EXPECT_NEAR(m.stdev, 0.05, 0.05 * 0.05);
  d.stdev = 0.5;  // shape < 1
  m = draw(d, 20000);
  EXPECT_NEAR(m.mean, 0.323, 0.323 * 0.05);
}

TEST(Distribution, UniformStaysInRange) {
  Distribution d;
  d.kind = DistKind::uniform;
  d.min = 100 * 1024.0;
  d.max = 200 * 1024.0;
  auto m = draw(d, 20000);
  EXPECT_GE(m.lo, d.min);
  EXPECT_LE(m.hi, d.max);
  EXPECT_NEAR(m.mean, 150 * 1024.0, 150 * 1024.0 * 0.01);
  EXPECT_DOUBLE_EQ(d.expected(), 150 * 1024.0);
}

TEST(Distribution, BoundsHoldAndNeverNegative) {
  Distribution d;
  d.kind = DistKind::normal;
  d.mean = 146600628;
  d.stdev = 68341808;
  d.min = 4 << 20;
  d.max = 300e6;
  auto m = draw(d, 20000);
  EXPECT_GE(m.lo, d.min);
  EXPECT_LE(m.hi, d.max);
  // Truncation (not clamping): the mean moves as the truncated normal's does.
  EXPECT_NEAR(m.mean, d.expected(), d.expected() * 0.02);
  Distribution wide;
  wide.kind = DistKind::normal;
  wide.mean = 10;
  wide.stdev = 100;
  EXPECT_GE(draw(wide, 5000).lo, 0);
}

TEST(Distribution, HistogramReproducesItsBins) {
  Distribution d;
  d.kind = DistKind::histogram;
  d.bins = {{100, 200, 3}, {1000, 1000, 1}, {5000, 6000, 0}};
  const int n = 40000;
  int first = 0, exact = 0;
  for (int i = 0; i < n; ++i) {
    const double v = sample_at(d, 5, i);
    if (v >= 100 && v <= 200)
      ++first;
    else if (v == 1000)
      ++exact;
    else
      ADD_FAILURE() << "value outside every weighted bin: " << v;
  }
  EXPECT_NEAR(double(first) / n, 0.75, 0.01);
  EXPECT_NEAR(double(exact) / n, 0.25, 0.01);
  EXPECT_DOUBLE_EQ(d.expected(), (150 * 3 + 1000) / 4.0);
}

}  // namespace
}  // namespace dlgen
