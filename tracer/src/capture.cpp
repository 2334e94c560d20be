// The capture, step by step: check the options, load and attach the BPF side (and the CUDA
// probes), start the command held on a pipe, open the trace, seed the traced set and release the
// command (or take over a running tree with -p), poll until the run ends, then drain and finish
// the trace. Each step lives in its own file: bpf_session (the BPF side), traced_command (the
// command's start, signals and reaping), attach_tree (-p), poll_loop, recorder (the flush).
#include "dlgen/capture/capture.hpp"

#include <signal.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <future>

#include "attach_tree.hpp"
#include "bpf_session.hpp"
#include "capture_impl.hpp"
#include "cuda_probes.hpp"
#include "interpreter.hpp"
#include "poll_loop.hpp"
#include "recorder.hpp"
#include "traced_command.hpp"

namespace dlgen::capture {
namespace {

std::int64_t wall_ns() {
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  return std::int64_t(ts.tv_sec) * 1000000000ll + ts.tv_nsec;
}

Result<void> check_options(const CaptureOptions& o) {
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
  return ok();
}

// With --verbose, where the fixed costs go (they count against short runs).
class PhaseTimer {
 public:
  explicit PhaseTimer(bool verbose) : verbose_(verbose), start_(mono_ns()) {}
  void operator()(const char* what) {
    if (!verbose_) return;
    std::uint64_t now = mono_ns();
    std::fprintf(stderr, "dlgen capture: %s %.1f ms\n", what, (now - start_) / 1e6);
    start_ = now;
  }

 private:
  bool verbose_;
  std::uint64_t start_;
};

// The CUDA driver API probes, attached before the command starts like the rest. They never fail
// the capture: what could not be done is noted in the trace's metadata. `lib` becomes the driver
// library probed (looked up when the options name none).
trace::GpuInfo attach_cuda_probes(const CaptureOptions& o, const BpfSession& bpf, CudaProbes& cuda,
                                  std::filesystem::path& lib) {
  trace::GpuInfo gpu;
  lib = o.cuda_lib;
  if (!o.cuda) {
    gpu.note = "CUDA probes off (--no-cuda)";
    return gpu;
  }
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
  return gpu;
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

int on_sample(void* ctx, void* data, std::size_t size) {
  static_cast<Interpreter*>(ctx)->on_record(data, size);
  return 0;
}

// Puts the traced tree into the traced set before any of its I/O: the held command's pid (then
// releases it: a failed exec is its exit status 127), or -p's running tree.
Result<void> start_tracing(const CaptureOptions& o, BpfSession& bpf, Interpreter& interp,
                           Recorder& recorder, HeldCommand& command, CaptureResult& result) {
  if (!command) {
    auto untraced = trace_running_tree(o.attach_pid, bpf, interp);
    if (!untraced) return untraced.error();
    recorder.count_untraced(*untraced);
    recorder.meta().command = command_line_of(o.attach_pid);
    return ok();
  }
  const auto pid = static_cast<std::uint32_t>(command.pid());
  if (!bpf.trace_tgid(pid)) {
    const int e = errno;
    command.kill();
    return runtime_error(std::string("capture: cannot add the command to the traced set: ") +
                         std::strerror(e));
  }
  trace::Process root;
  root.pid = root.tgid = pid;
  root.ppid = static_cast<std::uint32_t>(::getpid());
  root.comm = root.first_comm =
      std::filesystem::path(o.command[0]).filename().string().substr(0, 15);
  interp.add_process(root);
  result.exec_error = command.release();
  if (!result.exec_error.empty()) {
    command.wait();
    result.exit_status = 127;
  }
  return ok();
}

void print_own_cpu() {
  rusage self{};
  ::getrusage(RUSAGE_SELF, &self);
  std::fprintf(stderr, "dlgen capture: dlgen's own CPU %.3f s user, %.3f s system\n",
               self.ru_utime.tv_sec + self.ru_utime.tv_usec / 1e6,
               self.ru_stime.tv_sec + self.ru_stime.tv_usec / 1e6);
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
  if (auto r = check_options(o); !r) return r.error();
  PhaseTimer phase(o.verbose);
  BpfSession bpf;
  if (auto r = bpf.open_and_load(o); !r) return r.error();
  phase("BPF load (BTF, verifier, maps)");
  if (auto r = bpf.attach(); !r) return r.error();
  phase("attach");
  CudaProbes cuda;
  std::filesystem::path cuda_lib;
  const trace::GpuInfo gpu = attach_cuda_probes(o, bpf, cuda, cuda_lib);
  if (o.cuda) phase("CUDA probes");

  SignalScope signals;
  HeldCommand command;
  if (!o.command.empty()) {
    auto held = HeldCommand::fork(o.command);
    if (!held) return held.error();
    command = std::move(*held);
  }
  // The trace file is opened after the fork: the command must not inherit its descriptor (an
  // inherited HDF5 file lock would outlive a killed dlgen and make the trace unreadable).
  auto opened = open_sink();
  if (!opened) {
    command.kill();
    return opened.error();
  }
  const std::uint64_t start_mono = mono_ns();
  Interpreter interp(start_mono);
  trace::Meta meta = base_meta(o, start_mono, wall_ns());
  meta.gpu = gpu;
  Recorder recorder(**opened, interp, bpf, cuda, std::move(meta));
  // NVML's start can take a second on a GPU without persistence mode: asked beside the run, on a
  // thread started after the fork (the child must not inherit a thread inside dlopen).
  if (o.cuda)
    recorder.await_gpus(
        std::async(std::launch::async, [cuda_lib] { return query_gpus(cuda_lib); }));
  if (auto r = bpf.open_ring(on_sample, &interp); !r) {
    command.kill();
    return r.error();
  }
  phase("ring buffer and trace file");

  CaptureResult result;
  if (auto r = start_tracing(o, bpf, interp, recorder, command, result); !r) return r.error();
  if (result.exec_error.empty()) {
    auto r = poll_until_done(o, bpf, interp, recorder, {command, o.attach_pid}, result);
    if (!r) return r.error();
  }
  phase("traced run");
  if (SignalScope::stop_signal()) result.interrupted = true;
  drain_remaining(bpf);
  if (auto r = recorder.finish(result.exit_status); !r) return r.error();
  phase("drain and finish the trace");
  if (o.verbose) print_own_cpu();

  const trace::Meta& done = recorder.meta();
  result.events = recorder.appended();
  result.lost_events = done.lost_events;
  result.lost = done.lost;
  result.files = interp.files().size();
  result.processes = interp.processes().size();
  result.duration = std::chrono::nanoseconds(done.duration_ns);
  return result;
}

}  // namespace dlgen::capture
