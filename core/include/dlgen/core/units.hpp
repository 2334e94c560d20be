#pragma once
// Unit-bearing values as written in job files: sizes ("146MiB", "4k", "1.5GB", "512") and durations
// ("0.323s", "350us", "2ms", "1m"). Sizes are bytes (uint64), durations are seconds (double).
#include <cstdint>
#include <string>
#include <string_view>

#include "dlgen/core/result.hpp"

namespace dlgen {

// Accepts B, k/K/KB/KiB (KiB = 1024, kB/KB = 1000), M..., G..., T...; bare numbers are bytes.
Result<std::uint64_t> parse_size(std::string_view text);
// Accepts ns, us, ms, s, m (minutes), h; a bare number is seconds.
Result<double> parse_duration_s(std::string_view text);

// Human forms: "146MiB" style (binary units, up to 3 significant decimals) and "0.323s"/"350us".
std::string format_size(std::uint64_t bytes);
std::string format_duration(double seconds);

}  // namespace dlgen
