// SPDX-License-Identifier: GPL-2.0
/* dlgen's file syscalls of the traced tree (the `tgids` map, kept by proc.bpf.c), sent to user
 * space through the ring buffer (records in events.h).
 *
 * One program on the typed raw tracepoints sys_enter/sys_exit (tp_btf), switching on the syscall
 * number. (Per-syscall tracepoints syscalls/sys_enter_X need one perf event per syscall, and
 * detaching 80 of them costs ~50 ms each at the end of a capture.) Arguments are kept in task
 * storage (`pending`, tracer.bpf.h) from enter to exit; user strings are read at exit, when the
 * kernel has faulted the page in. x86_64 syscall numbers (asm/unistd_64.h). kprobes/fentry are not
 * used: on the target machines they are unavailable. */
#include "vmlinux.h"
#include <asm/unistd_64.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "events.h"
#include "shared.bpf.h"
#define DL_KSYM_OWNER /* tracer.bpf.h: this file declares the kfuncs for the whole object */
#include "tracer.bpf.h"
#include "path.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* Set by user space before load: record the first bytes of reads at offset 0. */
const volatile __u8 with_magic = 1;

#define AF_UNIX 1
#define MAP_ANONYMOUS 0x20
#define AT_EMPTY_PATH 0x1000
#define DL_MAX_IOV 16

dl_pending_map pending SEC(".maps");

static __always_inline int is_unix_socket(struct file *f)
{
  if (!f)
    return 0;
  umode_t mode = BPF_CORE_READ(f, f_inode, i_mode);
  if ((mode & S_IFMT) != S_IFSOCK)
    return 0;
  struct socket *sock = BPF_CORE_READ(f, private_data);
  __u16 family = BPF_CORE_READ(sock, sk, __sk_common.skc_family);
  return family == AF_UNIX;
}

static __always_inline __u64 iov_bytes(unsigned long uiov, unsigned long count)
{
  const struct iovec *iov = (const struct iovec *)uiov;
  __u64 total = 0;
  for (int i = 0; i < DL_MAX_IOV; i++) {
    if (i >= count)
      break;
    struct iovec v = {};
    bpf_probe_read_user(&v, sizeof(v), &iov[i]);
    total += v.iov_len;
  }
  return total;
}

#include "net.bpf.h"

static __always_inline __u64 user_u64(unsigned long uptr)
{
  __u64 v = 0;
  if (uptr)
    bpf_probe_read_user(&v, sizeof(v), (void *)uptr);
  return v;
}

/* What an enter_* step makes of a syscall: not one of its own (the next step looks at it), one it
 * does not record (anonymous memory, a socket of neither kind), or one recorded. FILE: the exit
 * also needs the struct file behind p->fd, read at entry (a close invalidates it); FILE_POS: and
 * its position too (the syscall uses and advances it). */
enum dl_enter {
  DL_ENTER_OTHER = -1,
  DL_ENTER_SKIP = 0,
  DL_ENTER_RECORD,
  DL_ENTER_FILE,
  DL_ENTER_FILE_POS,
};

/* Syscalls that move data through a descriptor: reads and writes, plain, positioned and vectored;
 * sendfile and copy_file_range (from p->fd to p->arg); getdents64. `a`: the six arguments. */
static __always_inline int enter_data(struct pending *p, long nr, const unsigned long *a)
{
  switch (nr) {
  case __NR_read: p->op = DL_OP_READ; p->fd = a[0]; p->uptr = a[1]; p->size = a[2]; return DL_ENTER_FILE_POS;
  case __NR_write: p->op = DL_OP_WRITE; p->fd = a[0]; p->size = a[2]; return DL_ENTER_FILE_POS;
  case __NR_pread64: p->op = DL_OP_PREAD; p->fd = a[0]; p->uptr = a[1]; p->size = a[2]; p->offset = a[3]; return DL_ENTER_FILE;
  case __NR_pwrite64: p->op = DL_OP_PWRITE; p->fd = a[0]; p->size = a[2]; p->offset = a[3]; return DL_ENTER_FILE;
  case __NR_readv:
  case __NR_writev:
    p->op = nr == __NR_readv ? DL_OP_READV : DL_OP_WRITEV;
    p->fd = a[0]; p->size = iov_bytes(a[1], a[2]); p->arg = a[2];
    return DL_ENTER_FILE_POS;
  case __NR_preadv:
  case __NR_pwritev:
  case __NR_preadv2:
  case __NR_pwritev2:
    p->op = (nr == __NR_preadv || nr == __NR_preadv2) ? DL_OP_PREADV : DL_OP_PWRITEV;
    p->fd = a[0]; p->size = iov_bytes(a[1], a[2]); p->arg = a[2]; p->offset = a[3];
    if (nr == __NR_preadv2 || nr == __NR_pwritev2) {
      p->flags = a[5];
      if ((long)a[3] == -1) /* -1: use and advance the file position */
        return DL_ENTER_FILE_POS;
    }
    return DL_ENTER_FILE;
  case __NR_sendfile:
    p->op = DL_OP_SENDFILE; p->fd = a[1]; p->arg = a[0]; p->size = a[3];
    if (!a[2])
      return DL_ENTER_FILE_POS;
    p->offset = user_u64(a[2]);
    return DL_ENTER_FILE;
  case __NR_copy_file_range:
    p->op = DL_OP_COPY_FILE_RANGE; p->fd = a[0]; p->arg = a[2]; p->size = a[4]; p->flags = a[5];
    if (!a[1])
      return DL_ENTER_FILE_POS;
    p->offset = user_u64(a[1]);
    return DL_ENTER_FILE;
  case __NR_getdents64: p->op = DL_OP_GETDENTS; p->fd = a[0]; p->size = a[2]; return DL_ENTER_FILE_POS;
  }
  return DL_ENTER_OTHER;
}

/* Syscalls on a descriptor or a mapping that move no data through it: close, seek, map (of a file
 * only), sync, allocate, truncate, fstat. */
static __always_inline int enter_fd(struct pending *p, long nr, const unsigned long *a)
{
  switch (nr) {
  case __NR_close: p->op = DL_OP_CLOSE; p->fd = a[0]; return DL_ENTER_FILE;
  case __NR_lseek: p->op = DL_OP_LSEEK; p->fd = a[0]; p->offset = a[1]; p->arg = a[2]; return DL_ENTER_FILE;
  case __NR_mmap:
    if ((long)a[4] < 0 || (a[3] & MAP_ANONYMOUS))
      return DL_ENTER_SKIP; /* anonymous memory: not file I/O */
    p->op = DL_OP_MMAP; p->fd = a[4]; p->size = a[1]; p->offset = a[5]; p->flags = a[3]; p->arg = a[2];
    return DL_ENTER_FILE;
  case __NR_munmap: p->op = DL_OP_MUNMAP; p->offset = a[0]; p->size = a[1]; return DL_ENTER_RECORD;
  case __NR_fsync: p->op = DL_OP_FSYNC; p->fd = a[0]; return DL_ENTER_FILE;
  case __NR_fdatasync: p->op = DL_OP_FDATASYNC; p->fd = a[0]; return DL_ENTER_FILE;
  case __NR_sync_file_range:
    p->op = DL_OP_SYNC_FILE_RANGE; p->fd = a[0]; p->offset = a[1]; p->size = a[2]; p->flags = a[3];
    return DL_ENTER_FILE;
  case __NR_fallocate:
    p->op = DL_OP_FALLOCATE; p->fd = a[0]; p->flags = a[1]; p->offset = a[2]; p->size = a[3];
    return DL_ENTER_FILE;
  case __NR_ftruncate: p->op = DL_OP_FTRUNCATE; p->fd = a[0]; p->size = a[1]; return DL_ENTER_FILE;
  case __NR_fstat: p->op = DL_OP_STAT; p->fd = a[0]; return DL_ENTER_FILE;
  }
  return DL_ENTER_OTHER;
}

/* Syscalls that name a path (read at exit, relative to the directory descriptor in p->arg): open,
 * rename, unlink, mkdir, stat. A stat of an empty path through a descriptor is an fstat. */
static __always_inline int enter_path(struct pending *p, long nr, const unsigned long *a)
{
  switch (nr) {
  case __NR_open: p->op = DL_OP_OPEN; p->uptr = a[0]; p->flags = a[1]; p->arg = DL_AT_FDCWD; break;
  case __NR_creat: p->op = DL_OP_OPEN; p->uptr = a[0]; p->flags = 01101; p->arg = DL_AT_FDCWD; break;
  case __NR_openat: p->op = DL_OP_OPEN; p->uptr = a[1]; p->flags = a[2]; p->arg = a[0]; break;
  case __NR_openat2: p->op = DL_OP_OPEN; p->uptr = a[1]; p->flags = user_u64(a[2]); p->arg = a[0]; break;
  case __NR_rename: p->op = DL_OP_RENAME; p->uptr = a[1]; p->arg = DL_AT_FDCWD; break;
  case __NR_renameat: p->op = DL_OP_RENAME; p->uptr = a[3]; p->arg = a[2]; break;
  case __NR_renameat2: p->op = DL_OP_RENAME; p->uptr = a[3]; p->arg = a[2]; p->flags = a[4]; break;
  case __NR_unlink: p->op = DL_OP_UNLINK; p->uptr = a[0]; p->arg = DL_AT_FDCWD; break;
  case __NR_unlinkat: p->op = DL_OP_UNLINK; p->uptr = a[1]; p->arg = a[0]; p->flags = a[2]; break;
  case __NR_mkdir: p->op = DL_OP_MKDIR; p->uptr = a[0]; p->flags = a[1]; p->arg = DL_AT_FDCWD; break;
  case __NR_mkdirat: p->op = DL_OP_MKDIR; p->uptr = a[1]; p->arg = a[0]; p->flags = a[2]; break;
  case __NR_stat:
  case __NR_lstat: p->op = DL_OP_STAT; p->uptr = a[0]; p->arg = DL_AT_FDCWD; break;
  case __NR_newfstatat:
  case __NR_statx:
    p->op = DL_OP_STAT; p->uptr = a[1]; p->arg = a[0];
    p->flags = nr == __NR_statx ? a[2] : a[3];
    if (p->flags & AT_EMPTY_PATH) { /* fstat through a dirfd */
      p->fd = a[0];
      return DL_ENTER_FILE;
    }
    break;
  default:
    return DL_ENTER_OTHER;
  }
  p->has_path = 1;
  return DL_ENTER_RECORD;
}

/* The socket syscalls: sendmsg/recvmsg on unix sockets (the DataLoader's batch hand-over, as
 * dl_io records) and the sends and receives of TCP sockets (net.bpf.h); a socket of neither kind
 * is not recorded. */
static __always_inline int enter_socket(struct pending *p, long nr, const unsigned long *a)
{
  struct file *f;
  switch (nr) {
  case __NR_sendto:
  case __NR_recvfrom:
    f = fd_to_file(a[0]);
    if (!net_enter(p, nr == __NR_sendto ? DL_NET_SEND : DL_NET_RECV, f, a[0], a[1], a[2], a[3]))
      return DL_ENTER_SKIP;
    return DL_ENTER_RECORD;
  case __NR_sendmsg:
  case __NR_recvmsg:
    f = fd_to_file(a[0]);
    if (is_unix_socket(f)) {
      p->op = nr == __NR_sendmsg ? DL_OP_SENDMSG : DL_OP_RECVMSG;
      p->fd = a[0];
      p->flags = a[2];
      p->file = (__u64)f;
      return DL_ENTER_RECORD;
    }
    if (!net_enter_msg(p, nr == __NR_sendmsg ? DL_NET_SEND : DL_NET_RECV, f, a[0], a[1], a[2]))
      return DL_ENTER_SKIP;
    return DL_ENTER_RECORD;
  }
  return DL_ENTER_OTHER;
}

/* The pending record of a syscall from its number and its six arguments (x86_64: rdi, rsi, rdx,
 * r10, r8, r9), the struct file and position read now where the exit needs them. Returns 0 for a
 * syscall that is not recorded. */
static __always_inline int enter_args(struct pending *p, long nr, const unsigned long *a)
{
  int want = enter_data(p, nr, a);
  if (want == DL_ENTER_OTHER)
    want = enter_fd(p, nr, a);
  if (want == DL_ENTER_OTHER)
    want = enter_path(p, nr, a);
  if (want == DL_ENTER_OTHER)
    want = enter_socket(p, nr, a);
  if (want <= DL_ENTER_SKIP)
    return 0;
  if (want >= DL_ENTER_FILE) {
    struct file *f = fd_to_file(p->fd);
    p->file = (__u64)f;
    if (want == DL_ENTER_FILE_POS && f)
      p->offset = DL_AS_FILE(f)->f_pos;
  }
  return 1;
}

/* The task's pending slot, at entry: NULL while the task has none yet, else the slot with its
 * previous syscall marked done. Returns 0 when the task is not traced. The slot is created
 * (keep_pending) at the first recorded syscall once the tgid filter says the task is traced, so
 * untraced tasks never get storage. */
static __always_inline int traced_slot(struct task_struct *task, struct pending **slot)
{
  *slot = bpf_task_storage_get(&pending, task, 0, 0);
  if (*slot) {
    (*slot)->active = 0;
    return 1;
  }
  return traced(bpf_get_current_pid_tgid() >> 32);
}

/* Keeps `p` in the task's slot until the exit, creating the slot at the task's first recorded
 * syscall; a failure to create it is counted as a lost record. */
static __always_inline void keep_pending(struct task_struct *task, struct pending *slot,
                                         struct pending *p)
{
  if (!slot) {
    slot = bpf_task_storage_get(&pending, task, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
    if (!slot) {
      count_lost(DL_LOST_TASK_STORAGE); /* out of memory, or the storage lock was busy */
      return;
    }
  }
  p->active = 1;
  p->ts = bpf_ktime_get_ns();
  *slot = *p;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(dl_sys_enter, struct pt_regs *regs, long id)
{
  struct task_struct *task = bpf_get_current_task_btf();
  struct pending *slot;
  if (!traced_slot(task, &slot))
    return 0;
  struct pending p = {};
  p.fd = -1;
  /* `regs` is a BTF pointer: direct loads (CO-RE relocated, fault-safe) cost far less than a
   * probe-read helper call each. */
  const unsigned long a[6] = {regs->di, regs->si, regs->dx, regs->r10, regs->r8, regs->r9};
  if (enter_args(&p, id, a))
    keep_pending(task, slot, &p);
  return 0;
}

static __always_inline void fill_io(struct dl_io *io, const struct pending *p, __u64 id, __u64 now,
                                    long ret, struct file *f)
{
  io->kind = DL_K_IO;
  io->op = p->op;
  io->magic_len = 0;
  io->path_abs = 0;
  io->fd = p->fd;
  io->pid = id >> 32;
  io->tid = (__u32)id;
  io->flags = p->flags;
  io->mode = 0;
  io->ts_ns = p->ts;
  io->dur_ns = now - p->ts;
  io->offset = p->offset;
  io->size = p->size;
  io->ret = ret;
  io->arg = p->arg;
  io->dev = 0;
  io->ino = 0;
  io->isize = 0;
  io->magic = 0;
  fill_file(io, f);
  if (with_magic && (p->op == DL_OP_READ || p->op == DL_OP_PREAD) && p->offset == 0 && ret > 0 &&
      p->uptr && (io->mode & S_IFMT) == S_IFREG) {
    __u32 n = ret < 8 ? (__u32)ret : 8;
    if (n > 0 && n <= 8 && bpf_probe_read_user(&io->magic, n, (void *)p->uptr) == 0)
      io->magic_len = n;
  }
}

SEC("tp_btf/sys_exit")
int BPF_PROG(dl_sys_exit, struct pt_regs *regs, long ret)
{
  struct pending *pp = bpf_task_storage_get(&pending, bpf_get_current_task_btf(), 0, 0);
  if (!pp || !pp->active)
    return 0;
  __u64 now = bpf_ktime_get_ns();
  struct pending p = *pp;
  pp->active = 0;
  __u64 id = bpf_get_current_pid_tgid();
  if (p.net)
    return net_exit(&p, id, now, ret);
  struct file *f = (struct file *)p.file;
  int send_path = p.has_path;
  /* The path is sent with every open, not once per (dev, ino): inode numbers are reused as soon
   * as a file is removed (seen in PyTorch runs: a checkpoint got the inode of a removed temp dir). */
  if (p.op == DL_OP_OPEN && ret >= 0) {
    p.fd = ret;
    f = fd_to_file(ret);
  }
  if (send_path) {
    struct dl_path *r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);
    if (!r) {
      count_lost(DL_LOST_RINGBUF);
      return 0;
    }
    fill_io(&r->io, &p, id, now, ret, f);
    r->io.kind = DL_K_PATH;
    if (p.op == DL_OP_OPEN && ret >= 0 && file_abs_path(f, r->path) == 0)
      r->io.path_abs = 1;
    else if (arg_abs_path(p.uptr, p.arg, r->path) == 0)
      r->io.path_abs = 2;
    else if (bpf_probe_read_user_str(r->path, sizeof(r->path), (void *)p.uptr) < 0)
      r->path[0] = 0;
    bpf_ringbuf_submit(r, wakeup_flag(sizeof(*r)));
  } else {
    struct dl_io *r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);
    if (!r) {
      count_lost(DL_LOST_RINGBUF);
      return 0;
    }
    fill_io(r, &p, id, now, ret, f);
    bpf_ringbuf_submit(r, wakeup_flag(sizeof(*r)));
  }
  return 0;
}
