// Tolerance overrides: `--tolerance metric=value` and TOML files of `metric = value`.
#include <toml++/toml.h>

#include <algorithm>
#include <charconv>
#include <string>

#include "dlgen/compare/compare.hpp"
#include "dlgen/core/closest_key.hpp"

namespace dlgen::compare {
namespace {

// The suggestion allows up to 3 edits whatever the name's length (closest_key's rule is for keys).
Error unknown_metric(std::string_view name) {
  std::string best;
  std::size_t best_d = 1000;
  for (const auto& m : metric_defs()) {
    std::size_t d = edit_distance(name, m.name);
    if (d < best_d) best_d = d, best = std::string(m.name);
  }
  std::string msg = "unknown metric '" + std::string(name) + "'";
  if (best_d <= 3) msg += " (did you mean '" + best + "'?)";
  return input_error(msg);
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

Result<double> parse_value(std::string_view metric, std::string_view text) {
  text = trim(text);
  bool percent = !text.empty() && text.back() == '%';
  if (percent) text.remove_suffix(1);
  double v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size() || text.empty())
    return input_error("tolerance for '" + std::string(metric) + "': '" + std::string(text) +
                       "' is not a number (use 0.1 or 10%)");
  if (percent) v /= 100.0;
  if (v < 0) return input_error("tolerance for '" + std::string(metric) + "' must be ≥ 0");
  return v;
}

}  // namespace

Result<void> apply_tolerance(Tolerances& tol, std::string_view assignment) {
  auto eq = assignment.find('=');
  if (eq == std::string_view::npos)
    return input_error("--tolerance '" + std::string(assignment) + "': expected metric=value");
  std::string_view name = trim(assignment.substr(0, eq));
  if (!find_metric(name)) return unknown_metric(name);
  auto v = parse_value(name, assignment.substr(eq + 1));
  if (!v) return v.error();
  tol.values[std::string(name)] = *v;
  return ok();
}

Result<void> load_tolerances(Tolerances& tol, const std::filesystem::path& path) {
  toml::table root;
  try {
    root = toml::parse_file(path.string());
  } catch (const toml::parse_error& e) {
    return input_error(path.string() + ":" + std::to_string(e.source().begin.line) + ": " +
                       std::string(e.description()));
  }
  const toml::table* table = &root;
  if (auto* sub = root["tolerance"].as_table()) table = sub;
  for (const auto& [key, node] : *table) {
    std::string name(key.str());
    if (name == "tolerance" && node.is_table()) continue;
    std::string where = path.string() + ":" + std::to_string(key.source().begin.line) + ": ";
    if (!find_metric(name)) return input_error(where + unknown_metric(name).message);
    double v = 0;
    if (auto d = node.value<double>()) {
      v = *d;
    } else if (auto s = node.value<std::string>()) {
      auto parsed = parse_value(name, *s);
      if (!parsed) return input_error(where + parsed.error().message);
      v = *parsed;
    } else {
      return input_error(where + name + ": expected a number or a percentage string");
    }
    if (v < 0) return input_error(where + name + ": must be ≥ 0");
    tol.values[name] = v;
  }
  return ok();
}

}  // namespace dlgen::compare
