#pragma once
// The I/O engine (fio's split): the caller (replay, checkpoints, generator) decides what to read or
// write and when, an engine decides how. An engine owns a pool of aligned buffers (registered with
// the kernel where the engine can) and is used by one thread. Results are bytes or -errno,
// liburing style; nothing allocates per request. Engines are found by name in the registry
// (registry.hpp).
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "dlgen/core/result.hpp"

namespace dlgen::engine {

// What an engine needs of time: stamps and a sleep, in ns of CLOCK_MONOTONIC (or of a fake clock
// in tests). The replay's Clock is one (replay/clock.hpp); the engine knows nothing else of it.
class TimeSource {
 public:
  virtual ~TimeSource() = default;
  virtual std::int64_t now_ns() = 0;
  // Returns at (or just after) `deadline_ns`; returns at once when the deadline has passed.
  virtual void sleep_until(std::int64_t deadline_ns) = 0;
};

enum class IoOp : std::uint8_t { read, write };

// One request: `length` bytes at `offset` of `target`, into (or from) pool buffer `buffer`.
// `target` is a handle the engine gave out (open_file); what it means is the engine's own: a file
// descriptor for the POSIX engines (which also take descriptors their caller opened: see
// Capabilities::posix_fd), an index into its open objects for an object store, -1 for "no file"
// (the null engine). The caller never looks inside it.
struct IoRequest {
  int target = -1;
  IoOp op = IoOp::read;
  std::uint32_t buffer = 0;
  std::uint32_t length = 0;
  std::uint64_t offset = 0;
  std::uint64_t user_data = 0;
};

// One finished request, stamped by the engine on its clock (EngineOptions::clock): `issued_ns` when
// the request was handed to the kernel (the io_uring_enter that submitted it; just before pread),
// `completed_ns` when the engine saw it complete (as it took the CQE; just after pread returned).
// Latency = completed_ns - issued_ns; docs/metrics.md says what these stamps can and cannot see.
struct IoCompletion {
  std::uint64_t user_data = 0;
  std::int64_t result = 0;  // bytes transferred, or -errno
  std::int64_t issued_ns = 0;
  std::int64_t completed_ns = 0;
};

enum class SyncWrite : std::uint8_t { pwrite, write, writev };

struct EngineOptions {
  std::uint32_t depth = 32;    // requests in flight at most
  std::uint32_t buffers = 32;  // pool buffers
  std::uint64_t buffer_bytes = 1 << 20;
  // Engines that upload in parts (s3): the part size of a multipart upload; 0: the engine's own.
  std::uint64_t part_bytes = 0;
  std::uint32_t alignment = 4096;  // buffer alignment (O_DIRECT needs the logical block size)
  bool record = false;             // null engine: keep every request for inspection (tests)
  // Null engine: each request completes this many ns after it was issued, on `clock` (0: at
  // once). Requests in flight overlap, as on a device: `depth` requests issued together all
  // complete one latency later, and engines of several threads sleep on the clock side by side.
  std::int64_t null_latency_ns = 0;
  TimeSource* clock = nullptr;  // stamps issue and completion times; nullptr: CLOCK_MONOTONIC
  // Synchronous engines: the system call of a write request (pwrite; write at the file position,
  // as a sequential writer does; writev of one iovec, as torch.save does). Queued engines
  // (io_uring) write at the request's offset whatever this says.
  SyncWrite sync_write = SyncWrite::pwrite;
};

// A pool of equally sized, aligned buffers in one allocation.
class BufferPool {
 public:
  BufferPool(std::uint32_t count, std::uint64_t bytes, std::uint32_t alignment);
  ~BufferPool();
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;
  std::byte* data(std::uint32_t i) const { return base_ + std::size_t{i} * bytes_; }
  std::uint32_t count() const { return count_; }
  std::uint64_t bytes() const { return bytes_; }
  bool ok() const { return base_ != nullptr; }

 private:
  std::byte* base_ = nullptr;
  std::uint32_t count_;
  std::uint64_t bytes_;
};

class IoEngine {
 public:
  explicit IoEngine(const EngineOptions& options) : IoEngine(options, options.buffers) {}
  virtual ~IoEngine() = default;
  IoEngine(const IoEngine&) = delete;
  IoEngine& operator=(const IoEngine&) = delete;

  virtual const char* name() const = 0;
  // Queues requests; returns how many were taken (fewer, even 0, when `depth` requests are in
  // flight) or -errno. -EAGAIN, -EBUSY and -EINTR are transient: nothing was taken, try again
  // (after reaping). Taken requests reach the kernel at the latest in the next reap(); each one
  // must be reaped before the engine is destroyed (its buffer is freed with the engine).
  virtual int submit(std::span<const IoRequest> requests) = 0;
  // Sends what is queued, waits until at least `min_complete` requests completed (0: do not
  // wait), and fills `out`; returns the number of completions or -errno. -EAGAIN, -EBUSY and
  // -EINTR are transient: nothing was lost, call again.
  virtual int reap(std::span<IoCompletion> out, unsigned min_complete) = 0;
  // Opens `path` for this engine's requests (fio's open_file): 0 with `target` set, or -errno.
  // `flags` are open(2)'s (O_RDONLY or O_WRONLY | O_CREAT | O_TRUNC, O_DIRECT); an engine
  // without files maps them to its own terms (an object store: GET or PUT of the object). The
  // null engine opens nothing and sets target = -1 ("no file"), which is not an error.
  virtual int open_file(const char* path, int flags, int& target);
  // Closes what open_file opened (nothing for target = -1): 0 or -errno. A written target is
  // durable, or known lost, only here (NFS reports a failed write-back at close; an object
  // store completes its upload).
  virtual int close_file(int target);

  virtual std::byte* buffer(std::uint32_t i) const { return pool_.data(i); }
  const BufferPool& pool() const { return pool_; }
  const EngineOptions& options() const { return options_; }
  // Requests the null engine kept (options.record); empty for real engines.
  virtual const std::vector<IoRequest>& recorded() const;

 protected:
  // An engine with `pool_buffers` buffers of its own (a wrapper that uses another engine's: 0).
  IoEngine(const EngineOptions& options, std::uint32_t pool_buffers);
  // The clock the stamps are read from (never null).
  TimeSource& clock() const { return *clock_; }

  // A request longer than its buffer, or naming a buffer the pool lacks, would make the kernel
  // write outside the pool: a bug in the caller. Checked on every request, in every engine; aborts.
  void check(const IoRequest& r) const {
    if (r.length > options_.buffer_bytes || r.buffer >= options_.buffers) [[unlikely]]
      bad_request(r);
  }
  [[noreturn]] void bad_request(const IoRequest& r) const;

  EngineOptions options_;
  BufferPool pool_;
  TimeSource* clock_;
};

// True for the results that mean "nothing happened, try again" (submit and reap).
constexpr bool transient_error(int rc) {
  return rc == -EAGAIN || rc == -EBUSY || rc == -EINTR;
}

// Makes the engine of one thread: the runner calls it once per worker (from that worker's
// thread). Tests pass one (RunOptions::engine_factory) to run the replay on a fault engine.
using EngineFactory = std::function<Result<std::unique_ptr<IoEngine>>(const EngineOptions&)>;

}  // namespace dlgen::engine
