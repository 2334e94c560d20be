#pragma once
// What the held-out program suites share (tests/pytorch/heldout*, README.md there): a training
// program that makes its own dataset and prints its ground truth as its last JSON line, run
// through capture, distil, generate, `run --capture` and compare once per suite, as a user would.
// Uses DLGEN_PYTHON (Debian's interpreter) and the e2e fixture.
#include <filesystem>
#include <fstream>
#include <functional>
#include "dlgen/core/json.hpp"
#include <optional>
#include <sstream>
#include <string>

#include "compare_rows.hpp"
#include "dlgen/core/job.hpp"
#include "dlgen/core/job_io.hpp"
#include "e2e_fixture.hpp"

namespace dlgen::testing {

// The program's ground truth: the last line of its output that is a JSON object with "program".
inline std::optional<nlohmann::json> ground_truth(const std::string& out) {
  std::optional<nlohmann::json> last;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("{\"program\"", 0) == 0)
      if (auto j = parse_json(line)) last = *j;
  return last;
}

// One held-out program's loop, shared by its suite's tests: `PROGRAM --make ROOT/data MAKE_ARGS`,
// then capture of `PROGRAM TRAIN_ARGS`, distil, generate, `run job.toml --capture replay.h5
// RUN_ARGS`, compare. `programs` is the folder of the programs (ending in '/').
template <class Suite>
class HeldOutProgram : public SharedRun<Suite> {
  using Base = SharedRun<Suite>;

 protected:
  // The suite's SetUpTestSuite calls make_dir first: TRAIN_ARGS name files under root().
  static void loop(const std::string& programs, const std::string& program,
                   const std::string& make_args, const std::string& train_args,
                   const std::string& run_args = "") {
    const std::filesystem::path cache =
        cache_dir(program, programs + "|" + make_args + "|" + train_args + "|" + run_args);
    if (load_cached(cache, programs + program)) return;
    run_loop(programs, program, make_args, train_args, run_args);
    if (Base::setup_error_.empty() && Base::skip_.empty()) save_cached(cache);
  }

  static void run_loop(const std::string& programs, const std::string& program,
                       const std::string& make_args, const std::string& train_args,
                       const std::string& run_args) {
    const std::string py = std::string(DLGEN_PYTHON) + " " + programs + program;
    Outcome m = Base::run(py + " --make " + Base::root() + "/data " + make_args);
    if (m.code != 0) return Base::fail("make data: " + m.out);
    Outcome c;
    if (!Base::capture_and_distil("-o orig.h5 -- " + py + " " + train_args, &c)) return;
    auto truth = ground_truth(c.out);
    if (!truth) return Base::fail("no ground truth line in the program's output: " + c.out);
    truth_ = *truth;
    auto job = load_job(Base::dir() / "job.toml");
    if (!job) return Base::fail("job.toml: " + job.error().message);
    job_ = *job;
    Base::replay_and_compare(run_args.empty() ? "" : " " + run_args, summary_, compared_);
  }

  // ctest runs each test in a process of its own, and each would repeat its suite's loop (~10 s):
  // the loop's outcome (ground truth, distil --json, compare --json, the job) is kept in the build
  // tree, one folder a program and arguments (the suite's temporary root written as ROOT), and used
  // while it is newer than dlgen, the program and the test binary. A failed or skipped loop is not
  // kept.
  static std::filesystem::path cache_dir(const std::string& program, std::string args) {
    for (std::size_t at; (at = args.find(Base::root())) != std::string::npos;)
      args.replace(at, Base::root().size(), "ROOT");
    return std::filesystem::path(DLGEN_BINARY).parent_path() / "test-cache" / "heldout" /
           (program + "-" + std::to_string(std::hash<std::string>{}(args)));
  }
  static bool load_cached(const std::filesystem::path& cache, const std::string& program) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const auto kept = fs::last_write_time(cache / "done", ec);
    if (ec) return false;
    for (const fs::path& source :
         {fs::path(DLGEN_BINARY), fs::path(program), fs::read_symlink("/proc/self/exe", ec)})
      if (ec || fs::last_write_time(source, ec) >= kept || ec) return false;
    auto read = [&](const char* name) {
      std::ifstream in(cache / name);
      return nlohmann::json::parse(in, nullptr, false);
    };
    truth_ = read("truth.json");
    summary_ = read("summary.json");
    compared_ = read("compared.json");
    auto job = load_job(cache / "job.toml");
    if (truth_.is_discarded() || summary_.is_discarded() || compared_.is_discarded() || !job)
      return false;
    job_ = *job;
    return true;
  }
  static void save_cached(const std::filesystem::path& cache) {
    std::error_code ec;
    std::filesystem::remove_all(cache, ec);
    std::filesystem::create_directories(cache, ec);
    if (ec) return;
    std::ofstream(cache / "truth.json") << truth_.dump();
    std::ofstream(cache / "summary.json") << summary_.dump();
    std::ofstream(cache / "compared.json") << compared_.dump();
    std::filesystem::copy_file(Base::dir() / "job.toml", cache / "job.toml", ec);
    if (!ec) std::ofstream(cache / "done") << "kept\n";
  }

  static const nlohmann::json& row(const std::string& name) { return compare_row(compared_, name); }
  static double original(const std::string& name) { return row(name)["original"].get<double>(); }
  static double replay(const std::string& name) { return row(name)["replay"].get<double>(); }
  static std::string verdict(const std::string& name) {
    return row(name)["verdict"].get<std::string>();
  }
  static double truth(const char* key) { return truth_[key].get<double>(); }
  // Sum of a ground-truth list (steps per epoch, ...).
  static double total(const char* key) {
    double s = 0;
    for (const auto& v : truth_[key]) s += v.get<double>();
    return s;
  }

  static inline nlohmann::json truth_;
  static inline nlohmann::json summary_;  // `distil --json orig.h5`
  static inline nlohmann::json compared_;
  static inline Job job_;
};

}  // namespace dlgen::testing
