#pragma once
// Turns ring-buffer records (events.h) into the trace model: events with file indices, an interned
// files table and a process table. Pure user-space logic apart from best-effort /proc lookups for
// paths the kernel did not send (files opened before the capture, relative paths), which a test
// can turn off.
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "dlgen/trace/trace.hpp"
#include "http_tracker.hpp"

struct dl_io;
struct dl_proc;
struct dl_cuda;
struct dl_net;

namespace dlgen::capture {

class Interpreter {
 public:
  // start_mono_ns: CLOCK_MONOTONIC at trace start; event times become relative to it.
  explicit Interpreter(std::uint64_t start_mono_ns, bool use_proc = true)
      : start_mono_ns_(start_mono_ns), use_proc_(use_proc) {}

  // One ring-buffer record; returns false for a malformed one (too short, or of an unknown kind
  // or op), which is dropped and counted in malformed().
  bool on_record(const void* data, std::size_t size);

  // A process known before its events (the command's root, or -p's existing tree).
  void add_process(const trace::Process& p);

  // Removes and returns the buffered events in arrival order: each thread's own events in order,
  // threads interleaved by exit time (syscalls are reported at exit, stamped at entry). The trace
  // writer groups rows by thread and the reader sorts by entry time, so no sort is done here.
  std::vector<trace::Event> take_events();
  std::size_t buffered() const { return events_.size(); }
  // The HTTP requests completed since the last call (trace::HttpRequest, http_tracker.hpp);
  // `final`: every request still in progress too (the end of the capture).
  std::vector<trace::HttpRequest> take_http(bool final) {
    return final ? http_.take_all() : http_.take_done();
  }
  std::uint64_t events_seen() const { return events_seen_; }
  std::uint64_t malformed() const { return malformed_; }

  // Whether the exit of process (or thread) `pid` has been seen.
  bool exited(std::uint32_t pid) const {
    auto it = by_tid_.find(pid);
    return it != by_tid_.end() && processes_[it->second].end_ns != 0;
  }

  const std::vector<trace::File>& files() const { return files_; }
  const std::vector<trace::Process>& processes() const { return processes_; }

  // Kernel dev_t (major << 20 | minor) to the user-space encoding that stat(2) returns.
  static std::uint64_t user_dev(std::uint64_t kernel_dev);
  // Wait-status encoding to a shell-style status: code, or 128+signal.
  static int exit_status(std::int32_t wait_status);

 private:
  struct IdKey {
    std::uint64_t dev, ino;
    bool operator==(const IdKey&) const = default;
  };
  struct IdHash {
    std::size_t operator()(const IdKey& k) const { return k.dev * 0x9e3779b97f4a7c15ull ^ k.ino; }
  };

  // Each returns false, having changed nothing, for an op its record kind cannot carry.
  bool on_io(const dl_io& io, const char* path);
  bool on_proc(const dl_proc& p);
  bool on_cuda(const dl_cuda& r);
  bool on_net(const dl_net& r);
  std::uint32_t intern_id(std::uint64_t dev, std::uint64_t ino, std::uint64_t isize,
                          const std::string& path_hint, std::uint32_t pid, std::int32_t fd);
  std::uint32_t intern_path(const std::string& path);
  std::string resolve(const std::string& path, std::uint32_t pid, std::int64_t dirfd) const;
  std::string proc_fd_path(std::uint32_t pid, std::int32_t fd) const;
  trace::Process& process(std::uint32_t tid, std::uint32_t tgid);
  std::uint64_t rel(std::uint64_t mono_ns) const {
    return mono_ns > start_mono_ns_ ? mono_ns - start_mono_ns_ : 0;
  }

  std::uint64_t start_mono_ns_;
  bool use_proc_;
  std::uint64_t events_seen_ = 0;
  std::uint64_t malformed_ = 0;
  std::vector<trace::Event> events_;
  std::vector<trace::File> files_;
  std::unordered_map<IdKey, std::uint32_t, IdHash> by_id_;
  std::unordered_map<std::string, std::uint32_t> by_path_;
  // fd -> file per process, for io_uring submissions whose file identity is not known in the
  // kernel at submit time (registered files and closed fds cannot be resolved).
  std::unordered_map<std::uint64_t, std::uint32_t> fd_files_;  // (pid << 32 | fd) -> file
  std::vector<trace::Process> processes_;
  std::unordered_map<std::uint32_t, std::size_t> by_tid_;
  HttpTracker http_;
};

}  // namespace dlgen::capture
