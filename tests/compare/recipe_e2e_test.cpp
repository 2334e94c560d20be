// Access recipes end to end, one small program per library (tests/pytorch/recipe_reader.py: PIL
// JPEG, numpy .npy and .npz, h5py rows, torch.load, open().read(), each under a PyTorch
// DataLoader): capture it, distil the trace (the job must carry the library's recipe), replay the
// job under capture and compare. Every metric must pass at its default tolerance, timing at 10%
// (docs/fidelity.md): the request metrics the recipe exists for (read_ops, request_size KS and
// EMD, sequential_fraction), and the epochs' time, which needs the fresh workers' warm-up and the
// consumer's per-batch cost as well. Needs root (BPF): skips when capture says 77.
#include <gtest/gtest.h>

#include "dlgen/core/json.hpp"
#include <ostream>

#include "dlgen/core/job_io.hpp"
#include "dlgen/core/recipe.hpp"
#include "e2e_fixture.hpp"

namespace {

using dlgen::testing::Outcome;
using dlgen::testing::sh;
using dlgen::testing::TempDir;

struct Kind {
  const char* name;    // recipe_reader.py --kind
  const char* recipe;  // what distil must learn from its trace
};

void PrintTo(const Kind& k, std::ostream* os) {
  *os << k.name;
}

class RecipeE2E : public ::testing::TestWithParam<Kind> {};

TEST_P(RecipeE2E, DistilLearnsTheRecipeAndTheReplayReadsAsTheLibraryDid) {
  const Kind k = GetParam();
  TempDir dir(std::string("recipe-e2e-") + k.name);
  const std::string root = dir.path().string();
  const std::string script = std::string(DLGEN_SOURCE_DIR) + "/tests/pytorch/recipe_reader.py";
  auto dlgen = [&](const std::string& args) { return dlgen::testing::dlgen_in(dir.path(), args); };
  // 96 files: 24 steps an epoch of ~6 ms, so that one descheduled step on this 2-core machine is
  // not a tenth of an epoch.
  Outcome m =
      sh(DLGEN_PYTHON " " + script + " --kind " + k.name + " --files 96 --make " + root + "/orig");
  ASSERT_EQ(m.code, 0) << m.out;
  Outcome c = dlgen("capture -o orig.h5 -- " DLGEN_PYTHON " " + script + " --kind " + k.name +
                    " --data " + root + "/orig");
  if (c.code == 77) GTEST_SKIP() << "capture cannot run here: " << c.out;
  ASSERT_EQ(c.code, 0) << c.out;
  Outcome d = dlgen("distil orig.h5 -o job.toml --dataset-dir " + root + "/replay-data");
  ASSERT_EQ(d.code, 0) << d.out;
  auto job = dlgen::load_job(dir.path() / "job.toml");
  ASSERT_TRUE(job) << job.error().message;
  std::string learned;
  for (const auto& st : job->reader.recipe)
    learned += (learned.empty() ? "" : ", ") + to_string(st);
  EXPECT_EQ(learned, k.recipe);
  Outcome r = dlgen("run job.toml --capture replay.h5");
  ASSERT_EQ(r.code, 0) << r.out;
  Outcome cmp = dlgen("compare orig.h5 replay.h5 --json");
  const nlohmann::json j = dlgen::testing::compare_json(cmp);
  if (j.is_null()) return;
  for (const char* metric : {"read_ops", "request_size", "request_size_emd", "sequential_fraction",
                             "epoch_time", "duration", "step_time", "throughput", "au"}) {
    bool seen = false;
    for (const auto& x : j["metrics"])
      if (x["name"] == metric) {
        seen = true;
        EXPECT_EQ(x["verdict"], "PASS")
            << metric << ": original " << x["original"] << ", replay " << x["replay"];
      }
    EXPECT_TRUE(seen) << metric << " missing from compare's output";
  }
  std::string failed;
  for (const auto& x : j["metrics"])
    if (x["verdict"] == "FAIL")
      failed += x["name"].get<std::string>() + " (" + x["original"].dump() + " vs " +
                x["replay"].dump() + ") ";
  EXPECT_EQ(cmp.code, 0) << "every metric passes; failed: " << failed;
}

INSTANTIATE_TEST_SUITE_P(
    Libraries, RecipeE2E,
    ::testing::Values(Kind{"jpeg", "0+4KiB, 4KiB+rest/60KiB"},
                      Kind{"npy", "0+4KiB, 0+128, 0+4KiB, 4KiB+rest~4KiB"},
                      Kind{"npz",
                           "0+4KiB, end-22+22, end-42+42, end-124+124, 0+8KiB/4KiB, "
                           "0+8KiB/4KiB, 8KiB+rest~4KiB"},
                      Kind{"h5",
                           "0+8, 0+16, 16+80, 96+512, 680+512, 136+544, 1072+328, "
                           "800+512, 2KiB+rest"},
                      Kind{"pt",
                           "0+4KiB, 0+4KiB, end-4KiB+4KiB, end-22+22, end-42+42, "
                           "end-98+98, end-275+275, end-341+341, 0+4KiB, 4KiB+rest-357"},
                      Kind{"raw", "0+rest"}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
