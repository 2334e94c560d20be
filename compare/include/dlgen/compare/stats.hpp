#pragma once
// Small statistics used to compare two traces: quantiles, two-sample distances between empirical
// distributions, and histograms for the report. Inputs are plain samples in any unit; the distance
// functions are unit-free (KS) or carry the samples' unit (Wasserstein).
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "dlgen/core/stats.hpp"

namespace dlgen::compare {

// The q-quantile (0..1) of `values`: dlgen::percentile (core/stats.hpp), the one percentile the
// replay, summarize and compare share (linear interpolation, numpy's default); 0 for an empty
// sample.
inline double quantile(std::vector<double> values, double q) {
  return dlgen::percentile(std::move(values), q);
}
// The mean of a sample is dlgen::mean (core/stats.hpp).

// Two-sample Kolmogorov–Smirnov statistic: the largest gap between the two empirical CDFs, in
// [0, 1]. 0 when both samples are empty; 1 when exactly one is empty.
double ks_distance(std::vector<double> a, std::vector<double> b);

// The two-sample KS critical value at significance `alpha` (0.10, 0.05, 0.01 or 0.001) for
// sample sizes n and m: c(alpha)·sqrt((n+m)/(n·m)). 0 when either sample is empty.
double ks_critical_value(std::size_t n, std::size_t m, double alpha);

// First Wasserstein (earth mover's) distance between the empirical distributions, in the samples'
// unit: the area between the two CDFs. 0 when both are empty.
double wasserstein_distance(std::vector<double> a, std::vector<double> b);

// A weighted sample: value → weight (for time-weighted distributions such as I/Os in flight, the
// weight is the time spent at that value).
struct WeightedValue {
  double value = 0;
  double weight = 0;
};
// KS statistic between two weighted samples (weights normalised per sample).
double ks_distance_weighted(std::vector<WeightedValue> a, std::vector<WeightedValue> b);

// Histogram with power-of-two bins for byte sizes: bin i counts values in [2^i, 2^(i+1)).
// `lo_exp`/`hi_exp` bound the bins shown (values outside land in the first/last bin).
struct Histogram {
  std::vector<double> edges;   // bins+1 edges, in the samples' unit
  std::vector<double> counts;  // per bin
  double total = 0;
};
Histogram log2_histogram(const std::vector<double>& values, int lo_exp, int hi_exp);
// Linear histogram with `bins` equal bins over [lo, hi].
Histogram linear_histogram(const std::vector<double>& values, double lo, double hi, int bins);

}  // namespace dlgen::compare
