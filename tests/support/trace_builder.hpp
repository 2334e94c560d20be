#pragma once
// The trace-building helpers shared by the tests' synthetic DataLoader traces
// (tests/analysis/sim.hpp, tests/compare/run_builder.hpp): a trace under construction, its clock,
// and one call each to add a process, a file or an event.
#include <cstdint>
#include <string>

#include "dlgen/trace/trace.hpp"

namespace dlgen::testing {

class TraceBuilder {
 protected:
  // Files get inode numbers from `first_ino` on, on device `dev`.
  explicit TraceBuilder(std::uint64_t first_ino = 1, std::uint64_t dev = 0)
      : first_ino_(first_ino), dev_(dev) {}

  void proc(std::uint32_t pid, std::uint32_t ppid, std::string comm, bool thread,
            std::uint32_t tgid) {
    trace::Process p;
    p.pid = pid;
    p.tgid = tgid;
    p.ppid = ppid;
    p.comm = comm;
    p.first_comm = comm;
    p.is_thread = thread;
    p.start_ns = now_;
    t_.processes.push_back(p);
  }

  std::uint32_t file(const std::string& path, std::uint64_t size, std::uint64_t magic = 0,
                     std::uint8_t magic_len = 0) {
    trace::File f;
    f.path = path;
    f.size_at_open = size;
    f.magic = magic;
    f.magic_len = magic_len;
    f.dev = dev_;
    f.ino = t_.files.size() + first_ino_;
    t_.files.push_back(f);
    return static_cast<std::uint32_t>(t_.files.size() - 1);
  }

  void ev(std::uint64_t ts, std::uint64_t dur, std::uint32_t pid, std::uint32_t tid, trace::Op op,
          std::uint32_t f, std::int32_t fd, std::uint64_t off, std::uint64_t size, std::int64_t ret,
          std::uint32_t flags = 0) {
    trace::Event e;
    e.ts_ns = ts;
    e.dur_ns = dur;
    e.pid = pid;
    e.tid = tid;
    e.op = op;
    e.file = f;
    e.fd = fd;
    e.offset = off;
    e.size = size;
    e.ret = ret;
    e.flags = flags;
    t_.events.push_back(e);
  }

  trace::Trace t_;
  std::uint64_t now_ = 1'000'000;

 private:
  std::uint64_t first_ino_, dev_;
};

}  // namespace dlgen::testing
