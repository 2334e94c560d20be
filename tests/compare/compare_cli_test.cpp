// `dlgen compare` as a user runs it: HDF5 traces in, table / JSON / HTML out, exit 0 or 1 (2 on
// bad input).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
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

}  // namespace
}  // namespace dlgen::compare
