#include "stats.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace dlgen::analysis::detail {

Stats make_stats(std::vector<double> v) {
  Stats s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.count = v.size();
  s.min = v.front();
  s.max = v.back();
  s.mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  double ss = 0;
  for (double x : v) ss += (x - s.mean) * (x - s.mean);
  s.stdev = v.size() > 1 ? std::sqrt(ss / static_cast<double>(v.size() - 1)) : 0.0;
  s.p50 = percentile_sorted(v, 0.5);
  s.p90 = percentile_sorted(v, 0.9);
  s.p99 = percentile_sorted(v, 0.99);
  return s;
}

namespace {
std::vector<double> ranks(const std::vector<double>& x) {
  std::vector<std::size_t> idx(x.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return x[a] < x[b]; });
  std::vector<double> r(x.size());
  for (std::size_t i = 0; i < idx.size();) {
    std::size_t j = i;
    while (j + 1 < idx.size() && x[idx[j + 1]] == x[idx[i]]) ++j;
    const double mean_rank = (static_cast<double>(i) + static_cast<double>(j)) / 2.0;
    for (std::size_t k = i; k <= j; ++k) r[idx[k]] = mean_rank;
    i = j + 1;
  }
  return r;
}

double pearson(const std::vector<double>& a, const std::vector<double>& b) {
  const double n = static_cast<double>(a.size());
  const double ma = std::accumulate(a.begin(), a.end(), 0.0) / n;
  const double mb = std::accumulate(b.begin(), b.end(), 0.0) / n;
  double sab = 0, saa = 0, sbb = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) * (a[i] - ma);
    sbb += (b[i] - mb) * (b[i] - mb);
  }
  if (saa <= 0 || sbb <= 0) return 0;
  return sab / std::sqrt(saa * sbb);
}

double normal_cdf(double z) {
  return 0.5 * std::erfc(-z / std::sqrt(2.0));
}

template <class Cdf>
double ks_distance(std::vector<double> v, Cdf cdf) {
  if (v.empty()) return 1;
  std::sort(v.begin(), v.end());
  const double n = static_cast<double>(v.size());
  double d = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const double f = cdf(v[i]);
    d = std::max({d, f - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - f});
  }
  return d;
}
}  // namespace

double spearman(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size() || x.size() < 3) return 0;
  return pearson(ranks(x), ranks(y));
}

double ks_normal(const std::vector<double>& v, double mean, double stdev) {
  if (stdev <= 0) return 1;
  return ks_distance(v, [&](double x) { return normal_cdf((x - mean) / stdev); });
}

double ks_lognormal(const std::vector<double>& v) {
  std::vector<double> logs;
  for (double x : v) {
    if (x <= 0) return 1;
    logs.push_back(std::log(x));
  }
  const Stats s = make_stats(logs);
  return ks_normal(logs, s.mean, s.stdev);
}

double ks_uniform(const std::vector<double>& v, double lo, double hi) {
  if (hi <= lo) return 1;
  return ks_distance(v, [&](double x) { return std::clamp((x - lo) / (hi - lo), 0.0, 1.0); });
}

double lilliefors_critical(std::size_t n) {
  return n == 0 ? 0 : 0.886 / std::sqrt(static_cast<double>(n));
}

std::uint64_t gcd_all(const std::vector<std::uint64_t>& values) {
  std::uint64_t g = 0;
  for (auto v : values) g = std::gcd(g, v);
  return g;
}

std::uint64_t mode(const std::vector<std::uint64_t>& values) {
  std::map<std::uint64_t, std::uint64_t> counts;
  for (auto v : values) ++counts[v];
  std::uint64_t best = 0, best_count = 0;
  for (auto [v, c] : counts)
    if (c > best_count) best = v, best_count = c;
  return best;
}

}  // namespace dlgen::analysis::detail
