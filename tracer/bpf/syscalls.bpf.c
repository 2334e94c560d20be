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

/* The socket syscalls: sendmsg/recvmsg on unix sockets (the DataLoader's batch hand-over, as
 * dl_io records) and the sends and receives of TCP sockets (net.bpf.h). Returns 0 for a socket
 * of neither kind (not recorded). */
static __always_inline int enter_socket(struct pending *p, long nr, unsigned long a0,
                                        unsigned long a1, unsigned long a2, unsigned long a3)
{
  struct file *f = fd_to_file(a0);
  switch (nr) {
  case __NR_sendto:
  case __NR_recvfrom:
    return net_enter(p, nr == __NR_sendto ? DL_NET_SEND : DL_NET_RECV, f, a0, a1, a2, a3);
  case __NR_sendmsg:
  case __NR_recvmsg:
    if (!is_unix_socket(f))
      return net_enter_msg(p, nr == __NR_sendmsg ? DL_NET_SEND : DL_NET_RECV, f, a0, a1, a2);
    p->op = nr == __NR_sendmsg ? DL_OP_SENDMSG : DL_OP_RECVMSG;
    p->fd = a0;
    p->flags = a2;
    p->file = (__u64)f;
    return 1;
  }
  return 0;
}

static __always_inline __u64 user_u64(unsigned long uptr)
{
  __u64 v = 0;
  if (uptr)
    bpf_probe_read_user(&v, sizeof(v), (void *)uptr);
  return v;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(dl_sys_enter, struct pt_regs *regs, long id)
{
  /* The task's pending slot: task storage, created at the first syscall that is recorded once the
   * tgid filter says the task is traced (so untraced tasks never get storage, and a failure to
   * create it is counted only when a record is lost to it). */
  struct task_struct *task = bpf_get_current_task_btf();
  struct pending *slot = bpf_task_storage_get(&pending, task, 0, 0);
  if (slot)
    slot->active = 0;
  else if (!traced(bpf_get_current_pid_tgid() >> 32))
    return 0;
  struct pending p = {};
  p.fd = -1;
  /* x86_64 syscall arguments: rdi, rsi, rdx, r10, r8, r9. `regs` is a BTF pointer: direct loads
   * (CO-RE relocated, fault-safe) cost far less than a probe-read helper call each. */
  unsigned long a0 = regs->di, a1 = regs->si, a2 = regs->dx, a3 = regs->r10, a4 = regs->r8, a5 = regs->r9;
  int want_file = 0, want_pos = 0;
  const long nr = id;
  switch (nr) {
  case __NR_open: p.op = DL_OP_OPEN; p.uptr = a0; p.flags = a1; p.arg = DL_AT_FDCWD; p.has_path = 1; break;
  case __NR_creat: p.op = DL_OP_OPEN; p.uptr = a0; p.flags = 01101; p.arg = DL_AT_FDCWD; p.has_path = 1; break;
  case __NR_openat: p.op = DL_OP_OPEN; p.uptr = a1; p.flags = a2; p.arg = a0; p.has_path = 1; break;
  case __NR_openat2: p.op = DL_OP_OPEN; p.uptr = a1; p.flags = user_u64(a2); p.arg = a0; p.has_path = 1; break;
  case __NR_close: p.op = DL_OP_CLOSE; p.fd = a0; want_file = 1; break;
  case __NR_read: p.op = DL_OP_READ; p.fd = a0; p.uptr = a1; p.size = a2; want_file = want_pos = 1; break;
  case __NR_write: p.op = DL_OP_WRITE; p.fd = a0; p.size = a2; want_file = want_pos = 1; break;
  case __NR_pread64: p.op = DL_OP_PREAD; p.fd = a0; p.uptr = a1; p.size = a2; p.offset = a3; want_file = 1; break;
  case __NR_pwrite64: p.op = DL_OP_PWRITE; p.fd = a0; p.size = a2; p.offset = a3; want_file = 1; break;
  case __NR_readv:
  case __NR_writev:
    p.op = nr == __NR_readv ? DL_OP_READV : DL_OP_WRITEV;
    p.fd = a0; p.size = iov_bytes(a1, a2); p.arg = a2; want_file = want_pos = 1;
    break;
  case __NR_preadv:
  case __NR_pwritev:
  case __NR_preadv2:
  case __NR_pwritev2:
    p.op = (nr == __NR_preadv || nr == __NR_preadv2) ? DL_OP_PREADV : DL_OP_PWRITEV;
    p.fd = a0; p.size = iov_bytes(a1, a2); p.arg = a2; p.offset = a3; want_file = 1;
    if (nr == __NR_preadv2 || nr == __NR_pwritev2) {
      p.flags = a5;
      if ((long)a3 == -1) /* -1: use and advance the file position */
        want_pos = 1;
    }
    break;
  case __NR_lseek: p.op = DL_OP_LSEEK; p.fd = a0; p.offset = a1; p.arg = a2; want_file = 1; break;
  case __NR_mmap:
    if ((long)a4 < 0 || (a3 & MAP_ANONYMOUS))
      return 0; /* anonymous memory: not file I/O */
    p.op = DL_OP_MMAP; p.fd = a4; p.size = a1; p.offset = a5; p.flags = a3; p.arg = a2; want_file = 1;
    break;
  case __NR_munmap: p.op = DL_OP_MUNMAP; p.offset = a0; p.size = a1; break;
  case __NR_fsync: p.op = DL_OP_FSYNC; p.fd = a0; want_file = 1; break;
  case __NR_fdatasync: p.op = DL_OP_FDATASYNC; p.fd = a0; want_file = 1; break;
  case __NR_sync_file_range: p.op = DL_OP_SYNC_FILE_RANGE; p.fd = a0; p.offset = a1; p.size = a2; p.flags = a3; want_file = 1; break;
  case __NR_fallocate: p.op = DL_OP_FALLOCATE; p.fd = a0; p.flags = a1; p.offset = a2; p.size = a3; want_file = 1; break;
  case __NR_ftruncate: p.op = DL_OP_FTRUNCATE; p.fd = a0; p.size = a1; want_file = 1; break;
  case __NR_rename: p.op = DL_OP_RENAME; p.uptr = a1; p.arg = DL_AT_FDCWD; p.has_path = 1; break;
  case __NR_renameat: p.op = DL_OP_RENAME; p.uptr = a3; p.arg = a2; p.has_path = 1; break;
  case __NR_renameat2: p.op = DL_OP_RENAME; p.uptr = a3; p.arg = a2; p.flags = a4; p.has_path = 1; break;
  case __NR_unlink: p.op = DL_OP_UNLINK; p.uptr = a0; p.arg = DL_AT_FDCWD; p.has_path = 1; break;
  case __NR_unlinkat: p.op = DL_OP_UNLINK; p.uptr = a1; p.arg = a0; p.flags = a2; p.has_path = 1; break;
  case __NR_mkdir: p.op = DL_OP_MKDIR; p.uptr = a0; p.flags = a1; p.arg = DL_AT_FDCWD; p.has_path = 1; break;
  case __NR_mkdirat: p.op = DL_OP_MKDIR; p.uptr = a1; p.arg = a0; p.flags = a2; p.has_path = 1; break;
  case __NR_getdents64: p.op = DL_OP_GETDENTS; p.fd = a0; p.size = a2; want_file = want_pos = 1; break;
  case __NR_stat:
  case __NR_lstat: p.op = DL_OP_STAT; p.uptr = a0; p.arg = DL_AT_FDCWD; p.has_path = 1; break;
  case __NR_fstat: p.op = DL_OP_STAT; p.fd = a0; want_file = 1; break;
  case __NR_newfstatat:
  case __NR_statx:
    p.op = DL_OP_STAT; p.uptr = a1; p.arg = a0; p.has_path = 1;
    p.flags = nr == __NR_statx ? a2 : a3;
    if (p.flags & AT_EMPTY_PATH) { /* fstat through a dirfd */
      p.fd = a0; want_file = 1; p.has_path = 0;
    }
    break;
  case __NR_sendfile:
    p.op = DL_OP_SENDFILE; p.fd = a1; p.arg = a0; p.size = a3; want_file = 1;
    if (a2) p.offset = user_u64(a2); else want_pos = 1;
    break;
  case __NR_copy_file_range:
    p.op = DL_OP_COPY_FILE_RANGE; p.fd = a0; p.arg = a2; p.size = a4; p.flags = a5; want_file = 1;
    if (a1) p.offset = user_u64(a1); else want_pos = 1;
    break;
  case __NR_sendto:
  case __NR_recvfrom:
  case __NR_sendmsg:
  case __NR_recvmsg:
    if (!enter_socket(&p, nr, a0, a1, a2, a3))
      return 0;
    break;
  default:
    return 0;
  }
  if (want_file) {
    struct file *f = fd_to_file(p.fd);
    p.file = (__u64)f;
    if (want_pos && f)
      p.offset = DL_AS_FILE(f)->f_pos;
  }
  if (!slot) {
    slot = bpf_task_storage_get(&pending, task, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
    if (!slot) {
      count_lost(DL_LOST_TASK_STORAGE); /* out of memory, or the storage lock was busy */
      return 0;
    }
  }
  p.active = 1;
  p.ts = bpf_ktime_get_ns();
  *slot = p;
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
