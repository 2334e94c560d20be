#pragma once
// Small arithmetic shared by the checkpointing rules and their reports. Their means and
// standard deviations are core's (dlgen::mean, dlgen::population_stdev: numpy's np.mean and
// np.std, as DLIO and MLPerf Storage compute them), so a figure here and one of the replay's
// reports cannot disagree.
#include "dlgen/core/stats.hpp"

namespace dlgen::mlperf {

inline constexpr double kGiB = 1024.0 * 1024 * 1024;

}  // namespace dlgen::mlperf
