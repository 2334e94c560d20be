#include "dlgen/replay/checkpoint_io.hpp"

#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <optional>
#include <random>
#include <span>
#include <thread>

#include "dlgen/datasets/content.hpp"
#include "dlgen/engine/run_one.hpp"
#include "dlgen/engine/s3.hpp"
#include "dlgen/replay/own_files.hpp"

namespace dlgen::replay {
namespace {

constexpr std::uint64_t kAlign = 4096;  // the logical block size of every device here

std::string io_error(const std::filesystem::path& p, const char* what, std::uint64_t offset,
                     int err) {
  return p.string() + ": " + what + " at " + std::to_string(offset) + ": " + std::strerror(err);
}

// An open checkpoint file: a descriptor dlgen opened itself (POSIX engines, `owned`) or a target
// the engine opened by path (`engine_opened`); `handle` is what requests address.
struct Target {
  Target() = default;
  own::Fd owned;
  int handle = -1;
  bool engine_opened = false;
};

// Opens `file` through the engine by path (engines without POSIX descriptors): flags as open(2)'s.
Result<Target> open_by_engine(engine::IoEngine& e, const CheckpointFile& file, int flags) {
  Target t;
  if (const int rc = e.open_file(file.path.c_str(), flags, t.handle); rc < 0)
    return runtime_error(file.path.string() + ": open: " + std::strerror(-rc));
  t.engine_opened = true;
  return t;
}

// Closes `t`, reporting a failure: NFS reports a failed write-back at close, an object store a
// failed upload.
Result<void> close_target(engine::IoEngine& e, Target& t, const std::filesystem::path& p) {
  if (!t.engine_opened) return t.owned.close(p);
  const int rc = e.close_file(t.handle);
  t.engine_opened = false;
  // An object store's close completes the upload: its answer says more than -errno.
  const std::string store = engine::s3_last_error(e);
  if (rc < 0)
    return runtime_error(p.string() + ": close: " + std::strerror(-rc) +
                         (store.empty() ? "" : " (" + store + ")"));
  return ok();
}

using engine::run_one;

// A request's bytes: `want` (at least a block), whole blocks of it with O_DIRECT.
std::uint64_t chunk_of(std::uint64_t want, bool direct) {
  const std::uint64_t n = std::max<std::uint64_t>(want, kAlign);
  return direct ? n / kAlign * kAlign : n;
}

}  // namespace

std::uint64_t checkpoint_salt() {
  static const std::uint64_t salt = [] {
    std::random_device rd;
    return (std::uint64_t{rd()} << 32) ^ rd();
  }();
  return salt;
}

void Serializer::before_write(std::uint64_t len, std::int64_t made_ns) {
  if (seconds_ <= 0 || bytes_ == 0) return;
  std::lock_guard lock(mu_);
  spent_ns_ += made_ns;
  claimed_ = std::min(bytes_, claimed_ + len);
  const auto owed = static_cast<std::int64_t>(seconds_ * 1e9 * static_cast<double>(claimed_) /
                                              static_cast<double>(bytes_));
  if (owed <= spent_ns_) return;
  const auto t0 = std::chrono::steady_clock::now();
  std::this_thread::sleep_for(std::chrono::nanoseconds(owed - spent_ns_));
  spent_ns_ +=
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0)
          .count();
}

double Serializer::spent_s() const {
  std::lock_guard lock(mu_);
  return static_cast<double>(spent_ns_) * 1e-9;
}

Result<CheckpointIo> CheckpointIo::open(const CheckpointIoOptions& options) {
  Result<const engine::EngineOps*> ops = engine::lookup(options.engine);
  if (!ops) return ops.error();
  engine::EngineOptions eo;
  eo.depth = 1;
  eo.buffers = 1;
  // One buffer for the larger of a write and a read (O_DIRECT writes take whole blocks: a request
  // size that is not one is cut down to one).
  eo.buffer_bytes = std::max(chunk_of(options.request_bytes, options.direct_writes),
                             options.read_bytes ? chunk_of(options.read_bytes, false) : 0);
  eo.alignment = kAlign;
  eo.part_bytes = options.part_bytes;
  eo.sync_write = options.call;
  Result<std::unique_ptr<engine::IoEngine>> e = engine::make((*ops)->name, eo);
  if (!e) return e.error();
  return CheckpointIo(options, *ops, std::move(*e));
}

Result<void> CheckpointIo::write(const CheckpointFile& file, std::uint64_t seed,
                                 std::uint64_t stream, std::atomic<std::uint64_t>* progress) {
  const bool direct = options_.direct_writes;
  Result<Target> t = Target{};
  if (capabilities().posix_fd) {
    Result<own::Fd> fd = own::create(file.dirfd, file.name, file.path, direct ? O_DIRECT : 0);
    if (!fd) return fd.error();
    t->handle = fd->get();
    t->owned = std::move(*fd);
  } else {
    t = open_by_engine(*engine_, file, O_WRONLY | O_CREAT | O_TRUNC | (direct ? O_DIRECT : 0));
    if (!t) return t.error();
  }
  const std::uint64_t size = file.bytes;
  const std::uint64_t chunk = chunk_of(options_.request_bytes, direct);
  auto* block = reinterpret_cast<std::uint8_t*>(engine_->buffer(0));
  datasets::ContentStream content(seed, stream);
  const std::uint64_t aligned_end = direct ? size / kAlign * kAlign : size;
  bool direct_on = direct;
  std::uint64_t block_at = 0, block_end = 0;  // the file range whose bytes `block` holds
  for (std::uint64_t off = 0; off < size;) {
    if (off >= block_end) {  // fresh bytes for every request
      block_at = off;
      block_end = off + std::min<std::uint64_t>(chunk, size - off);
      if (direct_on && off < aligned_end) block_end = std::min(block_end, aligned_end);
      const auto made = std::chrono::steady_clock::now();
      content.fill(block, block_end - block_at);
      if (file.serializer)
        file.serializer->before_write(block_end - block_at,
                                      std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::steady_clock::now() - made)
                                          .count());
    } else if (off > block_at) {  // a short write: the rest moves to the buffer's start
      std::memmove(block, block + (off - block_at), block_end - off);
      block_at = off;
    }
    if (direct_on && off >= aligned_end) {  // the unaligned tail: buffered
      if (t->owned.get() >= 0 &&
          ::fcntl(t->handle, F_SETFL, ::fcntl(t->handle, F_GETFL) & ~O_DIRECT) != 0)
        return runtime_error(io_error(file.path, "fcntl(clear O_DIRECT)", off, errno));
      direct_on = false;
    }
    const engine::IoRequest r{
        t->handle, engine::IoOp::write, 0, static_cast<std::uint32_t>(block_end - off), off, 0};
    const std::int64_t w = run_one(*engine_, r);
    if (w <= 0) return runtime_error(io_error(file.path, "write", off, w < 0 ? int(-w) : EIO));
    off += static_cast<std::uint64_t>(w);
    if (progress) progress->fetch_add(static_cast<std::uint64_t>(w), std::memory_order_relaxed);
  }
  if (options_.fsync && t->owned.get() >= 0 && ::fsync(t->handle) != 0)
    return runtime_error(io_error(file.path, "fsync", size, errno));
  return close_target(*engine_, *t, file.path);
}

Result<std::uint64_t> CheckpointIo::read(const CheckpointFile& file, bool direct,
                                         std::atomic<bool>* buffered,
                                         std::atomic<std::uint64_t>* progress) {
  Result<Target> t = Target{};
  if (capabilities().posix_fd) {
    Result<own::Fd> fd = own::open_read(file.dirfd, file.name, file.path, direct ? O_DIRECT : 0);
    if (!fd && direct) {
      fd = own::open_read(file.dirfd, file.name, file.path);
      if (fd && buffered) *buffered = true;
    }
    if (!fd) return fd.error();
    t->handle = fd->get();
    t->owned = std::move(*fd);
  } else {
    t = open_by_engine(*engine_, file, O_RDONLY | (direct ? O_DIRECT : 0));
    if (!t && direct) {
      t = open_by_engine(*engine_, file, O_RDONLY);
      if (t && buffered) *buffered = true;
    }
    if (!t) return t.error();
  }
  // A diskless engine's files have no end: it reads what the checkpoint wrote.
  const bool endless = capabilities().diskless;
  // Requests of the job's read size, or else of the engine's buffer size (the write request: the
  // pool rounds its memory up to the alignment, not the size a request may have); with O_DIRECT
  // whole blocks of it.
  const std::uint64_t want = options_.read_bytes ? chunk_of(options_.read_bytes, false)
                                                 : engine_->options().buffer_bytes;
  const std::uint64_t chunk = chunk_of(want, direct);
  std::uint64_t off = 0;
  while (!endless || off < file.bytes) {
    const std::uint64_t want = endless ? std::min(chunk, file.bytes - off) : chunk;
    const engine::IoRequest r{
        t->handle, engine::IoOp::read, 0, static_cast<std::uint32_t>(want), off, 0};
    const std::int64_t n = run_one(*engine_, r);
    if (n < 0) return runtime_error(io_error(file.path, "read", off, int(-n)));
    if (n == 0) break;
    off += static_cast<std::uint64_t>(n);
    if (progress) progress->fetch_add(static_cast<std::uint64_t>(n), std::memory_order_relaxed);
    // A short O_DIRECT read is the end of the file (the next offset would be unaligned).
    if (direct && static_cast<std::uint64_t>(n) < want) break;
  }
  if (Result<void> c = close_target(*engine_, *t, file.path); !c) return c.error();
  if (off != file.bytes)
    return runtime_error(file.path.string() + ": read " + std::to_string(off) +
                         " bytes, the checkpoint wrote " + std::to_string(file.bytes));
  return off;
}

}  // namespace dlgen::replay
