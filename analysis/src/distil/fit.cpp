// Measured values as the job's distributions (fit.hpp).
#include "fit.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "dlgen/core/units.hpp"
#include "dlgen/datasets/layout.hpp"
#include "sections.hpp"
#include "stats.hpp"

namespace dlgen::analysis::sections {

// Framing bytes the generator adds around one sample of `format` (npz headers, ...), so that
// the synthetic files come out the size the traced files had.
double framing_overhead(Format format, double payload) {
  DatasetSpec spec;
  spec.format = format;
  spec.num_files = 1;
  spec.samples_per_file = 1;
  spec.sample_size = Distribution::fixed_at(std::max(1.0, std::round(payload)));
  datasets::Layout layout(spec);
  const double size = static_cast<double>(layout.file_size(0));
  return std::max(0.0, size - spec.sample_size.value);
}

double sample_payload(Format format, double file_bytes, std::uint32_t samples) {
  DatasetSpec spec;
  spec.format = format;
  spec.num_files = 1;
  spec.samples_per_file = std::max<std::uint32_t>(1, samples);
  auto file_at = [&](std::uint64_t s) {
    spec.sample_size = Distribution::fixed_at(static_cast<double>(s));
    return static_cast<double>(datasets::Layout(spec).file_size(0));
  };
  std::uint64_t lo = 1, hi = static_cast<std::uint64_t>(std::max(1.0, file_bytes));
  if (file_at(lo) > file_bytes) return 1;
  while (lo < hi) {  // the largest s whose file fits: file_at grows with s
    const std::uint64_t mid = lo + (hi - lo + 1) / 2;
    if (file_at(mid) <= file_bytes)
      lo = mid;
    else
      hi = mid - 1;
  }
  return static_cast<double>(lo);
}

// The size distribution: fixed when all equal, else the best of normal / lognormal / uniform that
// passes a Lilliefors-style KS test at 5%, else the exact empirical histogram.
Distribution fit_sizes(const std::vector<double>& v, std::string* why) {
  const Stats st = detail::make_stats(v);
  if (v.empty()) {
    *why = "no files";
    return Distribution::fixed_at(0);
  }
  if (st.max == st.min) {
    *why = "all " + std::to_string(v.size()) + " files have the same size";
    return Distribution::fixed_at(st.min);
  }
  const double crit = detail::lilliefors_critical(v.size());
  struct Cand {
    DistKind kind;
    double d;
  };
  std::vector<Cand> cands = {{DistKind::normal, detail::ks_normal(v, st.mean, st.stdev)},
                             {DistKind::lognormal, detail::ks_lognormal(v)},
                             {DistKind::uniform, detail::ks_uniform(v, st.min, st.max)}};
  std::sort(cands.begin(), cands.end(), [](const Cand& a, const Cand& b) { return a.d < b.d; });
  const bool enough = v.size() >= 20;
  if (enough && cands.front().d < crit) {
    Distribution d;
    d.kind = cands.front().kind;
    d.mean = st.mean;
    d.stdev = st.stdev;
    d.min = st.min;
    d.max = st.max;
    *why = std::string(to_string(d.kind)) + " fits " + std::to_string(v.size()) +
           " file sizes (KS D=" + fmt("%.3f", cands.front().d) + " < " + fmt("%.3f", crit) +
           " at 5%)";
    return d;
  }
  // Exact empirical histogram: one bin per distinct size when few, else 32 quantile bins.
  Distribution d;
  d.kind = DistKind::histogram;
  std::map<double, double> counts;
  for (double x : v) counts[x] += 1;
  if (counts.size() <= 64) {
    for (auto [x, c] : counts) d.bins.push_back({x, x, c});
  } else {
    std::vector<double> sorted = v;
    std::sort(sorted.begin(), sorted.end());
    const std::size_t nb = 32;
    for (std::size_t b = 0; b < nb; ++b) {
      const std::size_t lo = b * sorted.size() / nb, hi = (b + 1) * sorted.size() / nb;
      if (hi <= lo) continue;
      d.bins.push_back({sorted[lo], sorted[hi - 1], static_cast<double>(hi - lo)});
    }
  }
  *why = enough ? "no parametric fit passes KS at 5% (best " +
                      std::string(to_string(cands.front().kind)) +
                      " D=" + fmt("%.3f", cands.front().d) + " ≥ " + fmt("%.3f", crit) +
                      "): empirical histogram"
                : "only " + std::to_string(v.size()) + " files: empirical histogram";
  return d;
}

// Times with a long right tail (a worker or the main process descheduled on a busy machine, a
// garbage collection) have a mean well above their median, and a replay drawing around the median
// runs short by that difference on every step. When there are enough values and the mean (of the
// values up to p99: a mis-attributed gap must not count) is more than 5% above the median, this
// gives an empirical distribution: the 20 quantiles at (i + 0.5) / 20 as exact values of equal
// weight (equal neighbours merged), which keeps the median and, as a midpoint sum of the quantile
// function, the mean (uniform bins between quantiles would not: a bimodal step time would be
// smeared across the gap). Otherwise (symmetric, or too few values) nothing: the caller's usual
// form.
std::optional<Distribution> skewed_times(std::vector<double> v, std::string* why) {
  if (v.size() < 20) return std::nullopt;
  std::sort(v.begin(), v.end());
  const auto q = [&](double p) { return detail::percentile(v, p); };
  const double p50 = q(0.5), p99 = q(0.99);
  double sum = 0;
  std::size_t n = 0;
  for (double x : v)
    if (x <= p99) sum += x, ++n;
  const double mean = n ? sum / static_cast<double>(n) : 0;
  if (p50 <= 0 || mean <= 1.02 * p50) return std::nullopt;
  auto us = [](double seconds) { return std::round(seconds * 1e6) / 1e6; };  // µs resolution
  Distribution d;
  d.kind = DistKind::histogram;
  for (int i = 0; i < 20; ++i) {
    const double x = us(q((i + 0.5) / 20.0));
    if (!d.bins.empty() && d.bins.back().lo == x)
      d.bins.back().weight += 1.0;
    else
      d.bins.push_back({x, x, 1.0});
  }
  if (why)
    *why = "right-skewed: mean " + format_duration(mean) + " vs median " + format_duration(p50) +
           " (values up to p99), kept as its 20 quantiles";
  return d;
}

}  // namespace dlgen::analysis::sections
