/* The network concern of syscalls.bpf.c: sends and receives on TCP sockets, sent as struct dl_net
 * (events.h) for user space to pair HTTP requests with their responses (tracer/src/http_tracker).
 *
 * Helpers called from the one sys_enter/sys_exit pair rather than programs of their own: a second
 * program on those tracepoints would run, and filter by tgid, on every syscall of the traced tree
 * again, and the arguments already travel in the one `pending` slot. Include after tracer.bpf.h. */
#ifndef DLGEN_NET_BPF_H
#define DLGEN_NET_BPF_H

#include <bpf/bpf_endian.h>

#define AF_INET 2
#define AF_INET6 10
#define SOCK_STREAM 1
#define DL_EAGAIN 11

/* The struct sock behind `f` when it is a stream socket of AF_INET or AF_INET6 (TCP), else NULL. */
static __always_inline struct sock *tcp_sock_of(struct file *f)
{
  if (!f)
    return NULL;
  umode_t mode = BPF_CORE_READ(f, f_inode, i_mode);
  if ((mode & S_IFMT) != S_IFSOCK)
    return NULL;
  struct socket *sock = BPF_CORE_READ(f, private_data);
  if (!sock || BPF_CORE_READ(sock, type) != SOCK_STREAM)
    return NULL;
  struct sock *sk = BPF_CORE_READ(sock, sk);
  __u16 family = BPF_CORE_READ(sk, __sk_common.skc_family);
  return family == AF_INET || family == AF_INET6 ? sk : NULL;
}

/* sendto/recvfrom(fd, buf, len, flags): fills `p` and returns 1 when `f` is a TCP socket. The
 * struct sock travels in p->offset (not p->file, which block.bpf.c reads as a struct file), the
 * first buffer and its length in p->uptr and p->arg. */
static __always_inline int net_enter(struct pending *p, __u8 op, struct file *f, long fd,
                                     unsigned long buf, unsigned long len, unsigned long flags)
{
  struct sock *sk = tcp_sock_of(f);
  if (!sk)
    return 0;
  p->net = op;
  p->fd = fd;
  p->uptr = buf;
  p->arg = len;
  p->size = len;
  p->flags = flags;
  p->offset = (__u64)sk;
  return 1;
}

/* sendmsg/recvmsg(fd, msg, flags) on a TCP socket: the first iovec is the buffer whose head is
 * copied, the size is the iovecs' sum (iov_bytes, syscalls.bpf.c). */
static __always_inline int net_enter_msg(struct pending *p, __u8 op, struct file *f, long fd,
                                         unsigned long umsg, unsigned long flags)
{
  struct user_msghdr m = {};
  if (!tcp_sock_of(f) || bpf_probe_read_user(&m, sizeof(m), (void *)umsg))
    return 0;
  struct iovec first = {};
  if (m.msg_iovlen > 0)
    bpf_probe_read_user(&first, sizeof(first), m.msg_iov);
  if (!net_enter(p, op, f, fd, (unsigned long)first.iov_base, first.iov_len, flags))
    return 0;
  p->size = iov_bytes((unsigned long)m.msg_iov, m.msg_iovlen);
  return 1;
}

/* Whether the first bytes of a transfer start an HTTP message: a request line (the methods an S3
 * client sends) for a send, a status line for a receive. */
static __always_inline int http_start(__u8 op, const char *b)
{
  if (op == DL_NET_RECV)
    return b[0] == 'H' && b[1] == 'T' && b[2] == 'T' && b[3] == 'P' && b[4] == '/';
  return (b[0] == 'G' && b[1] == 'E' && b[2] == 'T' && b[3] == ' ') ||
         (b[0] == 'P' && b[1] == 'U' && b[2] == 'T' && b[3] == ' ') ||
         (b[0] == 'P' && b[1] == 'O' && b[2] == 'S' && b[3] == 'T') ||
         (b[0] == 'H' && b[1] == 'E' && b[2] == 'A' && b[3] == 'D') ||
         (b[0] == 'D' && b[1] == 'E' && b[2] == 'L' && b[3] == 'E');
}

/* The record's fields other than `data`; the peer is read from the socket at exit. */
static __always_inline void fill_net(struct dl_net *r, const struct pending *p, __u64 id,
                                     __u64 now, long ret)
{
  struct sock *sk = (struct sock *)p->offset;
  r->kind = DL_K_NET;
  r->op = p->net;
  r->family = BPF_CORE_READ(sk, __sk_common.skc_family);
  r->port = bpf_ntohs(BPF_CORE_READ(sk, __sk_common.skc_dport));
  r->data_len = 0;
  r->fd = p->fd;
  r->pid = id >> 32;
  r->tid = (__u32)id;
  r->flags = p->flags;
  r->ts_ns = p->ts;
  r->dur_ns = now - p->ts;
  r->ret = ret;
  r->sock = p->offset;
  __builtin_memset(r->addr, 0, sizeof(r->addr));
  if (r->family == AF_INET) {
    __u32 a = BPF_CORE_READ(sk, __sk_common.skc_daddr);
    __builtin_memcpy(r->addr, &a, sizeof(a));
  } else {
    BPF_CORE_READ_INTO(&r->addr, sk, __sk_common.skc_v6_daddr.in6_u.u6_addr8);
  }
}

/* At the syscall's exit: one record, with the head of the transfer when it starts an HTTP
 * message. A non-blocking socket's -EAGAIN moved nothing and is not sent (libcurl polls its
 * sockets that way). */
static __always_inline int net_exit(const struct pending *p, __u64 id, __u64 now, long ret)
{
  if (ret == -DL_EAGAIN)
    return 0;
  __u64 n = 0;
  if (ret > 0 && p->uptr) {
    char head[8] = {};
    n = (__u64)ret < p->arg ? (__u64)ret : p->arg; /* what landed in the first buffer */
    if (n > DL_NET_DATA - 1)
      n = DL_NET_DATA - 1;
    if (n < 5 || bpf_probe_read_user(head, 5, (void *)p->uptr) || !http_start(p->net, head))
      n = 0;
  }
  if (n) {
    struct dl_net *r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);
    if (!r) {
      count_lost(DL_LOST_RINGBUF);
      return 0;
    }
    fill_net(r, p, id, now, ret);
    n &= DL_NET_DATA - 1;
    if (bpf_probe_read_user(r->data, n, (void *)p->uptr) == 0)
      r->data_len = n;
    bpf_ringbuf_submit(r, wakeup_flag(sizeof(*r)));
    return 0;
  }
  struct dl_net *r = bpf_ringbuf_reserve(&events, DL_NET_HEAD, 0);
  if (!r) {
    count_lost(DL_LOST_RINGBUF);
    return 0;
  }
  fill_net(r, p, id, now, ret);
  bpf_ringbuf_submit(r, wakeup_flag(DL_NET_HEAD));
  return 0;
}

#endif
