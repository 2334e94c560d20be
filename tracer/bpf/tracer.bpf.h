/* What the tracer's program files share beyond shared.bpf.h: the syscall a task is inside (task
 * storage written by syscalls.bpf.c, read by block.bpf.c to name the file of an O_DIRECT request),
 * requests in flight between two tracepoints (io_uring, block), and reading a struct file.
 * Include after vmlinux.h, events.h and shared.bpf.h. */
#ifndef DLGEN_TRACER_BPF_H
#define DLGEN_TRACER_BPF_H

#define S_IFMT 00170000
#define S_IFSOCK 0140000
#define S_IFREG 0100000

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
  __u8 net;    /* enum dl_net_op: a send or receive on a TCP socket (net.bpf.h); 0 otherwise */
  __u8 active; /* set at a recorded syscall's entry, cleared at its exit */
};

typedef struct {
  __uint(type, BPF_MAP_TYPE_TASK_STORAGE);
  __uint(map_flags, BPF_F_NO_PREALLOC);
  __type(key, int);
  __type(value, struct pending);
} dl_pending_map;

extern dl_pending_map pending SEC(".maps"); /* defined in syscalls.bpf.c */

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

typedef struct {
  __uint(type, BPF_MAP_TYPE_HASH);
  __uint(max_entries, 65536);
  __uint(map_flags, BPF_F_NO_PREALLOC);
  __type(key, __u64);
  __type(value, struct inflight);
} dl_inflight_map;

/* kfunc (Linux >= 6.2): a scalar kernel address as a typed, read-only BTF pointer, so that field
 * loads through it are plain (fault-safe) loads instead of one probe-read helper call each.
 * libbpf 1.1's static linker (Debian 12's bpftool) cannot link a kfunc declared __ksym in two
 * files ("failed to resolve size of underlying type"; fixed in libbpf 1.5), and 1.1 does not
 * resolve `___flavour` names of kfuncs. So syscalls.bpf.c declares it as a kernel symbol
 * (DL_KSYM_OWNER) and the other files, linked after it, as a plain extern function, which the
 * linker binds to that one declaration (linked before it, they fail with "section mismatch"). */
#ifdef DL_KSYM_OWNER
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym;
#else
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id);
#endif
#define DL_AS_FILE(p) ((struct file *)bpf_rdonly_cast((void *)(p), bpf_core_type_id_kernel(struct file)))

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

/* The identity of the file `f` (dev, ino, i_size, i_mode) into the record; left 0 without one. */
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

#endif
