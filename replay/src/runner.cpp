#include "dlgen/replay/runner.hpp"

#include <fcntl.h>
#include <sched.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "batch_signal.hpp"
#include "dlgen/core/limits.hpp"
#include "dlgen/core/progress.hpp"
#include "dlgen/core/units.hpp"
#include "dlgen/datasets/layout.hpp"
#include "dlgen/replay/checkpoint.hpp"
#include "dlgen/replay/metrics.hpp"
#include "worker.hpp"

namespace dlgen::replay {
namespace {

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
  return t;
}

// Wakes every thread of a phase that may wait on a hand-off (after `stop` was set, when some thread
// that would have woken it never started): accelerators see their batches "produced", workers their
// window released; both then see `stop` and end.
void stop_all(const std::vector<std::unique_ptr<Handoff[]>>& handoffs, std::uint32_t workers,
              Clock& clock) {
  for (const auto& per : handoffs)
    for (std::uint32_t w = 0; w < workers; ++w) {
      per[w].produced.store(~std::uint64_t{0}, std::memory_order_release);
      clock.notify(per[w].produced);
      per[w].consumed.store(~std::uint64_t{0} / 2, std::memory_order_release);
      clock.notify(per[w].consumed);
    }
}

// Runs checkpoints at step boundaries: every accelerator arrives, the last one in writes.
// The barrier also completes when the last accelerators leave it at the end of the phase; only a
// phase some accelerator entered for a checkpoint writes one.
struct CheckpointCompletion {
  std::function<void()>* fn;
  std::atomic<bool>* requested;
  void operator()() noexcept {
    if (requested->exchange(false)) (*fn)();
  }
};

struct PhaseOutcome {
  std::vector<std::vector<StepRecord>> steps;  // per accelerator
  WorkerStats stats;
  std::int64_t begin_ns = 0, end_ns = 0;
  std::uint64_t samples = 0;
  std::uint64_t signals_dropped = 0;
};

class Runner {
 public:
  Runner(const Job& job, const RunOptions& options, Clock& clock)
      : job_(job), options_(options), clock_(clock) {}

  Result<Report> run();

 private:
  Result<PhaseOutcome> run_phase(const EpochPlan& plan, const FileTable& files, bool eval,
                                 Progress* progress);
  // One checkpoint, written by every rank together: all ranks agree to start, each writes its
  // shards, all agree that it is written (so the slowest rank ends it for everyone, as the next
  // training step's all-reduce would).
  Result<void> coordinated_checkpoint();
  // An agreement of all ranks on `mine` (see rank_group.hpp); remembers an agreed failure, after
  // which this rank calls no more collectives.
  Result<void> agree_all(const Result<void>& mine);
  bool multi() const { return options_.cluster != nullptr && options_.cluster->size() > 1; }
  ShardShare share() const {
    return multi() ? ShardShare{options_.cluster->rank(), options_.cluster->size()} : ShardShare{};
  }
  void sampler();
  void drop_cache(const FileTable& files, std::vector<std::string>& warnings);

  const Job& job_;
  const RunOptions& options_;
  Clock& clock_;
  CheckpointResult checkpoint_;
  bool agreed_failure_ = false;       // an error every rank already knows (no more collectives)
  std::atomic<bool> realtime_{true};  // every accelerator thread got SCHED_FIFO
  std::int64_t deadline_ns_ = 0;      // run.max_time as a clock deadline (0: none)
  std::uint64_t global_step_ = 0;  // steps taken by accelerator 0, all epochs (checkpoint cadence)
  std::atomic<std::uint64_t> bytes_{0}, samples_{0}, requests_{0};
  std::atomic<std::uint64_t> checkpoint_bytes_{0};  // written or restored so far (progress)
  std::atomic<std::int64_t> in_flight_{0}, ready_{0};
  std::mutex series_mu_;
  std::condition_variable series_cv_;
  bool series_stop_ = false;
  std::vector<SeriesPoint> series_;
};

Result<PhaseOutcome> Runner::run_phase(const EpochPlan& plan, const FileTable& files, bool eval,
                                       Progress* progress) {
  const ReaderSpec& rd = job_.reader;
  PhaseConfig cfg;
  cfg.files = &files;
  cfg.read_unit = rd.read_unit;
  cfg.header_bytes = rd.header_read_bytes;
  cfg.probe_bytes = rd.probe_bytes;
  cfg.direct = rd.direct;
  cfg.block = std::max<std::uint32_t>(options_.block_size, 512);
  // reader.workers = 0: the training process loads its own batches (PyTorch's num_workers=0):
  // one loader per accelerator that starts a batch only once the previous step's compute is done,
  // reading one request at a time unless the job sets iodepth. Loading and compute never overlap.
  const bool synchronous = rd.workers == 0;
  cfg.iodepth = rd.iodepth > 0 ? rd.iodepth : synchronous ? 1 : kDefaultIodepth;
  cfg.workers = std::max<std::uint32_t>(rd.workers, 1);
  if (rd.preprocess.expected() > 0 || rd.preprocess.max > 0) {
    cfg.preprocess = &rd.preprocess;
    cfg.preprocess_seed = rd.seed ^ 0x70726570726f63ull;
  }
  cfg.warmup_ns = static_cast<std::int64_t>(rd.warmup_s * 1e9);
  // The window of batches a worker may run ahead: reader.prefetch, widened so that iodepth
  // requests can be in flight even when batches are small (batch 1 with iodepth 32 would
  // otherwise cap a worker at `prefetch` requests; the data is discarded, so this costs no memory).
  const std::uint32_t batch = std::max<std::uint32_t>(rd.batch_size, 1);
  cfg.prefetch =
      synchronous
          ? 1
          : std::max<std::uint32_t>({rd.prefetch, 1, (cfg.iodepth + batch - 1) / batch + 1});
  cfg.engine = options_.engine;
  cfg.factory = &options_.engine_factory;
  // One request reads a whole sample unless the job sets a request size; a buffer per request in
  // flight, within the per-worker memory budget (larger samples take several requests).
  std::uint64_t want = rd.request_size_bytes > 0 ? rd.request_size_bytes
                                                 : std::max<std::uint64_t>(files.max_size, 1);
  want = std::max({want, rd.header_read_bytes, rd.probe_bytes,
                   rd.read_unit == ReadUnit::sample ? rd.readahead_bytes : 0});
  // read = "file": the recipe's steps (reader.recipe, or what probe/header/request_size stand
  // for). A recipe's buffer holds its largest request (a step's chunk, its fixed length, or a
  // whole file for "rest").
  const Recipe legacy = legacy_recipe(rd.probe_bytes, rd.header_read_bytes, rd.request_size_bytes);
  if (rd.read_unit == ReadUnit::file) {
    cfg.recipe = rd.recipe.empty() ? &legacy : &rd.recipe;
    cfg.dependent = !rd.recipe.empty();
    if (!rd.recipe.empty()) {
      want = 1;
      const std::uint64_t whole = std::max<std::uint64_t>(files.max_size, 1);
      for (const RecipeStep& st : rd.recipe) {
        std::uint64_t need = st.to_end || st.block > 0 ? whole : std::min(st.length, whole);
        if (st.chunk > 0) need = std::min(need, st.chunk);
        if (st.align > 0) need = std::min(need, st.align);
        want = std::max(want, need);
      }
    }
  }
  ReaderSpec sized = rd;
  sized.workers = cfg.workers;
  sized.iodepth = cfg.iodepth;
  want = std::min(
      want,
      limits::request_buffer_bytes(
          sized, static_cast<std::uint32_t>(std::max<std::size_t>(plan.accelerators.size(), 1)),
          limits::host_memory_bytes(), options_.buffer_budget_bytes));
  cfg.request_bytes = cfg.direct ? align_up(want, cfg.block) : want;
  if (rd.read_unit == ReadUnit::sample) cfg.readahead_bytes = rd.readahead_bytes;
  // A whole unaligned sample read with O_DIRECT may straddle one more block than its length.
  if (cfg.direct && rd.read_unit != ReadUnit::file && rd.request_size_bytes == 0)
    cfg.request_bytes += cfg.block;

  PhaseShared shared;
  shared.bytes = &bytes_;
  shared.requests = &requests_;
  shared.in_flight = &in_flight_;
  shared.ready = &ready_;

  const std::size_t na = plan.accelerators.size();
  PhaseOutcome out;
  out.steps.resize(na);
  std::vector<std::unique_ptr<Handoff[]>> handoffs(na);
  std::vector<std::vector<WorkerStats>> stats(na, std::vector<WorkerStats>(cfg.workers));
  for (auto& h : handoffs) h = std::make_unique<Handoff[]>(cfg.workers);
  // An interrupt stops this pass as a failure would, without the failure: every thread wakes, sees
  // `stop` and ends after the step in hand.
  struct StopHook {
    StopSource* src;
    ~StopHook() {
      if (src) src->clear();
    }
  } stop_hook{options_.stop};
  if (options_.stop)
    options_.stop->on_request([&shared, &handoffs, &cfg, this] {
      shared.stop.store(true);
      stop_all(handoffs, cfg.workers, clock_);
    });
  // Tokens that can wait on one accelerator's signal: every worker's window of batches, full.
  std::vector<std::unique_ptr<BatchSignal>> signals(na);
  for (auto& s : signals)
    s = std::make_unique<BatchSignal>(std::uint64_t{cfg.workers} * (cfg.prefetch + 1));
  for (std::size_t a = 0; a < na; ++a)
    for (std::uint32_t w = 0; w < cfg.workers; ++w)
      handoffs[a][w].signal_fd = signals[a]->send_fd();

  // Step-cadence checkpoints: a barrier over the accelerators; its completion writes.
  const CheckpointSpec& ck = job_.checkpoint;
  const bool step_ckpt = !eval && ck.enabled && ck.every_steps > 0;
  std::function<void()> write_fn = [&] {
    if (Result<void> r = coordinated_checkpoint(); !r) shared.fail(r.error());
  };
  std::atomic<bool> ckpt_requested{false};
  ClockBarrier ckpt_barrier(clock_, static_cast<std::uint32_t>(na),
                            CheckpointCompletion{&write_fn, &ckpt_requested});
  // run.sync_steps (DDP): each step ends when every accelerator of this host has computed it.
  const bool sync_steps = job_.run.sync_steps && na > 1;
  ClockBarrier step_barrier(clock_, static_cast<std::uint32_t>(na));
  const std::uint64_t step_base = global_step_;
  const Distribution& dist = job_.compute.effective(eval);
  const Distribution& overhead = job_.compute.batch_overhead;
  const bool has_overhead = !(overhead == Distribution{});
  const std::int64_t deadline = deadline_ns_;

  auto accelerator = [&](std::size_t a) {
    clock_.prepare_thread();
    if (::sched_getscheduler(0) != SCHED_FIFO) realtime_ = false;
    const AcceleratorPlan& ap = plan.accelerators[a];
    Handoff* h = handoffs[a].get();
    std::vector<StepRecord>& recs = out.steps[a];
    recs.reserve(ap.num_batches());
    const std::uint64_t step_seed = mix_seed(
        mix_seed(mix_seed(rd.seed, 0xc0de), plan.epoch * 2 + (eval ? 1 : 0)), ap.global_id);
    Rng rng(step_seed);
    // Its own stream, so that a job with and without batch_overhead draws the same compute times.
    Rng overhead_rng(mix_seed(step_seed, 0x0be5));
    for (std::uint64_t k = 0; k < ap.num_batches(); ++k) {
      Handoff& w = h[k % cfg.workers];
      const std::uint64_t j = k / cfg.workers;
      StepRecord r;
      r.wait_begin = clock_.now_ns();
      for (std::uint64_t p; (p = w.produced.load(std::memory_order_acquire)) <= j;) {
        if (shared.stop.load()) break;
        clock_.wait(w.produced, p);
      }
      if (shared.stop.load()) break;
      signals[a]->receive();
      r.ready = clock_.now_ns();
      // The loader may start the next batch now, or (synchronous) after this step's compute.
      auto release = [&] {
        w.consumed.store(j + 1, std::memory_order_release);
        clock_.notify(w.consumed);
      };
      if (!synchronous) release();
      ready_.fetch_sub(1, std::memory_order_relaxed);
      // The consumer's own per-batch cost (receive, unpickle, collate), then compute.
      std::int64_t compute_begin = r.ready;
      if (has_overhead) {
        clock_.sleep_until(r.ready +
                           static_cast<std::int64_t>(sample(overhead, overhead_rng) * 1e9));
        signals[a]->mark_compute();
        compute_begin = clock_.now_ns();
        r.overhead_ns = compute_begin - r.ready;
      }
      r.compute_ns = static_cast<std::int64_t>(sample(dist, rng) * 1e9);
      if (r.compute_ns > 0) clock_.sleep_until(compute_begin + r.compute_ns);
      r.end = clock_.now_ns();
      if (sync_steps) {  // the wait for the slowest accelerator is part of the step (wall, not
                         // compute)
        step_barrier.arrive_and_wait();
        r.end = clock_.now_ns();
      }
      if (synchronous) release();
      r.samples = static_cast<std::uint32_t>(ap.batch(k).size());
      samples_.fetch_add(ap.batch(k).size(), std::memory_order_relaxed);
      if (progress) progress->add(1);
      if (step_ckpt && (step_base + k + 1) % ck.every_steps == 0) {
        ckpt_requested.store(true);
        ckpt_barrier.arrive_and_wait();
        const std::int64_t t = clock_.now_ns();
        r.excluded_ns = t - r.end;
        r.end = t;
      }
      recs.push_back(r);
      // Several ranks stop together at the end of an epoch instead (Runner::run).
      if (deadline > 0 && r.end >= deadline && !multi()) shared.stop.store(true);
    }
    if (step_ckpt) ckpt_barrier.arrive_and_drop();
    if (sync_steps) step_barrier.arrive_and_drop();
    // Release workers blocked on a full prefetch window.
    for (std::uint32_t i = 0; i < cfg.workers; ++i) {
      h[i].consumed.store(~std::uint64_t{0} / 2, std::memory_order_release);
      clock_.notify(h[i].consumed);
    }
  };

  const std::int64_t t0 = clock_.now_ns();
  std::vector<std::thread> threads;
  threads.reserve(na * (cfg.workers + 1));
  std::vector<std::unique_ptr<Worker>> workers;
  for (std::size_t a = 0; a < na; ++a)
    for (std::uint32_t w = 0; w < cfg.workers; ++w)
      workers.push_back(std::make_unique<Worker>(cfg, plan.accelerators[a], w, handoffs[a][w],
                                                 shared, clock_, stats[a][w]));
  // reader.startup: readers begin that long after the phase starts (PyTorch re-forks DataLoader
  // workers each epoch); the accelerators wait for their first batch meanwhile, so the gap counts
  // as data wait.
  const std::int64_t startup_ns = static_cast<std::int64_t>(rd.startup_s * 1e9);
  // reader.startup_spread: each accelerator's readers begin later still, by its place in the
  // pass's start-up order (accelerator_start_offsets, metrics.hpp).
  const std::vector<std::int64_t> start_offset_ns = accelerator_start_offsets(
      rd.startup_spread, mix_seed(rd.seed ^ 0x73707265616475ull, plan.epoch * 2 + (eval ? 1 : 0)),
      na);
  // Every worker, then every accelerator. std::thread throws when the system cannot start one
  // (threads or memory for stacks run out: many accelerators x workers); then the threads already
  // started are stopped and joined, and the run fails saying how many threads it needed.
  const std::size_t needed = workers.size() + na;
  std::size_t accelerators_started = 0;
  auto start = [&](auto&& body) {
    if (options_.before_thread_start) options_.before_thread_start(threads.size());
    threads.push_back(start_thread(clock_, std::forward<decltype(body)>(body)));
  };
  // A FakeClock's time stands still until every thread of the phase is registered.
  std::optional<ClockHold> starting(std::in_place, clock_);
  try {
    for (std::size_t i = 0; i < workers.size(); ++i) {
      const std::int64_t begin = startup_ns + start_offset_ns[i / cfg.workers];
      start([&w = workers[i], this, t0, begin] {
        if (begin > 0) {
          clock_.prepare_thread();
          clock_.sleep_until(t0 + begin);
        }
        w->run();
      });
    }
    for (std::size_t a = 0; a < na; ++a, ++accelerators_started)
      start([&accelerator, a] { accelerator(a); });
  } catch (const std::system_error& e) {
    shared.fail(runtime_error("cannot start thread " + std::to_string(threads.size() + 1) + " of " +
                              std::to_string(needed) + ": " + e.code().message() +
                              "; lower run.accelerators or reader.workers"));
    stop_all(handoffs, cfg.workers, clock_);
    // Accelerators never started never reach the checkpoint barrier: leave it for them.
    for (std::size_t a = accelerators_started; a < na; ++a) {
      if (step_ckpt) ckpt_barrier.arrive_and_drop();
      if (sync_steps) step_barrier.arrive_and_drop();
    }
  }
  starting.reset();
  for (auto& t : threads) t.join();
  out.begin_ns = t0;
  out.end_ns = clock_.now_ns();
  ready_.store(0);
  if (shared.error) return *shared.error;

  for (auto& per : stats)
    for (auto& s : per) {
      out.stats.latency.merge(s.latency);
      out.stats.bytes += s.bytes;
      out.stats.requests += s.requests;
      out.stats.files += s.files;
    }
  for (std::size_t a = 0; a < na; ++a)
    for (std::size_t k = 0; k < out.steps[a].size(); ++k)
      out.samples += plan.accelerators[a].batch(k).size();
  // Ranks of a multi-host run may differ by one batch per accelerator (the epoch's tail, without
  // drop_last). Global accelerator 0 has the most batches; a rank with fewer writes the step
  // checkpoints it did not reach now, so that every rank takes part in every checkpoint.
  std::uint64_t local_steps = 0;
  for (const auto& st : out.steps) local_steps = std::max<std::uint64_t>(local_steps, st.size());
  if (step_ckpt && multi()) {
    const std::uint64_t global_steps =
        most_batches(eval ? *job_.validation : job_.dataset, job_.reader, job_.run,
                     eval ? Phase::eval : Phase::train, options_.cluster->size());
    for (std::uint64_t k = local_steps; k < global_steps; ++k)
      if ((step_base + k + 1) % ck.every_steps == 0)
        if (Result<void> c = coordinated_checkpoint(); !c) return c.error();
  }
  // The step cadence counts global accelerator 0's steps, the same on every rank.
  if (!eval && multi())
    global_step_ +=
        most_batches(job_.dataset, job_.reader, job_.run, Phase::train, options_.cluster->size());
  else if (!eval && !out.steps.empty())
    global_step_ += out.steps[0].size();
  out.signals_dropped = shared.signals_dropped.load();
  return out;
}

void Runner::sampler() {
  using namespace std::chrono;
  const auto start = steady_clock::now();
  std::uint64_t last_b = 0, last_s = 0, last_r = 0;
  std::unique_lock lock(series_mu_);
  for (int i = 1; !series_stop_; ++i) {
    if (series_cv_.wait_until(lock, start + seconds(i), [&] { return series_stop_; })) break;
    SeriesPoint p;
    p.t_s = duration<double>(steady_clock::now() - start).count();
    const std::uint64_t b = bytes_.load(), s = samples_.load(), r = requests_.load();
    p.bytes = b - last_b;
    p.samples = s - last_s;
    p.requests = r - last_r;
    last_b = b;
    last_s = s;
    last_r = r;
    p.in_flight = static_cast<std::uint32_t>(std::max<std::int64_t>(0, in_flight_.load()));
    p.ready_batches = static_cast<std::uint32_t>(std::max<std::int64_t>(0, ready_.load()));
    series_.push_back(p);
  }
}

void Runner::drop_cache(const FileTable& files, std::vector<std::string>& warnings) {
  for (std::uint64_t f = 0; f < files.size.size(); ++f) {
    const int fd = ::open(files.path(f), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    ::close(fd);
  }
  if (options_.drop_caches_globally && ::geteuid() == 0) {
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

Result<Report> Runner::run() {
  Report rep;
  rep.job_name = job_.name.empty() ? job_.source.stem().string() : job_.name;
  rep.engine = options_.engine;
  rep.accelerator = job_.compute.accelerator;
  rep.accelerators = job_.run.accelerators;
  rep.workers = job_.reader.workers;
  rep.iodepth = job_.reader.iodepth > 0    ? job_.reader.iodepth
                : job_.reader.workers == 0 ? 1
                                           : kDefaultIodepth;
  rep.epochs = job_.run.epochs;
  rep.direct = job_.reader.direct;
  rep.cache_mode = to_string(job_.run.cache);

  // Every rank probes its engine; with several ranks they agree first, so that one rank without
  // io_uring stops all of them before any I/O.
  Result<void> probe = engine::probe(options_.engine);
  if (multi()) probe = agree_all(probe);
  if (!probe) return probe.error();
  // The MPI watchdog's sign of life while this rank works (RankGroup::set_progress).
  const ProgressScope alive(options_.cluster, [this] {
    return bytes_.load() + samples_.load() + requests_.load() + checkpoint_bytes_.load();
  });
  const Topology topology =
      multi() ? Topology{options_.cluster->rank(), options_.cluster->size()} : options_.topology;

  const datasets::Layout layout(job_.dataset);
  const FileTable train = make_table(layout);
  std::optional<datasets::Layout> eval_layout;
  FileTable eval_files;
  const bool do_eval = job_.validation.has_value() && job_.run.eval_every_epochs > 0;
  if (do_eval) {
    eval_layout.emplace(*job_.validation);
    eval_files = make_table(*eval_layout);
  }
  rep.dataset_bytes = train.total_bytes;
  rep.ram_bytes = limits::host_memory_bytes();
  // Several hosts: the page cache of all of them together (each host counted once, by its leader).
  if (multi())
    rep.ram_bytes = options_.cluster->sum(options_.cluster->host_leader() ? rep.ram_bytes : 0);
  rep.dataset_fits_in_ram = rep.ram_bytes > 0 && rep.dataset_bytes < 5 * rep.ram_bytes;
  if (rep.dataset_fits_in_ram)
    rep.warnings.push_back(
        "the dataset (" + format_size(rep.dataset_bytes) + ") is smaller than 5x RAM (" +
        format_size(rep.ram_bytes) + "): " +
        (job_.reader.direct
             ? "O_DIRECT bypasses the page cache, but MLPerf Storage still"
             : "reads after the first may come from the page cache; MLPerf Storage") +
        " requires a dataset of at least 5x RAM for a valid result");

  std::thread sampler_thread;
  if (options_.series) {
    try {
      sampler_thread = std::thread([this] { sampler(); });
    } catch (const std::system_error& e) {
      const Error err =
          runtime_error(std::string("cannot start the time-series thread: ") + e.code().message());
      // The other ranks learn it at their next agreement.
      if (multi()) return agree_all(err).error();
      return err;
    }
  }
  auto stop_sampler = [&] {
    if (!sampler_thread.joinable()) return;
    {
      std::lock_guard lock(series_mu_);
      series_stop_ = true;
    }
    series_cv_.notify_all();
    sampler_thread.join();
  };
  auto fail = [&](const Error& e) -> Result<Report> {
    stop_sampler();
    return e;
  };

  // The runner records; compute_report (metrics.cpp) computes every figure from the record.
  RunRecord rec;
  rec.au_threshold = job_.compute.au_threshold;
  rec.cpus = online_cpus();
  rec.cpu_begin = read_cpu_sample();
  rec.begin_ns = clock_.now_ns();
  if (job_.run.max_seconds > 0)
    deadline_ns_ = rec.begin_ns + static_cast<std::int64_t>(job_.run.max_seconds * 1e9);
  auto record = [&](PhaseOutcome&& ph, std::uint32_t epoch, bool eval, const EpochPlan& plan) {
    if (options_.consumed) {
      ConsumedPass c;
      c.epoch = epoch;
      c.eval = eval;
      for (std::size_t a = 0; a < plan.accelerators.size() && a < ph.steps.size(); ++a)
        for (std::size_t k = 0; k < ph.steps[a].size(); ++k)
          for (const SampleRef& s : plan.accelerators[a].batch(k)) {
            c.accelerator.push_back(plan.accelerators[a].global_id);
            c.samples.push_back(s);
          }
      options_.consumed->push_back(std::move(c));
    }
    if (rec.accelerator_ids.empty())
      for (const auto& a : plan.accelerators) rec.accelerator_ids.push_back(a.global_id);
    PhaseRecord pr;
    pr.epoch = epoch;
    pr.eval = eval;
    pr.begin_ns = ph.begin_ns;
    pr.end_ns = ph.end_ns;
    pr.steps = std::move(ph.steps);
    pr.samples = ph.samples;
    pr.bytes = ph.stats.bytes;
    pr.requests = ph.stats.requests;
    pr.files = ph.stats.files;
    pr.latency = ph.stats.latency;
    rec.phases.push_back(std::move(pr));
    rep.batch_signals_dropped += ph.signals_dropped;
  };

  // With several ranks a pass starts when every rank agrees (an epoch barrier that also carries a
  // failure) and ends with another agreement; an error every rank already knows is returned as is.
  auto phase_end = [&](Result<PhaseOutcome>& r) -> Result<void> {
    if (!multi() || agreed_failure_) return r ? ok() : Result<void>(r.error());
    return agree_all(r ? ok() : Result<void>(r.error()));
  };
  // The page cache: one rank per host drops it (on a shared dataset the others' drops repeat it).
  auto drop = [&] {
    if (!multi() || options_.cluster->host_leader()) drop_cache(train, rep.warnings);
  };

  if (job_.checkpoint.enabled && job_.checkpoint.restore) {
    Result<void> r = multi() ? agree_all(ok()) : ok();
    if (r)
      r = restore_checkpoint(job_.checkpoint, checkpoint_, options_.engine, share(),
                             &checkpoint_bytes_);
    if (multi() && !agreed_failure_) r = agree_all(r);
    if (!r) return fail(r.error());
  }
  if (job_.run.cache == CacheMode::drop_start || job_.run.cache == CacheMode::drop_epoch) drop();
  // dlgen's own work between passes (the page-cache drop, planning the next pass) is no storage
  // time: its windows are left out of AU's wall (docs/metrics.md).
  auto harness = [&](std::int64_t begin) {
    if (options_.between_passes) options_.between_passes();
    rec.harness.push_back({begin, clock_.now_ns()});
  };
  // An interrupt (SIGINT/SIGTERM) ends the run after the pass in hand; with several ranks, when
  // any rank was interrupted (every rank calls this at the same points).
  auto interrupted = [&] {
    bool s = options_.stop != nullptr && options_.stop->requested();
    if (multi() && !agreed_failure_) s = options_.cluster->any(s);
    return s;
  };

  for (std::uint32_t e = 0; e < job_.run.epochs; ++e) {
    const std::int64_t between = clock_.now_ns();
    if (job_.run.cache == CacheMode::drop_epoch && e > 0) drop();
    const EpochPlan plan = plan_epoch(job_, e, topology);
    harness(between);
    if (multi())
      if (Result<void> a = agree_all(ok()); !a) return fail(a.error());
    std::optional<Progress> progress;
    if (options_.progress)
      progress.emplace("epoch " + std::to_string(e + 1) + "/" + std::to_string(job_.run.epochs),
                       plan.num_steps() * plan.accelerators.size(), "steps");
    Result<PhaseOutcome> r = run_phase(plan, train, false, progress ? &*progress : nullptr);
    progress.reset();
    if (Result<void> end = phase_end(r); !end) return fail(end.error());
    record(std::move(*r), e + 1, false, plan);
    if (interrupted()) {
      rep.interrupted = true;
      break;
    }
    rep.epochs_completed = e + 1;

    if (job_.checkpoint.after_epoch(e + 1)) {
      const std::int64_t ck_begin = clock_.now_ns();
      if (Result<void> w = coordinated_checkpoint(); !w) return fail(w.error());
      rec.checkpoints.push_back({ck_begin, clock_.now_ns()});
    }

    if (do_eval && (e + 1) % job_.run.eval_every_epochs == 0) {
      const std::int64_t eval_between = clock_.now_ns();
      const EpochPlan ep = plan_eval(job_, e, topology);
      harness(eval_between);
      if (multi())
        if (Result<void> a = agree_all(ok()); !a) return fail(a.error());
      Result<PhaseOutcome> ev = run_phase(ep, eval_files, true, nullptr);
      if (Result<void> end = phase_end(ev); !end) return fail(end.error());
      record(std::move(*ev), e + 1, true, ep);
      if (interrupted()) {
        rep.interrupted = true;
        break;
      }
    }
    // Several ranks: each checks its own deadline at the end of the epoch, and all stop when any
    // one passed it (all ranks passed the agreement above, so this gather is matched).
    bool past = deadline_ns_ > 0 && clock_.now_ns() >= deadline_ns_;
    if (multi()) past = options_.cluster->any(past);
    if (past) {
      rep.warnings.push_back("stopped at run.max_time (" + format_duration(job_.run.max_seconds) +
                             ")");
      break;
    }
  }
  rec.end_ns = clock_.now_ns();
  rec.cpu_end = read_cpu_sample();
  stop_sampler();
  rep.series = std::move(series_);
  rec.checkpoint = checkpoint_;
  rec.realtime = realtime_.load() && !rec.accelerator_ids.empty();
  if (rep.batch_signals_dropped > 0)
    rep.warnings.push_back(
        std::to_string(rep.batch_signals_dropped) +
        " batch hand-over tokens were dropped (their socket was full): a trace of this replay "
        "misses that many batch boundaries");
  compute_report(rec, rep);
  return rep;
}

Result<void> Runner::agree_all(const Result<void>& mine) {
  Result<void> r = options_.cluster->agree(mine);
  if (!r) agreed_failure_ = true;
  return r;
}

Result<void> Runner::coordinated_checkpoint() {
  if (!multi()) return write_checkpoint(job_.checkpoint, checkpoint_, options_.engine);
  if (Result<void> a = agree_all(ok()); !a) return a;
  return agree_all(
      write_checkpoint(job_.checkpoint, checkpoint_, options_.engine, share(), &checkpoint_bytes_));
}

}  // namespace

void StopSource::request() {
  std::lock_guard lock(mu_);
  requested_.store(true, std::memory_order_release);
  if (fn_) fn_();
}

void StopSource::on_request(std::function<void()> fn) {
  std::lock_guard lock(mu_);
  fn_ = std::move(fn);
  if (requested_.load() && fn_) fn_();
}

void StopSource::clear() {
  std::lock_guard lock(mu_);
  fn_ = nullptr;
}

Result<Report> run_job(const Job& job, const RunOptions& options) {
  RealClock real;
  Clock& clock = options.clock ? *options.clock : real;
  Runner runner(job, options, clock);
  return runner.run();
}

}  // namespace dlgen::replay
