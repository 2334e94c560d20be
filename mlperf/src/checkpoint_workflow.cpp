// The checkpoint-only workflow (see checkpoint_workflow.hpp): one thread per simulated rank, all
// starting each checkpoint together on a barrier; the main thread prepares directories, sleeps
// the pause between checkpoints and drops the page cache between writes and reads.
#include "dlgen/mlperf/checkpoint_workflow.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>

#include "checkpoint_files.hpp"
#include "checkpoint_hosts.hpp"
#include "checkpoint_report.hpp"
#include "dlgen/core/limits.hpp"
#include "dlgen/core/llm.hpp"
#include "dlgen/core/units.hpp"
#include "dlgen/replay/checkpoint_io.hpp"
#include "dlgen/replay/checkpoint_objects.hpp"
#include "dlgen/replay/own_files.hpp"
#include "dlgen/replay/rank_group.hpp"

namespace dlgen::mlperf {

// The replay's file ownership (own_files.hpp) and the ranks' agreement (rank_group.hpp), which the
// workflow used unqualified inside replay/.
namespace own = replay::own;
using replay::checkpoint_salt;
using replay::CheckpointFile;
using replay::CheckpointIo;
using replay::CheckpointIoOptions;
using replay::ProgressScope;
using replay::RankGroup;

using namespace checkpoint_files;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

std::string io_error(const std::filesystem::path& p, const char* what, std::uint64_t offset,
                     int err) {
  return p.string() + ": " + what + " at " + std::to_string(offset) + ": " + std::strerror(err);
}

// How the simulated ranks write and read their files: the one checkpoint writer
// (checkpoint_io.hpp) on the run's engine, with the job's request size and fsync.
CheckpointIoOptions io_options(const Job& job, const CheckpointRunOptions& options) {
  CheckpointIoOptions o;
  o.engine = options.engine;
  o.request_bytes = job.checkpoint.write_size_bytes;
  o.fsync = job.checkpoint.fsync;
  return o;
}

std::string percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100 * fraction);
  return buf;
}

// The simulated ranks and the passes they run.
class Workflow {
 public:
  // `root`: the checkpoint directory (job.checkpoint.dir), open for the whole run; -1 on an object
  // store (the engine opens every object by its URL).
  // `io`: how every rank writes and reads (each rank makes its own engine).
  Workflow(const Job& job, std::vector<RankShard> shards, int root, CheckpointIoOptions io)
      : job_(job),
        shards_(std::move(shards)),
        root_(root),
        io_(std::move(io)),
        sync_(static_cast<std::ptrdiff_t>(shards_.size() + 1)) {}

  // Reads from here on use O_DIRECT (the page cache could not be dropped for them).
  void read_direct(bool on) { direct_ = on; }
  // Whether a filesystem refused O_DIRECT, so some reads went through the page cache.
  bool direct_refused() const { return buffered_; }

  // Runs one pass (write or read of checkpoint `index`) on every rank; returns its records.
  Result<CheckpointPass> pass(std::uint32_t index, bool write) {
    index_ = index;
    write_ = write;
    records_.assign(shards_.size(), RankPass{});
    sync_.arrive_and_wait();  // start together
    sync_.arrive_and_wait();  // all done
    if (first_error_) return *first_error_;
    CheckpointPass p;
    p.index = index;
    p.ranks = records_;
    return p;
  }

  Result<void> start() {
    try {
      for (std::size_t i = 0; i < shards_.size(); ++i)
        threads_.emplace_back([this, i] { rank_loop(i); });
    } catch (const std::system_error& e) {
      // The barrier counts every rank: the missing ones arrive (and leave) here, so the ranks
      // already started pass it once, see stop_ and end.
      const std::size_t started = threads_.size();
      stop_ = true;
      for (std::size_t i = started; i < shards_.size(); ++i) sync_.arrive_and_drop();
      sync_.arrive_and_wait();
      for (auto& t : threads_) t.join();
      threads_.clear();
      return runtime_error("cannot start simulated rank " + std::to_string(started) + " of " +
                           std::to_string(shards_.size()) + " (one thread each): " + e.what());
    }
    return ok();
  }

  bool started() const { return !threads_.empty(); }
  // Bytes written and read so far, all passes (RankGroup::set_progress).
  std::uint64_t progress() const { return progress_.load(std::memory_order_relaxed); }

  void stop() {
    stop_ = true;
    sync_.arrive_and_wait();
    for (auto& t : threads_) t.join();
  }

 private:
  void rank_loop(std::size_t i) {
    // The rank's engine, made on its own thread (an engine serves one thread); a failure is
    // this rank's error in every pass.
    Result<CheckpointIo> io = CheckpointIo::open(io_);
    for (;;) {
      sync_.arrive_and_wait();
      if (stop_) return;
      const auto t0 = Clock::now();
      RankPass rec;
      rec.rank = shards_[i].rank;
      Result<void> r = !io      ? Result<void>(io.error())
                       : write_ ? write_rank(i, *io, rec)
                                : read_rank(i, *io, rec);
      rec.seconds = seconds_between(t0, Clock::now());
      records_[i] = rec;
      if (!r) {
        std::lock_guard lock(mu_);
        if (!first_error_) first_error_ = r.error();
      }
      sync_.arrive_and_wait();
    }
  }

  Result<void> write_rank(std::size_t i, CheckpointIo& io, RankPass& rec) {
    const RankShard& s = shards_[i];
    const std::filesystem::path dir = checkpoint_dir(job_, index_);
    Result<own::Fd> dfd = step_dir(dir);
    if (!dfd) return dfd.error();
    for (std::size_t f = 0; f < s.files.size(); ++f) {
      // A fresh stream per checkpoint, rank and file: nothing repeats within or across checkpoints.
      const CheckpointFile file{dfd->get(), s.files[f].name, dir / s.files[f].name,
                                s.files[f].bytes};
      if (Result<void> r =
              io.write(file, checkpoint_salt() ^ (std::uint64_t{index_} * 0x9e3779b97f4a7c15ull),
                       (std::uint64_t{s.rank} << 20) | f, &progress_);
          !r)
        return r;
      rec.bytes += s.files[f].bytes;
    }
    return ok();
  }

  Result<void> read_rank(std::size_t i, CheckpointIo& io, RankPass& rec) {
    const RankShard& s = shards_[i];
    const std::filesystem::path dir = checkpoint_dir(job_, index_);
    Result<own::Fd> dfd = step_dir(dir);
    if (!dfd) return dfd.error();
    for (const ShardFile& f : s.files) {
      Result<std::uint64_t> n =
          io.read({dfd->get(), f.name, dir / f.name, f.bytes}, direct_, &buffered_, &progress_);
      if (!n) return n.error();
      rec.bytes += *n;
    }
    return ok();
  }

  // The checkpoint's directory, open (no descriptor on an object store).
  Result<own::Fd> step_dir(const std::filesystem::path& dir) const {
    if (root_ < 0) return own::Fd();
    return own::open_subdir(root_, step_name(index_), dir, false);
  }

  const Job& job_;
  std::vector<RankShard> shards_;
  int root_;
  CheckpointIoOptions io_;
  bool direct_ = false;
  std::atomic<bool> buffered_{false};
  std::barrier<> sync_;
  std::vector<std::thread> threads_;
  std::vector<RankPass> records_;
  std::uint32_t index_ = 0;
  bool write_ = true;
  std::atomic<bool> stop_{false};
  std::atomic<std::uint64_t> progress_{0};
  std::mutex mu_;
  std::optional<Error> first_error_;
};
// What the steps of one run share: the job, this host's simulated ranks, the open checkpoint
// directory, the rank threads, the hosts (nullptr: this host alone) and the result as it grows.
struct Run {
  const Job& job;
  const CheckpointRunOptions& options;
  RankGroup* cl;
  std::vector<RankShard> shards;
  int rfd;              // job.checkpoint.dir, open for the whole run; -1: an object store
  std::uint32_t first;  // the first checkpoint index this run writes and reads
  Workflow& wf;
  CheckpointRunResult& out;
  std::uint64_t written = 0;  // checkpoint bytes now on this host's storage, for the cache rule
  std::vector<std::uint32_t> untimed;  // checkpoints written (untimed) because a read needed them

  // Every coordination point is an agreement of all hosts (a no-op on one): every host reaches
  // the same ones in the same order, and leaves on the first failure of any.
  Result<void> together(const Result<void>& mine) const { return cl ? cl->agree(mine) : mine; }

  // Every shard file of this host's ranks in checkpoints [from, to).
  std::vector<std::filesystem::path> files_of(std::uint32_t from, std::uint32_t to) const {
    std::vector<std::filesystem::path> files;
    for (std::uint32_t i = from; i < to; ++i)
      for (const RankShard& s : shards)
        for (const ShardFile& f : s.files) files.push_back(checkpoint_dir(job, i) / f.name);
    return files;
  }

  bool progress() const { return options.progress && (!cl || cl->rank() == 0); }
  const char* scope() const { return cl ? " (this host's ranks)" : ""; }

  // One checkpoint written or read by every rank of every host: the directory made, the pause,
  // all hosts agree to start, all report how it went.
  Result<CheckpointPass> pass(std::uint32_t index, bool write) {
    Result<void> ready = write ? make_dir(index) : ok();
    if (ready) pause();  // DLIO's time_between_checkpoints: compute between checkpoints, untimed
    if (Result<void> go = together(ready); !go) return go.error();
    Result<CheckpointPass> p = wf.pass(index, write);
    if (Result<void> done = together(p ? ok() : Result<void>(p.error())); !done)
      return done.error();
    return p;
  }

  bool objects() const { return rfd < 0; }

  Result<void> make_dir(std::uint32_t index) const {
    if (objects()) return ok();  // a prefix needs no making
    Result<own::Fd> d = own::open_subdir(rfd, step_name(index), checkpoint_dir(job, index), true);
    return d ? ok() : Result<void>(d.error());
  }

  void pause() const {
    const double s = job.checkpoint.pause_s;
    if (s > 0) std::this_thread::sleep_for(std::chrono::duration<double>(s));
  }
};

// This host's share of the job's simulated ranks, and the result's description of them.
Result<std::vector<RankShard>> host_share(const Job& job, const CheckpointRunOptions& options,
                                          RankGroup* cl, CheckpointRunResult& out) {
  const CheckpointSpec& k = job.checkpoint;
  out.job_name = job.name;
  out.dir = k.dir;
  out.fsync = k.fsync;
  Result<std::vector<RankShard>> share =
      cluster_host_shards(job, cl ? cl->rank() : 0, cl ? cl->size() : 1);
  if (!share) return share.error();  // the same on every host: the job is the same
  std::vector<RankShard> shards = std::move(*share);
  out.ranks = static_cast<std::uint32_t>(shards.size());
  out.world_ranks = job.model ? job.model->world() : host_shards(job).size();
  out.parameters = job.model ? parameter_count(*job.model) : 0;
  out.checkpoint_bytes = checkpoint_bytes(shards);
  for (const RankShard& s : shards) out.checkpoint_files += s.files.size();
  out.ram_bytes = options.ram_bytes > 0 ? options.ram_bytes : limits::host_memory_bytes();
  if (shards.empty())
    return input_error(job.name + ": the checkpoint-only workflow has no rank to simulate");
  return shards;
}

// Free space, before anything is written: every checkpoint this run writes (the timed ones and
// the missing ones it must read), less the files of the same names it replaces. Each host counts
// its own ranks' bytes.
Result<void> check_room(const Run& run) {
  const CheckpointSpec& k = run.job.checkpoint;
  if (run.objects()) return ok();  // an object store reports no free space
  std::uint64_t needed = 0, freed = 0;
  for (std::uint32_t i = run.first; i < run.first + std::max(k.writes, k.reads); ++i) {
    if (i >= run.first + k.writes && files_present(run.job, run.shards, i)) continue;
    Result<own::Fd> d = own::open_subdir(run.rfd, step_name(i), checkpoint_dir(run.job, i), false);
    for (const RankShard& s : run.shards)
      for (const ShardFile& f : s.files) {
        needed += own::on_disk(run.rfd, f.bytes);
        if (d) freed += own::on_disk(run.rfd, own::regular_size(d->get(), f.name));
      }
  }
  return own::check_space(run.rfd, k.dir, needed > freed ? needed - freed : 0,
                          "this run's checkpoints");
}

// The timed writes: checkpoints first .. first + writes - 1.
Result<void> write_checkpoints(Run& run) {
  const CheckpointSpec& k = run.job.checkpoint;
  for (std::uint32_t i = run.first; i < run.first + k.writes; ++i) {
    Result<CheckpointPass> p = run.pass(i, true);
    if (!p) return p.error();
    if (run.progress()) print_progress("write", *p, i - run.first + 1, k.writes, run.scope());
    run.written += pass_figures(*p).bytes;
    run.out.writes.push_back(std::move(*p));
  }
  return ok();
}

// A read phase on an object store (writes = 0) reads what a write phase left: a missing object is
// an error naming it and the command that writes it, never a 404 in the middle of the reads.
Result<void> read_phase_objects_present(const Run& run) {
  const CheckpointSpec& k = run.job.checkpoint;
  std::vector<std::string> missing;
  for (std::uint32_t i = run.first; i < run.first + k.reads; ++i) {
    Result<std::vector<std::string>> m = missing_files(run.job, run.shards, i);
    if (!m) return m.error();
    missing.insert(missing.end(), m->begin(), m->end());
  }
  if (missing.empty()) return ok();
  return runtime_error(std::to_string(missing.size()) +
                       " checkpoint object(s) to read are missing or of another "
                       "size (" +
                       replay::name_some(missing) +
                       "); write them first with a write phase of the same "
                       "job: checkpoint.writes = " +
                       std::to_string(k.reads) +
                       " and checkpoint.reads = 0 (`--set "
                       "checkpoint.writes=" +
                       std::to_string(k.reads) +
                       " --set checkpoint.reads=0`, or "
                       "++workload.checkpoint.num_checkpoints_read=0 on a DLIO config)");
}

// Checkpoints to read that this run did not write must exist; missing ones are written first,
// untimed (a read phase on an object store refuses instead: read_phase_objects_present). A
// checkpoint missing on any host is written by all of them.
Result<void> write_missing(Run& run) {
  const CheckpointSpec& k = run.job.checkpoint;
  if (run.objects() && k.writes == 0) return run.together(read_phase_objects_present(run));
  Result<void> status = ok();
  for (std::uint32_t i = run.first; i < run.first + k.reads && status; ++i) {
    if (i < run.first + k.writes) continue;
    const bool here = files_present(run.job, run.shards, i);
    const bool everywhere = run.cl ? run.cl->all(here) : here;
    if (everywhere) continue;
    Result<CheckpointPass> p = run.pass(i, true);
    if (!p) {
      status = p.error();
    } else {
      run.written += pass_figures(*p).bytes;
      run.untimed.push_back(i);
    }
    run.out.notes.push_back("checkpoint " + std::to_string(i) +
                            " was missing: written first, untimed");
  }
  return status;
}

// Every file this run wrote or reads is written back first (fdatasync, then syncfs: a failure
// is an error, never a silent cached read); then root drops the page cache for real
// (drop_caches); elsewhere the files are advised out and read with O_DIRECT. `refused`: why
// drop_caches was not used.
Result<void> empty_page_cache(Run& run, std::string& refused) {
  const CheckpointSpec& k = run.job.checkpoint;
  const int rfd = run.rfd;
  const std::vector<std::filesystem::path> all =
      run.files_of(run.first, run.first + std::max(k.writes, k.reads));
  // One file open at a time (thousands of shards would pass the descriptor limit).
  auto each = [&](auto&& call) -> Result<void> {
    for (const std::filesystem::path& p : all) {
      Result<own::Fd> d =
          own::open_subdir(rfd, p.parent_path().filename().string(), p.parent_path(), false);
      if (!d) return d.error();
      Result<own::Fd> f = own::open_read(d->get(), p.filename().string(), p);
      if (!f) return f.error();
      if (Result<void> r = call(f->get(), p); !r) return r;
      if (Result<void> c = f->close(p); !c) return c;
    }
    return ok();
  };
  Result<void> synced = each([](int fd, const std::filesystem::path& p) -> Result<void> {
    if (::fdatasync(fd) != 0) return runtime_error(io_error(p, "fdatasync", 0, errno));
    return ok();
  });
  if (!synced) return synced;
  if (::syncfs(rfd) != 0)
    return runtime_error(k.dir.string() + ": syncfs: " + std::strerror(errno));
  refused = run.options.drop_caches ? drop_page_cache() : "not asked for";
  if (refused.empty()) {
    run.out.cache_method = "drop_caches";
    return ok();
  }
  run.out.cache_method = "O_DIRECT";
  run.wf.read_direct(true);
  return each([](int fd, const std::filesystem::path& p) -> Result<void> {
    if (const int err = ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED); err != 0)
      return runtime_error(io_error(p, "posix_fadvise(DONTNEED)", 0, err));
    return ok();
  });
}

// Per host: its own bytes against its own RAM (MLPerf's 3x rule), its own files dropped; then
// mincore says how much of the files to read is still resident. On an object store there is
// nothing to drop: every read is a GET that the store answers (no client page cache holds
// objects), as the rule wants of a dropped cache.
Result<void> drop_before_reads(Run& run, std::string& refused) {
  CheckpointRunResult& out = run.out;
  if (run.objects()) {
    out.cache_dropped = true;
    out.cache_method = "object store";
    out.resident_fraction = 0;
    return ok();
  }
  out.cache_dropped = drop_cache_between(run.written, out.ram_bytes);
  const std::vector<std::filesystem::path> read_files =
      run.files_of(run.first, run.first + run.job.checkpoint.reads);
  // Every host reaches this agreement, whether its own rule dropped its cache or not.
  Result<void> status = run.together(out.cache_dropped ? empty_page_cache(run, refused) : ok());
  Result<own::Residency> res = own::Residency{};
  if (status) res = own::residency(read_files);
  status = run.together(res ? status : Result<void>(res.error()));
  if (status) out.resident_fraction = res->fraction();
  return status;
}

// Why the page cache was (not) dropped, how, and what mincore saw.
void describe_cache(Run& run, const std::string& refused) {
  CheckpointRunResult& out = run.out;
  if (run.objects()) {
    out.cache_note =
        "nothing to drop: the reads are GETs from the object store, which no client page cache "
        "holds";
    return;
  }
  const std::string resident =
      "mincore: " + percent(out.resident_fraction) + " of the files resident before the reads";
  if (out.cache_dropped && out.cache_method == "drop_caches") {
    out.cache_note = "dropped before the reads (" + format_size(run.written) + " written < 3 x " +
                     format_size(out.ram_bytes) + " RAM) with syncfs + drop_caches; " + resident +
                     (out.resident_fraction < 0.01 ? ": the reads come from storage"
                                                   : ": part of the reads may come from memory");
  } else if (out.cache_dropped) {
    out.cache_note = "written back and advised out before the reads (" + format_size(run.written) +
                     " written < 3 x " + format_size(out.ram_bytes) + " RAM; drop_caches " +
                     refused + "), read with O_DIRECT past the page cache; " + resident;
  } else {
    out.cache_method = "none";
    out.cache_note = "not dropped (" + format_size(run.written) + " written >= 3 x " +
                     format_size(out.ram_bytes) +
                     " RAM, MLPerf's rule): at most a third of it can still be cached; " + resident;
  }
}

// The page cache dealt with, then the timed reads: checkpoints first .. first + reads - 1.
Result<void> read_checkpoints(Run& run) {
  const CheckpointSpec& k = run.job.checkpoint;
  std::string refused;  // why drop_caches was not used
  Result<void> status = drop_before_reads(run, refused);
  describe_cache(run, refused);
  for (std::uint32_t i = run.first; i < run.first + k.reads && status; ++i) {
    Result<CheckpointPass> p = run.pass(i, false);
    if (!p) {
      status = p.error();
      break;
    }
    if (run.progress()) print_progress("read", *p, i - run.first + 1, k.reads, run.scope());
    run.out.reads.push_back(std::move(*p));
  }
  if (run.wf.direct_refused())
    run.out.cache_note +=
        "; the filesystem refused O_DIRECT, so the reads went through the page cache";
  return status;
}

// checkpoint.keep: the newest `keep` checkpoints this run wrote stay; of the others, this host's
// ranks' files go (by name, regular files only: what dlgen wrote), and their directories when
// left empty (another host's files, or anyone else's, keep one).
Result<void> remove_old_checkpoints(Run& run) {
  const CheckpointSpec& k = run.job.checkpoint;
  if (!k.keep) return ok();
  std::vector<std::uint32_t> wrote;
  for (const CheckpointPass& p : run.out.writes) wrote.push_back(p.index);
  wrote.insert(wrote.end(), run.untimed.begin(), run.untimed.end());
  std::sort(wrote.begin(), wrote.end());
  std::uint64_t removed = 0;
  const std::size_t old = wrote.size() > *k.keep ? wrote.size() - *k.keep : 0;
  for (std::size_t n = 0; n < old; ++n) {
    const std::uint32_t i = wrote[n];
    if (run.objects()) {  // this host's ranks' objects, by name, below the claimed prefix
      for (const RankShard& s : run.shards)
        for (const ShardFile& f : s.files) {
          if (Result<void> d =
                  replay::delete_checkpoint_object(checkpoint_dir(run.job, i) / f.name);
              !d)
            return d;
          ++removed;
        }
      continue;
    }
    Result<own::Fd> d = own::open_subdir(run.rfd, step_name(i), checkpoint_dir(run.job, i), false);
    if (!d) return d.error();
    for (const RankShard& s : run.shards)
      for (const ShardFile& f : s.files) {
        struct stat st {};
        if (::fstatat(d->get(), f.name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISREG(st.st_mode))
          continue;
        if (::unlinkat(d->get(), f.name.c_str(), 0) != 0 && errno != ENOENT)
          return runtime_error((checkpoint_dir(run.job, i) / f.name).string() +
                               ": unlink: " + std::strerror(errno));
        ++removed;
      }
    ::unlinkat(run.rfd, step_name(i).c_str(), AT_REMOVEDIR);  // ENOTEMPTY: kept
  }
  if (old > 0)
    run.out.notes.push_back("checkpoint.keep = " + std::to_string(*k.keep) + ": deleted " +
                            std::to_string(removed) + " file(s) of the " + std::to_string(old) +
                            " oldest checkpoint(s) this run wrote");
  return ok();
}

// Subset mode: which of the model's ranks the hosts simulated, against the whole checkpoint.
void note_subset(Run& run) {
  const Job& job = run.job;
  if (!job.model || job.checkpoint.mode != CheckpointMode::subset) return;
  RankGroup* cl = run.cl;
  const std::uint32_t simulated = run.out.ranks * (cl ? cl->size() : 1);
  if (simulated < run.out.world_ranks)
    run.out.notes.push_back(
        "subset: ranks 0.." + std::to_string(simulated - 1) + " of " +
        std::to_string(run.out.world_ranks) +
        (cl ? " (" + std::to_string(cl->size()) + " hosts' share" : " (this host's share") +
        "; the whole checkpoint is " + format_size(checkpoint_bytes(rank_shards(*job.model))) +
        ")");
}

}  // namespace

bool drop_cache_between(std::uint64_t bytes_written, std::uint64_t ram_bytes) {
  return ram_bytes > 0 && double(bytes_written) < 3.0 * double(ram_bytes);
}

Result<CheckpointRunResult> run_checkpoint_workflow(const Job& job,
                                                    const CheckpointRunOptions& options) {
  const CheckpointSpec& k = job.checkpoint;
  RankGroup* cl = options.cluster && options.cluster->size() > 1 ? options.cluster : nullptr;
  CheckpointRunResult out;
  Result<std::vector<RankShard>> shards = host_share(job, options, cl, out);
  if (!shards) return shards.error();
  // A directory, open for the whole run; or an object store's prefix, claimed by the first host
  // before any host writes there (replay/checkpoint_objects.hpp).
  const bool objects = replay::is_object_dir(k.dir);
  Result<own::Fd> root = own::Fd();
  if (!objects) root = own::open_dir(k.dir);
  if (!root) return root.error();
  Workflow wf(job, *shards, root->get(), io_options(job, options));
  const std::uint32_t first = std::max<std::uint32_t>(options.first_index, 1);
  Run run{job, options, cl, std::move(*shards), root->get(), first, wf, out};
  const ProgressScope alive(cl, [&wf] { return wf.progress(); });
  Result<void> room =
      objects ? run.together(!cl || cl->rank() == 0 ? replay::claim_checkpoint_prefix(k.dir) : ok())
              : check_room(run);
  Result<void> status = run.together(room ? wf.start() : room);
  if (!status) {
    if (wf.started()) wf.stop();
    return status.error();
  }
  status = write_checkpoints(run);
  if (status && k.reads > 0) status = write_missing(run);
  if (status && k.reads > 0) status = read_checkpoints(run);
  wf.stop();
  if (!status) return status.error();
  if (Result<void> removed = remove_old_checkpoints(run); !removed) return removed.error();
  note_subset(run);
  if (!cl) return out;
  return join_hosts(*cl, std::move(out), run.shards.front().rank);
}

}  // namespace dlgen::mlperf
