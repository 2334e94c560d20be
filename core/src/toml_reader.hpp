#pragma once
// Reading a job's TOML tree (toml++) into a Job: the reading context that collects every problem
// with its file line (or the --set that caused it), and the conversion of the tree. Private to
// core: toml++ types stay out of public headers.
#include <toml++/toml.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "dlgen/core/job.hpp"

namespace dlgen::detail {

inline std::uint32_t line_of(const toml::node& n) {
  return n.source().begin.line;
}

// A TOML value as the job format writes it (strings quoted, inline tables...).
std::string node_text(const toml::node& n);

// Problems found while reading one job, and where each key came from.
struct Ctx {
  std::string source;
  std::vector<Diagnostic> diags;
  std::map<std::string, std::uint32_t> lines;  // dotted path → line in the file
  std::map<std::string, std::string> origins;  // dotted path → "--set k=v" that put it there

  void error(const std::string& path, std::uint32_t line, std::string message) {
    diags.push_back({path, std::move(message), line});
  }
  std::uint32_t line_for(std::string path) const {
    for (;;) {
      auto it = lines.find(path);
      if (it != lines.end() && it->second) return it->second;
      const auto dot = path.find_last_of(".[");
      if (dot == std::string::npos) return 0;
      path.resize(dot);
    }
  }
  std::string origin_for(std::string path) const {
    for (;;) {
      auto it = origins.find(path);
      if (it != origins.end()) return it->second;
      const auto dot = path.find_last_of(".[");
      if (dot == std::string::npos) return "";
      path.resize(dot);
    }
  }
  std::string format(const Diagnostic& d) const {
    std::string where = source;
    // A value put there by --set has no line: name the override instead of its section's line.
    const std::string o = origin_for(d.path);
    std::uint32_t line = d.line;
    if (!line && o.empty()) line = line_for(d.path);
    if (line) where += ":" + std::to_string(line);
    std::string from;
    if (!line && !o.empty()) from = " (from " + o + ")";
    return where + ": " + d.path + from + ": " + d.message;
  }
};

// The TOML tree (after scales and --set) as a Job; problems are added to ctx.diags.
Job job_from_tree(Ctx& ctx, const toml::table& root, const std::filesystem::path& source);

}  // namespace dlgen::detail
