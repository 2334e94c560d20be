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

#include "text_fields.hpp"

namespace dlgen::trace {
namespace {

using namespace text;  // the fields and value forms (text_fields.hpp)

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

  // burst=START-END@OFFSET+BYTES: a burst of a response's body (HttpBurst).
  static Result<HttpBurst> burst(const std::string& v) {
    const std::size_t dash = v.find('-'), at = v.find('@'), plus = v.find('+');
    if (dash == std::string::npos || at == std::string::npos || plus == std::string::npos ||
        !(dash < at && at < plus))
      return input_error("burst=START-END@OFFSET+BYTES, not '" + v + "'");
    HttpBurst b;
    DLGEN_TRY_SET(b.start_ns, parse_time_ns(v.substr(0, dash)));
    DLGEN_TRY_SET(b.end_ns, parse_time_ns(v.substr(dash + 1, at - dash - 1)));
    DLGEN_TRY_SET(b.offset, parse_bytes(v.substr(at + 1, plus - at - 1)));
    DLGEN_TRY_SET(b.bytes, parse_bytes(v.substr(plus + 1)));
    if (b.start_ns > b.end_ns || b.end_ns > kMaxTraceNs)
      return input_error("burst '" + v + "' ends before it starts or beyond 31 days");
    return b;
  }

  // http pid= tid= fd= peer= method= host= path= query= range=A-B status= length= object=
  // sent= received= ts= first= last= burst=... (docs/trace-format.md, "/http").
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
      } else if (k == "burst") {
        auto b = burst(v);
        if (!b) return b.error();
        r.body.push_back(*b);
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
           " first=" + std::to_string(r.first_byte_ns) + " last=" + std::to_string(r.last_byte_ns);
    for (const HttpBurst& b : r.body)
      out += " burst=" + std::to_string(b.start_ns) + "-" + std::to_string(b.end_ns) + "@" +
             std::to_string(b.offset) + "+" + std::to_string(b.bytes);
    out += "\n";
  }
  return out;
}

}  // namespace dlgen::trace
