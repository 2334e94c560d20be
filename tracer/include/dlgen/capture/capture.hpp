#pragma once
// dlgen capture: run a command (or attach to a running process tree) under the eBPF tracer and
// stream its file I/O, io_uring requests and process events into a trace (trace.hpp).
// Needs BPF privilege (root, or CAP_BPF + CAP_PERFMON); without it the call fails with an
// `unsupported` error (exit code 77).
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "dlgen/core/result.hpp"
#include "dlgen/trace/trace_io.hpp"

namespace dlgen::capture {

struct CaptureOptions {
  std::filesystem::path output;          // the HDF5 trace (used by the path-writing overload)
  std::vector<std::string> command;      // the command to run; empty when attaching
  std::uint32_t attach_pid = 0;          // -p: trace this running process and its descendants
  std::chrono::nanoseconds duration{0};  // 0: until the command exits, or Ctrl-C/SIGTERM
  bool block_layer = false;              // --block: block requests issued by the traced tree
  bool record_magic = true;              // first up-to-8 bytes of reads at offset 0
  std::uint32_t ring_buffer_bytes = 32u << 20;  // power of two (~0.3 s of records at 1M events/s)
  std::chrono::milliseconds flush_interval{2000};  // how often the trace file is made whole on disk
  std::size_t flush_events = 1u << 18;             // ... or after this many buffered events
  // Capacity of the kernel side's maps: io_uring and block requests in flight at once (each), and
  // processes traced at once. Beyond them events are dropped, and counted (trace::LostEvents);
  // tests shrink them to provoke drops.
  std::uint32_t inflight_map_entries = 65536;
  std::uint32_t process_map_entries = 16384;
  // CUDA driver API probes (uprobes on libcuda.so.1, docs/trace-format.md "CUDA events") and the
  // GPUs NVML lists. cuda_lib: the library to probe; empty: the one the dynamic loader would find
  // for the command. Without one, or where probing fails, the capture goes on and the trace's
  // metadata says why (gpu_note).
  bool cuda = true;
  std::filesystem::path cuda_lib;
  bool verbose = false;  // libbpf diagnostics on stderr
  // The MPI rank and world size to record in the trace (`mpirun -np N dlgen capture`, one trace
  // per rank; trace::launch_rank reads them from the environment). -1, 0: not launched by MPI.
  std::int32_t rank = -1;
  std::int32_t world_size = 0;
  // Tests: after this long in the polling loop it fails as a ring-buffer error would (0: never).
  std::chrono::milliseconds fail_poll_after{0};
};

// How a capture ended.
struct CaptureResult {
  // The command's exit status: its exit code, 128+signal when a signal killed it, 127 when it
  // could not be executed (then exec_error says why). 0 when attached (-p) or stopped by
  // --duration while the command keeps running.
  int exit_status = 0;
  std::string exec_error;
  bool interrupted = false;  // ended by SIGINT/SIGTERM or --duration
  std::uint64_t events = 0;
  std::uint64_t lost_events = 0;  // events dropped (lost.total())
  trace::LostEvents lost;         // ... by reason, as stored in the trace's metadata
  std::uint64_t files = 0;
  std::uint64_t processes = 0;
  std::chrono::nanoseconds duration{0};
};

// Captures into `sink` (any TraceWriter: the HDF5 one, or an in-memory one in tests). SIGINT and
// SIGTERM are handled while it runs: forwarded to the command (unless the terminal already sent
// them to it), and the capture ends cleanly when the command exits.
Result<CaptureResult> capture(const CaptureOptions& options, trace::TraceWriter& sink);

// Captures into the HDF5 file options.output. When the capture fails after the trace was
// created (its polling loop or the writer failing), the traced command is killed and reaped, what
// was flushed is made whole once more (metadata complete = false, with its drop counters) and
// kept as NAME.partial.h5 beside options.output; the error says so.
Result<CaptureResult> capture(const CaptureOptions& options);

// Checks that BPF programs can be loaded here (privilege, BTF); an `unsupported` error says why
// not.
Result<void> probe_bpf();

}  // namespace dlgen::capture
