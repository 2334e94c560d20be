#include "dlgen/trace/trace_text.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <map>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace dlgen::trace {
namespace {

struct Field {
  std::string key, value;
};

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

// Whether an integer parse result fits the field it goes into (bools always do).
template <class T, class V>
bool fits(V v) {
  if constexpr (std::is_same_v<T, bool> || std::is_same_v<V, bool>)
    return true;
  else
    return std::in_range<T>(v);
}

class Parser {
 public:
  Result<Trace> run(std::string_view text) {
    std::size_t lineno = 0;
    bool duration_given = false;
    while (!text.empty()) {
      std::size_t nl = text.find('\n');
      std::string_view line = text.substr(0, nl);
      text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
      ++lineno;
      auto fields = tokenize(line);
      if (!fields) return at(lineno, fields.error().message);
      if (fields->empty()) continue;
      const std::string& head = (*fields)[0].key;
      Result<void> r = ok();
      if (head == "meta" && (*fields)[0].value.empty()) {
        r = meta(*fields, duration_given);
      } else if (head == "file" && (*fields)[0].value.empty()) {
        r = file(*fields);
      } else if (head == "proc" && (*fields)[0].value.empty()) {
        r = proc(*fields);
      } else if (head == "http" && (*fields)[0].value.empty()) {
        r = http(*fields);
      } else {
        r = event(*fields);
      }
      if (!r) return at(lineno, r.error().message);
    }
    std::stable_sort(t_.events.begin(), t_.events.end(),
                     [](const Event& a, const Event& b) { return a.ts_ns < b.ts_ns; });
    std::stable_sort(t_.http.begin(), t_.http.end(),
                     [](const auto& a, const auto& b) { return a.request_ns < b.request_ns; });
    if (!duration_given)
      for (const Event& e : t_.events)
        t_.meta.duration_ns = std::max(t_.meta.duration_ns, e.ts_ns + e.dur_ns);
    return std::move(t_);
  }

 private:
  static Error at(std::size_t line, const std::string& msg) {
    return input_error("line " + std::to_string(line) + ": " + msg);
  }

  // The reason of a meta key "lost_<reason>", or nullptr.
  static const LostReason* lost_reason(const std::string& key) {
    for (const auto& r : kLostReasons)
      if (key.size() > 5 && key.compare(0, 5, "lost_") == 0 &&
          key.compare(5, std::string::npos, r.name) == 0)
        return &r;
    return nullptr;
  }

  // Sets `target` from a parse result; a value the field's type cannot hold is an error.
#define DLGEN_TRY_SET(target, expr)                                            \
  do {                                                                         \
    auto v_ = (expr);                                                          \
    if (!v_) return v_.error();                                                \
    using T_ = std::remove_reference_t<decltype(target)>;                      \
    if (!fits<T_>(*v_)) return input_error("value out of range for " #target); \
    target = static_cast<T_>(*v_);                                             \
  } while (0)

  Result<void> meta(const std::vector<Field>& fs, bool& duration_given) {
    Meta& m = t_.meta;
    for (std::size_t i = 1; i < fs.size(); ++i) {
      const auto& [k, v] = fs[i];
      if (k == "command")
        m.command = split_words(v);
      else if (k == "host")
        m.host = v;
      else if (k == "rank")
        DLGEN_TRY_SET(m.rank, parse_int(v));
      else if (k == "world_size")
        DLGEN_TRY_SET(m.world_size, parse_int(v));
      else if (k == "kernel")
        m.kernel = v;
      else if (k == "version")
        m.dlgen_version = v;
      else if (k == "start_wall")
        DLGEN_TRY_SET(m.start_wall_ns, parse_time_ns(v));
      else if (k == "start_mono")
        DLGEN_TRY_SET(m.start_mono_ns, parse_time_ns(v));
      else if (k == "duration") {
        DLGEN_TRY_SET(m.duration_ns, parse_time_ns(v));
        if (m.duration_ns > kMaxTraceNs) return input_error("duration beyond 31 days");
        duration_given = true;
      } else if (k == "lost")
        DLGEN_TRY_SET(m.lost_events, parse_uint(v));
      else if (auto* reason = lost_reason(k)) {
        auto n = parse_uint(v);
        if (!n) return n.error();
        m.lost.*reason->count = *n;
      } else if (k == "exit")
        DLGEN_TRY_SET(m.exit_status, parse_int(v));
      else if (k == "block")
        DLGEN_TRY_SET(m.block_layer, parse_bool(v));
      else if (k == "complete")
        DLGEN_TRY_SET(m.complete, parse_bool(v));
      else if (k == "gpus")
        m.gpu.devices = split_list(v);
      else if (k == "gpu_driver")
        m.gpu.driver = v;
      else if (k == "cuda_lib")
        m.gpu.cuda_lib = v;
      else if (k == "cuda_probes")
        m.gpu.cuda_probes = split_list(v);
      else if (k == "gpu_note")
        m.gpu.note = v;
      else
        return input_error("unknown meta key '" + k + "'");
    }
    m.lost_events = std::max(m.lost_events, m.lost.total());  // `lost` may be left out
    return ok();
  }

  Result<void> file(const std::vector<Field>& fs) {
    File f;
    for (std::size_t i = 1; i < fs.size(); ++i) {
      const auto& [k, v] = fs[i];
      if (k == "path")
        f.path = v;
      else if (k == "size")
        DLGEN_TRY_SET(f.size_at_open, parse_bytes(v));
      else if (k == "dev")
        DLGEN_TRY_SET(f.dev, parse_uint(v));
      else if (k == "ino")
        DLGEN_TRY_SET(f.ino, parse_uint(v));
      else if (k == "magic")
        DLGEN_TRY_SET(f.magic, parse_uint(v));
      else if (k == "magic_len")
        DLGEN_TRY_SET(f.magic_len, parse_uint(v));
      else
        return input_error("unknown file key '" + k + "'");
    }
    if (f.path.empty()) return input_error("file needs path=");
    by_path_.emplace(f.path, static_cast<std::uint32_t>(t_.files.size()));
    t_.files.push_back(std::move(f));
    return ok();
  }

  Result<void> proc(const std::vector<Field>& fs) {
    Process p;
    bool tgid = false, first = false, thread = false;
    for (std::size_t i = 1; i < fs.size(); ++i) {
      const auto& [k, v] = fs[i];
      if (k == "pid")
        DLGEN_TRY_SET(p.pid, parse_uint(v));
      else if (k == "tgid") {
        DLGEN_TRY_SET(p.tgid, parse_uint(v));
        tgid = true;
      } else if (k == "ppid")
        DLGEN_TRY_SET(p.ppid, parse_uint(v));
      else if (k == "comm")
        p.comm = v;
      else if (k == "first") {
        p.first_comm = v;
        first = true;
      } else if (k == "start")
        DLGEN_TRY_SET(p.start_ns, parse_time_ns(v));
      else if (k == "end")
        DLGEN_TRY_SET(p.end_ns, parse_time_ns(v));
      else if (k == "exit")
        DLGEN_TRY_SET(p.exit_code, parse_int(v));
      else if (k == "thread") {
        DLGEN_TRY_SET(p.is_thread, parse_bool(v));
        thread = true;
      } else
        return input_error("unknown proc key '" + k + "'");
    }
    if (p.pid == 0) return input_error("proc needs pid=");
    if (p.start_ns > kMaxTraceNs || p.end_ns > kMaxTraceNs)
      return input_error("start or end beyond 31 days");
    if (!tgid) p.tgid = p.pid;
    if (!first) p.first_comm = p.comm;
    if (!thread) p.is_thread = p.tgid != p.pid;
    t_.processes.push_back(std::move(p));
    return ok();
  }

  // http pid= tid= fd= peer= method= host= path= query= range=A-B status= length= object=
  // sent= received= ts= first= last= (docs/trace-format.md, "/http").
  Result<void> http(const std::vector<Field>& fs) {
    HttpRequest r;
    bool have_tid = false;
    for (std::size_t i = 1; i < fs.size(); ++i) {
      const auto& [k, v] = fs[i];
      std::string HttpRequest::*text = k == "peer"     ? &HttpRequest::peer
                                       : k == "method" ? &HttpRequest::method
                                       : k == "host"   ? &HttpRequest::host
                                       : k == "path"   ? &HttpRequest::path
                                       : k == "query"  ? &HttpRequest::query
                                                       : nullptr;
      if (text) {
        r.*text = v;
      } else if (k == "pid") {
        DLGEN_TRY_SET(r.pid, parse_uint(v));
      } else if (k == "tid") {
        DLGEN_TRY_SET(r.tid, parse_uint(v));
        have_tid = true;
      } else if (k == "fd") {
        DLGEN_TRY_SET(r.fd, parse_int(v));
      } else if (k == "range") {
        const std::size_t dash = v.find('-');
        if (dash == std::string::npos) return input_error("range=A-B or range=A-, not '" + v + "'");
        DLGEN_TRY_SET(r.range_first, parse_bytes(v.substr(0, dash)));
        if (dash + 1 < v.size()) DLGEN_TRY_SET(r.range_last, parse_bytes(v.substr(dash + 1)));
      } else if (k == "status") {
        DLGEN_TRY_SET(r.status, parse_uint(v));
      } else if (k == "length") {
        DLGEN_TRY_SET(r.content_length, parse_bytes(v));
      } else if (k == "object") {
        DLGEN_TRY_SET(r.object_size, parse_bytes(v));
      } else if (k == "sent") {
        DLGEN_TRY_SET(r.request_bytes, parse_bytes(v));
      } else if (k == "received") {
        DLGEN_TRY_SET(r.response_bytes, parse_bytes(v));
      } else if (k == "ts") {
        DLGEN_TRY_SET(r.request_ns, parse_time_ns(v));
      } else if (k == "first") {
        DLGEN_TRY_SET(r.first_byte_ns, parse_time_ns(v));
      } else if (k == "last") {
        DLGEN_TRY_SET(r.last_byte_ns, parse_time_ns(v));
      } else {
        return input_error("unknown http key '" + k + "'");
      }
    }
    if (r.method.empty()) return input_error("http needs method=");
    if (std::max({r.request_ns, r.first_byte_ns, r.last_byte_ns}) > kMaxTraceNs)
      return input_error("http times beyond 31 days");
    if (!have_tid) r.tid = r.pid;
    t_.http.push_back(std::move(r));
    return ok();
  }

  Result<void> event(const std::vector<Field>& fs) {
    Event e;
    bool have_ts = false, have_op = false, have_tid = false, have_ret = false;
    std::size_t i = fs[0].key == "ev" && fs[0].value.empty() ? 1 : 0;
    for (; i < fs.size(); ++i) {
      const auto& [k, v] = fs[i];
      if (k == "ts") {
        DLGEN_TRY_SET(e.ts_ns, parse_time_ns(v));
        have_ts = true;
      } else if (k == "dur")
        DLGEN_TRY_SET(e.dur_ns, parse_time_ns(v));
      else if (k == "pid")
        DLGEN_TRY_SET(e.pid, parse_uint(v));
      else if (k == "tid") {
        DLGEN_TRY_SET(e.tid, parse_uint(v));
        have_tid = true;
      } else if (k == "op") {
        auto op = op_from_string(v);
        if (!op) return input_error("unknown op '" + v + "'");
        e.op = *op;
        have_op = true;
      } else if (k == "file") {
        auto f = file_ref(v);
        if (!f) return f.error();
        e.file = *f;
      } else if (k == "fd")
        DLGEN_TRY_SET(e.fd, parse_int(v));
      else if (k == "off" || k == "offset")
        DLGEN_TRY_SET(e.offset, parse_bytes(v));
      else if (k == "size")
        DLGEN_TRY_SET(e.size, parse_bytes(v));
      else if (k == "ret") {
        DLGEN_TRY_SET(e.ret, parse_int(v));
        have_ret = true;
      } else if (k == "flags")
        DLGEN_TRY_SET(e.flags, parse_uint(v));
      else if (k == "arg")
        DLGEN_TRY_SET(e.arg, parse_uint(v));
      else
        return input_error("unknown event key '" + k +
                           "' (expected meta, file, proc or ts=... op=...)");
    }
    if (!have_ts || !have_op) return input_error("an event needs ts= and op=");
    if (e.ts_ns > kMaxTraceNs || e.dur_ns > kMaxTraceNs)
      return input_error("ts or dur beyond 31 days");
    if (!have_tid) e.tid = e.pid;
    if (!have_ret && (is_read(e.op) || is_write(e.op))) e.ret = static_cast<std::int64_t>(e.size);
    t_.events.push_back(e);
    return ok();
  }
#undef DLGEN_TRY_SET

  // "/data/a" (interned on first use) or "#3" (index into the files table).
  Result<std::uint32_t> file_ref(const std::string& v) {
    if (v.empty() || v == "none") return kNoFile;
    if (v[0] == '#') {
      auto n = parse_uint(v.substr(1));
      if (!n || *n >= t_.files.size()) return input_error("no file " + v);
      return static_cast<std::uint32_t>(*n);
    }
    auto it = by_path_.find(v);
    if (it != by_path_.end()) return it->second;
    auto idx = static_cast<std::uint32_t>(t_.files.size());
    t_.files.push_back(File{v});
    by_path_.emplace(v, idx);
    return idx;
  }

  Trace t_;
  std::unordered_map<std::string, std::uint32_t> by_path_;
};

}  // namespace

std::optional<Op> op_from_string(std::string_view name) {
  for (int i = 0; i < kOpCount; ++i)
    if (name == to_string(static_cast<Op>(i))) return static_cast<Op>(i);
  return std::nullopt;
}

Result<Trace> parse_trace_text(std::string_view text) {
  return Parser().run(text);
}

std::string format_trace_text(const Trace& t) {
  std::string out;
  const Meta& m = t.meta;
  out += "meta command=" + quote(join_words(m.command)) + " host=" + quote(m.host) +
         " kernel=" + quote(m.kernel) + " version=" + quote(m.dlgen_version) +
         " start_wall=" + std::to_string(m.start_wall_ns) +
         " start_mono=" + std::to_string(m.start_mono_ns) +
         " duration=" + std::to_string(m.duration_ns) + " lost=" + std::to_string(m.lost_events) +
         " exit=" + std::to_string(m.exit_status) + " block=" + (m.block_layer ? "1" : "0") +
         " complete=" + (m.complete ? "1" : "0");
  if (m.rank >= 0 || m.world_size > 0)  // absent: not launched by MPI
    out += " rank=" + std::to_string(m.rank) + " world_size=" + std::to_string(m.world_size);
  for (const auto& r : kLostReasons)  // only those that are not 0: absent reads as 0
    if (m.lost.*r.count)
      out += std::string(" lost_") + r.name + "=" + std::to_string(m.lost.*r.count);
  if (!m.gpu.devices.empty()) out += " gpus=" + quote(join_list(m.gpu.devices));
  if (!m.gpu.driver.empty()) out += " gpu_driver=" + quote(m.gpu.driver);
  if (!m.gpu.cuda_lib.empty()) out += " cuda_lib=" + quote(m.gpu.cuda_lib);
  if (!m.gpu.cuda_probes.empty()) out += " cuda_probes=" + quote(join_list(m.gpu.cuda_probes));
  if (!m.gpu.note.empty()) out += " gpu_note=" + quote(m.gpu.note);
  out += "\n";
  std::unordered_map<std::string, int> path_count;
  for (const File& f : t.files) path_count[f.path]++;
  for (const File& f : t.files)
    out += "file path=" + quote(f.path) + " size=" + std::to_string(f.size_at_open) +
           " dev=" + std::to_string(f.dev) + " ino=" + std::to_string(f.ino) +
           " magic=" + std::to_string(f.magic) + " magic_len=" + std::to_string(f.magic_len) + "\n";
  for (const Process& p : t.processes)
    out += "proc pid=" + std::to_string(p.pid) + " tgid=" + std::to_string(p.tgid) +
           " ppid=" + std::to_string(p.ppid) + " comm=" + quote(p.comm) +
           " first=" + quote(p.first_comm) + " start=" + std::to_string(p.start_ns) +
           " end=" + std::to_string(p.end_ns) + " exit=" + std::to_string(p.exit_code) +
           " thread=" + (p.is_thread ? "1" : "0") + "\n";
  for (const Event& e : t.events) {
    std::string file = "none";
    if (e.file != kNoFile && e.file < t.files.size()) {
      const std::string& p = t.files[e.file].path;
      file = path_count[p] == 1 && !p.empty() && p[0] != '#' && p != "none"
                 ? quote(p)
                 : "#" + std::to_string(e.file);
    }
    out += "ts=" + std::to_string(e.ts_ns) + " dur=" + std::to_string(e.dur_ns) +
           " pid=" + std::to_string(e.pid) + " tid=" + std::to_string(e.tid) +
           " op=" + to_string(e.op) + " file=" + file + " fd=" + std::to_string(e.fd) +
           " off=" + std::to_string(e.offset) + " size=" + std::to_string(e.size) +
           " ret=" + std::to_string(e.ret) + " flags=" + std::to_string(e.flags) +
           " arg=" + std::to_string(e.arg) + "\n";
  }
  for (const HttpRequest& r : t.http) {
    out += "http pid=" + std::to_string(r.pid) + " tid=" + std::to_string(r.tid) +
           " fd=" + std::to_string(r.fd) + " peer=" + quote(r.peer) + " method=" + quote(r.method) +
           " host=" + quote(r.host) + " path=" + quote(r.path) + " query=" + quote(r.query);
    if (r.range_first != HttpRequest::kNoRange)
      out += " range=" + std::to_string(r.range_first) + "-" +
             (r.range_last != HttpRequest::kNoRange ? std::to_string(r.range_last) : "");
    out += " status=" + std::to_string(r.status) + " length=" + std::to_string(r.content_length) +
           " object=" + std::to_string(r.object_size) + " sent=" + std::to_string(r.request_bytes) +
           " received=" + std::to_string(r.response_bytes) + " ts=" + std::to_string(r.request_ns) +
           " first=" + std::to_string(r.first_byte_ns) + " last=" + std::to_string(r.last_byte_ns) +
           "\n";
  }
  return out;
}

}  // namespace dlgen::trace
