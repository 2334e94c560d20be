#pragma once
// Reading `dlgen compare --json` output in end-to-end tests.
#include "dlgen/core/json.hpp"
#include <string>
#include <vector>

namespace dlgen::testing {

// The row `name` of a comparison; {"verdict": "missing", "original": 0, "replay": 0} when absent.
inline const nlohmann::json& compare_row(const nlohmann::json& j, const std::string& name) {
  static const nlohmann::json missing = {{"verdict", "missing"}, {"original", 0}, {"replay", 0}};
  for (const auto& m : j["metrics"])
    if (m["name"] == name) return m;
  return missing;
}

// The row `name` of a comparison; nullptr when absent.
inline const nlohmann::json* find_row(const nlohmann::json& j, const std::string& name) {
  for (const auto& m : j["metrics"])
    if (m["name"] == name) return &m;
  return nullptr;
}

// The verdict of row `name` ("PASS", "FAIL", "SKIP"); "missing" when absent.
inline std::string verdict_of(const nlohmann::json& j, const std::string& name) {
  return compare_row(j, name)["verdict"].get<std::string>();
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

// The rows whose values are host time (seconds, MiB/s, and the shares and AU made of them): a
// real program's figures for these move with whatever else runs on the host.
inline bool is_host_time_row(const std::string& name) {
  for (const char* n :
       {"duration", "epoch_time", "step_time", "compute", "consumer", "data_wait", "au",
        "throughput", "eval_step_time", "checkpoint_interval", "checkpoint_write_time"})
    if (name == n) return true;
  return false;
}

// `--tolerance` options that widen each host-time row by the run-to-run spread of both sides.
// Each of `spreads` is `dlgen compare --json` of two runs of the same side (two captures of the
// original; two replays), its distance per row being how far that side moved between runs. A
// replay run is then held to its row's tolerance plus both sides' spreads: the distance between
// one original run and one replay run is at most the distance between the two programs plus how
// far each run strayed from its own program. On a quiet host the spreads are small and the
// tolerances stay near their defaults; under load they grow together. Rows that are not host time
// (bytes, files, order, counts) keep theirs.
inline std::string spread_tolerances(const std::vector<nlohmann::json>& spreads) {
  std::string args;
  if (spreads.empty()) return args;
  for (const auto& m : spreads.front()["metrics"]) {
    const std::string name = m["name"].get<std::string>();
    if (!is_host_time_row(name) || !m["tolerance"].is_number()) continue;
    double tol = m["tolerance"].get<double>();
    bool known = true;
    for (const auto& s : spreads) {
      const nlohmann::json* row = nullptr;
      for (const auto& r : s["metrics"])
        if (r["name"] == name) row = &r;
      known = known && row && (*row)["distance"].is_number();
      if (known) tol += (*row)["distance"].get<double>();
    }
    if (known) args += " --tolerance " + name + "=" + std::to_string(tol);
  }
  return args;
}

}  // namespace dlgen::testing
