// The ground-truth logs the GPU training programs write (tests/pytorch/README.md, "Ground truth"):
// one JSON record a line, each with an "event" (step, pass, checkpoint, summary, ...).
#pragma once

#include <filesystem>
#include <fstream>
#include "dlgen/core/json.hpp"
#include <string>
#include <vector>

namespace dlgen::testing {

// Every record of the log at `p`, in order.
inline std::vector<nlohmann::json> read_log(const std::filesystem::path& p) {
  std::vector<nlohmann::json> out;
  std::ifstream f(p);
  for (std::string line; std::getline(f, line);)
    if (!line.empty()) out.push_back(nlohmann::json::parse(line));
  return out;
}

// The records of one event.
inline std::vector<nlohmann::json> of(const std::vector<nlohmann::json>& log,
                                      const std::string& event) {
  std::vector<nlohmann::json> out;
  for (const auto& r : log)
    if (r["event"] == event) out.push_back(r);
  return out;
}

}  // namespace dlgen::testing
