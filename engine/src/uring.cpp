// The io_uring engine: dlgen's real one.
#include <liburing.h>
#include <sys/uio.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "engines.hpp"

namespace dlgen::engine {
namespace {

// io_uring: one ring per thread; buffers registered (READ_FIXED/WRITE_FIXED) when the kernel
// allows; submissions are queued in the SQ and sent together with the wait in one io_uring_enter.
// Each request in flight holds a tag (its SQE's user data) that keeps the caller's user data and
// the request's issue time; at most `depth` are in flight, so the CQ (2 x depth) never overflows.
class UringEngine final : public IoEngine {
 public:
  explicit UringEngine(const EngineOptions& o) : IoEngine(o) {
    const std::uint32_t depth = std::max<std::uint32_t>(1, o.depth);
    tags_.resize(depth);
    free_tags_.reserve(depth);
    for (std::uint32_t i = depth; i > 0; --i) free_tags_.push_back(i - 1);
    queued_.reserve(depth);
  }
  ~UringEngine() override {
    if (ready_) io_uring_queue_exit(&ring_);
  }

  int init() {
    const unsigned entries = std::max<unsigned>(1, options_.depth);
    io_uring_params p{};
    // Only this thread touches the ring: let the kernel run completion work at our next
    // io_uring_enter instead of interrupting us (fewer context switches). Older kernels refuse
    // the flags with EINVAL; then we fall back to a plain ring.
    unsigned flags = 0;
#ifdef IORING_SETUP_SINGLE_ISSUER
    flags |= IORING_SETUP_SINGLE_ISSUER;
#endif
#ifdef IORING_SETUP_COOP_TASKRUN
    flags |= IORING_SETUP_COOP_TASKRUN;
#endif
    p.flags = flags;
    int rc = io_uring_queue_init_params(entries, &ring_, &p);
    if (rc == -EINVAL) {
      p = io_uring_params{};
      rc = io_uring_queue_init_params(entries, &ring_, &p);
    }
    if (rc < 0) return rc;
    ready_ = true;
    if (pool_.ok() && pool_.count() > 0) {
      std::vector<iovec> iov(pool_.count());
      for (std::uint32_t i = 0; i < pool_.count(); ++i) iov[i] = {pool_.data(i), pool_.bytes()};
      registered_ =
          io_uring_register_buffers(&ring_, iov.data(), static_cast<unsigned>(iov.size())) == 0;
    }
    return 0;
  }

  const char* name() const override {
    return registered_ ? "uring (registered buffers)" : "uring";
  }

  int submit(std::span<const IoRequest> requests) override {
    int taken = 0;
    for (const IoRequest& r : requests) {
      check(r);
      if (free_tags_.empty()) break;
      io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
      if (!sqe) break;
      void* buf = pool_.data(r.buffer);
      if (r.op == IoOp::read) {
        if (registered_)
          io_uring_prep_read_fixed(sqe, r.target, buf, r.length, r.offset,
                                   static_cast<int>(r.buffer));
        else
          io_uring_prep_read(sqe, r.target, buf, r.length, r.offset);
      } else {
        if (registered_)
          io_uring_prep_write_fixed(sqe, r.target, buf, r.length, r.offset,
                                    static_cast<int>(r.buffer));
        else
          io_uring_prep_write(sqe, r.target, buf, r.length, r.offset);
      }
      const std::uint32_t tag = free_tags_.back();
      free_tags_.pop_back();
      tags_[tag] = {r.user_data, 0};
      queued_.push_back(tag);
      io_uring_sqe_set_data64(sqe, tag);
      ++taken;
    }
    return taken;
  }

  int reap(std::span<IoCompletion> out, unsigned min_complete) override {
    int rc = 0;
    if (!queued_.empty() || (min_complete > 0 && io_uring_cq_ready(&ring_) < min_complete)) {
      // The issue time of what this call submits: read just before the io_uring_enter that hands
      // the SQEs to the kernel (the same call then waits).
      const std::int64_t issued = queued_.empty() ? 0 : clock().now_ns();
      rc = io_uring_submit_and_wait(&ring_, min_complete);
      if (rc > 0 && !queued_.empty()) {
        const std::size_t sent =
            std::min<std::size_t>(queued_.size(), static_cast<std::size_t>(rc));
        for (std::size_t i = 0; i < sent; ++i) tags_[queued_[i]].issued_ns = issued;
        queued_.erase(queued_.begin(), queued_.begin() + static_cast<std::ptrdiff_t>(sent));
      }
      // -EAGAIN/-EBUSY (no memory for the request yet, CQ overflow pending), -EINTR (a signal):
      // completions already there are still taken below; the caller calls again.
      if (rc < 0 && !transient_error(rc)) return rc;
    }
    io_uring_cqe* cqes[64];
    int n = 0;
    while (n < static_cast<int>(out.size())) {
      const unsigned want = std::min<unsigned>(64, static_cast<unsigned>(out.size()) - n);
      const unsigned got = io_uring_peek_batch_cqe(&ring_, cqes, want);
      if (got == 0) break;
      for (unsigned i = 0; i < got; ++i) {
        // Each completion is stamped as dlgen takes it (the kernel does not stamp CQEs).
        const auto tag = static_cast<std::uint32_t>(io_uring_cqe_get_data64(cqes[i]));
        out[n++] = {tags_[tag].user_data, cqes[i]->res, tags_[tag].issued_ns, clock().now_ns()};
        free_tags_.push_back(tag);
      }
      io_uring_cq_advance(&ring_, got);
    }
    if (n == 0 && rc < 0) return rc;
    return n;
  }

 private:
  struct Tag {
    std::uint64_t user_data = 0;
    std::int64_t issued_ns = 0;
  };
  io_uring ring_{};
  bool ready_ = false;
  bool registered_ = false;
  std::vector<Tag> tags_;
  std::vector<std::uint32_t> free_tags_;
  std::vector<std::uint32_t> queued_;  // tags of SQEs prepared but not yet sent, in SQ order
};

Error unavailable(int rc) {
  return unsupported_error(std::string("io_uring is not available here (io_uring_queue_init: ") +
                           std::strerror(-rc) + "); use --engine pread");
}

Result<std::unique_ptr<IoEngine>> make_uring(const EngineOptions& options) {
  auto u = std::make_unique<UringEngine>(options);
  if (int rc = u->init(); rc < 0) return unavailable(rc);
  return std::unique_ptr<IoEngine>(std::move(u));
}

// A ring of two entries: refused where io_uring is off (seccomp, io_uring_disabled, old kernels).
Result<void> probe_uring() {
  io_uring ring{};
  const int rc = io_uring_queue_init(2, &ring, 0);
  if (rc < 0) return unavailable(rc);
  io_uring_queue_exit(&ring);
  return ok();
}

}  // namespace

const EngineOps& uring_ops() {
  static const EngineOps ops{
      "uring",
      {"io_uring"},
      "io_uring: one ring per thread, registered buffers, batched submission",
      {.direct_io = true, .posix_fd = true, .writes = true},
      make_uring,
      probe_uring};
  return ops;
}

}  // namespace dlgen::engine
