#pragma once
// The rules that keep dlgen from touching what it did not create: the dataset directory is opened
// without following a symbolic link and every file is reached from its descriptor (never by a path
// resolved again); a directory holding files no manifest of dlgen's lists is refused; a manifest
// that lies (a path outside, a link, a directory) deletes nothing; a dataset that does not fit the
// free space is refused before anything is written; two dlgen processes take turns on a lock.
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dlgen/core/result.hpp"
#include "dlgen/datasets/layout.hpp"
#include "manifest.hpp"

namespace dlgen::generator {

std::string errno_text(int err = errno);

// A file descriptor, closed when it goes out of scope.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  Fd(Fd&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  Fd& operator=(Fd&& o) noexcept {
    std::swap(fd_, o.fd_);
    return *this;
  }
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

// The dataset directory, opened without following a symbolic link: every file dlgen creates or
// deletes is reached from this descriptor, never by a path name resolved again.
Result<Fd> open_root(const std::filesystem::path& dir);
// "a/b/c": relative, every component a plain name (none empty, "." or ".."), so joined to a
// directory it names something below that directory.
bool plain_relative(const std::string& p);

// Opens directory `rel` (plain_relative, or empty for `root` itself) below `root` one component
// at a time with O_NOFOLLOW, so a symbolic link on the way is ELOOP or ENOTDIR, never followed;
// creates missing components when `create`. Returns the descriptor or -errno.
int open_below(int root, const std::filesystem::path& rel, bool create);
// The error of open_below's -errno `err` for `rel` below `dir`.
std::string below_error(const std::filesystem::path& dir, const std::filesystem::path& rel,
                        int err);
// As below_error, as an input error when a link or a non-directory is in the way (the user's
// directory tree is wrong), else a runtime error.
Error below_failure(const std::filesystem::path& dir, const std::filesystem::path& rel, int err);

// The size of regular file `rel` below `root` (a link is not one), or nothing.
std::optional<std::uint64_t> regular_size(int root, const std::filesystem::path& rel);
// Whether every file of `layout` is below `root` at its size.
bool files_match(int root, const datasets::Layout& layout);

// Removes the old manifest's files (and their temporaries). First every listed path is walked
// without following links: one that goes through a link or a non-directory, or names something
// other than a regular file, means the manifest lies, and nothing at all is deleted (input
// error). Then each is unlinked relative to its directory's descriptor (unlinkat never follows
// the last component either).
Result<void> remove_listed(int root, const std::filesystem::path& dir, const Manifest& old);

// Refuses (runtime error naming the bytes needed and available) a dataset that does not fit the
// free space of its filesystem, counting what regenerating it frees (the old manifest's files).
Result<void> check_space(int root, const std::filesystem::path& dir, const datasets::Layout& layout,
                         const std::optional<Manifest>& old);

// Whether entry `rel` (relative to the dataset directory; `regular`: a regular file, not a link or
// anything else) is one dlgen may have written.
using Owned = std::function<bool(std::string_view rel, bool regular)>;
// What foreign_files found: how many entries dlgen did not write, and the first one met.
struct Foreign {
  std::uint64_t count = 0;
  std::string first;
};
// Entries below `root` (the dataset directory `dir`; files, links, anything but directories) that
// are not the manifest (or its temporary) and not `mine`. Subdirectories holding their own
// manifest are other datasets and are skipped. Reads each directory once (readdir, no per-entry
// path objects): a million files are one pass.
Result<Foreign> foreign_files(int root, const std::filesystem::path& dir, const Owned& mine);

// Sizes of a layout's files, each stat'ed by its name relative to its directory (opened once per
// run of files in one directory, without following links): cheaper than resolving a path per
// file. Ask in ascending file order for one open per directory.
class LayoutStat {
 public:
  LayoutStat(int root, const datasets::Layout& layout);
  ~LayoutStat();
  LayoutStat(const LayoutStat&) = delete;
  LayoutStat& operator=(const LayoutStat&) = delete;
  // The size of file `file` if it is a regular file (a link is not one), else nothing.
  std::optional<std::uint64_t> size(std::uint64_t file);

 private:
  int root_;
  const datasets::Layout& layout_;
  bool open_ = false;
  std::uint64_t dir_ = 0;
  int fd_ = -1;
};

// Two dlgen processes preparing the same dataset directory (two users, or ranks of one run) take
// turns: an exclusive flock on the directory itself, so no file is created in it. The second waits,
// then finds the first one's complete manifest and reuses the dataset.
class DirLock {
 public:
  DirLock() = default;
  DirLock(const DirLock&) = delete;
  DirLock& operator=(const DirLock&) = delete;
  ~DirLock();
  // `root`: the directory, opened (by open_root); the lock holds its own descriptor.
  Result<void> acquire(int root, const std::filesystem::path& dir, bool say_waiting);

 private:
  int fd_ = -1;
};

}  // namespace dlgen::generator
