#pragma once
// Small arithmetic shared by the checkpointing rules and their reports.
#include <cmath>
#include <vector>

namespace dlgen::mlperf {

inline constexpr double kGiB = 1024.0 * 1024 * 1024;

inline double mean_of(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? 0 : s / double(v.size());
}

inline double stdev_of(const std::vector<double>& v) {  // population, as numpy's np.std
  const double m = mean_of(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return v.empty() ? 0 : std::sqrt(s / double(v.size()));
}

}  // namespace dlgen::mlperf
