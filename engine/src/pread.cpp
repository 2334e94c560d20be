// The synchronous engine: one pread/pwrite (or write, writev) per request, as a program's own
// reads and writes.
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <vector>

#include "engines.hpp"

namespace dlgen::engine {
namespace {

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
                 ? ::pread(r.target, pool_.data(r.buffer), r.length, static_cast<off_t>(r.offset))
                 : write(r);
      } while (rc < 0 && errno == EINTR);
      const std::int64_t result = rc < 0 ? -static_cast<std::int64_t>(errno) : rc;
      done_.push_back({r.user_data, result, issued, clock().now_ns()});
      ++taken;
    }
    return taken;
  }

 private:
  // A write with the system call the options ask for (EngineOptions::sync_write).
  ssize_t write(const IoRequest& r) const {
    void* data = pool_.data(r.buffer);
    switch (options_.sync_write) {
      case SyncWrite::pwrite:
        break;
      case SyncWrite::write:  // sequential: the caller keeps the file position at r.offset
        return ::write(r.target, data, r.length);
      case SyncWrite::writev: {
        iovec iov{data, r.length};
        return ::writev(r.target, &iov, 1);
      }
    }
    return ::pwrite(r.target, data, r.length, static_cast<off_t>(r.offset));
  }
};

Result<std::unique_ptr<IoEngine>> make_pread(const EngineOptions& options) {
  return std::unique_ptr<IoEngine>(std::make_unique<PreadEngine>(options));
}

}  // namespace

const EngineOps& pread_ops() {
  static const EngineOps ops{"pread",
                             {"sync", "psync"},
                             "synchronous pread/pwrite, one system call per request",
                             {.direct_io = true, .posix_fd = true, .writes = true},
                             make_pread,
                             nullptr};
  return ops;
}

}  // namespace dlgen::engine
