// Chrome trace-event JSON ("JSON Array/Object Format" of the Trace Event Format), streamed so a
// trace of millions of events needs no JSON tree in memory. Times are microseconds (floating,
// so ns precision survives).
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include "dlgen/core/json.hpp"
#include <unordered_set>

#include "dlgen/trace/inspect.hpp"

namespace dlgen::trace {
namespace {

std::string quoted(const std::string& s) {
  return nlohmann::json(s).dump();
}

bool is_process_event(Op op) {
  return op == Op::fork || op == Op::exec || op == Op::exit || op == Op::task_rename ||
         op == Op::thread;
}

}  // namespace

void export_perfetto(const Trace& t, std::ostream& out) {
  char buf[256];
  out << "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"command\":";
  std::string cmd;
  for (const auto& w : t.meta.command) cmd += (cmd.empty() ? "" : " ") + w;
  out << quoted(cmd) << ",\"lost_events\":" << t.meta.lost_events << "},\n\"traceEvents\":[\n";
  bool first = true;
  auto sep = [&] {
    if (!first) out << ",\n";
    first = false;
  };
  // Track names: a process track per tgid, a thread track per tid.
  std::uint32_t mainp = main_pid(t);
  std::unordered_set<std::uint32_t> named_pids, named_tids;
  for (const Process& p : t.processes) {
    std::string label = p.comm + " (" + to_string(role_of(p, mainp)) + ")";
    if (!p.is_thread && named_pids.insert(p.pid).second) {
      sep();
      std::snprintf(
          buf, sizeof buf,
          "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":",
          p.pid, p.pid);
      out << buf << quoted(label) << "}}";
    }
    named_tids.insert(p.pid);
    sep();
    std::snprintf(
        buf, sizeof buf,
        "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":", p.tgid,
        p.pid);
    out << buf << quoted(label) << "}}";
  }
  for (const Event& e : t.events) {
    if (named_tids.insert(e.tid).second) {
      sep();
      std::snprintf(buf, sizeof buf,
                    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%u,\"tid\":%u,\"args\":{"
                    "\"name\":\"tid %u\"}}",
                    e.pid, e.tid, e.tid);
      out << buf;
    }
    sep();
    double ts_us = static_cast<double>(e.ts_ns) / 1000.0;
    if (is_process_event(e.op)) {
      std::snprintf(buf, sizeof buf,
                    "{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"process\",\"name\":\"%s\",\"ts\":%.3f,"
                    "\"pid\":%u,\"tid\":%u,"
                    "\"args\":{\"arg\":%" PRIu64 "}}",
                    to_string(e.op), ts_us, e.pid, e.tid, e.arg);
      out << buf;
      continue;
    }
    std::snprintf(buf, sizeof buf,
                  "{\"ph\":\"X\",\"cat\":\"%s\",\"name\":\"%s\",\"ts\":%.3f,\"dur\":%.3f,\"pid\":%"
                  "u,\"tid\":%u,\"args\":{",
                  is_read(e.op)    ? "read"
                  : is_write(e.op) ? "write"
                                   : "io",
                  to_string(e.op), ts_us, static_cast<double>(e.dur_ns) / 1000.0, e.pid, e.tid);
    out << buf;
    if (e.file != kNoFile && e.file < t.files.size())
      out << "\"path\":" << quoted(t.files[e.file].path) << ",";
    std::snprintf(buf, sizeof buf,
                  "\"fd\":%d,\"offset\":%" PRIu64 ",\"size\":%" PRIu64 ",\"ret\":%" PRId64 "}}",
                  e.fd, e.offset, e.size, e.ret);
    out << buf;
  }
  out << "\n]}\n";
}

Result<void> export_perfetto(const Trace& trace, const std::string& path) {
  std::ofstream out(path, std::ios::binary);
  if (!out) return runtime_error(path + ": cannot create file");
  export_perfetto(trace, out);
  out.flush();
  if (!out) return runtime_error(path + ": write failed");
  return ok();
}

}  // namespace dlgen::trace
