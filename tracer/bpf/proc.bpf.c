// SPDX-License-Identifier: GPL-2.0
/* dlgen's process tree: which processes are traced, and their forks, threads, execs, exits and
 * renames (events.h, struct dl_proc).
 *
 * The traced tree is the `tgids` map: user space seeds it with the root pid(s); sched_process_fork
 * adds every new process of a traced parent and sched_process_exit removes a process when its last
 * thread exits. Threads need no entry: the filter is on the tgid. Every other program of the
 * tracer (syscalls, io_uring, block, faults; linked into one object with this one) and the CUDA
 * probes filter on it, so this file defines the maps they all share (shared.bpf.h). */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "events.h"
#include "shared.bpf.h"
#include "tracer.bpf.h"

char LICENSE[] SEC("license") = "GPL";

DL_DEFINE_SHARED_MAPS();

static __always_inline void send_proc(__u8 op, __u32 pid, __u32 tid, __u32 child_pid, __u32 child_tgid,
                                      __s32 code, __u8 group_dead, const char *comm)
{
  struct dl_proc *r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);
  if (!r) {
    count_lost(DL_LOST_RINGBUF);
    return;
  }
  r->kind = DL_K_PROC;
  r->op = op;
  r->group_dead = group_dead;
  r->pad = 0;
  r->pid = pid;
  r->tid = tid;
  r->child_pid = child_pid;
  r->child_tgid = child_tgid;
  r->code = code;
  r->ts_ns = bpf_ktime_get_ns();
  if (bpf_probe_read_kernel_str(r->comm, sizeof(r->comm), comm) < 0)
    r->comm[0] = 0;
  bpf_ringbuf_submit(r, wakeup_flag(sizeof(*r)));
}

/* fork/clone: the clone flags are not visible here; a new thread shares its parent's tgid. */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(dl_fork, struct task_struct *parent, struct task_struct *child)
{
  __u32 ptgid = BPF_CORE_READ(parent, tgid);
  if (!traced(ptgid))
    return 0;
  __u32 cpid = BPF_CORE_READ(child, pid), ctgid = BPF_CORE_READ(child, tgid);
  int thread = cpid != ctgid;
  if (!thread) {
    __u8 one = 1;
    if (bpf_map_update_elem(&tgids, &ctgid, &one, BPF_ANY) != 0)
      count_lost(DL_LOST_PROCESS_MAP); /* the child and its descendants go untraced */
  }
  send_proc(thread ? DL_OP_THREAD : DL_OP_FORK, ptgid, BPF_CORE_READ(parent, pid), cpid, ctgid, 0, 0,
            child->comm);
  return 0;
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(dl_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
  __u32 tgid = BPF_CORE_READ(p, tgid);
  if (!traced(tgid))
    return 0;
  send_proc(DL_OP_EXEC, tgid, BPF_CORE_READ(p, pid), old_pid, tgid, 0, 0, p->comm);
  return 0;
}

/* exit_code is in wait-status encoding (code << 8 | signal). group_dead: the last thread of the
 * process is exiting, so the process leaves the traced set. */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(dl_exit, struct task_struct *p, bool group_dead)
{
  __u32 tgid = BPF_CORE_READ(p, tgid);
  if (!traced(tgid))
    return 0;
  send_proc(DL_OP_EXIT, tgid, BPF_CORE_READ(p, pid), 0, tgid, BPF_CORE_READ(p, exit_code), group_dead,
            p->comm);
  if (group_dead)
    bpf_map_delete_elem(&tgids, &tgid);
  return 0;
}

/* prctl(PR_SET_NAME) and writes to /proc/.../comm: PyTorch names DataLoader workers this way. */
SEC("tp_btf/task_rename")
int BPF_PROG(dl_rename, struct task_struct *task, const char *comm)
{
  __u32 tgid = BPF_CORE_READ(task, tgid);
  if (!traced(tgid))
    return 0;
  send_proc(DL_OP_TASK_RENAME, tgid, BPF_CORE_READ(task, pid), 0, tgid, 0, 0, comm);
  return 0;
}
