// `dlgen compare` as a user runs it: HDF5 traces in, table / JSON / HTML out, exit 0 or 1 (2 on
// bad input).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include "dlgen/core/json.hpp"
#include <sstream>

#include "dlgen/trace/trace_io.hpp"
#include "run_builder.hpp"
#include "temp_dir.hpp"

namespace dlgen::compare {
namespace {

struct Output {
  int status = -1;
  std::string out;
};

Output dlgen(const std::string& args) {
  Output o;
  std::string cmd = std::string(DLGEN_BINARY) + " " + args + " 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return o;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) o.out.append(buf, n);
  int st = ::pclose(p);
  o.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return o;
}

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class CompareCli : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::RunShape s;
    ASSERT_TRUE(trace::write_trace(orig_, testing::build_run(s)));
    s.workers = 1;
    ASSERT_TRUE(trace::write_trace(one_worker_, testing::build_run(s)));
  }
  dlgen::testing::TempDir dir_{"compare-cli"};
  std::filesystem::path orig_ = dir_ / "orig.h5";
  std::filesystem::path one_worker_ = dir_ / "one_worker.h5";
};

TEST_F(CompareCli, SameTracePassesWithExitZero) {
  auto r = dlgen("compare " + orig_.string() + " " + orig_.string());
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("fidelity: PASS"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("readers"), std::string::npos);
}

TEST_F(CompareCli, WrongReplayFailsWithExitOneAndWritesReports) {
  auto html = dir_ / "fidelity.html";
  auto r = dlgen("compare " + orig_.string() + " " + one_worker_.string() + " --json --report " +
                 html.string());
  EXPECT_EQ(r.status, 1) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["pass"], false);
  bool readers_failed = false;
  for (const auto& m : j["metrics"])
    if (m["name"] == "readers") readers_failed = m["verdict"] == "FAIL";
  EXPECT_TRUE(readers_failed);
  std::string page = slurp(html);
  EXPECT_NE(page.find("<svg"), std::string::npos);
  EXPECT_NE(page.find("badge fail"), std::string::npos);
}

TEST_F(CompareCli, ToleranceOverrideCanAcceptTheDifference) {
  // Relaxing every metric the one-worker replay fails on turns the verdict into PASS.
  auto r = dlgen("compare " + orig_.string() + " " + one_worker_.string() + " --json");
  auto j = nlohmann::json::parse(r.out);
  std::string overrides;
  for (const auto& m : j["metrics"])
    if (m["verdict"] == "FAIL")
      overrides += " --tolerance " + m["name"].get<std::string>() + "=1e9";
  auto relaxed = dlgen("compare " + orig_.string() + " " + one_worker_.string() + overrides);
  EXPECT_EQ(relaxed.status, 0) << overrides << "\n" << relaxed.out;
}

TEST_F(CompareCli, BadInputExitsTwo) {
  auto r = dlgen("compare " + orig_.string() + " " + orig_.string() + " --tolerance readerz=1");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("did you mean 'readers'"), std::string::npos) << r.out;
  std::ofstream(dir_ / "junk.h5") << "not hdf5";
  auto junk = dlgen("compare " + orig_.string() + " " + (dir_ / "junk.h5").string());
  EXPECT_EQ(junk.status, 2) << junk.out;
  EXPECT_EQ(dlgen("compare " + orig_.string()).status, 2);
}

// Repeated captures of the original (issue 18): the replay's compute sits between two captures
// of the original whose own compute differs by 50%, so the timing rows it fails against the first
// alone pass against the originals' spread, and the JSON says both.
TEST_F(CompareCli, OriginalRepeatWidensTimingToTheOriginalsSpread) {
  testing::RunShape s;
  s.compute_ns = 60'000'000;
  s.seed = 2;
  const auto slow = dir_ / "orig-slow.h5";
  ASSERT_TRUE(trace::write_trace(slow, testing::build_run(s)));
  s.compute_ns = 50'000'000;
  s.seed = 3;
  const auto replay = dir_ / "replay.h5";
  ASSERT_TRUE(trace::write_trace(replay, testing::build_run(s)));

  auto alone = dlgen("compare " + orig_.string() + " " + replay.string() + " --json");
  EXPECT_EQ(alone.status, 1) << alone.out;
  auto ja = nlohmann::json::parse(alone.out);
  for (const auto& m : ja["metrics"]) {
    if (m["name"] == "compute") {
      EXPECT_EQ(m["verdict"], "FAIL") << m.dump();
    }
  }

  auto both = dlgen("compare " + orig_.string() + " --original-repeat " + slow.string() + " " +
                    replay.string() + " --json");
  EXPECT_EQ(both.status, 0) << both.out;
  auto j = nlohmann::json::parse(both.out);
  ASSERT_EQ(j["original_repeats"].size(), 1u);
  EXPECT_NE(j["original_repeats"][0].get<std::string>().find(slow.string()), std::string::npos);
  bool saw_compute = false;
  for (const auto& m : j["metrics"]) {
    if (m["name"] == "compute") {
      saw_compute = true;
      EXPECT_EQ(m["verdict"], "PASS") << m.dump();
      EXPECT_DOUBLE_EQ(m["tolerance"].get<double>(), 0.20);
      EXPECT_NEAR(m["spread"].get<double>(), 0.5, 0.05) << m.dump();
      EXPECT_EQ(m["tolerance_used"], m["spread"]);
    }
    if (m["name"] == "steps") {
      EXPECT_TRUE(m["spread"].is_null()) << m.dump();
    }
  }
  EXPECT_TRUE(saw_compute);

  // The same with the --original/--replay form, and the table shows the spread column.
  auto table = dlgen("compare --original " + orig_.string() + " --original-repeat " +
                     slow.string() + " --replay " + replay.string());
  EXPECT_EQ(table.status, 0) << table.out;
  EXPECT_NE(table.out.find("spread: the largest distance between 2 captures"), std::string::npos)
      << table.out;
}

TEST_F(CompareCli, OriginalRepeatBadUseExitsTwo) {
  const std::string pair = " " + orig_.string() + " " + orig_.string();
  // A missing trace, an empty path in a set, and a set of two where the original is one trace.
  auto missing = dlgen("compare" + pair + " --original-repeat " + (dir_ / "nope.h5").string());
  EXPECT_EQ(missing.status, 2) << missing.out;
  EXPECT_NE(missing.out.find("nope.h5"), std::string::npos) << missing.out;
  auto empty = dlgen("compare" + pair + " --original-repeat " + orig_.string() + ",");
  EXPECT_EQ(empty.status, 2) << empty.out;
  auto hosts =
      dlgen("compare" + pair + " --original-repeat " + orig_.string() + "," + one_worker_.string());
  EXPECT_EQ(hosts.status, 2) << hosts.out;
  EXPECT_NE(hosts.out.find("2 trace(s), but the original has 1"), std::string::npos) << hosts.out;
  std::ofstream(dir_ / "junk.h5") << "not hdf5";
  auto junk = dlgen("compare" + pair + " --original-repeat " + (dir_ / "junk.h5").string());
  EXPECT_EQ(junk.status, 2) << junk.out;
  // Without a value.
  EXPECT_EQ(dlgen("compare" + pair + " --original-repeat").status, 2);
}

}  // namespace
}  // namespace dlgen::compare
