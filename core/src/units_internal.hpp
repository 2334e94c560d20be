#pragma once
// Unit helpers private to dlgen_core: exact (round-tripping) renderings used by the job writer.
#include <string>
#include <string_view>

#include "dlgen/core/result.hpp"

namespace dlgen {

// A size as a double (distribution parameters may be fractional bytes); parse_size rounds it.
Result<double> parse_size_value(std::string_view text);
// A TOML value text for a byte count that parses back to exactly `bytes`: "\"146MiB\"" when the
// human form is exact, else an integer, else a float.
std::string format_size_exact(double bytes);
// A TOML string "\"0.323s\"" whose parse is exactly `seconds`.
std::string format_duration_exact(double seconds);
// Shortest %g form that reads back as the same double.
std::string shortest_double(double v);

}  // namespace dlgen
