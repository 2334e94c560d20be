#pragma once
// One pass of the replay on this host (a training epoch or an evaluation pass): per accelerator,
// its reader workers and the accelerator thread that takes their batches in order and "computes"
// on the clock. Started together, joined at the end. Private to the replay library: the Runner
// (runner.cpp) configures a pass, runs it and records its outcome.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "batch_signal.hpp"
#include "dlgen/core/distribution.hpp"
#include "dlgen/core/progress.hpp"
#include "dlgen/core/result.hpp"
#include "dlgen/replay/clock.hpp"
#include "dlgen/replay/plan.hpp"
#include "dlgen/replay/runner.hpp"
#include "live_counters.hpp"
#include "worker.hpp"

namespace dlgen::replay {

// What a pass hands back: each accelerator's steps and the workers' figures, merged.
struct PhaseOutcome {
  std::vector<std::vector<StepRecord>> steps;  // per accelerator
  WorkerStats stats;
  std::int64_t begin_ns = 0, end_ns = 0;
  std::int64_t paused_ns = 0;  // spent in evaluation passes run inside it (StepRules::eval_every)
  std::uint64_t samples = 0;
  std::uint64_t signals_dropped = 0;
};

// How the accelerators of one pass take their steps, decided once per pass.
struct StepRules {
  const Distribution* compute = nullptr;   // compute time per step (compute.effective(eval))
  const Distribution* overhead = nullptr;  // compute.overhead(eval); null: none
  bool synchronous = false;  // the loader starts a batch only after the step's compute (workers 0)
  bool sync_steps = false;   // run.sync_steps: a step ends when every accelerator computed it
  std::uint64_t checkpoint_every = 0;  // a checkpoint every that many global steps (0: none)
  std::uint64_t eval_every = 0;        // an evaluation pass every that many global steps (0: none)
  std::uint64_t step_base = 0;         // global steps before this pass (the cadence's origin)
  std::int64_t deadline_ns = 0;        // run.max_time as a clock deadline (0: none in the pass)
  std::uint64_t seed = 0;              // reader.seed
  std::int64_t startup_ns = 0;         // reader.startup (reader.eval_startup in an evaluation)
  const Distribution* startup_spread = nullptr;  // reader.startup_spread
};

// What a pass uses of the run around it.
struct PassEnv {
  Clock& clock;
  LiveCounters& live;
  std::atomic<bool>& realtime;   // cleared when an accelerator thread does not run SCHED_FIFO
  Progress* progress = nullptr;  // one step per step taken (null: none)
  StopSource* stop = nullptr;    // an interrupt stops the pass (RunOptions::stop)
  const std::function<void(std::size_t)>* before_thread_start = nullptr;  // RunOptions'
  // Writes one step-cadence checkpoint (every rank together) after global step `step`; its error
  // fails the pass.
  std::function<Result<void>(std::uint64_t step)> checkpoint;
  // Runs one step-cadence evaluation pass (run.eval_every_steps) after global step `step` while
  // this pass's accelerators wait and its readers fill their prefetch windows; its error fails the
  // pass.
  std::function<Result<void>(std::uint64_t step)> evaluate;
};

class Pass {
 public:
  Pass(const EpochPlan& plan, bool eval, const PhaseConfig& cfg, const StepRules& rules,
       PassEnv env);
  Pass(const Pass&) = delete;
  Pass& operator=(const Pass&) = delete;
  ~Pass();

  // Starts every worker, then every accelerator, and joins them: the pass's outcome, or the first
  // error of any of its threads.
  Result<PhaseOutcome> run();

 private:
  // Runs checkpoints (or evaluation passes) at step boundaries: every accelerator arrives, the
  // last one in writes (evaluates). The barrier also completes when the last accelerators leave it
  // at the end of the phase; only a phase some accelerator entered for one runs it.
  struct PauseCompletion {
    Pass* pass;
    bool eval;  // the evaluation barrier, else the checkpoint one
    void operator()() noexcept;
  };

  void accelerator(std::size_t a);
  // Takes batch k of accelerator a: waits for it, computes, passes the step's barriers; false when
  // the pass stops first.
  // `slice_ns`: the longest piece of the consumer's cost (overhead_slice).
  bool take_step(std::size_t a, std::uint64_t k, Rng& rng, Rng& overhead_rng, std::int64_t slice_ns,
                 StepRecord& r);
  // The consumer's own cost (compute.batch_overhead) until `end_ns`, in pieces of at most
  // `slice_ns` (0: one), each ended by the traced no-op (BatchSignal::mark_compute); the last
  // one marks the start of compute.
  void spend_overhead(std::size_t a, std::int64_t end_ns, std::int64_t slice_ns);
  void start_threads(std::int64_t t0);
  // Wakes every thread that may wait on a hand-off (after `stop` was set, when some thread that
  // would have woken it never started): accelerators see their batches "produced", workers their
  // window released; both then see `stop` and end.
  void stop_all();
  PhaseOutcome& collect();
  // An accelerator leaves the step barriers it takes part in (at its end, or never started).
  void leave_barriers();

  const EpochPlan& plan_;
  const bool eval_;
  const PhaseConfig& cfg_;
  const StepRules rules_;
  PassEnv env_;
  const std::size_t na_;  // accelerators
  PhaseShared shared_;
  PhaseOutcome out_;
  std::vector<std::unique_ptr<Handoff[]>> handoffs_;
  std::vector<std::vector<WorkerStats>> stats_;
  std::vector<std::unique_ptr<BatchSignal>> signals_;
  std::atomic<bool> checkpoint_requested_{false};
  std::atomic<bool> eval_requested_{false};
  std::atomic<std::uint64_t> pause_step_{0};  // the global step a checkpoint or evaluation follows
  ClockBarrier checkpoint_barrier_;
  ClockBarrier eval_barrier_;
  ClockBarrier step_barrier_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::vector<std::thread> threads_;
  // Threads of threads_ whose body returned: run() waits for them through the clock, since it may
  // run on a thread of the clock itself (an accelerator's evaluation pass inside its own pass).
  std::atomic<std::uint64_t> finished_{0};
};

}  // namespace dlgen::replay
