/* Absolute paths built in the kernel, for syscalls.bpf.c (its only includer: the header defines
 * the walk's scratch map and its bpf_loop callback). Include after tracer.bpf.h. */
#ifndef DLGEN_PATH_BPF_H
#define DLGEN_PATH_BPF_H

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

#endif
