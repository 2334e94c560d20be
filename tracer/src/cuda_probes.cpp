#include "cuda_probes.hpp"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <thread>

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

namespace {

// File offsets of the named functions in an ELF64 shared library (.dynsym, and .symtab when
// present), as uprobes want them: the symbol's address moved from its section's address to the
// section's place in the file. Functions not defined there are left out; empty on a file that is
// not ELF64.
std::map<std::string, std::uint64_t> function_offsets(const std::filesystem::path& lib) {
  std::map<std::string, std::uint64_t> out;
  const int fd = ::open(lib.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return out;
  auto read_at = [fd](void* buf, std::size_t n, std::uint64_t off) {
    return ::pread(fd, buf, n, static_cast<off_t>(off)) == static_cast<ssize_t>(n);
  };
  Elf64_Ehdr eh{};
  std::vector<Elf64_Shdr> sh;
  if (read_at(&eh, sizeof eh, 0) && std::memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
      eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_shentsize == sizeof(Elf64_Shdr) &&
      eh.e_shnum > 0 && eh.e_shnum < 65280) {
    sh.resize(eh.e_shnum);
    if (!read_at(sh.data(), sh.size() * sizeof(Elf64_Shdr), eh.e_shoff)) sh.clear();
  }
  std::set<std::string> wanted;
  for (const auto& fn : cuda_functions()) wanted.insert(fn.name);
  for (const auto& table : sh) {
    if ((table.sh_type != SHT_DYNSYM && table.sh_type != SHT_SYMTAB) || table.sh_link >= sh.size())
      continue;
    const Elf64_Shdr& strs = sh[table.sh_link];
    if (table.sh_size > (256u << 20) || strs.sh_size > (256u << 20)) continue;  // not a library
    std::vector<Elf64_Sym> syms(table.sh_size / sizeof(Elf64_Sym));
    std::string names(strs.sh_size, '\0');
    if (!read_at(syms.data(), syms.size() * sizeof(Elf64_Sym), table.sh_offset) ||
        !read_at(names.data(), names.size(), strs.sh_offset))
      continue;
    for (const auto& sym : syms) {
      if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_shndx == SHN_UNDEF ||
          sym.st_shndx >= sh.size() || sym.st_value == 0 || sym.st_name >= names.size())
        continue;
      std::string name(names.c_str() + sym.st_name);
      if (!wanted.count(name) || out.count(name)) continue;
      const Elf64_Shdr& sec = sh[sym.st_shndx];
      if (sym.st_value < sec.sh_addr || sym.st_value - sec.sh_addr >= sec.sh_size) continue;
      out[name] = sym.st_value - sec.sh_addr + sec.sh_offset;
    }
  }
  ::close(fd);
  return out;
}

// Linux >= 6.6: one BPF link holding a uprobe on many functions (BPF_TRACE_UPROBE_MULTI). libbpf
// 1.1 predates it, so the attach type and the BPF_LINK_CREATE arguments are spelled out here (the
// layout of union bpf_attr's link_create.uprobe_multi in linux/bpf.h).
constexpr std::uint32_t kUprobeMultiAttach = 48;  // BPF_TRACE_UPROBE_MULTI
constexpr std::uint32_t kUprobeMultiReturn = 1;   // BPF_F_UPROBE_MULTI_RETURN
struct UprobeMultiAttr {
  std::uint32_t prog_fd;
  std::uint32_t target_fd;
  std::uint32_t attach_type;
  std::uint32_t flags;
  std::uint64_t path;
  std::uint64_t offsets;
  std::uint64_t ref_ctr_offsets;
  std::uint64_t cookies;
  std::uint32_t cnt;
  std::uint32_t multi_flags;
  std::uint32_t pid;  // 0: every process that maps the file
  std::uint32_t pad;
};
static_assert(sizeof(UprobeMultiAttr) == 64);

int uprobe_multi_link(int prog_fd, const std::string& path, const std::vector<std::uint64_t>& offs,
                      const std::vector<std::uint64_t>& cookies, bool returns) {
  UprobeMultiAttr a{};
  a.prog_fd = static_cast<std::uint32_t>(prog_fd);
  a.attach_type = kUprobeMultiAttach;
  a.path = reinterpret_cast<std::uint64_t>(path.c_str());
  a.offsets = reinterpret_cast<std::uint64_t>(offs.data());
  a.cookies = reinterpret_cast<std::uint64_t>(cookies.data());
  a.cnt = static_cast<std::uint32_t>(offs.size());
  a.multi_flags = returns ? kUprobeMultiReturn : 0;
  return static_cast<int>(::syscall(__NR_bpf, BPF_LINK_CREATE, &a, sizeof a));
}

std::string probe_error(const std::filesystem::path& lib, const char* what, int err) {
  return "CUDA probes on " + lib.string() + ": " + what + " failed: " + std::strerror(err);
}

}  // namespace

// Two ways to attach. Preferred: two uprobe-multi links (entries, returns) for all the functions.
// Closing a link waits in the kernel for an RCU grace period (~0.1 s): on the GPU host the 28
// one-function links of a real libcuda.so.1 took 3.4 s to close after the command had exited;
// two links closed from two threads take one. Where the kernel has no uprobe-multi links (before
// 6.6), one perf-event uprobe per function and end.
struct CudaProbes::State {
  dlgen_cuda_bpf* skel = nullptr;
  std::vector<bpf_link*> links;  // one per function and end
  std::vector<int> multi_links;  // or two uprobe-multi links
  ~State() { reset(); }
  void reset() {
    std::vector<std::thread> closers;
    for (int fd : multi_links) closers.emplace_back([fd] { ::close(fd); });
    for (auto& t : closers) t.join();
    for (auto* l : links) bpf_link__destroy(l);
    if (skel) dlgen_cuda_bpf__destroy(skel);
    skel = nullptr;
    links.clear();
    multi_links.clear();
  }

  // Opens and loads the programs, for uprobe-multi links or for perf-event uprobes, sharing the
  // main object's maps. Returns "" or why not.
  std::string load(const std::filesystem::path& lib, const SharedMaps& maps, bool multi) {
    reset();
    skel = dlgen_cuda_bpf__open();
    if (!skel) return probe_error(lib, "BPF open", errno ? errno : EINVAL);
    skel->rodata->wakeup_bytes = maps.wakeup_bytes;
    bpf_map__set_max_entries(skel->maps.events, maps.ring_bytes);
    bpf_map__set_max_entries(skel->maps.tgids, maps.tgid_entries);
    if (int err = bpf_map__reuse_fd(skel->maps.events, maps.events); err)
      return probe_error(lib, "sharing the ring buffer", -err);
    if (int err = bpf_map__reuse_fd(skel->maps.tgids, maps.tgids); err)
      return probe_error(lib, "sharing the traced set", -err);
    if (int err = bpf_map__reuse_fd(skel->maps.lost, maps.lost); err)
      return probe_error(lib, "sharing the drop counters", -err);
    if (multi) {
      const auto type = static_cast<bpf_attach_type>(kUprobeMultiAttach);
      bpf_program__set_expected_attach_type(skel->progs.dl_cuda_enter, type);
      bpf_program__set_expected_attach_type(skel->progs.dl_cuda_exit, type);
    }
    if (int err = dlgen_cuda_bpf__load(skel); err) return probe_error(lib, "BPF load", -err);
    return "";
  }

  // Uprobe-multi links on every function of `offsets` (the library's, found in its symbol tables
  // here), programs loaded for them. True when attached, with the probed functions in `probed`.
  bool attach_multi(const std::filesystem::path& lib,
                    const std::map<std::string, std::uint64_t>& offsets,
                    std::vector<std::string>& probed) {
    std::vector<std::uint64_t> enter_offs, enter_cookies, exit_offs, exit_cookies;
    std::vector<std::string> names;
    for (const auto& fn : cuda_functions()) {
      auto it = offsets.find(fn.name);
      if (it == offsets.end()) continue;
      names.push_back(fn.name);
      enter_offs.push_back(it->second);
      enter_cookies.push_back(fn.api);
      if (fn.with_return) exit_offs.push_back(it->second), exit_cookies.push_back(fn.api);
    }
    const int enter = uprobe_multi_link(bpf_program__fd(skel->progs.dl_cuda_enter), lib.string(),
                                        enter_offs, enter_cookies, false);
    const int exit = exit_offs.empty()
                         ? -2
                         : uprobe_multi_link(bpf_program__fd(skel->progs.dl_cuda_exit),
                                             lib.string(), exit_offs, exit_cookies, true);
    if (enter >= 0) multi_links.push_back(enter);
    if (exit >= 0) multi_links.push_back(exit);
    if (enter < 0 || exit == -1) return false;
    probed = names;
    return true;
  }

  // Perf-event uprobes, one per function and end, placed by libbpf (programs loaded for them);
  // adds the probed functions to `probed`. Returns the first error other than a function the
  // library does not export (0: none).
  int attach_each(const std::filesystem::path& lib, std::vector<std::string>& probed) {
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
      links.push_back(enter);
      if (exit) links.push_back(exit);
      probed.push_back(fn.name);
    }
    return first_error;
  }
};

CudaProbes::CudaProbes() : s_(std::make_unique<State>()) {}
CudaProbes::~CudaProbes() = default;

std::string CudaProbes::attach(const std::filesystem::path& lib, const SharedMaps& maps) {
  const auto offsets = function_offsets(lib);
  if (!offsets.empty() && s_->load(lib, maps, true).empty() &&
      s_->attach_multi(lib, offsets, probed_))
    return "";
  if (auto err = s_->load(lib, maps, false); !err.empty()) return err;
  const int first_error = s_->attach_each(lib, probed_);
  if (!probed_.empty()) return "";
  if (first_error) return probe_error(lib, "attaching uprobes", first_error);
  return "CUDA probes: " + lib.string() + " exports none of the probed driver functions";
}

std::uint64_t CudaProbes::missed() const {
  std::uint64_t n = 0;
  if (!s_->skel || (s_->links.empty() && s_->multi_links.empty())) return 0;
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
constexpr unsigned kNvmlNameBytes = 96;    // NVML_DEVICE_NAME_V2_BUFFER_SIZE
constexpr unsigned kNvmlDriverBytes = 80;  // NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE

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
