#pragma once
// The flush to the trace file: what a capture writes, and when. Events go in chunks to a writer
// thread (AsyncWriter: the poll loop never waits for deflate); every flush interval the file is
// made whole with the metadata so far, so a killed capture keeps a readable trace. The metadata
// gathers the drop counters of every source (kernel maps, CUDA probes, the interpreter, -p's
// untraced descendants) and NVML's answer once it is there.
#include <cstdint>
#include <future>

#include "async_writer.hpp"
#include "bpf_session.hpp"
#include "cuda_probes.hpp"
#include "interpreter.hpp"

namespace dlgen::capture {

// CLOCK_MONOTONIC in ns: the clock of the kernel side's records (bpf_ktime_get_ns).
std::uint64_t mono_ns();

class Recorder {
 public:
  // `meta`: the trace's metadata as known at its start (start_mono_ns among it).
  Recorder(trace::TraceWriter& sink, Interpreter& interp, const BpfSession& bpf,
           const CudaProbes& cuda, trace::Meta meta);

  trace::Meta& meta() { return meta_; }
  // NVML's answer, asked beside the run; it joins the metadata once ready.
  void await_gpus(std::future<trace::GpuInfo> gpus) { gpus_ = std::move(gpus); }
  // -p: descendants the traced set had no room for (counted as lost).
  void count_untraced(std::uint64_t n) { untraced_processes_ += n; }

  // Hands the buffered events to the writer thread.
  Result<void> append();
  // ... and makes the file whole with the metadata so far.
  Result<void> flush();
  // Takes the last events and writes the complete trace with the command's exit status.
  Result<void> finish(int exit_status);
  // The partial-trace path: the capture failed with `err`; what was traced so far is flushed once
  // more, marked incomplete, and the error says it was kept when that worked.
  Error keep_partial(Error err);

  // Events handed to the writer so far.
  std::uint64_t appended() const { return appended_; }

 private:
  // Takes the buffered events to the writer and brings the metadata up to date; `final` waits
  // for NVML's answer.
  Result<void> take_events(bool final);
  void take_gpus(bool wait);

  AsyncWriter sink_;
  Interpreter& interp_;
  const BpfSession& bpf_;
  const CudaProbes& cuda_;
  trace::Meta meta_;
  std::future<trace::GpuInfo> gpus_;
  std::uint64_t untraced_processes_ = 0;
  std::uint64_t appended_ = 0;
};

}  // namespace dlgen::capture
