#include "batch_signal.hpp"

#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>

namespace dlgen::replay {
namespace {

// Send-buffer bytes to ask for per token. Every datagram is charged to the sender's buffer with
// its skb overhead: about 770 bytes for an 8-byte token (Linux 6.x, x86-64: 278 fit in the
// default 212992). The kernel doubles the value asked for, which leaves room to spare. (A
// socketpair's datagrams are not limited by net.unix.max_dgram_qlen, only by this buffer.)
constexpr std::uint64_t kBytesPerToken = 1024;

void size_send_buffer(int fd, std::uint64_t tokens) {
  int have = 0;
  socklen_t len = sizeof have;
  if (::getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &have, &len) != 0) return;
  const std::uint64_t want = tokens * kBytesPerToken;
  if (want <= static_cast<std::uint64_t>(have) / 2) return;
  const int ask = static_cast<int>(std::min<std::uint64_t>(want, 1u << 30));
  // Above net.core.wmem_max only SO_SNDBUFFORCE (CAP_NET_ADMIN) is obeyed; otherwise take what
  // SO_SNDBUF gives (capped at wmem_max) and let the drop count tell.
  if (::setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &ask, sizeof ask) != 0)
    (void)::setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &ask, sizeof ask);
}

}  // namespace

BatchSignal::BatchSignal(std::uint64_t tokens) {
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, fds) == 0) {
    send_fd_ = fds[0];
    recv_fd_ = fds[1];
    size_send_buffer(send_fd_, tokens);
  }
}

BatchSignal::~BatchSignal() {
  if (send_fd_ >= 0) ::close(send_fd_);
  if (recv_fd_ >= 0) ::close(recv_fd_);
}

bool BatchSignal::send(int fd, std::uint64_t batch) {
  if (fd < 0) return false;
  iovec iov{&batch, sizeof batch};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  return ::sendmsg(fd, &msg, MSG_DONTWAIT | MSG_NOSIGNAL) == static_cast<ssize_t>(sizeof batch);
}

bool BatchSignal::receive() const {
  if (recv_fd_ < 0) return false;
  std::uint64_t batch = 0;
  iovec iov{&batch, sizeof batch};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  return ::recvmsg(recv_fd_, &msg, MSG_DONTWAIT) == static_cast<ssize_t>(sizeof batch);
}

void BatchSignal::mark_compute() const {
  if (recv_fd_ >= 0) (void)::lseek(recv_fd_, 0, SEEK_CUR);
}

}  // namespace dlgen::replay
