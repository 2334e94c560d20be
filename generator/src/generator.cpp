#include "dlgen/generator/generator.hpp"

#include <fcntl.h>
#include <sys/file.h>
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
#include <vector>

#include "dlgen/core/progress.hpp"
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

std::string errno_text() {
  return std::strerror(errno);
}

Result<std::optional<Manifest>> read_manifest(const fs::path& dir) {
  const fs::path p = dir / kManifestName;
  std::error_code ec;
  if (!fs::exists(p, ec)) return std::optional<Manifest>{};
  std::ifstream in(p);
  if (!in) return runtime_error(p.string() + ": cannot read");
  try {
    const json j = json::parse(in);
    Manifest m;
    m.fingerprint = j.at("fingerprint").get<std::string>();
    m.complete = j.value("complete", false);
    for (const auto& f : j.at("files"))
      m.files.emplace_back(f.at("path").get<std::string>(), f.at("size").get<std::uint64_t>());
    return std::optional<Manifest>(std::move(m));
  } catch (const std::exception& e) {
    return input_error(p.string() + ": not a dlgen manifest (" + e.what() +
                       "); refusing to touch " + dir.string());
  }
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
Result<void> write_manifest(const datasets::Layout& layout, const std::string& fp, bool complete) {
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
  const fs::path tmp = dir / (std::string(kManifestName) + kTempSuffix);
  const std::string text = j.dump(1) + "\n";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return runtime_error(tmp.string() + ": " + errno_text());
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
  if (::fsync(fd) != 0 || ::close(fd) != 0)
    return runtime_error(tmp.string() + ": " + errno_text());
  if (::rename(tmp.c_str(), (dir / kManifestName).c_str()) != 0)
    return runtime_error((dir / kManifestName).string() + ": rename: " + errno_text());
  return ok();
}

bool files_match(const fs::path& dir, const datasets::Layout& layout) {
  std::error_code ec;
  for (std::uint64_t i = 0; i < layout.num_files(); ++i) {
    const auto size = fs::file_size(dir / layout.relative_path(i), ec);
    if (ec || size != layout.file_size(i)) return false;
  }
  return true;
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

void remove_quietly(const fs::path& p) {
  std::error_code ec;
  fs::remove(p, ec);
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
  auto m = read_manifest(spec.dir);
  if (!m || !m->has_value()) return false;
  const Manifest& man = **m;
  if (!man.complete || man.fingerprint != fingerprint(spec)) return false;
  return files_match(spec.dir, datasets::Layout(spec));
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
  Result<void> acquire(const fs::path& dir, bool say_waiting) {
    fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd_ < 0) return runtime_error(dir.string() + ": open: " + errno_text());
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
  auto lock = std::make_shared<DirLock>();
  if (Result<void> l = lock->acquire(dir, options.progress); !l) return l.error();

  auto read = read_manifest(dir);
  if (!read) return read.error();
  const std::optional<Manifest>& old = *read;
  if (old && old->complete && old->fingerprint == fp && !options.force &&
      files_match(dir, layout)) {
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
  if (old && !prepared.resume) {
    for (const auto& f : old->files) {
      remove_quietly(dir / f.first);
      remove_quietly(dir / (f.first + kTempSuffix));
    }
  }
  if (auto r = write_manifest(layout, fp, false); !r) return r.error();
  for (std::uint64_t d = 0; d < layout.num_dirs(); ++d) {
    fs::create_directories(dir / layout.relative_dir(d), ec);
    if (ec) return runtime_error((dir / layout.relative_dir(d)).string() + ": " + ec.message());
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
  std::error_code ec;

  std::vector<std::uint64_t> todo;
  for (std::uint64_t i = share.index; i < layout.num_files(); i += count) {
    const fs::path p = dir / layout.relative_path(i);
    remove_quietly(fs::path(p.string() + kTempSuffix));
    if (resume) {
      const auto size = fs::file_size(p, ec);
      if (!ec && size == layout.file_size(i)) continue;
    }
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
      const fs::path p = dir / layout.relative_path(i);
      const fs::path tmp = p.string() + kTempSuffix;
      bool synced = false;
      Result<void> r = datasets::write_file(layout, i, tmp, 4u << 20, &synced);
      if (!synced) all_synced.store(false, std::memory_order_relaxed);
      if (r && ::rename(tmp.c_str(), p.c_str()) != 0)
        r = runtime_error(p.string() + ": rename: " + errno_text());
      if (!r) {
        remove_quietly(tmp);
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
  if (all_synced.load()) {
    for (std::uint64_t d = 0; d < layout.num_dirs(); ++d) {
      const int fd =
          ::open((dir / layout.relative_dir(d)).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
      }
    }
  }
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    if (all_synced.load())
      ::fsync(dfd);
    else
      ::syncfs(dfd);
    ::close(dfd);
  }
  report.files_written = todo.size();
  report.bytes_written = bytes.load();
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

Result<void> finish_dataset(const DatasetSpec& spec, PreparedDataset& prepared) {
  if (prepared.reused) return ok();
  const datasets::Layout layout(spec);
  Result<void> w = write_manifest(layout, fingerprint(spec), true);
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
