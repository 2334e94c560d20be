#pragma once
// "Did you mean ...?" for a mistyped key: the Levenshtein distance, and the known key closest to a
// given one when it is close enough to be a typo. Shared by the TOML job reader (core) and the DLIO
// config reader (dlio/), so both suggest keys alike.
#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

namespace dlgen {

inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j)
      cur[j] =
          std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

// The key of `known` nearest to `key`, or "" when even that one is more than max(2, |key| / 3)
// edits away (then it is not a typo of any).
template <class Range>
std::string_view closest_key(std::string_view key, const Range& known) {
  std::string_view best;
  std::size_t best_d = SIZE_MAX;
  for (std::string_view k : known) {
    const std::size_t d = edit_distance(key, k);
    if (d < best_d) best_d = d, best = k;
  }
  return best_d <= std::max<std::size_t>(2, key.size() / 3) ? best : std::string_view{};
}

}  // namespace dlgen
