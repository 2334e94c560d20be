// SPDX-License-Identifier: GPL-2.0
/* dlgen's tracer: file syscalls, io_uring requests, process events and (optionally) block requests
 * of one process tree, sent to user space through one ring buffer (records in events.h).
 *
 * The traced tree is the `tgids` map: user space seeds it with the root pid(s); sched_process_fork
 * adds every new process of a traced parent and sched_process_exit removes a process when its last
 * thread exits. Threads need no entry: the filter is on the tgid.
 *
 * Syscalls: one program on the typed raw tracepoints sys_enter/sys_exit (tp_btf), switching on the
 * syscall number. (Per-syscall tracepoints syscalls/sys_enter_X need one perf event per syscall,
 * and detaching 80 of them costs ~50 ms each at the end of a capture.) Arguments are kept in task
 * storage (`pending`) from enter to exit; user strings are read at exit, when the kernel has faulted the
 * page in. x86_64 syscall numbers (asm/unistd_64.h). kprobes/fentry are not used: on the target
 * machines they are unavailable. */
#include "vmlinux.h"
#include <asm/unistd_64.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "events.h"
#include "shared.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* Set by user space before load. */
const volatile __u8 with_block = 0; /* record block requests (--block) */
const volatile __u8 with_magic = 1; /* record the first bytes of reads at offset 0 */

#define S_IFMT 00170000
#define S_IFSOCK 0140000
#define S_IFREG 0100000
#define AF_UNIX 1
#define MAP_ANONYMOUS 0x20
#define AT_EMPTY_PATH 0x1000
#define DL_MAX_IOV 16

/* A syscall between enter and exit, kept in task-local storage: one lookup in the task itself at
 * each end instead of a hash update, lookup and delete keyed by tid (those three were ~40% of
 * the programs' time in a pread loop). A traced task gets its storage at its first syscall. */
struct pending {
  __u64 ts;
  __u64 offset;
  __u64 size;
  __u64 arg;
  __u64 uptr; /* user buffer (reads: magic) or path argument */
  __u64 file; /* struct file * behind fd, read at entry (close invalidates it) */
  __s32 fd;
  __u32 flags;
  __u8 op;
  __u8 has_path;
  __u8 active; /* set at a recorded syscall's entry, cleared at its exit */
};

struct {
  __uint(type, BPF_MAP_TYPE_TASK_STORAGE);
  __uint(map_flags, BPF_F_NO_PREALLOC);
  __type(key, int);
  __type(value, struct pending);
} pending SEC(".maps");

/* kfunc (Linux >= 6.2): a scalar kernel address as a typed, read-only BTF pointer, so that field
 * loads through it are plain (fault-safe) loads instead of one probe-read helper call each. */
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym;
#define DL_AS_FILE(p) ((struct file *)bpf_rdonly_cast((void *)(p), bpf_core_type_id_kernel(struct file)))

/* io_uring requests and block requests in flight, keyed by kernel pointer. */
struct inflight {
  __u64 ts;
  __u64 offset;
  __u64 size;
  __u64 dev; /* block requests: the file whose pages the request moves (0 when unknown) */
  __u64 ino;
  __u32 pid;
  __u32 tid;
  __s32 fd;
  __u32 flags;
};

struct {
  __uint(type, BPF_MAP_TYPE_HASH);
  __uint(max_entries, 65536);
  __uint(map_flags, BPF_F_NO_PREALLOC);
  __type(key, __u64);
  __type(value, struct inflight);
} uring_reqs SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_HASH);
  __uint(max_entries, 65536);
  __uint(map_flags, BPF_F_NO_PREALLOC);
  __type(key, __u64);
  __type(value, struct inflight);
} block_reqs SEC(".maps");

static __always_inline struct file *fd_to_file(long fd)
{
  struct task_struct *task = bpf_get_current_task_btf();
  struct fdtable *fdt = task->files->fdt;
  if (!fdt || fd < 0)
    return NULL;
  if ((unsigned long)fd >= fdt->max_fds)
    return NULL;
  struct file **fds = fdt->fd;
  struct file *f = NULL;
  bpf_probe_read_kernel(&f, sizeof(f), &fds[fd]);
  return f;
}

/* Absolute path of an open file, built in the kernel from the struct file itself: the dentry chain
 * (d_parent) up to the root of its mount, then across mounts through struct mount (the vfsmount is
 * embedded in it: mnt_parent, mnt_mountpoint), stopping at the process root (chroot) or the root
 * of the mount namespace (a mount that is its own parent). This names the file the kernel opened,
 * independent of the cwd or dirfd the path was relative to, and of what happens to /proc later.
 * Components are written backwards from the middle of a per-CPU scratch buffer (the stack is too
 * small); DL_WALK_DEPTH bounds the loop (components plus mount crossings). */
#define DL_WALK_DEPTH 32
#define DL_WALK_END 511 /* offset of the terminating NUL; the path lies in [pos, DL_WALK_END) */

struct walk_buf {
  char buf[1024]; /* [0, 512) holds the path; the rest lets the verifier bound pos + length */
};

struct {
  __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
  __uint(max_entries, 1);
  __type(key, __u32);
  __type(value, struct walk_buf);
} walk_scratch SEC(".maps");

/* One step of the walk, run by bpf_loop: the verifier checks this body once instead of every
 * unrolled iteration of a bounded loop (that made dl_sys_exit the bulk of the capture's start-up:
 * ~50 ms of verification for two inlined copies of a 32-step loop). */
struct walk_ctx {
  struct dentry *dentry;
  struct vfsmount *vfsmnt;
  struct mount *mnt;
  struct dentry *root_dentry;
  struct vfsmount *root_mnt;
  __u32 pos;
  int state; /* 0 walking, 1 reached a root, -1 failed */
};

static long walk_step(__u64 index, void *arg)
{
  struct walk_ctx *c = arg;
  /* Copies first: a CO-RE read through c-> would relocate walk_ctx's own fields. */
  struct dentry *dentry = c->dentry;
  struct vfsmount *vfsmnt = c->vfsmnt;
  struct mount *mnt = c->mnt;
  if (dentry == c->root_dentry && vfsmnt == c->root_mnt) {
    c->state = 1;
    return 1;
  }
  struct dentry *mnt_root = BPF_CORE_READ(vfsmnt, mnt_root);
  struct dentry *parent = BPF_CORE_READ(dentry, d_parent);
  if (dentry == mnt_root || dentry == parent) {
    struct mount *mnt_parent = BPF_CORE_READ(mnt, mnt_parent);
    if (mnt_parent == mnt || !mnt_parent) { /* root of the mount namespace */
      c->state = 1;
      return 1;
    }
    c->dentry = BPF_CORE_READ(mnt, mnt_mountpoint);
    c->mnt = mnt_parent;
    c->vfsmnt = (struct vfsmount *)((void *)mnt_parent + bpf_core_field_offset(struct mount, mnt));
    return 0;
  }
  __u32 zero = 0;
  struct walk_buf *w = bpf_map_lookup_elem(&walk_scratch, &zero);
  __u32 len = BPF_CORE_READ(dentry, d_name.len);
  const unsigned char *name = BPF_CORE_READ(dentry, d_name.name);
  __u32 pos = c->pos;
  if (!w || len == 0 || len > 255 || len + 1 > pos) {
    c->state = -1;
    return 1;
  }
  pos -= len + 1;
  pos &= 511;
  w->buf[pos] = '/';
  if (bpf_probe_read_kernel(&w->buf[(pos + 1) & 511], len & 255, name) < 0) {
    c->state = -1;
    return 1;
  }
  c->pos = pos;
  c->dentry = parent;
  return 0;
}

/* Writes the absolute path of (dentry, vfsmnt) backwards into w->buf, ending just before
 * DL_WALK_END; returns its start offset, or -1 when the walk did not reach a root within the bound
 * or the path does not fit. */
static __always_inline int walk_path(struct walk_buf *w, struct dentry *dentry, struct vfsmount *vfsmnt)
{
  struct task_struct *task = bpf_get_current_task_btf();
  if (!dentry || !vfsmnt)
    return -1;
  struct walk_ctx c = {
      .dentry = dentry,
      .vfsmnt = vfsmnt,
      .mnt = (struct mount *)((void *)vfsmnt - bpf_core_field_offset(struct mount, mnt)),
      .root_dentry = BPF_CORE_READ(task, fs, root.dentry),
      .root_mnt = BPF_CORE_READ(task, fs, root.mnt),
      .pos = DL_WALK_END,
      .state = 0,
  };
  bpf_loop(DL_WALK_DEPTH, walk_step, &c, 0);
  if (c.state != 1)
    return -1;
  __u32 pos = c.pos;
  if (pos == DL_WALK_END) { /* the root directory itself */
    pos -= 1;
    w->buf[pos] = '/';
  }
  if (DL_WALK_END - pos >= DL_PATH_MAX)
    return -1;
  return pos;
}

/* Writes the absolute path of the opened file `f` into out[DL_PATH_MAX]; 0 or -1 (then the caller
 * sends the path argument). */
static __always_inline int file_abs_path(struct file *f, char *out)
{
  __u32 zero = 0;
  struct walk_buf *w = bpf_map_lookup_elem(&walk_scratch, &zero);
  if (!w || !f)
    return -1;
  w->buf[DL_WALK_END] = 0;
  int pos = walk_path(w, BPF_CORE_READ(f, f_path.dentry), BPF_CORE_READ(f, f_path.mnt));
  if (pos < 0)
    return -1;
  return bpf_probe_read_kernel(out, DL_PATH_MAX, &w->buf[pos & 511]) < 0 ? -1 : 0;
}

/* For name-based ops (stat, unlink, mkdir, rename, failed opens): the directory the path argument
 * is relative to (the cwd, or the file behind dirfd), named by the kernel, then '/' and the argument
 * as passed (user space normalises "." and ".."). An absolute argument is sent as is. Writes
 * out[DL_PATH_MAX] (truncated if longer); 0 or -1. */
static __always_inline int arg_abs_path(__u64 uptr, __u64 dirfd, char *out)
{
  __u32 zero = 0;
  struct walk_buf *w = bpf_map_lookup_elem(&walk_scratch, &zero);
  if (!w || !uptr)
    return -1;
  if (bpf_probe_read_user_str(&w->buf[DL_WALK_END + 1], DL_PATH_MAX, (void *)uptr) <= 1)
    return -1;
  int pos = DL_WALK_END + 1;
  if (w->buf[DL_WALK_END + 1] != '/') {
    struct dentry *dentry;
    struct vfsmount *vfsmnt;
    if (dirfd == DL_AT_FDCWD || (__s32)dirfd == -100) {
      struct task_struct *task = bpf_get_current_task_btf();
      dentry = BPF_CORE_READ(task, fs, pwd.dentry);
      vfsmnt = BPF_CORE_READ(task, fs, pwd.mnt);
    } else {
      struct file *d = fd_to_file((__s32)dirfd);
      if (!d)
        return -1;
      dentry = BPF_CORE_READ(d, f_path.dentry);
      vfsmnt = BPF_CORE_READ(d, f_path.mnt);
    }
    pos = walk_path(w, dentry, vfsmnt);
    if (pos < 0)
      return -1;
    w->buf[DL_WALK_END] = '/';
  }
  if (pos < 0 || pos > DL_WALK_END + 1)
    return -1;
  if (bpf_probe_read_kernel(out, DL_PATH_MAX, &w->buf[pos]) < 0)
    return -1;
  out[DL_PATH_MAX - 1] = 0;
  return 0;
}

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
  case __NR_sendmsg:
  case __NR_recvmsg: {
    struct file *f = fd_to_file(a0);
    if (!is_unix_socket(f))
      return 0; /* only unix sockets: batch handover between DataLoader workers and main */
    p.op = nr == __NR_sendmsg ? DL_OP_SENDMSG : DL_OP_RECVMSG;
    p.fd = a0; p.flags = a2; p.file = (__u64)f;
    break;
  }
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

static __always_inline void fill_file(struct dl_io *io, struct file *f)
{
  if (!f)
    return;
  struct inode *inode = DL_AS_FILE(f)->f_inode;
  if (!inode)
    return;
  io->dev = inode->i_sb->s_dev;
  io->ino = inode->i_ino;
  io->isize = inode->i_size;
  io->mode = inode->i_mode;
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

/* io_uring: the request is seen at submission (in the submitter's context, so the tgid filter
 * applies) and matched at completion by its kernel address. At submission the file may not be
 * assigned yet, so the fd is taken from req->cqe.fd; the file is read at completion. Offset and
 * length are only meaningful for read/write opcodes (struct io_rw lives in req->cmd). */
SEC("tp_btf/io_uring_submit_req")
int BPF_PROG(dl_uring_submit, struct io_kiocb *req)
{
  __u64 id = bpf_get_current_pid_tgid();
  if (!traced(id >> 32))
    return 0;
  struct inflight r = {};
  r.ts = bpf_ktime_get_ns();
  r.pid = id >> 32;
  r.tid = (__u32)id;
  r.flags = BPF_CORE_READ(req, opcode);
  r.fd = BPF_CORE_READ(req, cqe.fd);
  if (r.flags == IORING_OP_READV || r.flags == IORING_OP_WRITEV || r.flags == IORING_OP_READ_FIXED ||
      r.flags == IORING_OP_WRITE_FIXED || r.flags == IORING_OP_READ || r.flags == IORING_OP_WRITE) {
    struct io_rw *rw = (struct io_rw *)&req->cmd;
    r.offset = BPF_CORE_READ(rw, kiocb.ki_pos);
    r.size = BPF_CORE_READ(rw, len);
  }
  __u64 key = (__u64)req;
  if (bpf_map_update_elem(&uring_reqs, &key, &r, BPF_ANY) != 0)
    count_lost(DL_LOST_URING_MAP); /* full (-E2BIG) or out of memory: its completion goes unseen */
  return 0;
}

/* A request seen at issue (io_uring, block) completes: takes it out of `map` and reserves its
 * record with the fields known at issue filled in; NULL when it was not traced (or was lost). */
static __always_inline struct dl_io *complete_inflight(void *map, __u64 key)
{
  struct inflight *in = bpf_map_lookup_elem(map, &key);
  if (!in)
    return NULL;
  struct inflight r = *in;
  bpf_map_delete_elem(map, &key);
  struct dl_io *io = bpf_ringbuf_reserve(&events, sizeof(*io), 0);
  if (!io) {
    count_lost(DL_LOST_RINGBUF);
    return NULL;
  }
  __builtin_memset(io, 0, sizeof(*io));
  io->kind = DL_K_IO;
  io->fd = r.fd;
  io->pid = r.pid;
  io->tid = r.tid;
  io->flags = r.flags;
  io->ts_ns = r.ts;
  io->dur_ns = bpf_ktime_get_ns() - r.ts;
  io->offset = r.offset;
  io->size = r.size;
  io->dev = r.dev;
  io->ino = r.ino;
  return io;
}

SEC("tp_btf/io_uring_complete")
int BPF_PROG(dl_uring_complete, struct io_ring_ctx *uctx, void *req, struct io_uring_cqe *cqe)
{
  struct dl_io *io = complete_inflight(&uring_reqs, (__u64)req);
  if (!io)
    return 0;
  const __u32 opcode = io->flags;
  if (opcode == IORING_OP_READV || opcode == IORING_OP_READ_FIXED || opcode == IORING_OP_READ)
    io->op = DL_OP_URING_READ;
  else if (opcode == IORING_OP_WRITEV || opcode == IORING_OP_WRITE_FIXED || opcode == IORING_OP_WRITE)
    io->op = DL_OP_URING_WRITE;
  else
    io->op = DL_OP_URING_OTHER;
  io->ret = BPF_CORE_READ(cqe, res);
  if (io->op != DL_OP_URING_OTHER)
    fill_file(io, BPF_CORE_READ((struct io_kiocb *)req, file));
  bpf_ringbuf_submit(io, wakeup_flag(sizeof(*io)));
  return 0;
}

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

/* The file a block request moves data for, so that user space can split device traffic by file
 * (dataset, checkpoint, the program's own libraries). Page-cache I/O (buffered reads, readahead,
 * writeback done in the process's context by fsync): the owner of the first page of the first bio
 * (page->mapping->host). Anonymous or user pages (O_DIRECT) carry no file: then the file of the
 * syscall the issuing thread is inside, if any. Metadata pages belong to the block device's own
 * inode, which matches no file: left unattributed. */
#define DL_PAGE_MAPPING_FLAGS 3UL /* PAGE_MAPPING_ANON | PAGE_MAPPING_MOVABLE */
static __always_inline void block_owner(struct request *rq, struct inflight *r)
{
  struct bio *bio = BPF_CORE_READ(rq, bio);
  if (!bio)
    return;
  struct page *pg = BPF_CORE_READ(bio, bi_io_vec, bv_page);
  if (pg) {
    struct address_space *m = BPF_CORE_READ(pg, mapping);
    if (m && !((unsigned long)m & DL_PAGE_MAPPING_FLAGS)) {
      struct inode *host = BPF_CORE_READ(m, host);
      if (host) {
        r->dev = BPF_CORE_READ(host, i_sb, s_dev);
        r->ino = BPF_CORE_READ(host, i_ino);
        return;
      }
    }
  }
  struct pending *slot = bpf_task_storage_get(&pending, bpf_get_current_task_btf(), 0, 0);
  if (slot && slot->active && slot->file) {
    struct inode *inode = DL_AS_FILE(slot->file)->f_inode;
    if (inode) {
      r->dev = inode->i_sb->s_dev;
      r->ino = inode->i_ino;
    }
  }
}

/* Block requests, attributed to the traced process that issues them (page-cache misses it caused
 * directly; writeback from kernel threads is not attributed). */
SEC("tp_btf/block_rq_issue")
int BPF_PROG(dl_block_issue, struct request *rq)
{
  if (!with_block)
    return 0;
  __u64 id = bpf_get_current_pid_tgid();
  if (!traced(id >> 32))
    return 0;
  struct inflight r = {};
  r.ts = bpf_ktime_get_ns();
  r.pid = id >> 32;
  r.tid = (__u32)id;
  r.fd = -1;
  r.offset = BPF_CORE_READ(rq, __sector) * 512;
  r.size = BPF_CORE_READ(rq, __data_len);
  r.flags = BPF_CORE_READ(rq, cmd_flags) & 0xff; /* REQ_OP_* */
  block_owner(rq, &r);
  __u64 key = (__u64)rq;
  if (bpf_map_update_elem(&block_reqs, &key, &r, BPF_ANY) != 0)
    count_lost(DL_LOST_BLOCK_MAP);
  return 0;
}

SEC("tp_btf/block_rq_complete")
int BPF_PROG(dl_block_complete, struct request *rq, blk_status_t error, unsigned int nr_bytes)
{
  if (!with_block)
    return 0;
  struct dl_io *io = complete_inflight(&block_reqs, (__u64)rq);
  if (!io)
    return 0;
  io->op = DL_OP_BLOCK;
  io->ret = -(long)error;
  bpf_ringbuf_submit(io, wakeup_flag(sizeof(*io)));
  return 0;
}

/* Page faults on memory-mapped files (np.load(mmap_mode="r"), Arrow, LMDB): reads that make no
 * syscall. mm_filemap_fault fires when a fault has to find (and, on a miss, read in) its page;
 * mm_filemap_map_pages when a fault maps the pages around it that are already cached
 * ("fault-around", 64 KiB by default; the range is the window asked for, of which at least one
 * page was mapped). A page already in the process's page tables faults no more, so each records
 * the first touch of its pages by that process only. Both fire in the faulting task, so the tgid
 * filter applies; faults on the interpreter's own libraries at import are recorded too (user
 * space leaves those without a file unless the program opened it). */
static __always_inline void send_fault(struct address_space *mapping, __u64 first, __u64 last,
                                       __u32 around)
{
  __u64 id = bpf_get_current_pid_tgid();
  if (!traced(id >> 32) || !mapping || last < first)
    return;
  struct inode *host = mapping->host;
  if (!host)
    return;
  struct dl_io *io = bpf_ringbuf_reserve(&events, sizeof(*io), 0);
  if (!io) {
    count_lost(DL_LOST_RINGBUF);
    return;
  }
  __builtin_memset(io, 0, sizeof(*io));
  io->kind = DL_K_IO;
  io->op = DL_OP_FAULT;
  io->fd = -1;
  io->pid = id >> 32;
  io->tid = (__u32)id;
  io->flags = around;
  io->ts_ns = bpf_ktime_get_ns();
  io->offset = first << DL_PAGE_SHIFT;
  io->size = (last - first + 1) << DL_PAGE_SHIFT;
  io->ret = io->size;
  io->dev = host->i_sb->s_dev;
  io->ino = host->i_ino;
  io->isize = host->i_size;
  io->mode = host->i_mode;
  bpf_ringbuf_submit(io, wakeup_flag(sizeof(*io)));
}

SEC("tp_btf/mm_filemap_fault")
int BPF_PROG(dl_filemap_fault, struct address_space *mapping, unsigned long index)
{
  send_fault(mapping, index, index, 0);
  return 0;
}

SEC("tp_btf/mm_filemap_map_pages")
int BPF_PROG(dl_filemap_map_pages, struct address_space *mapping, unsigned long start,
             unsigned long last)
{
  send_fault(mapping, start, last, 1);
  return 0;
}
