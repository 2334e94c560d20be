#pragma once
// The visible side of a hand-off, for the tracer: a PyTorch DataLoader worker passes each batch
// to the main process with sendmsg on a unix socket and the main process takes it with recvmsg;
// `dlgen summarize` finds batches, steps and data wait from those calls. The runner's atomics stay
// the real synchronisation; this unix datagram socketpair (one per accelerator and phase, as
// PyTorch re-forks its workers each epoch) carries one 8-byte token (the batch index) per batch:
// a worker sends it just before publishing the batch, the accelerator receives one when it takes
// a batch. Neither side blocks. The socket is sized for the most tokens that can wait (every
// worker's prefetch window full); a token that still finds it full is dropped, and the sender
// counts it (the trace then misses one handover; the run itself is unaffected).
#include <cstdint>

namespace dlgen::replay {

class BatchSignal {
 public:
  // Room for `tokens` tokens sent and not yet received.
  explicit BatchSignal(std::uint64_t tokens);
  BatchSignal(const BatchSignal&) = delete;
  BatchSignal& operator=(const BatchSignal&) = delete;
  ~BatchSignal();

  int send_fd() const { return send_fd_; }
  // Sends one token on `fd` (a send_fd()) without blocking: false when it was dropped (the socket
  // is full, or there is none).
  static bool send(int fd, std::uint64_t batch);
  // Takes one token if there is one: false when there was none.
  bool receive() const;
  // Marks, for the tracer, the end of a piece of the consumer's own per-batch cost
  // (compute.batch_overhead; the last piece's mark is the start of compute): one cheap traced
  // syscall on this thread (an lseek on the receiving socket, which fails with ESPIPE and changes
  // nothing). Without it the cost and the compute would show as one idle gap; with it, a trace of
  // the replay shows them apart, as PyTorch's main process shows its own syscalls between
  // receiving a batch and computing on it.
  void mark_compute() const;

 private:
  int send_fd_ = -1, recv_fd_ = -1;
};

}  // namespace dlgen::replay
