#include "dataset_files.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>

namespace dlgen::replay {

FileTable make_table(const datasets::Layout& layout) {
  FileTable t;
  t.layout = &layout;
  const std::uint64_t n = layout.num_files();
  t.path_at.resize(n);
  t.size.resize(n);
  for (std::uint64_t f = 0; f < n; ++f) {
    t.path_at[f] = t.paths.size();
    t.paths += layout.path(f).string();
    t.paths.push_back('\0');
    t.size[f] = layout.file_size(f);
    t.total_bytes += t.size[f];
    t.max_size = std::max(t.max_size, t.size[f]);
  }
  t.max_sample = layout.largest_sample_extent();
  return t;
}

void drop_dataset_cache(const FileTable& files, bool globally, std::vector<std::string>& warnings) {
  for (std::uint64_t f = 0; f < files.size.size(); ++f) {
    const int fd = ::open(files.path(f), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    ::close(fd);
  }
  if (globally && ::geteuid() == 0) {
    ::sync();
    const int fd = ::open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
    if (fd < 0 || ::write(fd, "1", 1) != 1) {
      if (warnings.empty() || warnings.back().find("drop_caches") == std::string::npos)
        warnings.push_back(
            "cannot write /proc/sys/vm/drop_caches; dropped the dataset's pages with fadvise only");
    }
    if (fd >= 0) ::close(fd);
  }
}

}  // namespace dlgen::replay
