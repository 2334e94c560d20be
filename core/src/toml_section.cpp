#include "toml_section.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "dlgen/core/units.hpp"
#include "job_schema.hpp"
#include "units_internal.hpp"

namespace dlgen::detail {

std::string node_text(const toml::node& n) {
  if (auto s = n.as_string()) return quote(s->get());
  if (auto i = n.as_integer()) return std::to_string(i->get());
  if (auto f = n.as_floating_point()) return float_text(f->get());
  if (auto b = n.as_boolean()) return b->get() ? "true" : "false";
  if (auto a = n.as_array()) {
    std::string out = "[";
    for (std::size_t i = 0; i < a->size(); ++i) out += (i ? ", " : "") + node_text(*a->get(i));
    return out + "]";
  }
  if (auto t = n.as_table()) {
    std::string out = "{";
    bool first = true;
    for (auto&& [k, v] : *t) {
      out += (first ? " " : ", ") + bare_or_quoted_key(k.str()) + " = " + node_text(v);
      first = false;
    }
    return out + (first ? "}" : " }");
  }
  std::ostringstream os;  // dates and times: toml++'s own rendering
  n.visit([&](auto&& v) { os << v; });
  return os.str();
}

void Section::size(std::string_view key, std::uint64_t& out) {
  const toml::node* n = get(key);
  if (!n) return;
  auto v = scalar(*n, path(key), Unit::bytes);
  // Beyond 2^64 saturates (llround would overflow); limits::check_limits names the limit.
  if (v) out = *v < 0x1p64 ? static_cast<std::uint64_t>(std::round(*v)) : UINT64_MAX;
}

void Section::duration(std::string_view key, double& out) {
  const toml::node* n = get(key);
  if (!n) return;
  auto v = scalar(*n, path(key), Unit::seconds);
  if (v) out = *v;
}

void Section::number(std::string_view key, double& out) {
  const toml::node* n = get(key);
  if (!n) return;
  if (!n->is_number()) return type_error(key, *n, "a number");
  out = *n->value<double>();
}

void Section::boolean(std::string_view key, bool& out) {
  const toml::node* n = get(key);
  if (!n) return;
  if (!n->is_boolean()) return type_error(key, *n, "true or false");
  out = *n->value<bool>();
}

void Section::string(std::string_view key, std::string& out) {
  const toml::node* n = get(key);
  if (!n) return;
  if (!n->is_string()) return type_error(key, *n, "a string");
  out = *n->value<std::string>();
}

void Section::path_value(std::string_view key, std::filesystem::path& out) {
  std::string s;
  bool present = has(key);
  string(key, s);
  if (present && !s.empty())
    out = s;
  else if (present)
    ctx_.error(path(key), ctx_.lines[path(key)], "must not be empty");
}

void Section::distribution(std::string_view key, Distribution& out, Unit unit) {
  const toml::node* n = get(key);
  if (!n) return;
  read_distribution(*n, path(key), out, unit);
}

// The kind a distribution table names (dist = "..."), or the one its keys imply; nullopt (with
// the error) when neither names a known kind.
std::optional<DistKind> Section::dist_kind(const toml::node& n, const std::string& p, Section& s,
                                           std::string& kind_name) {
  const toml::table& t = *n.as_table();
  s.string("dist", kind_name);
  if (kind_name.empty()) {
    if (t.contains("bins"))
      kind_name = "histogram";
    else if (t.contains("mean"))
      kind_name = "normal";
    else if (t.contains("value"))
      kind_name = "fixed";
    else if (t.contains("min") && t.contains("max"))
      kind_name = "uniform";
    else {
      ctx_.error(p, line_of(n),
                 "a distribution table needs dist = \"fixed\", \"normal\", \"lognormal\", "
                 "\"uniform\", \"gamma\" or \"histogram\"");
      return std::nullopt;
    }
  }
  for (DistKind k : {DistKind::fixed, DistKind::normal, DistKind::lognormal, DistKind::uniform,
                     DistKind::gamma, DistKind::histogram})
    if (kind_name == to_string(k)) return k;
  ctx_.error(p + ".dist", ctx_.lines[p + ".dist"],
             "unknown distribution \"" + kind_name +
                 "\" (expected fixed, normal, lognormal, uniform, gamma or histogram)");
  return std::nullopt;
}

void Section::read_distribution(const toml::node& n, const std::string& p, Distribution& out,
                                Unit unit) {
  if (!n.is_table()) {
    auto v = scalar(n, p, unit);
    if (v) out = Distribution::fixed_at(*v);
    return;
  }
  const toml::table& t = *n.as_table();
  Distribution d;
  Section s(ctx_, &t, p);
  std::string kind_name;
  const std::optional<DistKind> kind = dist_kind(n, p, s, kind_name);
  if (!kind) return;
  d.kind = *kind;
  auto param = [&](std::string_view k, double& field, bool required) {
    const toml::node* pn = s.get(k);
    if (!pn) {
      if (required)
        ctx_.error(p + "." + std::string(k), line_of(n),
                   "is required for dist = \"" + kind_name + "\"");
      return;
    }
    auto v = scalar(*pn, p + "." + std::string(k), unit);
    if (v) field = *v;
  };
  std::vector<std::string_view> used = {"dist", "min", "max"};
  switch (d.kind) {
    case DistKind::fixed:
      param("value", d.value, true);
      used.push_back("value");
      break;
    case DistKind::normal:
    case DistKind::lognormal:
    case DistKind::gamma:
      param("mean", d.mean, true);
      param("stdev", d.stdev, true);
      used.insert(used.end(), {"mean", "stdev"});
      break;
    case DistKind::uniform:
      break;
    case DistKind::histogram: {
      used.push_back("bins");
      const toml::node* bn = s.get("bins");
      if (!bn) {
        ctx_.error(p + ".bins", line_of(n), "is required for dist = \"histogram\"");
        break;
      }
      read_bins(*bn, p + ".bins", d, unit);
      break;
    }
  }
  param("min", d.min, d.kind == DistKind::uniform);
  param("max", d.max, d.kind == DistKind::uniform);
  for (auto&& [k, v] : t) {
    const std::string_view ks = k.str();
    if (std::find(used.begin(), used.end(), ks) != used.end()) continue;
    if (std::find(kDistKeys.begin(), kDistKeys.end(), ks) != kDistKeys.end())
      ctx_.error(p + "." + std::string(ks), line_of(v),
                 "is not used by dist = \"" + kind_name + "\"");
    else
      ctx_.error(p + "." + std::string(ks), line_of(v), "unknown key" + suggestion(ks, kDistKeys));
  }
  out = d;
}

// An access recipe: an array of step strings (core/recipe.hpp), each error with its index.
void Section::recipe(std::string_view key, Recipe& out) {
  const toml::node* n = get(key);
  if (!n) return;
  const toml::array* a = n->as_array();
  if (!a) return type_error(key, *n, "an array of steps such as [\"0+4KiB\", \"4KiB+rest\"]");
  Recipe r;
  for (std::size_t i = 0; i < a->size(); ++i) {
    const toml::node& e = *a->get(i);
    const std::string p = path(key) + "[" + std::to_string(i) + "]";
    if (!e.is_string()) {
      ctx_.error(p, line_of(e), "expected a step such as \"0+4KiB\", got " + node_text(e));
      continue;
    }
    auto st = parse_recipe_step(*e.value<std::string>());
    if (!st) {
      ctx_.error(p, line_of(e), st.error().message);
      continue;
    }
    r.push_back(*st);
  }
  out = std::move(r);
}

// An array of strings, each error with its index.
void Section::strings(std::string_view key, std::vector<std::string>& out) {
  elements(key, "strings", "a string", out, [](const toml::node& e) {
    return e.is_string() ? e.value<std::string>() : std::nullopt;
  });
}

void Section::integers(std::string_view key, std::vector<std::uint32_t>& out) {
  constexpr auto kMax = std::numeric_limits<std::uint32_t>::max();
  elements(key, "whole numbers", "a whole number from 0 to " + std::to_string(kMax), out,
           [](const toml::node& e) -> std::optional<std::uint32_t> {
             const auto v = e.is_integer() ? e.value<std::int64_t>() : std::nullopt;
             if (v && *v >= 0 && *v <= kMax) return static_cast<std::uint32_t>(*v);
             return std::nullopt;
           });
}

void Section::numbers(std::string_view key, std::vector<double>& out) {
  elements(key, "numbers", "a number > 0", out, [](const toml::node& e) -> std::optional<double> {
    const auto v = e.is_number() ? e.value<double>() : std::nullopt;
    if (v && std::isfinite(*v) && *v > 0) return v;
    return std::nullopt;
  });
}

// Unknown keys in this section: every key not consumed and not in `known`.
void Section::check_unknown(const std::vector<std::string_view>& known) {
  if (!t_) return;
  for (auto&& [k, v] : *t_) {
    if (std::find(known.begin(), known.end(), k.str()) != known.end()) continue;
    const std::string p = path(k.str());
    std::uint32_t line = k.source().begin.line ? k.source().begin.line : line_of(v);
    ctx_.error(p, line, "unknown key" + suggestion(k.str(), known));
  }
}

void Section::type_error(std::string_view key, const toml::node& n, const std::string& expected) {
  ctx_.error(path(key), line_of(n), "expected " + expected + ", got " + node_text(n));
}

// A size (bytes) or a duration (seconds): a number >= 0, or a string with a unit ("146MiB",
// "0.3s").
std::optional<double> Section::scalar(const toml::node& n, const std::string& p, Unit unit) {
  const bool bytes = unit == Unit::bytes;
  if (n.is_number() || unit == Unit::samples) {
    if (!n.is_number()) {
      ctx_.error(p, line_of(n), "expected a number of samples, got " + node_text(n));
      return std::nullopt;
    }
    const double v =
        n.is_integer() ? static_cast<double>(*n.value<std::int64_t>()) : *n.value<double>();
    if (!(v >= 0)) {
      ctx_.error(p, line_of(n), "must be >= 0");
      return std::nullopt;
    }
    return v;
  }
  if (n.is_string()) {
    const std::string text = *n.value<std::string>();
    auto r = bytes ? parse_size_value(text) : parse_duration_s(text);
    if (!r) {
      ctx_.error(p, line_of(n), r.error().message);
      return std::nullopt;
    }
    return *r;
  }
  ctx_.error(
      p, line_of(n),
      bytes ? "expected a size such as \"146MiB\" or a number of bytes, got " + node_text(n)
            : "expected a duration such as \"0.323s\" or a number of seconds, got " + node_text(n));
  return std::nullopt;
}

void Section::read_bins(const toml::node& bn, const std::string& p, Distribution& d, Unit unit) {
  const toml::array* a = bn.as_array();
  if (!a) {
    ctx_.error(p, line_of(bn), "expected an array of [lo, hi, weight] bins");
    return;
  }
  for (std::size_t i = 0; i < a->size(); ++i) {
    const toml::node& e = *a->get(i);
    const std::string bp = p + "[" + std::to_string(i) + "]";
    const toml::array* b = e.as_array();
    if (!b || (b->size() != 3 && b->size() != 2)) {
      ctx_.error(bp, line_of(e), "expected [lo, hi, weight] or [value, weight]");
      continue;
    }
    HistogramBin bin;
    auto lo = scalar(*b->get(0), bp, unit);
    auto hi = b->size() == 3 ? scalar(*b->get(1), bp, unit) : lo;
    const toml::node& w = *b->get(b->size() - 1);
    if (!w.is_number()) {
      ctx_.error(bp, line_of(e), "weight must be a number, got " + node_text(w));
      continue;
    }
    if (!lo || !hi) continue;
    bin.lo = *lo;
    bin.hi = *hi;
    bin.weight = *w.value<double>();
    d.bins.push_back(bin);
  }
}

}  // namespace dlgen::detail
