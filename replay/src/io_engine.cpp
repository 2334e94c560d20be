#include "dlgen/replay/io_engine.hpp"

#include <fcntl.h>
#include <liburing.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace dlgen::replay {

const char* to_string(EngineKind kind) {
  switch (kind) {
    case EngineKind::uring:
      return "uring";
    case EngineKind::pread:
      return "pread";
    case EngineKind::null:
      return "null";
  }
  return "?";
}

std::optional<EngineKind> engine_from_string(std::string_view name) {
  if (name == "uring" || name == "io_uring") return EngineKind::uring;
  if (name == "pread" || name == "sync") return EngineKind::pread;
  if (name == "null") return EngineKind::null;
  return std::nullopt;
}

BufferPool::BufferPool(std::uint32_t count, std::uint64_t bytes, std::uint32_t alignment)
    : count_(count), bytes_((bytes + alignment - 1) / alignment * alignment) {
  const std::size_t total = std::max<std::size_t>(std::size_t{count_} * bytes_, alignment);
  base_ = static_cast<std::byte*>(
      std::aligned_alloc(alignment, (total + alignment - 1) / alignment * alignment));
  // Not touched here: registering the buffers with io_uring faults and pins them; the pread
  // engine faults each page once, on first use.
}

BufferPool::~BufferPool() {
  std::free(base_);
}

namespace {
RealClock& monotonic() {
  static RealClock clock;
  return clock;
}
}  // namespace

IoEngine::IoEngine(const EngineOptions& options, std::uint32_t pool_buffers)
    : options_(options),
      pool_(pool_buffers, options.buffer_bytes, options.alignment),
      clock_(options.clock ? options.clock : &monotonic()) {}

const std::vector<IoRequest>& IoEngine::recorded() const {
  static const std::vector<IoRequest> none;
  return none;
}

int IoEngine::open_file(const char* path, int flags, int& fd) {
  fd = ::open(path, flags);
  return fd < 0 ? -errno : 0;
}

void IoEngine::close_file(int fd) {
  if (fd >= 0) ::close(fd);
}

void IoEngine::bad_request(const IoRequest& r) const {
  std::fprintf(stderr,
               "dlgen: bug: %s engine got a request of %u bytes at %llu into buffer %u, but its "
               "buffers are %llu "
               "bytes and it has %u\n",
               name(), r.length, static_cast<unsigned long long>(r.offset), r.buffer,
               static_cast<unsigned long long>(options_.buffer_bytes), options_.buffers);
  std::abort();
}

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
          io_uring_prep_read_fixed(sqe, r.fd, buf, r.length, r.offset, static_cast<int>(r.buffer));
        else
          io_uring_prep_read(sqe, r.fd, buf, r.length, r.offset);
      } else {
        if (registered_)
          io_uring_prep_write_fixed(sqe, r.fd, buf, r.length, r.offset, static_cast<int>(r.buffer));
        else
          io_uring_prep_write(sqe, r.fd, buf, r.length, r.offset);
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

// An engine that completes requests inside submit(): it queues their results (at most `depth`,
// reserved once) and reap() hands them back in order.
class ImmediateEngine : public IoEngine {
 public:
  explicit ImmediateEngine(const EngineOptions& o) : IoEngine(o) {
    done_.reserve(std::max<std::uint32_t>(1, o.depth));
  }

  int reap(std::span<IoCompletion> out, unsigned) override {
    const std::size_t n = std::min(out.size(), done_.size());
    std::copy_n(done_.begin(), n, out.begin());
    done_.erase(done_.begin(), done_.begin() + static_cast<std::ptrdiff_t>(n));
    return static_cast<int>(n);
  }

 protected:
  std::vector<IoCompletion> done_;
};

// Synchronous pread/pwrite: the request runs inside submit(); reap() hands back the results.
// The baseline the io_uring engine is compared against (what a PyTorch DataLoader worker does).
// Each request is stamped just before its pread and just after it returns.
class PreadEngine final : public ImmediateEngine {
 public:
  using ImmediateEngine::ImmediateEngine;
  const char* name() const override { return "pread"; }

  int submit(std::span<const IoRequest> requests) override {
    int taken = 0;
    for (const IoRequest& r : requests) {
      if (done_.size() >= done_.capacity()) break;
      check(r);
      const std::int64_t issued = clock().now_ns();
      ssize_t rc;
      do {
        rc = r.op == IoOp::read
                 ? ::pread(r.fd, pool_.data(r.buffer), r.length, static_cast<off_t>(r.offset))
                 : ::pwrite(r.fd, pool_.data(r.buffer), r.length, static_cast<off_t>(r.offset));
      } while (rc < 0 && errno == EINTR);
      const std::int64_t result = rc < 0 ? -static_cast<std::int64_t>(errno) : rc;
      done_.push_back({r.user_data, result, issued, clock().now_ns()});
      ++taken;
    }
    return taken;
  }
};

// Completes every request with its full length and touches no file (it opens none: fd = -1).
// With options.record it keeps the requests, so tests can check what the runner asked for.
// Its stamps: issue = the submit call's time; completion = issue + options.null_latency_ns (a
// device that takes that long per request, however many are in flight). A reap that must wait
// sleeps on the engine's clock until enough requests are due, so on a FakeClock the workers'
// requests overlap in fake time rather than serialise; with latency 0 nothing ever waits.
class NullEngine final : public IoEngine {
 public:
  explicit NullEngine(const EngineOptions& o) : IoEngine(o) {
    in_flight_.reserve(std::max<std::uint32_t>(1, o.depth));
  }
  const char* name() const override { return "null"; }

  int submit(std::span<const IoRequest> requests) override {
    int taken = 0;
    const std::int64_t now = requests.empty() ? 0 : clock().now_ns();
    const std::int64_t due = now + std::max<std::int64_t>(0, options_.null_latency_ns);
    for (const IoRequest& r : requests) {
      if (in_flight_.size() >= in_flight_.capacity()) break;
      check(r);
      if (options_.record) recorded_.push_back(r);
      // One latency for all: completion order is submission order, so the vector stays sorted.
      in_flight_.push_back({r.user_data, static_cast<std::int64_t>(r.length), now, due});
      ++taken;
    }
    return taken;
  }

  int reap(std::span<IoCompletion> out, unsigned min_complete) override {
    if (in_flight_.empty()) return 0;
    const std::size_t wanted = std::min<std::size_t>(min_complete, in_flight_.size());
    if (wanted > 0 && options_.null_latency_ns > 0)
      clock().sleep_until(in_flight_[wanted - 1].completed_ns);
    const std::int64_t now = clock().now_ns();
    std::size_t n = 0;
    while (n < out.size() && n < in_flight_.size() && in_flight_[n].completed_ns <= now) ++n;
    std::copy_n(in_flight_.begin(), n, out.begin());
    in_flight_.erase(in_flight_.begin(), in_flight_.begin() + static_cast<std::ptrdiff_t>(n));
    return static_cast<int>(n);
  }

  int open_file(const char*, int, int& fd) override {
    fd = -1;
    return 0;
  }
  void close_file(int) override {}

  const std::vector<IoRequest>& recorded() const override { return recorded_; }

 private:
  std::vector<IoCompletion> in_flight_;  // in completion order
  std::vector<IoRequest> recorded_;
};

}  // namespace

Result<std::unique_ptr<IoEngine>> make_engine(EngineKind kind, const EngineOptions& options) {
  std::unique_ptr<IoEngine> engine;
  switch (kind) {
    case EngineKind::uring: {
      auto u = std::make_unique<UringEngine>(options);
      if (int rc = u->init(); rc < 0)
        return unsupported_error(
            std::string("io_uring is not available here (io_uring_queue_init: ") +
            std::strerror(-rc) + "); use --engine pread");
      engine = std::move(u);
      break;
    }
    case EngineKind::pread:
      engine = std::make_unique<PreadEngine>(options);
      break;
    case EngineKind::null:
      engine = std::make_unique<NullEngine>(options);
      break;
  }
  if (!engine->pool().ok())
    return runtime_error("cannot allocate " + std::to_string(options.buffers) + " I/O buffers of " +
                         std::to_string(options.buffer_bytes) + " bytes");
  return engine;
}

Result<void> probe_engine(EngineKind kind) {
  if (kind != EngineKind::uring) return ok();
  io_uring ring{};
  const int rc = io_uring_queue_init(2, &ring, 0);
  if (rc < 0)
    return unsupported_error(std::string("io_uring is not available here (io_uring_queue_init: ") +
                             std::strerror(-rc) + "); use --engine pread");
  io_uring_queue_exit(&ring);
  return ok();
}

}  // namespace dlgen::replay
