#pragma once
// Value formatting shared by the text and HTML renderings: a metric's unit decides the form.
#include <string>
#include <string_view>

#include "dlgen/compare/compare.hpp"

namespace dlgen::compare {

std::string format_value(double v, std::string_view unit);
std::string format_distance(double d, DistanceKind kind, std::string_view unit);

}  // namespace dlgen::compare
