// reader.recipe in the replay: every sample file is read with the recipe's requests, in its order
// (the applier's, core/recipe.hpp, on each generated file's size), one request of a sample at a
// time, while a worker keeps several samples in flight (iodepth). Requests are seen by a fault
// engine that injects nothing, around the null engine (no files needed) or real files.
#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <set>
#include <string>

#include "dlgen/core/recipe.hpp"
#include "dlgen/datasets/layout.hpp"
#include "dlgen/engine/fault.hpp"
#include "dlgen/replay/runner.hpp"
#include "replay_fixture.hpp"
#include "temp_dir.hpp"

namespace dlgen::replay {
namespace {

using namespace fixture;
using dlgen::testing::TempDir;

struct Seen {
  std::mutex mu;
  std::vector<std::pair<std::string, RecipeRequest>> requests;  // in submit order
};

Result<Report> run_recorded(const Job& job, std::string inner, Seen& seen) {
  auto f = std::make_shared<FaultInjection>();
  f->plan.fail = [&seen](const FaultRequest& q) {
    std::lock_guard lock(seen.mu);
    seen.requests.push_back({std::string(q.path), {q.offset, q.length}});
    return 0;
  };
  RunOptions o;
  o.engine = inner;
  o.series = false;
  o.engine_factory = fault_engine_factory(inner, f);
  return run_job(job, o);
}

Recipe npz_recipe() {
  Recipe r;
  for (const char* s : {"0+4KiB", "end-22+22", "end-75+75", "0+8KiB/4KiB", "8KiB+rest@64KiB~4KiB"})
    r.push_back(*parse_recipe_step(s));
  return r;
}

TEST(RecipeReplay, EachFileIsReadWithTheRecipesRequestsInOrder) {
  for (std::string engine : {"null", "pread", "uring"}) {
    if (engine == "uring" && !uring_available()) continue;
    SCOPED_TRACE(engine);
    TempDir tmp("dlgen-recipe-replay");
    Job job = small_job(tmp / "data", 12, uniform(30000, 400000));
    job.reader.workers = 1;
    job.reader.iodepth = 4;
    job.reader.recipe = npz_recipe();
    if (engine != "null") write_dataset(job.dataset);
    const datasets::Layout layout(job.dataset);
    Seen seen;
    Result<Report> r = run_recorded(job, engine, seen);
    ASSERT_TRUE(r) << r.error().message;
    std::map<std::string, std::vector<RecipeRequest>> by_file;
    for (const auto& [path, q] : seen.requests) by_file[path].push_back(q);
    ASSERT_EQ(by_file.size(), 12u);
    std::uint64_t bytes = 0, requests = 0;
    for (std::uint64_t f = 0; f < 12; ++f) {
      const auto want = recipe_requests(job.reader.recipe, layout.file_size(f));
      EXPECT_EQ(by_file[layout.path(f).string()], want) << layout.path(f);
      for (const auto& q : want) bytes += q.length, ++requests;
    }
    EXPECT_EQ(r->requests, requests);
    if (engine != "null") {
      EXPECT_EQ(r->bytes_read, bytes);
    }
  }
}

// One request of a sample at a time, several samples at once: the worker's first iodepth
// requests are the first steps of iodepth different files (without a recipe, the legacy keys'
// requests of one sample go out together).
TEST(RecipeReplay, ASamplesRequestsAreDependentButSamplesOverlap) {
  Job job = small_job("/nonexistent/recipe", 16, Distribution::fixed_at(300000));
  job.reader.workers = 1;
  job.reader.batch_size = 8;
  job.reader.iodepth = 4;
  job.reader.recipe = npz_recipe();
  Seen seen;
  Result<Report> r = run_recorded(job, "null", seen);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_GE(seen.requests.size(), 4u);
  std::set<std::string> first;
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(seen.requests[i].second, (RecipeRequest{0, 4096})) << i;
    first.insert(seen.requests[i].first);
  }
  EXPECT_EQ(first.size(), 4u) << "four samples in flight, each at its first step";

  Job legacy = job;
  legacy.reader.recipe.clear();
  legacy.reader.probe_bytes = 4096;
  legacy.reader.header_read_bytes = 128;
  legacy.reader.request_size_bytes = 65536;
  Seen old;
  ASSERT_TRUE(run_recorded(legacy, "null", old));
  ASSERT_GE(old.requests.size(), 4u);
  for (std::size_t i = 1; i < 4; ++i) EXPECT_EQ(old.requests[i].first, old.requests[0].first);
}

}  // namespace
}  // namespace dlgen::replay
