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
#include "dlgen/replay/own_files.hpp"

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

std::filesystem::path best_path(const std::filesystem::path& from) {
  std::filesystem::path to = from;
  to.replace_filename(from.stem().string() + "-best" + from.extension().string());
  return to;
}

// Copies a written shard (in `dirfd`) to its "-best" file with `call` (as shutil.copyfile of
// model_best does with sendfile), to the end of the source.
Result<void> copy_shard(int dirfd, const std::filesystem::path& from, CopyCall call) {
  const std::filesystem::path to = best_path(from);
  Result<own::Fd> in = own::open_read(dirfd, from.filename().string(), from);
  if (!in) return in.error();
  Result<own::Fd> out = own::create(dirfd, to.filename().string(), to);
  if (!out) return out.error();
  std::uint64_t off = 0;
  for (;;) {
    constexpr std::size_t kMax = 1u << 30;
    const ssize_t n = call == CopyCall::sendfile
                          ? ::sendfile(out->get(), in->get(), nullptr, kMax)
                          : ::copy_file_range(in->get(), nullptr, out->get(), nullptr, kMax, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return runtime_error(errno_text(to, to_string(call), off, errno));
    if (n == 0) break;
    off += static_cast<std::uint64_t>(n);
  }
  return out->close(to);
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
  Result<own::Fd> dir = own::open_dir(spec.dir);
  if (!dir) return dir.error();
  const int dirfd = dir->get();
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
  // Free space: this checkpoint's shards (and their -best copies when copied this time), less the
  // previous checkpoint's files they replace.
  const bool copying =
      spec.copy != CopyCall::none && into.count % std::max<std::uint32_t>(spec.copy_every, 1) == 0;
  std::uint64_t needed = 0, freed = 0;
  for (std::uint32_t s = 0; s < paths.size(); ++s) {
    const std::uint64_t b = own::on_disk(dirfd, checkpoint_shard_bytes(spec, shard_of[s]));
    needed += copying ? 2 * b : b;
    freed += own::on_disk(dirfd, own::regular_size(dirfd, paths[s].filename().string()));
    if (copying)
      freed +=
          own::on_disk(dirfd, own::regular_size(dirfd, best_path(paths[s]).filename().string()));
  }
  if (Result<void> space =
          own::check_space(dirfd, spec.dir, needed > freed ? needed - freed : 0, "the checkpoint");
      !space)
    return space;
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
        Result<own::Fd> file =
            own::create(dirfd, p.filename().string(), p, spec.direct ? O_DIRECT : 0);
        if (!file) return file.error();
        const int fd = file->get();
        const std::uint64_t size = checkpoint_shard_bytes(spec, shard_of[s]);
        const std::uint64_t len = std::min(chunk, std::max<std::uint64_t>(size, 1));
        std::unique_ptr<std::uint8_t, decltype(&std::free)> block(
            static_cast<std::uint8_t*>(
                std::aligned_alloc(kAlign, (len + kAlign - 1) / kAlign * kAlign)),
            &std::free);
        if (!block) {
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
              return runtime_error(errno_text(p, "fcntl(clear O_DIRECT)", off, errno));
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
            return runtime_error(errno_text(p, "write", off, w < 0 ? errno : EIO));
          }
          off += static_cast<std::uint64_t>(w);
          if (progress) progress->fetch_add(static_cast<std::uint64_t>(w));
        }
        if (spec.fsync && ::fsync(fd) != 0) return runtime_error(errno_text(p, "fsync", 0, errno));
        return file->close(p);  // NFS and others report a failed write-back at close
      });
  if (!r) return r;
  if (copying)
    r = for_each_shard(static_cast<std::uint32_t>(paths.size()),
                       [&](std::uint32_t s) { return copy_shard(dirfd, paths[s], spec.copy); });
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
  Result<own::Fd> dir = own::open_dir(spec.dir);
  if (!dir) return dir.error();
  const int dirfd = dir->get();
  // Written back, then dropped from the page cache, so the restore reads storage (untimed). A
  // failure of either call is reported: a restore read from memory would be printed as storage.
  for (const auto& p : paths) {
    Result<own::Fd> f = own::open_read(dirfd, p.filename().string(), p);
    if (!f) return f.error();
    if (::fdatasync(f->get()) != 0) return runtime_error(errno_text(p, "fdatasync", 0, errno));
    if (const int err = ::posix_fadvise(f->get(), 0, 0, POSIX_FADV_DONTNEED); err != 0)
      return runtime_error(errno_text(p, "posix_fadvise(DONTNEED)", 0, err));
    if (Result<void> c = f->close(p); !c) return c;
  }
  const std::uint64_t chunk = std::max<std::uint64_t>(spec.write_size_bytes, 4096);
  const auto t0 = std::chrono::steady_clock::now();
  std::atomic<std::uint64_t> bytes{0};
  Result<void> r = for_each_shard(
      static_cast<std::uint32_t>(paths.size()), [&](std::uint32_t s) -> Result<void> {
        const auto& p = paths[s];
        Result<own::Fd> file = own::open_read(dirfd, p.filename().string(), p);
        if (!file) return file.error();
        const int fd = file->get();
        std::vector<char> buf(chunk);
        std::uint64_t off = 0;
        for (;;) {
          const ssize_t n = ::pread(fd, buf.data(), chunk, static_cast<off_t>(off));
          if (n < 0 && errno == EINTR) continue;
          if (n < 0) return runtime_error(errno_text(p, "read", off, errno));
          if (n == 0) break;
          off += static_cast<std::uint64_t>(n);
          if (progress) progress->fetch_add(static_cast<std::uint64_t>(n));
        }
        bytes += off;
        return ok();
      });
  if (!r) return r;
  into.restore_s += seconds_since(t0);
  into.restore_bytes += bytes.load();
  return ok();
}

}  // namespace dlgen::replay
