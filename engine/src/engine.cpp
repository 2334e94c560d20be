#include "dlgen/engine/engine.hpp"

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace dlgen::engine {

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
// CLOCK_MONOTONIC, for engines made without a clock.
class Monotonic final : public TimeSource {
 public:
  std::int64_t now_ns() override {
    timespec ts{};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return std::int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
  }
  void sleep_until(std::int64_t deadline_ns) override {
    const timespec ts{static_cast<time_t>(deadline_ns / 1'000'000'000),
                      static_cast<long>(deadline_ns % 1'000'000'000)};
    while (::clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
    }
  }
};

Monotonic& monotonic() {
  static Monotonic clock;
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

int IoEngine::open_file(const char* path, int flags, int& target) {
  // A file created here is the caller's to name; 0644 as open(1)'s callers (torch.save) get.
  target = ::open(path, flags, 0644);
  return target < 0 ? -errno : 0;
}

int IoEngine::close_file(int target) {
  if (target < 0) return 0;
  // Linux closes the descriptor even when close() fails (EINTR included): never retry it.
  return ::close(target) == 0 ? 0 : -errno;
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

}  // namespace dlgen::engine
