// Names of the distilled job and of its synthetic files (sections.hpp).
#include <cctype>
#include <filesystem>
#include <set>
#include <string>

#include "sections.hpp"

namespace dlgen::analysis::sections {

std::string sanitize(std::string s) {
  std::string out;
  for (char c : s) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '-' || c == '_')
      out += static_cast<char>(std::tolower(u));
    else if (!out.empty() && out.back() != '-')
      out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? "distilled" : out;
}

std::string default_name(const TraceSummary& s) {
  const int ti = train_dataset(s);
  if (ti >= 0) {
    std::filesystem::path dir(s.datasets[ti].dir);
    std::string leaf = dir.filename().string();
    // Split and generic names say nothing about the workload: use the parent's name.
    for (int up = 0; up < 2 && dir.has_parent_path(); ++up) {
      static const std::set<std::string> kGeneric = {"train",    "training", "data",    "dataset",
                                                     "datasets", "images",   "samples", "files",
                                                     "input",    "shards"};
      if (!kGeneric.count(leaf)) break;
      dir = dir.parent_path();
      leaf = dir.filename().string();
    }
    if (!leaf.empty()) return sanitize(leaf);
  }
  for (const auto& arg : s.command)
    if (arg.size() > 3 && arg.ends_with(".py"))
      return sanitize(std::filesystem::path(arg).stem().string());
  return "distilled";
}

std::string file_prefix_of(const DatasetSummary& d, const TraceSummary& s) {
  std::string prefix;
  bool first = true;
  for (auto fi : d.files) {
    const std::string stem = std::filesystem::path(s.files[fi].path).stem().string();
    std::size_t n = 0;
    while (n < stem.size() && !std::isdigit(static_cast<unsigned char>(stem[n]))) ++n;
    std::string p = stem.substr(0, n);
    if (first)
      prefix = p, first = false;
    else if (p != prefix)
      return "";
  }
  while (!prefix.empty() && (prefix.back() == '_' || prefix.back() == '-' || prefix.back() == '.'))
    prefix.pop_back();
  return prefix;
}

}  // namespace dlgen::analysis::sections
