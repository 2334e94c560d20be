#include "pass.hpp"

#include <sched.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <system_error>
#include <utility>

namespace dlgen::replay {

Pass::Pass(const EpochPlan& plan, bool eval, const PhaseConfig& cfg, const StepRules& rules,
           PassEnv env)
    : plan_(plan),
      eval_(eval),
      cfg_(cfg),
      rules_(rules),
      env_(std::move(env)),
      na_(plan.accelerators.size()),
      checkpoint_barrier_(env_.clock, static_cast<std::uint32_t>(na_),
                          PauseCompletion{this, false}),
      eval_barrier_(env_.clock, static_cast<std::uint32_t>(na_), PauseCompletion{this, true}),
      step_barrier_(env_.clock, static_cast<std::uint32_t>(na_)) {
  shared_.bytes = &env_.live.bytes;
  shared_.requests = &env_.live.requests;
  shared_.in_flight = &env_.live.in_flight;
  shared_.ready = &env_.live.ready;
  out_.steps.resize(na_);
  handoffs_.resize(na_);
  stats_.assign(na_, std::vector<WorkerStats>(cfg_.workers));
  for (auto& h : handoffs_) h = std::make_unique<Handoff[]>(cfg_.workers);
  // An interrupt stops this pass as a failure would, without the failure: every thread wakes, sees
  // `stop` and ends after the step in hand.
  if (env_.stop)
    env_.stop->on_request([this] {
      shared_.stop.store(true);
      stop_all();
    });
  // Tokens that can wait on one accelerator's signal: every worker's window of batches, full.
  signals_.resize(na_);
  for (auto& s : signals_)
    s = std::make_unique<BatchSignal>(std::uint64_t{cfg_.workers} * (cfg_.prefetch + 1));
  for (std::size_t a = 0; a < na_; ++a)
    for (std::uint32_t w = 0; w < cfg_.workers; ++w)
      handoffs_[a][w].signal_fd = signals_[a]->send_fd();
}

Pass::~Pass() {
  if (env_.stop) env_.stop->clear();
}

void Pass::PauseCompletion::operator()() noexcept {
  if (!(eval ? pass->eval_requested_ : pass->checkpoint_requested_).exchange(false)) return;
  const std::int64_t begin = pass->env_.clock.now_ns();
  const std::uint64_t step = pass->pause_step_.load();
  Result<void> r = eval ? pass->env_.evaluate(step) : pass->env_.checkpoint(step);
  if (eval) pass->out_.paused_ns += pass->env_.clock.now_ns() - begin;
  if (!r) pass->shared_.fail(r.error());
}

void Pass::stop_all() {
  for (const auto& per : handoffs_)
    for (std::uint32_t w = 0; w < cfg_.workers; ++w) {
      per[w].produced.store(~std::uint64_t{0}, std::memory_order_release);
      env_.clock.notify(per[w].produced);
      per[w].consumed.store(~std::uint64_t{0} / 2, std::memory_order_release);
      env_.clock.notify(per[w].consumed);
    }
}

Result<PhaseOutcome> Pass::run() {
  const std::int64_t t0 = env_.clock.now_ns();
  start_threads(t0);
  for (std::uint64_t n; (n = finished_.load(std::memory_order_acquire)) < threads_.size();)
    env_.clock.wait(finished_, n);
  for (auto& t : threads_) t.join();
  out_.begin_ns = t0;
  out_.end_ns = env_.clock.now_ns();
  env_.live.ready.store(0);
  if (shared_.error) return *shared_.error;
  return std::move(collect());
}

void Pass::start_threads(std::int64_t t0) {
  threads_.reserve(na_ * (cfg_.workers + 1));
  for (std::size_t a = 0; a < na_; ++a)
    for (std::uint32_t w = 0; w < cfg_.workers; ++w)
      workers_.push_back(std::make_unique<Worker>(cfg_, plan_.accelerators[a], w, handoffs_[a][w],
                                                  shared_, env_.clock, stats_[a][w]));
  // reader.startup: readers begin that long after the phase starts (PyTorch re-forks DataLoader
  // workers each epoch); the accelerators wait for their first batch meanwhile, so the gap counts
  // as data wait. reader.startup_spread: each accelerator's readers begin later still, by its
  // place in the pass's start-up order (accelerator_start_offsets, plan.hpp).
  const std::vector<std::int64_t> start_offset_ns = accelerator_start_offsets(
      *rules_.startup_spread,
      mix_seed(rules_.seed ^ 0x73707265616475ull, plan_.epoch * 2 + (eval_ ? 1 : 0)), na_);
  // Every worker, then every accelerator. std::thread throws when the system cannot start one
  // (threads or memory for stacks run out: many accelerators x workers); then the threads already
  // started are stopped and joined, and the run fails saying how many threads it needed.
  const std::size_t needed = workers_.size() + na_;
  std::size_t accelerators_started = 0;
  auto start = [&](auto&& body) {
    if (env_.before_thread_start && *env_.before_thread_start)
      (*env_.before_thread_start)(threads_.size());
    threads_.push_back(
        start_thread(env_.clock, [this, body = std::forward<decltype(body)>(body)]() mutable {
          body();
          finished_.fetch_add(1, std::memory_order_release);
          env_.clock.notify(finished_);
        }));
  };
  // A FakeClock's time stands still until every thread of the phase is registered.
  std::optional<ClockHold> starting(std::in_place, env_.clock);
  try {
    for (std::size_t i = 0; i < workers_.size(); ++i) {
      const std::int64_t begin = rules_.startup_ns + start_offset_ns[i / cfg_.workers];
      start([&w = workers_[i], &clock = env_.clock, t0, begin] {
        if (begin > 0) {
          clock.prepare_thread();
          clock.sleep_until(t0 + begin);
        }
        w->run();
      });
    }
    for (std::size_t a = 0; a < na_; ++a, ++accelerators_started)
      start([this, a] { accelerator(a); });
  } catch (const std::system_error& e) {
    shared_.fail(runtime_error("cannot start thread " + std::to_string(threads_.size() + 1) +
                               " of " + std::to_string(needed) + ": " + e.code().message() +
                               "; lower run.accelerators or reader.workers"));
    stop_all();
    // Accelerators never started never reach the checkpoint barrier: leave it for them.
    for (std::size_t a = accelerators_started; a < na_; ++a) leave_barriers();
  }
  starting.reset();
}

namespace {

// The longest piece the consumer's cost is spent in: a quarter of the pass's shortest compute
// (drawn on a copy of the step stream, so the steps draw the same values), at least 50 us; 0 (one
// piece) without batch_overhead or compute. A trace shows compute as the consumer's idle gaps and
// takes a pass's n-1 longest for its steps' compute (docs/metrics.md, "Step"): one idle gap for
// the whole cost could outlast some step's compute (the held-out Hugging Face job's costs reach
// 0.26 s, its computes 0.08 s) and be taken for it; pieces shorter than every compute cannot,
// and show the cost as PyTorch's main process shows its own: syscalls with short gaps between.
std::int64_t overhead_slice(const StepRules& rules, Rng rng, std::uint64_t steps) {
  if (!rules.overhead || steps == 0) return 0;
  double shortest = INFINITY;
  for (std::uint64_t k = 0; k < steps; ++k)
    shortest = std::min(shortest, sample(*rules.compute, rng));
  if (!(shortest > 0) || std::isinf(shortest)) return 0;
  return std::max<std::int64_t>(static_cast<std::int64_t>(shortest * 1e9 / 4), 50'000);
}

}  // namespace

void Pass::accelerator(std::size_t a) {
  Clock& clock = env_.clock;
  clock.prepare_thread();
  if (::sched_getscheduler(0) != SCHED_FIFO) env_.realtime = false;
  const AcceleratorPlan& ap = plan_.accelerators[a];
  std::vector<StepRecord>& recs = out_.steps[a];
  recs.reserve(ap.num_batches());
  const std::uint64_t step_seed = mix_seed(
      mix_seed(mix_seed(rules_.seed, 0xc0de), plan_.epoch * 2 + (eval_ ? 1 : 0)), ap.global_id);
  Rng rng(step_seed);
  // Its own stream, so that a job with and without batch_overhead draws the same compute times.
  Rng overhead_rng(mix_seed(step_seed, 0x0be5));
  const std::int64_t slice_ns = overhead_slice(rules_, rng, ap.num_batches());
  for (std::uint64_t k = 0; k < ap.num_batches(); ++k) {
    StepRecord r;
    if (!take_step(a, k, rng, overhead_rng, slice_ns, r)) break;
    recs.push_back(r);
    if (rules_.deadline_ns > 0 && r.end >= rules_.deadline_ns) shared_.stop.store(true);
  }
  leave_barriers();
  // Release workers blocked on a full prefetch window.
  Handoff* h = handoffs_[a].get();
  for (std::uint32_t i = 0; i < cfg_.workers; ++i) {
    h[i].consumed.store(~std::uint64_t{0} / 2, std::memory_order_release);
    clock.notify(h[i].consumed);
  }
}

void Pass::spend_overhead(std::size_t a, std::int64_t end_ns, std::int64_t slice_ns) {
  Clock& clock = env_.clock;
  for (;;) {
    const std::int64_t until = slice_ns > 0 ? std::min(end_ns, clock.now_ns() + slice_ns) : end_ns;
    clock.sleep_until(until);
    signals_[a]->mark_compute();
    if (until >= end_ns) break;
  }
}

bool Pass::take_step(std::size_t a, std::uint64_t k, Rng& rng, Rng& overhead_rng,
                     std::int64_t slice_ns, StepRecord& r) {
  Clock& clock = env_.clock;
  const AcceleratorPlan& ap = plan_.accelerators[a];
  Handoff& w = handoffs_[a][k % cfg_.workers];
  const std::uint64_t j = k / cfg_.workers;
  r.wait_begin = clock.now_ns();
  for (std::uint64_t p; (p = w.produced.load(std::memory_order_acquire)) <= j;) {
    if (shared_.stop.load()) break;
    clock.wait(w.produced, p);
  }
  if (shared_.stop.load()) return false;
  signals_[a]->receive();
  r.ready = clock.now_ns();
  // The loader may start the next batch now, or (synchronous) after this step's compute.
  auto release = [&] {
    w.consumed.store(j + 1, std::memory_order_release);
    clock.notify(w.consumed);
  };
  if (!rules_.synchronous) release();
  env_.live.ready.fetch_sub(1, std::memory_order_relaxed);
  // The consumer's own per-batch cost (receive, unpickle, collate), then compute.
  std::int64_t compute_begin = r.ready;
  if (rules_.overhead) {
    spend_overhead(
        a, r.ready + static_cast<std::int64_t>(sample(*rules_.overhead, overhead_rng) * 1e9),
        slice_ns);
    compute_begin = clock.now_ns();
    r.overhead_ns = compute_begin - r.ready;
  }
  r.compute_ns = static_cast<std::int64_t>(sample(*rules_.compute, rng) * 1e9);
  if (r.compute_ns > 0) clock.sleep_until(compute_begin + r.compute_ns);
  r.end = clock.now_ns();
  if (rules_.sync_steps) {  // the wait for the slowest accelerator is part of the step (wall, not
                            // compute)
    step_barrier_.arrive_and_wait();
    r.end = clock.now_ns();
  }
  if (rules_.synchronous) release();
  r.samples = static_cast<std::uint32_t>(ap.batch_size(k));
  env_.live.samples.fetch_add(r.samples, std::memory_order_relaxed);
  if (env_.progress) env_.progress->add(1);
  const std::uint64_t step = rules_.step_base + k + 1;
  if (rules_.checkpoint_every > 0 && step % rules_.checkpoint_every == 0) {
    pause_step_.store(step);
    checkpoint_requested_.store(true);
    checkpoint_barrier_.arrive_and_wait();
    const std::int64_t t = clock.now_ns();
    r.excluded_ns = t - r.end;
    r.end = t;
  }
  // After the checkpoint, as the epoch cadence has it. The step ends before: the evaluation's
  // steps are its own, and the next step's data wait begins after it.
  if (rules_.eval_every > 0 && step % rules_.eval_every == 0) {
    pause_step_.store(step);
    eval_requested_.store(true);
    eval_barrier_.arrive_and_wait();
  }
  return true;
}

void Pass::leave_barriers() {
  if (rules_.checkpoint_every > 0) checkpoint_barrier_.arrive_and_drop();
  if (rules_.eval_every > 0) eval_barrier_.arrive_and_drop();
  if (rules_.sync_steps) step_barrier_.arrive_and_drop();
}

PhaseOutcome& Pass::collect() {
  for (auto& per : stats_)
    for (auto& s : per) {
      out_.stats.latency.merge(s.latency);
      out_.stats.bytes += s.bytes;
      out_.stats.requests += s.requests;
      out_.stats.files += s.files;
      if (s.s3) {
        if (!out_.stats.s3) out_.stats.s3.emplace();
        out_.stats.s3->merge(*s.s3);
      }
    }
  for (std::size_t a = 0; a < na_; ++a)
    for (std::size_t k = 0; k < out_.steps[a].size(); ++k)
      out_.samples += plan_.accelerators[a].batch_size(k);
  out_.signals_dropped = shared_.signals_dropped.load();
  return out_;
}

}  // namespace dlgen::replay
