#pragma once
// Typed reading of one table of a job's TOML tree: integers, sizes, durations, choices,
// distributions, recipes and string arrays, each problem added to the reading context with its
// line, and the keys the section did not consume reported as unknown. Private to core.
#include <toml++/toml.h>

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dlgen/core/distribution.hpp"
#include "dlgen/core/recipe.hpp"
#include "toml_reader.hpp"
#include "toml_text.hpp"

namespace dlgen::detail {

// Reads one section table, remembering which keys it consumed.
class Section {
 public:
  Section(Ctx& ctx, const toml::table* t, std::string prefix)
      : ctx_(ctx), t_(t), prefix_(std::move(prefix)) {}

  std::string path(std::string_view key) const { return prefix_ + "." + std::string(key); }
  bool has(std::string_view key) const { return t_ && t_->contains(key); }

  const toml::node* get(std::string_view key) {
    if (!t_) return nullptr;
    const toml::node* n = t_->get(key);
    if (n) ctx_.lines[path(key)] = line_of(*n);
    return n;
  }

  template <class Int>
  void integer(std::string_view key, Int& out) {
    const toml::node* n = get(key);
    if (!n) return;
    // Only an integer node is asked for its value: toml++ converts a float to int64 with a cast,
    // which is undefined beyond int64's range (found by fuzzing: workers = 5.5e39).
    if (!n->is_integer()) return type_error(key, *n, "a whole number");
    auto v = n->value<std::int64_t>();
    if (!v) return type_error(key, *n, "a whole number");
    if (*v < 0) return ctx_.error(path(key), line_of(*n), "must be >= 0");
    if (static_cast<std::uint64_t>(*v) > std::numeric_limits<Int>::max())
      return ctx_.error(
          path(key), line_of(*n),
          "is too large (at most " + std::to_string(std::numeric_limits<Int>::max()) + ")");
    out = static_cast<Int>(*v);
  }

  void size(std::string_view key, std::uint64_t& out);
  void duration(std::string_view key, double& out);
  void number(std::string_view key, double& out);
  void boolean(std::string_view key, bool& out);
  void string(std::string_view key, std::string& out);
  void path_value(std::string_view key, std::filesystem::path& out);

  template <class E>
  void choice(std::string_view key, E& out,
              std::initializer_list<std::pair<std::string_view, E>> options) {
    const toml::node* n = get(key);
    if (!n) return;
    std::string list;
    for (auto& [name, _] : options)
      list += (list.empty() ? "\"" : ", \"") + std::string(name) + "\"";
    if (!n->is_string()) return type_error(key, *n, "one of " + list);
    const std::string s = *n->value<std::string>();
    for (auto& [name, value] : options)
      if (s == name) {
        out = value;
        return;
      }
    ctx_.error(path(key), line_of(*n),
               "unknown value \"" + s + "\" (expected one of " + list + ")");
  }

  void distribution(std::string_view key, Distribution& out, Unit unit);
  // The kind a distribution table names (dist = "..."), or the one its keys imply; nullopt (with
  // the error) when neither names a known kind.
  std::optional<DistKind> dist_kind(const toml::node& n, const std::string& p, Section& s,
                                    std::string& kind_name);
  void read_distribution(const toml::node& n, const std::string& p, Distribution& out, Unit unit);
  // An access recipe: an array of step strings (core/recipe.hpp), each error with its index.
  void recipe(std::string_view key, Recipe& out);
  // An array of strings, each error with its index.
  void strings(std::string_view key, std::vector<std::string>& out);
  // An array of whole numbers >= 0 that fit 32 bits, each error with its index.
  void integers(std::string_view key, std::vector<std::uint32_t>& out);
  // An array of numbers > 0 (integers or floats), each error with its index.
  void numbers(std::string_view key, std::vector<double>& out);
  // Unknown keys in this section: every key not consumed and not in `known`.
  void check_unknown(const std::vector<std::string_view>& known);

 private:
  void type_error(std::string_view key, const toml::node& n, const std::string& expected);
  // An array whose elements `convert` takes (nullopt: refused); `what` names the array's elements
  // ("numbers") and `one` one of them for each refused element's error, with its index.
  template <class T, class Convert>
  void elements(std::string_view key, const std::string& what, const std::string& one,
                std::vector<T>& out, Convert convert) {
    const toml::node* n = get(key);
    if (!n) return;
    const toml::array* a = n->as_array();
    if (!a) return type_error(key, *n, "an array of " + what);
    out.clear();
    for (std::size_t i = 0; i < a->size(); ++i) {
      const toml::node& e = *a->get(i);
      if (std::optional<T> v = convert(e))
        out.push_back(std::move(*v));
      else
        ctx_.error(path(key) + "[" + std::to_string(i) + "]", line_of(e),
                   "expected " + one + ", got " + node_text(e));
    }
  }
  // A size (bytes) or a duration (seconds): a number >= 0, or a string with a unit ("146MiB",
  // "0.3s").
  std::optional<double> scalar(const toml::node& n, const std::string& p, Unit unit);
  void read_bins(const toml::node& bn, const std::string& p, Distribution& d, Unit unit);

  Ctx& ctx_;
  const toml::table* t_;
  std::string prefix_;
};

}  // namespace dlgen::detail
