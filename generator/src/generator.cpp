// The public steps (generator.hpp): decide under the directory's lock what to do with a dataset
// directory (begin_dataset), plan and write a share of its files (write_dataset_share, through an
// engine: writer.hpp), and record it complete (finish_dataset). The rules that keep dlgen off
// others' files are in safety.hpp, the manifest in manifest.hpp.
#include "dlgen/generator/generator.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string_view>
#include <thread>
#include <unordered_set>
#include <utility>
#include <vector>

#include "destination.hpp"
#include "dlgen/core/progress.hpp"
#include "dlgen/datasets/codec.hpp"
#include "dlgen/datasets/layout.hpp"
#include "dlgen/engine/registry.hpp"
#include "manifest.hpp"
#include "safety.hpp"
#include "writer.hpp"

namespace dlgen::generator {
namespace fs = std::filesystem;

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Whether `rel` is the path of one of the layout's files: the index in its name, then that file's
// path compared (computed, not listed: a million planned names take no memory).
bool planned(const datasets::Layout& layout, std::string_view rel) {
  const std::size_t cut = rel.rfind('_');
  if (cut == std::string_view::npos) return false;
  std::uint64_t index = 0;
  std::size_t digits = 0;
  for (std::size_t k = cut + 1; k < rel.size() && rel[k] >= '0' && rel[k] <= '9'; ++k, ++digits) {
    if (index > (~std::uint64_t{0} - 9) / 10) return false;
    index = index * 10 + static_cast<std::uint64_t>(rel[k] - '0');
  }
  return digits > 0 && index < layout.num_files() && layout.relative_path(index).string() == rel;
}

// The files of `share` still to write: all, or (when resuming) those not already in place at
// their size.
std::vector<std::uint64_t> plan_share(int root, const datasets::Layout& layout, bool resume,
                                      FileShare share) {
  const std::uint32_t count = std::max<std::uint32_t>(share.count, 1);
  std::vector<std::uint64_t> todo;
  todo.reserve((layout.num_files() + count - 1) / count);
  LayoutStat stat(root, layout);
  for (std::uint64_t i = share.index; i < layout.num_files(); i += count) {
    if (resume && stat.size(i) == layout.file_size(i)) continue;
    todo.push_back(i);
  }
  return todo;
}

// The data must be on disk before a manifest calls it complete. Large files were written with
// O_DIRECT and fsync()ed one by one, so only the directories (the renames) are left to sync;
// small files went through the page cache and one syncfs() writes them all back (it also
// flushes whatever else is dirty on that filesystem, still cheaper than an fsync per file).
// A failure here means the files may not be on disk: it is an error, never a complete manifest.
Result<void> make_durable(int root, const fs::path& dir, const datasets::Layout& layout,
                          bool all_synced) {
  if (!all_synced) {
    if (::syncfs(root) != 0) return runtime_error(dir.string() + ": syncfs: " + errno_text());
    return ok();
  }
  for (std::uint64_t d = 0; d < layout.num_dirs(); ++d) {
    const fs::path rel = layout.relative_dir(d);
    const int fd = open_below(root, rel, false);
    if (fd < 0) return runtime_error(below_error(dir, rel, -fd));
    Fd hold(fd);
    if (::fsync(fd) != 0)
      return runtime_error((dir / rel).string() + ": fsync (directory): " + errno_text());
  }
  if (::fsync(root) != 0)
    return runtime_error(dir.string() + ": fsync (directory): " + errno_text());
  return ok();
}

}  // namespace

bool writes_storage(const engine::EngineOps& e) {
  return e.caps.writes && !e.caps.diskless;
}

Result<const engine::EngineOps*> writer_engine(std::string_view name) {
  if (name.empty()) {
    // The first registered engine that writes to storage and can run here: io_uring, or the
    // synchronous engine where io_uring is refused (seccomp, io_uring_disabled).
    for (const engine::EngineOps& e : engine::registry())
      if (writes_storage(e) && (!e.probe || e.probe())) return &e;
    return unsupported_error("no I/O engine that writes files can run here");
  }
  Result<const engine::EngineOps*> e = engine::lookup(name);
  if (!e) return e;
  if (!writes_storage(**e))
    return input_error("the " + (*e)->name +
                       " engine writes nothing to storage: it cannot generate a dataset");
  if (Result<void> p = engine::probe((*e)->name); !p) return p.error();
  return e;
}

Result<void> generate_file(const DatasetSpec& spec, std::uint64_t file, const fs::path& path) {
  const datasets::Layout layout(spec);
  return datasets::write_file(layout, file, path);
}

bool dataset_ready(const DatasetSpec& spec) {
  Result<Fd> root = open_root(spec.dir);
  if (!root) return false;
  auto m = read_manifest(root->get(), spec.dir, /*with_files=*/false);
  if (!m || !m->has_value()) return false;
  const Manifest& man = **m;
  if (!man.complete || man.fingerprint != fingerprint(spec)) return false;
  return files_match(root->get(), datasets::Layout(spec));
}

Result<PreparedDataset> begin_dataset(const DatasetSpec& spec, const GenerateOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  if (spec.dir.empty()) return input_error("dataset.dir is empty");
  // A bad engine is refused before anything is touched.
  if (Result<const engine::EngineOps*> e = writer_engine(options.engine); !e) return e.error();
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
  std::unordered_set<std::string_view> listed;
  if (old) {
    listed.reserve(old->files.size());
    for (const auto& f : old->files) listed.insert(f.first);
  }
  const std::string_view suffix = kTempSuffix;
  const Owned mine = [&](std::string_view rel, bool regular) {
    if (!old || !regular) return false;
    if (listed.contains(rel)) return true;
    if (!rel.ends_with(suffix)) return false;
    const std::string_view base = rel.substr(0, rel.size() - suffix.size());
    return listed.contains(base) || planned(layout, base);
  };
  Result<Foreign> foreign = foreign_files(rfd, dir, mine);
  if (!foreign) return foreign.error();
  if (foreign->count > 0)
    return input_error(
        dir.string() + (old ? " holds " : " is not empty and has no dlgen manifest; it holds ") +
        std::to_string(foreign->count) + " file(s) dlgen did not write (first: " + foreign->first +
        "); refusing to touch it");

  // Same fingerprint: files already renamed into place are complete and kept (resume);
  // otherwise every file the old manifest lists is ours to delete.
  prepared.resume = old && old->fingerprint == fp && !options.force;
  if (Result<void> space = check_space(rfd, dir, layout, old); !space) return space.error();
  if (old && !prepared.resume)
    if (Result<void> r = remove_listed(rfd, dir, *old); !r) return r.error();
  if (auto r = write_manifest(rfd, layout, fp, false); !r) return r.error();
  for (std::uint64_t d = 0; d < layout.num_dirs(); ++d) {
    const int sub = open_below(rfd, layout.relative_dir(d), true);
    if (sub < 0) return below_failure(dir, layout.relative_dir(d), -sub);
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
  Result<const engine::EngineOps*> engine = writer_engine(options.engine);
  if (!engine) return engine.error();
  // The dataset directory holds the manifest and is where every POSIX engine's files are created
  // from; an engine without descriptors opens its files by path below it (destination.hpp).
  Result<Fd> root = open_root(dir);
  if (!root) return root.error();
  const int rfd = root->get();
  const std::vector<std::uint64_t> todo = plan_share(rfd, layout, resume, share);

  std::optional<Progress> progress;
  if (options.progress)
    progress.emplace("generating " + dir.filename().string(), todo.size(), "files");
  WriteConfig config;
  config.layout = &layout;
  config.engine = *engine;
  config.destination = (*engine)->caps.posix_fd ? posix_destination(rfd, dir, layout)
                                                : engine_destination(dir, layout);
  config.threads = options.threads ? options.threads : std::thread::hardware_concurrency();
  config.progress = progress ? &*progress : nullptr;
  config.written = options.written;
  Result<WriteTotals> totals = write_files(config, todo);
  progress.reset();
  if (!totals) return totals.error();
  // An engine without descriptors made each file durable at its close.
  if ((*engine)->caps.posix_fd)
    if (Result<void> d = make_durable(rfd, dir, layout, totals->all_synced); !d) return d.error();
  GenerateReport report;
  report.files_written = totals->files;
  report.bytes_written = totals->bytes;
  report.seconds = seconds_since(start);
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
