#include "text_fields.hpp"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <map>
#include <unordered_map>
#include <utility>

namespace dlgen::trace::text {

// Splits a line into key=value tokens; a value may be double-quoted to hold spaces, '#', or (as
// \" \\ \n) quotes, backslashes and newlines. '#' starts a comment except as a value's first
// character (file=#3) or inside quotes.
Result<std::vector<Field>> tokenize(std::string_view line) {
  std::vector<Field> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i >= line.size() || line[i] == '#') break;
    std::size_t k = i;
    while (i < line.size() && line[i] != '=' && line[i] != ' ' && line[i] != '\t' && line[i] != '#')
      ++i;
    Field f{std::string(line.substr(k, i - k)), {}};
    if (i < line.size() && line[i] == '=') {
      ++i;
      if (i < line.size() && line[i] == '"') {
        ++i;
        bool closed = false;
        while (i < line.size()) {
          const char c = line[i++];
          if (c == '"') {
            closed = true;
            break;
          }
          if (c == '\\' && i < line.size()) {
            const char e = line[i++];
            f.value.push_back(e == 'n' ? '\n' : e);
          } else {
            f.value.push_back(c);
          }
        }
        if (!closed) return input_error("unterminated quote after " + f.key + "=");
      } else {
        std::size_t v = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t' && (line[i] != '#' || i == v))
          ++i;
        f.value = std::string(line.substr(v, i - v));
      }
    }
    out.push_back(std::move(f));
  }
  return out;
}

// "1.5ms" -> 1500000. Bare numbers are nanoseconds.
Result<std::uint64_t> parse_time_ns(const std::string& s) {
  std::size_t n = 0;
  while (n < s.size() && (std::isdigit(static_cast<unsigned char>(s[n])) || s[n] == '.')) ++n;
  if (n == 0) return input_error("bad time '" + s + "'");
  std::string unit = s.substr(n);
  long double mult;
  if (unit.empty() || unit == "ns")
    mult = 1;
  else if (unit == "us")
    mult = 1e3L;
  else if (unit == "ms")
    mult = 1e6L;
  else if (unit == "s")
    mult = 1e9L;
  else
    return input_error("bad time unit in '" + s + "' (ns, us, ms, s)");
  std::string num = s.substr(0, n);
  std::size_t dot = num.find('.');
  std::uint64_t whole = 0;
  auto r = std::from_chars(num.data(), num.data() + (dot == std::string::npos ? num.size() : dot),
                           whole);
  if (r.ec != std::errc{} && dot != 0) return input_error("bad time '" + s + "'");
  std::uint64_t whole_ns = 0;
  if (__builtin_mul_overflow(whole, static_cast<std::uint64_t>(mult), &whole_ns))
    return input_error("time '" + s + "' is too large");
  long double frac = 0;
  if (dot != std::string::npos) {
    long double scale = 0.1L;
    for (std::size_t i = dot + 1; i < num.size(); ++i, scale /= 10) {
      if (num[i] == '.') return input_error("bad time '" + s + "'");
      frac += (num[i] - '0') * scale;
    }
  }
  std::uint64_t ns = 0;
  if (__builtin_add_overflow(whole_ns, static_cast<std::uint64_t>(std::llround(frac * mult)), &ns))
    return input_error("time '" + s + "' is too large");
  return ns;
}

Result<std::uint64_t> parse_bytes(const std::string& s) {
  std::size_t n = 0;
  while (n < s.size() && (std::isdigit(static_cast<unsigned char>(s[n])) || s[n] == '.')) ++n;
  if (n == 0) return input_error("bad size '" + s + "'");
  std::string unit = s.substr(n);
  static const std::map<std::string, std::uint64_t> units = {{"", 1},
                                                             {"B", 1},
                                                             {"K", 1ull << 10},
                                                             {"KiB", 1ull << 10},
                                                             {"M", 1ull << 20},
                                                             {"MiB", 1ull << 20},
                                                             {"G", 1ull << 30},
                                                             {"GiB", 1ull << 30},
                                                             {"T", 1ull << 40},
                                                             {"TiB", 1ull << 40},
                                                             {"KB", 1000},
                                                             {"kB", 1000},
                                                             {"MB", 1000000},
                                                             {"GB", 1000000000},
                                                             {"TB", 1000000000000ull}};
  auto it = units.find(unit);
  if (it == units.end()) return input_error("bad size unit in '" + s + "'");
  std::string num = s.substr(0, n);
  if (num.find('.') == std::string::npos) {
    std::uint64_t v = 0;
    std::uint64_t bytes = 0;
    if (std::from_chars(num.data(), num.data() + num.size(), v).ec != std::errc{} ||
        __builtin_mul_overflow(v, it->second, &bytes))
      return input_error("bad size '" + s + "'");
    return bytes;
  }
  double d = 0;
  auto r = std::from_chars(num.data(), num.data() + num.size(), d);
  if (r.ec != std::errc{} || r.ptr != num.data() + num.size())
    return input_error("bad size '" + s + "'");
  const double bytes = std::round(d * static_cast<double>(it->second));
  if (!(bytes >= 0 && bytes < 0x1p64)) return input_error("bad size '" + s + "'");
  return static_cast<std::uint64_t>(bytes);
}

Result<std::uint64_t> parse_uint(const std::string& s) {
  std::uint64_t v = 0;
  int base = 10;
  const char* b = s.data();
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) base = 16, b += 2;
  auto r = std::from_chars(b, s.data() + s.size(), v, base);
  if (r.ec != std::errc{} || r.ptr != s.data() + s.size())
    return input_error("bad number '" + s + "'");
  return v;
}

Result<std::int64_t> parse_int(const std::string& s) {
  if (!s.empty() && s[0] == '-') {
    static const std::unordered_map<std::string, int> names = {
        {"EPERM", EPERM},   {"ENOENT", ENOENT},   {"EINTR", EINTR},   {"EIO", EIO},
        {"EBADF", EBADF},   {"EAGAIN", EAGAIN},   {"ENOMEM", ENOMEM}, {"EACCES", EACCES},
        {"EEXIST", EEXIST}, {"ENOTDIR", ENOTDIR}, {"EISDIR", EISDIR}, {"EINVAL", EINVAL},
        {"ENOSPC", ENOSPC}, {"ESPIPE", ESPIPE},   {"EFAULT", EFAULT}};
    auto it = names.find(s.substr(1));
    if (it != names.end()) return -static_cast<std::int64_t>(it->second);
    auto v = parse_bytes(s.substr(1));
    if (!v || *v > (std::uint64_t{1} << 63)) return input_error("bad number '" + s + "'");
    return static_cast<std::int64_t>(0 - *v);  // -2^63 included
  }
  auto v = parse_bytes(s);
  if (!v) return v.error();
  if (*v > static_cast<std::uint64_t>(INT64_MAX))
    return input_error("number '" + s + "' is too large");
  return static_cast<std::int64_t>(*v);
}

Result<bool> parse_bool(const std::string& s) {
  if (s == "1" || s == "true" || s == "yes") return true;
  if (s == "0" || s == "false" || s == "no") return false;
  return input_error("bad boolean '" + s + "' (0 or 1)");
}

std::vector<std::string> split_words(const std::string& s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && s[i] == ' ') ++i;
    std::size_t j = i;
    while (j < s.size() && s[j] != ' ') ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

// GPU names hold spaces ("NVIDIA H200"): lists of them are comma-separated.
std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= s.size() && !s.empty()) {
    auto comma = s.find(',', start);
    if (comma == std::string::npos) comma = s.size();
    out.push_back(s.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

std::string join_list(const std::vector<std::string>& w) {
  std::string out;
  for (const auto& x : w) out += (out.empty() ? "" : ",") + x;
  return out;
}

std::string join_words(const std::vector<std::string>& w) {
  std::string s;
  for (const auto& x : w) s += (s.empty() ? "" : " ") + x;
  return s;
}

std::string quote(const std::string& s) {
  if (!s.empty() && s.find_first_of(" \t\"#\\\n=") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c == '\n' ? std::string("\\n") : std::string(1, c);
  }
  return out + "\"";
}

}  // namespace dlgen::trace::text
