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

double mean(std::span<const double> values) {
  double s = 0;
  for (double x : values) s += x;
  return values.empty() ? 0 : s / static_cast<double>(values.size());
}

double population_stdev(std::span<const double> values) {
  if (values.empty()) return 0;
  const double m = mean(values);
  double s = 0;
  for (double x : values) s += (x - m) * (x - m);
  return std::sqrt(s / static_cast<double>(values.size()));
}

namespace {

// How much of [from, to) the windows cover (windows do not overlap each other).
std::int64_t covered(std::span<const TimeWindow> windows, std::int64_t from, std::int64_t to) {
  std::int64_t sum = 0;
  for (const TimeWindow& w : windows) {
    const std::int64_t b = std::max(w.begin_ns, from), e = std::min(w.end_ns, to);
    if (e > b) sum += e - b;
  }
  return sum;
}

}  // namespace

AuParts accelerator_utilisation(std::span<const AuStep> steps, std::int64_t run_begin_ns,
                                std::int64_t run_end_ns, std::span<const TimeWindow> harness,
                                std::span<const TimeWindow> checkpoints) {
  AuParts p;
  if (steps.empty()) {  // it never got a batch: idle the whole run
    const std::int64_t span = std::max<std::int64_t>(0, run_end_ns - run_begin_ns);
    const std::int64_t left_out = covered(harness, run_begin_ns, run_end_ns);
    p.harness_s = static_cast<double>(left_out) * 1e-9;
    p.wall_s = static_cast<double>(span - left_out) * 1e-9;
    return p;
  }
  std::vector<AuStep> sorted(steps.begin(), steps.end());
  std::sort(sorted.begin(), sorted.end(),
            [](const AuStep& a, const AuStep& b) { return a.ready_ns < b.ready_ns; });
  const std::int64_t first_ready = sorted.front().ready_ns;
  std::int64_t end = run_end_ns, compute = 0, start_wait = 0, mid_wait = 0;
  std::int64_t prev_end = first_ready;
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    const AuStep& s = sorted[i];
    end = std::max(end, s.end_ns);
    compute += s.compute_ns;
    if (i > 0 && s.ready_ns > prev_end) {
      const std::int64_t gap = s.ready_ns - prev_end - covered(harness, prev_end, s.ready_ns) -
                               covered(checkpoints, prev_end, s.ready_ns);
      (s.pass_start ? start_wait : mid_wait) += std::max<std::int64_t>(gap, 0);
    }
    prev_end = std::max(prev_end, s.end_ns);
  }
  const std::int64_t left_out = covered(harness, first_ready, end);
  p.compute_s = static_cast<double>(compute) * 1e-9;
  p.first_wait_s = static_cast<double>(first_ready - run_begin_ns) * 1e-9;
  p.harness_s = static_cast<double>(left_out) * 1e-9;
  p.wall_s = static_cast<double>(end - first_ready - left_out) * 1e-9;
  p.epoch_start_wait_s = static_cast<double>(start_wait) * 1e-9;
  p.in_epoch_wait_s = static_cast<double>(mid_wait) * 1e-9;
  p.other_s = std::max(0.0, p.wall_s - p.compute_s - p.epoch_start_wait_s - p.in_epoch_wait_s);
  return p;
}

}  // namespace dlgen
