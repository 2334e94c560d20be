// `dlgen compare ORIG.h5 REPLAY.h5` and `dlgen fidelity -- CMD...`: the fidelity check of a replay
// against the run it was distilled from. Exit 0: every metric within tolerance; 1: some not, a
// trace lost events (unless --allow-lost), or a runtime failure; 2: bad arguments or unreadable
// traces.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "dlgen/analysis/summary.hpp"
#include "dlgen/compare/compare.hpp"
#include "dlgen/trace/trace_io.hpp"

extern char** environ;

namespace dlgen::cli {
namespace {

struct CompareOptions {
  std::vector<std::string> original, replay;  // one trace each, or one per host
  std::vector<std::string> positional;        // today's form: ORIGINAL REPLAY
  // Further captures of the original run, each one trace or a comma-joined set, one per host.
  std::vector<std::string> original_repeats;
  bool json = false;
  std::string report;
  std::string json_out;
  std::vector<std::string> tolerances;
  std::string tolerance_file;
  bool quiet = false;
  bool allow_lost = false;
};

void add_tolerance_options(CLI::App* cmd, CompareOptions& o) {
  cmd->add_option("--tolerance", o.tolerances,
                  "Override a metric's tolerance: metric=value (0.1 or 10%); repeatable")
      ->type_name("METRIC=VALUE");
  cmd->add_option("--tolerances", o.tolerance_file, "TOML file of metric = tolerance")
      ->check(CLI::ExistingFile);
  cmd->add_option("--report", o.report, "Write a self-contained HTML fidelity report here");
  cmd->add_option("--json-out", o.json_out, "Write the JSON comparison to this file");
  cmd->add_flag("--json", o.json, "Print the comparison as JSON instead of a table");
  cmd->add_flag("-q,--quiet", o.quiet, "Print only the verdict line");
  cmd->add_flag(
      "--allow-lost", o.allow_lost,
      "Judge traces that lost events during capture on their metrics (by default they fail)");
}

Result<compare::Profile> load_profile(const std::vector<std::string>& paths, const char* label) {
  auto trace = read_host_traces(paths);
  if (!trace) return trace.error();
  analysis::TraceSummary summary = analysis::summarize(*trace);
  compare::Profile p = compare::profile_of(*trace, summary);
  p.label = std::string(label) + " (" + join_paths(paths) + ")";
  return p;
}

int run_compare(CompareOptions o) {
  // Either `compare ORIGINAL REPLAY` or `--original A.h5 [B.h5...] --replay C.h5 [D.h5...]`
  // (one trace per host on either side).
  if (!o.positional.empty()) {
    if (o.positional.size() != 2 || !o.original.empty() || !o.replay.empty())
      return report_error(input_error(
          "compare: give ORIGINAL.h5 REPLAY.h5, or --original A.h5 [B.h5...] --replay C.h5 "
          "[D.h5...] (one trace per host)"));
    o.original = {o.positional[0]};
    o.replay = {o.positional[1]};
  }
  if (o.original.empty() || o.replay.empty())
    return report_error(input_error(
        "compare: both sides are needed: ORIGINAL.h5 REPLAY.h5, or --original ... --replay ..."));
  compare::Tolerances tol;
  if (!o.tolerance_file.empty()) {
    if (auto r = compare::load_tolerances(tol, o.tolerance_file); !r)
      return report_error(r.error());
  }
  for (const auto& t : o.tolerances)
    if (auto r = compare::apply_tolerance(tol, t); !r) return report_error(r.error());
  // Each repeat is the same run captured again, so it names as many traces (hosts) as --original.
  std::vector<std::vector<std::string>> repeats;
  for (const auto& r : o.original_repeats) {
    std::vector<std::string> paths;
    for (std::size_t at = 0;;) {
      const std::size_t comma = r.find(',', at);
      paths.push_back(r.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
      if (comma == std::string::npos) break;
      at = comma + 1;
    }
    for (const auto& p : paths) {
      if (p.empty())
        return report_error(input_error("--original-repeat " + r + ": an empty trace path"));
      if (!std::filesystem::is_regular_file(p))
        return report_error(input_error("--original-repeat " + r + ": " + p + ": no such file"));
    }
    if (paths.size() != o.original.size())
      return report_error(input_error(
          "--original-repeat " + r + ": " + std::to_string(paths.size()) +
          " trace(s), but the original has " + std::to_string(o.original.size()) +
          " (a repeat is the same run captured again: one trace per host, comma-joined)"));
    repeats.push_back(std::move(paths));
  }
  std::vector<compare::Profile> originals;
  auto a = load_profile(o.original, "original");
  if (!a) return report_error(a.error());
  originals.push_back(std::move(*a));
  for (std::size_t i = 0; i < repeats.size(); ++i) {
    const std::string label = "original " + std::to_string(i + 2);
    auto r = load_profile(repeats[i], label.c_str());
    if (!r) return report_error(r.error());
    originals.push_back(std::move(*r));
  }
  auto b = load_profile(o.replay, "replay");
  if (!b) return report_error(b.error());
  compare::Comparison c = compare::compare(
      originals, *b, tol,
      o.allow_lost ? compare::LostEventsPolicy::allow : compare::LostEventsPolicy::refuse);

  if (!o.report.empty()) {
    if (auto r = write_text_file(o.report, compare::to_html(c, "dlgen fidelity report")); !r)
      return report_error(r.error());
  }
  if (!o.json_out.empty()) {
    if (auto r = write_text_file(o.json_out, compare::to_json(c)); !r)
      return report_error(r.error());
  }
  if (o.json) {
    std::fputs(compare::to_json(c).c_str(), stdout);
  } else if (o.quiet) {
    std::printf("fidelity: %s (%zu failed%s)\n", c.pass() ? "PASS" : "FAIL", c.failures(),
                c.refusals.empty() ? "" : "; a trace lost events");
    for (const auto& r : c.refusals) std::fprintf(stderr, "dlgen: %s\n", r.c_str());
  } else {
    std::fputs(compare::format_table(c).c_str(), stdout);
    if (!o.report.empty()) std::printf("report: %s\n", o.report.c_str());
  }
  return c.pass() ? 0 : 1;
}

// Runs this binary's own verb (`/proc/self/exe verb args...`) and returns its exit status.
int run_self(const std::vector<std::string>& args) {
  std::vector<std::string> argv_s = {"dlgen"};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& s : argv_s) argv.push_back(s.data());
  argv.push_back(nullptr);
  std::string line = "dlgen fidelity: running dlgen";
  for (const auto& a : args) line += " " + a;
  std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(nullptr);
  pid_t pid = 0;
  if (int rc = posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, argv.data(), environ);
      rc != 0) {
    std::fprintf(stderr, "dlgen: fidelity: cannot start /proc/self/exe: %s\n", std::strerror(rc));
    return 1;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return 1;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 1;
}

struct FidelityOptions {
  CompareOptions compare;
  std::string workdir = "fidelity";
  std::vector<std::string> sets;
  std::vector<std::string> command;
};

int run_fidelity(FidelityOptions& o) {
  std::error_code ec;
  std::filesystem::create_directories(o.workdir, ec);
  if (ec) return report_error(runtime_error(o.workdir + ": " + ec.message()));
  const std::string orig = o.workdir + "/original.h5", job = o.workdir + "/job.toml",
                    replay = o.workdir + "/replay.h5";
  std::vector<std::string> capture = {"capture", "-o", orig, "--"};
  capture.insert(capture.end(), o.command.begin(), o.command.end());
  // The traced command's own exit status is the capture's business; a missing trace is ours.
  int rc = run_self(capture);
  if (rc == 2 || rc == 77) return rc;
  if (!std::filesystem::exists(orig))
    return report_error(runtime_error("capture wrote no trace: " + orig));
  // Absolute paths for the replay's dataset and checkpoints: the tracer resolves relative paths
  // only while the opening process's cwd can still be read.
  const std::string abs = std::filesystem::absolute(o.workdir).lexically_normal().string();
  if ((rc = run_self({"distil", orig, "-o", job, "--dataset-dir", abs + "/data"})) != 0) return rc;
  std::vector<std::string> sets;
  sets.push_back("checkpoint.dir=" + abs + "/checkpoints");
  sets.insert(sets.end(), o.sets.begin(), o.sets.end());
  std::vector<std::string> generate = {"generate", job};
  for (const auto& s : sets) generate.insert(generate.end(), {"--set", s});
  // The dataset is made before the replay is traced, so its writes are not part of the replay.
  if ((rc = run_self(generate)) != 0) return rc;
  std::vector<std::string> run = {"run", job, "--capture", replay};
  for (const auto& s : sets) run.insert(run.end(), {"--set", s});
  if ((rc = run_self(run)) != 0) return rc;
  o.compare.original = {orig};
  o.compare.replay = {replay};
  if (o.compare.report.empty()) o.compare.report = o.workdir + "/fidelity.html";
  return run_compare(o.compare);
}

}  // namespace

void add_compare_commands(CLI::App& app, Action& action) {
  auto co = std::make_shared<CompareOptions>();
  auto* cmp = app.add_subcommand(
      "compare", "Compare a replay's trace with the original run's trace (fidelity)");
  cmp->add_option("traces", co->positional,
                  "ORIGINAL.h5 REPLAY.h5: the original run's trace and the replay's (dlgen run "
                  "--capture)")
      ->check(CLI::ExistingFile);
  cmp->add_option("--original", co->original,
                  "The original run's traces, one per host (mpirun -np N dlgen capture -o "
                  "run-%r.h5): --original run-*.h5")
      ->check(CLI::ExistingFile);
  cmp->add_option("--replay", co->replay, "The replay's traces, one per host")
      ->check(CLI::ExistingFile);
  // One value per occurrence, so `--original-repeat b.h5 replay.h5` leaves the replay positional.
  cmp->add_option("--original-repeat", co->original_repeats,
                  "Another capture of the same original run (one per host, comma-joined: "
                  "r2-0.h5,r2-1.h5); repeatable. Host-time rows are judged at the larger of their "
                  "tolerance and the originals' own spread")
      ->type_name("TRACE[,TRACE...]")
      ->allow_extra_args(false);
  add_tolerance_options(cmp, *co);
  cmp->callback([co, &action] { action = [co] { return run_compare(*co); }; });

  auto fo = std::make_shared<FidelityOptions>();
  auto* fid = app.add_subcommand(
      "fidelity", "Capture CMD, distil it, replay the job with capture, and compare");
  fid->add_option("--workdir", fo->workdir, "Where the traces, job and report go")
      ->capture_default_str();
  fid->add_option("--set", fo->sets,
                  "Override a key of the distilled job for the replay: key=value; repeatable");
  add_tolerance_options(fid, fo->compare);
  fid->add_option("command", fo->command, "The training command, after --")->required();
  fid->callback([fo, &action] { action = [fo] { return run_fidelity(*fo); }; });
}

}  // namespace dlgen::cli
