// The runner with a fake clock and the null engine (AU arithmetic, steps, checkpoints at no real
// cost), and with the io_uring and pread engines on real files (bytes read exact, O_DIRECT).
#include "dlgen/replay/runner.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "dlgen/core/llm.hpp"
#include "dlgen/datasets/layout.hpp"
#include "dlgen/replay/checkpoint.hpp"
#include "dlgen/replay/plan.hpp"
#include "replay_fixture.hpp"
#include "temp_dir.hpp"

namespace dlgen::replay {
namespace {

using dlgen::testing::TempDir;

using fixture::direct_supported;
using fixture::run_fake;
using fixture::small_job;
using fixture::uniform;
using fixture::uring_available;
using fixture::write_dataset;

// Checkpoints of one 4 KiB file every `every_steps` steps, no fsync: cheap enough for timing tests.
void tiny_checkpoints(Job& job, const std::filesystem::path& dir, std::uint64_t every_steps) {
  job.checkpoint.enabled = true;
  job.checkpoint.every_steps = every_steps;
  job.checkpoint.size_bytes = 4096;
  job.checkpoint.write_size_bytes = 4096;
  job.checkpoint.files = 1;
  job.checkpoint.fsync = false;
  job.checkpoint.dir = dir;
}

TEST(Runner, FakeClockComputesWithoutRealTimeAndAuIsFull) {
  Job job = small_job("/nonexistent/fake", 40, Distribution::fixed_at(10000));
  job.compute.step_time = Distribution::fixed_at(0.120);  // 120 ms a step, 10 steps, 3 epochs
  job.run.epochs = 3;
  const auto t0 = std::chrono::steady_clock::now();
  Result<Report> r = run_fake(job);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(3))
      << "fake time must cost no real time";
  EXPECT_EQ(r->steps, 30u);
  EXPECT_EQ(r->samples, 120u);
  EXPECT_EQ(r->bytes_read, 120u * 10000u);  // raw, one sample a file: whole files
  EXPECT_EQ(r->requests, 120u);
  EXPECT_NEAR(r->elapsed_s, 30 * 0.120, 1e-6);
  ASSERT_EQ(r->per_accelerator.size(), 1u);
  EXPECT_NEAR(r->per_accelerator[0].compute_s, 30 * 0.120, 1e-6);  // every step computes
  EXPECT_DOUBLE_EQ(r->au, 1.0);
  EXPECT_TRUE(r->passed);
  EXPECT_NEAR(r->compute.measured_mean_s, 0.120, 1e-9);
  EXPECT_NEAR(r->compute.mean_abs_error_s, 0, 1e-9);
  ASSERT_EQ(r->epochs_detail.size(), 3u);
  EXPECT_EQ(r->epochs_detail[1].samples, 40u);
}

// reader.startup: each epoch's readers begin that long after the epoch starts (PyTorch re-forking
// its DataLoader workers); the accelerators wait meanwhile, on the fake clock at no real cost.
// Every accelerator's workers start up at once: per epoch 0.5 s, then its steps back to back (no
// data wait: reads and preprocessing cost nothing), whatever the number of accelerators.
TEST(Runner, ReaderStartupDelaysEachEpoch) {
  for (std::uint32_t accelerators : {1u, 2u, 4u}) {
    SCOPED_TRACE("accelerators " + std::to_string(accelerators));
    Job job = small_job("/nonexistent/fake", 40, Distribution::fixed_at(10000));
    job.compute.step_time = Distribution::fixed_at(0.120);
    job.run.epochs = 3;
    job.run.accelerators = accelerators;
    job.reader.startup_s = 0.5;
    const auto t0 = std::chrono::steady_clock::now();
    Result<Report> r = run_fake(job);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(3))
        << "fake time must cost no real time";
    // 40 samples over the accelerators in batches of 4: 10, 5 or 3 (4+4+2) steps an epoch each.
    const std::uint64_t steps = (40 / accelerators + 3) / 4;
    EXPECT_EQ(r->steps, 3 * steps);
    EXPECT_NEAR(r->elapsed_s, 3 * (0.5 + steps * 0.120), 1e-9);
    for (const AcceleratorResult& a : r->per_accelerator) {
      EXPECT_NEAR(a.first_wait_s, 0.5, 1e-9);
      EXPECT_NEAR(a.wait_s, 3 * 0.5, 1e-9);  // every epoch's first step waits 0.5 s, no other
    }
  }
}

// reader.startup_spread: the accelerators begin each epoch apart (DDP ranks forking their
// DataLoader workers one after another). Two accelerators, a fixed spread of 0.3 s after a 0.5 s
// startup: per epoch one accelerator's first batch comes at 0.5 s, the other's at 0.8 s, then each
// takes its 5 steps back to back; the epoch lasts as long as the later one, 0.8 + 5 x 0.12 s.
// Which of the two starts late changes from epoch to epoch (seeded; with this job's seed neither
// is late in all 4 epochs).
TEST(Runner, ReaderStartupSpreadStartsTheAcceleratorsApart) {
  Job job = small_job("/nonexistent/fake", 40, Distribution::fixed_at(10000));
  job.compute.step_time = Distribution::fixed_at(0.120);
  job.run.epochs = 4;
  job.run.accelerators = 2;
  job.reader.startup_s = 0.5;
  job.reader.startup_spread = Distribution::fixed_at(0.3);
  Result<Report> r = run_fake(job);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->steps, 4u * 5u);  // per accelerator: 20 samples an epoch in batches of 4
  EXPECT_NEAR(r->elapsed_s, 4 * (0.8 + 5 * 0.120), 1e-9);
  ASSERT_EQ(r->per_accelerator.size(), 2u);
  // Every epoch's first step waits 0.5 s on one accelerator and 0.8 s on the other.
  EXPECT_NEAR(r->per_accelerator[0].wait_s + r->per_accelerator[1].wait_s, 4 * (0.5 + 0.8), 1e-9);
  for (const AcceleratorResult& a : r->per_accelerator) {  // neither one is late every epoch
    EXPECT_GT(a.wait_s, 4 * 0.5 + 0.1);
    EXPECT_LT(a.wait_s, 4 * 0.8 - 0.1);
  }
  for (const EpochResult& e : r->epochs_detail) EXPECT_NEAR(e.seconds, 0.8 + 5 * 0.120, 1e-9);
}

// reader.warmup: each worker's first sample of an epoch takes that much longer. Three workers warm
// up at once, so the epoch's first batches (one per worker) all arrive after one warmup, not three:
// 0.25 s, then 12 steps of 0.1 s back to back; three epochs.
TEST(Runner, ReaderWarmupDelaysEachEpochsFirstBatchOncePerWorkerInParallel) {
  Job job = small_job("/nonexistent/fake", 12, Distribution::fixed_at(10000));
  job.reader.workers = 3;
  job.reader.batch_size = 1;
  job.compute.step_time = Distribution::fixed_at(0.1);
  job.run.epochs = 3;
  job.reader.warmup_s = 0.25;
  Result<Report> r = run_fake(job);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->steps, 36u);
  EXPECT_NEAR(r->elapsed_s, 3 * (0.25 + 12 * 0.1), 1e-9);
  ASSERT_EQ(r->epochs_detail.size(), 3u);
  for (const EpochResult& e : r->epochs_detail) EXPECT_NEAR(e.seconds, 0.25 + 12 * 0.1, 1e-9);
  ASSERT_EQ(r->per_accelerator.size(), 1u);
  EXPECT_NEAR(r->per_accelerator[0].first_wait_s, 0.25, 1e-9);
  EXPECT_NEAR(r->per_accelerator[0].wait_s, 3 * 0.25, 1e-9);
  // AU: 3.6 s of compute over the run less the first wait.
  EXPECT_NEAR(r->au, 3.6 / (3 * 1.45 - 0.25), 1e-9);
}

// reader.preprocess: a worker processes its samples one after another after reading each; the
// workers (of every accelerator) process in parallel. 8 samples per accelerator, batch 1,
// 100 ms each, no compute: W workers take 8 x 100 ms / W.
TEST(Runner, ReaderPreprocessRunsOnEveryWorkerInParallel) {
  for (std::uint32_t accelerators : {1u, 2u})
    for (std::uint32_t workers : {1u, 2u, 4u, 8u}) {
      SCOPED_TRACE("accelerators " + std::to_string(accelerators) + ", workers " +
                   std::to_string(workers));
      Job job = small_job("/nonexistent/fake", 8 * accelerators, Distribution::fixed_at(10000));
      job.run.accelerators = accelerators;
      job.reader.workers = workers;
      job.reader.batch_size = 1;
      job.reader.preprocess = Distribution::fixed_at(0.100);
      const auto t0 = std::chrono::steady_clock::now();
      Result<Report> r = run_fake(job);
      ASSERT_TRUE(r) << r.error().message;
      EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(3))
          << "fake time must cost no real time";
      EXPECT_EQ(r->samples, 8u * accelerators);
      EXPECT_NEAR(r->elapsed_s, 0.8 / workers, 1e-9);
      EXPECT_NEAR(r->samples_per_s, 8.0 * accelerators / (0.8 / workers), 1e-6);
    }
}

// reader.worker_pace: each worker's preprocess (and collate) is its factor times the job's, so
// the slowest worker ends the pass. 8 samples a worker set, batch 1, 100 ms each, no compute:
// with 2 workers at 0.5 and 1.5 the slow one takes 4 x 150 ms; with 4 workers the factors are
// the job's quantiles (0.5, 0.5, 1.5, 1.5 of [0.5, 1.5]): 2 x 150 ms. Without a pace: 8 x 100 / W.
TEST(Runner, TheSlowestWorkersPaceEndsThePass) {
  for (std::uint32_t workers : {2u, 4u})
    for (bool paced : {false, true}) {
      SCOPED_TRACE("workers " + std::to_string(workers) + (paced ? ", paced" : ""));
      Job job = small_job("/nonexistent/fake", 8, Distribution::fixed_at(10000));
      job.reader.workers = workers;
      job.reader.batch_size = 1;
      job.reader.preprocess = Distribution::fixed_at(0.100);
      if (paced) job.reader.worker_pace = {0.5, 1.5};
      Result<Report> r = run_fake(job);
      ASSERT_TRUE(r) << r.error().message;
      EXPECT_EQ(r->samples, 8u);
      EXPECT_NEAR(r->elapsed_s, (paced ? 1.5 : 1.0) * 0.8 / workers, 1e-9);
    }
}

// Data-bound and compute together, one accelerator, 2 workers, batch 2, 8 samples, preprocess
// 100 ms, compute 50 ms. Each worker reads its 4 samples at once and processes them back to back,
// so its batches are ready at 0.2 and 0.4 s. Batches alternate between workers:
//   step 0 (worker 0): ready 0.20, computes to 0.25      step 1 (worker 1): ready 0.20, 0.25-0.30
//   step 2 (worker 0): ready 0.40, computes to 0.45      step 3 (worker 1): ready 0.40, 0.45-0.50
// The run lasts 0.5 s; waits: 0.2 (first) + 0.1 (step 2); AU = 0.2 / (0.5 - 0.2).
TEST(Runner, TwoWorkersScheduleIsExact) {
  Job job = small_job("/nonexistent/fake", 8, Distribution::fixed_at(10000));
  job.reader.workers = 2;
  job.reader.batch_size = 2;
  job.reader.preprocess = Distribution::fixed_at(0.100);
  job.compute.step_time = Distribution::fixed_at(0.050);
  Result<Report> r = run_fake(job);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->steps, 4u);
  EXPECT_NEAR(r->elapsed_s, 0.5, 1e-9);
  ASSERT_EQ(r->per_accelerator.size(), 1u);
  const AcceleratorResult& a = r->per_accelerator[0];
  EXPECT_NEAR(a.first_wait_s, 0.2, 1e-9);
  EXPECT_NEAR(a.wait_s, 0.3, 1e-9);
  EXPECT_NEAR(a.compute_s, 0.2, 1e-9);
  EXPECT_NEAR(a.wall_s, 0.3, 1e-9);
  EXPECT_NEAR(r->au, 2.0 / 3.0, 1e-9);
  EXPECT_NEAR(r->samples_per_s, 8 / 0.5, 1e-6);
  EXPECT_NEAR(r->compute.mean_abs_error_s, 0, 1e-12);
}

// reader.collate: a worker spends it on each batch after the batch's last sample is processed,
// before handing it over, and processes nothing else meanwhile; workers collate in parallel.
// 8 samples per accelerator, batch 2 (4 batches), preprocess 100 ms a sample, collate 50 ms a
// batch, no compute: W workers take 4 x (2 x 100 + 50) ms / W, whatever the accelerators.
TEST(Runner, ReaderCollateRunsOncePerBatchOnEveryWorkerInParallel) {
  for (std::uint32_t accelerators : {1u, 2u})
    for (std::uint32_t workers : {1u, 2u, 4u}) {
      SCOPED_TRACE("accelerators " + std::to_string(accelerators) + ", workers " +
                   std::to_string(workers));
      Job job = small_job("/nonexistent/fake", 8 * accelerators, Distribution::fixed_at(10000));
      job.run.accelerators = accelerators;
      job.reader.workers = workers;
      job.reader.batch_size = 2;
      job.reader.preprocess = Distribution::fixed_at(0.100);
      job.reader.collate = Distribution::fixed_at(0.050);
      Result<Report> r = run_fake(job);
      ASSERT_TRUE(r) << r.error().message;
      EXPECT_EQ(r->steps, 4u);  // steps of the run; each accelerator takes one a step
      EXPECT_NEAR(r->elapsed_s, 4 * 0.250 / workers, 1e-9);
      EXPECT_NEAR(r->samples_per_s, 8.0 * accelerators / (1.0 / workers), 1e-6);
    }
}

// The same schedule as TwoWorkersScheduleIsExact with collate 20 ms a batch: each worker's
// batches are ready at 0.22 and 0.44 s (2 x 0.1 + 0.02, then again):
//   step 0 (worker 0): 0.22-0.27   step 1 (worker 1): 0.27-0.32
//   step 2 (worker 0): 0.44-0.49   step 3 (worker 1): 0.49-0.54
// waits 0.22 + 0.12; AU = 0.2 / (0.54 - 0.22). Collate alone (no preprocess) still delays.
TEST(Runner, CollateDelaysEachBatchAfterItsSamples) {
  Job job = small_job("/nonexistent/fake", 8, Distribution::fixed_at(10000));
  job.reader.workers = 2;
  job.reader.batch_size = 2;
  job.reader.preprocess = Distribution::fixed_at(0.100);
  job.reader.collate = Distribution::fixed_at(0.020);
  job.compute.step_time = Distribution::fixed_at(0.050);
  Result<Report> r = run_fake(job);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->steps, 4u);
  EXPECT_NEAR(r->elapsed_s, 0.54, 1e-9);
  ASSERT_EQ(r->per_accelerator.size(), 1u);
  EXPECT_NEAR(r->per_accelerator[0].first_wait_s, 0.22, 1e-9);
  EXPECT_NEAR(r->per_accelerator[0].wait_s, 0.34, 1e-9);
  EXPECT_NEAR(r->au, 0.2 / 0.32, 1e-9);
  job.reader.preprocess = Distribution::fixed_at(0);
  r = run_fake(job);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_NEAR(r->per_accelerator[0].first_wait_s, 0.02, 1e-9);
}

// reader.workers = 0 (PyTorch's num_workers=0): each accelerator loads its own batches and
// computes, one after the other. 6 samples per accelerator, batch 2, preprocess 100 ms a sample,
// compute 50 ms a step:
//   load 0.00-0.20, compute 0.20-0.25, load 0.25-0.45, compute 0.45-0.50, load 0.50-0.70,
//   compute 0.70-0.75: 0.75 s; waits 0.2 + 0.2 + 0.2, AU = 0.15 / (0.75 - 0.2).
// With one worker the loader runs ahead instead: batches ready at 0.2, 0.4, 0.6, the last step
// ends at 0.65. The same on every accelerator, whatever their number.
TEST(Runner, SynchronousLoadingNeverOverlapsCompute) {
  for (std::uint32_t accelerators : {1u, 3u})
    for (std::uint32_t workers : {0u, 1u}) {
      SCOPED_TRACE("accelerators " + std::to_string(accelerators) + ", workers " +
                   std::to_string(workers));
      Job job = small_job("/nonexistent/fake", 6 * accelerators, Distribution::fixed_at(10000));
      job.run.accelerators = accelerators;
      job.reader.workers = workers;
      job.reader.batch_size = 2;
      job.reader.preprocess = Distribution::fixed_at(0.100);
      job.compute.step_time = Distribution::fixed_at(0.050);
      job.reader.iodepth = 0;  // the default: 1 for a synchronous loader
      ASSERT_TRUE(validate(job).empty());
      Result<Report> r = run_fake(job);
      ASSERT_TRUE(r) << r.error().message;
      EXPECT_EQ(r->steps, 3u);  // per accelerator
      const double elapsed = workers == 0 ? 0.75 : 0.65;
      EXPECT_NEAR(r->elapsed_s, elapsed, 1e-9);
      ASSERT_EQ(r->per_accelerator.size(), accelerators);
      for (const AcceleratorResult& a : r->per_accelerator) {
        EXPECT_NEAR(a.first_wait_s, 0.2, 1e-9);
        EXPECT_NEAR(a.wait_s, workers == 0 ? 0.6 : 0.5, 1e-9);
        EXPECT_NEAR(a.compute_s, 0.15, 1e-9);
      }
      EXPECT_NEAR(r->au, 0.15 / (elapsed - 0.2), 1e-9);
      EXPECT_NEAR(r->samples_per_s, 6.0 * accelerators / elapsed, 1e-6);
      if (workers == 0) {
        EXPECT_EQ(r->iodepth, 1u);
      }
    }
}

// The same schedules with the time spent in I/O instead of preprocessing: each sample is one
// request that the device (the null engine) completes 100 ms after its issue, iodepth 1. With
// workers = 0 loading and compute alternate (0.75 s); one worker runs ahead (0.65 s); two workers
// read two batches at once: batches ready at 0.2, 0.2, 0.4, the last step ends at 0.45 s. Every
// request's latency is the device's 100 ms.
TEST(Runner, DeviceLatencyIsDataWaitAndOverlapsAcrossWorkers) {
  for (std::uint32_t accelerators : {1u, 3u})
    for (std::uint32_t workers : {0u, 1u, 2u}) {
      SCOPED_TRACE("accelerators " + std::to_string(accelerators) + ", workers " +
                   std::to_string(workers));
      Job job = small_job("/nonexistent/fake", 6 * accelerators, Distribution::fixed_at(10000));
      job.run.accelerators = accelerators;
      job.reader.workers = workers;
      job.reader.batch_size = 2;
      job.reader.iodepth = 1;
      job.compute.step_time = Distribution::fixed_at(0.050);
      ASSERT_TRUE(validate(job).empty());
      FakeClock clock;
      RunOptions o;
      o.engine = "null";
      o.engine_factory = fixture::null_engine_with_latency(100'000'000);
      o.series = false;
      o.clock = &clock;
      Result<Report> r = run_job(job, o);
      ASSERT_TRUE(r) << r.error().message;
      EXPECT_EQ(r->steps, 3u);
      EXPECT_EQ(r->requests, 6u * accelerators);
      const double elapsed = workers == 0 ? 0.75 : workers == 1 ? 0.65 : 0.45;
      const double wait = workers == 0 ? 0.6 : workers == 1 ? 0.5 : 0.3;
      EXPECT_NEAR(r->elapsed_s, elapsed, 1e-9);
      ASSERT_EQ(r->per_accelerator.size(), accelerators);
      for (const AcceleratorResult& a : r->per_accelerator) {
        EXPECT_NEAR(a.first_wait_s, 0.2, 1e-9);
        EXPECT_NEAR(a.wait_s, wait, 1e-9);
        EXPECT_NEAR(a.compute_s, 0.15, 1e-9);
      }
      EXPECT_NEAR(r->au, 0.15 / (elapsed - 0.2), 1e-9);
      EXPECT_EQ(r->latency.count, 6u * accelerators);
      EXPECT_DOUBLE_EQ(r->latency.max_us, 100'000.0);
      EXPECT_NEAR(r->latency.p50_us, 100'000.0, 100'000.0 * 0.03125);
      EXPECT_NEAR(r->mib_per_s * r->train_seconds * 1048576.0, 60000.0 * accelerators, 1e-3);
    }
}

// compute.batch_overhead: the consumer's own per-batch cost, spent after the batch arrives and
// before compute. The schedule of TwoWorkersScheduleIsExact with 20 ms of it per step (batches 0
// and 1 ready at 0.2 s, 2 and 3 at 0.4 s):
//   0.20-0.22 cost, 0.22-0.27 compute; 0.27-0.29, 0.29-0.34; wait to 0.40; 0.40-0.42, 0.42-0.47;
//   0.47-0.49, 0.49-0.54. Host time, not accelerator compute: AU = 0.2 / (0.54 - 0.2).
TEST(Runner, BatchOverheadIsSpentBeforeComputeAndCountsAsWallNotCompute) {
  Job job = small_job("/nonexistent/fake", 8, Distribution::fixed_at(10000));
  job.reader.workers = 2;
  job.reader.batch_size = 2;
  job.reader.preprocess = Distribution::fixed_at(0.100);
  job.compute.step_time = Distribution::fixed_at(0.050);
  job.compute.batch_overhead = Distribution::fixed_at(0.020);
  Result<Report> r = run_fake(job);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->steps, 4u);
  EXPECT_NEAR(r->elapsed_s, 0.54, 1e-9);
  ASSERT_EQ(r->per_accelerator.size(), 1u);
  const AcceleratorResult& a = r->per_accelerator[0];
  EXPECT_NEAR(a.first_wait_s, 0.2, 1e-9);
  EXPECT_NEAR(a.wait_s, 0.2 + 0.06, 1e-9);
  EXPECT_NEAR(a.compute_s, 0.2, 1e-9);
  EXPECT_NEAR(a.wall_s, 0.34, 1e-9);
  EXPECT_NEAR(r->au, 0.2 / 0.34, 1e-9);
  // The law still holds: AU x wall = steps x compute <= ceil(samples / batch) x compute.
  EXPECT_NEAR(r->au * a.wall_s, 4 * 0.050, 1e-9);
  // Compute is measured from the end of the cost: configured and measured agree.
  EXPECT_NEAR(r->compute.measured_mean_s, 0.050, 1e-9);
  EXPECT_NEAR(r->compute.mean_abs_error_s, 0, 1e-12);
}

// run.sync_steps (DDP): a step ends when every accelerator has computed it, so the run takes the
// sum over steps of the slowest accelerator's compute instead of the slowest accelerator's sum.
// 3 accelerators, compute drawn per accelerator from uniform(10, 50) ms, data free.
TEST(Runner, SyncStepsEndEveryStepOnTheSlowestAccelerator) {
  auto run = [](bool sync) {
    Job job = small_job("/nonexistent/fake", 3 * 16, Distribution::fixed_at(10000));
    job.run.accelerators = 3;
    job.reader.batch_size = 2;
    job.compute.step_time = uniform(0.010, 0.050);
    job.run.sync_steps = sync;
    Result<Report> r = run_fake(job);
    EXPECT_TRUE(r) << r.error().message;
    return *r;
  };
  const Report free_running = run(false), synced = run(true);
  ASSERT_EQ(synced.per_accelerator.size(), 3u);
  double slowest_sum = 0;
  for (std::size_t a = 0; a < 3; ++a) {
    // The same compute draws either way: only the waiting differs.
    EXPECT_NEAR(synced.per_accelerator[a].compute_s, free_running.per_accelerator[a].compute_s,
                1e-9);
    slowest_sum = std::max(slowest_sum, free_running.per_accelerator[a].compute_s);
    // Every accelerator ends its last step at the same moment.
    EXPECT_NEAR(synced.per_accelerator[a].wall_s, synced.per_accelerator[0].wall_s, 1e-9);
  }
  EXPECT_NEAR(free_running.elapsed_s, slowest_sum, 1e-6);
  EXPECT_GT(synced.elapsed_s, free_running.elapsed_s + 0.01);
  EXPECT_LT(synced.au, free_running.au);
}

// Two accelerators with different step counts: 9 samples, batch 2, 2 workers each, preprocess
// 100 ms, compute 50 ms. Accelerator 0 gets samples 0,2,4,6,8 (batches of 2, 2, 1), accelerator 1
// samples 1,3,5,7 (2, 2). Worker 0 of accelerator 0 reads its 3 samples (batches 0 and 2) at
// once: batch 0 ready at 0.2, batch 2 at 0.3; every other batch is ready at 0.2.
//   accelerator 0: 0.20-0.25, 0.25-0.30, 0.30-0.35 -> compute 0.15 over 0.35 - 0.2: AU 1
//   accelerator 1: 0.20-0.25, 0.25-0.30, then idle to the run's end at 0.35: AU 0.1 / 0.15
TEST(Runner, TwoAcceleratorsWithDifferentStepCountsHaveExactAu) {
  Job job = small_job("/nonexistent/fake", 9, Distribution::fixed_at(10000));
  job.run.accelerators = 2;
  job.reader.workers = 2;
  job.reader.batch_size = 2;
  job.reader.preprocess = Distribution::fixed_at(0.100);
  job.compute.step_time = Distribution::fixed_at(0.050);
  Result<Report> r = run_fake(job);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_NEAR(r->elapsed_s, 0.35, 1e-9);
  ASSERT_EQ(r->per_accelerator.size(), 2u);
  EXPECT_EQ(r->per_accelerator[0].steps, 3u);
  EXPECT_EQ(r->per_accelerator[1].steps, 2u);
  EXPECT_NEAR(r->per_accelerator[0].au, 1.0, 1e-9);
  EXPECT_NEAR(r->per_accelerator[1].au, 0.1 / 0.15, 1e-9);
  EXPECT_NEAR(r->au, 0.1 / 0.15, 1e-9);
  EXPECT_NEAR(r->au_mean, (1.0 + 0.1 / 0.15) / 2, 1e-9);
  EXPECT_NEAR(r->per_accelerator[0].wait_s, 0.2, 1e-9);
  EXPECT_NEAR(r->per_accelerator[1].wait_s, 0.2, 1e-9);
  EXPECT_EQ(r->samples, 9u);
  EXPECT_NEAR(r->samples_per_s, 9 / 0.35, 1e-6);
}

// Step checkpoints are a barrier over the accelerators, and the barrier waits through the clock:
// a fast accelerator held at the barrier must let time run for the slow one's data. 11 samples,
// batch 4, one worker each, preprocess 100 ms, compute 50 ms, a checkpoint after every step
// (writing costs no fake time). Accelerator 0 reads 6 samples (batches 4, 2): ready at 0.4, 0.6;
// accelerator 1 reads 5 (4, 1): ready at 0.4, 0.5.
//   step 0: both compute 0.40-0.45, checkpoint at 0.45
//   step 1: accelerator 1 computes 0.50-0.55 and waits at the barrier until accelerator 0
//           computed 0.60-0.65; checkpoint at 0.65; the run ends at 0.65.
TEST(Runner, StepCheckpointBarrierWaitsInFakeTime) {
  TempDir tmp("dlgen-ckpt-time");
  Job job = small_job("/nonexistent/fake", 11, Distribution::fixed_at(10000));
  job.run.accelerators = 2;
  job.reader.workers = 1;
  job.reader.batch_size = 4;
  job.reader.preprocess = Distribution::fixed_at(0.100);
  job.compute.step_time = Distribution::fixed_at(0.050);
  tiny_checkpoints(job, tmp / "ck", 1);
  Result<Report> r = run_fake(job);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->checkpoint.count, 2u);
  EXPECT_NEAR(r->elapsed_s, 0.65, 1e-9);
  ASSERT_EQ(r->per_accelerator.size(), 2u);
  for (const AcceleratorResult& a : r->per_accelerator) {
    EXPECT_EQ(a.steps, 2u);
    EXPECT_NEAR(a.first_wait_s, 0.4, 1e-9);
    EXPECT_NEAR(a.wall_s, 0.25, 1e-9);
    EXPECT_NEAR(a.au, 0.1 / 0.25, 1e-9);
  }
  EXPECT_NEAR(r->per_accelerator[0].wait_s, 0.4 + 0.15, 1e-9);  // data for step 1 at 0.6
  EXPECT_NEAR(r->per_accelerator[1].wait_s, 0.4 + 0.05, 1e-9);  // data for step 1 at 0.5
  // The barrier wait is not compute: every step measured its configured 50 ms.
  EXPECT_NEAR(r->compute.mean_abs_error_s, 0, 1e-12);
}

// The fake clock makes a multi-threaded run deterministic: the same job gives the same times.
TEST(Runner, FakeClockRunsAreRepeatable) {
  TempDir tmp("dlgen-repeat");
  Job job = small_job("/nonexistent/fake", 37, Distribution::fixed_at(10000));
  job.run.accelerators = 3;
  job.reader.workers = 3;
  job.reader.batch_size = 2;
  job.reader.startup_s = 0.03;
  job.reader.warmup_s = 0.02;
  job.reader.preprocess = uniform(0.001, 0.02);
  job.compute.step_time = uniform(0.005, 0.015);
  job.run.epochs = 2;
  tiny_checkpoints(job, tmp / "ck", 2);
  Result<Report> first = run_fake(job);
  ASSERT_TRUE(first) << first.error().message;
  for (int i = 0; i < 10; ++i) {
    Result<Report> r = run_fake(job);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->elapsed_s, first->elapsed_s);
    EXPECT_EQ(r->au, first->au);
    for (std::size_t a = 0; a < 3; ++a)
      EXPECT_EQ(r->per_accelerator[a].wait_s, first->per_accelerator[a].wait_s);
  }
}

TEST(Runner, EvaluationPassesReadTheValidationSet) {
  Job job = small_job("/nonexistent/train", 16, Distribution::fixed_at(1000));
  DatasetSpec v = job.dataset;
  v.dir = "/nonexistent/valid";
  v.num_files = 6;
  v.sample_size = Distribution::fixed_at(500);
  job.validation = v;
  job.run.epochs = 4;
  job.run.eval_every_epochs = 2;
  job.compute.step_time = Distribution::fixed_at(0.05);
  Result<Report> r = run_fake(job);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->epochs_detail.size(), 6u);  // 4 epochs + 2 evaluation passes
  EXPECT_FALSE(r->epochs_detail[1].eval);
  EXPECT_TRUE(r->epochs_detail[2].eval);
  EXPECT_EQ(r->epochs_detail[2].epoch, 2u);
  EXPECT_EQ(r->epochs_detail[2].samples, 6u);
  EXPECT_EQ(r->epochs_detail[2].bytes, 6u * 500u);
  EXPECT_EQ(r->samples, 4u * 16u);  // training samples only
  EXPECT_EQ(r->bytes_read, 4u * 16u * 1000u + 2u * 6u * 500u);
}

// compute.eval_time: evaluation steps take their own compute time (forward only), training steps
// theirs; the pass durations and every accelerator's compute show which was spent where.
TEST(Runner, EvaluationStepsTakeTheEvaluationComputeTime) {
  Job job = small_job("/nonexistent/train", 16, Distribution::fixed_at(1000));  // 4 steps of 4
  DatasetSpec v = job.dataset;
  v.dir = "/nonexistent/valid";
  v.num_files = 8;  // 2 steps of 4
  job.validation = v;
  job.run.epochs = 2;
  job.run.eval_every_epochs = 1;
  job.reader.workers = 2;
  job.compute.step_time = Distribution::fixed_at(0.1);
  job.compute.eval_time = Distribution::fixed_at(0.02);
  Result<Report> r = run_fake(job);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->epochs_detail.size(), 4u);
  EXPECT_NEAR(r->epochs_detail[0].seconds, 4 * 0.1, 1e-9);
  EXPECT_NEAR(r->epochs_detail[1].seconds, 2 * 0.02, 1e-9);  // was 2 x 0.1 with one compute time
  ASSERT_EQ(r->per_accelerator.size(), 1u);
  EXPECT_NEAR(r->per_accelerator[0].compute_s, 2 * (4 * 0.1 + 2 * 0.02), 1e-9);
  EXPECT_NEAR(r->eval_seconds, 2 * 2 * 0.02, 1e-9);
}

TEST(Runner, MaxTimeStopsTheRunEarly) {
  Job job = small_job("/nonexistent/maxtime", 400, Distribution::fixed_at(100));
  job.compute.step_time = Distribution::fixed_at(0.1);  // 100 steps of 0.1 s an epoch
  job.run.epochs = 3;
  job.run.max_seconds = 1.0;
  Result<Report> r = run_fake(job);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->epochs_detail.size(), 1u);
  EXPECT_EQ(r->steps, 10u);  // the 10th step ends at 1.0 s: the deadline
  EXPECT_NEAR(r->elapsed_s, 1.0, 1e-9);
  ASSERT_FALSE(r->warnings.empty());
  EXPECT_NE(r->warnings.back().find("max_time"), std::string::npos);
}

// dlgen's own work between epochs (run.cache = "drop_epoch": opens, fadvise, sync, drop_caches,
// and planning the next epoch) is no storage time: on the fake clock each drop takes 0.5 s, and AU
// stays 1 with the drops' time reported apart (before the fix it was 3.6 / 4.6 s).
TEST(Runner, CacheDropsBetweenEpochsAreLeftOutOfAu) {
  for (std::uint32_t accelerators : {1u, 3u}) {
    Job job = small_job("/nonexistent/harness", 40 * accelerators, Distribution::fixed_at(100));
    job.compute.step_time = Distribution::fixed_at(0.120);
    job.run.epochs = 3;
    job.run.accelerators = accelerators;
    job.run.cache = CacheMode::drop_epoch;
    FakeClock clock;
    RunOptions o;
    o.engine = "null";
    o.series = false;
    o.clock = &clock;
    o.drop_caches_globally = false;
    int windows = 0;
    o.between_passes = [&] {
      ++windows;
      clock.advance(500'000'000);  // a slow cache drop
    };
    Result<Report> r = run_job(job, o);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(windows, 3);  // before each epoch; the first lies before the first batch
    EXPECT_NEAR(r->elapsed_s, 3 * 10 * 0.120 + 1.5, 1e-6);  // the run's clock includes it
    ASSERT_EQ(r->per_accelerator.size(), accelerators);
    for (const AcceleratorResult& a : r->per_accelerator) {
      EXPECT_NEAR(a.wall_s, 3 * 10 * 0.120, 1e-6);
      EXPECT_NEAR(a.harness_s, 1.0, 1e-6);
      EXPECT_NEAR(a.epoch_start_wait_s, 0, 1e-9);
    }
    EXPECT_DOUBLE_EQ(r->au, 1.0);
    EXPECT_EQ(r->verdict, "PASS");
  }
}

// reader.startup (worker start-up each epoch) is a wait at every epoch start: AU's loss is split
// into epoch-start and in-epoch waits, and a FAIL says the epoch starts dominated.
TEST(Runner, AuLossNamesEpochStartWaits) {
  Job job = small_job("/nonexistent/startloss", 12, Distribution::fixed_at(100));
  job.compute.step_time = Distribution::fixed_at(0.1);  // 3 steps an epoch
  job.reader.startup_s = 0.2;
  job.run.epochs = 3;
  job.compute.au_threshold = 0.9;
  Result<Report> r = run_fake(job);
  ASSERT_TRUE(r) << r.error().message;
  const AcceleratorResult& a = r->au_loss;
  EXPECT_NEAR(a.epoch_start_wait_s, 2 * 0.2, 1e-6);  // the first epoch's start is first_wait
  EXPECT_NEAR(a.in_epoch_wait_s, 0, 1e-9);
  EXPECT_NEAR(a.compute_s + a.epoch_start_wait_s + a.in_epoch_wait_s + a.other_loss_s, a.wall_s,
              1e-6);
  EXPECT_FALSE(r->passed);  // 0.9 / 1.3
  EXPECT_NE(r->verdict.find("epoch starts"), std::string::npos) << r->verdict;
  EXPECT_EQ(r->verdict.find("the storage could not"), std::string::npos) << r->verdict;
  EXPECT_NE(format_summary(*r).find("AU loss"), std::string::npos);
}

// reader.eval_startup: each evaluation pass's readers begin that long after it starts (its own
// DataLoader's start-up), training passes' after reader.startup; the accelerators wait meanwhile.
TEST(Runner, EvaluationPassesWaitTheirOwnStartup) {
  Job job = small_job("/nonexistent/evalstart", 12, Distribution::fixed_at(100));
  DatasetSpec v = job.dataset;
  v.dir = "/nonexistent/evalstart-val";
  v.num_files = 4;  // 1 step of 4
  job.validation = v;
  job.compute.step_time = Distribution::fixed_at(0.1);  // 3 steps an epoch
  job.run.epochs = 2;
  job.run.eval_every_epochs = 1;
  job.reader.startup_s = 0.02;
  job.reader.eval_startup_s = 0.3;
  Result<Report> r = run_fake(job);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->epochs_detail.size(), 4u);
  ASSERT_TRUE(r->epochs_detail[1].eval);
  // The pass's wall holds its start-up: 0.3 s, then one step of 0.1 s (was 0.02 + 0.1).
  EXPECT_GT(r->epochs_detail[1].seconds, 0.3 + 0.1 - 1e-6);
  EXPECT_LT(r->epochs_detail[1].seconds, 0.3 + 0.1 + 0.01);
  EXPECT_LT(r->epochs_detail[2].seconds, 0.02 + 3 * 0.1 + 0.01);
  job.reader.eval_startup_s.reset();
  Result<Report> same = run_fake(job);
  ASSERT_TRUE(same) << same.error().message;
  EXPECT_LT(same->epochs_detail[1].seconds, 0.02 + 0.1 + 0.01);
  EXPECT_NEAR(r->elapsed_s - same->elapsed_s, 2 * (0.3 - 0.02), 0.01);
}

// An interrupt (SIGINT/SIGTERM in the CLI) stops the run after the steps in hand: the report holds
// what ran, says so, and counts the whole epochs. Here it comes as the second epoch's threads
// start.
TEST(Runner, InterruptStopsTheRunAndReportsWhatRan) {
  Job job = small_job("/nonexistent/interrupt", 40, Distribution::fixed_at(100));
  job.compute.step_time = Distribution::fixed_at(0.1);  // 10 steps an epoch
  job.reader.workers = 2;
  job.run.epochs = 4;
  FakeClock clock;
  StopSource stop;
  RunOptions o;
  o.engine = "null";
  o.series = false;
  o.clock = &clock;
  o.stop = &stop;
  std::size_t started = 0;
  o.before_thread_start = [&](std::size_t) {
    if (++started == 3 + 1) stop.request();  // epoch 2's first thread (2 workers + 1 accelerator)
  };
  Result<Report> r = run_job(job, o);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->interrupted);
  EXPECT_EQ(r->epochs_completed, 1u);
  EXPECT_EQ(r->steps, 10u);
  EXPECT_EQ(r->samples, 40u);
  EXPECT_NEAR(r->elapsed_s, 1.0, 1e-6);
  EXPECT_DOUBLE_EQ(r->au, 1.0);
  const nlohmann::json j = nlohmann::json::parse(to_json(*r));
  EXPECT_TRUE(j.at("interrupted").get<bool>());
  EXPECT_EQ(j.at("epochs_completed").get<int>(), 1);
  EXPECT_NE(format_summary(*r).find("INTERRUPTED after 1 of 4"), std::string::npos);
}

TEST(Runner, CacheDropModesRunOnRealFiles) {
  TempDir tmp("dlgen-cache");
  Job job = small_job(tmp / "data", 12, Distribution::fixed_at(8192));
  job.run.epochs = 2;
  job.run.cache = CacheMode::drop_epoch;
  write_dataset(job.dataset);
  RunOptions o;
  o.engine = "pread";
  o.series = false;
  o.drop_caches_globally = false;  // fadvise only: do not disturb the rest of the machine
  Result<Report> r = run_job(job, o);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->bytes_read, 2u * 12u * 8192u);
  EXPECT_EQ(r->cache_mode, "drop_epoch");
}

TEST(Runner, ChunkedReadsAndHeaderRequests) {
  Job job = small_job("/nonexistent/chunks", 10, Distribution::fixed_at(100000));
  job.reader.request_size_bytes = 32768;  // 100000 B → 4 requests
  job.reader.header_read_bytes = 128;     // + 1 header request
  Result<Report> r = run_fake(job);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->requests, 10u * 5u);
  EXPECT_EQ(r->bytes_read, 10u * 100000u);  // the header range is not read twice
}

// `job` in fake time, its reads on the null engine (the workers' factory) and its checkpoints
// through the run's engine, pread: real files.
Result<Report> run_writing_checkpoints(const Job& job) {
  FakeClock clock;
  RunOptions o;
  o.engine = "pread";
  o.engine_factory = fixture::null_engine_with_latency(0);
  o.series = false;
  o.clock = &clock;
  return run_job(job, o);
}

TEST(Runner, StepCheckpointsAreWrittenWithTheirSizes) {
  TempDir tmp("dlgen-ckpt");
  Job job = small_job("/nonexistent/ck", 32, Distribution::fixed_at(1000));
  job.run.accelerators = 2;
  job.run.epochs = 2;  // 4 steps an epoch per accelerator
  job.checkpoint.enabled = true;
  job.checkpoint.every_steps = 3;
  job.checkpoint.every_epochs = 2;
  job.checkpoint.size_bytes = 3 * 1000 * 1000 + 1;
  job.checkpoint.files = 3;
  job.checkpoint.write_size_bytes = 65536;
  job.checkpoint.fsync = false;
  job.checkpoint.dir = tmp / "ck";
  // Reads on the null engine (the workers' factory), checkpoints through the run's engine, pread:
  // real files (the null engine would write none, see the test below).
  Result<Report> r = run_writing_checkpoints(job);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->checkpoint.count, 2u + 1u);  // steps 3 and 6 of 8, and after epoch 2
  EXPECT_EQ(r->checkpoint.bytes, 3 * job.checkpoint.size_bytes);
  const auto paths = checkpoint_paths(job.checkpoint);
  ASSERT_EQ(paths.size(), 3u);
  std::uint64_t total = 0;
  for (const auto& p : paths) total += std::filesystem::file_size(p);
  EXPECT_EQ(total, job.checkpoint.size_bytes);
  EXPECT_EQ(std::filesystem::file_size(paths[0]), 1000001u);
  EXPECT_EQ(std::filesystem::file_size(paths[2]), 1000000u);
}

// checkpoint.final_size: after the last epoch's checkpoint, a final save of its own files and
// size, one more checkpoint in the report.
TEST(Runner, FinalSaveIsWrittenAfterTheLastEpoch) {
  TempDir tmp("dlgen-final");
  Job job = small_job("/nonexistent/ck", 32, Distribution::fixed_at(1000));
  job.run.epochs = 2;
  job.checkpoint.enabled = true;
  job.checkpoint.every_epochs = 1;
  job.checkpoint.size_bytes = 3000;
  job.checkpoint.final_size_bytes = 1001;
  job.checkpoint.final_files = 2;
  job.checkpoint.fsync = false;
  job.checkpoint.dir = tmp / "ck";
  Result<Report> r = run_writing_checkpoints(job);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->checkpoint.count, 3u);
  EXPECT_EQ(r->checkpoint.bytes, 2 * 3000u + 1001u);
  const auto finals = final_shards(job.checkpoint);
  ASSERT_EQ(finals.size(), 2u);
  EXPECT_EQ(std::filesystem::file_size(finals[0].path), 501u);
  EXPECT_EQ(std::filesystem::file_size(finals[1].path), 500u);
  EXPECT_EQ(checkpoint_count(job, 4), 3u);
}

// A [model] sizes the checkpoints written during training: each accelerator writes its rank's
// shard files (DeepSpeed's names), their bytes as core/llm.hpp gives them, at every checkpoint.
TEST(Runner, LlmCheckpointsDuringTrainingWriteEveryAcceleratorsShards) {
  TempDir tmp("dlgen-llm-ckpt");
  Job job = small_job("/nonexistent/ck", 32, Distribution::fixed_at(1000));
  job.run.accelerators = 2;  // 4 steps an epoch per accelerator
  LlmModel m;
  m.num_layers = 2;
  m.hidden_size = 64;
  m.ffn_hidden_size = 128;
  m.vocab_size = 1000;
  m.attention_heads = 4;
  m.kv_heads = 4;
  m.data = 2;  // DP 2 = the two accelerators
  m.zero_stage = 3;
  job.model = m;
  job.checkpoint.enabled = true;
  job.checkpoint.every_steps = 2;
  job.checkpoint.write_size_bytes = 65536;
  job.checkpoint.fsync = false;
  job.checkpoint.dir = tmp / "ck";
  ASSERT_TRUE(validate(job).empty()) << validate(job).front().message;
  Result<Report> r = run_writing_checkpoints(job);
  ASSERT_TRUE(r) << r.error().message;
  const std::vector<RankShard> shards = training_shards(job);
  ASSERT_EQ(shards.size(), 2u);
  const std::uint64_t one = checkpoint_bytes(shards);
  EXPECT_EQ(r->checkpoint.count, 2u);  // steps 2 and 4
  EXPECT_EQ(r->checkpoint.bytes, 2 * one);
  std::uint64_t files = 0;
  for (const RankShard& s : shards)
    for (const ShardFile& f : s.files) {
      ++files;
      ASSERT_TRUE(std::filesystem::exists(tmp / "ck" / f.name)) << f.name;
      EXPECT_EQ(std::filesystem::file_size(tmp / "ck" / f.name), f.bytes) << f.name;
    }
  EXPECT_EQ(files, 4u);  // ZeRO 3: model and optimizer states of each rank
  EXPECT_EQ(r->checkpoint.files, 2 * files);
  // The plan says the same: this host's shards, 2 checkpoints.
  const PlanSummary p = summarize_plan(job);
  EXPECT_EQ(p.checkpoints, 2u);
  EXPECT_EQ(p.checkpoint_size, one);
  EXPECT_EQ(p.checkpoint_files, files);
  // Of two hosts, the second holds ranks 2 and 3: beyond a world of 2 it writes nothing.
  EXPECT_TRUE(training_shards(job, 1).empty());
  EXPECT_EQ(checkpoint_shards(job, 2).size(), files);
}

// --engine applies to checkpoints: the null engine touches no storage, so it counts the
// checkpoints' bytes and writes no file.
TEST(Runner, NullEngineCheckpointsCountBytesAndWriteNoFile) {
  TempDir tmp("dlgen-ckpt");
  Job job = small_job("/nonexistent/ck", 8, Distribution::fixed_at(1000));
  job.checkpoint.enabled = true;
  job.checkpoint.every_epochs = 1;
  job.checkpoint.size_bytes = 100000;
  job.checkpoint.fsync = false;
  job.checkpoint.dir = tmp / "ck";
  Result<Report> r = run_fake(job);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->checkpoint.count, 1u);
  EXPECT_EQ(r->checkpoint.bytes, 100000u);
  EXPECT_FALSE(std::filesystem::exists(checkpoint_paths(job.checkpoint)[0]));
}

TEST(Runner, RestoreReadsTheCheckpointBack) {
  TempDir tmp("dlgen-restore");
  CheckpointSpec c;
  c.enabled = true;
  c.size_bytes = 2 << 20;
  c.files = 2;
  c.write_size_bytes = 1 << 20;
  c.dir = tmp / "ck";
  CheckpointResult res;
  ASSERT_TRUE(restore_checkpoint(c, res, "pread"));
  EXPECT_EQ(res.restore_bytes, 2u << 20);
  EXPECT_EQ(res.count, 0u);  // the setup write is not reported as a checkpoint
}

class RealFiles : public ::testing::TestWithParam<std::tuple<std::string, bool>> {};

TEST_P(RealFiles, ReadsExactlyTheDatasetsBytes) {
  const auto [engine, direct] = GetParam();
  if (engine == "uring" && !uring_available()) GTEST_SKIP() << "io_uring is not available here";
  TempDir tmp("dlgen-real");
  if (direct && !direct_supported(tmp.path()))
    GTEST_SKIP() << "the temp file system refuses O_DIRECT";
  Job job = small_job(tmp / "data", 60, uniform(1, 300000));  // odd sizes, some below one block
  job.dataset.files_per_dir = 16;
  job.reader.direct = direct;
  job.reader.iodepth = 8;
  job.run.epochs = 2;
  write_dataset(job.dataset);
  const datasets::Layout layout(job.dataset);
  RunOptions o;
  o.engine = engine;
  o.series = true;
  Result<Report> r = run_job(job, o);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->bytes_read, 2 * layout.total_bytes());
  EXPECT_EQ(r->samples, 120u);
  EXPECT_EQ(r->files_opened, 120u);
  EXPECT_EQ(r->requests, 120u);  // a whole file in one request
  EXPECT_EQ(r->latency.count, 120u);
  EXPECT_GT(r->latency.max_us, 0.0);
  EXPECT_GT(r->mib_per_s, 0.0);
}

// reader.probe: each file is first read `probe` bytes at 0, then from its start again.
TEST(Runner, ProbeReadsTheStartOfEachFileFirst) {
  Job job = small_job("/nonexistent/fake", 10, Distribution::fixed_at(20000));
  job.run.epochs = 1;
  Result<Report> base = run_fake(job);
  ASSERT_TRUE(base) << base.error().message;
  job.reader.probe_bytes = 4096;
  Result<Report> r = run_fake(job);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->requests, base->requests + 10);
  EXPECT_EQ(r->bytes_read, base->bytes_read + 10 * 4096);
}

// reader.readahead: each small sample is read with (at least) that many bytes from its start, as
// HDF5's sieve buffer does, clipped at the end of the file (buffered, as such libraries read).
TEST(Runner, ReadaheadReadsMoreThanEachSample) {
  for (std::string engine : {"uring", "pread"}) {
    if (engine == "uring" && !uring_available()) continue;  // the pread engine still runs
    SCOPED_TRACE(engine == "uring" ? "uring" : "pread");
    TempDir tmp("dlgen-readahead");
    Job job = small_job(tmp / "data", 4, Distribution::fixed_at(1000));
    job.dataset.samples_per_file = 10;
    job.reader.read_unit = ReadUnit::sample;
    job.reader.shuffle = Shuffle::sample;
    job.reader.readahead_bytes = 4096;
    write_dataset(job.dataset);
    const datasets::Layout layout(job.dataset);
    std::uint64_t want = 0;
    for (std::uint64_t f = 0; f < 4; ++f)
      for (std::uint32_t s = 0; s < 10; ++s) {
        const auto e = layout.sample_extent(f, s);
        want += std::min<std::uint64_t>(4096, layout.file_size(f) - e.offset);
      }
    RunOptions o;
    o.engine = engine;
    o.series = false;
    Result<Report> r = run_job(job, o);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->samples, 40u);
    EXPECT_EQ(r->requests, 40u);
    EXPECT_EQ(r->bytes_read, want);
    EXPECT_GT(r->bytes_read, 40u * 1000u);
  }
}

TEST_P(RealFiles, ReadsSampleExtentsInsideFiles) {
  const auto [engine, direct] = GetParam();
  if (engine == "uring" && !uring_available()) GTEST_SKIP() << "io_uring is not available here";
  TempDir tmp("dlgen-extent");
  if (direct && !direct_supported(tmp.path()))
    GTEST_SKIP() << "the temp file system refuses O_DIRECT";
  Job job = small_job(tmp / "data", 8, uniform(1000, 9000));
  job.dataset.samples_per_file = 5;
  job.reader.read_unit = ReadUnit::sample;
  job.reader.shuffle = Shuffle::sample;
  job.reader.direct = direct;
  job.reader.request_size_bytes = 4096;
  write_dataset(job.dataset);
  const datasets::Layout layout(job.dataset);
  std::uint64_t want = 0, requests = 0;
  for (std::uint64_t f = 0; f < 8; ++f)
    for (std::uint32_t s = 0; s < 5; ++s) {
      const auto e = layout.sample_extent(f, s);
      want += e.length;
      requests +=
          direct ? (e.offset + e.length + 4095) / 4096 - e.offset / 4096 : (e.length + 4095) / 4096;
    }
  RunOptions o;
  o.engine = engine;
  o.series = false;
  Result<Report> r = run_job(job, o);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->bytes_read, want);
  EXPECT_EQ(r->samples, 40u);
  EXPECT_EQ(r->requests, requests);
}

INSTANTIATE_TEST_SUITE_P(Engines, RealFiles,
                         ::testing::Combine(::testing::Values("uring", "pread"), ::testing::Bool()),
                         [](const auto& info) {
                           return std::string(std::get<0>(info.param)) +
                                  (std::get<1>(info.param) ? "_direct" : "_buffered");
                         });

TEST(Runner, MissingFileNamesThePathAndHowToGenerate) {
  TempDir tmp("dlgen-missing");
  Job job = small_job(tmp / "nothing", 4, Distribution::fixed_at(100));
  RunOptions o;
  o.engine = "pread";
  o.series = false;
  Result<Report> r = run_job(job, o);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find((tmp / "nothing").string()), std::string::npos)
      << r.error().message;
  EXPECT_NE(r.error().message.find("dlgen generate"), std::string::npos) << r.error().message;
}

TEST(Runner, RealClockComputeDelayIsAccurate) {
  Job job = small_job("/nonexistent/clock", 24, Distribution::fixed_at(100));
  job.compute.step_time = Distribution::fixed_at(0.004);
  RunOptions o;
  o.engine = "null";
  o.series = false;
  Result<Report> r = run_job(job, o);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->compute.steps, 6u);
  EXPECT_GE(r->compute.measured_mean_s, 0.004);  // an absolute deadline never wakes early
  EXPECT_NEAR(r->compute.configured_mean_s, 0.004, 1e-9);
}

TEST(Report, JsonHasTheFieldsScriptsRead) {
  Job job = small_job("/nonexistent/json", 16, Distribution::fixed_at(4096));
  job.compute.step_time = Distribution::fixed_at(0.01);
  Result<Report> r = run_fake(job);
  ASSERT_TRUE(r) << r.error().message;
  const auto j = nlohmann::json::parse(to_json(*r));
  for (const char* k :
       {"job", "engine", "elapsed_s", "samples", "steps", "bytes_read", "requests", "samples_per_s",
        "mib_per_s", "au", "au_threshold", "passed", "latency_us", "per_accelerator", "epochs",
        "checkpoint", "compute", "dataset", "warnings"})
    EXPECT_TRUE(j.contains(k)) << k;
  EXPECT_EQ(j["samples"].get<std::uint64_t>(), 16u);
  EXPECT_EQ(j["bytes_read"].get<std::uint64_t>(), 16u * 4096u);
  EXPECT_TRUE(j["latency_us"].contains("p99.9"));
  EXPECT_EQ(j["epochs"].size(), 1u);
  EXPECT_EQ(j["passed"].get<bool>(), true);
  EXPECT_NE(format_summary(*r).find("PASS"), std::string::npos);
}

TEST(Histogram, PercentilesWithinBucketPrecision) {
  LatencyHistogram h;
  for (std::uint64_t v = 1; v <= 100000; ++v) h.record(v * 1000);  // 1 us .. 100 ms
  EXPECT_EQ(h.count(), 100000u);
  EXPECT_EQ(h.max(), 100000u * 1000u);
  EXPECT_NEAR(static_cast<double>(h.percentile(0.5)), 50e6, 50e6 * 0.07);
  EXPECT_NEAR(static_cast<double>(h.percentile(0.99)), 99e6, 99e6 * 0.07);
  EXPECT_LE(h.percentile(1.0), h.max());
  for (std::uint64_t v : {0ull, 1ull, 15ull, 16ull, 17ull, 1000ull, 123456789ull, ~0ull}) {
    const int b = LatencyHistogram::bucket(v);
    ASSERT_LT(b, LatencyHistogram::kBuckets);
    EXPECT_LE(LatencyHistogram::bucket_low(b), v);
    if (b + 1 < LatencyHistogram::kBuckets) {
      EXPECT_GT(LatencyHistogram::bucket_low(b + 1), v);
    }
  }
}

}  // namespace
}  // namespace dlgen::replay
