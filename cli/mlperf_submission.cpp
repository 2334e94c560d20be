// The submission folder of `dlgen mlperf` (mlperf_cli.hpp, docs/mlperf.md "Submission folder"):
// the files of every run and of the whole workload, for training and checkpointing alike, and the
// provenance and times they carry.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "commands.hpp"
#include "dlgen/core/job_io.hpp"
#include "dlgen/dlio/config.hpp"
#include "dlgen/dlio/summary.hpp"
#include "dlgen/mlperf/mlperf.hpp"
#include "dlgen/mlperf/provenance.hpp"
#include "mlperf_cli.hpp"

namespace dlgen::cli {
namespace {

// This process's command line, from /proc/self/cmdline, arguments joined by spaces.
std::string command_line() {
  std::ifstream f("/proc/self/cmdline", std::ios::binary);
  std::string arg, out;
  while (std::getline(f, arg, '\0')) out += (out.empty() ? "" : " ") + arg;
  return out;
}

// dlio_config/config.yaml: the DLIO config as given, the job converted to one, or why not.
std::string config_yaml(const Job& job, const std::string& path) {
  if (is_dlio_config(path)) {
    std::ifstream f(path, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return "# " + path + " as given; the overrides are in overrides.yaml\n" + s.str();
  }
  Result<std::string> y = to_dlio_yaml(job);
  if (y) return "# `dlgen convert --to dlio` of " + path + "\n" + *y;
  std::string why = "# " + path + " has no DLIO form:\n";
  std::istringstream lines(y.error().message);
  for (std::string l; std::getline(lines, l);) why += "#   " + l + "\n";
  return why + "# The job as run is dlgen_job.toml, beside dlio_config/.\n{}\n";
}

}  // namespace

std::string hostname() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  return host;
}

Result<void> write_files(const std::string& dir,
                         const std::vector<std::pair<const char*, std::string>>& files) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return runtime_error(dir + ": " + ec.message());
  for (const auto& [name, text] : files) {
    const std::filesystem::path p = std::filesystem::path(dir) / name;
    if (Result<void> w = write_text_file(p, text); !w) return w.error();
  }
  return ok();
}

int write_submission_tree(const Job& job, const MlperfOutputs& o, mlperf::Division division,
                          bool checkpointing, const std::string& workload,
                          const std::string& results_json,
                          const std::vector<mlperf::SubmissionRun>& runs,
                          const std::vector<mlperf::SubmissionStep>& steps) {
  mlperf::SubmissionSpec s;
  s.submitter = o.submitter;
  s.system = o.system;
  s.division = division;
  s.checkpointing = checkpointing;
  s.workload = workload;
  s.results_json = results_json;
  s.job_toml = to_toml(job);
  s.config_yaml = config_yaml(job, o.job_path);
  s.overrides = o.overrides;
  s.command_line = command_line();
  s.tool_version = std::string("dlgen ") + DLGEN_VERSION;
  s.runs = runs;
  s.steps = steps;
  Result<std::vector<mlperf::SubmissionFile>> files = mlperf::submission_files(s);
  if (!files) return report_error(files.error());
  if (Result<void> w = mlperf::write_submission(o.results_dir, *files); !w)
    return report_error(w.error());
  if (!o.quiet)
    std::printf(
        "  submission folder: %s/%s/%s/ (%s; fill in systems/%s.json)\n", o.results_dir.c_str(),
        mlperf::submission_division_folder(division), mlperf::submission_name(o.submitter).c_str(),
        checkpointing ? "checkpointing" : "training", mlperf::submission_name(o.system).c_str());
  return 0;
}

std::string dlio_time_text() {
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  std::tm tm{};
  localtime_r(&ts.tv_sec, &tm);
  char buf[64];
  const std::size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  std::snprintf(buf + n, sizeof buf - n, ".%06ld", ts.tv_nsec / 1000);
  return buf;
}

std::string run_provenance(const Job& job, const MlperfOutputs& o, const std::string& workload,
                           std::uint32_t index, bool warmup, const std::string& start,
                           const std::string& end) {
  mlperf::Provenance p = mlperf::make_provenance(
      job, mlperf::to_string(o.v3 ? mlperf::Round::v3_0 : mlperf::Round::v2_0), command_line());
  p.workload = workload;
  p.accelerator = o.accelerator;
  p.run = index;
  p.warmup = warmup;
  p.start = start;
  p.end = end;
  p.clients = o.clients;
  p.invocation_start_unix_s = o.invocation_start_unix_s;
  p.end_unix_s = now_unix_s();
  return mlperf::provenance_json(p);
}

std::time_t distinct_second(std::time_t last) {
  for (;;) {
    const auto now = std::chrono::system_clock::now();
    const std::time_t t = std::chrono::system_clock::to_time_t(now);
    if (t > last) return t;
    std::this_thread::sleep_until(std::chrono::system_clock::from_time_t(last + 1));
  }
}

mlperf::SubmissionRun training_submission_run(const Job& job, const replay::Report& report,
                                              const std::string& start, const std::string& end,
                                              std::time_t ended, bool warmup,
                                              const std::string& log, std::uint32_t hosts) {
  mlperf::SubmissionRun s;
  s.timestamp = mlperf::submission_timestamp(ended);
  dlio::DlioSummaryContext ctx;
  ctx.hostname = hostname();
  ctx.start = start;
  ctx.end = end;
  ctx.hosts = hosts;
  s.summary_json = dlio::dlio_summary_json(job, report, ctx);
  s.per_epoch_stats_json = mlperf::dlio_training_epoch_stats_json(report);
  s.output_json = replay::to_json(report);
  s.log = log;
  s.warmup = warmup;
  return s;
}

int check_submission_free(const Job& job, const MlperfOutputs& o, bool checkpointing,
                          const std::string& workload) {
  if (o.results_dir.empty()) return 0;
  mlperf::SubmissionSpec s;
  s.submitter = o.submitter;
  s.system = o.system;
  s.checkpointing = checkpointing;
  s.workload = workload.empty() ? job.name : workload;
  if (Result<void> r = mlperf::check_submission_free(o.results_dir, s); !r)
    return report_error(r.error());
  return 0;
}

int write_training_submission(const Job& job, const MlperfOutputs& o, mlperf::Division division,
                              const std::string& results_json,
                              const std::vector<mlperf::SubmissionRun>& runs,
                              const std::vector<mlperf::SubmissionStep>& steps) {
  return write_submission_tree(job, o, division, false, job.name, results_json, runs, steps);
}

mlperf::SubmissionStep training_step(const Job& job, const MlperfOutputs& o,
                                     const std::string& command, std::uint64_t files,
                                     const mlperf::MlperfSizing& sizing, const std::string& start) {
  const mlperf::ClientInfo& c = o.clients;
  mlperf::StepInputs in;
  in.command = command;
  in.accelerator = o.accelerator;
  in.accelerators = c.accelerators;
  in.hosts = c.hosts;
  in.client_host_memory_gib = double(std::max(c.ram_bytes, c.measured_ram_bytes)) /
                              std::max<std::uint32_t>(c.hosts, 1) / (1024.0 * 1024 * 1024);
  in.files = files;
  in.sizing = sizing;
  mlperf::SubmissionStep st;
  st.command = command;
  st.timestamp = mlperf::submission_timestamp(std::time(nullptr));
  st.metadata_json = mlperf::training_step_metadata_json(job, in);
  st.log = command + ": " + std::to_string(files) + " files of " + job.name + " in " +
           job.dataset.dir.string() + "\n";
  if (o.v3)
    st.provenance_json = run_provenance(job, o, job.name, 0, false, start, dlio_time_text());
  return st;
}

}  // namespace dlgen::cli
