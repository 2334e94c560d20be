#pragma once
// The pieces of the MLPerf summary pages (training and checkpointing rules): HTML escaping and a
// bar chart as inline SVG, so that the page needs nothing from outside.
#include <string>
#include <vector>

#include "dlgen/mlperf/mlperf.hpp"

namespace dlgen::mlperf::html {

std::string escape(const std::string& s);

// The page's start, shared by both summaries: the document head (title, style), the heading, the
// verdict coloured by division, and either `all_clear` (no reasons) or the reasons as a list.
std::string page_start(const std::string& workload, const char* heading, Division division,
                       const std::vector<std::string>& reasons, const char* all_clear);

// A bar per run ("run 1" ...) and a dashed line at `line` (the mean, or a threshold), labelled
// `line_label` and `unit` right of the plot.
std::string bars(const std::vector<double>& v, double line, const char* line_label,
                 const char* unit);

}  // namespace dlgen::mlperf::html
