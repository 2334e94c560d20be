#pragma once
// Builders shared by the replay tests that run real files and fault engines: a small job, a dataset
// written with the exact sizes its layout names, and checks for what this machine supports.
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "dlgen/core/job.hpp"
#include "dlgen/datasets/layout.hpp"
#include "dlgen/engine/engine.hpp"
#include "dlgen/engine/fault.hpp"
#include "dlgen/engine/registry.hpp"
#include "dlgen/replay/runner.hpp"

namespace dlgen::replay {

// The engines' vocabulary (engine/), as the replay tests speak it.
using engine::EngineFactory;
using engine::EngineOptions;
using engine::fault_engine_factory;
using engine::FaultCounters;
using engine::FaultInjection;
using engine::FaultPlan;
using engine::FaultRequest;
using engine::IoCompletion;
using engine::IoEngine;
using engine::IoOp;
using engine::IoRequest;
using engine::make_fault_engine;
using engine::transient_error;

}  // namespace dlgen::replay

namespace dlgen::replay::fixture {

inline Job small_job(const std::filesystem::path& dir, std::uint64_t files, Distribution size) {
  Job job;
  job.name = "replay-fixture";
  job.dataset.dir = dir;
  job.dataset.format = Format::raw;
  job.dataset.num_files = files;
  job.dataset.sample_size = size;
  job.dataset.seed = 3;
  job.reader.batch_size = 4;
  job.reader.workers = 2;
  job.reader.prefetch = 2;
  job.reader.iodepth = 4;
  job.reader.shuffle = Shuffle::file;
  job.compute.step_time = Distribution::fixed_at(0);
  job.compute.au_threshold = 0.9;
  job.run.epochs = 1;
  return job;
}

// Each file's requests (offset, length) in submit order, as a fault engine that injects nothing
// around the engine `inner` saw them (seeing_factory); run_seen runs `job` through it.
struct SeenRequests {
  std::mutex mu;
  std::map<std::string, std::vector<std::pair<std::uint64_t, std::uint64_t>>> by_file;
};
inline EngineFactory seeing_factory(const std::string& inner, SeenRequests& seen) {
  auto f = std::make_shared<FaultInjection>();
  f->plan.fail = [&seen](const FaultRequest& q) {
    std::lock_guard lock(seen.mu);
    seen.by_file[std::string(q.path)].push_back({q.offset, q.length});
    return 0;
  };
  return fault_engine_factory(inner, f);
}
inline Result<Report> run_seen(const Job& job, const std::string& inner, SeenRequests& seen) {
  RunOptions o;
  o.engine = inner;
  o.series = false;
  o.engine_factory = seeing_factory(inner, seen);
  return run_job(job, o);
}

inline Distribution uniform(double lo, double hi) {
  Distribution d;
  d.kind = DistKind::uniform;
  d.min = lo;
  d.max = hi;
  return d;
}

// Writes the files the layout names, with their exact sizes (random bytes).
inline void write_dataset(const DatasetSpec& spec) {
  const datasets::Layout layout(spec);
  std::mt19937_64 rng(9);
  std::vector<char> buf;
  for (std::uint64_t f = 0; f < layout.num_files(); ++f) {
    std::filesystem::create_directories(layout.path(f).parent_path());
    buf.resize(layout.file_size(f));
    for (auto& c : buf) c = static_cast<char>(rng());
    std::ofstream(layout.path(f), std::ios::binary)
        .write(buf.data(), static_cast<std::streamsize>(buf.size()));
  }
}

// The null engine with a device latency: each request completes `latency_ns` after its issue, on
// the runner's clock (RunOptions::engine_factory), so fake-clock runs spend I/O time.
inline EngineFactory null_engine_with_latency(std::int64_t latency_ns) {
  return [latency_ns](const EngineOptions& options) {
    EngineOptions o = options;
    o.null_latency_ns = latency_ns;
    return engine::make("null", o);
  };
}

// Runs `job` on the null engine and a fresh fake clock (no real time, no real I/O).
inline Result<Report> run_fake(const Job& job) {
  FakeClock clock;
  RunOptions o;
  o.engine = "null";
  o.series = false;
  o.clock = &clock;
  return run_job(job, o);
}

inline bool uring_available() {
  return static_cast<bool>(engine::probe("uring"));
}

inline bool direct_supported(const std::filesystem::path& dir) {
  const auto p = dir / "direct-probe";
  std::ofstream(p) << "x";
  const int fd = ::open(p.c_str(), O_RDONLY | O_DIRECT);
  std::filesystem::remove(p);
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

// Runs the job and aborts the test binary (instead of hanging it) when the run does not end: a
// thread that was not woken after a failure would block forever.
inline Result<Report> run_or_die(const Job& job, const RunOptions& options) {
  auto done = std::async(std::launch::async, [&] { return run_job(job, options); });
  if (done.wait_for(std::chrono::seconds(120)) != std::future_status::ready) {
    std::fprintf(stderr, "the run did not end within 120 s: some thread was never woken\n");
    std::abort();
  }
  return done.get();
}

inline std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) {
  return (a + b - 1) / b;
}
inline std::uint64_t align_down(std::uint64_t v, std::uint64_t a) {
  return v / a * a;
}
inline std::uint64_t align_up(std::uint64_t v, std::uint64_t a) {
  return ceil_div(v, a) * a;
}

}  // namespace dlgen::replay::fixture
