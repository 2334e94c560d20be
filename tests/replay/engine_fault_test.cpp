// The fault engine and the runner under faults: a failed read names its file and offset and stops
// every thread; short reads are retried and their bytes counted once; transient refusals of
// submit/reap are retried; slow completions show in the latency of exactly their requests; a failed
// open is reported as one; no engine is destroyed with a request in flight.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <string>

#include "dlgen/datasets/layout.hpp"
#include "dlgen/engine/fault.hpp"
#include "dlgen/replay/runner.hpp"
#include "replay_fixture.hpp"
#include "temp_dir.hpp"

namespace dlgen::replay {
namespace {

using namespace dlgen::replay::fixture;
using dlgen::testing::TempDir;
using namespace std::chrono_literals;

constexpr std::int64_t kMs = 1'000'000;

// A clock that moves 1 us every time it is read: each stamp an engine takes is distinct, so a
// test sees how many clock reads a stamp shares.
class TickClock final : public Clock {
 public:
  std::int64_t now_ns() override { return now_.fetch_add(1000) + 1000; }
  void sleep_until(std::int64_t deadline_ns) override {
    std::int64_t cur = now_.load();
    while (cur < deadline_ns && !now_.compare_exchange_weak(cur, deadline_ns)) {
    }
  }
  void wait(std::atomic<std::uint64_t>& a, std::uint64_t old) override { a.wait(old); }
  void notify(std::atomic<std::uint64_t>& a) override { a.notify_all(); }

 private:
  std::atomic<std::int64_t> now_{1'000'000'000};
};

std::shared_ptr<FaultInjection> injection() {
  return std::make_shared<FaultInjection>();
}

RunOptions fault_options(std::string inner, const std::shared_ptr<FaultInjection>& f,
                         Clock* clock = nullptr) {
  RunOptions o;
  o.engine = inner;
  o.series = false;
  o.clock = clock;
  o.engine_factory = fault_engine_factory(inner, f);
  return o;
}

void expect_clean_engines(const FaultCounters& c) {
  EXPECT_GT(c.engines.load(), 0u);
  EXPECT_EQ(c.destroyed.load(), c.engines.load())
      << "every engine is destroyed at the end of its worker";
  EXPECT_EQ(c.destroyed_in_flight.load(), 0u) << "an engine was destroyed with requests in flight";
}

// ---- The engines' stamps ----

TEST(FaultEngine, EachRequestOfOneBatchHasItsOwnDelay) {
  FakeClock clock;
  auto f = injection();
  f->plan.delay_ns = [](const FaultRequest& q) {
    return static_cast<std::int64_t>(q.index + 1) * kMs;
  };
  EngineOptions o;
  o.depth = 4;
  o.buffers = 4;
  o.buffer_bytes = 4096;
  o.clock = &clock;
  auto made = make_fault_engine("null", o, f);
  ASSERT_TRUE(made) << made.error().message;
  IoEngine& e = **made;
  const IoRequest reqs[4] = {{-1, IoOp::read, 0, 100, 0, 10},
                             {-1, IoOp::read, 1, 100, 0, 11},
                             {-1, IoOp::read, 2, 100, 0, 12},
                             {-1, IoOp::read, 3, 100, 0, 13}};
  const std::int64_t t0 = clock.now_ns();
  ASSERT_EQ(e.submit(reqs), 4);
  IoCompletion done[4];
  ASSERT_EQ(e.reap(done, 0), 0) << "nothing completes before its delay";
  // All four reaped together: each keeps its own completion time.
  ASSERT_EQ(e.reap(done, 4), 4);
  for (const IoCompletion& c : done) {
    const std::int64_t delay = static_cast<std::int64_t>(c.user_data - 9) * kMs;
    EXPECT_EQ(c.issued_ns, t0) << c.user_data;
    EXPECT_EQ(c.completed_ns - c.issued_ns, delay) << c.user_data;
    EXPECT_EQ(c.result, 100);
  }
  EXPECT_EQ(f->counters.delayed.load(), 4u);
}

TEST(FaultEngine, ReapWaitsForTheEarliestDelayOnly) {
  FakeClock clock;
  auto f = injection();
  f->plan.delay_ns = [](const FaultRequest& q) { return q.index == 0 ? 5 * kMs : 2 * kMs; };
  EngineOptions o;
  o.depth = 2;
  o.buffers = 2;
  o.buffer_bytes = 4096;
  o.clock = &clock;
  auto e = make_fault_engine("null", o, f);
  ASSERT_TRUE(e);
  const IoRequest reqs[2] = {{-1, IoOp::read, 0, 1, 0, 1}, {-1, IoOp::read, 1, 1, 0, 2}};
  const std::int64_t t0 = clock.now_ns();
  ASSERT_EQ((*e)->submit(reqs), 2);
  IoCompletion done[2];
  ASSERT_EQ((*e)->reap(done, 1), 1);
  EXPECT_EQ(done[0].user_data, 2u);
  EXPECT_EQ(clock.now_ns(), t0 + 2 * kMs);
  ASSERT_EQ((*e)->reap(done, 1), 1);
  EXPECT_EQ(done[0].user_data, 1u);
  EXPECT_EQ(done[0].completed_ns - done[0].issued_ns, 5 * kMs);
}

TEST(FaultEngine, FailsShortensAndRefusesOnCue) {
  auto f = injection();
  f->plan.fail = [](const FaultRequest& q) { return q.offset == 8192 ? -EIO : 0; };
  f->plan.short_read = [](const FaultRequest& q) { return q.index == 0 ? 1000u : 0u; };
  f->plan.submit_error = [](std::uint64_t call) { return call == 0 ? -EAGAIN : 0; };
  f->plan.reap_error = [](std::uint64_t call) { return call == 0 ? -EBUSY : 0; };
  f->plan.open_error = [](std::string_view path) { return path == "/no/such" ? -EPERM : 0; };
  EngineOptions o;
  o.depth = 4;
  o.buffers = 4;
  o.buffer_bytes = 4096;
  auto e = make_fault_engine("null", o, f);
  ASSERT_TRUE(e);
  int fd = 0;
  EXPECT_EQ((*e)->open_file("/no/such", 0, fd), -EPERM);
  ASSERT_EQ((*e)->open_file("/fake/a", 0, fd), 0);
  EXPECT_GE(fd, 0) << "a file of the null engine still gets a number the faults can name";
  const IoRequest reqs[2] = {{fd, IoOp::read, 0, 4096, 0, 1}, {fd, IoOp::read, 1, 4096, 8192, 2}};
  EXPECT_EQ((*e)->submit(reqs), -EAGAIN);
  ASSERT_EQ((*e)->submit(reqs), 2);
  IoCompletion done[2];
  EXPECT_EQ((*e)->reap(done, 2), -EBUSY);
  ASSERT_EQ((*e)->reap(done, 2), 2);
  for (const IoCompletion& c : done) EXPECT_EQ(c.result, c.user_data == 1 ? 1000 : -EIO);
  (*e)->close_file(fd);
  const FaultCounters& c = f->counters;
  EXPECT_EQ(c.failed.load(), 1u);
  EXPECT_EQ(c.shortened.load(), 1u);
  EXPECT_EQ(c.submit_refused.load(), 1u);
  EXPECT_EQ(c.reap_refused.load(), 1u);
  EXPECT_EQ(c.opens_failed.load(), 1u);
  e->reset();
  expect_clean_engines(c);
}

TEST(FaultEngine, CountsAnEngineDestroyedWithRequestsInFlight) {
  auto f = injection();
  f->plan.delay_ns = [](const FaultRequest&) { return kMs; };
  EngineOptions o;
  o.depth = 2;
  o.buffers = 2;
  o.buffer_bytes = 4096;
  {
    auto e = make_fault_engine("null", o, f);
    ASSERT_TRUE(e);
    const IoRequest r{-1, IoOp::read, 0, 1, 0, 1};
    ASSERT_EQ((*e)->submit({&r, 1}), 1);
  }
  EXPECT_EQ(f->counters.destroyed_in_flight.load(), 1u);
}

// An engine's options for three 4 KiB reads in flight, stamped on `clock`.
EngineOptions three_read_options(Clock& clock) {
  EngineOptions o;
  o.depth = 3;
  o.buffers = 3;
  o.buffer_bytes = 4096;
  o.clock = &clock;
  return o;
}

// Writes a 16 KiB file at `path`, opens it through `e` and submits its first three 4 KiB blocks.
void submit_three_reads(IoEngine& e, const std::filesystem::path& path, int& fd) {
  std::ofstream(path, std::ios::binary) << std::string(16384, 'x');
  ASSERT_EQ(e.open_file(path.c_str(), O_RDONLY, fd), 0);
  const IoRequest reqs[3] = {{fd, IoOp::read, 0, 4096, 0, 0},
                             {fd, IoOp::read, 1, 4096, 4096, 1},
                             {fd, IoOp::read, 2, 4096, 8192, 2}};
  ASSERT_EQ(e.submit(reqs), 3);
}

// Per request, in every engine: pread stamps just before and after each call (no request
// includes the ones before it); io_uring stamps the submit once per io_uring_enter and each
// completion as it is taken.
TEST(EngineStamps, PreadStampsEachRequestOnItsOwn) {
  TempDir tmp("dlgen-stamps");
  TickClock clock;
  auto e = engine::make("pread", three_read_options(clock));
  ASSERT_TRUE(e);
  int fd = -1;
  submit_three_reads(**e, tmp / "f", fd);
  if (HasFatalFailure()) return;
  IoCompletion done[3];
  ASSERT_EQ((*e)->reap(done, 3), 3);
  (*e)->close_file(fd);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(done[i].result, 4096);
    EXPECT_EQ(done[i].completed_ns - done[i].issued_ns, 1000) << "one tick: its own pread only";
    if (i > 0) {
      EXPECT_GE(done[i].issued_ns, done[i - 1].completed_ns)
          << "issued after the previous returned";
    }
  }
}

TEST(EngineStamps, UringStampsTheSubmitAndEachCompletion) {
  if (!uring_available()) GTEST_SKIP() << "io_uring is not available here";
  TempDir tmp("dlgen-stamps");
  TickClock clock;
  auto e = engine::make("uring", three_read_options(clock));
  ASSERT_TRUE(e);
  int fd = -1;
  submit_three_reads(**e, tmp / "f", fd);
  if (HasFatalFailure()) return;
  IoCompletion done[3];
  int got = 0;
  while (got < 3) {
    const int n = (*e)->reap(std::span(done + got, 3 - got), 3 - got);
    ASSERT_GT(n, 0);
    got += n;
  }
  (*e)->close_file(fd);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(done[i].result, 4096);
    EXPECT_EQ(done[i].issued_ns, done[0].issued_ns) << "one io_uring_enter submitted all three";
    EXPECT_GT(done[i].completed_ns, done[i].issued_ns);
    if (i > 0) {
      EXPECT_NE(done[i].completed_ns, done[i - 1].completed_ns)
          << "each completion is stamped on its own";
    }
  }
}

// ---- The runner under faults ----

Job fault_job(const std::filesystem::path& dir) {
  Job job = small_job(dir, 30, Distribution::fixed_at(100000));
  job.run.accelerators = 3;
  job.reader.workers = 2;
  job.reader.batch_size = 2;
  job.reader.request_size_bytes = 32768;  // 4 requests a file
  job.compute.step_time = Distribution::fixed_at(0.01);
  job.run.epochs = 2;
  return job;
}

TEST(RunnerFaults, ReadErrorNamesFileAndOffsetAndStopsEveryThread) {
  TempDir tmp("dlgen-fault-eio");
  FakeClock clock;
  Job job = fault_job("/nonexistent/fault-eio");
  job.checkpoint.enabled = true;  // accelerators also meet at a checkpoint barrier
  job.checkpoint.every_steps = 2;
  job.checkpoint.size_bytes = 4096;
  job.checkpoint.write_size_bytes = 4096;
  job.checkpoint.fsync = false;
  job.checkpoint.dir = tmp / "ck";
  const std::string bad = datasets::Layout(job.dataset).path(17).string();
  auto f = injection();
  f->plan.fail = [bad](const FaultRequest& q) {
    return q.path == bad && q.offset == 65536 ? -EIO : 0;
  };
  f->plan.delay_ns = [](const FaultRequest& q) {
    return static_cast<std::int64_t>(q.index % 3) * kMs;
  };
  Result<Report> r = run_or_die(job, fault_options("null", f, &clock));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, bad + ": read at 65536: Input/output error");
  EXPECT_EQ(r.error().kind, ErrorKind::runtime);
  EXPECT_EQ(f->counters.failed.load(), 1u);
  expect_clean_engines(f->counters);
}

// A failure while other requests are in the kernel, with the reaps that drain them refused now
// and then: the worker waits for every one before its engine (and buffers) go.
TEST(RunnerFaults, FailureDrainsRequestsInTheKernelThroughRefusals) {
  for (std::string inner : {"uring", "pread"}) {
    if (inner == "uring" && !uring_available()) continue;
    SCOPED_TRACE(inner);
    TempDir tmp("dlgen-fault-drain");
    Job job = fault_job(tmp / "data");
    job.run.accelerators = 1;
    job.reader.iodepth = 8;
    write_dataset(job.dataset);
    auto f = injection();
    f->plan.fail = [](const FaultRequest& q) { return q.index == 20 ? -EIO : 0; };
    f->plan.reap_error = [](std::uint64_t call) { return call % 2 == 1 ? -EAGAIN : 0; };
    Result<Report> r = run_or_die(job, fault_options(inner, f));
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find(": read at "), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("Input/output error"), std::string::npos) << r.error().message;
    EXPECT_GT(f->counters.reap_refused.load(), 0u);
    expect_clean_engines(f->counters);
  }
}

class RunnerFaultsOnEngines : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "uring" && !uring_available())
      GTEST_SKIP() << "io_uring is not available here";
  }
  // A job on real files (the null engine: names only), with expected bytes.
  Job job(const char* name) {
    Job j = small_job(tmp_ / name, 24, uniform(1, 200000));
    j.reader.request_size_bytes = 65536;
    j.reader.header_read_bytes = 5000;
    j.reader.probe_bytes = 3000;
    if (GetParam() != "null") write_dataset(j.dataset);
    const datasets::Layout layout(j.dataset);
    want_bytes_ = 0;
    for (std::uint64_t f = 0; f < layout.num_files(); ++f)
      want_bytes_ += layout.file_size(f) + std::min<std::uint64_t>(3000, layout.file_size(f));
    return j;
  }
  TempDir tmp_{"dlgen-fault-engines"};
  std::uint64_t want_bytes_ = 0;
};

TEST_P(RunnerFaultsOnEngines, ShortReadsAreRetriedAndCountedOnce) {
  Job j = job("short");
  Result<Report> base = run_or_die(j, fault_options(GetParam(), injection()));
  ASSERT_TRUE(base) << base.error().message;
  EXPECT_EQ(base->bytes_read, want_bytes_);
  auto f = injection();
  f->plan.short_read = [](const FaultRequest& q) {
    return q.index % 3 == 2 ? 0u : 1000u + q.index % 7;
  };
  Result<Report> r = run_or_die(j, fault_options(GetParam(), f));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_GT(f->counters.shortened.load(), 0u);
  EXPECT_EQ(r->bytes_read, want_bytes_) << "every byte counted once";
  EXPECT_EQ(r->samples, base->samples);
  EXPECT_GT(r->requests, base->requests) << "the rest of each short read is asked for again";
  EXPECT_EQ(r->requests, f->counters.requests.load());
  expect_clean_engines(f->counters);
}

TEST_P(RunnerFaultsOnEngines, TransientRefusalsAreRetried) {
  Job j = job("refusals");
  j.reader.iodepth = 6;
  auto f = injection();
  f->plan.submit_error = [](std::uint64_t call) {
    return call % 3 == 0 ? -EAGAIN : call % 5 == 1 ? -EBUSY : call % 7 == 2 ? -EINTR : 0;
  };
  f->plan.reap_error = [](std::uint64_t call) {
    return call % 2 == 0 ? -EAGAIN : call % 5 == 1 ? -EINTR : 0;
  };
  f->plan.submit_at_most = 2;
  Result<Report> r = run_or_die(j, fault_options(GetParam(), f));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->bytes_read, want_bytes_);
  EXPECT_EQ(r->samples, 24u);
  EXPECT_GT(f->counters.submit_refused.load(), 0u);
  EXPECT_GT(f->counters.reap_refused.load(), 0u);
  expect_clean_engines(f->counters);
}

// A failed open (EPERM is -1, once taken for the null engine's "no file") is reported as an open
// failure naming the path, not as a read of fd -1.
TEST_P(RunnerFaultsOnEngines, FailedOpenIsReportedAsOne) {
  Job j = job("open");
  const std::string bad = datasets::Layout(j.dataset).path(5).string();
  auto f = injection();
  f->plan.open_error = [bad](std::string_view path) { return path == bad ? -EPERM : 0; };
  Result<Report> r = run_or_die(j, fault_options(GetParam(), f));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, bad + ": open: Operation not permitted");
  expect_clean_engines(f->counters);
}

INSTANTIATE_TEST_SUITE_P(Inner, RunnerFaultsOnEngines, ::testing::Values("null", "pread", "uring"),
                         [](const auto& info) { return std::string(info.param); });

// Slow completions: the latency percentiles are the delays, request by request (two workers, so
// requests of different delays are in flight at once and reaped together).
TEST(RunnerFaults, SlowCompletionsShowInLatency) {
  FakeClock clock;
  Job job = small_job("/nonexistent/slow", 32, Distribution::fixed_at(10000));
  job.reader.workers = 2;
  job.reader.iodepth = 4;
  auto f = injection();
  f->plan.delay_ns = [](const FaultRequest&) { return 10 * kMs; };
  Result<Report> r = run_or_die(job, fault_options("null", f, &clock));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->latency.count, 32u);
  EXPECT_DOUBLE_EQ(r->latency.max_us, 10000.0);
  EXPECT_DOUBLE_EQ(r->latency.mean_us, 10000.0);
  EXPECT_NEAR(r->latency.p50_us, 10000.0, 10000.0 * 0.0625);
  EXPECT_NEAR(r->latency.p99_us, 10000.0, 10000.0 * 0.0625);

  // Delays of 1, 2, 3, 4 ms by file (8 files each), reaped together: each request still has
  // its own latency (mean 2.5 ms, max 4 ms), not the time of the reap that took it.
  const datasets::Layout layout(job.dataset);
  std::vector<std::string> paths;
  for (std::uint64_t i = 0; i < 32; ++i) paths.push_back(layout.path(i).string());
  auto g = injection();
  g->plan.delay_ns = [paths](const FaultRequest& q) {
    for (std::size_t i = 0; i < paths.size(); ++i)
      if (q.path == paths[i]) return static_cast<std::int64_t>(i % 4 + 1) * kMs;
    return std::int64_t{0};
  };
  g->plan.reap_all_together = true;
  FakeClock clock2;
  Result<Report> d = run_or_die(job, fault_options("null", g, &clock2));
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_EQ(d->latency.count, 32u);
  EXPECT_DOUBLE_EQ(d->latency.max_us, 4000.0);
  EXPECT_DOUBLE_EQ(d->latency.mean_us, 2500.0);
  expect_clean_engines(g->counters);
}

}  // namespace
}  // namespace dlgen::replay
