// The polling loop and its end conditions.
#include "poll_loop.hpp"

#include <bpf/libbpf.h>
#include <signal.h>
#include <time.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <string>

namespace dlgen::capture {
namespace {

// Records per drain below which the polling loop naps 5 ms before the next one.
constexpr int kBatchRecords = 8192;

// One drain of the ring buffer. Drain in batches: epoll reports the ring readable as soon as one
// record waits, so polling after every small drain would spin through epoll_wait/waitpid (and
// their syscall tracepoints) a few records at a time. After a small drain, sleep briefly and let
// records accumulate (the default 32 MiB ring holds ~0.3 s at 1M events/s); with nothing waiting,
// sleep in epoll until the kernel side's wakeup (at each 256 KiB of records) or the timeout.
// `fail_at` (tests): from then on the drain fails as a ring-buffer error would.
Result<void> drain(ring_buffer* ring, std::uint64_t fail_at) {
  int n = ring_buffer__consume(ring);
  if (fail_at != 0 && mono_ns() >= fail_at) n = -EIO;
  if (n < 0 && n != -EINTR) return runtime_error(std::string("ring buffer: ") + std::strerror(-n));
  if (n == 0) {
    n = ring_buffer__poll(ring, 50);
    if (n < 0 && n != -EINTR)
      return runtime_error(std::string("ring buffer poll: ") + std::strerror(-n));
  } else if (n < kBatchRecords) {
    timespec nap{0, 5'000'000};
    ::nanosleep(&nap, nullptr);
  }
  return ok();
}

// Whether the traced run is over: the command reaped (its status into `result`), the attached
// process gone, Ctrl-C on an attached capture, or the --duration deadline passed.
bool run_ended(const Interpreter& interp, TracedRun run, std::uint64_t deadline,
               CaptureResult& result) {
  if (run.command) {
    if (std::optional<int> status = run.command.poll_exit()) {
      result.exit_status = *status;
      return true;
    }
  } else if (interp.exited(run.attach_pid) ||
             (::kill(static_cast<pid_t>(run.attach_pid), 0) != 0 && errno == ESRCH)) {
    return true;  // the attached process is gone (its exit seen, or not even a zombie left)
  }
  if (SignalScope::stop_signal() && !run.command) {
    result.interrupted = true;  // -p: Ctrl-C ends the capture, the process keeps running
    return true;
  }
  if (deadline && mono_ns() >= deadline) {
    result.interrupted = true;  // --duration: stop tracing; the command is left running
    return true;
  }
  return false;
}

}  // namespace

Result<void> poll_until_done(const CaptureOptions& o, BpfSession& bpf, const Interpreter& interp,
                             Recorder& recorder, TracedRun run, CaptureResult& result) {
  const std::uint64_t start_mono = recorder.meta().start_mono_ns;
  const std::uint64_t deadline = o.duration.count() > 0 ? start_mono + o.duration.count() : 0;
  const std::uint64_t flush_ns = std::uint64_t(o.flush_interval.count()) * 1000000ull;
  const std::uint64_t fail_at =
      o.fail_poll_after.count() > 0
          ? mono_ns() + static_cast<std::uint64_t>(o.fail_poll_after.count()) * 1000000ull
          : 0;
  // The loop's own failure: the command must not run on untraced, and what was flushed is kept
  // (made whole once more, marked incomplete) for capture() to keep as NAME.partial.h5.
  auto failed = [&](Error err) -> Error {
    run.command.kill();
    return recorder.keep_partial(std::move(err));
  };
  std::uint64_t last_flush = mono_ns();
  while (true) {
    if (auto r = drain(bpf.ring(), fail_at); !r) return failed(r.error());
    if (run_ended(interp, run, deadline, result)) break;
    // Every flush_interval the file is made consistent on disk (a killed capture keeps it);
    // in between, full chunks of events go to the writer thread.
    if (mono_ns() - last_flush >= flush_ns) {
      if (auto r = recorder.flush(); !r) return failed(r.error());
      last_flush = mono_ns();
    } else if (interp.buffered() >= o.flush_events) {
      if (auto r = recorder.append(); !r) return failed(r.error());
    }
  }
  return ok();
}

void drain_remaining(BpfSession& bpf) {
  // Everything the kernel submitted before the command's exit is in the ring buffer now.
  while (ring_buffer__consume(bpf.ring()) > 0) {
  }
}

}  // namespace dlgen::capture
