#include "dlgen/generator/generator.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "dlgen/core/progress.hpp"
#include "dlgen/core/units.hpp"
#include "dlgen/datasets/codec.hpp"
#include "dlgen/datasets/layout.hpp"

namespace dlgen::generator {
namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

namespace {

// Bump when a codec changes the bytes it writes for the same spec.
constexpr const char* kCodecVersion = "datasets-v2";  // v2: xoshiro256++ x8 content
constexpr const char* kTempSuffix = ".dlgen-tmp";

// What a manifest on disk says.
struct Manifest {
  std::string fingerprint;
  bool complete = false;
  std::vector<std::pair<std::string, std::uint64_t>> files;  // relative path, size
};

std::string errno_text(int err = errno) {
  return std::strerror(err);
}

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

 private:
  int fd_;
};

// The dataset directory, opened without following a symbolic link: every file dlgen creates or
// deletes is reached from this descriptor, never by a path name resolved again.
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

// "a/b/c": relative, every component a plain name (none empty, "." or ".."), so joined to a
// directory it names something below that directory.
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

// Opens directory `rel` (plain_relative, or empty for `root` itself) below `root` one component
// at a time with O_NOFOLLOW, so a symbolic link on the way is ELOOP or ENOTDIR, never followed;
// creates missing components when `create`. Returns the descriptor or -errno.
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

Result<std::optional<Manifest>> read_manifest(int root, const fs::path& dir) {
  const fs::path p = dir / kManifestName;
  const int fd = ::openat(root, kManifestName, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0 && errno == ENOENT) return std::optional<Manifest>{};
  if (fd < 0 && errno == ELOOP)
    return input_error(p.string() +
                       ": is a symbolic link, not a dlgen manifest; refusing to touch " +
                       dir.string());
  if (fd < 0) return runtime_error(p.string() + ": cannot read: " + errno_text());
  std::string text;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const std::string err = errno_text();
      ::close(fd);
      return runtime_error(p.string() + ": read: " + err);
    }
    if (n == 0) break;
    text.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  Manifest m;
  try {
    const json j = json::parse(text);
    m.fingerprint = j.at("fingerprint").get<std::string>();
    m.complete = j.value("complete", false);
    for (const auto& f : j.at("files"))
      m.files.emplace_back(f.at("path").get<std::string>(), f.at("size").get<std::uint64_t>());
  } catch (const std::exception& e) {
    return input_error(p.string() + ": not a dlgen manifest (" + e.what() +
                       "); refusing to touch " + dir.string());
  }
  // dlgen deletes what its manifest lists: a path that is absolute or climbs out with ".." names
  // someone else's file, so the whole manifest is refused before anything is touched.
  for (std::size_t i = 0; i < m.files.size(); ++i)
    if (!plain_relative(m.files[i].first))
      return input_error(p.string() + ": files[" + std::to_string(i) + "].path \"" +
                         m.files[i].first +
                         "\" is not a plain relative path below the dataset directory (absolute, "
                         "empty, or with a \".\" or \"..\" component); refusing to touch " +
                         dir.string());
  return std::optional<Manifest>(std::move(m));
}

json dataset_json(const DatasetSpec& s) {
  const Distribution& d = s.sample_size;
  json dist = {{"kind", to_string(d.kind)}, {"value", d.value}, {"mean", d.mean},
               {"stdev", d.stdev},          {"min", d.min},     {"max", d.max}};
  if (!d.bins.empty()) {
    json bins = json::array();
    for (const auto& b : d.bins) bins.push_back({b.lo, b.hi, b.weight});
    dist["bins"] = bins;
  }
  return {{"format", to_string(s.format)},
          {"num_files", s.num_files},
          {"samples_per_file", s.samples_per_file},
          {"sample_size", dist},
          {"seed", s.seed},
          {"files_per_dir", s.files_per_dir},
          {"file_prefix", s.file_prefix}};
}

// Written to a temporary name, flushed, then renamed: a reader sees the old or the new manifest.
Result<void> write_manifest(int root, const datasets::Layout& layout, const std::string& fp,
                            bool complete) {
  json j;
  j["dlgen_version"] = DLGEN_VERSION;
  j["fingerprint"] = fp;
  j["dataset"] = dataset_json(layout.spec());
  j["total_bytes"] = layout.total_bytes();
  json files = json::array();
  for (std::uint64_t i = 0; i < layout.num_files(); ++i)
    files.push_back({{"path", layout.relative_path(i).string()}, {"size", layout.file_size(i)}});
  j["files"] = std::move(files);
  j["complete"] = complete;  // last key: a manifest cut short never parses as complete
  const fs::path dir = layout.spec().dir;
  const std::string tmp_name = std::string(kManifestName) + kTempSuffix;
  const fs::path tmp = dir / tmp_name;
  const std::string text = j.dump(1) + "\n";
  // The temporary is dlgen's own name: unlinked (a link planted there goes, its target stays),
  // then created afresh; O_EXCL | O_NOFOLLOW never opens what someone put there meanwhile.
  if (::unlinkat(root, tmp_name.c_str(), 0) != 0 && errno != ENOENT)
    return runtime_error(tmp.string() + ": unlink: " + errno_text());
  const int fd =
      ::openat(root, tmp_name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return runtime_error(tmp.string() + ": create: " + errno_text());
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t w = ::write(fd, text.data() + done, text.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) {
      const std::string err = errno_text();
      ::close(fd);
      return runtime_error(tmp.string() + ": write: " + err);
    }
    done += static_cast<std::size_t>(w);
  }
  if (::fsync(fd) != 0) {
    const std::string err = errno_text();
    ::close(fd);
    return runtime_error(tmp.string() + ": fsync: " + err);
  }
  if (::close(fd) != 0) return runtime_error(tmp.string() + ": close: " + errno_text());
  if (::renameat(root, tmp_name.c_str(), root, kManifestName) != 0)
    return runtime_error((dir / kManifestName).string() + ": rename: " + errno_text());
  if (::fsync(root) != 0)  // the rename itself, durable
    return runtime_error(dir.string() + ": fsync: " + errno_text());
  return ok();
}

// The size of regular file `rel` below `root` (a link is not one), or nothing.
std::optional<std::uint64_t> regular_size(int root, const fs::path& rel) {
  struct stat st {};
  if (::fstatat(root, rel.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
    return std::nullopt;
  return static_cast<std::uint64_t>(st.st_size);
}

bool files_match(int root, const datasets::Layout& layout) {
  for (std::uint64_t i = 0; i < layout.num_files(); ++i)
    if (regular_size(root, layout.relative_path(i)) != layout.file_size(i)) return false;
  return true;
}

// Removes the old manifest's files (and their temporaries). First every listed path is walked
// without following links: one that goes through a link or a non-directory, or names something
// other than a regular file, means the manifest lies, and nothing at all is deleted (input
// error). Then each is unlinked relative to its directory's descriptor (unlinkat never follows
// the last component either).
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

// Bytes a file of `size` bytes takes on a filesystem of `block`-byte blocks.
std::uint64_t on_disk(std::uint64_t size, std::uint64_t block) {
  return block ? (size + block - 1) / block * block : size;
}

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

// Entries under `dir` (files, links, anything but directories) that dlgen did not write: not the
// manifest, not a regular file in `owned`, not a temporary ("<name>.dlgen-tmp") of a name in
// `temp_ok`. Subdirectories holding their own manifest are other datasets and are skipped.
Result<std::vector<fs::path>> foreign_files(const fs::path& dir, const std::set<std::string>& owned,
                                            const std::set<std::string>& temp_ok) {
  std::vector<fs::path> foreign;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, ec), end;
  if (ec) return runtime_error(dir.string() + ": " + ec.message());
  const std::string manifest = kManifestName, suffix = kTempSuffix;
  for (; it != end; it.increment(ec)) {
    if (ec) return runtime_error(dir.string() + ": " + ec.message());
    const fs::directory_entry& e = *it;
    if (e.is_directory() && !e.is_symlink()) {
      if (fs::exists(e.path() / kManifestName)) it.disable_recursion_pending();
      continue;
    }
    const std::string rel = e.path().lexically_relative(dir).string();
    if (rel == manifest || rel == manifest + suffix) continue;
    const bool regular = e.is_regular_file() && !e.is_symlink();
    if (regular && owned.count(rel)) continue;
    if (regular && rel.ends_with(suffix) &&
        temp_ok.count(rel.substr(0, rel.size() - suffix.size())))
      continue;
    foreign.push_back(rel);
  }
  return foreign;
}

}  // namespace

std::string fingerprint(const DatasetSpec& spec) {
  // FNV-1a over a canonical text of the spec; doubles in hex-float form so nothing rounds.
  std::string text = std::string(kCodecVersion) + "|" + dataset_json(spec).dump();
  char buf[64];
  const Distribution& d = spec.sample_size;
  for (double v : {d.value, d.mean, d.stdev, d.min, d.max}) {
    std::snprintf(buf, sizeof buf, "|%a", v);
    text += buf;
  }
  for (const auto& b : d.bins) {
    std::snprintf(buf, sizeof buf, "|%a,%a,%a", b.lo, b.hi, b.weight);
    text += buf;
  }
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  std::snprintf(buf, sizeof buf, "%016" PRIx64, h);
  return buf;
}

Result<void> generate_file(const DatasetSpec& spec, std::uint64_t file, const fs::path& path) {
  const datasets::Layout layout(spec);
  return datasets::write_file(layout, file, path);
}

bool dataset_ready(const DatasetSpec& spec) {
  Result<Fd> root = open_root(spec.dir);
  if (!root) return false;
  auto m = read_manifest(root->get(), spec.dir);
  if (!m || !m->has_value()) return false;
  const Manifest& man = **m;
  if (!man.complete || man.fingerprint != fingerprint(spec)) return false;
  return files_match(root->get(), datasets::Layout(spec));
}

// Two dlgen processes preparing the same dataset directory (two users, or ranks of one run) take
// turns: an exclusive flock on the directory itself, so no file is created in it. The second waits,
// then finds the first one's complete manifest and reuses the dataset.
class DirLock {
 public:
  DirLock() = default;
  DirLock(const DirLock&) = delete;
  DirLock& operator=(const DirLock&) = delete;
  ~DirLock() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the lock
  }
  // `root`: the directory, opened (by open_root); the lock holds its own descriptor.
  Result<void> acquire(int root, const fs::path& dir, bool say_waiting) {
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

 private:
  int fd_ = -1;
};

Result<PreparedDataset> begin_dataset(const DatasetSpec& spec, const GenerateOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  if (spec.dir.empty()) return input_error("dataset.dir is empty");
  const fs::path dir = spec.dir;
  const datasets::Layout layout(spec);
  const std::string fp = fingerprint(spec);
  PreparedDataset prepared;

  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    return input_error(dir.string() + ": exists and is not a directory");
  fs::create_directories(dir, ec);
  if (ec) return runtime_error(dir.string() + ": " + ec.message());
  Result<Fd> root = open_root(dir);
  if (!root) return root.error();
  const int rfd = root->get();
  auto lock = std::make_shared<DirLock>();
  if (Result<void> l = lock->acquire(rfd, dir, options.progress); !l) return l.error();

  auto read = read_manifest(rfd, dir);
  if (!read) return read.error();
  const std::optional<Manifest>& old = *read;
  if (old && old->complete && old->fingerprint == fp && !options.force &&
      files_match(rfd, layout)) {
    prepared.reused = true;
    prepared.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return prepared;
  }

  // Files dlgen may touch: those the old manifest lists, and temporaries of those and of the plan.
  // Without a manifest nothing is ours, so any file at all means the directory is someone else's.
  std::set<std::string> owned, temp_ok;
  if (old) {
    for (const auto& f : old->files) owned.insert(f.first);
    temp_ok = owned;
    for (std::uint64_t i = 0; i < layout.num_files(); ++i)
      temp_ok.insert(layout.relative_path(i).string());
  }
  auto foreign = foreign_files(dir, owned, temp_ok);
  if (!foreign) return foreign.error();
  if (!foreign->empty())
    return input_error(dir.string() +
                       (old ? " holds " : " is not empty and has no dlgen manifest; it holds ") +
                       std::to_string(foreign->size()) + " file(s) dlgen did not write (first: " +
                       foreign->front().string() + "); refusing to touch it");

  // Same fingerprint: files already renamed into place are complete and kept (resume);
  // otherwise every file the old manifest lists is ours to delete.
  prepared.resume = old && old->fingerprint == fp && !options.force;
  if (Result<void> space = check_space(rfd, dir, layout, old); !space) return space.error();
  if (old && !prepared.resume)
    if (Result<void> r = remove_listed(rfd, dir, *old); !r) return r.error();
  if (auto r = write_manifest(rfd, layout, fp, false); !r) return r.error();
  for (std::uint64_t d = 0; d < layout.num_dirs(); ++d) {
    const int sub = open_below(rfd, layout.relative_dir(d), true);
    if (sub < 0) {
      const std::string why = below_error(dir, layout.relative_dir(d), -sub);
      return -sub == ELOOP || -sub == ENOTDIR ? input_error(why) : runtime_error(why);
    }
    ::close(sub);
  }
  prepared.lock = std::move(lock);
  prepared.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return prepared;
}

Result<GenerateReport> write_dataset_share(const DatasetSpec& spec, bool resume, FileShare share,
                                           const GenerateOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const fs::path dir = spec.dir;
  const datasets::Layout layout(spec);
  const std::uint32_t count = std::max<std::uint32_t>(share.count, 1);
  GenerateReport report;
  Result<Fd> root = open_root(dir);
  if (!root) return root.error();
  const int rfd = root->get();

  std::vector<std::uint64_t> todo;
  for (std::uint64_t i = share.index; i < layout.num_files(); i += count) {
    const fs::path rel = layout.relative_path(i);
    if (resume && regular_size(rfd, rel) == layout.file_size(i)) continue;
    todo.push_back(i);
  }
  std::uint32_t threads = options.threads ? options.threads : std::thread::hardware_concurrency();
  threads = static_cast<std::uint32_t>(
      std::clamp<std::uint64_t>(threads, 1, std::max<std::size_t>(todo.size(), 1)));
  std::optional<Progress> progress;
  if (options.progress)
    progress.emplace("generating " + dir.filename().string(), todo.size(), "files");
  std::atomic<std::uint64_t> next{0}, bytes{0};
  std::atomic<bool> failed{false};
  std::atomic<bool> all_synced{true};
  std::mutex error_mu;
  std::optional<Error> first_error;
  auto worker = [&] {
    for (;;) {
      const std::uint64_t k = next.fetch_add(1);
      if (k >= todo.size() || failed.load(std::memory_order_relaxed)) return;
      const std::uint64_t i = todo[k];
      const fs::path rel = layout.relative_path(i);
      const std::string name = rel.filename().string(), tmp_name = name + kTempSuffix;
      const fs::path p = dir / rel, tmp = p.string() + kTempSuffix;
      // The file is written under its temporary name, created afresh in a directory reached
      // without following links (O_EXCL | O_NOFOLLOW: nothing planted there is opened), then
      // renamed into place; a temporary left by an interrupted run is dlgen's and is unlinked.
      Result<void> r;
      bool synced = false;
      const int parent = open_below(rfd, rel.parent_path(), false);
      int fd = -1;
      if (parent < 0)
        r = runtime_error(below_error(dir, rel.parent_path(), -parent));
      else if (::unlinkat(parent, tmp_name.c_str(), 0) != 0 && errno != ENOENT)
        r = runtime_error(tmp.string() + ": unlink: " + errno_text());
      else if ((fd = ::openat(parent, tmp_name.c_str(),
                              O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644)) < 0)
        r = runtime_error(tmp.string() + ": create: " + errno_text());
      else
        r = datasets::write_file(layout, i, fd, tmp, 4u << 20, &synced);
      if (!synced) all_synced.store(false, std::memory_order_relaxed);
      if (r && ::renameat(parent, tmp_name.c_str(), parent, name.c_str()) != 0)
        r = runtime_error(p.string() + ": rename: " + errno_text());
      if (!r && fd >= 0) ::unlinkat(parent, tmp_name.c_str(), 0);
      if (parent >= 0) ::close(parent);
      if (!r) {
        std::lock_guard lock(error_mu);
        if (!first_error) first_error = r.error();
        failed = true;
        return;
      }
      const std::uint64_t b = bytes.fetch_add(layout.file_size(i)) + layout.file_size(i);
      if (options.written) options.written->fetch_add(layout.file_size(i));
      if (progress) {
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        char note[64];
        std::snprintf(note, sizeof note, "%.0f MiB/s", s > 0 ? double(b) / (1 << 20) / s : 0.0);
        progress->note(note);
        progress->add(1);
      }
    }
  };
  std::vector<std::thread> pool;
  for (std::uint32_t t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  progress.reset();
  if (first_error) return *first_error;

  // The data must be on disk before a manifest calls it complete. Large files were written with
  // O_DIRECT and fsync()ed one by one, so only the directories (the renames) are left to sync;
  // small files went through the page cache and one syncfs() writes them all back (it also
  // flushes whatever else is dirty on that filesystem, still cheaper than an fsync per file).
  // A failure here means the files may not be on disk: it is an error, never a complete manifest.
  if (all_synced.load()) {
    for (std::uint64_t d = 0; d < layout.num_dirs(); ++d) {
      const fs::path rel = layout.relative_dir(d);
      const int fd = open_below(rfd, rel, false);
      if (fd < 0) return runtime_error(below_error(dir, rel, -fd));
      Fd hold(fd);
      if (::fsync(fd) != 0)
        return runtime_error((dir / rel).string() + ": fsync (directory): " + errno_text());
    }
    if (::fsync(rfd) != 0)
      return runtime_error(dir.string() + ": fsync (directory): " + errno_text());
  } else if (::syncfs(rfd) != 0) {
    return runtime_error(dir.string() + ": syncfs: " + errno_text());
  }
  report.files_written = todo.size();
  report.bytes_written = bytes.load();
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

Result<void> finish_dataset(const DatasetSpec& spec, PreparedDataset& prepared) {
  if (prepared.reused) return ok();
  const datasets::Layout layout(spec);
  Result<Fd> root = open_root(spec.dir);
  if (!root) return root.error();
  Result<void> w = write_manifest(root->get(), layout, fingerprint(spec), true);
  prepared.lock.reset();
  return w;
}

Result<GenerateReport> ensure_dataset(const DatasetSpec& spec, const GenerateOptions& options) {
  Result<PreparedDataset> p = begin_dataset(spec, options);
  if (!p) return p.error();
  GenerateReport report;
  report.seconds = p->seconds;
  if (p->reused) {
    report.reused = true;
    return report;
  }
  Result<GenerateReport> w = write_dataset_share(spec, p->resume, {}, options);
  if (!w) return w.error();
  if (Result<void> f = finish_dataset(spec, *p); !f) return f.error();
  report.files_written = w->files_written;
  report.bytes_written = w->bytes_written;
  report.seconds += w->seconds;
  return report;
}

}  // namespace dlgen::generator
