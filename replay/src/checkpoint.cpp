#include "dlgen/replay/checkpoint.hpp"

#include <fcntl.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <system_error>
#include <thread>

#include "dlgen/datasets/content.hpp"

namespace dlgen::replay {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string errno_text(const std::filesystem::path& p, const char* what, std::uint64_t offset,
                       int err) {
  return p.string() + ": " + what + " at " + std::to_string(offset) + ": " + std::strerror(err);
}

// A salt drawn once per process: two runs (or two checkpoints of one run) never write the same
// bytes, so storage that deduplicates across files or over time is not flattered.
std::uint64_t process_salt() {
  static const std::uint64_t salt = [] {
    std::random_device rd;
    return (std::uint64_t{rd()} << 32) ^ rd();
  }();
  return salt;
}

// Runs f(shard) for every shard on up to 4 threads; returns the first error.
template <class F>
Result<void> for_each_shard(std::uint32_t shards, F f) {
  std::atomic<std::uint32_t> next{0};
  std::mutex mu;
  std::optional<Error> first;
  auto body = [&] {
    for (std::uint32_t s; (s = next.fetch_add(1)) < shards;) {
      Result<void> r = f(s);
      if (!r) {
        std::lock_guard lock(mu);
        if (!first) first = r.error();
      }
    }
  };
  const std::uint32_t n = std::min<std::uint32_t>(std::max<std::uint32_t>(shards, 1), 4);
  std::vector<std::thread> threads;
  // A helper thread the system cannot start (std::system_error): this thread writes its shards.
  try {
    for (std::uint32_t i = 1; i < n; ++i) threads.emplace_back(body);
  } catch (const std::system_error&) {
  }
  body();
  for (auto& t : threads) t.join();
  if (first) return *first;
  return ok();
}

// Copies a written shard to its "-best" file with `call` (as shutil.copyfile of model_best does
// with sendfile), to the end of the source.
Result<void> copy_shard(const std::filesystem::path& from, CopyCall call) {
  std::filesystem::path to = from;
  to.replace_filename(from.stem().string() + "-best" + from.extension().string());
  const int in = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) return runtime_error(errno_text(from, "open", 0, errno));
  const int out = ::open(to.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (out < 0) {
    const int err = errno;
    ::close(in);
    return runtime_error(errno_text(to, "open", 0, err));
  }
  std::uint64_t off = 0;
  for (;;) {
    constexpr std::size_t kMax = 1u << 30;
    const ssize_t n = call == CopyCall::sendfile
                          ? ::sendfile(out, in, nullptr, kMax)
                          : ::copy_file_range(in, nullptr, out, nullptr, kMax, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(in);
      ::close(out);
      return runtime_error(errno_text(to, to_string(call), off, err));
    }
    if (n == 0) break;
    off += static_cast<std::uint64_t>(n);
  }
  ::close(in);
  ::close(out);
  return ok();
}

}  // namespace

std::vector<std::filesystem::path> checkpoint_paths(const CheckpointSpec& spec) {
  std::vector<std::filesystem::path> out;
  const std::uint32_t n = std::max<std::uint32_t>(spec.files, 1);
  for (std::uint32_t i = 0; i < n; ++i)
    out.push_back(spec.dir /
                  ("checkpoint-" + std::to_string(i) + "-of-" + std::to_string(n) + ".dlgen"));
  return out;
}

std::uint64_t checkpoint_shard_bytes(const CheckpointSpec& spec, std::uint32_t shard) {
  const std::uint32_t n = std::max<std::uint32_t>(spec.files, 1);
  return spec.size_bytes / n + (shard < spec.size_bytes % n ? 1 : 0);
}

Result<void> write_checkpoint(const CheckpointSpec& spec, CheckpointResult& into,
                              ShardShare share, std::atomic<std::uint64_t>* progress) {
  std::error_code ec;
  std::filesystem::create_directories(spec.dir, ec);
  if (ec)
    return runtime_error(spec.dir.string() +
                         ": cannot create checkpoint directory: " + ec.message());
  const auto all_paths = checkpoint_paths(spec);
  std::vector<std::filesystem::path> paths;
  std::vector<std::uint32_t> shard_of;
  std::uint64_t bytes = 0;
  for (std::uint32_t i = 0; i < all_paths.size(); ++i)
    if (share.owns(i)) {
      paths.push_back(all_paths[i]);
      shard_of.push_back(i);
      bytes += checkpoint_shard_bytes(spec, i);
    }
  // O_DIRECT: requests and buffers aligned to 4 KiB (the logical block size of every device here);
  // a shard's unaligned tail is written buffered, after clearing O_DIRECT on the descriptor.
  constexpr std::uint64_t kAlign = 4096;
  std::uint64_t chunk = std::max<std::uint64_t>(spec.write_size_bytes, 4096);
  if (spec.direct) chunk = chunk / kAlign * kAlign;
  // Content: a fresh pseudo-random stream per shard and per checkpoint (xoshiro256++ x8, the
  // dataset generator's, ~15 GB/s a core): no block repeats within or across checkpoints and
  // nothing compresses, as with a real model's weights and optimizer state.
  const std::uint64_t stream_seed = process_salt() ^ (into.count * 0x9e3779b97f4a7c15ull);
  const auto t0 = std::chrono::steady_clock::now();
  Result<void> r = for_each_shard(
      static_cast<std::uint32_t>(paths.size()), [&](std::uint32_t s) -> Result<void> {
        const auto& p = paths[s];
        const int flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | (spec.direct ? O_DIRECT : 0);
        const int fd = ::open(p.c_str(), flags, 0644);
        if (fd < 0) return runtime_error(errno_text(p, "open", 0, errno));
        const std::uint64_t size = checkpoint_shard_bytes(spec, shard_of[s]);
        const std::uint64_t len = std::min(chunk, std::max<std::uint64_t>(size, 1));
        std::unique_ptr<std::uint8_t, decltype(&std::free)> block(
            static_cast<std::uint8_t*>(
                std::aligned_alloc(kAlign, (len + kAlign - 1) / kAlign * kAlign)),
            &std::free);
        if (!block) {
          ::close(fd);
          return runtime_error(p.string() + ": no memory for a " + std::to_string(len) +
                               "-byte write buffer");
        }
        datasets::ContentStream content(stream_seed, shard_of[s]);
        const std::uint64_t aligned_end = spec.direct ? size / kAlign * kAlign : size;
        bool direct = spec.direct;
        std::uint64_t block_at = 0, block_end = 0;  // the file range whose bytes `block` holds
        for (std::uint64_t off = 0; off < size;) {
          if (off >= block_end) {  // fresh bytes for the next request; a short write sends the rest
            block_at = off;
            block_end = off + std::min<std::uint64_t>(len, size - off);
            if (direct && off < aligned_end) block_end = std::min(block_end, aligned_end);
            content.fill(block.get(), block_end - block_at);
          }
          if (direct && off >= aligned_end) {  // the tail: buffered
            if (::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_DIRECT) != 0) {
              const int err = errno;
              ::close(fd);
              return runtime_error(errno_text(p, "fcntl(clear O_DIRECT)", off, err));
            }
            direct = false;
          }
          const std::uint8_t* data = block.get() + (off - block_at);
          const std::size_t n = block_end - off;
          ssize_t w = 0;
          switch (spec.write_call) {
            case WriteCall::pwrite:
              w = ::pwrite(fd, data, n, static_cast<off_t>(off));
              break;
            case WriteCall::write:  // sequential: the file position is `off`
              w = ::write(fd, data, n);
              break;
            case WriteCall::writev: {
              iovec iov{const_cast<std::uint8_t*>(data), n};
              w = ::writev(fd, &iov, 1);
              break;
            }
          }
          if (w < 0 && errno == EINTR) continue;
          if (w <= 0) {
            const int err = w < 0 ? errno : EIO;
            ::close(fd);
            return runtime_error(errno_text(p, "write", off, err));
          }
          off += static_cast<std::uint64_t>(w);
          if (progress) progress->fetch_add(static_cast<std::uint64_t>(w));
        }
        if (spec.fsync && ::fsync(fd) != 0) {
          const int err = errno;
          ::close(fd);
          return runtime_error(errno_text(p, "fsync", 0, err));
        }
        ::close(fd);
        return ok();
      });
  if (!r) return r;
  if (spec.copy != CopyCall::none && into.count % std::max<std::uint32_t>(spec.copy_every, 1) == 0)
    r = for_each_shard(static_cast<std::uint32_t>(paths.size()),
                       [&](std::uint32_t s) { return copy_shard(paths[s], spec.copy); });
  if (!r) return r;
  const double seconds = seconds_since(t0);
  into.write_s += seconds;
  into.count += 1;
  into.files += paths.size();
  into.bytes += bytes;
  into.write_bytes.push_back(bytes);
  into.write_seconds.push_back(seconds);
  return ok();
}

Result<void> restore_checkpoint(const CheckpointSpec& spec, CheckpointResult& into,
                                ShardShare share, std::atomic<std::uint64_t>* progress) {
  const auto all_paths = checkpoint_paths(spec);
  std::vector<std::filesystem::path> paths;
  bool present = true;
  for (std::uint32_t s = 0; s < all_paths.size(); ++s) {
    if (!share.owns(s)) continue;
    paths.push_back(all_paths[s]);
    struct stat st {};
    if (::stat(all_paths[s].c_str(), &st) != 0 ||
        static_cast<std::uint64_t>(st.st_size) != checkpoint_shard_bytes(spec, s))
      present = false;
  }
  if (!present) {
    CheckpointResult setup;
    if (Result<void> w = write_checkpoint(spec, setup, share, progress); !w) return w;
  }
  for (const auto& p : paths) {
    const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    ::fdatasync(fd);
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    ::close(fd);
  }
  const std::uint64_t chunk = std::max<std::uint64_t>(spec.write_size_bytes, 4096);
  const auto t0 = std::chrono::steady_clock::now();
  std::atomic<std::uint64_t> bytes{0};
  Result<void> r = for_each_shard(
      static_cast<std::uint32_t>(paths.size()), [&](std::uint32_t s) -> Result<void> {
        const auto& p = paths[s];
        const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) return runtime_error(errno_text(p, "open", 0, errno));
        std::vector<char> buf(chunk);
        std::uint64_t off = 0;
        for (;;) {
          const ssize_t n = ::pread(fd, buf.data(), chunk, static_cast<off_t>(off));
          if (n < 0 && errno == EINTR) continue;
          if (n < 0) {
            const int err = errno;
            ::close(fd);
            return runtime_error(errno_text(p, "read", off, err));
          }
          if (n == 0) break;
          off += static_cast<std::uint64_t>(n);
          if (progress) progress->fetch_add(static_cast<std::uint64_t>(n));
        }
        bytes += off;
        ::close(fd);
        return ok();
      });
  if (!r) return r;
  into.restore_s += seconds_since(t0);
  into.restore_bytes += bytes.load();
  return ok();
}

}  // namespace dlgen::replay
