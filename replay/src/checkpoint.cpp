#include "dlgen/replay/checkpoint.hpp"

#include <fcntl.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <thread>

#include "dlgen/core/llm.hpp"
#include "dlgen/replay/checkpoint_io.hpp"
#include "dlgen/replay/checkpoint_objects.hpp"
#include "dlgen/replay/own_files.hpp"

namespace dlgen::replay {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string errno_text(const std::filesystem::path& p, const char* what, std::uint64_t offset,
                       int err) {
  return p.string() + ": " + what + " at " + std::to_string(offset) + ": " + std::strerror(err);
}

// Runs f(context, shard) for every shard on up to 4 threads, each with a context of its own made
// by make() (a Result: a CheckpointIo, whose engine serves one thread), then done(context) on
// that thread, one thread at a time; returns the first error.
template <class Make, class F, class Done>
Result<void> for_each_shard(std::uint32_t shards, Make make, F f, Done done) {
  std::atomic<std::uint32_t> next{0};
  std::mutex mu;
  std::optional<Error> first;
  auto failed = [&](const Error& e) {
    std::lock_guard lock(mu);
    if (!first) first = e;
  };
  auto body = [&] {
    if (next.load() >= shards) return;
    auto context = make();
    if (!context) return failed(context.error());
    for (std::uint32_t s; (s = next.fetch_add(1)) < shards;)
      if (Result<void> r = f(*context, s); !r) failed(r.error());
    std::lock_guard lock(mu);
    done(*context);
  };
  const std::uint32_t n = std::min<std::uint32_t>(std::max<std::uint32_t>(shards, 1), 4);
  std::vector<std::thread> threads;
  // A helper thread the system cannot start (std::system_error): this thread writes its shards.
  try {
    for (std::uint32_t i = 1; i < n; ++i) threads.emplace_back(body);
  } catch (const std::system_error&) {
  }
  body();
  for (auto& t : threads) t.join();
  if (first) return *first;
  return ok();
}

// A shard context for work that needs none (the -best copies).
Result<bool> no_context() {
  return true;
}
void nothing_done(bool) {}

// Adds the HTTP requests of a writer's engine to the checkpoints' (an object store's; nothing
// for the file engines).
void add_requests(std::optional<engine::S3Counters>& into, const CheckpointIo& io) {
  const engine::S3Counters* k = io.s3_counters();
  if (!k) return;
  if (!into) into.emplace();
  into->merge(*k);
}

// How a checkpoint's shards move: the job's request size, call, O_DIRECT and fsync on `engine`.
CheckpointIoOptions io_options(const CheckpointSpec& spec, std::string_view engine) {
  CheckpointIoOptions o;
  o.engine = std::string(engine);
  o.request_bytes = spec.write_size_bytes;
  o.read_bytes = spec.read_size_bytes;
  o.part_bytes = spec.part_size_bytes;
  o.direct_writes = spec.direct;
  o.fsync = spec.fsync;
  o.call = spec.write_call == WriteCall::write    ? engine::SyncWrite::write
           : spec.write_call == WriteCall::writev ? engine::SyncWrite::writev
                                                  : engine::SyncWrite::pwrite;
  return o;
}

// Whether the engine reaches files through POSIX descriptors: only then are there a directory to
// open, free space to check, -best copies to make and a page cache to drop.
Result<bool> posix_files(std::string_view engine) {
  Result<const engine::EngineOps*> ops = engine::lookup(engine);
  if (!ops) return ops.error();
  return (*ops)->caps.posix_fd;
}

// This process's share of checkpoint.serialize for a checkpoint of `shards`: the time per byte of
// a checkpoint of checkpoint.size (or of all the shards, a [model] sizing them) times its own bytes
// (a final save of another size spends in proportion).
double serialize_seconds(const CheckpointSpec& spec, const std::vector<CheckpointShard>& shards,
                         std::uint64_t mine) {
  if (spec.serialize_s <= 0) return 0;
  std::uint64_t all = 0;
  for (const CheckpointShard& c : shards) all += c.bytes;
  const std::uint64_t per = spec.size_bytes > 0 ? spec.size_bytes : all;
  return per > 0 ? spec.serialize_s * static_cast<double>(mine) / static_cast<double>(per) : 0;
}

std::filesystem::path best_path(const std::filesystem::path& from) {
  std::filesystem::path to = from;
  to.replace_filename(from.stem().string() + "-best" + from.extension().string());
  return to;
}

// Copies a written shard (in `dirfd`) to its "-best" file with `call` (as shutil.copyfile of
// model_best does with sendfile), to the end of the source.
Result<void> copy_shard(int dirfd, const std::filesystem::path& from, CopyCall call) {
  const std::filesystem::path to = best_path(from);
  Result<own::Fd> in = own::open_read(dirfd, from.filename().string(), from);
  if (!in) return in.error();
  Result<own::Fd> out = own::create(dirfd, to.filename().string(), to);
  if (!out) return out.error();
  std::uint64_t off = 0;
  for (;;) {
    constexpr std::size_t kMax = 1u << 30;
    const ssize_t n = call == CopyCall::sendfile
                          ? ::sendfile(out->get(), in->get(), nullptr, kMax)
                          : ::copy_file_range(in->get(), nullptr, out->get(), nullptr, kMax, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return runtime_error(errno_text(to, to_string(call), off, errno));
    if (n == 0) break;
    off += static_cast<std::uint64_t>(n);
  }
  return out->close(to);
}

// Refuses a checkpoint the filesystem of `dirfd` has no room for: this process's shards (and
// their -best copies when copied this time), less the previous checkpoint's files they replace.
Result<void> check_checkpoint_space(const CheckpointSpec& spec, int dirfd,
                                    const std::vector<CheckpointShard>& mine, bool copying) {
  std::uint64_t needed = 0, freed = 0;
  for (const CheckpointShard& s : mine) {
    const std::uint64_t b = own::on_disk(dirfd, s.bytes);
    needed += copying ? 2 * b : b;
    freed += own::on_disk(dirfd, own::regular_size(dirfd, s.path.filename().string()));
    if (copying)
      freed += own::on_disk(dirfd, own::regular_size(dirfd, best_path(s.path).filename().string()));
  }
  return own::check_space(dirfd, spec.dir, needed > freed ? needed - freed : 0, "the checkpoint");
}

// This process's shards of a checkpoint, and each one's index among all of them (its content
// stream).
struct Owned {
  std::vector<CheckpointShard> shards;
  std::vector<std::uint32_t> index;
  std::uint64_t bytes = 0;
};
Owned owned(const std::vector<CheckpointShard>& all, ShardShare share) {
  Owned o;
  for (std::uint32_t i = 0; i < all.size(); ++i)
    if (share.owns(all[i])) {
      o.shards.push_back(all[i]);
      o.index.push_back(i);
      o.bytes += all[i].bytes;
    }
  return o;
}

}  // namespace

std::vector<std::filesystem::path> checkpoint_paths(const CheckpointSpec& spec) {
  std::vector<std::filesystem::path> out;
  const std::uint32_t n = std::max<std::uint32_t>(spec.files, 1);
  for (std::uint32_t i = 0; i < n; ++i)
    out.push_back(spec.dir /
                  ("checkpoint-" + std::to_string(i) + "-of-" + std::to_string(n) + ".dlgen"));
  return out;
}

std::uint64_t checkpoint_shard_bytes(const CheckpointSpec& spec, std::uint32_t shard) {
  const std::uint32_t n = std::max<std::uint32_t>(spec.files, 1);
  return spec.size_bytes / n + (shard < spec.size_bytes % n ? 1 : 0);
}

std::vector<CheckpointShard> checkpoint_shards(const CheckpointSpec& spec, std::uint32_t hosts) {
  std::vector<CheckpointShard> out;
  const auto paths = checkpoint_paths(spec);
  for (std::uint32_t i = 0; i < paths.size(); ++i)
    out.push_back({paths[i], checkpoint_shard_bytes(spec, i), hosts > 1 ? i % hosts : 0});
  return out;
}

std::vector<CheckpointShard> final_shards(const CheckpointSpec& spec, std::uint32_t hosts) {
  std::vector<CheckpointShard> out;
  if (spec.final_size_bytes == 0) return out;
  const std::uint32_t n = std::max<std::uint32_t>(spec.final_files, 1);
  for (std::uint32_t i = 0; i < n; ++i)
    out.push_back(
        {spec.dir / ("final-" + std::to_string(i) + "-of-" + std::to_string(n) + ".dlgen"),
         spec.final_size_bytes / n + (i < spec.final_size_bytes % n ? 1 : 0),
         hosts > 1 ? i % hosts : 0});
  return out;
}

std::vector<CheckpointShard> checkpoint_shards(const Job& job, std::uint32_t hosts) {
  if (!job.model) return checkpoint_shards(job.checkpoint, hosts);
  std::vector<CheckpointShard> out;
  for (std::uint32_t h = 0; h < std::max<std::uint32_t>(hosts, 1); ++h)
    for (const RankShard& r : training_shards(job, h))
      for (const ShardFile& f : r.files) out.push_back({job.checkpoint.dir / f.name, f.bytes, h});
  return out;
}

Result<void> write_checkpoint(const CheckpointSpec& spec, CheckpointResult& into,
                              std::string_view engine, ShardShare share,
                              std::atomic<std::uint64_t>* progress) {
  return write_checkpoint(spec, checkpoint_shards(spec, share.ranks), into, engine, share,
                          progress);
}

Result<void> write_checkpoint(const CheckpointSpec& spec,
                              const std::vector<CheckpointShard>& shards, CheckpointResult& into,
                              std::string_view engine, ShardShare share,
                              std::atomic<std::uint64_t>* progress) {
  Result<bool> posix = posix_files(engine);
  if (!posix) return posix.error();
  own::Fd dir;
  if (*posix) {
    Result<own::Fd> d = own::open_dir(spec.dir);
    if (!d) return d.error();
    dir = std::move(*d);
  }
  const int dirfd = dir.get();
  const Owned mine = owned(shards, share);
  const auto n = static_cast<std::uint32_t>(mine.shards.size());
  const bool copying = *posix && spec.copy != CopyCall::none &&
                       into.count % std::max<std::uint32_t>(spec.copy_every, 1) == 0;
  if (*posix)
    if (Result<void> space = check_checkpoint_space(spec, dirfd, mine.shards, copying); !space)
      return space;
  // A fresh content stream per shard and per checkpoint: no block repeats within or across
  // checkpoints (checkpoint_io.hpp).
  const std::uint64_t stream_seed = checkpoint_salt() ^ (into.count * 0x9e3779b97f4a7c15ull);
  const auto t0 = std::chrono::steady_clock::now();
  const CheckpointIoOptions options = io_options(spec, engine);
  auto open_io = [&] { return CheckpointIo::open(options); };
  Serializer serializer(serialize_seconds(spec, shards, mine.bytes), mine.bytes);
  Result<void> r = for_each_shard(
      n, open_io,
      [&](CheckpointIo& io, std::uint32_t s) {
        const CheckpointShard& c = mine.shards[s];
        const CheckpointFile f{dirfd, c.path.filename().string(), c.path, c.bytes, &serializer};
        return io.write(f, stream_seed, mine.index[s], progress);
      },
      [&](const CheckpointIo& io) { add_requests(into.s3, io); });
  if (!r) return r;
  if (copying)
    r = for_each_shard(
        n, no_context,
        [&](bool, std::uint32_t s) { return copy_shard(dirfd, mine.shards[s].path, spec.copy); },
        nothing_done);
  if (!r) return r;
  const double seconds = seconds_since(t0);
  into.write_s += seconds;
  into.serialize_s += serializer.spent_s();
  into.count += 1;
  into.files += n;
  into.bytes += mine.bytes;
  into.write_bytes.push_back(mine.bytes);
  into.write_seconds.push_back(seconds);
  return ok();
}

namespace {

// Writes each shard back to storage and drops it from the page cache, so the restore reads
// storage (untimed). A failure of either call is reported: a restore read from memory would be
// printed as storage.
Result<void> flush_and_drop(int dirfd, const std::vector<std::filesystem::path>& paths) {
  for (const auto& p : paths) {
    Result<own::Fd> f = own::open_read(dirfd, p.filename().string(), p);
    if (!f) return f.error();
    if (::fdatasync(f->get()) != 0) return runtime_error(errno_text(p, "fdatasync", 0, errno));
    if (const int err = ::posix_fadvise(f->get(), 0, 0, POSIX_FADV_DONTNEED); err != 0)
      return runtime_error(errno_text(p, "posix_fadvise(DONTNEED)", 0, err));
    if (Result<void> c = f->close(p); !c) return c;
  }
  return ok();
}

// Whether every one of `shards` is there at its size: a stat each in a directory, one LIST of
// the prefix on an object store (a missing object is then written, never met as a 404). A
// diskless engine (null) stores nothing, so nothing is looked for: no stat, no request to a store.
Result<bool> shards_present(const CheckpointSpec& spec, const std::vector<CheckpointShard>& shards,
                            std::string_view engine) {
  if (const engine::EngineOps* e = engine::find(engine); e && e->caps.diskless) return false;
  if (is_object_dir(spec.dir)) {
    Result<ObjectSizes> listing = list_checkpoint_objects(spec.dir);
    if (!listing) return listing.error();
    std::vector<std::pair<std::filesystem::path, std::uint64_t>> files;
    for (const CheckpointShard& c : shards) files.emplace_back(c.path, c.bytes);
    return missing_objects(*listing, files).empty();
  }
  for (const CheckpointShard& c : shards) {
    struct stat st {};
    if (::stat(c.path.c_str(), &st) != 0 || static_cast<std::uint64_t>(st.st_size) != c.bytes)
      return false;
  }
  return true;
}

// Writes `shards` (this process's share) when any of them is not there at its size.
Result<bool> write_missing(const CheckpointSpec& spec, const std::vector<CheckpointShard>& shards,
                           CheckpointResult& into, std::string_view engine, ShardShare share,
                           std::atomic<std::uint64_t>* progress) {
  Result<bool> present = shards_present(spec, owned(shards, share).shards, engine);
  if (!present) return present.error();
  if (*present) return false;
  if (Result<void> w = write_checkpoint(spec, shards, into, engine, share, progress); !w)
    return w.error();
  return true;
}

}  // namespace

std::string checkpoint_engine(const Job& job, std::string_view engine) {
  const engine::EngineOps* e = engine::find(engine);
  if (e && !e->caps.posix_fd && !e->caps.diskless && !is_object_dir(job.checkpoint.dir))
    return std::string(engine::default_name());
  return std::string(engine);
}

Result<bool> prepare_restore(const Job& job, std::string_view engine, ShardShare share) {
  if (!job.checkpoint.enabled || !job.checkpoint.restore) return false;
  CheckpointResult unused;
  return write_missing(job.checkpoint, checkpoint_shards(job, share.ranks), unused,
                       checkpoint_engine(job, engine), share, nullptr);
}

Result<void> restore_checkpoint(const CheckpointSpec& spec, CheckpointResult& into,
                                std::string_view engine, ShardShare share,
                                std::atomic<std::uint64_t>* progress) {
  return restore_checkpoint(spec, checkpoint_shards(spec, share.ranks), into, engine, share,
                            progress);
}

Result<void> restore_checkpoint(const CheckpointSpec& spec,
                                const std::vector<CheckpointShard>& shards, CheckpointResult& into,
                                std::string_view engine, ShardShare share,
                                std::atomic<std::uint64_t>* progress) {
  Result<bool> posix = posix_files(engine);
  if (!posix) return posix.error();
  const Owned mine = owned(shards, share);
  const auto n = static_cast<std::uint32_t>(mine.shards.size());
  std::vector<std::filesystem::path> paths;
  for (const CheckpointShard& c : mine.shards) paths.push_back(c.path);
  CheckpointResult setup;
  Result<bool> wrote = write_missing(spec, shards, setup, engine, share, progress);
  if (!wrote) return wrote.error();
  // Untimed, but sent: its requests are the checkpoints' too.
  if (setup.s3) {
    if (!into.s3) into.s3.emplace();
    into.s3->merge(*setup.s3);
  }
  own::Fd dir;
  if (*posix) {
    Result<own::Fd> d = own::open_dir(spec.dir);
    if (!d) return d.error();
    dir = std::move(*d);
    if (Result<void> f = flush_and_drop(dir.get(), paths); !f) return f;
  }
  const int dirfd = dir.get();
  const auto t0 = std::chrono::steady_clock::now();
  std::atomic<std::uint64_t> bytes{0};
  const CheckpointIoOptions options = io_options(spec, engine);
  auto open_io = [&] { return CheckpointIo::open(options); };
  Result<void> r = for_each_shard(
      n, open_io,
      [&](CheckpointIo& io, std::uint32_t s) -> Result<void> {
        const CheckpointShard& c = mine.shards[s];
        const CheckpointFile f{dirfd, c.path.filename().string(), c.path, c.bytes};
        Result<std::uint64_t> got = io.read(f, false, nullptr, progress);
        if (!got) return got.error();
        bytes += *got;
        return ok();
      },
      [&](const CheckpointIo& io) { add_requests(into.s3, io); });
  if (!r) return r;
  into.restore_s += seconds_since(t0);
  into.restore_bytes += bytes.load();
  return ok();
}

}  // namespace dlgen::replay
