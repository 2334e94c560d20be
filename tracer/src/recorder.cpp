// Chunks, flushes and the metadata of a capture's trace.
#include "recorder.hpp"

#include <time.h>

#include <chrono>

namespace dlgen::capture {

std::uint64_t mono_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return std::uint64_t(ts.tv_sec) * 1000000000ull + std::uint64_t(ts.tv_nsec);
}

// Blocks of events the writer thread may have queued before the poll loop waits for it; the ring
// buffer (then the lost-event counter) absorbs a longer stall.
constexpr std::size_t kQueuedBlocks = 8;

Recorder::Recorder(trace::TraceWriter& sink, Interpreter& interp, const BpfSession& bpf,
                   const CudaProbes& cuda, trace::Meta meta)
    : sink_(sink, kQueuedBlocks), interp_(interp), bpf_(bpf), cuda_(cuda), meta_(std::move(meta)) {}

void Recorder::take_gpus(bool wait) {
  if (!gpus_.valid()) return;
  if (!wait && gpus_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
  trace::GpuInfo g = gpus_.get();
  meta_.gpu.devices = std::move(g.devices);
  meta_.gpu.driver = std::move(g.driver);
  if (!g.note.empty())
    meta_.gpu.note = meta_.gpu.note.empty() ? g.note : meta_.gpu.note + "; " + g.note;
}

Result<void> Recorder::take_events(bool final) {
  const std::uint64_t now = mono_ns() - meta_.start_mono_ns;
  auto chunk = interp_.take_events();
  if (!chunk.empty()) {
    appended_ += chunk.size();
    if (auto r = sink_.append(std::move(chunk)); !r) return r;
  }
  if (auto r = sink_.append_http(interp_.take_http(final)); !r) return r;
  meta_.duration_ns = now;
  meta_.lost = bpf_.lost();
  meta_.lost.missed += cuda_.missed();
  meta_.lost.process_map += untraced_processes_;
  meta_.lost.malformed = interp_.malformed();
  meta_.lost_events = meta_.lost.total();
  take_gpus(final);
  return ok();
}

Result<void> Recorder::append() {
  return take_events(false);
}

Result<void> Recorder::flush() {
  if (auto r = take_events(false); !r) return r;
  return sink_.flush(meta_, interp_.files(), interp_.processes());
}

Result<void> Recorder::finish(int exit_status) {
  if (auto r = take_events(true); !r) return r;
  meta_.exit_status = exit_status;
  meta_.complete = true;
  return sink_.finish(meta_, interp_.files(), interp_.processes());
}

Error Recorder::keep_partial(Error err) {
  meta_.complete = false;
  if (flush()) err.message += " (the command was killed; what was traced so far is kept)";
  return err;
}

}  // namespace dlgen::capture
