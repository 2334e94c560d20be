// SPDX-License-Identifier: GPL-2.0
/* dlgen's block requests (--block): each request a traced process issues, from issue to
 * completion, with the file it moves data for (events.h, DL_OP_BLOCK). */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "events.h"
#include "shared.bpf.h"
#include "tracer.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* Set by user space before load (--block); off, user space does not even load these programs. */
const volatile __u8 with_block = 0;

dl_inflight_map block_reqs SEC(".maps");

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
