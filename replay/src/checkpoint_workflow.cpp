// The checkpoint-only workflow (see checkpoint_workflow.hpp): one thread per simulated rank, all
// starting each checkpoint together on a barrier; the main thread prepares directories, sleeps
// the pause between checkpoints and drops the page cache between writes and reads.
#include "dlgen/replay/checkpoint_workflow.hpp"

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
#include <fstream>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <system_error>
#include <thread>

#include "dlgen/core/limits.hpp"
#include "dlgen/core/llm.hpp"
#include "dlgen/core/units.hpp"
#include "dlgen/replay/checkpoint_io.hpp"
#include "dlgen/replay/cluster.hpp"
#include "dlgen/replay/mlperf_checkpoint.hpp"
#include "host_share_json.hpp"
#include "own_files.hpp"

namespace dlgen::replay {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

std::string io_error(const std::filesystem::path& p, const char* what, std::uint64_t offset,
                     int err) {
  return p.string() + ": " + what + " at " + std::to_string(offset) + ": " + std::strerror(err);
}

std::string step_name(std::uint32_t index) {
  return "global_epoch1_step" + std::to_string(index);
}

std::filesystem::path checkpoint_dir(const Job& job, std::uint32_t index) {
  return job.checkpoint.dir / step_name(index);
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

// Writes 1 to /proc/sys/vm/drop_caches (the clean page cache, every file's): root only, and not
// where /proc/sys is read-only (containers). Empty when done, else why not.
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

std::string percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100 * fraction);
  return buf;
}

bool files_present(const Job& job, const std::vector<RankShard>& shards, std::uint32_t index) {
  for (const RankShard& s : shards)
    for (const ShardFile& f : s.files) {
      struct stat st {};
      if (::stat((checkpoint_dir(job, index) / f.name).c_str(), &st) != 0 ||
          std::uint64_t(st.st_size) != f.bytes)
        return false;
    }
  return true;
}

std::string gib_s(double bps) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f GiB/s", bps / (1024.0 * 1024 * 1024));
  return buf;
}

std::string secs(double s) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f s", s);
  return buf;
}

// The simulated ranks and the passes they run.
class Workflow {
 public:
  // `root`: the checkpoint directory (job.checkpoint.dir), open for the whole run.
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
  // Bytes written and read so far, all passes (Cluster::progress).
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
    Result<own::Fd> dfd = own::open_subdir(root_, step_name(index_), dir, false);
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
    Result<own::Fd> dfd = own::open_subdir(root_, step_name(index_), dir, false);
    if (!dfd) return dfd.error();
    for (const ShardFile& f : s.files) {
      Result<std::uint64_t> n =
          io.read({dfd->get(), f.name, dir / f.name, f.bytes}, direct_, &buffered_, &progress_);
      if (!n) return n.error();
      rec.bytes += *n;
    }
    return ok();
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

// `n` of `of`: the checkpoint's place in this run (its index may start past 1).
void print_progress(const char* what, const CheckpointPass& p, std::uint32_t n, std::uint32_t of,
                    const char* scope) {
  const PassFigures f = pass_figures(p);
  std::fprintf(stderr, "dlgen: checkpoint %s %u/%u%s: %s in %s, %s (slowest rank %s)\n", what, n,
               of, scope, format_size(f.bytes).c_str(), secs(f.duration_s).c_str(),
               gib_s(f.throughput_bps).c_str(), gib_s(f.slowest_rank_bps).c_str());
}

// One host's result as bytes for the all-gather that joins the hosts' records (JSON: small, and
// read back by the same build).
std::string host_result_bytes(const CheckpointRunResult& r) {
  using nlohmann::json;
  auto passes = [](const std::vector<CheckpointPass>& ps) {
    json a = json::array();
    for (const CheckpointPass& p : ps) {
      json ranks = json::array();
      for (const RankPass& rp : p.ranks) ranks.push_back({rp.rank, rp.bytes, rp.seconds});
      a.push_back({{"i", p.index}, {"r", ranks}});
    }
    return a;
  };
  json j;
  j["w"] = passes(r.writes);
  j["r"] = passes(r.reads);
  j["ranks"] = r.ranks;
  j["bytes"] = r.checkpoint_bytes;
  j["files"] = r.checkpoint_files;
  j["ram"] = r.ram_bytes;
  j["dropped"] = r.cache_dropped;
  j["note"] = r.cache_note;
  j["method"] = r.cache_method;
  j["resident"] = r.resident_fraction;
  j["notes"] = r.notes;
  const HostShare& h = r.hosts.front();
  j["host"] = h.host;
  j["first"] = h.first_rank;
  return j.dump();
}

CheckpointRunResult host_result_from(const std::string& bytes, const CheckpointRunResult& like) {
  using nlohmann::json;
  const json j = json::parse(bytes);
  CheckpointRunResult r = like;
  auto passes = [](const json& a) {
    std::vector<CheckpointPass> ps;
    for (const json& p : a) {
      CheckpointPass cp;
      cp.index = p["i"].get<std::uint32_t>();
      for (const json& rp : p["r"])
        cp.ranks.push_back(
            {rp[0].get<std::uint32_t>(), rp[1].get<std::uint64_t>(), rp[2].get<double>()});
      ps.push_back(std::move(cp));
    }
    return ps;
  };
  r.writes = passes(j["w"]);
  r.reads = passes(j["r"]);
  r.ranks = j["ranks"].get<std::uint32_t>();
  r.checkpoint_bytes = j["bytes"].get<std::uint64_t>();
  r.checkpoint_files = j["files"].get<std::uint64_t>();
  r.ram_bytes = j["ram"].get<std::uint64_t>();
  r.cache_dropped = j["dropped"].get<bool>();
  r.cache_note = j["note"].get<std::string>();
  r.cache_method = j["method"].get<std::string>();
  r.resident_fraction = j["resident"].get<double>();
  r.notes = j["notes"].get<std::vector<std::string>>();
  r.hosts = {HostShare{j["host"].get<std::string>(), j["first"].get<std::uint32_t>(), r.ranks,
                       r.checkpoint_bytes, r.checkpoint_files, r.ram_bytes, r.cache_dropped}};
  return r;
}

}  // namespace

Result<std::vector<RankShard>> cluster_host_shards(const Job& job, std::uint32_t host,
                                                   std::uint32_t hosts) {
  if (hosts <= 1) return host_shards(job);
  const CheckpointSpec& k = job.checkpoint;
  if (job.model && k.mode == CheckpointMode::subset) {
    const std::uint64_t world = job.model->world();
    const std::uint64_t per = std::min<std::uint64_t>(k.ranks_per_host, world);
    if (per * hosts > world)
      return input_error(job.name + ": subset mode: " + std::to_string(hosts) + " hosts x " +
                         std::to_string(per) + " ranks per host (checkpoint.ranks_per_host) is " +
                         "more than the model's " + std::to_string(world) +
                         " ranks (TP x PP x DP); run fewer hosts or mode = \"all\"");
    return rank_shards(*job.model, static_cast<std::uint32_t>(per * host),
                       static_cast<std::uint32_t>(per));
  }
  std::vector<RankShard> all = host_shards(job);
  if (all.size() % hosts != 0)
    return input_error(
        job.name + ": " + std::to_string(all.size()) +
        (job.model ? " ranks (the model's TP x PP x DP)" : " ranks (checkpoint.files)") +
        " do not split evenly over " + std::to_string(hosts) +
        " hosts (mpirun -np); every host runs the same number of ranks, so give a host count "
        "that divides them");
  const std::size_t per = all.size() / hosts;
  return std::vector<RankShard>(all.begin() + static_cast<std::ptrdiff_t>(per * host),
                                all.begin() + static_cast<std::ptrdiff_t>(per * (host + 1)));
}

PassFigures pass_figures(const CheckpointPass& pass) {
  PassFigures f;
  bool any = false;
  for (const RankPass& r : pass.ranks) {
    f.bytes += r.bytes;
    f.duration_s = std::max(f.duration_s, r.seconds);
    if (r.bytes == 0 || r.seconds <= 0) continue;  // a rank with nothing to write has no rate
    const double bps = double(r.bytes) / r.seconds;
    if (!any || bps < f.slowest_rank_bps) {
      f.slowest_rank_bps = bps;
      f.slowest_rank = r.rank;
      any = true;
    }
  }
  f.throughput_bps = f.duration_s > 0 ? double(f.bytes) / f.duration_s : 0;
  return f;
}

PhaseFigures phase_figures(const std::vector<CheckpointPass>& passes) {
  PhaseFigures ph;
  std::vector<double> rates;
  for (const CheckpointPass& p : passes) {
    const PassFigures f = pass_figures(p);
    ph.bytes += f.bytes;
    ph.duration_s += f.duration_s;
    rates.push_back(f.throughput_bps);
    if (f.slowest_rank_bps > 0 &&
        (ph.slowest_rank_bps == 0 || f.slowest_rank_bps < ph.slowest_rank_bps))
      ph.slowest_rank_bps = f.slowest_rank_bps;
  }
  ph.count = static_cast<std::uint32_t>(passes.size());
  if (passes.empty()) return ph;
  ph.throughput_bps = ph.duration_s > 0 ? double(ph.bytes) / ph.duration_s : 0;
  ph.mean_duration_s = ph.duration_s / double(passes.size());
  double sum = 0;
  for (double r : rates) sum += r;
  ph.mean_throughput_bps = sum / double(rates.size());
  double var = 0;
  for (double r : rates) var += (r - ph.mean_throughput_bps) * (r - ph.mean_throughput_bps);
  ph.stdev_throughput_bps = std::sqrt(var / double(rates.size()));
  return ph;
}

bool drop_cache_between(std::uint64_t bytes_written, std::uint64_t ram_bytes) {
  return ram_bytes > 0 && double(bytes_written) < 3.0 * double(ram_bytes);
}

Result<CheckpointRunResult> run_checkpoint_workflow(const Job& job,
                                                    const CheckpointRunOptions& options) {
  const CheckpointSpec& k = job.checkpoint;
  Cluster* cl = options.cluster && options.cluster->size() > 1 ? options.cluster : nullptr;
  // Every coordination point below is an agreement of all hosts (a no-op on one): every host
  // reaches the same ones in the same order, and leaves on the first failure of any.
  auto together = [&](const Result<void>& mine) { return cl ? agree(*cl, mine) : mine; };
  CheckpointRunResult out;
  out.job_name = job.name;
  out.dir = k.dir;
  out.fsync = k.fsync;
  Result<std::vector<RankShard>> share =
      cluster_host_shards(job, cl ? cl->rank() : 0, cl ? cl->size() : 1);
  if (!share) return share.error();  // the same on every host: the job is the same
  const std::vector<RankShard> shards = std::move(*share);
  out.ranks = static_cast<std::uint32_t>(shards.size());
  out.world_ranks = job.model ? job.model->world() : host_shards(job).size();
  out.parameters = job.model ? parameter_count(*job.model) : 0;
  out.checkpoint_bytes = checkpoint_bytes(shards);
  for (const RankShard& s : shards) out.checkpoint_files += s.files.size();
  out.ram_bytes = options.ram_bytes > 0 ? options.ram_bytes : limits::host_memory_bytes();
  if (shards.empty())
    return input_error(job.name + ": the checkpoint-only workflow has no rank to simulate");

  Result<own::Fd> root = own::open_dir(k.dir);
  if (!root) return root.error();
  const int rfd = root->get();
  auto make_dir = [&](std::uint32_t index) -> Result<void> {
    Result<own::Fd> d = own::open_subdir(rfd, step_name(index), checkpoint_dir(job, index), true);
    return d ? ok() : Result<void>(d.error());
  };
  // Every shard file of this host's ranks in checkpoints [from, to).
  auto files_of = [&](std::uint32_t from, std::uint32_t to) {
    std::vector<std::filesystem::path> out;
    for (std::uint32_t i = from; i < to; ++i)
      for (const RankShard& s : shards)
        for (const ShardFile& f : s.files) out.push_back(checkpoint_dir(job, i) / f.name);
    return out;
  };
  const std::uint32_t first = std::max<std::uint32_t>(options.first_index, 1);
  // Free space, before anything is written: every checkpoint this run writes (the timed ones and
  // the missing ones it must read), less the files of the same names it replaces. Each host
  // counts its own ranks' bytes.
  auto space = [&]() -> Result<void> {
    std::uint64_t needed = 0, freed = 0;
    for (std::uint32_t i = first; i < first + std::max(k.writes, k.reads); ++i) {
      if (i >= first + k.writes && files_present(job, shards, i)) continue;
      Result<own::Fd> d = own::open_subdir(rfd, step_name(i), checkpoint_dir(job, i), false);
      for (const RankShard& s : shards)
        for (const ShardFile& f : s.files) {
          needed += own::on_disk(rfd, f.bytes);
          if (d) freed += own::on_disk(rfd, own::regular_size(d->get(), f.name));
        }
    }
    return own::check_space(rfd, k.dir, needed > freed ? needed - freed : 0,
                            "this run's checkpoints");
  };
  auto pause = [&] {
    if (k.pause_s > 0) std::this_thread::sleep_for(std::chrono::duration<double>(k.pause_s));
  };
  const bool progress = options.progress && (!cl || cl->rank() == 0);
  const char* scope = cl ? " (this host's ranks)" : "";

  Workflow wf(job, shards, rfd, io_options(job, options));
  const ProgressScope alive(cl, [&wf] { return wf.progress(); });
  Result<void> room = space();
  Result<void> status = together(room ? wf.start() : room);
  if (!status) {
    if (wf.started()) wf.stop();
    return status.error();
  }
  // One checkpoint written or read by every rank of every host: the directory made, the pause,
  // all hosts agree to start, all report how it went.
  auto pass = [&](std::uint32_t index, bool write) -> Result<CheckpointPass> {
    Result<void> ready = write ? make_dir(index) : ok();
    if (ready) pause();  // DLIO's time_between_checkpoints: compute between checkpoints, untimed
    if (Result<void> go = together(ready); !go) return go.error();
    Result<CheckpointPass> p = wf.pass(index, write);
    if (Result<void> done = together(p ? ok() : Result<void>(p.error())); !done)
      return done.error();
    return p;
  };
  std::uint64_t written = 0;  // checkpoint bytes now on this host's storage, for the cache rule
  std::vector<std::uint32_t> untimed;  // checkpoints written (untimed) because a read needed them
  for (std::uint32_t i = first; i < first + k.writes && status; ++i) {
    Result<CheckpointPass> p = pass(i, true);
    if (!p) {
      status = p.error();
      break;
    }
    if (progress) print_progress("write", *p, i - first + 1, k.writes, scope);
    written += pass_figures(*p).bytes;
    out.writes.push_back(std::move(*p));
  }
  if (status && k.reads > 0) {
    // Checkpoints to read that this run did not write (writes = 0) must exist; missing ones are
    // written first, untimed. A checkpoint missing on any host is written by all of them.
    for (std::uint32_t i = first; i < first + k.reads && status; ++i) {
      if (i < first + k.writes) continue;
      const bool here = files_present(job, shards, i);
      const bool everywhere = cl ? all_min(*cl, here ? 1.0 : 0.0) > 0 : here;
      if (everywhere) continue;
      Result<CheckpointPass> p = pass(i, true);
      if (!p) {
        status = p.error();
      } else {
        written += pass_figures(*p).bytes;
        untimed.push_back(i);
      }
      out.notes.push_back("checkpoint " + std::to_string(i) +
                          " was missing: written first, untimed");
    }
  }
  if (status && k.reads > 0) {
    // Per host: its own bytes against its own RAM, its own files dropped. Every file is written
    // back first (fdatasync, then syncfs: a failure is an error, never a silent cached read);
    // then root drops the page cache for real (drop_caches); elsewhere the files are advised
    // out and read with O_DIRECT. mincore then says how much of the files is still resident.
    out.cache_dropped = drop_cache_between(written, out.ram_bytes);
    const std::vector<std::filesystem::path> read_files = files_of(first, first + k.reads);
    std::string refused;  // why drop_caches was not used
    auto drop = [&]() -> Result<void> {
      const std::vector<std::filesystem::path> all =
          files_of(first, first + std::max(k.writes, k.reads));
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
      refused = options.drop_caches ? drop_page_cache() : "not asked for";
      if (refused.empty()) {
        out.cache_method = "drop_caches";
        return ok();
      }
      out.cache_method = "O_DIRECT";
      wf.read_direct(true);
      return each([](int fd, const std::filesystem::path& p) -> Result<void> {
        if (const int err = ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED); err != 0)
          return runtime_error(io_error(p, "posix_fadvise(DONTNEED)", 0, err));
        return ok();
      });
    };
    // Every host reaches this agreement, whether its own rule dropped its cache or not.
    status = together(out.cache_dropped ? drop() : ok());
    Result<own::Residency> res = own::Residency{};
    if (status) res = own::residency(read_files);
    status = together(res ? status : Result<void>(res.error()));
    if (status) out.resident_fraction = res->fraction();
    const std::string resident =
        "mincore: " + percent(out.resident_fraction) + " of the files resident before the reads";
    if (out.cache_dropped && out.cache_method == "drop_caches") {
      out.cache_note = "dropped before the reads (" + format_size(written) + " written < 3 x " +
                       format_size(out.ram_bytes) + " RAM) with syncfs + drop_caches; " + resident +
                       (out.resident_fraction < 0.01 ? ": the reads come from storage"
                                                     : ": part of the reads may come from memory");
    } else if (out.cache_dropped) {
      out.cache_note = "written back and advised out before the reads (" + format_size(written) +
                       " written < 3 x " + format_size(out.ram_bytes) + " RAM; drop_caches " +
                       refused + "), read with O_DIRECT past the page cache; " + resident;
    } else {
      out.cache_method = "none";
      out.cache_note =
          "not dropped (" + format_size(written) + " written >= 3 x " + format_size(out.ram_bytes) +
          " RAM, MLPerf's rule): at most a third of it can still be cached; " + resident;
    }
    for (std::uint32_t i = first; i < first + k.reads && status; ++i) {
      Result<CheckpointPass> p = pass(i, false);
      if (!p) {
        status = p.error();
        break;
      }
      if (progress) print_progress("read", *p, i - first + 1, k.reads, scope);
      out.reads.push_back(std::move(*p));
    }
    if (wf.direct_refused())
      out.cache_note +=
          "; the filesystem refused O_DIRECT, so the reads went through the page cache";
  }
  wf.stop();
  if (!status) return status.error();
  // checkpoint.keep: the newest `keep` checkpoints this run wrote stay; of the others, this
  // host's ranks' files go (by name, regular files only: what dlgen wrote), and their
  // directories when left empty (another host's files, or anyone else's, keep one).
  if (k.keep) {
    std::vector<std::uint32_t> wrote;
    for (const CheckpointPass& p : out.writes) wrote.push_back(p.index);
    wrote.insert(wrote.end(), untimed.begin(), untimed.end());
    std::sort(wrote.begin(), wrote.end());
    std::uint64_t removed = 0;
    const std::size_t old = wrote.size() > *k.keep ? wrote.size() - *k.keep : 0;
    for (std::size_t n = 0; n < old; ++n) {
      const std::uint32_t i = wrote[n];
      Result<own::Fd> d = own::open_subdir(rfd, step_name(i), checkpoint_dir(job, i), false);
      if (!d) return d.error();
      for (const RankShard& s : shards)
        for (const ShardFile& f : s.files) {
          struct stat st {};
          if (::fstatat(d->get(), f.name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 ||
              !S_ISREG(st.st_mode))
            continue;
          if (::unlinkat(d->get(), f.name.c_str(), 0) != 0 && errno != ENOENT)
            return runtime_error((checkpoint_dir(job, i) / f.name).string() +
                                 ": unlink: " + std::strerror(errno));
          ++removed;
        }
      ::unlinkat(rfd, step_name(i).c_str(), AT_REMOVEDIR);  // ENOTEMPTY: kept
    }
    if (old > 0)
      out.notes.push_back("checkpoint.keep = " + std::to_string(*k.keep) + ": deleted " +
                          std::to_string(removed) + " file(s) of the " + std::to_string(old) +
                          " oldest checkpoint(s) this run wrote");
  }
  if (job.model && k.mode == CheckpointMode::subset) {
    const std::uint32_t simulated = out.ranks * (cl ? cl->size() : 1);
    if (simulated < out.world_ranks)
      out.notes.push_back(
          "subset: ranks 0.." + std::to_string(simulated - 1) + " of " +
          std::to_string(out.world_ranks) +
          (cl ? " (" + std::to_string(cl->size()) + " hosts' share" : " (this host's share") +
          "; the whole checkpoint is " + format_size(checkpoint_bytes(rank_shards(*job.model))) +
          ")");
  }
  if (!cl) return out;
  // Every host's records joined into one result, on every host.
  out.hosts = {HostShare{cl->host(), shards.front().rank, out.ranks, out.checkpoint_bytes,
                         out.checkpoint_files, out.ram_bytes, out.cache_dropped}};
  const std::vector<std::string> parts = cl->all_gather(host_result_bytes(out));
  std::vector<CheckpointRunResult> hosts;
  for (const std::string& part : parts) hosts.push_back(host_result_from(part, out));
  return merge_rank_results(hosts);
}

std::string format_checkpoint_plan(const Job& job) {
  const auto shards = host_shards(job);
  std::uint64_t files = 0;
  for (const auto& s : shards) files += s.files.size();
  const std::uint64_t bytes = checkpoint_bytes(shards);
  std::string out = job.name + ": checkpoint-only workflow (no dataset, no training)\n";
  if (job.model) {
    const LlmModel& m = *job.model;
    out += "  model        " + std::to_string(parameter_count(m)) + " parameters, TP " +
           std::to_string(m.tensor) + " x PP " + std::to_string(m.pipeline) + " x DP " +
           std::to_string(m.data) + ", ZeRO " + std::to_string(m.zero_stage) + ", " +
           to_string(m.datatype) + " weights, " + to_string(m.optimizer_datatype) +
           " optimizer state\n";
    out += "  world        " + format_size(checkpoint_bytes(rank_shards(m))) +
           " per checkpoint over " + std::to_string(m.world()) + " ranks\n";
  }
  out += "  this host    " + std::to_string(shards.size()) + " simulated ranks, " +
         format_size(bytes) + " in " + std::to_string(files) + " files per checkpoint\n";
  out += "  checkpoints  " + std::to_string(job.checkpoint.writes) + " written (" +
         format_size(bytes * job.checkpoint.writes) + "), " + std::to_string(job.checkpoint.reads) +
         " read back (" + format_size(bytes * job.checkpoint.reads) + "), fsync " +
         (job.checkpoint.fsync ? "on" : "off") + ", in " + job.checkpoint.dir.string() + "\n";
  return out;
}

std::string checkpoint_plan_json(const Job& job) {
  using nlohmann::json;
  const auto shards = host_shards(job);
  std::uint64_t files = 0;
  for (const auto& s : shards) files += s.files.size();
  json j;
  j["job"] = job.name;
  j["workflow"] = "checkpoint";
  j["checkpoint"] = {{"bytes", checkpoint_bytes(shards)},
                     {"files", files},
                     {"ranks", shards.size()},
                     {"writes", job.checkpoint.writes},
                     {"reads", job.checkpoint.reads},
                     {"fsync", job.checkpoint.fsync},
                     {"dir", job.checkpoint.dir.string()}};
  if (job.model) {
    j["model"] = {{"parameters", parameter_count(*job.model)},
                  {"world_ranks", job.model->world()},
                  {"world_bytes", checkpoint_bytes(rank_shards(*job.model))}};
  }
  json ranks = json::array();
  for (const auto& s : shards)
    ranks.push_back({{"rank", s.rank},
                     {"model_bytes", s.model_bytes},
                     {"optimizer_bytes", s.optimizer_bytes},
                     {"files", s.files.size()}});
  j["ranks"] = ranks;
  return j.dump(2) + "\n";
}

std::string format_checkpoint_summary(const CheckpointRunResult& r) {
  std::string out =
      r.job_name + ": checkpoint-only workflow, " + std::to_string(r.ranks) + " simulated rank(s)";
  if (r.parameters > 0)
    out += " of " + std::to_string(r.world_ranks) + ", " + std::to_string(r.parameters) +
           " parameters";
  if (!r.hosts.empty()) {
    out += " on " + std::to_string(r.hosts.size()) + " hosts (mpirun)";
    for (std::size_t i = 0; i < r.hosts.size(); ++i) {
      const HostShare& h = r.hosts[i];
      out += "\n  host " + std::to_string(i) + "       " + h.host + ": ranks " +
             std::to_string(h.first_rank) + ".." + std::to_string(h.first_rank + h.ranks - 1) +
             ", " + format_size(h.checkpoint_bytes) + " in " + std::to_string(h.checkpoint_files) +
             " files per checkpoint, RAM " + format_size(h.ram_bytes) + ", page cache " +
             (h.cache_dropped ? "dropped" : "kept");
    }
  }
  out += "\n  checkpoint   " + format_size(r.checkpoint_bytes) + " in " +
         std::to_string(r.checkpoint_files) + " files, fsync " + (r.fsync ? "on" : "off") +
         ", in " + r.dir.string() + "\n";
  auto phase = [&](const char* name, const std::vector<CheckpointPass>& passes) {
    if (passes.empty()) return;
    const PhaseFigures ph = phase_figures(passes);
    out += std::string("  ") + name + "        " + std::to_string(ph.count) + " x " +
           format_size(ph.count ? ph.bytes / ph.count : 0) + ": mean duration " +
           secs(ph.mean_duration_s) + " (slowest rank), mean " + gib_s(ph.mean_throughput_bps) +
           " (stdev " + gib_s(ph.stdev_throughput_bps) + "), overall " + gib_s(ph.throughput_bps) +
           ", slowest rank " + gib_s(ph.slowest_rank_bps) + "\n";
    for (const CheckpointPass& p : passes) {
      const PassFigures f = pass_figures(p);
      char line[256];
      std::snprintf(line, sizeof line, "    #%-3u %10s  %10s  slowest rank %u at %s\n", p.index,
                    secs(f.duration_s).c_str(), gib_s(f.throughput_bps).c_str(), f.slowest_rank,
                    gib_s(f.slowest_rank_bps).c_str());
      out += line;
    }
  };
  phase("write", r.writes);
  if (!r.reads.empty()) out += "  page cache   " + r.cache_note + "\n";
  phase("read ", r.reads);
  for (const auto& n : r.notes) out += "  note: " + n + "\n";
  return out;
}

std::string checkpoint_json(const CheckpointRunResult& r) {
  using nlohmann::json;
  auto phase = [](const std::vector<CheckpointPass>& passes) {
    const PhaseFigures ph = phase_figures(passes);
    json per = json::array();
    for (const CheckpointPass& p : passes) {
      const PassFigures f = pass_figures(p);
      json ranks = json::array();
      for (const RankPass& rp : p.ranks)
        ranks.push_back({{"rank", rp.rank}, {"bytes", rp.bytes}, {"seconds", rp.seconds}});
      per.push_back({{"index", p.index},
                     {"bytes", f.bytes},
                     {"duration_s", f.duration_s},
                     {"throughput_bytes_per_s", f.throughput_bps},
                     {"slowest_rank", f.slowest_rank},
                     {"slowest_rank_bytes_per_s", f.slowest_rank_bps},
                     {"ranks", ranks}});
    }
    return json{{"count", ph.count},
                {"bytes", ph.bytes},
                {"duration_s", ph.duration_s},
                {"throughput_bytes_per_s", ph.throughput_bps},
                {"mean_duration_s", ph.mean_duration_s},
                {"mean_throughput_bytes_per_s", ph.mean_throughput_bps},
                {"stdev_throughput_bytes_per_s", ph.stdev_throughput_bps},
                {"slowest_rank_bytes_per_s", ph.slowest_rank_bps},
                {"checkpoints", per}};
  };
  json j;
  j["job"] = r.job_name;
  j["workflow"] = "checkpoint";
  j["config"] = {{"ranks", r.ranks},
                 {"world_ranks", r.world_ranks},
                 {"parameters", r.parameters},
                 {"checkpoint_bytes", r.checkpoint_bytes},
                 {"checkpoint_files", r.checkpoint_files},
                 {"fsync", r.fsync},
                 {"dir", r.dir.string()},
                 {"ram_bytes", r.ram_bytes}};
  j["write"] = phase(r.writes);
  j["read"] = phase(r.reads);
  j["page_cache"] = {{"dropped", r.cache_dropped},
                     {"note", r.cache_note},
                     {"method", r.cache_method},
                     {"resident_fraction", r.resident_fraction}};
  j["notes"] = r.notes;
  if (!r.hosts.empty()) {  // under mpirun: what each host ran
    j["hosts"] = host_shares_json(r.hosts);
  }
  return j.dump(2) + "\n";
}

Result<void> write_checkpoint_json(const CheckpointRunResult& r,
                                   const std::filesystem::path& path) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f)
    return runtime_error(path.string() + ": cannot open for writing: " + std::strerror(errno));
  f << checkpoint_json(r);
  f.close();
  if (!f) return runtime_error(path.string() + ": write failed");
  return ok();
}

}  // namespace dlgen::replay
