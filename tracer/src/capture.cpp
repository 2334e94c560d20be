// The capture loop: load and attach the BPF programs, start the command held on a pipe, seed the
// traced-tgid map, release the command, then poll the ring buffer and stream chunks to the writer.
#include "dlgen/capture/capture.hpp"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <future>
#include <map>
#include <memory>
#include <sstream>

#include "async_writer.hpp"
#include "capture_impl.hpp"
#include "cuda_probes.hpp"
#include "dlgen.skel.h"
#include "events.h"
#include "interpreter.hpp"

namespace dlgen::capture {
namespace {

std::uint64_t mono_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return std::uint64_t(ts.tv_sec) * 1000000000ull + std::uint64_t(ts.tv_nsec);
}
std::int64_t wall_ns() {
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  return std::int64_t(ts.tv_sec) * 1000000000ll + ts.tv_nsec;
}

// libbpf messages: kept (last few KiB) to explain a load failure; printed only when verbose.
std::string g_libbpf_log;
bool g_libbpf_verbose = false;
int libbpf_print(enum libbpf_print_level level, const char* fmt, va_list args) {
  if (level == LIBBPF_DEBUG && !g_libbpf_verbose) return 0;
  char buf[1024];
  int n = std::vsnprintf(buf, sizeof(buf), fmt, args);
  if (g_libbpf_verbose) std::fputs(buf, stderr);
  g_libbpf_log += buf;
  if (g_libbpf_log.size() > 8192) g_libbpf_log.erase(0, g_libbpf_log.size() - 8192);
  return n;
}

void mount_kernel_filesystems() {
  struct stat st {};
  if (::stat("/sys/kernel/tracing/events", &st) != 0)
    ::mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, nullptr);
  if (::stat("/sys/fs/bpf", &st) == 0) {
    std::ifstream mounts("/proc/mounts");
    std::string line;
    bool have = false;
    while (std::getline(mounts, line))
      if (line.find(" /sys/fs/bpf bpf ") != std::string::npos) have = true;
    if (!have) ::mount("bpf", "/sys/fs/bpf", "bpf", 0, nullptr);
  }
}

Error load_error(const char* what, int err) {
  std::string tail;
  if (auto p = g_libbpf_log.rfind("libbpf:", g_libbpf_log.size() > 2 ? g_libbpf_log.size() - 2 : 0);
      p != std::string::npos)
    tail = ": " + g_libbpf_log.substr(p, 300);
  if (err == EPERM || err == EACCES)
    return unsupported_error(std::string("no BPF privilege (") + what + ": " + std::strerror(err) +
                             "): run dlgen capture as root or with CAP_BPF, CAP_PERFMON and "
                             "CAP_SYS_RESOURCE");
  if (err == ENOENT || err == EOPNOTSUPP || err == ENOSYS || err == ESRCH)
    return unsupported_error(std::string("the kernel lacks a BPF feature dlgen needs (") + what +
                             ": " + std::strerror(err) + ")" + tail);
  return runtime_error(std::string("BPF ") + what + " failed: " + std::strerror(err) + tail);
}

// The loaded and attached BPF side (RAII).
class BpfSession {
 public:
  ~BpfSession() {
    if (rb_) ring_buffer__free(rb_);
    for (auto* l : links_) bpf_link__destroy(l);
    if (skel_) dlgen_bpf__destroy(skel_);
  }

  Result<void> open_and_load(const CaptureOptions& o) {
    libbpf_set_print(libbpf_print);
    g_libbpf_verbose = o.verbose;
    mount_kernel_filesystems();
    skel_ = dlgen_bpf__open();
    if (!skel_) return load_error("open", errno ? errno : EINVAL);
    skel_->rodata->with_block = o.block_layer ? 1 : 0;
    skel_->rodata->with_magic = o.record_magic ? 1 : 0;
    bpf_map__set_max_entries(skel_->maps.events, o.ring_buffer_bytes);
    bpf_map__set_max_entries(skel_->maps.uring_reqs,
                             std::max<std::uint32_t>(1, o.inflight_map_entries));
    bpf_map__set_max_entries(skel_->maps.block_reqs,
                             std::max<std::uint32_t>(1, o.inflight_map_entries));
    bpf_map__set_max_entries(skel_->maps.tgids, std::max<std::uint32_t>(1, o.process_map_entries));
    skel_->rodata->wakeup_bytes = std::min<std::uint64_t>(256u << 10, o.ring_buffer_bytes / 8);
    shared_.ring_bytes = o.ring_buffer_bytes;
    shared_.tgid_entries = std::max<std::uint32_t>(1, o.process_map_entries);
    shared_.wakeup_bytes = skel_->rodata->wakeup_bytes;
    if (!o.block_layer) {
      bpf_program__set_autoload(skel_->progs.dl_block_issue, false);
      bpf_program__set_autoload(skel_->progs.dl_block_complete, false);
    }
    if (int err = dlgen_bpf__load(skel_); err) return load_error("load", -err);
    shared_.events = bpf_map__fd(skel_->maps.events);
    shared_.tgids = bpf_map__fd(skel_->maps.tgids);
    shared_.lost = bpf_map__fd(skel_->maps.lost);
    return ok();
  }

  // The maps other BPF objects (cuda.bpf.c) share; valid once loaded.
  const SharedMaps& shared_maps() const { return shared_; }

  Result<void> attach() {
    bpf_program* progs[] = {skel_->progs.dl_sys_enter,     skel_->progs.dl_sys_exit,
                            skel_->progs.dl_uring_submit,  skel_->progs.dl_uring_complete,
                            skel_->progs.dl_fork,          skel_->progs.dl_exec,
                            skel_->progs.dl_exit,          skel_->progs.dl_rename,
                            skel_->progs.dl_block_issue,   skel_->progs.dl_block_complete,
                            skel_->progs.dl_filemap_fault, skel_->progs.dl_filemap_map_pages};
    for (auto* p : progs) {
      if (!bpf_program__autoload(p)) continue;
      bpf_link* l = bpf_program__attach(p);
      if (!l) return load_error(bpf_program__name(p), errno);
      links_.push_back(l);
      attached_.push_back(p);
    }
    return ok();
  }

  Result<void> open_ring(ring_buffer_sample_fn fn, void* ctx) {
    rb_ = ring_buffer__new(bpf_map__fd(skel_->maps.events), fn, ctx, nullptr);
    if (!rb_) return runtime_error(std::string("ring buffer: ") + std::strerror(errno));
    return ok();
  }

  // Adds a process to the traced set; false (errno set) when the map is full or out of memory.
  bool trace_tgid(std::uint32_t tgid) {
    std::uint8_t one = 1;
    return bpf_map_update_elem(bpf_map__fd(skel_->maps.tgids), &tgid, &one, BPF_ANY) == 0;
  }

  // What the kernel side dropped so far: the per-CPU counters summed, and the runs of the attached
  // programs that the kernel skipped because the same program was already running on that CPU
  // (a completion interrupting a completion); those hits may belong to untraced processes, so
  // `missed` is an upper bound. Counters that cannot be read count as 0.
  trace::LostEvents lost() const {
    trace::LostEvents out;
    const int ncpu = libbpf_num_possible_cpus();
    std::vector<std::uint64_t> v(static_cast<std::size_t>(std::max(ncpu, 1)));
    auto sum = [&](std::uint32_t reason) {
      std::uint64_t n = 0;
      if (ncpu > 0 && bpf_map_lookup_elem(bpf_map__fd(skel_->maps.lost), &reason, v.data()) == 0)
        for (auto x : v) n += x;
      return n;
    };
    out.ring_buffer = sum(DL_LOST_RINGBUF);
    out.uring_map = sum(DL_LOST_URING_MAP);
    out.block_map = sum(DL_LOST_BLOCK_MAP);
    out.process_map = sum(DL_LOST_PROCESS_MAP);
    out.task_storage = sum(DL_LOST_TASK_STORAGE);
    out.cuda_map = sum(DL_LOST_CUDA_MAP);
    static_assert(DL_LOST_NR == 6, "a new reason needs a field in trace::LostEvents");
    for (const auto* p : attached_) {
      bpf_prog_info info{};
      std::uint32_t len = sizeof(info);
      if (bpf_obj_get_info_by_fd(bpf_program__fd(p), &info, &len) == 0)
        out.missed += info.recursion_misses;
    }
    return out;
  }

  ring_buffer* ring() { return rb_; }

 private:
  dlgen_bpf* skel_ = nullptr;
  SharedMaps shared_;
  std::vector<bpf_link*> links_;
  std::vector<const bpf_program*> attached_;
  ring_buffer* rb_ = nullptr;
};

// Records per drain below which the polling loop naps 5 ms before the next one.
constexpr int kBatchRecords = 8192;

int on_sample(void* ctx, void* data, std::size_t size) {
  static_cast<Interpreter*>(ctx)->on_record(data, size);
  return 0;
}

// Signals: set while a capture runs. The terminal delivers Ctrl-C to the whole foreground group,
// child included (si_code SI_KERNEL); a kill(2) aimed at dlgen alone is forwarded to the child.
volatile sig_atomic_t g_stop = 0;
volatile pid_t g_child = 0;
void on_signal(int sig, siginfo_t* info, void*) {
  g_stop = sig;
  if (g_child > 0 && info && info->si_code != SI_KERNEL) ::kill(g_child, sig);
}

class SignalScope {
 public:
  SignalScope() {
    g_stop = 0;
    struct sigaction sa {};
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
  }
  ~SignalScope() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
    g_child = 0;
  }

 private:
  struct sigaction old_int_ {
  }, old_term_{};
};

std::string read_file(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

// pid -> ppid for every process now in /proc.
std::map<std::uint32_t, std::uint32_t> proc_parents() {
  std::map<std::uint32_t, std::uint32_t> out;
  DIR* d = ::opendir("/proc");
  if (!d) return out;
  while (dirent* e = ::readdir(d)) {
    char* end = nullptr;
    unsigned long pid = std::strtoul(e->d_name, &end, 10);
    if (!end || *end || pid == 0) continue;
    std::string stat = read_file("/proc/" + std::string(e->d_name) + "/stat");
    auto rp = stat.rfind(')');
    if (rp == std::string::npos) continue;
    std::istringstream rest(stat.substr(rp + 2));
    std::string state;
    std::uint32_t ppid = 0;
    rest >> state >> ppid;
    out[static_cast<std::uint32_t>(pid)] = ppid;
  }
  ::closedir(d);
  return out;
}

// The child side of the held start: wait for the go byte, then exec; report exec failure's errno.
[[noreturn]] void run_child(int go_fd, int err_fd, const std::vector<std::string>& command) {
  char c = 0;
  if (::read(go_fd, &c, 1) != 1) ::_exit(127);  // go_fd is O_CLOEXEC: exec closes it
  std::vector<char*> argv;
  for (const auto& a : command) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  ::execvp(argv[0], argv.data());
  int e = errno;
  [[maybe_unused]] auto n = ::write(err_fd, &e, sizeof(e));
  ::_exit(127);
}

trace::Meta base_meta(const CaptureOptions& o, std::uint64_t start_mono, std::int64_t start_wall) {
  trace::Meta m;
  m.command = o.command;
  m.start_mono_ns = start_mono;
  m.start_wall_ns = start_wall;
  char host[256] = {};
  ::gethostname(host, sizeof(host) - 1);
  m.host = host;
  m.rank = o.rank;
  m.world_size = o.world_size;
  utsname u{};
  if (::uname(&u) == 0)
    m.kernel = std::string(u.sysname) + " " + u.release + " " + u.version + " " + u.machine;
  m.dlgen_version = DLGEN_VERSION;
  m.block_layer = o.block_layer;
  m.complete = false;
  return m;
}

}  // namespace

Result<void> probe_bpf() {
  BpfSession s;
  CaptureOptions o;
  o.ring_buffer_bytes = 1u << 16;
  return s.open_and_load(o);
}

Result<CaptureResult> capture(const CaptureOptions& o, trace::TraceWriter& sink) {
  return capture_with(o, [&sink]() -> Result<trace::TraceWriter*> { return &sink; });
}

Result<CaptureResult> capture_with(const CaptureOptions& o, const SinkOpener& open_sink) {
  if (o.command.empty() && o.attach_pid == 0)
    return input_error("capture: give a command or -p PID");
  if (!o.command.empty() && o.attach_pid != 0)
    return input_error("capture: give a command or -p PID, not both");
  if (o.ring_buffer_bytes < 4096 || (o.ring_buffer_bytes & (o.ring_buffer_bytes - 1)))
    return input_error("capture: the ring buffer size must be a power of two >= 4096");
  if (o.attach_pid != 0 && ::kill(static_cast<pid_t>(o.attach_pid), 0) != 0 && errno == ESRCH)
    return input_error("capture: no process " + std::to_string(o.attach_pid));
  if (o.cuda && !o.cuda_lib.empty()) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(o.cuda_lib, ec))
      return input_error("capture: CUDA driver library " + o.cuda_lib.string() +
                         ": no such file (--cuda-lib or DLGEN_CUDA_LIB)");
  }

  // With --verbose, where the fixed costs go (they count against short runs).
  std::uint64_t phase_start = mono_ns();
  auto phase = [&](const char* what) {
    if (!o.verbose) return;
    std::uint64_t now = mono_ns();
    std::fprintf(stderr, "dlgen capture: %s %.1f ms\n", what, (now - phase_start) / 1e6);
    phase_start = now;
  };
  BpfSession bpf;
  if (auto r = bpf.open_and_load(o); !r) return r.error();
  phase("BPF load (BTF, verifier, maps)");
  if (auto r = bpf.attach(); !r) return r.error();
  phase("attach");

  // The CUDA driver API probes, attached before the command starts like the rest. They never fail
  // the capture: what could not be done is noted in the trace's metadata.
  trace::GpuInfo gpu;
  CudaProbes cuda;
  std::filesystem::path lib = o.cuda_lib;
  if (o.cuda) {
    std::string looked;
    if (lib.empty()) {
      const char* ld_path = std::getenv("LD_LIBRARY_PATH");
      lib = find_cuda_lib(ld_path ? ld_path : "", &looked);
    }
    if (lib.empty()) {
      gpu.note = "no libcuda.so.1 found (looked in " + looked + "): no CUDA probes";
    } else if (auto note = cuda.attach(lib, bpf.shared_maps()); !note.empty()) {
      gpu.note = note;
      std::fprintf(stderr, "dlgen capture: %s\n", note.c_str());
    } else {
      std::error_code ec;
      gpu.cuda_lib = std::filesystem::absolute(lib, ec).lexically_normal().string();
      gpu.cuda_probes = cuda.probed();
    }
    phase("CUDA probes");
  } else {
    gpu.note = "CUDA probes off (--no-cuda)";
  }

  SignalScope signals;
  CaptureResult result;
  pid_t child = 0;
  int go[2] = {-1, -1}, err[2] = {-1, -1};
  if (!o.command.empty()) {
    if (::pipe2(go, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0)
      return runtime_error(std::string("pipe: ") + std::strerror(errno));
    child = ::fork();
    if (child < 0) return runtime_error(std::string("fork: ") + std::strerror(errno));
    if (child == 0) {
      signal(SIGINT, SIG_DFL);
      signal(SIGTERM, SIG_DFL);
      ::close(go[1]);
      ::close(err[0]);
      run_child(go[0], err[1], o.command);
    }
    ::close(go[0]);
    ::close(err[1]);
    g_child = child;
  }

  // The trace file is opened after the fork: the command must not inherit its descriptor (an
  // inherited HDF5 file lock would outlive a killed dlgen and make the trace unreadable).
  auto opened = open_sink();
  if (!opened) {
    if (child > 0) {
      ::kill(child, SIGKILL);
      ::waitpid(child, nullptr, 0);
    }
    return opened.error();
  }
  // Compression and writes run on their own thread: polling never waits for deflate.
  AsyncWriter sink(**opened, 8);

  const std::uint64_t start_mono = mono_ns();
  const std::int64_t start_wall = wall_ns();
  Interpreter interp(start_mono);
  trace::Meta meta = base_meta(o, start_mono, start_wall);
  meta.gpu = gpu;
  // NVML's start can take a second on a GPU without persistence mode: asked beside the run, on a
  // thread started after the fork (the child must not inherit a thread inside dlopen).
  std::future<trace::GpuInfo> nvml;
  if (o.cuda) nvml = std::async(std::launch::async, [lib] { return query_gpus(lib); });
  // NVML's answer joins the metadata once it is there (at the latest when the capture ends).
  auto take_nvml = [&](bool wait) {
    if (!nvml.valid()) return;
    if (!wait && nvml.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
    trace::GpuInfo g = nvml.get();
    meta.gpu.devices = std::move(g.devices);
    meta.gpu.driver = std::move(g.driver);
    if (!g.note.empty())
      meta.gpu.note = meta.gpu.note.empty() ? g.note : meta.gpu.note + "; " + g.note;
  };
  if (auto r = bpf.open_ring(on_sample, &interp); !r) {
    if (child > 0) {
      ::kill(child, SIGKILL);
      ::waitpid(child, nullptr, 0);
    }
    return r.error();
  }

  phase("ring buffer and trace file");
  std::uint64_t untraced_processes = 0;  // -p: descendants the tgids map had no room for
  if (child > 0) {
    if (!bpf.trace_tgid(static_cast<std::uint32_t>(child))) {
      const int e = errno;
      ::kill(child, SIGKILL);
      ::waitpid(child, nullptr, 0);
      return runtime_error(std::string("capture: cannot add the command to the traced set: ") +
                           std::strerror(e));
    }
    trace::Process root;
    root.pid = root.tgid = static_cast<std::uint32_t>(child);
    root.ppid = static_cast<std::uint32_t>(::getpid());
    root.comm = root.first_comm =
        std::filesystem::path(o.command[0]).filename().string().substr(0, 15);
    interp.add_process(root);
    char c = 'g';
    [[maybe_unused]] auto n = ::write(go[1], &c, 1);  // release the command
    ::close(go[1]);
    int e = 0;
    ssize_t got;
    do got = ::read(err[0], &e, sizeof(e));
    while (got < 0 && errno == EINTR);
    ::close(err[0]);
    if (got == static_cast<ssize_t>(sizeof(e)))
      result.exec_error = "cannot run '" + o.command[0] + "': " + std::strerror(e);
  } else {
    // -p: the process, its threads and its existing descendants (found through /proc).
    auto parents = proc_parents();
    std::vector<std::uint32_t> todo{o.attach_pid};
    while (!todo.empty()) {
      std::uint32_t pid = todo.back();
      todo.pop_back();
      if (!bpf.trace_tgid(pid)) {
        if (pid == o.attach_pid)
          return runtime_error("capture: cannot add process " + std::to_string(pid) +
                               " to the traced set: " + std::strerror(errno));
        ++untraced_processes;  // counted as lost; its descendants are still tried
      }
      trace::Process p;
      p.pid = p.tgid = pid;
      p.ppid = parents.count(pid) ? parents[pid] : 0;
      p.comm = p.first_comm = trim(read_file("/proc/" + std::to_string(pid) + "/comm"));
      interp.add_process(p);
      if (DIR* d = ::opendir(("/proc/" + std::to_string(pid) + "/task").c_str())) {
        while (dirent* t = ::readdir(d)) {
          std::uint32_t tid = static_cast<std::uint32_t>(std::strtoul(t->d_name, nullptr, 10));
          if (tid == 0 || tid == pid) continue;
          trace::Process th;
          th.pid = tid;
          th.tgid = th.ppid = pid;
          th.is_thread = true;
          th.comm = th.first_comm =
              trim(read_file("/proc/" + std::to_string(pid) + "/task/" + t->d_name + "/comm"));
          interp.add_process(th);
        }
        ::closedir(d);
      }
      for (auto& [c, pp] : parents)
        if (pp == pid) todo.push_back(c);
    }
    std::string cmdline = read_file("/proc/" + std::to_string(o.attach_pid) + "/cmdline");
    std::string arg;
    for (char ch : cmdline) {
      if (ch == 0) {
        meta.command.push_back(arg);
        arg.clear();
      } else
        arg += ch;
    }
    if (!arg.empty()) meta.command.push_back(arg);
  }

  std::uint64_t appended = 0;
  auto write_chunk = [&](bool final, bool timed) -> Result<void> {
    const std::uint64_t now = mono_ns() - start_mono;
    auto chunk = interp.take_events();
    if (!chunk.empty()) {
      appended += chunk.size();
      if (auto r = sink.append(std::move(chunk)); !r) return r;
    }
    meta.duration_ns = now;
    meta.lost = bpf.lost();
    meta.lost.missed += cuda.missed();
    meta.lost.process_map += untraced_processes;
    meta.lost.malformed = interp.malformed();
    meta.lost_events = meta.lost.total();
    take_nvml(final);
    if (final || !timed) return ok();
    return sink.flush(meta, interp.files(), interp.processes());
  };

  const std::uint64_t deadline = o.duration.count() > 0 ? start_mono + o.duration.count() : 0;
  std::uint64_t last_flush = mono_ns();
  bool child_done = child <= 0 || !result.exec_error.empty();
  int status = 0;
  if (child > 0 && !result.exec_error.empty()) {
    ::waitpid(child, &status, 0);
    result.exit_status = 127;
  }
  // The loop's own failure: the command must not run on untraced, and what was flushed is kept
  // (made whole once more, marked incomplete) for capture() to keep as NAME.partial.h5.
  auto loop_failed = [&](Error err) -> Error {
    if (child > 0 && !child_done) {
      ::kill(child, SIGKILL);
      ::waitpid(child, nullptr, 0);
    }
    meta.complete = false;
    if (write_chunk(false, true))
      err.message += " (the command was killed; what was traced so far is kept)";
    return err;
  };
  const std::uint64_t fail_at =
      o.fail_poll_after.count() > 0
          ? mono_ns() + static_cast<std::uint64_t>(o.fail_poll_after.count()) * 1000000ull
          : 0;
  while (!child_done || (child <= 0 && o.attach_pid != 0)) {
    // Drain in batches: epoll reports the ring readable as soon as one record waits, so
    // polling after every small drain would spin through epoll_wait/waitpid (and their syscall
    // tracepoints) a few records at a time. After a small drain, sleep briefly and let records
    // accumulate (the default 32 MiB ring holds ~0.3 s at 1M events/s); with nothing waiting, sleep
    // in epoll until the kernel side's wakeup (at each 256 KiB of records) or the timeout.
    int n = ring_buffer__consume(bpf.ring());
    if (fail_at != 0 && mono_ns() >= fail_at) n = -EIO;
    if (n < 0 && n != -EINTR)
      return loop_failed(runtime_error(std::string("ring buffer: ") + std::strerror(-n)));
    if (n == 0) {
      n = ring_buffer__poll(bpf.ring(), 50);
      if (n < 0 && n != -EINTR)
        return loop_failed(runtime_error(std::string("ring buffer poll: ") + std::strerror(-n)));
    } else if (n < kBatchRecords) {
      timespec nap{0, 5'000'000};
      ::nanosleep(&nap, nullptr);
    }
    if (child > 0) {
      pid_t w = ::waitpid(child, &status, WNOHANG);
      if (w == child) {
        child_done = true;
        result.exit_status = WIFEXITED(status)     ? WEXITSTATUS(status)
                             : WIFSIGNALED(status) ? 128 + WTERMSIG(status)
                                                   : 1;
        break;
      }
    } else if (interp.exited(o.attach_pid) ||
               (::kill(static_cast<pid_t>(o.attach_pid), 0) != 0 && errno == ESRCH)) {
      break;  // the attached process is gone (its exit seen, or not even a zombie left)
    }
    if (g_stop && child <= 0) {
      result.interrupted = true;  // -p: Ctrl-C ends the capture, the process keeps running
      break;
    }
    if (deadline && mono_ns() >= deadline) {
      result.interrupted = true;  // --duration: stop tracing; the command is left running
      break;
    }
    // Every flush_interval the file is made consistent on disk (a killed capture keeps it);
    // in between, full chunks of events go to the writer thread.
    if (mono_ns() - last_flush >= std::uint64_t(o.flush_interval.count()) * 1000000ull) {
      if (auto r = write_chunk(false, true); !r) return loop_failed(r.error());
      last_flush = mono_ns();
    } else if (interp.buffered() >= o.flush_events) {
      if (auto r = write_chunk(false, false); !r) return loop_failed(r.error());
    }
  }
  phase("traced run");
  if (g_stop) result.interrupted = true;
  // Everything the kernel submitted before the command's exit is in the ring buffer now.
  while (ring_buffer__consume(bpf.ring()) > 0) {
  }
  if (auto r = write_chunk(true, true); !r) return r.error();
  meta.exit_status = result.exit_status;
  meta.complete = true;
  if (auto r = sink.finish(meta, interp.files(), interp.processes()); !r) return r.error();
  phase("drain and finish the trace");
  if (o.verbose) {
    rusage self{};
    ::getrusage(RUSAGE_SELF, &self);
    std::fprintf(stderr, "dlgen capture: dlgen's own CPU %.3f s user, %.3f s system\n",
                 self.ru_utime.tv_sec + self.ru_utime.tv_usec / 1e6,
                 self.ru_stime.tv_sec + self.ru_stime.tv_usec / 1e6);
  }

  result.events = appended;
  result.lost_events = meta.lost_events;
  result.lost = meta.lost;
  result.files = interp.files().size();
  result.processes = interp.processes().size();
  result.duration = std::chrono::nanoseconds(meta.duration_ns);
  return result;
}

}  // namespace dlgen::capture
