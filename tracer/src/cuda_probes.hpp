#pragma once
// The GPU side of a capture: find the libcuda.so.1 that a traced program would load, attach
// cuda.bpf.c's uprobes to its driver API (writing into the main BPF object's ring buffer, filtered
// by its traced set, counting drops in its counters), and ask NVML which GPUs the machine has.
// Nothing here fails a capture: what cannot be done is said in trace::GpuInfo::note.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "dlgen/trace/trace.hpp"

namespace dlgen::capture {

// The main object's maps that the probes share (file descriptors), and the sizes they were
// created with (a reused map must match its declaration in cuda.bpf.c).
struct SharedMaps {
  int events = -1, tgids = -1, lost = -1;
  std::uint32_t ring_bytes = 0;
  std::uint32_t tgid_entries = 0;
  std::uint64_t wakeup_bytes = 0;
};

// Where the dynamic loader would find libcuda.so.1 for a program started with `ld_library_path`:
// its directories, then the loader's cache (`ldconfig -p`), then the usual library directories
// (/usr/local/nvidia/lib64 among them). Empty when none has it; `looked` says where it looked.
std::filesystem::path find_cuda_lib(const std::string& ld_library_path, std::string* looked);

// The probed driver functions: name, enum dl_cuda_api id (| DL_CU_PTSZ), and whether the call's
// return is probed too (its duration matters).
struct CudaFunction {
  const char* name;
  std::uint32_t api;
  bool with_return;
};
const std::vector<CudaFunction>& cuda_functions();

// cuda.bpf.c loaded and attached (RAII: detached on destruction).
class CudaProbes {
 public:
  CudaProbes();
  ~CudaProbes();
  CudaProbes(const CudaProbes&) = delete;
  CudaProbes& operator=(const CudaProbes&) = delete;

  // Loads the programs and attaches them to every function of cuda_functions() that `lib`
  // exports (the others are skipped). Returns "" when at least one is attached, else why none.
  std::string attach(const std::filesystem::path& lib, const SharedMaps& maps);
  // The functions attached to, in cuda_functions() order.
  const std::vector<std::string>& probed() const { return probed_; }
  // Probe hits the kernel skipped because a BPF program was already running on that CPU.
  std::uint64_t missed() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
  std::vector<std::string> probed_;
};

// The machine's GPUs as NVML lists them (devices, driver). libnvidia-ml.so.1 is opened next to
// `cuda_lib` first (the driver installs them side by side), then wherever the loader finds it;
// when it cannot be opened or initialised, `note` says so and the rest stays empty.
trace::GpuInfo query_gpus(const std::filesystem::path& cuda_lib);

}  // namespace dlgen::capture
