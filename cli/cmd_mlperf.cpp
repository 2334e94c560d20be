// dlgen mlperf JOB|CONFIG: MLPerf Storage's run rules (replay/mlperf.hpp, docs/mlperf.md), for
// training jobs and checkpoint-only jobs (v2.0's checkpointing rules); the submission folder of
// either kind of workload is mlperf_submission.cpp's (mlperf_cli.hpp). Under mpirun
// (docs/mlperf.md, "Several hosts") every rank is one client host; without it this process is a
// cluster of one.
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <optional>

#include "commands.hpp"
#include "dlgen/cluster/cluster_report.hpp"
#include "dlgen/cluster/datasets.hpp"
#include "dlgen/core/job_io.hpp"
#include "dlgen/core/limits.hpp"
#include "dlgen/core/progress.hpp"
#include "dlgen/core/storage_location.hpp"
#include "dlgen/core/units.hpp"
#include "dlgen/engine/registry.hpp"
#include "dlgen/mlperf/mlperf.hpp"
#include "dlgen/mlperf/mlperf_checkpoint.hpp"
#include "dlgen/mlperf/rules.hpp"
#include "dlgen/replay/runner.hpp"
#include "job_args.hpp"
#include "mlperf_cli.hpp"

namespace dlgen::cli {
namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;

// Before the runs: whether --results-dir already holds this workload's results. Only rank 0
// writes the results, so only it looks at the folder; every rank gets its exit code (0: free).
int agreed_submission_free(const Job& job, const MlperfOutputs& o, bool checkpointing,
                           const std::string& workload, cluster::Cluster& cl) {
  const int rc = cl.rank() == 0 ? check_submission_free(job, o, checkpointing, workload) : 0;
  return cluster::from_rank0<std::uint8_t>(cl, static_cast<std::uint8_t>(rc));
}

// The published reference of the job's checkpointing workload ("llama3-8b", ...), if any.
std::optional<Job> checkpoint_reference(const std::string& workload) {
  if (workload.empty()) return std::nullopt;
  Result<Job> r = mlperf::mlperf_checkpoint_reference(workload);
  return r ? std::optional<Job>(*r) : std::nullopt;
}

mlperf::MlperfCheckpointOptions checkpoint_rule_options(const Job& job, const MlperfOutputs& o,
                                                        std::uint32_t hosts) {
  mlperf::MlperfCheckpointOptions mo;
  // MLPerf's 10 written and 10 read: v3.0 runs them in one invocation (Rules.md 2.1.23); v2.0 by
  // default one of each per run (10 runs).
  mo.runs = o.runs > 0 ? o.runs : o.v3 ? 1 : std::gcd(job.checkpoint.writes, job.checkpoint.reads);
  if (mo.runs == 0) mo.runs = 1;
  mo.hosts = hosts;
  mo.v3 = o.v3;
  mo.accelerator = o.accelerator;
  return mo;
}

// One run of the checkpoint workflow (its checkpoints numbered from `first`) on every rank;
// rank 0 alone shows progress.
mlperf::CheckpointRunOptions checkpoint_run_options(const MlperfOutputs& o, std::uint32_t first,
                                                    cluster::Cluster& cl) {
  mlperf::CheckpointRunOptions co;
  co.engine = o.engine;
  co.first_index = first;
  co.ram_bytes = o.ram;
  co.progress = cl.rank() == 0 && !o.quiet && progress_enabled();
  co.cluster = &cl;
  return co;
}

// One checkpoint run's files for the submission folder, named after `second`: DLIO's summary and
// per-epoch statistics, the run's JSON and log, and under v3.0 its provenance (`index`, 1-based).
mlperf::SubmissionRun checkpoint_submission_run(const Job& job, const MlperfOutputs& o,
                                                const std::string& workload,
                                                const mlperf::CheckpointRunResult& r,
                                                const std::string& start, std::time_t second,
                                                std::uint32_t index, bool several) {
  mlperf::SubmissionRun s;
  s.timestamp = mlperf::submission_timestamp(second);
  mlperf::DlioCheckpointContext ctx;
  ctx.hostname = hostname();
  ctx.start = start;
  ctx.end = dlio_time_text();
  ctx.hosts = several ? static_cast<std::uint32_t>(r.hosts.size()) : 1;
  ctx.host_memory_gib = double(r.hosts.empty() ? r.ram_bytes : r.hosts.front().ram_bytes) / kGiB;
  s.summary_json = mlperf::dlio_checkpoint_summary_json(r, ctx);
  s.per_epoch_stats_json = mlperf::dlio_checkpoint_epoch_stats_json(r);
  s.output_json = mlperf::checkpoint_json(r);
  s.log = mlperf::format_checkpoint_summary(r);
  if (o.v3) s.provenance_json = run_provenance(job, o, workload, index, false, start, ctx.end);
  return s;
}

void print_checkpoint_run(const mlperf::MlperfCheckpointRun& m) {
  std::printf(
      "  run %-3u write %u x %.3f s, %.3f GiB/s (slowest rank) | read %u x %.3f s, %.3f GiB/s "
      "| page cache %s\n",
      m.index, m.write.checkpoints, m.write.duration_s, m.write.throughput_bps / kGiB,
      m.read.checkpoints, m.read.duration_s, m.read.throughput_bps / kGiB,
      m.cache_dropped ? "dropped" : "kept");
  std::fflush(stdout);
}

// results.json (`json`), results.csv, summary.html and under v3.0 the invocation's provenance.
std::vector<std::pair<const char*, std::string>> checkpoint_result_files(
    const Job& job, const MlperfOutputs& o, const std::string& workload,
    const mlperf::MlperfCheckpointResult& r, const std::string& json) {
  std::vector<std::pair<const char*, std::string>> files = {
      {"results.json", json},
      {"results.csv", mlperf::mlperf_checkpoint_csv(r)},
      {"summary.html", mlperf::mlperf_checkpoint_html(r)}};
  if (o.v3)
    files.emplace_back(
        "provenance.json",
        run_provenance(job, o, workload, 0, false, o.invocation_start_text, dlio_time_text()));
  return files;
}

void print_checkpoint_verdict(const mlperf::MlperfCheckpointResult& r, const std::string& out_dir,
                              bool several) {
  std::printf(
      "%s: %s: %zu run(s) x (%u written + %u read): write %.3f s, %.3f GiB/s; read %.3f s, %.3f "
      "GiB/s (means; duration = slowest rank, throughput = slowest rank); runs within %.1f%% / "
      "%.1f%%%s\n",
      r.workload.c_str(), mlperf::to_string(r.division), r.runs.size(), r.writes_per_run,
      r.reads_per_run, r.mean_write.duration_s, r.mean_write.throughput_bps / kGiB,
      r.mean_read.duration_s, r.mean_read.throughput_bps / kGiB, r.write_deviation * 100,
      r.read_deviation * 100,
      several ? ("; " + std::to_string(r.ranks) + " ranks on " + std::to_string(r.hosts) + " hosts")
                    .c_str()
              : "");
  for (const auto& why : r.reasons) std::printf("  %s\n", why.c_str());
  std::printf("  results in %s/ (results.json, results.csv, summary.html)\n", out_dir.c_str());
}

}  // namespace

// The steps: the reference and a free submission folder, the runs (each, with --results-dir, one
// submission run on rank 0), the verdict, rank 0's files and summary, the submission folder.
int mlperf_checkpoint(const Job& job, const MlperfOutputs& o, cluster::Cluster& cl) {
  const bool root = cl.rank() == 0;
  const bool several = cl.size() > 1;
  const std::string workload = mlperf::mlperf_checkpoint_workload(job);
  const std::string name = workload.empty() ? job.name : workload;
  const std::optional<Job> reference = checkpoint_reference(workload);
  if (const int rc = agreed_submission_free(job, o, true, workload, cl); rc != 0) return rc;
  std::vector<mlperf::SubmissionRun> sub;
  std::time_t last = 0;
  auto run = [&](const Job& j, std::uint32_t first) -> Result<mlperf::CheckpointRunResult> {
    const std::string start = dlio_time_text();
    // Under mpirun: every host's records merged, on every rank.
    Result<mlperf::CheckpointRunResult> r =
        mlperf::run_checkpoint_workflow(j, checkpoint_run_options(o, first, cl));
    if (!r || o.results_dir.empty() || !root) return r;
    last = distinct_second(last);
    sub.push_back(checkpoint_submission_run(job, o, name, *r, start, last,
                                            static_cast<std::uint32_t>(sub.size() + 1), several));
    return r;
  };
  auto observe = [&](const mlperf::MlperfCheckpointRun& m) {
    if (!o.quiet && root) print_checkpoint_run(m);
  };
  Result<mlperf::MlperfCheckpointResult> r =
      mlperf::run_mlperf_checkpoint(job, reference ? &*reference : nullptr, run,
                                    checkpoint_rule_options(job, o, cl.size()), observe);
  if (!r) return fail_on(cl, r.error());
  if (o.v3 && root) judge_checkpoint_phases(job, o, workload, *r);
  const std::string json = mlperf::mlperf_checkpoint_json(*r);
  Result<void> written =
      root ? write_files(o.out_dir, checkpoint_result_files(job, o, name, *r, json)) : ok();
  if (Result<void> w = cl.agree(written); !w) return fail_on(cl, w.error());
  if (!root) return 0;
  print_checkpoint_verdict(*r, o.out_dir, several);
  if (!o.results_dir.empty())
    return write_submission_tree(job, o, r->division, true, name, json, sub);
  return 0;
}

namespace {

struct MlperfArgs {
  JobArgs job;
  std::string engine{engine::default_name()};
  bool engine_given = false;  // --engine; without it, s3 for checkpoints on an object store
  std::string out_dir = "mlperf-results";
  std::string results_dir;  // the submission folder (mlperf_cli.hpp)
  std::string submitter = "dlgen-user";
  std::string system = "system-under-test";
  std::string ram;
  std::uint32_t runs = 0;  // 0: 5 for training; for checkpointing, one checkpoint each
  bool no_warmup = false;
  bool no_size = false;
  bool quiet = false;
  std::string rules = mlperf::to_string(mlperf::kDefaultRules);  // --rules
};

// The clients' RAM: what the dataset is sized for (--ram, default this host's) and what the host
// measures (what the rules mean: a training run sized for less is INVALID, mlperf::MlperfOptions),
// this host's and every host's once (its lowest rank counts it).
struct ClientRam {
  std::uint64_t here = 0, measured = 0;
  std::uint64_t all = 0, measured_all = 0;
};
Result<ClientRam> client_ram(const MlperfArgs& a, cluster::Cluster& cl) {
  ClientRam ram;
  ram.measured = limits::host_memory_bytes();
  ram.here = ram.measured;
  if (!a.ram.empty()) {
    Result<std::uint64_t> r = parse_size(a.ram);
    if (!r) return input_error("--ram " + a.ram + ": " + r.error().message);
    ram.here = *r;
  }
  const bool several = cl.size() > 1;
  ram.all = several ? cl.sum(cl.host_leader() ? ram.here : 0) : ram.here;
  ram.measured_all = several ? cl.sum(cl.host_leader() ? ram.measured : 0) : ram.measured;
  return ram;
}

// The clients as provenance.json records them (the dataset-size rule, Rules.md 3.1.2): hosts
// (each counted once, by its lowest rank), ranks, the accelerators of a training job on all of
// them, and their RAM (as sized for and as measured, all hosts).
mlperf::ClientInfo client_info(const Job& job, const ClientRam& ram, cluster::Cluster& cl) {
  mlperf::ClientInfo c;
  c.ranks = static_cast<std::uint32_t>(cl.size());
  c.hosts = cl.size() > 1 ? static_cast<std::uint32_t>(cl.sum(cl.host_leader() ? 1 : 0)) : 1;
  c.accelerators = job.run.train ? std::uint64_t{job.run.accelerators} * c.ranks : 0;
  c.ram_bytes = ram.all;
  c.measured_ram_bytes = ram.measured_all;
  return c;
}

MlperfOutputs mlperf_outputs(const MlperfArgs& a, std::uint64_t ram) {
  MlperfOutputs outputs;
  outputs.job_path = a.job.job;
  if (!a.job.scale.empty()) outputs.overrides.push_back("--scale " + a.job.scale);
  if (!a.job.accelerator.empty()) outputs.overrides.push_back("--accelerator " + a.job.accelerator);
  for (const auto& s : a.job.sets) outputs.overrides.push_back("--set " + s);
  outputs.overrides.insert(outputs.overrides.end(), a.job.hydra.begin(), a.job.hydra.end());
  outputs.out_dir = a.out_dir;
  outputs.results_dir = a.results_dir;
  outputs.submitter = a.submitter;
  outputs.system = a.system;
  outputs.ram = ram;  // this host's: the checkpoint rule is per host
  outputs.runs = a.runs;
  outputs.engine = a.engine;
  outputs.quiet = a.quiet;
  outputs.accelerator = a.job.accelerator;
  return outputs;
}

// The rules' dataset size (500 steps of every accelerator of every host, 5 x the clients' RAM):
// the job is resized when smaller (unless --no-size), then checked again with this host's RAM
// (the plan must fit), before anything is generated; under mpirun every rank checks with its own
// host's RAM, and all agree.
Result<void> size_dataset(Job& job, const MlperfArgs& a, const ClientRam& ram,
                          mlperf::MlperfOptions& mo, cluster::Cluster& cl) {
  const bool several = cl.size() > 1;
  mo.sizing = mlperf::mlperf_cluster_dataset_size(job, cl.size(), ram.all);
  if (a.no_size || job.dataset.num_files >= mo.sizing.files) return ok();
  if (!a.quiet && cl.rank() == 0)
    std::fprintf(
        stderr,
        "dlgen: mlperf: dataset sized to %llu files (was %llu): 500 steps x %u x %u "
        "accelerator(s)%s = %llu samples, 5 x RAM%s = %llu samples\n",
        static_cast<unsigned long long>(mo.sizing.files),
        static_cast<unsigned long long>(job.dataset.num_files), job.reader.batch_size,
        job.run.accelerators, several ? (" x " + std::to_string(cl.size()) + " ranks").c_str() : "",
        static_cast<unsigned long long>(mo.sizing.samples_for_steps), several ? " (all hosts)" : "",
        static_cast<unsigned long long>(mo.sizing.samples_for_memory));
  job.dataset.num_files = mo.sizing.files;
  Result<void> valid = ok();
  if (const std::vector<Diagnostic> d = validate(job, ram.measured); !d.empty()) {
    std::string why = a.job.job + ": resized by the MLPerf rules to " +
                      std::to_string(job.dataset.num_files) + " files, the job is not valid:";
    for (const Diagnostic& x : d) why += "\n  " + x.path + ": " + x.message;
    valid = input_error(why);
  }
  return cl.agree(valid);
}

// The accelerator the training rules judge: --accelerator, else the one whose published config
// the job matches (the chosen round's, else v2.0's); "" when none.
std::string training_accelerator(const Job& job, const std::string& given, mlperf::Round round) {
  std::string accelerator = given;
  if (accelerator.empty()) accelerator = mlperf::mlperf_match_accelerator(job, round);
  if (accelerator.empty()) accelerator = mlperf::mlperf_match_accelerator(job, mlperf::Round::v2_0);
  return accelerator;
}

// The reference is the chosen round's published config; a pair that round does not publish
// (v3.0 keeps resnet50 and cosmoflow as whatif without new configs) is judged against v2.0's.
std::optional<Job> training_reference(const Job& job, const std::string& accelerator,
                                      mlperf::Round round) {
  if (accelerator.empty()) return std::nullopt;
  Result<Job> ref = mlperf::mlperf_reference(job.name, accelerator, round);
  if (!ref) ref = mlperf::mlperf_reference(job.name, accelerator, mlperf::Round::v2_0);
  return ref ? std::optional<Job>(*ref) : std::nullopt;
}

// The data of the training runs: the dataset sized by the rules, then generated when missing
// (unless the engine reads nothing). Under v3.0 with --results-dir, rank 0 keeps each step as the
// submission's datasize and datagen folders (Rules.md 2.1.12; none for datagen on a diskless
// engine: no dataset was written or read).
Result<std::vector<mlperf::SubmissionStep>> prepare_training_data(
    Job& job, const MlperfArgs& a, const MlperfOutputs& o, const ClientRam& ram,
    mlperf::MlperfOptions& mo, const engine::EngineOps& engine, cluster::Cluster& cl) {
  std::vector<mlperf::SubmissionStep> steps;
  const bool keep = o.v3 && !a.results_dir.empty() && cl.rank() == 0;
  std::string start = dlio_time_text();
  if (Result<void> s = size_dataset(job, a, ram, mo, cl); !s) return s.error();
  if (keep) steps.push_back(training_step(job, o, "datasize", mo.sizing.files, mo.sizing, start));
  if (engine.caps.diskless) return steps;
  start = dlio_time_text();
  const bool existed = cluster::dataset_ready(cl, job.dataset);
  if (Result<void> r =
          prepare_datasets(cl, job, a.job, DatasetVerb::run, false, a.quiet, engine.name);
      !r)
    return r.error();
  if (keep) {
    steps.push_back(training_step(job, o, "datagen", job.dataset.num_files, {}, start));
    steps.back().log += existed ? "the dataset was there already: its manifest matches the job\n"
                                : "the dataset was generated now (dlgen generate)\n";
  }
  return steps;
}

mlperf::MlperfOptions training_rule_options(const MlperfArgs& a, bool v3,
                                            const std::string& accelerator, const ClientRam& ram) {
  mlperf::MlperfOptions mo;
  mo.runs = a.runs > 0 ? a.runs : 5;
  mo.warmup = !a.no_warmup;
  mo.v3 = v3;
  mo.accelerator = accelerator;
  mo.ram_bytes = ram.all;
  mo.measured_ram_bytes = ram.measured_all;
  return mo;
}

// One run as the submission folder holds it, with its log: every host's under mpirun (gathered
// on every rank), else this host's.
std::pair<replay::Report, std::string> all_hosts_run(const replay::Report& mine,
                                                     cluster::Cluster& cl) {
  replay::Report reduced = mine;
  if (cl.size() <= 1) return {reduced, replay::format_summary(reduced)};
  const cluster::ClusterResult c = cluster::gather_ranks(cl, mine);
  cluster::apply_cluster(c, reduced);
  std::string log = cluster::format_cluster_summary(reduced, c);
  return {std::move(reduced), std::move(log)};
}

void print_training_run(const mlperf::MlperfRun& m, bool several) {
  std::printf("  %-8s seed %llu: %.1f samples/s, %.1f MiB/s, AU %.1f%% %s, %.1f s%s\n",
              m.warmup ? "warm-up" : "run", static_cast<unsigned long long>(m.seed),
              m.samples_per_s, m.mib_per_s, m.au * 100, m.au_passed ? "pass" : "FAIL", m.elapsed_s,
              several ? " (all hosts)" : "");
  std::fflush(stdout);
}

// results.json, results.csv, summary.html and under v3.0 the invocation's provenance.
std::vector<std::pair<const char*, std::string>> training_result_files(
    const Job& job, const MlperfOutputs& judged, const mlperf::MlperfResult& r) {
  std::vector<std::pair<const char*, std::string>> files = {
      {"results.json", mlperf::mlperf_json(r)},
      {"results.csv", mlperf::mlperf_csv(r)},
      {"summary.html", mlperf::mlperf_html(r)}};
  if (judged.v3)
    files.emplace_back("provenance.json",
                       run_provenance(job, judged, job.name, 0, false, judged.invocation_start_text,
                                      dlio_time_text()));
  return files;
}

void print_training_verdict(const mlperf::MlperfResult& r, std::uint32_t runs,
                            const std::string& out_dir, bool several) {
  std::printf(
      "%s: %s: mean %.1f samples/s, %.1f MiB/s, AU %.1f%% (lowest %.1f%%), %zu runs within "
      "%.1f%%%s\n",
      r.workload.c_str(), mlperf::to_string(r.division), r.mean_samples_per_s, r.mean_mib_per_s,
      r.mean_au * 100, r.min_au * 100, static_cast<std::size_t>(runs), r.max_deviation * 100,
      several
          ? (", " + std::to_string(r.ranks) + " ranks on " + std::to_string(r.hosts) + " host(s)")
                .c_str()
          : "");
  for (const auto& why : r.reasons) std::printf("  %s\n", why.c_str());
  std::printf("  results in %s/ (results.json, results.csv, summary.html)\n", out_dir.c_str());
}

// The training rules: the reference for the job's accelerator, a warm-up and N measured runs of
// every host (reduced on every rank), the verdict; rank 0 writes results.json, results.csv,
// summary.html and, with --results-dir, the submission folder.
int mlperf_training(Job job, const MlperfArgs& a, const MlperfOutputs& outputs,
                    const ClientRam& ram, const engine::EngineOps& engine, cluster::Cluster& cl) {
  const bool root = cl.rank() == 0;
  const bool several = cl.size() > 1;
  const mlperf::Round round = outputs.v3 ? mlperf::Round::v3_0 : mlperf::Round::v2_0;
  const std::string accelerator = training_accelerator(job, a.job.accelerator, round);
  const std::optional<Job> reference = training_reference(job, accelerator, round);
  MlperfOutputs judged = outputs;  // provenance.json names the accelerator judged
  judged.accelerator = accelerator;
  mlperf::MlperfOptions mo = training_rule_options(a, outputs.v3, accelerator, ram);
  Result<std::vector<mlperf::SubmissionStep>> steps =
      prepare_training_data(job, a, judged, ram, mo, engine, cl);
  if (!steps) return fail_on(cl, steps.error());
  replay::RunOptions ro;
  ro.engine = engine.name;
  if (several) {
    ro.cluster = &cl;
    // Every rank's result of each run, reduced for reduce_mlperf_ranks.
    mo.gather = [&cl](const replay::Report& mine) { return cluster::gather_ranks(cl, mine); };
  }
  std::vector<mlperf::SubmissionRun> submission;  // with --results-dir: every run's files
  std::time_t last_second = 0;
  auto run = [&](const Job& j) {
    const std::string start = dlio_time_text();
    Result<replay::Report> rep = replay::run_job(j, ro);
    if (!rep || a.results_dir.empty()) return rep;
    // The submission's files hold the run of all hosts (rank 0 writes them).
    const auto [reduced, log] = all_hosts_run(*rep, cl);
    if (!root) return rep;
    last_second = distinct_second(last_second);
    const bool warmup = mo.warmup && submission.empty();
    const std::string end = dlio_time_text();
    submission.push_back(
        training_submission_run(j, reduced, start, end, last_second, warmup, log, cl.size()));
    if (outputs.v3)
      submission.back().provenance_json = run_provenance(
          job, judged, job.name, static_cast<std::uint32_t>(submission.size()), warmup, start, end);
    return rep;
  };
  auto observe = [&](const mlperf::MlperfRun& m) {
    if (!a.quiet && root) print_training_run(m, several);
  };
  Result<mlperf::MlperfResult> r =
      mlperf::run_mlperf(job, reference ? &*reference : nullptr, run, mo, observe);
  if (!r) return fail_on(cl, r.error());
  Result<void> written =
      root ? write_files(a.out_dir, training_result_files(job, judged, *r)) : ok();
  if (Result<void> w = cl.agree(written); !w) return fail_on(cl, w.error());
  if (!root) return 0;
  print_training_verdict(*r, mo.runs, a.out_dir, several);
  if (!a.results_dir.empty())
    return write_training_submission(job, outputs, r->division, mlperf::mlperf_json(*r), submission,
                                     *steps);
  return 0;
}

// The job on every rank (the same on every host, hence the same accelerators per host: CLOSED's
// rule), then the rules of its kind. Every error is agreed on, so it stops all ranks and rank 0
// says which and why.
int do_mlperf(const MlperfArgs& a) {
  const double started = now_unix_s();
  const std::string started_text = dlio_time_text();
  Result<mlperf::Round> rules = mlperf::parse_rules_version(a.rules);
  if (!rules) return report_error(rules.error());
  const bool v3 = *rules == mlperf::Round::v3_0;
  Result<std::unique_ptr<cluster::Cluster>> made = make_cluster(a.job);
  if (!made) return report_error(made.error());
  cluster::Cluster& cl = **made;
  // v3.0: a checkpointing job's --accelerator is the simulated accelerator the rules judge
  // (4.3.4), not a compute profile; a training job's is both, so it is loaded with it.
  JobArgs plain = a.job;
  if (v3) plain.accelerator.clear();
  Result<Job> job = load_on_ranks(cl, plain, a.quiet);
  if (!job) return fail_on(cl, job.error());
  if (v3 && job->run.train && !a.job.accelerator.empty()) {
    job = load_on_ranks(cl, a.job, true);
    if (!job) return fail_on(cl, job.error());
  }
  Result<ClientRam> ram = client_ram(a, cl);
  if (!ram) return fail_on(cl, ram.error());
  // The engine is checked for both kinds of job: checkpoints are written through it too.
  Result<std::string> name = engine_for(*job, a.engine, a.engine_given);
  if (!name) return fail_on(cl, name.error());
  const engine::EngineOps* engine = engine::find(*name);
  if (!engine)
    return fail_on(cl,
                   input_error("--engine " + a.engine + ": expected " + engine::expected_names()));
  if (Result<void> where = check_locations(*job); !where) return fail_on(cl, where.error());
  if (job->run.train && is_url(job->dataset.dir.string()))
    return fail_on(cl, input_error("dataset.dir = \"" + job->dataset.dir.string() +
                                   "\" is an object location; dlgen mlperf reads datasets of "
                                   "files only, so far (dlgen run reads s3:// datasets)"));
  MlperfOutputs outputs = mlperf_outputs(a, ram->here);
  outputs.engine = *name;
  outputs.v3 = v3;
  outputs.invocation_start_unix_s = started;
  outputs.invocation_start_text = started_text;
  outputs.clients = client_info(*job, *ram, cl);
  // MLPerf Storage v2.0's LLM checkpointing rules.
  if (!job->run.train) return mlperf_checkpoint(*job, outputs, cl);
  if (const int rc = agreed_submission_free(*job, outputs, false, job->name, cl); rc != 0)
    return rc;
  return mlperf_training(*job, a, outputs, *ram, *engine, cl);
}

}  // namespace

void add_mlperf_command(CLI::App& app, Action& action) {
  auto ml = std::make_shared<MlperfArgs>();
  CLI::App* mlc = app.add_subcommand(
      "mlperf",
      "MLPerf Storage's run rules (training and LLM checkpointing): verdict "
      "CLOSED / OPEN / WHATIF / INVALID, results.json, results.csv, summary.html, "
      "provenance.json; `validate DIR` checks a results folder");
  add_job_options(mlc, ml->job);
  add_rank_timeout(mlc, ml->job);
  mlc->add_option("--runs", ml->runs,
                  "Measured runs (training: default 5, each with a new seed, fewer is INVALID; "
                  "checkpointing: the 10 checkpoints written and read split over them, default "
                  "1 under v3.0, one of each per run under v2.0)");
  mlc->add_flag("--no-warmup", ml->no_warmup,
                "No warm-up run before them (training; the verdict is then INVALID)");
  mlc->add_flag("--no-size", ml->no_size,
                "Keep the job's dataset size (INVALID when smaller than the rules ask)");
  mlc->add_option("--ram", ml->ram,
                  "Client RAM: a training dataset must exceed 5x it (below this host's measured "
                  "RAM: INVALID); checkpointing drops the page cache under 3x it (default: this "
                  "host's)");
  mlc->add_option("--engine", ml->engine,
                  "I/O engine: " + engine::help_names() + " (s3:// checkpoints: s3)")
      ->each([ml](const std::string&) { ml->engine_given = true; });
  mlc->add_option("--output-dir", ml->out_dir, "Where results go (default mlperf-results)");
  mlc->add_option("--results-dir", ml->results_dir,
                  "Also write MLPerf Storage's submission folder here (docs/mlperf.md)");
  mlc->add_option("--submitter", ml->submitter,
                  "Submitter (organisation) folder name in --results-dir (default dlgen-user)");
  mlc->add_option("--system", ml->system,
                  "System-under-test folder name in --results-dir (default system-under-test)");
  mlc->add_option("--rules", ml->rules,
                  "MLPerf Storage rules: v3.0 (default: CLOSED/OPEN only for unet3d and "
                  "retinanet on b200 and mi355, else WHATIF; checkpointing needs --accelerator) "
                  "or v2.0");
  mlc->add_flag("--quiet,-q", ml->quiet, "Only the verdict");
  // `dlgen mlperf validate DIR` needs no job: the job is required only without it.
  CLI::App* validate = add_mlperf_validate(mlc, action);
  mlc->get_option("job")->required(false);
  mlc->callback([&action, ml, mlc, validate] {
    if (mlc->got_subcommand(validate)) return;
    if (ml->job.job.empty()) throw CLI::RequiredError("job");
    action = [ml] { return do_mlperf(*ml); };
  });
}

}  // namespace dlgen::cli
