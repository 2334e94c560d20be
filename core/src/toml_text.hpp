#pragma once
// TOML value text, written the way the job format reads it back: quoted strings, floats that stay
// floats, keys bare where TOML allows, sizes and durations with units ("146MiB", "0.323s"), and
// distributions as inline tables. Used by the writer and by [scales.*] / --set handling.
#include <string>
#include <string_view>

#include "dlgen/core/distribution.hpp"

namespace dlgen::detail {

// What a number in a job file measures: bytes or seconds.
// What a distribution's values count: bytes, seconds, or samples (a batch's size: bare numbers).
enum class Unit { bytes, seconds, samples };

std::string quote(std::string_view s);
std::string float_text(double v);
std::string bare_or_quoted_key(std::string_view k);
std::string size_text(double bytes);
std::string time_text(double s);
std::string dist_text(const Distribution& d, Unit unit);

}  // namespace dlgen::detail
