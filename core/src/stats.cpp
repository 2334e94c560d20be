#include "dlgen/core/stats.hpp"

#include <algorithm>
#include <cmath>

namespace dlgen {

double percentile_sorted(std::span<const double> v, double p) {
  if (v.empty()) return 0;
  p = std::clamp(p, 0.0, 1.0);
  const double h = p * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const auto hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (h - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

double percentile(std::vector<double> values, double p) {
  std::sort(values.begin(), values.end());
  return percentile_sorted(values, p);
}

AuParts accelerator_utilisation(std::span<const AuStep> steps, std::int64_t run_begin_ns,
                                std::int64_t run_end_ns) {
  AuParts p;
  if (steps.empty()) {  // it never got a batch: idle the whole run
    p.wall_s = static_cast<double>(std::max<std::int64_t>(0, run_end_ns - run_begin_ns)) * 1e-9;
    return p;
  }
  std::int64_t first_ready = steps.front().ready_ns, end = run_end_ns, compute = 0;
  for (const AuStep& s : steps) {
    first_ready = std::min(first_ready, s.ready_ns);
    end = std::max(end, s.end_ns);
    compute += s.compute_ns;
  }
  p.compute_s = static_cast<double>(compute) * 1e-9;
  p.first_wait_s = static_cast<double>(first_ready - run_begin_ns) * 1e-9;
  p.wall_s = static_cast<double>(end - first_ready) * 1e-9;
  return p;
}

}  // namespace dlgen
