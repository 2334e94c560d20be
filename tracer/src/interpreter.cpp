#include "interpreter.hpp"

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>

#include "events.h"

namespace dlgen::capture {
namespace {

constexpr std::int64_t kAtFdcwd = -100;

std::string read_link(const std::string& p) {
  char buf[4096];
  ssize_t n = ::readlink(p.c_str(), buf, sizeof(buf) - 1);
  if (n <= 0) return {};
  return std::string(buf, static_cast<std::size_t>(n));
}

std::string comm_of(const char* comm) {
  return std::string(comm, strnlen(comm, DL_COMM_LEN));
}

}  // namespace

std::uint64_t Interpreter::user_dev(std::uint64_t kernel_dev) {
  return makedev(static_cast<unsigned>(kernel_dev >> 20),
                 static_cast<unsigned>(kernel_dev & 0xfffff));
}

int Interpreter::exit_status(std::int32_t wait_status) {
  if (wait_status & 0x7f) return 128 + (wait_status & 0x7f);
  return (wait_status >> 8) & 0xff;
}

bool Interpreter::on_record(const void* data, std::size_t size) {
  bool good = false;
  const auto kind = size >= 1 ? *static_cast<const std::uint8_t*>(data) : 0;
  if (kind == DL_K_IO && size >= sizeof(dl_io)) {
    good = on_io(*static_cast<const dl_io*>(data), nullptr);
  } else if (kind == DL_K_PATH && size >= sizeof(dl_path)) {
    const auto* r = static_cast<const dl_path*>(data);
    char path[DL_PATH_MAX + 1];
    std::memcpy(path, r->path, DL_PATH_MAX);
    path[DL_PATH_MAX] = 0;
    good = on_io(r->io, path);
  } else if (kind == DL_K_PROC && size >= sizeof(dl_proc)) {
    good = on_proc(*static_cast<const dl_proc*>(data));
  } else if (kind == DL_K_CUDA && size >= sizeof(dl_cuda)) {
    good = on_cuda(*static_cast<const dl_cuda*>(data));
  } else if (kind == DL_K_NET && size >= DL_NET_HEAD) {
    const auto* r = static_cast<const dl_net*>(data);
    good = r->data_len < DL_NET_DATA && size >= DL_NET_HEAD + r->data_len && on_net(*r);
  }
  ++(good ? events_seen_ : malformed_);
  return good;
}

std::string Interpreter::proc_fd_path(std::uint32_t pid, std::int32_t fd) const {
  if (!use_proc_ || fd < 0) return {};
  return read_link("/proc/" + std::to_string(pid) + "/fd/" + std::to_string(fd));
}

// Paths from the kernel are as the program passed them; relative ones are made absolute with the
// process's cwd or dirfd as seen in /proc now (best effort: the process may have moved on).
std::string Interpreter::resolve(const std::string& path, std::uint32_t pid,
                                 std::int64_t dirfd) const {
  if (path.empty() || path[0] == '/' || !use_proc_) return path;
  std::string base = dirfd == kAtFdcwd ? read_link("/proc/" + std::to_string(pid) + "/cwd")
                                       : proc_fd_path(pid, static_cast<std::int32_t>(dirfd));
  if (base.empty() || base[0] != '/') return path;
  return (std::filesystem::path(base) / path).lexically_normal().string();
}

std::uint32_t Interpreter::intern_path(const std::string& path) {
  if (auto it = by_path_.find(path); it != by_path_.end()) return it->second;
  auto index = static_cast<std::uint32_t>(files_.size());
  trace::File f;
  f.path = path;
  files_.push_back(std::move(f));
  by_path_.emplace(path, index);
  return index;
}

std::uint32_t Interpreter::intern_id(std::uint64_t dev, std::uint64_t ino, std::uint64_t isize,
                                     const std::string& path_hint, std::uint32_t pid,
                                     std::int32_t fd) {
  IdKey key{dev, ino};
  if (auto it = by_id_.find(key); it != by_id_.end()) {
    // An open under another name: the inode number was freed and reused (or a hard link), so
    // the name at this open wins from now on.
    if (path_hint.empty() || files_[it->second].path == path_hint) return it->second;
    by_id_.erase(it);
  }
  std::string path = path_hint;
  if (path.empty()) {
    // The fd may have been closed and its number reused by the time the event is interpreted:
    // take the name /proc shows only if that file is still this very inode (else an eventfd
    // read would be named after the data file that now holds the fd number).
    std::string now = proc_fd_path(pid, fd);
    struct stat st {};
    const std::string link = "/proc/" + std::to_string(pid) + "/fd/" + std::to_string(fd);
    if (!now.empty() && ::stat(link.c_str(), &st) == 0 &&
        static_cast<std::uint64_t>(st.st_dev) == dev &&
        static_cast<std::uint64_t>(st.st_ino) == ino)
      path = std::move(now);
  }
  if (path.empty())
    path = "<dev " + std::to_string(major(dev)) + ":" + std::to_string(minor(dev)) + " ino " +
           std::to_string(ino) + ">";
  std::uint32_t index;
  auto named = by_path_.find(path);
  if (named != by_path_.end() && files_[named->second].ino == 0 && files_[named->second].dev == 0) {
    index = named->second;  // seen by name only (stat, unlink...): now its identity is known
  } else if (named != by_path_.end()) {
    // Same path, other inode (replaced file): a new entry, path marked with the inode.
    index = static_cast<std::uint32_t>(files_.size());
    files_.push_back({});
    files_[index].path = path;
  } else {
    index = intern_path(path);
  }
  files_[index].dev = dev;
  files_[index].ino = ino;
  files_[index].size_at_open = isize;
  by_id_.emplace(key, index);
  return index;
}

trace::Process& Interpreter::process(std::uint32_t tid, std::uint32_t tgid) {
  if (auto it = by_tid_.find(tid); it != by_tid_.end()) return processes_[it->second];
  trace::Process p;
  p.pid = tid;
  p.tgid = tgid;
  p.is_thread = tid != tgid;
  if (p.is_thread) p.ppid = tgid;
  by_tid_.emplace(tid, processes_.size());
  processes_.push_back(std::move(p));
  return processes_.back();
}

void Interpreter::add_process(const trace::Process& p) {
  auto& row = process(p.pid, p.tgid);
  row = p;
}

bool Interpreter::on_io(const dl_io& io, const char* path_arg) {
  // Process ops come as dl_proc; larger ones than fault are unknown.
  if ((io.op >= DL_OP_FORK && io.op <= DL_OP_THREAD) || io.op > DL_OP_FAULT) return false;
  trace::Event e;
  e.ts_ns = rel(io.ts_ns);
  e.dur_ns = io.dur_ns;
  e.pid = io.pid;
  e.tid = io.tid;
  e.op = static_cast<trace::Op>(io.op);
  e.fd = io.fd;
  e.offset = io.offset;
  e.size = io.size;
  e.ret = io.ret;
  e.flags = io.flags;
  e.arg = io.arg;
  std::string path;
  // dirfd is an int argument: the register's upper half is not sign-extended.
  // path_abs 1: the kernel named the opened file itself; 2: the kernel named the cwd or dirfd and
  // appended the argument as passed ("." and ".." are removed here); 0: the argument as passed,
  // resolved against the cwd or dirfd seen in /proc now (the fallback, racy).
  if (path_arg && io.path_abs == 1)
    path = path_arg;
  else if (path_arg && io.path_abs == 2)
    path = std::filesystem::path(path_arg).lexically_normal().string();
  else if (path_arg)
    path = resolve(path_arg, io.pid, static_cast<std::int32_t>(io.arg));
  const bool is_open = io.op == DL_OP_OPEN;
  if (is_open && io.ret >= 0 && !io.path_abs && path.size() > 0 && path[0] != '/' && use_proc_) {
    std::string p = proc_fd_path(io.pid, static_cast<std::int32_t>(io.ret));
    if (!p.empty() && p[0] == '/') path = p;
  }
  if (io.op == DL_OP_BLOCK || io.op == DL_OP_FAULT) {
    // The file whose pages the block request moves or the fault maps: only one the program
    // opened (a library mapped by exec, or the block device's own inode, is left unattributed
    // rather than interned nameless).
    if (io.dev != 0 || io.ino != 0)
      if (auto it = by_id_.find(IdKey{user_dev(io.dev), io.ino}); it != by_id_.end())
        e.file = it->second;
  } else if (io.dev != 0 || io.ino != 0) {
    std::int32_t fd = is_open ? static_cast<std::int32_t>(io.ret) : io.fd;
    e.file = intern_id(user_dev(io.dev), io.ino, io.isize, path, io.pid, fd);
  } else if (path_arg && !path.empty()) {
    e.file = intern_path(path);
  } else if (io.fd >= 0) {
    if (auto it = fd_files_.find(std::uint64_t{io.pid} << 32 | static_cast<std::uint32_t>(io.fd));
        it != fd_files_.end())
      e.file = it->second;
  }
  if (is_open && io.ret >= 0 && e.file != trace::kNoFile) {
    fd_files_[std::uint64_t{io.pid} << 32 | static_cast<std::uint32_t>(io.ret)] = e.file;
    e.fd = static_cast<std::int32_t>(io.ret);
    if (files_[e.file].path.rfind("/dev/shm/", 0) == 0) e.op = trace::Op::shm_open;
  }
  if (io.op == DL_OP_CLOSE && io.fd >= 0) {
    fd_files_.erase(std::uint64_t{io.pid} << 32 | static_cast<std::uint32_t>(io.fd));
    http_.on_close(io.pid, io.fd);
  }
  if (io.magic_len > 0 && e.file != trace::kNoFile && files_[e.file].magic_len == 0) {
    std::uint64_t m = io.magic;
    if (io.magic_len < 8) m &= (std::uint64_t{1} << (8 * io.magic_len)) - 1;
    files_[e.file].magic = m;
    files_[e.file].magic_len = io.magic_len;
  }
  events_.push_back(e);
  return true;
}

bool Interpreter::on_proc(const dl_proc& r) {
  trace::Event e;
  e.ts_ns = rel(r.ts_ns);
  e.pid = r.pid;
  e.tid = r.tid;
  e.op = static_cast<trace::Op>(r.op);
  const std::string comm = comm_of(r.comm);
  switch (r.op) {
    case DL_OP_FORK:
    case DL_OP_THREAD: {
      e.arg = r.child_pid;
      auto& child = process(r.child_pid, r.child_tgid);
      child.tgid = r.child_tgid;
      child.is_thread = r.op == DL_OP_THREAD;
      child.ppid = r.op == DL_OP_THREAD ? r.child_tgid : r.pid;
      child.comm = child.first_comm = comm;
      child.start_ns = e.ts_ns;
      break;
    }
    case DL_OP_EXEC: {
      e.arg = r.child_pid;  // pid before exec (differs when a non-leader thread execs)
      auto& p = process(r.pid, r.pid);
      if (p.first_comm.empty()) p.first_comm = comm;
      p.comm = comm;
      break;
    }
    case DL_OP_EXIT: {
      e.tid = r.tid;
      e.arg = static_cast<std::uint64_t>(exit_status(r.code));
      auto& p = process(r.tid, r.pid);
      p.end_ns = std::max<std::uint64_t>(e.ts_ns, 1);
      p.exit_code = exit_status(r.code);
      if (p.comm.empty()) p.comm = p.first_comm = comm;
      break;
    }
    case DL_OP_TASK_RENAME: {
      auto& p = process(r.tid, r.pid);
      if (p.first_comm.empty()) p.first_comm = p.comm.empty() ? comm : p.comm;
      p.comm = comm;
      break;
    }
    default:
      return false;  // not a process op
  }
  events_.push_back(e);
  return true;
}

// A CUDA driver call: no file, no fd; the stream (or event) handle in `arg`, the kernel's function
// handle in `offset`, the driver function's id in `flags`, minus the CUresult in `ret`
// (docs/trace-format.md, "CUDA events").
bool Interpreter::on_cuda(const dl_cuda& r) {
  if (r.op < DL_OP_CUDA_SYNC || r.op > DL_OP_CUDA_LAUNCH || (r.api & 0xff) >= DL_CU_NR)
    return false;
  trace::Event e;
  e.ts_ns = rel(r.ts_ns);
  e.dur_ns = r.dur_ns;
  e.pid = r.pid;
  e.tid = r.tid;
  e.op = static_cast<trace::Op>(r.op);
  e.size = r.bytes;
  e.ret = -static_cast<std::int64_t>(r.ret);  // CUresult: 0 success, else an error (as -errno)
  e.flags = r.api;
  e.arg = r.handle;
  e.offset = r.func;
  events_.push_back(e);
  return true;
}

// A send or receive on a TCP socket: no event of its own, a part of an HTTP request's row.
bool Interpreter::on_net(const dl_net& r) {
  if (r.op != DL_NET_SEND && r.op != DL_NET_RECV) return false;
  const std::uint64_t ts = rel(r.ts_ns);
  http_.on_net(r, ts, ts + r.dur_ns);
  return true;
}

std::vector<trace::Event> Interpreter::take_events() {
  std::vector<trace::Event> out;
  out.reserve(events_.capacity());
  out.swap(events_);
  return out;
}

}  // namespace dlgen::capture
