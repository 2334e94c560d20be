#pragma once
// Small statistics used by the analysis: summary statistics, rank correlation, goodness of fit.
#include <cstdint>
#include <vector>

#include "dlgen/analysis/summary.hpp"
#include "dlgen/core/stats.hpp"

namespace dlgen::analysis::detail {

Stats make_stats(std::vector<double> values);
// p in [0, 1]: the one percentile of dlgen (linear interpolation, numpy's default; core/stats.hpp).
using dlgen::percentile;

// Spearman rank correlation between x and y (ties get their mean rank); 0 when n < 3.
double spearman(const std::vector<double>& x, const std::vector<double>& y);

// Kolmogorov–Smirnov distance between the sample and a normal / lognormal distribution with the
// sample's own parameters (a Lilliefors-style use: compare against lilliefors_critical).
double ks_normal(const std::vector<double>& values, double mean, double stdev);
double ks_lognormal(const std::vector<double>& values);  // fitted on log(values)
double ks_uniform(const std::vector<double>& values, double lo, double hi);
// Critical KS distance at the 5% level when the parameters were estimated from the sample
// (Lilliefors, large-n approximation 0.886/sqrt(n)).
double lilliefors_critical(std::size_t n);

std::uint64_t gcd_all(const std::vector<std::uint64_t>& values);
std::uint64_t mode(const std::vector<std::uint64_t>& values);  // smallest most frequent; 0 if empty

}  // namespace dlgen::analysis::detail
