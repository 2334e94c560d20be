#include "safety.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "dlgen/core/units.hpp"
#include "dlgen/generator/generator.hpp"

namespace dlgen::generator {
namespace fs = std::filesystem;

std::string errno_text(int err) {
  return std::strerror(err);
}

Result<Fd> open_root(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd >= 0) return Fd(fd);
  if (errno == ELOOP || errno == ENOTDIR)
    return input_error(dir.string() +
                       ": dataset.dir is a symbolic link (or not a directory); dlgen creates and "
                       "deletes files only below a directory it opens without following links: "
                       "give the link's target");
  return runtime_error(dir.string() + ": open: " + errno_text());
}

bool plain_relative(const std::string& p) {
  if (p.empty() || p.front() == '/') return false;
  std::size_t at = 0;
  for (;;) {
    const std::size_t cut = p.find('/', at);
    const std::string part = p.substr(at, cut == std::string::npos ? std::string::npos : cut - at);
    if (part.empty() || part == "." || part == "..") return false;
    if (cut == std::string::npos) return true;
    at = cut + 1;
  }
}

int open_below(int root, const fs::path& rel, bool create) {
  int cur = ::fcntl(root, F_DUPFD_CLOEXEC, 0);
  if (cur < 0) return -errno;
  for (const fs::path& part : rel) {
    if (create && ::mkdirat(cur, part.c_str(), 0755) != 0 && errno != EEXIST) {
      const int err = errno;
      ::close(cur);
      return -err;
    }
    const int next = ::openat(cur, part.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    const int err = errno;
    ::close(cur);
    if (next < 0) return -err;
    cur = next;
  }
  return cur;
}

std::string below_error(const fs::path& dir, const fs::path& rel, int err) {
  if (err == ELOOP || err == ENOTDIR)
    return (dir / rel).string() + ": goes through a symbolic link or a non-directory; dlgen does " +
           "not follow links below the dataset directory";
  return (dir / rel).string() + ": " + errno_text(err);
}

Error below_failure(const fs::path& dir, const fs::path& rel, int err) {
  const std::string why = below_error(dir, rel, err);
  return err == ELOOP || err == ENOTDIR ? input_error(why) : runtime_error(why);
}
std::optional<std::uint64_t> regular_size(int root, const fs::path& rel) {
  struct stat st {};
  if (::fstatat(root, rel.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
    return std::nullopt;
  return static_cast<std::uint64_t>(st.st_size);
}

bool files_match(int root, const datasets::Layout& layout) {
  LayoutStat stat(root, layout);
  for (std::uint64_t i = 0; i < layout.num_files(); ++i)
    if (stat.size(i) != layout.file_size(i)) return false;
  return true;
}

Result<void> remove_listed(int root, const fs::path& dir, const Manifest& old) {
  const std::string suffix = kTempSuffix;
  for (const auto& [rel, size] : old.files) {
    const fs::path p(rel);
    const int parent = open_below(root, p.parent_path(), false);
    if (parent == -ENOENT) continue;  // nothing there to delete
    if (parent < 0)
      return input_error((dir / kManifestName).string() + ": lists " + rel + ", but " +
                         below_error(dir, p.parent_path(), -parent) + "; refusing to touch " +
                         dir.string());
    struct stat st {};
    bool odd = false;
    for (const std::string& name : {p.filename().string(), p.filename().string() + suffix})
      if (::fstatat(parent, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(st.st_mode))
        odd = true;
    ::close(parent);
    if (odd)
      return input_error((dir / kManifestName).string() + ": lists " + rel +
                         ", which is not a regular file dlgen wrote (a link, a directory...); "
                         "refusing to touch " +
                         dir.string());
  }
  for (const auto& [rel, size] : old.files) {
    const fs::path p(rel);
    const int parent = open_below(root, p.parent_path(), false);
    if (parent == -ENOENT) continue;
    if (parent < 0) return runtime_error(below_error(dir, p.parent_path(), -parent));
    Fd hold(parent);
    for (const std::string& name : {p.filename().string(), p.filename().string() + suffix})
      if (::unlinkat(parent, name.c_str(), 0) != 0 && errno != ENOENT)
        return runtime_error((dir / p.parent_path() / name).string() + ": unlink: " + errno_text());
  }
  return ok();
}

namespace {
// Bytes a file of `size` bytes takes on a filesystem of `block`-byte blocks.
std::uint64_t on_disk(std::uint64_t size, std::uint64_t block) {
  return block ? (size + block - 1) / block * block : size;
}

}  // namespace

// Refuses to start a dataset the filesystem cannot hold: the files to write (rounded up to the
// filesystem's blocks) less what the old files there give back or keep, against statvfs's
// f_bavail (what an unprivileged writer may use: root's reserve is not counted on).
Result<void> check_space(int root, const fs::path& dir, const datasets::Layout& layout,
                         const std::optional<Manifest>& old) {
  struct statvfs vfs {};
  if (::fstatvfs(root, &vfs) != 0)
    return runtime_error(dir.string() + ": statvfs: " + errno_text());
  const std::uint64_t block = vfs.f_frsize ? vfs.f_frsize : vfs.f_bsize;
  std::uint64_t needed = 0, reclaimed = 0;
  for (std::uint64_t i = 0; i < layout.num_files(); ++i)
    needed += on_disk(layout.file_size(i), block);
  if (old)
    for (const auto& f : old->files)
      if (auto size = regular_size(root, f.first)) reclaimed += on_disk(*size, block);
  needed = needed > reclaimed ? needed - reclaimed : 0;
  const std::uint64_t available = std::uint64_t{vfs.f_bavail} * block;
  if (needed > available)
    return runtime_error(dir.string() + ": the dataset needs " + std::to_string(needed) +
                         " bytes (" + format_size(needed) + ") more on this filesystem, " +
                         std::to_string(available) + " bytes (" + format_size(available) +
                         ") are available; refusing to start (free space, or make the dataset "
                         "smaller)");
  return ok();
}

namespace {

// Walks directory `fd` (its path below the root: `prefix`, "" or ending in '/'), counting entries
// that are not directories and not `mine`. Directories are opened without following links (a
// link is an entry like a file); one holding its own manifest is another dataset and is skipped.
Result<void> walk(int fd, const fs::path& dir, std::string& prefix, const Owned& mine,
                  Foreign& out) {
  const int dup = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  DIR* d = dup >= 0 ? ::fdopendir(dup) : nullptr;
  if (!d) {
    if (dup >= 0) ::close(dup);
    return runtime_error((dir / prefix).string() + ": " + errno_text());
  }
  Result<void> r = ok();
  errno = 0;
  while (const dirent* e = ::readdir(d)) {
    const std::string_view name = e->d_name;
    if (name == "." || name == "..") continue;
    unsigned char type = e->d_type;
    if (type == DT_UNKNOWN) {  // filesystems that do not fill d_type
      struct stat st {};
      if (::fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;  // gone meanwhile
      type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_LNK;
    }
    const std::size_t at = prefix.size();
    prefix += name;
    if (type == DT_DIR) {
      const int sub = ::openat(fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (sub >= 0) {
        if (::faccessat(sub, kManifestName, F_OK, 0) != 0) {
          prefix += '/';
          r = walk(sub, dir, prefix, mine, out);
        }
        ::close(sub);
      } else if (errno != ENOENT) {
        r = runtime_error((dir / prefix).string() + ": " + errno_text());
      }
    } else if (!mine(prefix, type == DT_REG)) {
      if (out.count++ == 0) out.first = prefix;
    }
    prefix.resize(at);
    if (!r) break;
    errno = 0;
  }
  const int err = errno;
  ::closedir(d);
  if (r && err != 0)
    return runtime_error((dir / prefix).string() + ": readdir: " + errno_text(err));
  return r;
}

}  // namespace

Result<Foreign> foreign_files(int root, const fs::path& dir, const Owned& mine) {
  Foreign out;
  std::string prefix;
  const Owned top = [&mine](std::string_view rel, bool regular) {
    if (rel == kManifestName) return true;
    if (rel.size() == std::strlen(kManifestName) + std::strlen(kTempSuffix) &&
        rel.starts_with(kManifestName) && rel.ends_with(kTempSuffix))
      return true;
    return mine(rel, regular);
  };
  if (Result<void> r = walk(root, dir, prefix, top, out); !r) return r.error();
  return out;
}

LayoutStat::LayoutStat(int root, const datasets::Layout& layout) : root_(root), layout_(layout) {}

LayoutStat::~LayoutStat() {
  if (fd_ >= 0 && fd_ != root_) ::close(fd_);
}

std::optional<std::uint64_t> LayoutStat::size(std::uint64_t file) {
  const std::uint32_t per_dir = layout_.spec().files_per_dir;
  const std::uint64_t d = per_dir > 0 ? file / per_dir : 0;
  if (!open_ || d != dir_) {
    if (fd_ >= 0 && fd_ != root_) ::close(fd_);
    fd_ = per_dir > 0 ? open_below(root_, layout_.relative_dir(d), false) : root_;
    dir_ = d;
    open_ = true;
  }
  if (fd_ < 0) return std::nullopt;
  struct stat st {};
  const std::string name = layout_.relative_path(file).filename().string();
  if (::fstatat(fd_, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
    return std::nullopt;
  return static_cast<std::uint64_t>(st.st_size);
}

DirLock::~DirLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the lock
}

Result<void> DirLock::acquire(int root, const fs::path& dir, bool say_waiting) {
  fd_ = ::fcntl(root, F_DUPFD_CLOEXEC, 0);
  if (fd_ < 0) return runtime_error(dir.string() + ": dup: " + errno_text());
  if (::flock(fd_, LOCK_EX | LOCK_NB) == 0) return ok();
  if (errno != EWOULDBLOCK) return runtime_error(dir.string() + ": flock: " + errno_text());
  if (say_waiting)
    std::fprintf(stderr, "dlgen: another dlgen is preparing %s; waiting for it\n", dir.c_str());
  while (::flock(fd_, LOCK_EX) != 0)
    if (errno != EINTR) return runtime_error(dir.string() + ": flock: " + errno_text());
  return ok();
}

}  // namespace dlgen::generator
