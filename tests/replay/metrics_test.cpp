// The figures `dlgen run` prints, as laws: AU (MLPerf Storage's whole-run definition) against
// hand-built step records whose answer is known, AU against samples/s over a grid of job shapes
// run on the fake clock, MiB/s × seconds = bytes for training, evaluation and both, CPU arithmetic.
#include "dlgen/replay/metrics.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <nlohmann/json.hpp>

#include "dlgen/replay/runner.hpp"
#include "replay_fixture.hpp"
#include "shape_job.hpp"
#include "temp_dir.hpp"

namespace dlgen::replay {
namespace {

using fixture::null_engine_with_latency;

constexpr std::int64_t kSec = 1'000'000'000;

// A step that waited `wait` s from `t` and then computed `compute` s; returns its end.
StepRecord step_at(std::int64_t& t, double wait, double compute, std::uint32_t samples = 4) {
  StepRecord r;
  r.wait_begin = t;
  r.ready = t + static_cast<std::int64_t>(wait * kSec);
  r.compute_ns = static_cast<std::int64_t>(compute * kSec);
  r.end = r.ready + r.compute_ns;
  r.samples = samples;
  t = r.end;
  return r;
}

// The case: one or two steps an epoch, each epoch's first batch waited for. The old
// definition left out every epoch's first step and counted only in-epoch windows (AU ~100%); the
// whole-run AU counts every epoch boundary.
TEST(Metrics, AuCountsEveryEpochBoundaryNotOnlyTheFirstWait) {
  std::vector<PhaseRecord> phases;
  std::int64_t t = 0;
  for (int e = 0; e < 3; ++e) {
    PhaseRecord ph;
    ph.begin_ns = t;
    ph.steps.resize(1);
    ph.steps[0].push_back(step_at(t, 1.0, 0.5));  // the epoch's first batch: 1 s of waiting
    ph.steps[0].push_back(step_at(t, 0.0, 0.5));
    ph.end_ns = t;
    phases.push_back(std::move(ph));
  }
  const AuParts p = accelerator_utilisation(phases, 0, 0, t);
  EXPECT_DOUBLE_EQ(p.compute_s, 3.0);  // six steps of 0.5 s
  EXPECT_DOUBLE_EQ(p.first_wait_s, 1.0);
  EXPECT_DOUBLE_EQ(p.wall_s, 5.0);  // 6 s in all, the first wait left out
  EXPECT_DOUBLE_EQ(p.au(), 0.6);
  // The per-pass column: pass 1 leaves out its first wait (1.0/1.0), the others count it (1.0/2.0).
  EXPECT_DOUBLE_EQ(phase_utilisation(phases[0], true), 1.0);
  EXPECT_DOUBLE_EQ(phase_utilisation(phases[1], false), 0.5);
}

// A checkpoint written after an epoch's first step (and one between epochs) counts as wall time;
// the old arithmetic subtracted time that lay before its window, pushing AU up.
TEST(Metrics, CheckpointsCountAsWallTime) {
  std::vector<PhaseRecord> phases(1);
  std::int64_t t = 0;
  PhaseRecord& ph = phases[0];
  ph.steps.resize(1);
  StepRecord first = step_at(t, 0.5, 1.0);
  first.excluded_ns = 2 * kSec;  // the accelerators waited 2 s for a checkpoint after this step
  first.end += first.excluded_ns;
  t = first.end;
  ph.steps[0].push_back(first);
  ph.steps[0].push_back(step_at(t, 0.0, 1.0));
  ph.end_ns = t;
  const std::int64_t run_end = t + 1 * kSec;  // an end-of-epoch checkpoint of 1 s
  const AuParts p = accelerator_utilisation(phases, 0, 0, run_end);
  EXPECT_DOUBLE_EQ(p.compute_s, 2.0);
  EXPECT_DOUBLE_EQ(p.wall_s, 5.0);  // 1 + 2 (checkpoint) + 1 + 1 (checkpoint)
  EXPECT_DOUBLE_EQ(p.au(), 0.4);
  const ComputeAccuracy acc = compute_accuracy(phases);
  EXPECT_NEAR(acc.measured_mean_s, 1.0, 1e-12) << "the checkpoint wait is not compute";
}

TEST(Metrics, AnAcceleratorWithoutStepsHasAuZero) {
  std::vector<PhaseRecord> phases(1);
  phases[0].steps.resize(2);
  std::int64_t t = 0;
  phases[0].steps[0].push_back(step_at(t, 0.1, 1.0));
  const AuParts idle = accelerator_utilisation(phases, 1, 0, t);
  EXPECT_EQ(idle.compute_s, 0.0);
  EXPECT_DOUBLE_EQ(idle.wall_s, 1.1);
  EXPECT_EQ(idle.au(), 0.0);
}

// MiB/s = bytes / seconds of the same passes, for training, evaluation and both; the case:
// evaluation bytes were added to the total but evaluation seconds were not.
TEST(Metrics, MibPerSecondIsBytesOverTheSamePassesSeconds) {
  RunRecord rec;
  rec.accelerator_ids = {0};
  std::int64_t t = 0;
  rec.begin_ns = 0;
  for (int e = 0; e < 2; ++e)
    for (bool eval : {false, true}) {
      PhaseRecord ph;
      ph.epoch = static_cast<std::uint32_t>(e + 1);
      ph.eval = eval;
      ph.begin_ns = t;
      ph.steps.resize(1);
      ph.steps[0].push_back(step_at(t, 0.25, eval ? 0.5 : 1.75));
      ph.end_ns = t;  // each pass lasts 2 s (train) or 0.75 s (eval)
      ph.bytes = eval ? 3u << 20 : 8u << 20;
      ph.samples = 4;
      rec.phases.push_back(std::move(ph));
    }
  rec.end_ns = t;
  Report rep;
  compute_report(rec, rep);
  EXPECT_DOUBLE_EQ(rep.train_seconds, 4.0);
  EXPECT_DOUBLE_EQ(rep.eval_seconds, 1.5);
  EXPECT_EQ(rep.bytes_read, 22u << 20);
  EXPECT_DOUBLE_EQ(rep.train_mib_per_s * rep.train_seconds, 16.0);
  EXPECT_DOUBLE_EQ(rep.eval_mib_per_s * rep.eval_seconds, 6.0);
  EXPECT_DOUBLE_EQ(rep.mib_per_s * (rep.train_seconds + rep.eval_seconds), 22.0);
  EXPECT_DOUBLE_EQ(rep.samples_per_s, 8 / 4.0);
  EXPECT_DOUBLE_EQ(rep.eval_samples_per_s, 8 / 1.5);
  EXPECT_EQ(rep.samples, 8u);
  EXPECT_EQ(rep.eval_samples, 8u);
  ASSERT_EQ(rep.epochs_detail.size(), 4u);
  EXPECT_TRUE(rep.epochs_detail[1].eval);
}

TEST(Metrics, CpuUsageAsFioReportsIt) {
  CpuSample a, b;
  a.user_s = 1.0;
  a.system_s = 0.5;
  a.host_busy = 100;
  a.host_total = 1000;
  b.user_s = 3.0;
  b.system_s = 1.5;
  b.host_busy = 1000;
  b.host_total = 2000;
  const CpuResult c = cpu_usage(a, b, 2.0, 2);
  EXPECT_DOUBLE_EQ(c.user_s, 2.0);
  EXPECT_DOUBLE_EQ(c.system_s, 1.0);
  EXPECT_DOUBLE_EQ(c.process_percent, 75.0);  // 3 CPU-seconds of 2 s x 2 CPUs
  EXPECT_DOUBLE_EQ(c.host_busy_percent, 90.0);
  const CpuSample now = read_cpu_sample();
  EXPECT_GT(now.host_total, 0u) << "/proc/stat readable";
}

TEST(Metrics, ClientBoundWarningOnlyWhenTheHostWasSaturatedAndAuFailed) {
  RunRecord rec;
  rec.accelerator_ids = {0};
  rec.au_threshold = 0.9;
  std::int64_t t = 0;
  PhaseRecord ph;
  ph.steps.resize(1);
  ph.steps[0].push_back(step_at(t, 0.0, 1.0));
  ph.steps[0].push_back(step_at(t, 1.0, 1.0));  // AU 2/3: fails
  ph.end_ns = t;
  rec.phases.push_back(ph);
  rec.end_ns = t;
  rec.cpus = 2;
  rec.cpu_end.host_busy = 95;
  rec.cpu_end.host_total = 100;
  Report busy;
  compute_report(rec, busy);
  EXPECT_FALSE(busy.passed);
  EXPECT_TRUE(busy.client_bound);
  ASSERT_FALSE(busy.warnings.empty());
  EXPECT_NE(busy.warnings.back().find("client-bound"), std::string::npos);
  rec.cpu_end.host_busy = 40;
  Report idle;
  compute_report(rec, idle);
  EXPECT_FALSE(idle.client_bound);
}

// ---- The law over a grid of shapes, through the runner on the fake clock ----

using testing::Shape;
using testing::shape_job;

// Every request of the law runs takes this long on the fake clock (the null engine's latency).
constexpr std::int64_t kLatencyNs = 4'000'000;

// What a device of latency kLatencyNs allows: every request's latency is kLatencyNs (percentiles
// within the histogram's half bucket, 3.125%; mean and max exact), and each of the run's
// request slots (accelerators x workers x iodepth) holds one request at a time, so requests x
// latency cannot exceed slots x the run's seconds.
void expect_io_time_laws(const Report& r, const Job& job) {
  const double l_us = kLatencyNs / 1e3;
  ASSERT_GT(r.requests, 0u);
  EXPECT_EQ(r.latency.count, r.requests);
  EXPECT_DOUBLE_EQ(r.latency.max_us, l_us);
  EXPECT_NEAR(r.latency.mean_us, l_us, 1e-6);
  for (double p : {r.latency.p50_us, r.latency.p90_us, r.latency.p99_us, r.latency.p999_us})
    EXPECT_NEAR(p, l_us, l_us * 0.03125);
  const double slots = static_cast<double>(job.run.accelerators) *
                       std::max<std::uint32_t>(job.reader.workers, 1) * r.iodepth;
  EXPECT_LE(static_cast<double>(r.requests) * kLatencyNs / 1e9, slots * r.elapsed_s + 1e-9);
}

// `job` run on the fake clock through the null engine, every request taking kLatencyNs.
Result<Report> run_on_fake_clock(const Job& job) {
  FakeClock clock;
  RunOptions o;
  o.engine = "null";
  o.engine_factory = null_engine_with_latency(kLatencyNs);
  o.series = false;
  o.clock = &clock;
  return run_job(job, o);
}

// AU and samples/s can never disagree: an accelerator that took n_a samples in batches of b,
// computing c s a step, cannot have computed more than n_a/b × c in its wall time.
TEST(MetricsLaw, AuNeverExceedsWhatTheSamplesAllowAcrossShapes) {
  const std::vector<Shape> grid = {
      {1, 1, 64, 8, 3, false, false, 0.0, 0.0},     // many steps, one worker
      {1, 4, 64, 8, 3, false, false, 0.2, 0.01},    // slow start-up and reader
      {24, 4, 48, 1, 4, false, false, 0.3, 0.0},    // 24 accelerators, 2 steps an epoch
      {24, 4, 24, 1, 6, false, false, 0.3, 0.002},  // 1 step an epoch
      {3, 2, 36, 4, 2, true, false, 0.1, 0.005},    // evaluation passes
      {2, 2, 32, 4, 2, false, true, 0.0, 0.0},      // a checkpoint after every step
      {4, 3, 96, 2, 2, true, true, 0.05, 0.001},    // all of it
  };
  for (const Shape& s : grid) {
    SCOPED_TRACE("accelerators " + std::to_string(s.accelerators) + ", workers " +
                 std::to_string(s.workers) + ", files " + std::to_string(s.files) + ", batch " +
                 std::to_string(s.batch));
    const dlgen::testing::TempDir ck("dlgen-law");
    Job job = shape_job(s);
    job.checkpoint.dir = ck.path();
    Result<Report> r = run_on_fake_clock(job);  // I/O takes time, as on a device
    ASSERT_TRUE(r) << r.error().message;
    expect_io_time_laws(*r, job);
    const double c = 0.1;
    ASSERT_EQ(r->per_accelerator.size(), s.accelerators);
    for (const AcceleratorResult& a : r->per_accelerator) {
      const double window = r->elapsed_s - a.first_wait_s - a.harness_s;
      EXPECT_NEAR(a.wall_s, window, 1e-9);
      EXPECT_NEAR(a.compute_s, static_cast<double>(a.steps) * c, 1e-6);
      EXPECT_LE(a.au, static_cast<double>(a.samples) / s.batch * c / window + 1e-9);
      EXPECT_LE(a.au, 1.0);
      EXPECT_GE(a.au, r->au);
    }
    // The headline figures together: total samples (training and evaluation) per accelerator
    // over the AU window bound the lowest AU.
    double max_first_wait = 0;
    for (const auto& a : r->per_accelerator)
      max_first_wait = std::max(max_first_wait, a.first_wait_s);
    const double per_acc = static_cast<double>(r->samples + r->eval_samples) / s.accelerators;
    EXPECT_LE(r->au, per_acc / s.batch * c / (r->elapsed_s - max_first_wait) + 1e-9);
    // Training samples/s is training samples over training seconds.
    EXPECT_NEAR(r->samples_per_s * r->train_seconds, static_cast<double>(r->samples), 1e-6);
    EXPECT_NEAR(r->mib_per_s * (r->train_seconds + r->eval_seconds) * 1048576.0,
                static_cast<double>(r->bytes_read), 1e-3);
    if (s.startup_s > 0 && s.files / (s.accelerators * s.batch) <= 2) {
      EXPECT_LT(r->au, 0.9)
          << "1-2 steps an epoch with a start-up wait each epoch cannot keep AU high";
    }
  }
}

// The same law with batches that vary in size (reader.batch_size as a distribution): the mean
// batch is the samples an accelerator took over its steps, and its steps are each epoch's
// samples / the distribution's mean (plan: varied_batch_count), so AU, samples/s and steps agree.
TEST(MetricsLaw, AuNeverExceedsWhatTheSamplesAllowWithVaryingBatches) {
  for (const Shape& s : {Shape{1, 2, 240, 8, 3, false, false, 0.05, 0.002},
                         Shape{3, 2, 300, 8, 2, true, false, 0.0, 0.0}}) {
    SCOPED_TRACE("accelerators " + std::to_string(s.accelerators));
    Job job = shape_job(s);
    job.reader.batch_sizes.kind = DistKind::histogram;
    job.reader.batch_sizes.bins = {{2, 2, 3}, {8, 8, 2}, {24, 24, 1}};  // mean 8
    Result<Report> r = run_on_fake_clock(job);
    ASSERT_TRUE(r) << r.error().message;
    const double c = 0.1;
    const std::uint64_t share = s.files / s.accelerators;  // drop_last: the same for each
    const std::uint64_t eval_steps = s.eval ? s.epochs * ((share + 7) / 8) : 0;
    for (const AcceleratorResult& a : r->per_accelerator) {
      EXPECT_EQ(a.steps, s.epochs * varied_batch_count(job.reader.batch_sizes, share) + eval_steps);
      const double window = r->elapsed_s - a.first_wait_s - a.harness_s;
      const double mean_batch = static_cast<double>(a.samples) / static_cast<double>(a.steps);
      EXPECT_LE(a.au, static_cast<double>(a.samples) / mean_batch * c / window + 1e-9);
      EXPECT_NEAR(a.compute_s, static_cast<double>(a.steps) * c, 1e-6);
    }
    EXPECT_EQ(r->samples, s.epochs * share * s.accelerators);  // every sample, no partial dropped
    EXPECT_NEAR(r->samples_per_s * r->train_seconds, static_cast<double>(r->samples), 1e-6);
  }
}

// MiB/s against the device: with no compute, an accelerator's W workers each keep `iodepth`
// requests of one 4 KiB file in flight, so a run bound by a latency L reads W x iodepth x 4 KiB
// every L: MiB/s doubles with the workers and with the iodepth, and never exceeds that.
TEST(MetricsLaw, MibPerSecondIsWhatTheLatencyAndRequestsInFlightAllow) {
  for (std::uint32_t workers : {1u, 2u, 4u})
    for (std::uint32_t iodepth : {1u, 2u, 4u}) {
      SCOPED_TRACE("workers " + std::to_string(workers) + ", iodepth " + std::to_string(iodepth));
      Job job;
      job.name = "io-bound";
      job.dataset.dir = "/nonexistent/io-bound";
      job.dataset.format = Format::raw;
      job.dataset.num_files = 128;
      job.dataset.sample_size = Distribution::fixed_at(4096);
      job.reader.batch_size = 8;
      job.reader.workers = workers;
      job.reader.prefetch = 2;
      job.reader.iodepth = iodepth;
      job.reader.shuffle = Shuffle::file;
      job.run.epochs = 2;
      ASSERT_TRUE(validate(job).empty());
      Result<Report> r = run_on_fake_clock(job);
      ASSERT_TRUE(r) << r.error().message;
      expect_io_time_laws(*r, job);
      EXPECT_EQ(r->requests, 256u);
      EXPECT_EQ(r->bytes_read, 256u * 4096);
      const double capacity_mib_s = workers * iodepth * 4096.0 / (kLatencyNs / 1e9) / 1048576.0;
      EXPECT_LE(r->mib_per_s, capacity_mib_s * (1 + 1e-9));
      EXPECT_NEAR(r->mib_per_s, capacity_mib_s, capacity_mib_s * 1e-6);
      EXPECT_NEAR(r->latency.p50_us, kLatencyNs / 1e3, kLatencyNs / 1e3 * 0.03125);
    }
}

}  // namespace
}  // namespace dlgen::replay
