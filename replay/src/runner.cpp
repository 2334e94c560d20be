#include "dlgen/replay/runner.hpp"

#include <algorithm>
#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dataset_files.hpp"
#include "dlgen/core/limits.hpp"
#include "dlgen/core/progress.hpp"
#include "dlgen/core/units.hpp"
#include "dlgen/datasets/layout.hpp"
#include "dlgen/engine/registry.hpp"
#include "dlgen/replay/checkpoint.hpp"
#include "dlgen/replay/checkpoint_objects.hpp"
#include "dlgen/replay/metrics.hpp"
#include "live_counters.hpp"
#include "load.hpp"
#include "pass.hpp"
#include "phase_config.hpp"
#include "series_sampler.hpp"
#include "worker.hpp"

namespace dlgen::replay {
namespace {

// One run of a job: its epochs in order, each a training pass, maybe a checkpoint and an
// evaluation pass (pass.cpp runs a pass). The runner records (RunRecord); compute_report
// (metrics.cpp) computes every figure from the record.
class Runner {
 public:
  Runner(const Job& job, const RunOptions& options, Clock& clock)
      : job_(job), options_(options), clock_(clock) {}

  Result<Report> run();

 private:
  // The report's description of the run (what ran, not what it measured).
  void describe_run();
  // Every rank probes its engine; with several ranks they agree first, so that one rank without
  // io_uring stops all of them before any I/O.
  Result<void> probe_engine();
  // The dataset's size against the page cache it may hide in: Report::ram_bytes and its warning.
  void size_dataset(const FileTable& train);
  // checkpoint.restore: every rank reads the checkpoint back before the first epoch.
  Result<void> restore();
  // dataset.load = "memory" (and a validation set's): its files read once, whole, now.
  Result<void> load_into_memory();
  // Epoch e (0-based): its training pass, the checkpoint after it, its evaluation pass. false when
  // the run ends after it (an interrupt or run.max_time).
  Result<bool> epoch(std::uint32_t e, const Topology& topology);
  // One pass, begun on an agreement of all ranks and recorded; false when it was interrupted.
  // after_step: accelerator 0's training steps before it (PhaseRecord::after_step).
  Result<bool> pass(const EpochPlan& plan, std::uint32_t e, bool eval, std::uint64_t after_step);
  Result<PhaseOutcome> run_phase(const EpochPlan& plan, std::uint32_t e, const FileTable& files,
                                 bool eval, Progress* progress);
  StepRules step_rules(const EpochPlan& plan, bool eval) const;
  PassEnv pass_env(Progress* progress, std::uint32_t e);
  // run.eval_every_steps: an evaluation pass inside training epoch e (0-based), run by the
  // accelerator thread that completed the step's barrier while the epoch's other accelerators
  // wait and its readers fill their prefetch windows (nanoGPT evaluates while the training
  // loader's workers live on).
  Result<void> step_evaluation(std::uint32_t e, std::uint64_t after_step);
  // After a pass: the step checkpoints and evaluations this rank did not reach, and the step
  // count's advance.
  Result<void> catch_up_checkpoints(const PhaseOutcome& out, std::uint32_t e, bool eval,
                                    const StepRules& rules);
  void advance_global_step(const PhaseOutcome& out, bool eval);
  // With several ranks a pass ends with an agreement; an error every rank already knows is
  // returned as is.
  Result<void> phase_end(const Result<PhaseOutcome>& r);
  void record(PhaseOutcome&& ph, std::uint32_t epoch, bool eval, const EpochPlan& plan,
              std::uint64_t after_step);
  void record_consumed(const PhaseOutcome& ph, std::uint32_t epoch, bool eval,
                       const EpochPlan& plan);
  // The page cache: one rank per host drops it (on a shared dataset the others' drops repeat it).
  void drop_page_cache();
  // dlgen's own work between passes (the page-cache drop, planning the next pass) is no storage
  // time: its windows are left out of AU's wall (docs/metrics.md).
  void harness(std::int64_t begin);
  // An interrupt (SIGINT/SIGTERM) ends the run after the pass in hand; with several ranks, when
  // any rank was interrupted (every rank calls this at the same points).
  bool interrupted();
  // Several ranks: each checks its own deadline at the end of the epoch, and all stop when any
  // one passed it (all ranks passed the pass's agreement, so this gather is matched).
  bool past_deadline();
  // One checkpoint, written by every rank together: all ranks agree to start, each writes its
  // shards, all agree that it is written (so the slowest rank ends it for everyone, as the next
  // training step's all-reduce would).
  // after_step: accelerator 0's training steps before it (CheckpointResult::after_steps).
  Result<void> coordinated_checkpoint(std::uint64_t after_step,
                                     const std::vector<CheckpointShard>* shards = nullptr);
  Result<void> final_save();
  // An agreement of all ranks on `mine` (see rank_group.hpp); remembers an agreed failure, after
  // which this rank calls no more collectives.
  Result<void> agree_all(const Result<void>& mine);
  bool multi() const { return options_.cluster != nullptr && options_.cluster->size() > 1; }
  ShardShare share() const {
    return multi() ? ShardShare{options_.cluster->rank(), options_.cluster->size()} : ShardShare{};
  }

  const Job& job_;
  const RunOptions& options_;
  Clock& clock_;
  Report rep_;
  RunRecord rec_;
  const FileTable* train_ = nullptr;  // the datasets' files, for the run's length
  const FileTable* eval_ = nullptr;
  CheckpointResult checkpoint_;
  bool agreed_failure_ = false;       // an error every rank already knows (no more collectives)
  std::atomic<bool> realtime_{true};  // every accelerator thread got SCHED_FIFO
  std::int64_t deadline_ns_ = 0;      // run.max_time as a clock deadline (0: none)
  std::uint64_t global_step_ = 0;  // steps taken by accelerator 0, all epochs (checkpoint cadence)
  Topology topology_;
  std::uint32_t step_evals_ = 0;     // evaluation passes run by step cadence so far
  bool in_step_evaluation_ = false;  // such a pass is running (inside a training pass)
  LiveCounters live_;
};

Result<Report> Runner::run() {
  describe_run();
  if (Result<void> p = probe_engine(); !p) return p.error();
  // The MPI watchdog's sign of life while this rank works (RankGroup::set_progress).
  const ProgressScope alive(options_.cluster, [this] { return live_.work_done(); });
  topology_ =
      multi() ? Topology{options_.cluster->rank(), options_.cluster->size()} : options_.topology;
  const Topology& topology = topology_;

  const datasets::Layout layout(job_.dataset);
  const FileTable train = make_table(layout);
  train_ = &train;
  std::optional<datasets::Layout> eval_layout;
  FileTable eval_files;
  if (job_.validation.has_value() && job_.run.evaluates()) {
    eval_layout.emplace(*job_.validation);
    eval_files = make_table(*eval_layout);
    eval_ = &eval_files;
  }
  size_dataset(train);

  SeriesSampler sampler(live_);
  if (options_.series)
    if (Result<void> s = sampler.start(); !s)  // the other ranks learn it at their next agreement
      return multi() ? agree_all(s).error() : s.error();

  rec_.au_threshold = job_.compute.au_threshold;
  rec_.cpus = online_cpus();
  rec_.cpu_begin = read_cpu_sample();
  rec_.begin_ns = clock_.now_ns();
  if (job_.run.max_seconds > 0)
    deadline_ns_ = rec_.begin_ns + static_cast<std::int64_t>(job_.run.max_seconds * 1e9);
  if (Result<void> r = restore(); !r) return r.error();
  if (Result<void> l = load_into_memory(); !l) return l.error();
  if (job_.run.cache == CacheMode::drop_start || job_.run.cache == CacheMode::drop_epoch)
    drop_page_cache();
  for (std::uint32_t e = 0; e < job_.run.epochs; ++e) {
    Result<bool> more = epoch(e, topology);
    if (!more) return more.error();
    if (!*more) break;
  }
  if (rep_.epochs_completed == job_.run.epochs)
    if (Result<void> f = final_save(); !f) return f.error();
  rec_.end_ns = clock_.now_ns();
  rec_.cpu_end = read_cpu_sample();
  rep_.series = sampler.stop();
  rec_.checkpoint = checkpoint_;
  rec_.realtime = realtime_.load() && !rec_.accelerator_ids.empty();
  if (rep_.batch_signals_dropped > 0)
    rep_.warnings.push_back(
        std::to_string(rep_.batch_signals_dropped) +
        " batch hand-over tokens were dropped (their socket was full): a trace of this replay "
        "misses that many batch boundaries");
  compute_report(rec_, rep_);
  return std::move(rep_);
}

void Runner::describe_run() {
  rep_.job_name = job_.name.empty() ? job_.source.stem().string() : job_.name;
  rep_.engine = options_.engine;
  rep_.accelerator = job_.compute.accelerator;
  rep_.accelerators = job_.run.accelerators;
  rep_.workers = job_.reader.workers;
  rep_.iodepth = reader_iodepth(job_.reader);
  rep_.epochs = job_.run.epochs;
  rep_.direct = job_.reader.direct;
  rep_.cache_mode = to_string(job_.run.cache);
}

Result<void> Runner::probe_engine() {
  Result<void> probe = engine::probe(options_.engine);
  if (multi()) probe = agree_all(probe);
  return probe;
}

void Runner::size_dataset(const FileTable& train) {
  rep_.dataset_bytes = train.total_bytes;
  rep_.ram_bytes = limits::host_memory_bytes();
  // Several hosts: the page cache of all of them together (each host counted once, by its leader).
  if (multi())
    rep_.ram_bytes = options_.cluster->sum(options_.cluster->host_leader() ? rep_.ram_bytes : 0);
  rep_.dataset_fits_in_ram = rep_.ram_bytes > 0 && rep_.dataset_bytes < 5 * rep_.ram_bytes;
  if (rep_.dataset_fits_in_ram)
    rep_.warnings.push_back(
        "the dataset (" + format_size(rep_.dataset_bytes) + ") is smaller than 5x RAM (" +
        format_size(rep_.ram_bytes) + "): " +
        (job_.reader.direct
             ? "O_DIRECT bypasses the page cache, but MLPerf Storage still"
             : "reads after the first may come from the page cache; MLPerf Storage") +
        " requires a dataset of at least 5x RAM for a valid result");
}

Result<void> Runner::restore() {
  if (!job_.checkpoint.enabled || !job_.checkpoint.restore) return ok();
  Result<void> r = multi() ? agree_all(ok()) : ok();
  if (r)
    r = restore_checkpoint(job_.checkpoint, checkpoint_shards(job_, share().ranks), checkpoint_,
                           checkpoint_engine(job_, options_.engine), share(),
                           &live_.checkpoint_bytes);
  if (multi() && !agreed_failure_) r = agree_all(r);
  return r;
}

Result<void> Runner::load_into_memory() {
  const bool train = job_.dataset.load == Load::memory;
  const bool eval = eval_ != nullptr && job_.validation->load == Load::memory;
  if (!train && !eval) return ok();
  LoadOptions lo;
  lo.engine = options_.engine;
  lo.factory = &options_.engine_factory;
  const ReaderSpec& rd = job_.reader;
  const Recipe legacy = legacy_recipe(rd.probe_bytes, rd.header_read_bytes, rd.request_size_bytes);
  lo.recipe = rd.read_unit == ReadUnit::file && !rd.recipe.empty() ? &rd.recipe : &legacy;
  lo.clock = &clock_;
  rec_.load.begin_ns = clock_.now_ns();
  Result<void> r = train ? load_files(*train_, lo, rec_.load) : ok();
  if (r && eval) r = load_files(*eval_, lo, rec_.load);
  rec_.load.end_ns = clock_.now_ns();
  if (multi()) r = agree_all(r);
  return r;
}

Result<bool> Runner::epoch(std::uint32_t e, const Topology& topology) {
  const std::int64_t between = clock_.now_ns();
  if (job_.run.cache == CacheMode::drop_epoch && e > 0) drop_page_cache();
  const EpochPlan plan = plan_epoch(job_, e, topology);
  harness(between);
  if (Result<bool> more = pass(plan, e, false, global_step_); !more || !*more) return more;
  rep_.epochs_completed = e + 1;

  if (job_.checkpoint.after_epoch(e + 1)) {
    const std::int64_t ck_begin = clock_.now_ns();
    if (Result<void> w = coordinated_checkpoint(global_step_); !w) return w.error();
    rec_.checkpoints.push_back({ck_begin, clock_.now_ns()});
  }
  if (eval_ != nullptr && job_.run.eval_every_epochs > 0 &&
      (e + 1) % job_.run.eval_every_epochs == 0) {
    const std::int64_t eval_between = clock_.now_ns();
    const EpochPlan ep = plan_eval(job_, e, topology);
    harness(eval_between);
    if (Result<bool> more = pass(ep, e, true, global_step_); !more || !*more) return more;
  }
  if (past_deadline()) {
    rep_.warnings.push_back("stopped at run.max_time (" + format_duration(job_.run.max_seconds) +
                            ")");
    return false;
  }
  return true;
}

Result<bool> Runner::pass(const EpochPlan& plan, std::uint32_t e, bool eval,
                          std::uint64_t after_step) {
  // With several ranks a pass starts when every rank agrees (an epoch barrier that also carries a
  // failure).
  if (multi())
    if (Result<void> a = agree_all(ok()); !a) return a.error();
  std::optional<Progress> progress;
  if (options_.progress && !eval)
    progress.emplace("epoch " + std::to_string(e + 1) + "/" + std::to_string(job_.run.epochs),
                     plan.num_steps() * plan.accelerators.size(), "steps");
  Result<PhaseOutcome> r =
      run_phase(plan, e, eval ? *eval_ : *train_, eval, progress ? &*progress : nullptr);
  progress.reset();
  if (Result<void> end = phase_end(r); !end) return end.error();
  record(std::move(*r), e + 1, eval, plan, after_step);
  if (interrupted()) {
    rep_.interrupted = true;
    return false;
  }
  return true;
}

Result<PhaseOutcome> Runner::run_phase(const EpochPlan& plan, std::uint32_t e,
                                       const FileTable& files, bool eval, Progress* progress) {
  const ReaderSpec& rd = job_.reader;
  const Recipe legacy = legacy_recipe(rd.probe_bytes, rd.header_read_bytes, rd.request_size_bytes);
  PhaseConfig cfg = phase_config(rd, options_, plan, files, legacy);
  // dataset.load = "memory": the pass's samples were loaded before the first epoch.
  cfg.in_memory = (eval ? job_.validation->load : job_.dataset.load) == Load::memory;
  if (cfg.in_memory) cfg.request_bytes = cfg.block;  // reads nothing: the smallest buffers
  const StepRules rules = step_rules(plan, eval);
  Result<PhaseOutcome> out = Pass(plan, eval, cfg, rules, pass_env(progress, e)).run();
  if (!out) return out;
  if (Result<void> c = catch_up_checkpoints(*out, e, eval, rules); !c) return c.error();
  advance_global_step(*out, eval);
  return out;
}

StepRules Runner::step_rules(const EpochPlan& plan, bool eval) const {
  const ReaderSpec& rd = job_.reader;
  const CheckpointSpec& ck = job_.checkpoint;
  StepRules s;
  s.compute = &job_.compute.effective(eval);
  if (const Distribution& o = job_.compute.overhead(eval); !(o == Distribution{})) s.overhead = &o;
  s.synchronous = synchronous_loading(rd);
  // run.sync_steps (DDP): each step ends when every accelerator of this host has computed it.
  s.sync_steps = job_.run.sync_steps && plan.accelerators.size() > 1;
  // Step-cadence checkpoints: a barrier over the accelerators; its completion writes.
  s.checkpoint_every = !eval && ck.enabled && ck.every_steps > 0 ? ck.every_steps : 0;
  // Step-cadence evaluation passes: the same kind of barrier, after the checkpoint's.
  s.eval_every = !eval && eval_ != nullptr ? job_.run.eval_every_steps : 0;
  s.step_base = global_step_;
  // Several ranks stop together at the end of an epoch instead (past_deadline).
  s.deadline_ns = multi() ? 0 : deadline_ns_;
  s.seed = rd.seed;
  s.startup_ns = static_cast<std::int64_t>(rd.startup(eval) * 1e9);
  s.startup_spread = &rd.startup_spread;
  return s;
}

PassEnv Runner::pass_env(Progress* progress, std::uint32_t e) {
  PassEnv env{clock_, live_, realtime_};
  env.progress = progress;
  // The stop source holds one pass's callback: an evaluation inside a pass leaves it to the outer
  // pass, which stops after the evaluation.
  env.stop = in_step_evaluation_ ? nullptr : options_.stop;
  env.before_thread_start = &options_.before_thread_start;
  env.checkpoint = [this](std::uint64_t step) { return coordinated_checkpoint(step); };
  env.evaluate = [this, e](std::uint64_t step) { return step_evaluation(e, step); };
  return env;
}

Result<void> Runner::step_evaluation(std::uint32_t e, std::uint64_t after_step) {
  const std::int64_t between = clock_.now_ns();
  // Its own order each time (a pass's order is seeded by its plan's epoch): the evaluations
  // counted over the run, after the epochs' numbers.
  const EpochPlan ep = plan_eval(job_, job_.run.epochs + step_evals_++, topology_);
  harness(between);
  in_step_evaluation_ = true;
  Result<bool> more = pass(ep, e, true, after_step);
  in_step_evaluation_ = false;
  if (!more) return more.error();
  return ok();
}

// Ranks of a multi-host run may differ by one batch per accelerator (the epoch's tail, without
// drop_last). Global accelerator 0 has the most batches; a rank with fewer writes the step
// checkpoints it did not reach now, so that every rank takes part in every checkpoint.
Result<void> Runner::catch_up_checkpoints(const PhaseOutcome& out, std::uint32_t e, bool eval,
                                          const StepRules& rules) {
  if ((rules.checkpoint_every == 0 && rules.eval_every == 0) || !multi()) return ok();
  std::uint64_t local_steps = 0;
  for (const auto& st : out.steps) local_steps = std::max<std::uint64_t>(local_steps, st.size());
  const std::uint64_t global_steps =
      most_batches(eval ? *job_.validation : job_.dataset, job_.reader, job_.run,
                   eval ? Phase::eval : Phase::train, options_.cluster->size());
  auto due = [&](std::uint64_t every, std::uint64_t k) {
    return every > 0 && (rules.step_base + k + 1) % every == 0;
  };
  for (std::uint64_t k = local_steps; k < global_steps; ++k) {
    const std::uint64_t step = rules.step_base + k + 1;
    if (due(rules.checkpoint_every, k))
      if (Result<void> c = coordinated_checkpoint(step); !c) return c;
    if (due(rules.eval_every, k))
      if (Result<void> v = step_evaluation(e, step); !v) return v;
  }
  return ok();
}

// The step cadence counts global accelerator 0's steps, the same on every rank.
void Runner::advance_global_step(const PhaseOutcome& out, bool eval) {
  if (eval) return;
  if (multi())
    global_step_ +=
        most_batches(job_.dataset, job_.reader, job_.run, Phase::train, options_.cluster->size());
  else if (!out.steps.empty())
    global_step_ += out.steps[0].size();
}

Result<void> Runner::phase_end(const Result<PhaseOutcome>& r) {
  if (!multi() || agreed_failure_) return r ? ok() : Result<void>(r.error());
  return agree_all(r ? ok() : Result<void>(r.error()));
}

void Runner::record(PhaseOutcome&& ph, std::uint32_t epoch, bool eval, const EpochPlan& plan,
                    std::uint64_t after_step) {
  if (options_.consumed) record_consumed(ph, epoch, eval, plan);
  if (rec_.accelerator_ids.empty())
    for (const auto& a : plan.accelerators) rec_.accelerator_ids.push_back(a.global_id);
  PhaseRecord pr;
  pr.epoch = epoch;
  pr.eval = eval;
  pr.begin_ns = ph.begin_ns;
  pr.end_ns = ph.end_ns;
  pr.paused_ns = ph.paused_ns;
  pr.after_step = after_step;
  pr.steps = std::move(ph.steps);
  pr.samples = ph.samples;
  pr.bytes = ph.stats.bytes;
  pr.requests = ph.stats.requests;
  pr.files = ph.stats.files;
  pr.latency = ph.stats.latency;
  pr.s3 = std::move(ph.stats.s3);
  rec_.phases.push_back(std::move(pr));
  rep_.batch_signals_dropped += ph.signals_dropped;
}

// The samples each accelerator took, in order (RunOptions::consumed).
void Runner::record_consumed(const PhaseOutcome& ph, std::uint32_t epoch, bool eval,
                             const EpochPlan& plan) {
  ConsumedPass c;
  c.epoch = epoch;
  c.eval = eval;
  for (std::size_t a = 0; a < plan.accelerators.size() && a < ph.steps.size(); ++a)
    for (std::size_t k = 0; k < ph.steps[a].size(); ++k)
      for (std::uint64_t j = 0; j < plan.accelerators[a].batch_size(k); ++j) {
        c.accelerator.push_back(plan.accelerators[a].global_id);
        c.samples.push_back(plan.accelerators[a].sample(k, j));
      }
  options_.consumed->push_back(std::move(c));
}

void Runner::drop_page_cache() {
  if (!multi() || options_.cluster->host_leader())
    drop_dataset_cache(*train_, options_.drop_caches_globally, rep_.warnings);
}

void Runner::harness(std::int64_t begin) {
  if (options_.between_passes) options_.between_passes();
  rec_.harness.push_back({begin, clock_.now_ns()});
}

bool Runner::interrupted() {
  bool s = options_.stop != nullptr && options_.stop->requested();
  if (multi() && !agreed_failure_) s = options_.cluster->any(s);
  return s;
}

bool Runner::past_deadline() {
  bool past = deadline_ns_ > 0 && clock_.now_ns() >= deadline_ns_;
  if (multi()) past = options_.cluster->any(past);
  return past;
}

Result<void> Runner::agree_all(const Result<void>& mine) {
  Result<void> r = options_.cluster->agree(mine);
  if (!r) agreed_failure_ = true;
  return r;
}

// The final save after the last epoch (checkpoint.final_size): a checkpoint of its own files.
Result<void> Runner::final_save() {
  if (!job_.checkpoint.enabled || job_.checkpoint.final_size_bytes == 0) return ok();
  const std::vector<CheckpointShard> shards = final_shards(job_.checkpoint, share().ranks);
  const std::int64_t ck_begin = clock_.now_ns();
  if (Result<void> w = coordinated_checkpoint(global_step_, &shards); !w) return w;
  rec_.checkpoints.push_back({ck_begin, clock_.now_ns()});
  return ok();
}

// One checkpoint written by every rank: `given` shards, else the job's.
Result<void> Runner::coordinated_checkpoint(std::uint64_t after_step,
                                            const std::vector<CheckpointShard>* given) {
  const std::vector<CheckpointShard> shards =
      given != nullptr ? *given : checkpoint_shards(job_, share().ranks);
  const std::string ck_engine = checkpoint_engine(job_, options_.engine);
  Result<void> w = ok();
  if (!multi()) {
    w = write_checkpoint(job_.checkpoint, shards, checkpoint_, ck_engine);
  } else {
    if (Result<void> a = agree_all(ok()); !a) return a;
    w = agree_all(write_checkpoint(job_.checkpoint, shards, checkpoint_, ck_engine, share(),
                                   &live_.checkpoint_bytes));
  }
  if (w) checkpoint_.after_steps.push_back(after_step);
  return w;
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
