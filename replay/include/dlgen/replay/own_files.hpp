#pragma once
// Files dlgen writes as root in a job-chosen directory (checkpoints), and the page-cache state of
// files it reads back. Shared by the training checkpoints (checkpoint.cpp) and the checkpoint-only
// workflow (mlperf/src/checkpoint_workflow.cpp), hence public.
//
// Every file is created through a descriptor of its directory: an entry of dlgen's own name that
// is a regular file (dlgen's from an earlier checkpoint) is unlinked, then the file is created
// afresh with openat(O_CREAT | O_EXCL | O_NOFOLLOW). A symbolic link planted at that name is
// refused, never written through; a hard link to someone's file is only unlinked, its inode not
// truncated; anything put there between the unlink and the open makes O_EXCL fail.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "dlgen/core/result.hpp"

namespace dlgen::replay::own {

// A file descriptor, closed when it goes out of scope.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  Fd(Fd&& o) noexcept;
  Fd& operator=(Fd&& o) noexcept;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd();
  int get() const { return fd_; }
  // Closes now and reports a failure ("path: close: reason").
  Result<void> close(const std::filesystem::path& shown);

 private:
  int fd_;
};

// Opens directory `dir` (the job's, as given; created when missing).
Result<Fd> open_dir(const std::filesystem::path& dir);
// Opens (creating when `create`) the directory `name` inside `parent` without following a
// symbolic link: a link there is refused.
Result<Fd> open_subdir(int parent, const std::string& name, const std::filesystem::path& shown,
                       bool create);

// Creates `name` in `dirfd` as described above; `extra` flags (O_DIRECT) are added to
// O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC. `shown` names it in errors.
Result<Fd> create(int dirfd, const std::string& name, const std::filesystem::path& shown,
                  int extra = 0);
// Opens `name` in `dirfd` for reading, refusing a symbolic link.
Result<Fd> open_read(int dirfd, const std::string& name, const std::filesystem::path& shown,
                     int extra = 0);

// The size of regular file `name` in `dirfd`, or 0 when it is missing or not a regular file.
std::uint64_t regular_size(int dirfd, const std::string& name);

// Refuses to write `needed` bytes (rounded up per file by the caller: on_disk) when the
// filesystem of `dirfd` has less available to unprivileged writers (statvfs f_bavail).
Result<void> check_space(int dirfd, const std::filesystem::path& dir, std::uint64_t needed,
                         const std::string& what);
// Bytes a file of `size` takes on the filesystem of `dirfd` (its fragment size, rounded up).
std::uint64_t on_disk(int dirfd, std::uint64_t size);

// Resident bytes of the files (mincore over read-only mappings, in 1 GiB windows) and their total
// size; a file that cannot be opened counts as not resident.
struct Residency {
  std::uint64_t resident_bytes = 0, total_bytes = 0;
  double fraction() const { return total_bytes ? double(resident_bytes) / double(total_bytes) : 0; }
};
Result<Residency> residency(const std::vector<std::filesystem::path>& files);

}  // namespace dlgen::replay::own
