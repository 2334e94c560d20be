// dataset.load = "memory": the run reads every file once, whole, before its first epoch, then
// runs its epochs, evaluations and checkpoints from memory (no I/O in the passes; the workers
// still preprocess and collate). Fake clock and null engine for the figures, real files for the
// bytes. Laws: bytes read = the dataset once; AU never exceeds what samples/s allows.
#include <gtest/gtest.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "dlgen/core/recipe.hpp"
#include "dlgen/datasets/layout.hpp"
#include "dlgen/replay/runner.hpp"
#include "replay_fixture.hpp"
#include "temp_dir.hpp"

namespace dlgen::replay {
namespace {

using namespace dlgen::replay::fixture;
using dlgen::testing::TempDir;

Job memory_job(const std::filesystem::path& dir) {
  Job job = small_job(dir, 16, Distribution::fixed_at(1000));  // 4 steps of 4 an epoch
  job.dataset.load = Load::memory;
  job.run.epochs = 3;
  job.compute.step_time = Distribution::fixed_at(0.1);
  return job;
}

// The job on the null engine and a fake clock, each request taking `latency_ns`.
Result<Report> run_with_latency(const Job& job, std::int64_t latency_ns) {
  FakeClock clock;
  RunOptions o;
  o.engine = "null";
  o.series = false;
  o.clock = &clock;
  o.engine_factory = null_engine_with_latency(latency_ns);
  return run_job(job, o);
}

// The job on a fake clock through the null engine wrapped by `injection`'s faults.
Result<Report> run_with_faults(const Job& job, std::shared_ptr<FaultInjection> injection) {
  FakeClock clock;
  RunOptions o;
  o.engine = "null";
  o.series = false;
  o.clock = &clock;
  o.engine_factory = fault_engine_factory("null", std::move(injection));
  return run_or_die(job, o);
}

std::uint64_t dataset_bytes(const DatasetSpec& d) {
  const datasets::Layout layout(d);
  std::uint64_t n = 0;
  for (std::uint64_t f = 0; f < layout.num_files(); ++f) n += layout.file_size(f);
  return n;
}

// The load's requests take 10 ms each on the device; the passes make none, so their seconds are
// the steps' compute alone and the load is the run's first wait, outside AU's wall.
TEST(MemoryLoad, FilesReadOnceBeforeTheFirstEpochThenNoIo) {
  Result<Report> r = run_with_latency(memory_job("/nonexistent/mem"), 10'000'000);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->bytes_read, 16u * 1000u);  // the dataset once
  EXPECT_EQ(r->load_bytes, 16u * 1000u);
  EXPECT_EQ(r->load_files, 16u);
  EXPECT_EQ(r->requests, 16u);  // a whole file a request (request_size 0)
  EXPECT_EQ(r->train_bytes, 0u);
  EXPECT_NEAR(r->load_seconds, 16 * 0.010, 1e-9);
  EXPECT_EQ(r->steps, 12u);
  EXPECT_EQ(r->samples, 48u);
  ASSERT_EQ(r->epochs_detail.size(), 3u);
  for (const auto& e : r->epochs_detail) {
    EXPECT_EQ(e.bytes, 0u);
    EXPECT_EQ(e.requests, 0u);
    EXPECT_NEAR(e.seconds, 4 * 0.1, 1e-9);  // no data wait: nothing is read
  }
  EXPECT_NEAR(r->elapsed_s, 16 * 0.010 + 12 * 0.1, 1e-9);
  EXPECT_DOUBLE_EQ(r->au, 1.0);  // the load is the wait for the first batch
  EXPECT_NEAR(r->mib_per_s, 16000.0 / 1048576.0 / (16 * 0.010 + 12 * 0.1), 1e-9);
}

// With per-sample preprocessing slower than compute the workers, not the storage, hold the steps
// back; AU and samples/s say the same (docs/metrics.md's law): AU x (elapsed - first wait -
// harness) = steps x compute <= ceil(samples / batch) x compute, and MiB/s x the seconds of the
// load and the passes = bytes read.
TEST(MemoryLoad, WorkersStillPreprocessAndAuAgreesWithSamplesPerSecond) {
  Job job = memory_job("/nonexistent/mem");
  job.reader.preprocess = Distribution::fixed_at(0.05);  // 0.2 s a batch per worker, 2 workers
  job.reader.collate = Distribution::fixed_at(0.02);
  Result<Report> r = run_with_latency(job, 5'000'000);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->train_bytes, 0u);
  EXPECT_EQ(r->steps, 12u);
  EXPECT_GT(r->train_seconds, 12 * 0.1 + 0.1) << "preprocessing must cost time";
  EXPECT_LT(r->au, 0.95);
  ASSERT_EQ(r->per_accelerator.size(), 1u);
  const AcceleratorResult& a = r->per_accelerator[0];
  const double window = r->elapsed_s - a.first_wait_s - a.harness_s;
  EXPECT_GE(a.first_wait_s, r->load_seconds) << "the load is part of the first batch's wait";
  EXPECT_NEAR(a.au * window, 12 * 0.1, 1e-6);
  EXPECT_LE(a.au, std::ceil(static_cast<double>(a.samples) / 4) * 0.1 / window + 1e-9);
  EXPECT_NEAR(r->samples_per_s * r->train_seconds, 48.0, 1e-6);
  EXPECT_NEAR(r->mib_per_s * (r->train_seconds + r->eval_seconds + r->load_seconds) * 1048576.0,
              static_cast<double>(r->bytes_read), 1e-3);
}

// Real files through the run's engine: the load reads every train and validation file once in
// request_size requests (the original's read size); evaluations and training read nothing more.
TEST(MemoryLoad, RealFilesTrainAndValidationReadOnceInRequestSize) {
  TempDir tmp("dlgen-memory-load");
  Job job = memory_job(tmp / "train");
  job.dataset.sample_size = uniform(3000, 9000);
  job.compute.step_time = Distribution::fixed_at(0.001);
  job.reader.request_size_bytes = 4096;
  DatasetSpec v = job.dataset;
  v.dir = tmp / "valid";
  v.num_files = 6;
  job.validation = v;
  job.run.eval_every_steps = 5;
  write_dataset(job.dataset);
  write_dataset(v);
  const datasets::Layout train(job.dataset), valid(v);
  std::uint64_t requests = 0;
  for (const auto* l : {&train, &valid})
    for (std::uint64_t f = 0; f < l->num_files(); ++f) requests += ceil_div(l->file_size(f), 4096);
  for (const char* engine : {"pread", "uring"}) {
    if (std::string(engine) == "uring" && !uring_available()) continue;
    RunOptions o;
    o.engine = engine;
    o.series = false;
    Result<Report> r = run_or_die(job, o);
    ASSERT_TRUE(r) << engine << ": " << r.error().message;
    EXPECT_EQ(r->bytes_read, dataset_bytes(job.dataset) + dataset_bytes(v)) << engine;
    EXPECT_EQ(r->load_files, 16u + 6u) << engine;
    EXPECT_EQ(r->requests, requests) << engine;
    EXPECT_EQ(r->train_bytes + r->eval_bytes, 0u) << engine;
    EXPECT_EQ(r->steps, 12u) << engine;
    EXPECT_GE(r->eval_samples, 2u * 6u) << engine << ": evaluations after steps 5 and 10";
  }
}

// The load reads each file as reader.recipe says (pickle.load of a CIFAR batch: a header, the
// body, then the tail in pieces), not in request_size chunks: the held-out CIFAR program's 5
// reads a file were replayed as 2 (read_ops 30 vs 12). Each file's requests in the recipe's
// order, seen by a fault engine that injects nothing.
TEST(MemoryLoad, EachFileReadAsTheRecipeSays) {
  Job job = memory_job("/nonexistent/mem");
  job.dataset.num_files = 4;
  job.dataset.sample_size = Distribution::fixed_at(10000);
  job.reader.batch_size = 1;
  job.reader.request_size_bytes = 6000;  // stands for nothing: the recipe says how
  for (const char* step : {"0+4KiB", "4KiB+rest-3000", "end-3000+1000", "end-2000+2000"})
    job.reader.recipe.push_back(*parse_recipe_step(step));
  auto injection = std::make_shared<FaultInjection>();
  std::mutex m;
  std::vector<std::pair<std::uint64_t, std::uint32_t>> seen;
  injection->plan.fail = [&](const FaultRequest& q) {
    std::lock_guard lock(m);
    seen.emplace_back(q.offset, q.length);
    return 0;
  };
  Result<Report> r = run_with_faults(job, injection);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->load_files, 4u);
  EXPECT_EQ(r->requests, 16u);
  EXPECT_EQ(r->load_bytes, 4u * 10000u);
  const std::vector<std::pair<std::uint64_t, std::uint32_t>> file = {
      {0, 4096}, {4096, 2904}, {7000, 1000}, {8000, 2000}};
  ASSERT_EQ(seen.size(), 16u);
  for (std::size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i], file[i % 4]) << i;
}

// An engine that refuses for now (-EAGAIN) is waited for with a back-off and the load goes on;
// one that never stops refusing ends the run with an error instead of a thread spinning forever.
TEST(MemoryLoad, TransientRefusalsBackOffAndEndlessOnesAreAnError) {
  Job job = memory_job("/nonexistent/mem");
  auto refusing = [&](std::uint64_t refusals) {
    auto injection = std::make_shared<FaultInjection>();
    injection->plan.submit_error = [refusals](std::uint64_t call) {
      return call < refusals ? -EAGAIN : 0;
    };
    injection->plan.reap_error = [refusals](std::uint64_t call) {
      return call < refusals ? -EBUSY : 0;
    };
    Result<Report> r = run_with_faults(job, injection);
    return std::make_pair(r, injection->counters.submit_refused.load());
  };
  auto [few, refused] = refusing(40);
  ASSERT_TRUE(few) << few.error().message;
  EXPECT_EQ(refused, 40u);
  EXPECT_EQ(few->load_files, 16u);
  EXPECT_EQ(few->requests, 16u);
  auto [endless, _] = refusing(UINT64_MAX);
  ASSERT_FALSE(endless);
  EXPECT_NE(endless.error().message.find(std::strerror(EAGAIN)), std::string::npos)
      << endless.error().message;
}

}  // namespace
}  // namespace dlgen::replay
