// dlgen run: load a job (with --scale, --set, --accelerator), make sure its dataset exists, replay
// it, print what a storage engineer needs, write JSON and a time series. One path for one host and
// many: without mpirun this process is a cluster of one (docs/cluster.md); only what rank 0 prints
// differs under mpirun (the ranks' reduced result, its per-host table).
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "dlgen/cluster/cluster.hpp"
#include "dlgen/cluster/cluster_report.hpp"
#include "dlgen/core/progress.hpp"
#include "dlgen/dlio/summary.hpp"
#include "dlgen/engine/registry.hpp"
#include "dlgen/generator/generator.hpp"
#include "dlgen/mlperf/checkpoint_workflow.hpp"
#ifdef DLGEN_TEST_HOOKS
#include "dlgen/engine/fault.hpp"
#endif
#include "dlgen/mlperf/find_max.hpp"
#include "dlgen/replay/checkpoint.hpp"
#include "dlgen/replay/plan.hpp"
#include "dlgen/replay/runner.hpp"
#include "dlgen/trace/merge.hpp"
#include "interrupt.hpp"
#include "job_args.hpp"
#include "mlperf_cli.hpp"

namespace dlgen::cli {
namespace {

struct RunArgs {
  JobArgs job;
  std::string engine{engine::default_name()};
  bool engine_given = false;  // --engine on the command line (else an s3:// dataset picks s3)
  std::string output;
  std::string timeseries;
  std::string capture;
  std::string dlio_summary;
  std::string record_samples;
  bool dry_run = false;
  bool no_generate = false;
  bool find_max = false;
  bool quiet = false;
};

// The command line of this process, from /proc/self/cmdline.
std::vector<std::string> own_argv() {
  std::ifstream f("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> args;
  std::string arg;
  while (std::getline(f, arg, '\0')) args.push_back(arg);
  return args;
}

// `dlgen run ... --capture F`: becomes `dlgen capture -o F -- dlgen run ...` (without --capture).
int exec_capture(const std::string& trace) {
  std::vector<std::string> args = own_argv();
  std::vector<std::string> inner{"/proc/self/exe"};
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--capture") {
      ++i;
      continue;
    }
    if (args[i].rfind("--capture=", 0) == 0) continue;
    inner.push_back(args[i]);
  }
  std::vector<std::string> outer{"/proc/self/exe", "capture", "-o", trace, "--"};
  outer.insert(outer.end(), inner.begin(), inner.end());
  std::vector<char*> argv;
  for (auto& s : outer) argv.push_back(s.data());
  argv.push_back(nullptr);
  ::execv("/proc/self/exe", argv.data());
  return report_error(
      runtime_error(std::string("cannot exec dlgen capture: ") + std::strerror(errno)));
}

// `mpirun -np N dlgen run JOB --capture r-%r.h5`: each rank becomes `dlgen capture -o r-<rank>.h5
// -- dlgen run JOB` before MPI starts here (the traced child joins the ranks). The dataset must be
// there already: its coordinated generation needs the ranks, and must not be in the trace.
int exec_capture_rank(const RunArgs& a) {
  JobArgs ja = a.job;
  ja.quiet = true;
  Result<Job> job = load(ja);
  if (!job) return report_error(job.error());
  const std::unique_ptr<cluster::Cluster> alone = cluster::make_single_cluster();
  if (job->run.train)
    if (Result<void> r = prepare_datasets(*alone, *job, a.job, DatasetVerb::run,
                                          /*no_generate=*/true, true);
        !r)
      return report_error(runtime_error(r.error().message +
                                        "; under mpirun with --capture, generate it first: "
                                        "`mpirun -np N dlgen generate " +
                                        a.job.job + "`"));
  // The checkpoint a restore reads: each rank its own shards, before its trace starts.
  const trace::LaunchRank launch = trace::launch_rank([](const char* n) { return std::getenv(n); });
  const replay::ShardShare share{static_cast<std::uint32_t>(launch.rank),
                                 static_cast<std::uint32_t>(std::max(launch.world_size, 1))};
  Result<std::string> engine = engine_for(*job, a.engine, a.engine_given);
  if (!engine) return report_error(engine.error());
  if (Result<bool> w = replay::prepare_restore(*job, *engine, share); !w)
    return report_error(w.error());
  return exec_capture(a.capture);
}

// MLPerf Storage's headline (replay/find_max.hpp): prints each trial, then the verdict. `run`
// returns the ranks' reduced report (AU = the lowest accelerator of any rank) on every rank, so
// every rank takes the same decisions; the per-host count is the same on all hosts, and only rank
// 0 prints and writes `output` (the search as JSON, mlperf::find_max_json).
// `can_drop_caches`: every host may drop its page cache (root everywhere).
int find_max_accelerators(const Job& base, const mlperf::TrialRunner& run, const RunArgs& a,
                          bool can_drop_caches, const cluster::Cluster& cl) {
  const bool silent = cl.rank() != 0;
  auto observe = [&](const mlperf::FindMaxTrial& t) {
    if (a.quiet || silent) return;
    if (!t.ran)
      std::printf("  %4u accelerator(s): some get no batch in an epoch: fail\n", t.accelerators);
    else
      std::printf(
          "  %4u accelerator(s): AU %5.1f%% (lowest, whole trial), %.1f MiB/s, %.1f samples/s, %u "
          "epoch(s) x "
          "%llu steps, %.1f s, host CPU %.0f%%: %s%s\n",
          t.accelerators, t.report.au * 100, t.report.mib_per_s, t.report.samples_per_s, t.epochs,
          static_cast<unsigned long long>(t.steps_per_epoch), t.report.elapsed_s,
          t.report.cpu.host_busy_percent, t.passed ? "pass" : "fail",
          t.warm_cache ? " (warm page cache)" : "");
    std::fflush(stdout);
  };
  mlperf::FindMaxOptions fo;
  fo.ranks = cl.size();
  fo.can_drop_caches = can_drop_caches;
  Result<mlperf::FindMaxResult> r = mlperf::find_max_accelerators(base, run, fo, observe);
  if (!r) return fail_on(cl, r.error());
  if (silent) return 0;
  std::printf(
      "max accelerators: %u%s%s (whole-trial AU >= %.0f%% with %s)%s\n", r->max_accelerators,
      cl.size() > 1 ? " per host" : "", r->hit_limit ? " or more" : "",
      base.compute.au_threshold * 100,
      base.compute.accelerator.empty() ? "the job's step time" : base.compute.accelerator.c_str(),
      r->warm_cache ? " FROM A WARM PAGE CACHE: some trials may have read RAM, not the storage"
                    : "");
  std::printf("page cache: %s\n", r->page_cache.c_str());
  for (const auto& n : r->notes) std::printf("note: %s\n", n.c_str());
  for (const auto& t : r->trials)
    if (t.ran && t.report.client_bound) {
      std::printf(
          "note: the trial with %u accelerators was client-bound (host CPU %.0f%% busy): the limit "
          "may be "
          "this host, not the storage\n",
          t.accelerators, t.report.cpu.host_busy_percent);
      break;
    }
  if (!a.output.empty())
    if (Result<void> w =
            write_text_file(a.output, mlperf::find_max_json(*r, base.compute.au_threshold));
        !w)
      return report_error(w.error());
  return 0;
}

// A checkpoint-only job (run.train = false: MLPerf Storage's LLM checkpointing): N checkpoints
// written, then M read back, by simulated ranks (replay/checkpoint_workflow.hpp). Under mpirun
// each rank is one host running its share of them (mlperf::cluster_host_shards); every
// checkpoint starts on an agreement of all hosts; rank 0 prints the one summary and writes the
// one JSON of all hosts.
int run_checkpoint_only(const Job& job, const RunArgs& a, const engine::EngineOps& engine,
                        cluster::Cluster& cl) {
  const bool root = cl.rank() == 0;
  if (a.find_max)
    return fail_on(cl,
                   input_error("--find-max-accelerators needs a training job (run.train = true)"));
  if (!a.timeseries.empty())
    return fail_on(cl, input_error("--timeseries applies to training replays"));
  // The split is the same on every rank (the jobs agree): refused everywhere before any I/O.
  if (cl.size() > 1)
    if (Result<std::vector<RankShard>> s = mlperf::cluster_host_shards(job, 0, cl.size()); !s)
      return fail_on(cl, s.error());
  if (a.dry_run) {
    if (!root) return 0;
    if (!a.quiet) {
      std::fputs(mlperf::format_checkpoint_plan(job).c_str(), stdout);
      if (cl.size() > 1)
        std::printf("  under mpirun %u hosts, each running %zu of the simulated ranks above\n",
                    cl.size(), mlperf::cluster_host_shards(job, 0, cl.size())->size());
    }
    if (!a.output.empty())
      if (Result<void> w = write_text_file(a.output, mlperf::checkpoint_plan_json(job)); !w)
        return report_error(w.error());
    return 0;
  }
  // Under mpirun --capture has already made this rank a traced child (exec_capture_rank).
  if (!a.capture.empty()) return exec_capture(a.capture);
  mlperf::CheckpointRunOptions o;
  o.engine = engine.name;
  o.progress = root && !a.quiet && progress_enabled();
  o.cluster = &cl;
  Result<mlperf::CheckpointRunResult> r = mlperf::run_checkpoint_workflow(job, o);
  if (!r) return fail_on(cl, r.error());
  if (!root) return 0;
  if (a.quiet) {
    const replay::PhaseFigures w = replay::phase_figures(r->writes),
                               rd = replay::phase_figures(r->reads);
    const std::string hosts = cl.size() > 1 ? std::to_string(r->hosts.size()) + " hosts, " : "";
    std::printf("%s: %swrite %.2f GiB/s (%u x %.3f s), read %.2f GiB/s (%u x %.3f s)\n",
                r->job_name.c_str(), hosts.c_str(), w.mean_throughput_bps / (1 << 30), w.count,
                w.mean_duration_s, rd.mean_throughput_bps / (1 << 30), rd.count,
                rd.mean_duration_s);
  } else {
    std::fputs(mlperf::format_checkpoint_summary(*r).c_str(), stdout);
  }
  if (!a.output.empty())
    if (Result<void> w = mlperf::write_checkpoint_json(*r, a.output); !w)
      return report_error(w.error());
  return 0;
}

// `--dry-run`: rank 0 prints the plan (under mpirun, rank 0's share) and writes it as JSON.
int print_plan(const Job& job, const RunArgs& a, const cluster::Cluster& cl) {
  if (cl.rank() != 0) return 0;
  const replay::PlanSummary plan = replay::summarize_plan(job, {0, cl.size()});
  if (!a.quiet) {
    if (cl.size() > 1)
      std::printf("%u ranks: each rank runs the plan below (rank 0's share shown)\n", cl.size());
    std::fputs(replay::format_plan(job, plan).c_str(), stdout);
    if (cl.size() == 1)
      std::printf("  dataset      %s\n",
                  generator::dataset_ready(job.dataset) ? "present" : "missing (run generates it)");
  }
  if (!a.output.empty())
    if (Result<void> w = write_text_file(a.output, replay::plan_json(job, plan)); !w)
      return report_error(w.error());
  return 0;
}

// `--record-samples PATH`: one line per consumed sample ("epoch train|eval accelerator file
// sample"); "%r" in PATH becomes the rank (several ranks without %r: PATH.rank<R>).
Result<void> write_consumed(const std::vector<replay::ConsumedPass>& passes, std::string path,
                            std::uint32_t rank, std::uint32_t ranks) {
  if (const std::size_t at = path.find("%r"); at != std::string::npos)
    path.replace(at, 2, std::to_string(rank));
  else if (ranks > 1)
    path += ".rank" + std::to_string(rank);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  for (const auto& p : passes)
    for (std::size_t i = 0; i < p.samples.size(); ++i)
      out << p.epoch << (p.eval ? " eval " : " train ") << p.accelerator[i] << ' '
          << p.samples[i].file << ' ' << p.samples[i].sample << '\n';
  out.close();
  if (!out) return runtime_error(path + ": cannot write: " + std::strerror(errno));
  return ok();
}

// Tests only (builds with the tests and MPI): rank DLGEN_TEST_SLOW_RANK's storage is slow, each
// request completing DLGEN_TEST_SLOW_IO_MS later; from its DLGEN_TEST_STALL_AT-th request on
// (0-based, when set) none completes within the hour (a stuck mount). The watchdog's tests.
void apply_test_hooks([[maybe_unused]] replay::RunOptions& ro,
                      [[maybe_unused]] const cluster::Cluster& cl) {
#ifdef DLGEN_TEST_HOOKS
  const char* slow = std::getenv("DLGEN_TEST_SLOW_RANK");
  if (cl.size() < 2 || !slow || std::strtoul(slow, nullptr, 10) != cl.rank()) return;
  const char* ms = std::getenv("DLGEN_TEST_SLOW_IO_MS");
  const char* stall = std::getenv("DLGEN_TEST_STALL_AT");
  const std::int64_t delay = (ms ? std::strtoll(ms, nullptr, 10) : 0) * 1'000'000;
  const std::uint64_t stall_at = stall ? std::strtoull(stall, nullptr, 10) : ~0ull;
  auto injection = std::make_shared<engine::FaultInjection>();
  injection->plan.delay_ns = [delay, stall_at](const engine::FaultRequest& r) {
    return r.index >= stall_at ? std::int64_t{3600} * 1'000'000'000 : delay;
  };
  ro.engine_factory = engine::fault_engine_factory(ro.engine, injection);
#endif
}

// Rank 0's words on a finished replay: one line with -q, else the summary (under mpirun the
// ranks' reduced result with its per-host table, `c`); then the JSON and the time series.
int print_result(const replay::Report& rep, const cluster::ClusterResult* c, const RunArgs& a) {
  if (c) {
    if (a.quiet && c->au_applicable)
      std::printf("%s: %u ranks, AU %.1f%% %s, %.1f samples/s, %.1f MiB/s\n", rep.job_name.c_str(),
                  c->ranks, c->au * 100, c->passed ? "PASS" : "FAIL", c->samples_per_s,
                  c->mib_per_s);
    else if (a.quiet)
      std::printf("%s: %u ranks, %.1f samples/s, %.1f MiB/s\n", rep.job_name.c_str(), c->ranks,
                  c->samples_per_s, c->mib_per_s);
    else
      std::fputs(cluster::format_cluster_summary(rep, *c).c_str(), stdout);
  } else {
    if (a.quiet && rep.interrupted)
      std::printf("%s: INTERRUPTED after %u of %u epoch(s); over what ran: ", rep.job_name.c_str(),
                  rep.epochs_completed, rep.epochs);
    if (a.quiet && rep.au_applicable)
      std::printf("%s: AU %.1f%% %s, %.1f samples/s, %.1f MiB/s\n", rep.job_name.c_str(),
                  rep.au * 100, rep.passed ? "PASS" : "FAIL", rep.samples_per_s, rep.mib_per_s);
    else if (a.quiet)
      std::printf("%s: %.1f samples/s, %.1f MiB/s\n", rep.job_name.c_str(), rep.samples_per_s,
                  rep.mib_per_s);
    else
      std::fputs(replay::format_summary(rep).c_str(), stdout);
  }
  if (!a.output.empty()) {
    Result<void> w =
        c ? cluster::write_cluster_json(rep, *c, a.output) : replay::write_json(rep, a.output);
    if (!w) return report_error(w.error());
  }
  if (!a.timeseries.empty())
    if (Result<void> w = replay::write_timeseries_csv(rep, a.timeseries); !w)
      return report_error(w.error());
  // An AU below the threshold is a result (printed as FAIL), not a failure to run; an interrupted
  // run wrote its results over what ran and exits as the shell reports Ctrl-C.
  return rep.interrupted ? kInterruptedExit : 0;
}

// A training replay: every rank runs its share (Topology{rank, size}); under mpirun every rank
// then holds the ranks' reduced result, and rank 0 alone prints and writes.
int run_training(const Job& job, const RunArgs& a, const engine::EngineOps& engine,
                 cluster::Cluster& cl) {
  const bool root = cl.rank() == 0;
  if (!engine.caps.diskless) {
    if (Result<void> r =
            prepare_datasets(cl, job, a.job, DatasetVerb::run, a.no_generate, a.quiet, engine.name);
        !r)
      return fail_on(cl, r.error());
    if (Result<void> r = prepare_checkpoint_objects(cl, job); !r) return fail_on(cl, r.error());
    if (Result<void> r = prepare_restore_checkpoint(cl, job, engine.name); !r)
      return fail_on(cl, r.error());
  }
  // Generate first, trace second: the replay trace must hold the replay, not the dataset's
  // creation. (Under mpirun --capture has already made this rank a traced child.)
  if (!a.capture.empty()) return exec_capture(a.capture);
  replay::RunOptions ro;
  ro.engine = engine.name;
  ro.cluster = &cl;
  ro.progress = root && !a.quiet && progress_enabled();
  ro.series = root && !a.timeseries.empty();
  apply_test_hooks(ro, cl);
  // The ranks' reduced result, the same on every rank (one rank: its own report).
  std::optional<cluster::ClusterResult> reduced;
  auto reduce = [&](replay::Report& r) {
    if (cl.size() == 1) return;
    reduced = cluster::gather_ranks(cl, r);
    cluster::apply_cluster(*reduced, r);
  };
  if (a.find_max) {
    ro.progress = false;
    auto trial = [&](const Job& j) -> Result<replay::Report> {
      Result<replay::Report> r = replay::run_job(j, ro);
      if (r) reduce(*r);
      return r;
    };
    // Every rank's trials are judged cold only when every host could drop its cache.
    return find_max_accelerators(job, trial, a, cl.all(::geteuid() == 0), cl);
  }
  std::vector<replay::ConsumedPass> consumed;
  if (!a.record_samples.empty()) ro.consumed = &consumed;
  const std::string started = dlio_time_text();
  replay::StopSource stop;
  ro.stop = &stop;
  std::optional<InterruptGuard> guard(std::in_place, stop);
  Result<replay::Report> rep = replay::run_job(job, ro);
  guard.reset();
  if (!rep) return fail_on(cl, rep.error());
  reduce(*rep);
  Result<void> recorded = ok();
  if (!a.record_samples.empty())
    recorded = write_consumed(consumed, a.record_samples, cl.rank(), cl.size());
  if (Result<void> s = cl.agree(recorded); !s) return fail_on(cl, s.error());
  if (!root) return rep->interrupted ? kInterruptedExit : 0;
  if (!a.dlio_summary.empty()) {
    dlio::DlioSummaryContext ctx;
    ctx.hostname = cl.host();
    ctx.hosts = cl.size();
    ctx.start = started;
    ctx.end = dlio_time_text();
    if (Result<void> w = write_text_file(a.dlio_summary, dlio::dlio_summary_json(job, *rep, ctx));
        !w)
      return report_error(w.error());
  }
  return print_result(*rep, reduced ? &*reduced : nullptr, a);
}

int do_run(const RunArgs& a) {
  if (!a.capture.empty() &&
      trace::launch_rank([](const char* n) { return std::getenv(n); }).rank >= 0)
    return exec_capture_rank(a);
  Result<std::unique_ptr<cluster::Cluster>> made = make_cluster(a.job);
  if (!made) return report_error(made.error());
  cluster::Cluster& cl = **made;
  Result<Job> job = load_on_ranks(cl, a.job, a.quiet);
  if (!job) return fail_on(cl, job.error());
  // The engine is checked for both kinds of job, before any I/O: checkpoints go through it too.
  Result<std::string> name = engine_for(*job, a.engine, a.engine_given);
  if (!name) return fail_on(cl, name.error());
  const engine::EngineOps* engine = engine::find(*name);
  if (!engine)
    return fail_on(cl,
                   input_error("--engine " + a.engine + ": expected " + engine::expected_names()));
  if (Result<void> where = check_locations(*job); !where) return fail_on(cl, where.error());
  if (!job->run.train) return run_checkpoint_only(*job, a, *engine, cl);
  if (a.dry_run) return print_plan(*job, a, cl);
  return run_training(*job, a, *engine, cl);
}

}  // namespace

void add_run_command(CLI::App& app, Action& action) {
  auto run_args = std::make_shared<RunArgs>();
  CLI::App* run =
      app.add_subcommand("run", "Replay a job's training I/O (generating its dataset if missing)");
  add_job_options(run, run_args->job);
  add_rank_timeout(run, run_args->job);
  run->add_option("--engine", run_args->engine,
                  "I/O engine: " + engine::help_names() + " (an s3:// dataset: s3)")
      ->each([run_args](const std::string&) { run_args->engine_given = true; });
  run->add_option(
      "--output,-o", run_args->output,
      "Write the full result as JSON (with --find-max-accelerators: the search and its trials)");
  run->add_option(
      "--dlio-summary", run_args->dlio_summary,
      "Also write DLIO's summary.json (its metric names, with dlgen's real MiB/s beside them)");
  run->add_option("--timeseries", run_args->timeseries,
                  "Write per-second throughput and queue depth as CSV");
  run->add_flag("--dry-run", run_args->dry_run,
                "Print the plan (files, bytes, steps, minimum runtime) and exit");
  run->add_flag("--no-generate", run_args->no_generate,
                "Fail instead of generating a missing dataset");
  run->add_option("--capture", run_args->capture,
                  "Trace the replay itself into this HDF5 trace (dlgen capture)");
  run->add_option("--record-samples", run_args->record_samples,
                  "Write the samples each accelerator consumed, per pass, as text (\"epoch E "
                  "train|eval accelerator file sample\" lines); %r in the name becomes the rank "
                  "under mpirun");
  run->add_flag("--find-max-accelerators", run_args->find_max,
                "Search the most simulated accelerators this storage keeps at AU >= threshold");
  run->add_flag("--quiet,-q", run_args->quiet, "One result line, no progress");
  run->callback([&action, run_args] { action = [run_args] { return do_run(*run_args); }; });
}

}  // namespace dlgen::cli
