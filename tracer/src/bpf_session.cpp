// The tracer's BPF side through its skeleton: open -> set `const volatile` filters and map sizes
// -> load -> attach -> ring buffer; and the libbpf diagnostics that explain a failed load.
#include "bpf_session.hpp"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "dlgen.skel.h"
#include "events.h"

namespace dlgen::capture {
namespace {

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

}  // namespace

struct BpfSession::State {
  dlgen_bpf* skel = nullptr;
  SharedMaps shared;
  std::vector<bpf_link*> links;
  std::vector<const bpf_program*> attached;
  ring_buffer* rb = nullptr;

  ~State() {
    if (rb) ring_buffer__free(rb);
    for (auto* l : links) bpf_link__destroy(l);
    if (skel) dlgen_bpf__destroy(skel);
  }
};

BpfSession::BpfSession() : s_(std::make_unique<State>()) {}
BpfSession::~BpfSession() = default;

Result<void> BpfSession::open_and_load(const CaptureOptions& o) {
  libbpf_set_print(libbpf_print);
  g_libbpf_verbose = o.verbose;
  mount_kernel_filesystems();
  s_->skel = dlgen_bpf__open();
  auto* skel = s_->skel;
  if (!skel) return load_error("open", errno ? errno : EINVAL);
  skel->rodata->with_block = o.block_layer ? 1 : 0;
  skel->rodata->with_magic = o.record_magic ? 1 : 0;
  bpf_map__set_max_entries(skel->maps.events, o.ring_buffer_bytes);
  bpf_map__set_max_entries(skel->maps.uring_reqs,
                           std::max<std::uint32_t>(1, o.inflight_map_entries));
  bpf_map__set_max_entries(skel->maps.block_reqs,
                           std::max<std::uint32_t>(1, o.inflight_map_entries));
  bpf_map__set_max_entries(skel->maps.tgids, std::max<std::uint32_t>(1, o.process_map_entries));
  skel->rodata->wakeup_bytes = std::min<std::uint64_t>(256u << 10, o.ring_buffer_bytes / 8);
  s_->shared.ring_bytes = o.ring_buffer_bytes;
  s_->shared.tgid_entries = std::max<std::uint32_t>(1, o.process_map_entries);
  s_->shared.wakeup_bytes = skel->rodata->wakeup_bytes;
  if (!o.block_layer) {
    bpf_program__set_autoload(skel->progs.dl_block_issue, false);
    bpf_program__set_autoload(skel->progs.dl_block_complete, false);
  }
  if (int err = dlgen_bpf__load(skel); err) return load_error("load", -err);
  s_->shared.events = bpf_map__fd(skel->maps.events);
  s_->shared.tgids = bpf_map__fd(skel->maps.tgids);
  s_->shared.lost = bpf_map__fd(skel->maps.lost);
  return ok();
}

const SharedMaps& BpfSession::shared_maps() const {
  return s_->shared;
}

Result<void> BpfSession::attach() {
  auto* skel = s_->skel;
  bpf_program* progs[] = {skel->progs.dl_sys_enter,     skel->progs.dl_sys_exit,
                          skel->progs.dl_uring_submit,  skel->progs.dl_uring_complete,
                          skel->progs.dl_fork,          skel->progs.dl_exec,
                          skel->progs.dl_exit,          skel->progs.dl_rename,
                          skel->progs.dl_block_issue,   skel->progs.dl_block_complete,
                          skel->progs.dl_filemap_fault, skel->progs.dl_filemap_map_pages};
  for (auto* p : progs) {
    if (!bpf_program__autoload(p)) continue;
    bpf_link* l = bpf_program__attach(p);
    if (!l) return load_error(bpf_program__name(p), errno);
    s_->links.push_back(l);
    s_->attached.push_back(p);
  }
  return ok();
}

Result<void> BpfSession::open_ring(RecordFn fn, void* ctx) {
  s_->rb = ring_buffer__new(bpf_map__fd(s_->skel->maps.events), fn, ctx, nullptr);
  if (!s_->rb) return runtime_error(std::string("ring buffer: ") + std::strerror(errno));
  return ok();
}

ring_buffer* BpfSession::ring() {
  return s_->rb;
}

bool BpfSession::trace_tgid(std::uint32_t tgid) {
  std::uint8_t one = 1;
  return bpf_map_update_elem(bpf_map__fd(s_->skel->maps.tgids), &tgid, &one, BPF_ANY) == 0;
}

trace::LostEvents BpfSession::lost() const {
  trace::LostEvents out;
  const int ncpu = libbpf_num_possible_cpus();
  std::vector<std::uint64_t> v(static_cast<std::size_t>(std::max(ncpu, 1)));
  auto sum = [&](std::uint32_t reason) {
    std::uint64_t n = 0;
    if (ncpu > 0 && bpf_map_lookup_elem(bpf_map__fd(s_->skel->maps.lost), &reason, v.data()) == 0)
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
  for (const auto* p : s_->attached) {
    bpf_prog_info info{};
    std::uint32_t len = sizeof(info);
    if (bpf_obj_get_info_by_fd(bpf_program__fd(p), &info, &len) == 0)
      out.missed += info.recursion_misses;
  }
  return out;
}

}  // namespace dlgen::capture
