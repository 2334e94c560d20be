#pragma once
// Measured values as the distributions a distilled job draws from: file sizes (a parametric fit or
// the exact histogram) and right-skewed times (their quantiles). Pure.
#include <optional>
#include <string>
#include <vector>

#include "dlgen/core/job.hpp"

namespace dlgen::analysis::sections {

// Framing bytes the generator adds around one sample of `format` (npz headers, ...).
double framing_overhead(Format format, double payload);

// The bytes of each of `samples` samples that a generated `format` file of `file_bytes` holds:
// the largest fixed sample size whose file the generator makes at most that long (for a tar
// shard, its members' headers, block padding, end blocks and record padding less; at least 1).
double sample_payload(Format format, double file_bytes, std::uint32_t samples);

// The size distribution of `v`, and in *why the evidence for it: fixed, a parametric fit that
// passes KS at 5%, or the exact empirical histogram.
Distribution fit_sizes(const std::vector<double>& v, std::string* why);

// The 20 quantiles of times whose mean is well above their median (a long right tail), with the
// evidence in *why (when why is not null); nothing when they are symmetric or too few.
std::optional<Distribution> skewed_times(std::vector<double> v, std::string* why);

}  // namespace dlgen::analysis::sections
