#pragma once
// The tracer's BPF side, loaded and attached (RAII): one object linked from the program files in
// tracer/bpf/ (dlgen.skel.h), opened, sized and configured from the capture's options, loaded,
// attached, then read through its ring buffer, its traced-tgid set and its drop counters.
// libbpf's types stay in bpf_session.cpp.
#include <cstdint>
#include <memory>

#include "cuda_probes.hpp"
#include "dlgen/capture/capture.hpp"

struct ring_buffer;

namespace dlgen::capture {

// One ring-buffer record (libbpf's ring_buffer_sample_fn).
using RecordFn = int (*)(void* ctx, void* data, std::size_t size);

class BpfSession {
 public:
  BpfSession();
  ~BpfSession();
  BpfSession(const BpfSession&) = delete;
  BpfSession& operator=(const BpfSession&) = delete;

  // Opens the object, sizes its maps and sets its load-time constants from `o`, then loads it
  // (BTF, verifier). A missing privilege or kernel feature is an `unsupported` error.
  Result<void> open_and_load(const CaptureOptions& o);
  // The maps other BPF objects (cuda.bpf.c) share; valid once loaded.
  const SharedMaps& shared_maps() const;
  // Attaches every program that was loaded.
  Result<void> attach();
  // The ring buffer's reader, calling `fn(ctx, ...)` for each record consumed.
  Result<void> open_ring(RecordFn fn, void* ctx);
  ring_buffer* ring();
  // Adds a process to the traced set; false (errno set) when the map is full or out of memory.
  bool trace_tgid(std::uint32_t tgid);
  // What the kernel side dropped so far: the per-CPU counters summed, and the runs of the attached
  // programs that the kernel skipped because the same program was already running on that CPU
  // (a completion interrupting a completion); those hits may belong to untraced processes, so
  // `missed` is an upper bound. Counters that cannot be read count as 0.
  trace::LostEvents lost() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace dlgen::capture
