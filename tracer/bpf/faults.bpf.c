// SPDX-License-Identifier: GPL-2.0
/* dlgen's page faults on memory-mapped files of the traced tree (events.h, DL_OP_FAULT); the
 * mmap and munmap calls themselves are syscalls (syscalls.bpf.c). */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "events.h"
#include "shared.bpf.h"
#include "tracer.bpf.h"

char LICENSE[] SEC("license") = "GPL";

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
