#pragma once
// The runner: replays a job's training loop. Per simulated accelerator, `reader.workers` worker
// threads (each with its own engine) read the samples of batch k (k mod workers = worker, as a
// PyTorch DataLoader) with up to `reader.iodepth` requests in flight, and hand finished batches
// through a bounded prefetch queue (`reader.prefetch` batches per worker); the accelerator thread
// takes batch k in order and "computes" by sleeping the step's compute time on a Clock.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "dlgen/core/job.hpp"
#include "dlgen/core/result.hpp"
#include "dlgen/replay/clock.hpp"
#include "dlgen/engine/engine.hpp"
#include "dlgen/engine/registry.hpp"
#include "dlgen/replay/plan.hpp"
#include "dlgen/replay/rank_group.hpp"
#include "dlgen/replay/report.hpp"

namespace dlgen::replay {

// The samples one pass handed to this process's accelerators (the batches each accelerator took,
// in order): what `dlgen run --record-samples` writes, and how tests prove the sharding.
struct ConsumedPass {
  std::uint32_t epoch = 0;  // 1-based
  bool eval = false;
  std::vector<std::uint32_t> accelerator;  // global accelerator id, one per sample
  std::vector<SampleRef> samples;
};

// A request to stop a run early (SIGINT/SIGTERM: see cli/interrupt.hpp). request() may be called
// from any thread (not from a signal handler): it wakes the pass in progress, whose readers and
// accelerators stop after the step in hand; the run then ends with Report::interrupted set and its
// figures over what ran. The runner registers what wakes its current pass.
class StopSource {
 public:
  void request();
  bool requested() const { return requested_.load(std::memory_order_acquire); }
  // The runner's: `fn` runs on request() (at once when already requested) until cleared.
  void on_request(std::function<void()> fn);
  void clear();

 private:
  std::mutex mu_;
  std::atomic<bool> requested_{false};
  std::function<void()> fn_;
};

struct RunOptions {
  std::string engine{engine::default_name()};  // a registered engine's name (engine/registry.hpp)
  Clock* clock = nullptr;                      // nullptr: a RealClock
  Topology topology;
  // The ranks of a multi-host run (rank_group.hpp; implemented by cluster/, MPI under mpirun;
  // nullptr or one rank: this process alone, as without mpirun).
  // With several ranks the topology is {cluster->rank(), cluster->size()}, every pass starts on an
  // agreement of all ranks (a barrier that also carries a failure), checkpoints are written by all
  // ranks together (each its shards, see checkpoint.hpp), the page cache is dropped by one rank per
  // host, run.max_time is checked at the end of each epoch (all ranks stop together), and a rank
  // that fails stops every rank with "rank R (host): ...". The Report stays this rank's; see
  // cluster/cluster_report.hpp for the reduced one.
  RankGroup* cluster = nullptr;
  // When set, every pass's consumed samples are appended here.
  std::vector<ConsumedPass>* consumed = nullptr;
  bool progress = false;            // a progress line on a terminal
  bool series = true;               // sample per-second counters (real time) for the time series
  std::uint32_t block_size = 4096;  // O_DIRECT alignment of offsets, lengths and buffers
  // I/O buffer memory per worker at most (also capped so that all workers together use at most a
  // quarter of RAM). A sample larger than budget / iodepth is read in several requests.
  std::uint64_t buffer_budget_bytes = 256ull << 20;
  bool drop_caches_globally = true;  // cache modes also write /proc/sys/vm/drop_caches when root
  // Makes each worker's engine instead of engine::make(engine, ...) when set (tests: a fault
  // engine, see engine/fault.hpp). `engine` still names the run's engine in the report and is
  // probed.
  engine::EngineFactory engine_factory;
  // Tests: called before each reader/accelerator thread of a pass is started, with its index
  // (0-based; workers first); it may throw std::system_error as std::thread does when the system
  // cannot start a thread.
  std::function<void(std::size_t thread)> before_thread_start;
  // Tests: called inside each harness window between passes (after the page-cache drop and the
  // next pass's planning), e.g. to let fake time pass as a slow cache drop would.
  std::function<void()> between_passes;
  // When set, request() stops the run early (see StopSource).
  StopSource* stop = nullptr;
};

// The default requests in flight per worker when the job says 0: one, as a DataLoader worker.
constexpr std::uint32_t kDefaultIodepth = 1;

Result<Report> run_job(const Job& job, const RunOptions& options = {});

}  // namespace dlgen::replay
