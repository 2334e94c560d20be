#include "dlgen/replay/own_files.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "dlgen/core/storage_location.hpp"
#include "dlgen/core/units.hpp"

namespace dlgen::replay::own {
namespace {

std::string why(int err) {
  return std::strerror(err);
}

}  // namespace

Fd::Fd(Fd&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
Fd& Fd::operator=(Fd&& o) noexcept {
  std::swap(fd_, o.fd_);
  return *this;
}
Fd::~Fd() {
  if (fd_ >= 0) ::close(fd_);
}
Result<void> Fd::close(const std::filesystem::path& shown) {
  const int fd = std::exchange(fd_, -1);
  if (fd >= 0 && ::close(fd) != 0) return runtime_error(shown.string() + ": close: " + why(errno));
  return ok();
}

Result<Fd> open_dir(const std::filesystem::path& dir) {
  // create_directories would make a folder named "s3:" of an object location.
  if (Result<std::filesystem::path> d = local_dir(dir, "checkpoint.dir", "the checkpoint writer");
      !d)
    return d.error();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    return runtime_error(dir.string() + ": cannot create checkpoint directory: " + ec.message());
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return runtime_error(dir.string() + ": open: " + why(errno));
  return Fd(fd);
}

Result<Fd> open_subdir(int parent, const std::string& name, const std::filesystem::path& shown,
                       bool create) {
  if (create && ::mkdirat(parent, name.c_str(), 0755) != 0 && errno != EEXIST)
    return runtime_error(shown.string() + ": mkdir: " + why(errno));
  const int fd = ::openat(parent, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd >= 0) return Fd(fd);
  if (errno == ELOOP || errno == ENOTDIR)
    return runtime_error(shown.string() +
                         ": is a symbolic link or not a directory; dlgen does not follow links "
                         "inside the checkpoint directory");
  return runtime_error(shown.string() + ": open: " + why(errno));
}

Result<Fd> create(int dirfd, const std::string& name, const std::filesystem::path& shown,
                  int extra) {
  struct stat st {};
  if (::fstatat(dirfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) {
    if (!S_ISREG(st.st_mode))
      return runtime_error(shown.string() + ": exists and is not a regular file (" +
                           (S_ISLNK(st.st_mode)   ? "a symbolic link"
                            : S_ISDIR(st.st_mode) ? "a directory"
                                                  : "a special file") +
                           "); dlgen replaces only files it wrote and never writes through a link");
    if (::unlinkat(dirfd, name.c_str(), 0) != 0 && errno != ENOENT)
      return runtime_error(shown.string() + ": unlink: " + why(errno));
  } else if (errno != ENOENT) {
    return runtime_error(shown.string() + ": stat: " + why(errno));
  }
  const int fd = ::openat(dirfd, name.c_str(),
                          O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | extra, 0644);
  if (fd < 0)
    return runtime_error(shown.string() + ": create" +
                         (errno == EEXIST ? " (something appeared there meanwhile)" : "") + ": " +
                         why(errno));
  return Fd(fd);
}

Result<Fd> open_read(int dirfd, const std::string& name, const std::filesystem::path& shown,
                     int extra) {
  const int fd = ::openat(dirfd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | extra);
  if (fd >= 0) return Fd(fd);
  if (errno == ELOOP)
    return runtime_error(shown.string() +
                         ": is a symbolic link; dlgen reads only the files it wrote");
  return runtime_error(shown.string() + ": open at 0: " + why(errno));
}

std::uint64_t regular_size(int dirfd, const std::string& name) {
  struct stat st {};
  if (::fstatat(dirfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
    return 0;
  return static_cast<std::uint64_t>(st.st_size);
}

std::uint64_t on_disk(int dirfd, std::uint64_t size) {
  struct statvfs vfs {};
  const std::uint64_t block =
      ::fstatvfs(dirfd, &vfs) == 0 ? (vfs.f_frsize ? vfs.f_frsize : vfs.f_bsize) : 4096;
  return block ? (size + block - 1) / block * block : size;
}

Result<void> check_space(int dirfd, const std::filesystem::path& dir, std::uint64_t needed,
                         const std::string& what) {
  struct statvfs vfs {};
  if (::fstatvfs(dirfd, &vfs) != 0) return runtime_error(dir.string() + ": statvfs: " + why(errno));
  const std::uint64_t block = vfs.f_frsize ? vfs.f_frsize : vfs.f_bsize;
  const std::uint64_t available = std::uint64_t{vfs.f_bavail} * block;
  if (needed > available)
    return runtime_error(dir.string() + ": " + what + " needs " + std::to_string(needed) +
                         " bytes (" + format_size(needed) + ") more on this filesystem, " +
                         std::to_string(available) + " bytes (" + format_size(available) +
                         ") are available; refusing to start (free space, or write fewer or "
                         "smaller checkpoints)");
  return ok();
}

Result<Residency> residency(const std::vector<std::filesystem::path>& files) {
  Residency r;
  const std::uint64_t page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  constexpr std::uint64_t kWindow = 1ull << 30;
  std::vector<unsigned char> vec;
  for (const auto& p : files) {
    const int fd = ::open(p.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
      ::close(fd);
      continue;
    }
    const std::uint64_t size = static_cast<std::uint64_t>(st.st_size);
    r.total_bytes += size;
    for (std::uint64_t at = 0; at < size; at += kWindow) {
      const std::uint64_t len = std::min(kWindow, size - at);
      void* m = ::mmap(nullptr, len, PROT_READ, MAP_SHARED, fd, static_cast<off_t>(at));
      if (m == MAP_FAILED) {
        const int err = errno;
        ::close(fd);
        return runtime_error(p.string() + ": mmap at " + std::to_string(at) + ": " + why(err));
      }
      const std::uint64_t pages = (len + page - 1) / page;
      vec.assign(pages, 0);
      const int rc = ::mincore(m, len, vec.data());
      const int err = errno;
      ::munmap(m, len);
      if (rc != 0) {
        ::close(fd);
        return runtime_error(p.string() + ": mincore at " + std::to_string(at) + ": " + why(err));
      }
      for (std::uint64_t i = 0; i < pages; ++i)
        if (vec[i] & 1) r.resident_bytes += std::min(page, len - i * page);
    }
    ::close(fd);
  }
  return r;
}

}  // namespace dlgen::replay::own
