#include "cuda_probes.hpp"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <dlfcn.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sstream>

#include "cuda.skel.h"
#include "events.h"

namespace dlgen::capture {
namespace {

bool is_file(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::is_regular_file(p, ec);  // follows symlinks
}

// The x86-64 libcuda.so.1 in the loader's cache: `ldconfig -p` prints
// "\tlibcuda.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcuda.so.1".
std::filesystem::path from_ldconfig() {
  for (const char* cmd : {"/sbin/ldconfig -p 2>/dev/null", "ldconfig -p 2>/dev/null"}) {
    FILE* f = ::popen(cmd, "r");
    if (!f) continue;
    std::filesystem::path found;
    bool any = false;
    char line[4096];
    while (std::fgets(line, sizeof line, f)) {
      any = true;
      std::string s = line;
      const auto arrow = s.find(" => ");
      if (found.empty() && s.find("libcuda.so.1 ") != std::string::npos &&
          s.find("x86-64") != std::string::npos && arrow != std::string::npos) {
        std::string path = s.substr(arrow + 4);
        while (!path.empty() && (path.back() == '\n' || path.back() == ' ')) path.pop_back();
        if (is_file(path)) found = path;
      }
    }
    ::pclose(f);
    if (any) return found;
  }
  return {};
}

}  // namespace

std::filesystem::path find_cuda_lib(const std::string& ld_library_path, std::string* looked) {
  const char* name = "libcuda.so.1";
  std::string where;
  std::stringstream dirs(ld_library_path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    if (is_file(std::filesystem::path(dir) / name)) return std::filesystem::path(dir) / name;
  }
  if (!ld_library_path.empty()) where += "LD_LIBRARY_PATH, ";
  if (auto p = from_ldconfig(); !p.empty()) return p;
  where += "ldconfig -p";
  for (const char* d : {"/usr/local/nvidia/lib64", "/usr/lib/x86_64-linux-gnu", "/usr/lib64",
                        "/lib/x86_64-linux-gnu", "/lib64", "/usr/lib", "/usr/lib/wsl/lib"}) {
    if (is_file(std::filesystem::path(d) / name)) return std::filesystem::path(d) / name;
    where += std::string(", ") + d;
  }
  if (looked) *looked = where;
  return {};
}

const std::vector<CudaFunction>& cuda_functions() {
  // The _ptsz/_ptds twins are what the CUDA runtime calls for a program built with the per-thread
  // default stream; PyTorch calls the plain ones.
  static const std::vector<CudaFunction> fns = {
      {"cuStreamSynchronize", DL_CU_STREAM_SYNC, true},
      {"cuStreamSynchronize_ptsz", DL_CU_STREAM_SYNC | DL_CU_PTSZ, true},
      {"cuEventSynchronize", DL_CU_EVENT_SYNC, true},
      {"cuCtxSynchronize", DL_CU_CTX_SYNC, true},
      {"cuMemcpyHtoD_v2", DL_CU_HTOD, true},
      {"cuMemcpyHtoD_v2_ptds", DL_CU_HTOD | DL_CU_PTSZ, true},
      {"cuMemcpyHtoDAsync_v2", DL_CU_HTOD_ASYNC, true},
      {"cuMemcpyHtoDAsync_v2_ptsz", DL_CU_HTOD_ASYNC | DL_CU_PTSZ, true},
      {"cuMemcpyDtoH_v2", DL_CU_DTOH, true},
      {"cuMemcpyDtoH_v2_ptds", DL_CU_DTOH | DL_CU_PTSZ, true},
      {"cuMemcpyDtoHAsync_v2", DL_CU_DTOH_ASYNC, true},
      {"cuMemcpyDtoHAsync_v2_ptsz", DL_CU_DTOH_ASYNC | DL_CU_PTSZ, true},
      {"cuLaunchKernel", DL_CU_LAUNCH, false},
      {"cuLaunchKernel_ptsz", DL_CU_LAUNCH | DL_CU_PTSZ, false},
      {"cuLaunchKernelEx", DL_CU_LAUNCH_EX, false},
      {"cuLaunchKernelEx_ptsz", DL_CU_LAUNCH_EX | DL_CU_PTSZ, false},
  };
  return fns;
}

struct CudaProbes::State {
  dlgen_cuda_bpf* skel = nullptr;
  std::vector<bpf_link*> links;
  ~State() {
    for (auto* l : links) bpf_link__destroy(l);
    if (skel) dlgen_cuda_bpf__destroy(skel);
  }
};

CudaProbes::CudaProbes() : s_(std::make_unique<State>()) {}
CudaProbes::~CudaProbes() = default;

std::string CudaProbes::attach(const std::filesystem::path& lib, const SharedMaps& maps) {
  auto failed = [&](const char* what, int err) {
    return "CUDA probes on " + lib.string() + ": " + what + " failed: " + std::strerror(err);
  };
  s_->skel = dlgen_cuda_bpf__open();
  if (!s_->skel) return failed("BPF open", errno ? errno : EINVAL);
  auto* skel = s_->skel;
  skel->rodata->wakeup_bytes = maps.wakeup_bytes;
  bpf_map__set_max_entries(skel->maps.events, maps.ring_bytes);
  bpf_map__set_max_entries(skel->maps.tgids, maps.tgid_entries);
  if (int err = bpf_map__reuse_fd(skel->maps.events, maps.events); err)
    return failed("sharing the ring buffer", -err);
  if (int err = bpf_map__reuse_fd(skel->maps.tgids, maps.tgids); err)
    return failed("sharing the traced set", -err);
  if (int err = bpf_map__reuse_fd(skel->maps.lost, maps.lost); err)
    return failed("sharing the drop counters", -err);
  if (int err = dlgen_cuda_bpf__load(skel); err) return failed("BPF load", -err);

  int first_error = 0;
  for (const auto& fn : cuda_functions()) {
    bpf_link* enter = nullptr;
    bpf_link* exit = nullptr;
    LIBBPF_OPTS(bpf_uprobe_opts, opts, .bpf_cookie = fn.api, .retprobe = false,
                .func_name = fn.name);
    enter = bpf_program__attach_uprobe_opts(skel->progs.dl_cuda_enter, -1, lib.c_str(), 0, &opts);
    const int enter_err = errno;
    if (enter && fn.with_return) {
      // The return first would be harmless too: a return without an entry is ignored.
      opts.retprobe = true;
      exit = bpf_program__attach_uprobe_opts(skel->progs.dl_cuda_exit, -1, lib.c_str(), 0, &opts);
      if (!exit) {
        if (!first_error) first_error = errno;
        bpf_link__destroy(enter);
        continue;
      }
    }
    if (!enter) {
      // A function the library does not export is skipped (libbpf: ENOENT); other errors too,
      // but the first is kept to say why nothing could be probed.
      if (enter_err != ENOENT && !first_error) first_error = enter_err;
      continue;
    }
    s_->links.push_back(enter);
    if (exit) s_->links.push_back(exit);
    probed_.push_back(fn.name);
  }
  if (!probed_.empty()) return "";
  if (first_error) return failed("attaching uprobes", first_error);
  return "CUDA probes: " + lib.string() + " exports none of the probed driver functions";
}

std::uint64_t CudaProbes::missed() const {
  std::uint64_t n = 0;
  if (!s_->skel || s_->links.empty()) return 0;
  for (const bpf_program* p : {s_->skel->progs.dl_cuda_enter, s_->skel->progs.dl_cuda_exit}) {
    bpf_prog_info info{};
    std::uint32_t len = sizeof(info);
    if (bpf_obj_get_info_by_fd(bpf_program__fd(p), &info, &len) == 0) n += info.recursion_misses;
  }
  return n;
}

namespace {

// NVML's C API (nvml.h), declared here so that building dlgen needs no CUDA headers.
using NvmlReturn = int;  // nvmlReturn_t: 0 is NVML_SUCCESS
using NvmlDevice = void*;
constexpr unsigned kNvmlNameBytes = 96;     // NVML_DEVICE_NAME_V2_BUFFER_SIZE
constexpr unsigned kNvmlDriverBytes = 80;   // NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE

template <class F>
F symbol(void* lib, const char* name) {
  return reinterpret_cast<F>(::dlsym(lib, name));
}

}  // namespace

trace::GpuInfo query_gpus(const std::filesystem::path& cuda_lib) {
  trace::GpuInfo out;
  void* lib = nullptr;
  if (!cuda_lib.empty()) {
    const auto beside = cuda_lib.parent_path() / "libnvidia-ml.so.1";
    if (is_file(beside)) lib = ::dlopen(beside.c_str(), RTLD_NOW | RTLD_LOCAL);
  }
  if (!lib) lib = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    out.note = "no NVML (libnvidia-ml.so.1 not found): GPUs not recorded";
    return out;
  }
  auto init = symbol<NvmlReturn (*)()>(lib, "nvmlInit_v2");
  auto shutdown = symbol<NvmlReturn (*)()>(lib, "nvmlShutdown");
  auto count = symbol<NvmlReturn (*)(unsigned*)>(lib, "nvmlDeviceGetCount_v2");
  auto handle = symbol<NvmlReturn (*)(unsigned, NvmlDevice*)>(lib, "nvmlDeviceGetHandleByIndex_v2");
  auto name = symbol<NvmlReturn (*)(NvmlDevice, char*, unsigned)>(lib, "nvmlDeviceGetName");
  auto driver = symbol<NvmlReturn (*)(char*, unsigned)>(lib, "nvmlSystemGetDriverVersion");
  if (!init || !shutdown || !count || !handle || !name || !driver) {
    out.note = "NVML lacks a function dlgen uses: GPUs not recorded";
  } else if (NvmlReturn r = init(); r != 0) {
    out.note = "NVML did not initialise (nvmlReturn " + std::to_string(r) + "): GPUs not recorded";
  } else {
    char buf[kNvmlDriverBytes] = {};
    if (driver(buf, sizeof buf) == 0) out.driver = buf;
    unsigned n = 0;
    if (count(&n) == 0) {
      for (unsigned i = 0; i < n && i < 1024; ++i) {
        NvmlDevice d = nullptr;
        char nm[kNvmlNameBytes] = {};
        if (handle(i, &d) != 0 || name(d, nm, sizeof nm) != 0) std::strcpy(nm, "(unknown)");
        out.devices.emplace_back(nm);
      }
    }
    shutdown();
  }
  // NVML is not closed: a driver library may leave threads or handlers behind that unloading
  // would pull out from under them.
  return out;
}

}  // namespace dlgen::capture
