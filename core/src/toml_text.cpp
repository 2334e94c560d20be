// TOML value text (toml_text.hpp).
#include "toml_text.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "dlgen/core/job.hpp"
#include "dlgen/core/units.hpp"
#include "units_internal.hpp"

namespace dlgen::detail {

std::string quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string float_text(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  // A whole number is written whole ("10.0", not the shortest %g's "1e+01": a histogram bin's
  // weight of 10 read as 1e+01 in distilled jobs).
  if (v == std::trunc(v) && std::abs(v) < 1e15) return std::to_string(std::llround(v)) + ".0";
  std::string s = shortest_double(v);
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}

std::string bare_or_quoted_key(std::string_view k) {
  const bool bare = !k.empty() && std::all_of(k.begin(), k.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
  return bare ? std::string(k) : quote(k);
}

std::string size_text(double bytes) {
  return format_size_exact(bytes);
}
std::string time_text(double s) {
  return format_duration_exact(s);
}

std::string dist_text(const Distribution& d, Unit unit) {
  auto v = [&](double x) {
    if (unit == Unit::samples)
      return x == std::round(x) ? std::to_string(std::llround(x)) : float_text(x);
    return unit == Unit::bytes ? size_text(x) : time_text(x);
  };
  if (d.kind == DistKind::fixed && d.min == 0 && d.max == 0) return v(d.value);
  std::string out = "{ dist = \"" + std::string(to_string(d.kind)) + "\"";
  switch (d.kind) {
    case DistKind::fixed:
      out += ", value = " + v(d.value);
      break;
    case DistKind::normal:
    case DistKind::lognormal:
    case DistKind::gamma:
      out += ", mean = " + v(d.mean) + ", stdev = " + v(d.stdev);
      break;
    case DistKind::uniform:
      break;
    case DistKind::histogram: {
      out += ", bins = [";
      for (std::size_t i = 0; i < d.bins.size(); ++i) {
        const auto& b = d.bins[i];
        out += (i ? ", [" : "[") + v(b.lo) + ", " + v(b.hi) + ", " + float_text(b.weight) + "]";
      }
      out += "]";
      break;
    }
  }
  if (d.kind == DistKind::uniform || d.min != 0) out += ", min = " + v(d.min);
  if (d.kind == DistKind::uniform || d.max != 0) out += ", max = " + v(d.max);
  return out + " }";
}

}  // namespace dlgen::detail
