#pragma once
// What the end-to-end tests of the fidelity loop share: dlgen run in a test's directory (at
// real-time priority where this host allows it), files read back, a distilled job's comments,
// compare's JSON, and a suite fixture that captures one original run, distils it and generates
// the replay's dataset once for all the suite's tests. Uses DLGEN_BINARY (dlgen_testing).
#include <gtest/gtest.h>

#include <exception>
#include <filesystem>
#include <fstream>
#include <memory>
#include "dlgen/core/json.hpp"
#include <optional>
#include <sstream>
#include <string>

#include "realtime.hpp"
#include "shell.hpp"
#include "temp_dir.hpp"

namespace dlgen::testing {

// How a dlgen command of a test is scheduled.
enum class Priority {
  as_is,
  // SCHED_FIFO 1 where allowed (DLGEN_RT_PREFIX): a real program's timing and its replay's are
  // not stretched by other jobs on the host.
  realtime_where_allowed,
  realtime,  // SCHED_FIFO 1 always: the command fails where it is not allowed
};

// A shell command line run in `dir`.
inline Outcome run_in(const std::filesystem::path& dir, const std::string& cmd) {
  return sh("cd '" + dir.string() + "' && " + cmd);
}

// `dlgen ARGS` run in `dir`, without progress lines.
inline Outcome dlgen_in(const std::filesystem::path& dir, const std::string& args,
                        Priority priority = Priority::realtime_where_allowed) {
  const char* prefix = priority == Priority::realtime_where_allowed ? DLGEN_RT_PREFIX
                       : priority == Priority::realtime             ? "chrt -f 1 "
                                                                    : "";
  return run_in(dir, std::string("DLGEN_NO_PROGRESS=1 ") + prefix + "'" DLGEN_BINARY "' " + args);
}

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The comment after `key = ...` in a distilled job.
inline std::string comment_of(const std::string& toml, const std::string& key) {
  std::istringstream in(toml);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(key + " = ", 0) == 0) {
      const auto hash = line.find("  # ");
      return hash == std::string::npos ? "" : line.substr(hash + 4);
    }
  return "";
}

// Writes `job` (a [dataset] to generate) as data.toml in `dir` and generates it; false with the
// reason in `why` when generate fails.
inline bool make_data(const std::filesystem::path& dir, const char* job, std::string* why) {
  std::ofstream(dir / "data.toml") << job;
  Outcome g = dlgen_in(dir, "generate data.toml");
  if (g.code != 0) *why = "generate: " + g.out;
  return g.code == 0;
}

// A command's output as JSON; empty when it is not.
inline std::optional<nlohmann::json> parse_json(const std::string& out) {
  try {
    return nlohmann::json::parse(out);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// `dlgen compare --json`'s output; a test failure (and null) when it is not JSON.
inline nlohmann::json compare_json(const Outcome& compare) {
  std::optional<nlohmann::json> j = parse_json(compare.out);
  if (j) return *j;
  ADD_FAILURE() << "compare output is not JSON: " << compare.out;
  return {};
}

// A suite whose tests share one original run, set up once in the suite's SetUpTestSuite (Suite
// names the suite, so each has its own directory and state). A set-up step that cannot run here
// (capture says 77, no root) skips every test with the reason; one that fails fails every test
// with its output.
template <class Suite>
class SharedRun : public ::testing::Test {
 protected:
  static void TearDownTestSuite() { dir_.reset(); }

  void SetUp() override {
    if (!skip_.empty()) GTEST_SKIP() << skip_;
    ASSERT_TRUE(setup_error_.empty()) << setup_error_;
  }

  static void make_dir(const std::string& tag) { dir_ = std::make_unique<TempDir>(tag); }
  static const std::filesystem::path& dir() { return dir_->path(); }
  static std::string root() { return dir_->path().string(); }
  static Outcome run(const std::string& cmd) { return run_in(dir(), cmd); }
  static Outcome dlgen(const std::string& args) { return dlgen_in(dir(), args); }

  // `dlgen capture CAPTURE_ARGS` (which writes orig.h5), then `distil orig.h5 -o job.toml` with
  // the replay's dataset in ROOT/replay-data, then `generate job.toml`, as a user would before
  // tracing the replay. Absolute dataset paths: the tracer does not always resolve relative
  // ones, and summarize ignores a path it cannot place. False, with the suite skipped or failed,
  // when a step does not succeed; `capture` gets the capture's outcome.
  // `priority`: the capture's (the traced program inherits it); the other steps run as dlgen()
  // does.
  static bool capture_and_distil(const std::string& capture_args, Outcome* capture = nullptr,
                                 Priority priority = Priority::realtime_where_allowed) {
    Outcome c = dlgen_in(dir(), "capture " + capture_args, priority);
    if (capture) *capture = c;
    if (c.code == 77) return skip("capture cannot run here: " + c.out), false;
    if (c.code != 0) return fail("capture: " + c.out), false;
    Outcome d = dlgen("distil orig.h5 -o job.toml --dataset-dir " + root() + "/replay-data");
    if (d.code != 0) return fail("distil: " + d.out), false;
    Outcome g = dlgen("generate job.toml");
    if (g.code != 0) return fail("generate job: " + g.out), false;
    return true;
  }

  // After capture_and_distil: `distil --json orig.h5` into `summary`, `run job.toml RUN_ARGS
  // --capture replay.h5`, and `compare orig.h5 replay.h5 --json` into `compared`. False, with the
  // suite failed, when a step does not succeed.
  static bool replay_and_compare(const std::string& run_args, nlohmann::json& summary,
                                 nlohmann::json& compared) {
    Outcome s = dlgen("distil --json orig.h5");
    auto sj = parse_json(s.out);
    if (!sj) return fail("distil --json: " + s.out), false;
    summary = *sj;
    Outcome r = dlgen("run job.toml --capture replay.h5" + run_args);
    if (r.code != 0) return fail("replay: " + r.out), false;
    Outcome k = dlgen("compare orig.h5 replay.h5 --json");
    auto cj = parse_json(k.out);
    if (!cj) return fail("compare output is not JSON: " + k.out), false;
    compared = *cj;
    return true;
  }

  static void fail(std::string why) { setup_error_ = std::move(why); }
  static void skip(std::string why) { skip_ = std::move(why); }

  static inline std::unique_ptr<TempDir> dir_;
  static inline std::string setup_error_;
  static inline std::string skip_;
};

}  // namespace dlgen::testing
