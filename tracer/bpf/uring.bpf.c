// SPDX-License-Identifier: GPL-2.0
/* dlgen's io_uring requests of the traced tree: each request from submission to completion, as
 * one record (events.h, DL_OP_URING_*). */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "events.h"
#include "shared.bpf.h"
#include "tracer.bpf.h"

char LICENSE[] SEC("license") = "GPL";

dl_inflight_map uring_reqs SEC(".maps");

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
