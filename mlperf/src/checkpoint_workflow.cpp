// The checkpoint-only workflow (see checkpoint_workflow.hpp): the simulated ranks
// (checkpoint_ranks.hpp) start each checkpoint together; the main thread prepares directories,
// sleeps the pause between checkpoints and drops the page cache between writes and reads.
#include "dlgen/mlperf/checkpoint_workflow.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <thread>

#include "checkpoint_files.hpp"
#include "checkpoint_hosts.hpp"
#include "checkpoint_ranks.hpp"
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
using replay::CheckpointIoOptions;
using replay::ProgressScope;
using replay::RankGroup;

using namespace checkpoint_files;

namespace {

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
  o.read_bytes = job.checkpoint.read_size_bytes;
  o.part_bytes = job.checkpoint.part_size_bytes;
  o.fsync = job.checkpoint.fsync;
  return o;
}

std::string percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100 * fraction);
  return buf;
}

// Where the checkpoints go: a directory, an object store's prefix, or nowhere (a diskless engine,
// null: the ranks' requests complete without storage, so nothing is made, looked for, dropped or
// deleted there; an s3:// location is not contacted).
enum class Storage { files, objects, none };

// What the steps of one run share: the job, this host's simulated ranks, the open checkpoint
// directory, the rank threads, the hosts (nullptr: this host alone) and the result as it grows.
struct Run {
  const Job& job;
  const CheckpointRunOptions& options;
  RankGroup* cl;
  std::vector<RankShard> shards;
  Storage where;
  int rfd;              // job.checkpoint.dir, open for the whole run; -1 unless where == files
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

  bool files() const { return where == Storage::files; }
  bool objects() const { return where == Storage::objects; }

  Result<void> make_dir(std::uint32_t index) const {
    if (!files()) return ok();  // a prefix needs no making, nowhere neither
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
  if (!run.files()) return ok();  // an object store reports no free space
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
// untimed (a read phase on an object store was refused before anything instead:
// read_phase_objects_present; a diskless engine reads what was never written). A checkpoint
// missing on any host is written by all of them.
Result<void> write_missing(Run& run) {
  const CheckpointSpec& k = run.job.checkpoint;
  if (run.where == Storage::none || (run.objects() && k.writes == 0)) return ok();
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
// objects), as the rule wants of a dropped cache; nor with a diskless engine, which reads nothing.
Result<void> drop_before_reads(Run& run, std::string& refused) {
  CheckpointRunResult& out = run.out;
  if (!run.files()) {
    out.cache_dropped = true;
    out.cache_method = run.objects() ? "object store" : "no storage";
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
  if (!run.files()) {
    out.cache_note = "nothing to drop: engine " + run.options.engine + " reads no storage";
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
  if (!k.keep || run.where == Storage::none) return ok();  // nowhere: nothing was written
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

// Before any rank starts: a directory must have room for what the run writes; an object store's
// prefix is claimed by the first host before any host writes there (replay/checkpoint_objects.hpp),
// and a read phase (nothing to write) finds every object it reads, so that a refusal leaves the
// store as it was; nowhere (a diskless engine) needs nothing.
Result<void> prepare_location(Run& run) {
  switch (run.where) {
    case Storage::files:
      return check_room(run);
    case Storage::objects:
      if (run.job.checkpoint.writes == 0) return run.together(read_phase_objects_present(run));
      return run.together(!run.cl || run.cl->rank() == 0
                              ? replay::claim_checkpoint_prefix(run.job.checkpoint.dir)
                              : ok());
    case Storage::none:
      break;
  }
  return ok();
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
  Result<const engine::EngineOps*> engine = engine::lookup(options.engine);
  if (!engine) return engine.error();
  const Storage where = (*engine)->caps.diskless       ? Storage::none
                        : replay::is_object_dir(k.dir) ? Storage::objects
                                                       : Storage::files;
  Result<own::Fd> root = own::Fd();  // a directory, open for the whole run
  if (where == Storage::files) root = own::open_dir(k.dir);
  if (!root) return root.error();
  Workflow wf(job, *shards, root->get(), io_options(job, options));
  const std::uint32_t first = std::max<std::uint32_t>(options.first_index, 1);
  Run run{job, options, cl, std::move(*shards), where, root->get(), first, wf, out};
  const ProgressScope alive(cl, [&wf] { return wf.progress(); });
  Result<void> room = prepare_location(run);
  Result<void> status = run.together(room ? wf.start() : room);
  if (!status) {
    if (wf.started()) wf.stop();
    return status.error();
  }
  status = write_checkpoints(run);
  if (status && k.reads > 0) status = write_missing(run);
  if (status && k.reads > 0) status = read_checkpoints(run);
  wf.stop();
  out.write_s3 = wf.write_requests();
  out.read_s3 = wf.read_requests();
  if (!status) return status.error();
  if (Result<void> removed = remove_old_checkpoints(run); !removed) return removed.error();
  note_subset(run);
  if (!cl) return out;
  return join_hosts(*cl, std::move(out), run.shards.front().rank);
}

}  // namespace dlgen::mlperf
