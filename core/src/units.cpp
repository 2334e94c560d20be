#include "dlgen/core/units.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "units_internal.hpp"

namespace dlgen {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Splits "146.5 MiB" into a number and a unit suffix. The number is parsed with strtod so that
// "0.323" reads back exactly the double that printed it.
bool split_number(std::string_view text, double& number, std::string& unit) {
  text = trim(text);
  if (text.empty()) return false;
  std::size_t end = 0;
  while (end < text.size() && (std::isdigit(static_cast<unsigned char>(text[end])) ||
                               text[end] == '.' || text[end] == '_' ||
                               ((text[end] == 'e' || text[end] == 'E') && end + 1 < text.size() &&
                                (std::isdigit(static_cast<unsigned char>(text[end + 1])) ||
                                 text[end + 1] == '-' || text[end + 1] == '+')) ||
                               ((text[end] == '-' || text[end] == '+') && end > 0 &&
                                (text[end - 1] == 'e' || text[end - 1] == 'E'))))
    ++end;
  if (end == 0) return false;
  std::string digits;
  for (char c : text.substr(0, end))
    if (c != '_') digits.push_back(c);
  char* stop = nullptr;
  number = std::strtod(digits.c_str(), &stop);
  if (stop == digits.c_str() || *stop != '\0' || !std::isfinite(number)) return false;
  unit = std::string(trim(text.substr(end)));
  return true;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Shortest "%.Ng" rendering that reads back as the same double.
std::string shortest(double v) {
  char buf[64];
  for (int p = 1; p <= 17; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

}  // namespace

Result<double> parse_size_value(std::string_view text) {
  double number = 0;
  std::string unit;
  if (!split_number(text, number, unit) || number < 0)
    return input_error("expected a size such as \"146MiB\", \"4k\" or a number of bytes, got \"" +
                       std::string(text) + "\"");
  std::string u = unit;
  // Binary multiples unless the unit spells a decimal one ("kB", "MB", "GB", "TB").
  double mult = 0;
  const std::string lu = lower(u);
  if (u.empty() || lu == "b")
    mult = 1;
  else {
    const char p = lu[0];
    double base = 0;
    int exp = 0;
    switch (p) {
      case 'k':
        exp = 1;
        break;
      case 'm':
        exp = 2;
        break;
      case 'g':
        exp = 3;
        break;
      case 't':
        exp = 4;
        break;
      case 'p':
        exp = 5;
        break;
      default:
        exp = 0;
    }
    const std::string rest = lu.substr(1);
    if (exp == 0)
      mult = 0;
    else if (rest.empty() || rest == "i" || rest == "ib")
      base = 1024;
    else if (rest == "b")
      base = 1000;
    if (base != 0) mult = std::pow(base, exp);
  }
  if (mult == 0)
    return input_error("unknown size unit \"" + unit + "\" in \"" + std::string(text) +
                       "\" (use B, KiB, MiB, GiB, TiB, kB, MB, GB or TB)");
  return number * mult;
}

Result<std::uint64_t> parse_size(std::string_view text) {
  auto v = parse_size_value(text);
  if (!v) return v.error();
  if (!(std::round(*v) < 0x1p64))
    return input_error("size \"" + std::string(text) + "\" is too large");
  return static_cast<std::uint64_t>(std::round(*v));
}

Result<double> parse_duration_s(std::string_view text) {
  double number = 0;
  std::string unit;
  if (!split_number(text, number, unit) || number < 0)
    return input_error("expected a duration such as \"0.323s\", \"350us\" or \"2ms\", got \"" +
                       std::string(text) + "\"");
  const std::string u = lower(unit);
  if (u.empty() || u == "s" || u == "sec") return number;
  if (u == "ms") return number * 1e-3;
  if (u == "us" || u == "µs") return number * 1e-6;
  if (u == "ns") return number * 1e-9;
  if (u == "m" || u == "min") return number * 60;
  if (u == "h") return number * 3600;
  return input_error("unknown duration unit \"" + unit + "\" in \"" + std::string(text) +
                     "\" (use ns, us, ms, s, m or h)");
}

std::string format_size(std::uint64_t bytes) {
  static const char* const names[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int i = 0;
  double v = static_cast<double>(bytes);
  while (v >= 1024 && i < 5) {
    v /= 1024;
    ++i;
  }
  if (i == 0) return std::to_string(bytes) + "B";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s + names[i];
}

std::string format_duration(double seconds) {
  const double a = std::fabs(seconds);
  char buf[64];
  if (a == 0) return "0s";
  if (a < 1e-6) {
    std::snprintf(buf, sizeof buf, "%.4gns", seconds * 1e9);
  } else if (a < 1e-3) {
    std::snprintf(buf, sizeof buf, "%.4gus", seconds * 1e6);
  } else {
    std::snprintf(buf, sizeof buf, "%.4gs", seconds);
  }
  return buf;
}

std::string format_size_exact(double bytes) {
  if (bytes >= 0 && bytes < 1.8e19 && std::floor(bytes) == bytes) {
    const auto b = static_cast<std::uint64_t>(bytes);
    const std::string human = format_size(b);
    auto back = parse_size_value(human);
    if (back && *back == bytes) return "\"" + human + "\"";
    return std::to_string(b);
  }
  std::string s = shortest(bytes);
  if (s.find_first_of(".eE") == std::string::npos) s += ".0";
  return s;
}

std::string format_duration_exact(double seconds) {
  return "\"" + shortest(seconds) + "s\"";
}

std::string shortest_double(double v) {
  return shortest(v);
}

}  // namespace dlgen
