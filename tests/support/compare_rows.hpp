#pragma once
// Reading `dlgen compare --json` output in end-to-end tests.
#include <nlohmann/json.hpp>
#include <string>

namespace dlgen::testing {

// The row `name` of a comparison; {"verdict": "missing", "original": 0, "replay": 0} when absent.
inline const nlohmann::json& compare_row(const nlohmann::json& j, const std::string& name) {
  static const nlohmann::json missing = {{"verdict", "missing"}, {"original", 0}, {"replay", 0}};
  for (const auto& m : j["metrics"])
    if (m["name"] == name) return m;
  return missing;
}

// "name (original vs replay) " for every failing row: what a failed assertion shows.
inline std::string failed_rows(const nlohmann::json& j) {
  std::string out;
  for (const auto& m : j["metrics"])
    if (m["verdict"] == "FAIL")
      out += m["name"].get<std::string>() + " (" + m["original"].dump() + " vs " +
             m["replay"].dump() + ") ";
  return out;
}

}  // namespace dlgen::testing
