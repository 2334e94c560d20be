// dlgen mlperf on checkpoint-only jobs (MLPerf Storage v2.0's checkpointing rules) and the
// submission folder of either kind of workload (mlperf_cli.hpp).
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <numeric>
#include <optional>
#include <sstream>
#include <thread>

#include "commands.hpp"
#include "dlgen/core/job_io.hpp"
#include "dlgen/core/progress.hpp"
#include "dlgen/dlio/config.hpp"
#include "dlgen/dlio/summary.hpp"
#include "dlgen/mlperf/mlperf_checkpoint.hpp"
#include "mlperf_cli.hpp"

namespace dlgen::cli {
namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;

std::string hostname() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  return host;
}

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
                          const std::vector<mlperf::SubmissionRun>& runs) {
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

}  // namespace

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
  replay::DlioSummaryContext ctx;
  ctx.hostname = hostname();
  ctx.start = start;
  ctx.end = end;
  ctx.hosts = hosts;
  s.summary_json = replay::dlio_summary_json(job, report, ctx);
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
                              const std::vector<mlperf::SubmissionRun>& runs) {
  return write_submission_tree(job, o, division, false, job.name, results_json, runs);
}

int mlperf_checkpoint(const Job& job, const MlperfOutputs& o, replay::Cluster& cl) {
  const bool root = cl.rank() == 0;
  const bool several = cl.size() > 1;
  auto fail = [root](const Error& e) { return root ? report_error(e) : e.exit_code(); };
  const std::string workload = mlperf::mlperf_checkpoint_workload(job);
  std::optional<Job> reference;
  if (!workload.empty())
    if (Result<Job> r = mlperf::mlperf_checkpoint_reference(workload); r) reference = *r;
  {
    // Only rank 0 writes the results: only it looks at the folder.
    const int rc = root ? check_submission_free(job, o, true, workload) : 0;
    const std::uint8_t free_rc =
        replay::from_rank0<std::uint8_t>(cl, static_cast<std::uint8_t>(rc));
    if (free_rc != 0) return free_rc;
  }
  mlperf::MlperfCheckpointOptions mo;
  // MLPerf's 10 written and 10 read: by default one of each per run (10 runs).
  mo.runs = o.runs > 0 ? o.runs : std::gcd(job.checkpoint.writes, job.checkpoint.reads);
  if (mo.runs == 0) mo.runs = 1;
  mo.hosts = cl.size();
  std::vector<mlperf::SubmissionRun> sub;
  std::time_t last = 0;
  const std::string host = hostname();
  auto run = [&](const Job& j, std::uint32_t first) -> Result<mlperf::CheckpointRunResult> {
    mlperf::CheckpointRunOptions co;
    co.first_index = first;
    co.ram_bytes = o.ram;
    co.progress = root && !o.quiet && progress_enabled();
    co.cluster = &cl;
    const std::string start = dlio_time_text();
    // Under mpirun: every host's records merged, on every rank.
    Result<mlperf::CheckpointRunResult> r = mlperf::run_checkpoint_workflow(j, co);
    if (!r || o.results_dir.empty() || !root) return r;
    last = distinct_second(last);
    mlperf::SubmissionRun s;
    s.timestamp = mlperf::submission_timestamp(last);
    mlperf::DlioCheckpointContext ctx;
    ctx.hostname = host;
    ctx.start = start;
    ctx.end = dlio_time_text();
    ctx.hosts = several ? static_cast<std::uint32_t>(r->hosts.size()) : 1;
    ctx.host_memory_gib =
        double(r->hosts.empty() ? r->ram_bytes : r->hosts.front().ram_bytes) / kGiB;
    s.summary_json = mlperf::dlio_checkpoint_summary_json(*r, ctx);
    s.per_epoch_stats_json = mlperf::dlio_checkpoint_epoch_stats_json(*r);
    s.output_json = mlperf::checkpoint_json(*r);
    s.log = mlperf::format_checkpoint_summary(*r);
    sub.push_back(std::move(s));
    return r;
  };
  auto observe = [&](const mlperf::MlperfCheckpointRun& m) {
    if (o.quiet || !root) return;
    std::printf(
        "  run %-3u write %u x %.3f s, %.3f GiB/s (slowest rank) | read %u x %.3f s, %.3f GiB/s "
        "| page cache %s\n",
        m.index, m.write.checkpoints, m.write.duration_s, m.write.throughput_bps / kGiB,
        m.read.checkpoints, m.read.duration_s, m.read.throughput_bps / kGiB,
        m.cache_dropped ? "dropped" : "kept");
    std::fflush(stdout);
  };
  Result<mlperf::MlperfCheckpointResult> r =
      mlperf::run_mlperf_checkpoint(job, reference ? &*reference : nullptr, run, mo, observe);
  if (!r) return fail(r.error());
  const std::string json = mlperf::mlperf_checkpoint_json(*r);
  Result<void> written =
      root ? write_files(o.out_dir, {{"results.json", json},
                                     {"results.csv", mlperf::mlperf_checkpoint_csv(*r)},
                                     {"summary.html", mlperf::mlperf_checkpoint_html(*r)}})
           : ok();
  if (Result<void> w = replay::agree(cl, written); !w) return fail(w.error());
  if (!root) return 0;
  std::printf(
      "%s: %s: %zu run(s) x (%u written + %u read): write %.3f s, %.3f GiB/s; read %.3f s, %.3f "
      "GiB/s (means; duration = slowest rank, throughput = slowest rank); runs within %.1f%% / "
      "%.1f%%%s\n",
      r->workload.c_str(), mlperf::to_string(r->division), r->runs.size(), r->writes_per_run,
      r->reads_per_run, r->mean_write.duration_s, r->mean_write.throughput_bps / kGiB,
      r->mean_read.duration_s, r->mean_read.throughput_bps / kGiB, r->write_deviation * 100,
      r->read_deviation * 100,
      several
          ? ("; " + std::to_string(r->ranks) + " ranks on " + std::to_string(r->hosts) + " hosts")
                .c_str()
          : "");
  for (const auto& why : r->reasons) std::printf("  %s\n", why.c_str());
  std::printf("  results in %s/ (results.json, results.csv, summary.html)\n", o.out_dir.c_str());
  if (!o.results_dir.empty())
    return write_submission_tree(job, o, r->division, true, workload.empty() ? job.name : workload,
                                 json, sub);
  return 0;
}

}  // namespace dlgen::cli
