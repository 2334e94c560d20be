// The checkpoint-only workflow's files: see checkpoint_files.hpp.
#include "checkpoint_files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "dlgen/replay/checkpoint_objects.hpp"

namespace dlgen::mlperf::checkpoint_files {

std::string step_name(std::uint32_t index) {
  return "global_epoch1_step" + std::to_string(index);
}

std::filesystem::path checkpoint_dir(const Job& job, std::uint32_t index) {
  return job.checkpoint.dir / step_name(index);
}

std::string drop_page_cache() {
  const int fd = ::open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
  if (fd < 0) return std::string("/proc/sys/vm/drop_caches: open: ") + std::strerror(errno);
  const bool wrote = ::write(fd, "1", 1) == 1;
  const int err = errno;
  const bool closed = ::close(fd) == 0;
  if (!wrote || !closed)
    return std::string("/proc/sys/vm/drop_caches: write: ") + std::strerror(wrote ? errno : err);
  return "";
}

Result<std::vector<std::string>> missing_files(const Job& job, const std::vector<RankShard>& shards,
                                               std::uint32_t index) {
  const std::filesystem::path dir = checkpoint_dir(job, index);
  std::vector<std::pair<std::filesystem::path, std::uint64_t>> files;
  for (const RankShard& s : shards)
    for (const ShardFile& f : s.files) files.emplace_back(dir / f.name, f.bytes);
  if (replay::is_object_dir(dir)) {
    Result<replay::ObjectSizes> listing = replay::list_checkpoint_objects(dir);
    if (!listing) return listing.error();
    return replay::missing_objects(*listing, files);
  }
  std::vector<std::string> missing;
  for (const auto& [path, bytes] : files) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || std::uint64_t(st.st_size) != bytes)
      missing.push_back(path.string());
  }
  return missing;
}

bool files_present(const Job& job, const std::vector<RankShard>& shards, std::uint32_t index) {
  Result<std::vector<std::string>> missing = missing_files(job, shards, index);
  return missing && missing->empty();
}

}  // namespace dlgen::mlperf::checkpoint_files
