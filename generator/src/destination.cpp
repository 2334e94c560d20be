#include "destination.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "dlgen/datasets/codec.hpp"
#include "manifest.hpp"
#include "safety.hpp"

namespace dlgen::generator {
namespace fs = std::filesystem;

namespace {

// The directories one thread writes into, opened once (below the root, without following links)
// and kept while files in them are open; a few idle ones are kept for the next files, which are
// mostly in the same directory (a thread takes consecutive files).
class DirCache {
 public:
  DirCache(int root, fs::path dir) : root_(root), dir_(std::move(dir)) {}
  ~DirCache() {
    for (Entry& e : entries_) ::close(e.fd);
  }
  DirCache(const DirCache&) = delete;
  DirCache& operator=(const DirCache&) = delete;

  Result<int> acquire(const fs::path& rel) {
    for (Entry& e : entries_)
      if (e.rel == rel) {
        ++e.refs;
        return e.fd;
      }
    const int fd = open_below(root_, rel, false);
    if (fd < 0) return below_failure(dir_, rel, -fd);
    evict();
    entries_.push_back({rel, fd, 1});
    return fd;
  }
  void release(int fd) {
    for (Entry& e : entries_)
      if (e.fd == fd) --e.refs;
  }

 private:
  static constexpr std::size_t kIdle = 8;
  struct Entry {
    fs::path rel;
    int fd;
    std::uint32_t refs;
  };
  void evict() {
    while (entries_.size() >= kIdle) {
      auto idle = std::ranges::find_if(entries_, [](const Entry& e) { return e.refs == 0; });
      if (idle == entries_.end()) return;
      ::close(idle->fd);
      entries_.erase(idle);
    }
  }
  int root_;
  fs::path dir_;
  std::vector<Entry> entries_;
};

class PosixDestination final : public Destination {
 public:
  PosixDestination(int root, fs::path dir, const datasets::Layout& layout)
      : dir_(dir), layout_(layout), dirs_(root, std::move(dir)) {}

  Result<OpenFile> create(std::uint64_t file, bool direct) override {
    const fs::path rel = layout_.relative_path(file);
    const std::string tmp = rel.filename().string() + kTempSuffix;
    Result<int> parent = dirs_.acquire(rel.parent_path());
    if (!parent) return parent.error();
    OpenFile f{file, -1, false, false, *parent};
    // O_EXCL | O_NOFOLLOW: nothing someone planted at the temporary name is opened. A temporary
    // that is there is one of dlgen's (a run interrupted before its rename): unlinked (a link
    // goes, its target stays) and created afresh.
    // hdf5: the writer reads back the head of the first block the library's metadata shares
    // with the rows (writer.cpp, start_at).
    const int access = layout_.spec().format == Format::hdf5 ? O_RDWR : O_WRONLY;
    for (int attempt = 0; f.target < 0; ++attempt) {
      f.target =
          ::openat(f.parent, tmp.c_str(), access | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
      if (f.target >= 0) break;
      const int err = errno;
      if (err != EEXIST || attempt > 0) {
        dirs_.release(f.parent);
        return runtime_error(path(file, kTempSuffix) + ": create: " + errno_text(err));
      }
      if (::unlinkat(f.parent, tmp.c_str(), 0) != 0 && errno != ENOENT) {
        const int uerr = errno;
        dirs_.release(f.parent);
        return runtime_error(path(file, kTempSuffix) + ": unlink: " + errno_text(uerr));
      }
    }
    // Linux takes O_DIRECT through F_SETFL; a filesystem without direct I/O (tmpfs) answers
    // EINVAL and the file stays buffered, which is what the generator wants there.
    if (direct) {
      const int flags = ::fcntl(f.target, F_GETFL);
      f.direct = flags >= 0 && ::fcntl(f.target, F_SETFL, flags | O_DIRECT) == 0;
    }
    return f;
  }

  Result<void> commit(OpenFile& f, bool* synced) override {
    const std::uint64_t size = layout_.file_size(f.file);
    Result<void> r = ok();
    if (f.padded && ::ftruncate(f.target, static_cast<off_t>(size)) != 0)
      r = runtime_error(path(f.file, kTempSuffix) + ": truncate: " + errno_text());
    // An hdf5 file must end exactly where the layout says; a mismatch means the measured frame
    // (datasets/framing) is wrong.
    struct stat st {};
    if (r && layout_.spec().format == Format::hdf5 && ::fstat(f.target, &st) == 0 &&
        static_cast<std::uint64_t>(st.st_size) != size)
      r = runtime_error(path(f.file, "") + ": hdf5 file is " + std::to_string(st.st_size) +
                        " bytes, the layout expected " + std::to_string(size));
    // A direct file's data is on the device already: its fsync commits metadata only.
    if (r && f.direct && ::fsync(f.target) != 0)
      r = runtime_error(path(f.file, kTempSuffix) + ": fsync: " + errno_text());
    if (::close(f.target) != 0 && r)
      r = runtime_error(path(f.file, kTempSuffix) + ": close: " + errno_text());
    f.target = -1;
    const fs::path rel = layout_.relative_path(f.file);
    const std::string name = rel.filename().string(), tmp = name + kTempSuffix;
    if (r && ::renameat(f.parent, tmp.c_str(), f.parent, name.c_str()) != 0)
      r = runtime_error(path(f.file, "") + ": rename: " + errno_text());
    if (!r) ::unlinkat(f.parent, tmp.c_str(), 0);
    dirs_.release(f.parent);
    f.parent = -1;
    if (synced) *synced = r && f.direct;
    return r;
  }

  void abandon(OpenFile& f) override {
    if (f.target >= 0) ::close(f.target);
    f.target = -1;
    const std::string tmp = layout_.relative_path(f.file).filename().string() + kTempSuffix;
    ::unlinkat(f.parent, tmp.c_str(), 0);
    dirs_.release(f.parent);
    f.parent = -1;
  }

  bool drop_direct(OpenFile& f) override {
    const int flags = ::fcntl(f.target, F_GETFL);
    if (flags < 0 || ::fcntl(f.target, F_SETFL, flags & ~O_DIRECT) != 0) return false;
    f.direct = false;
    return true;
  }

  Result<std::uint64_t> hdf5_skeleton(OpenFile& f) override {
    return datasets::write_hdf5_skeleton(layout_, f.file, f.target, path(f.file, kTempSuffix));
  }

 private:
  std::string path(std::uint64_t file, const char* suffix) const {
    return (dir_ / layout_.relative_path(file)).string() + suffix;
  }
  fs::path dir_;
  const datasets::Layout& layout_;
  DirCache dirs_;
};

class EngineDestination final : public Destination {
 public:
  EngineDestination(engine::IoEngine& e, fs::path dir, const datasets::Layout& layout)
      : engine_(e), dir_(std::move(dir)), layout_(layout) {}

  Result<OpenFile> create(std::uint64_t file, bool) override {
    OpenFile f{file, -1, false, false, -1};
    const fs::path p = dir_ / layout_.relative_path(file);
    if (const int rc = engine_.open_file(p.c_str(), O_WRONLY | O_CREAT | O_TRUNC, f.target); rc < 0)
      return runtime_error(p.string() + ": open: " + errno_text(-rc));
    return f;
  }

  Result<void> commit(OpenFile& f, bool* synced) override {
    const int rc = engine_.close_file(f.target);
    f.target = -1;
    if (synced) *synced = rc == 0;
    if (rc < 0)
      return runtime_error((dir_ / layout_.relative_path(f.file)).string() +
                           ": close: " + errno_text(-rc));
    return ok();
  }

  void abandon(OpenFile& f) override {
    (void)engine_.close_file(f.target);
    f.target = -1;
  }

  bool drop_direct(OpenFile&) override { return false; }

  Result<std::uint64_t> hdf5_skeleton(OpenFile& f) override {
    return input_error((dir_ / layout_.relative_path(f.file)).string() + ": the " + engine_.name() +
                       " engine has no POSIX descriptors, which the HDF5 library needs to write "
                       "its metadata; generate hdf5 datasets with a POSIX engine");
  }

 private:
  engine::IoEngine& engine_;
  fs::path dir_;
  const datasets::Layout& layout_;
};

}  // namespace

DestinationFactory posix_destination(int root, fs::path dir, const datasets::Layout& layout) {
  return [root, dir = std::move(dir), &layout](engine::IoEngine&) -> std::unique_ptr<Destination> {
    return std::make_unique<PosixDestination>(root, dir, layout);
  };
}

DestinationFactory engine_destination(fs::path dir, const datasets::Layout& layout) {
  return [dir = std::move(dir), &layout](engine::IoEngine& e) -> std::unique_ptr<Destination> {
    return std::make_unique<EngineDestination>(e, dir, layout);
  };
}

}  // namespace dlgen::generator
