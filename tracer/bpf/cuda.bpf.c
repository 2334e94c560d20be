// SPDX-License-Identifier: GPL-2.0
/* dlgen's CUDA probes: uprobes on the driver API of libcuda.so.1, the calls where a training
 * program's CPU meets its GPU: synchronisations (the CPU waiting for queued GPU work), copies to the
 * device (a batch arriving) and back (loss.item()), and kernel launches (work queued). Records go
 * to the tracer's ring buffer, filtered by its traced-tgid set (shared.bpf.h).
 *
 * User space attaches the two programs once per driver function, system-wide (pid -1: a process
 * may load libcuda long after it started), with the function's id (enum dl_cuda_api) as the attach
 * cookie; uprobes on a shared library fire in every process that maps it, so the filter is here.
 * Entry and return are joined per thread in `cuda_calls` (a driver call does not nest in its own
 * thread: the exported entry points do not call one another through their exported symbols). */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "events.h"
#include "shared.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* This object's own copies of the shared maps, replaced by the tracer's before load. */
DL_DEFINE_SHARED_MAPS();

/* A call between entry and return, per thread. */
struct cuda_call {
  __u64 ts;
  __u64 bytes;
  __u64 handle;
  __u32 api;
};

struct {
  __uint(type, BPF_MAP_TYPE_HASH);
  __uint(max_entries, 16384);
  __uint(map_flags, BPF_F_NO_PREALLOC);
  __type(key, __u32); /* tid */
  __type(value, struct cuda_call);
} cuda_calls SEC(".maps");

static __always_inline __u8 op_of(__u32 api)
{
  switch (api) {
  case DL_CU_STREAM_SYNC:
  case DL_CU_EVENT_SYNC:
  case DL_CU_CTX_SYNC:
    return DL_OP_CUDA_SYNC;
  case DL_CU_HTOD:
  case DL_CU_HTOD_ASYNC:
    return DL_OP_CUDA_HTOD;
  case DL_CU_DTOH:
  case DL_CU_DTOH_ASYNC:
    return DL_OP_CUDA_DTOH;
  default:
    return DL_OP_CUDA_LAUNCH;
  }
}

static __always_inline void send(__u64 id, __u32 api, __u64 ts, __u64 dur, __s32 ret, __u64 bytes,
                                 __u64 handle, __u64 func)
{
  struct dl_cuda *r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);
  if (!r) {
    count_lost(DL_LOST_RINGBUF);
    return;
  }
  r->kind = DL_K_CUDA;
  r->op = op_of(api & 0xff);
  r->api = api;
  r->pid = id >> 32;
  r->tid = (__u32)id;
  r->ret = ret;
  r->ts_ns = ts;
  r->dur_ns = dur;
  r->bytes = bytes;
  r->handle = handle;
  r->func = func;
  bpf_ringbuf_submit(r, wakeup_flag(sizeof(*r)));
}

SEC("uprobe")
int BPF_KPROBE(dl_cuda_enter)
{
  __u64 id = bpf_get_current_pid_tgid();
  if (!traced(id >> 32))
    return 0;
  __u64 now = bpf_ktime_get_ns();
  __u32 api = (__u32)bpf_get_attach_cookie(ctx);
  /* Every argument is read from the context up front: loads under the switch below were merged
   * by the compiler into one load at a computed context offset, which the verifier refuses. */
  __u64 arg1 = PT_REGS_PARM1(ctx), arg2 = PT_REGS_PARM2(ctx), arg3 = PT_REGS_PARM3(ctx);
  __u64 arg4 = PT_REGS_PARM4(ctx), sp = PT_REGS_SP(ctx);
  barrier_var(arg1);
  barrier_var(arg2);
  barrier_var(arg3);
  barrier_var(arg4);
  barrier_var(sp);
  __u64 handle = 0;
  if ((api & 0xff) == DL_CU_LAUNCH) {
    /* The 9th argument (hStream) is on the stack: at the first instruction the stack pointer
     * holds the return address, then arguments 7, 8, 9 (x86-64 System V). */
    bpf_probe_read_user(&handle, sizeof(handle), (void *)(sp + 24));
    send(id, api, now, 0, 0, 0, handle, arg1);
    return 0;
  }
  if ((api & 0xff) == DL_CU_LAUNCH_EX) {
    /* CUlaunchConfig: seven unsigned ints (grid, block, shared memory), then hStream at 32. */
    if (arg1)
      bpf_probe_read_user(&handle, sizeof(handle), (void *)(arg1 + 32));
    send(id, api, now, 0, 0, 0, handle, arg2);
    return 0;
  }
  struct cuda_call c = {.ts = now, .api = api};
  switch (api & 0xff) {
  case DL_CU_STREAM_SYNC:
  case DL_CU_EVENT_SYNC:
    c.handle = arg1;
    break;
  case DL_CU_HTOD_ASYNC:
  case DL_CU_DTOH_ASYNC:
    c.handle = arg4;
    c.bytes = arg3;
    break;
  case DL_CU_HTOD:
  case DL_CU_DTOH:
    c.bytes = arg3;
    break;
  default:
    break;
  }
  __u32 tid = (__u32)id;
  if (bpf_map_update_elem(&cuda_calls, &tid, &c, BPF_ANY) != 0)
    count_lost(DL_LOST_CUDA_MAP);
  return 0;
}

SEC("uretprobe")
int BPF_KRETPROBE(dl_cuda_exit, long ret)
{
  __u64 id = bpf_get_current_pid_tgid();
  if (!traced(id >> 32))
    return 0;
  __u32 tid = (__u32)id;
  struct cuda_call *c = bpf_map_lookup_elem(&cuda_calls, &tid);
  if (!c)
    return 0;
  __u64 now = bpf_ktime_get_ns();
  struct cuda_call call = *c;
  bpf_map_delete_elem(&cuda_calls, &tid);
  send(id, call.api, call.ts, now - call.ts, (__s32)ret, call.bytes, call.handle, 0);
  return 0;
}
