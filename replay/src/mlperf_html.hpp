#pragma once
// The pieces of the MLPerf summary pages (training and checkpointing rules): HTML escaping and a
// bar chart as inline SVG, so that the page needs nothing from outside.
#include <string>
#include <vector>

namespace dlgen::replay::html {

std::string escape(const std::string& s);

// A bar per run ("run 1" ...) and a dashed line at `line` (the mean, or a threshold), labelled
// `line_label` and `unit` right of the plot.
std::string bars(const std::vector<double>& v, double line, const char* line_label,
                 const char* unit);

}  // namespace dlgen::replay::html
