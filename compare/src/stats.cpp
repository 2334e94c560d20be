#include "dlgen/compare/stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace dlgen::compare {

double ks_distance(std::vector<double> a, std::vector<double> b) {
  if (a.empty() && b.empty()) return 0;
  if (a.empty() || b.empty()) return 1;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size());
  std::size_t i = 0, j = 0;
  double d = 0;
  // Walk both sorted samples; at each distinct value step past all equal values in both, so
  // ties do not create a spurious gap.
  while (i < a.size() || j < b.size()) {
    double x = (j >= b.size() || (i < a.size() && a[i] <= b[j])) ? a[i] : b[j];
    while (i < a.size() && a[i] <= x) ++i;
    while (j < b.size() && b[j] <= x) ++j;
    d = std::max(d, std::fabs(static_cast<double>(i) / na - static_cast<double>(j) / nb));
  }
  return d;
}

double ks_critical_value(std::size_t n, std::size_t m, double alpha) {
  if (n == 0 || m == 0) return 0;
  // c(alpha) = sqrt(-ln(alpha/2) / 2), the asymptotic Kolmogorov distribution quantile.
  const double c = std::sqrt(-std::log(alpha / 2) / 2);
  const double dn = static_cast<double>(n), dm = static_cast<double>(m);
  return c * std::sqrt((dn + dm) / (dn * dm));
}

double wasserstein_distance(std::vector<double> a, std::vector<double> b) {
  if (a.empty() && b.empty()) return 0;
  if (a.empty() || b.empty()) {
    const auto& s = a.empty() ? b : a;
    return std::fabs(mean(s));
  }
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  std::vector<double> xs;
  xs.reserve(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(xs));
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size());
  std::size_t i = 0, j = 0;
  double area = 0;
  // Integrate |F_a(x) - F_b(x)| dx over the merged support (CDFs are step functions).
  for (std::size_t k = 0; k + 1 < xs.size(); ++k) {
    while (i < a.size() && a[i] <= xs[k]) ++i;
    while (j < b.size() && b[j] <= xs[k]) ++j;
    area +=
        std::fabs(static_cast<double>(i) / na - static_cast<double>(j) / nb) * (xs[k + 1] - xs[k]);
  }
  return area;
}

double ks_distance_weighted(std::vector<WeightedValue> a, std::vector<WeightedValue> b) {
  auto total = [](const std::vector<WeightedValue>& s) {
    double t = 0;
    for (const auto& v : s) t += v.weight;
    return t;
  };
  const double ta = total(a), tb = total(b);
  if (ta <= 0 && tb <= 0) return 0;
  if (ta <= 0 || tb <= 0) return 1;
  auto by_value = [](const WeightedValue& x, const WeightedValue& y) { return x.value < y.value; };
  std::sort(a.begin(), a.end(), by_value);
  std::sort(b.begin(), b.end(), by_value);
  std::size_t i = 0, j = 0;
  double ca = 0, cb = 0, d = 0;
  while (i < a.size() || j < b.size()) {
    double x =
        (j >= b.size() || (i < a.size() && a[i].value <= b[j].value)) ? a[i].value : b[j].value;
    while (i < a.size() && a[i].value <= x) ca += a[i++].weight;
    while (j < b.size() && b[j].value <= x) cb += b[j++].weight;
    d = std::max(d, std::fabs(ca / ta - cb / tb));
  }
  return d;
}

Histogram log2_histogram(const std::vector<double>& values, int lo_exp, int hi_exp) {
  Histogram h;
  if (hi_exp <= lo_exp) hi_exp = lo_exp + 1;
  for (int e = lo_exp; e <= hi_exp; ++e) h.edges.push_back(std::ldexp(1.0, e));
  h.counts.assign(static_cast<std::size_t>(hi_exp - lo_exp), 0.0);
  for (double v : values) {
    int e = v >= 1 ? static_cast<int>(std::floor(std::log2(v))) : lo_exp;
    int bin = std::clamp(e - lo_exp, 0, hi_exp - lo_exp - 1);
    h.counts[static_cast<std::size_t>(bin)] += 1;
    h.total += 1;
  }
  return h;
}

Histogram linear_histogram(const std::vector<double>& values, double lo, double hi, int bins) {
  Histogram h;
  if (bins < 1) bins = 1;
  if (!(hi > lo)) hi = lo + 1;
  for (int k = 0; k <= bins; ++k) h.edges.push_back(lo + (hi - lo) * k / bins);
  h.counts.assign(static_cast<std::size_t>(bins), 0.0);
  for (double v : values) {
    int bin = static_cast<int>(std::floor((v - lo) / (hi - lo) * bins));
    bin = std::clamp(bin, 0, bins - 1);
    h.counts[static_cast<std::size_t>(bin)] += 1;
    h.total += 1;
  }
  return h;
}

}  // namespace dlgen::compare
