// dlgen run / generate / validate: load a job (with --scale, --set, --accelerator), make sure its
// dataset exists, replay it, print what a storage engineer needs, write JSON and a time series.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "dlgen/core/dlio.hpp"
#include "dlgen/core/job_io.hpp"
#include "dlgen/core/limits.hpp"
#include "dlgen/core/progress.hpp"
#include "dlgen/core/units.hpp"
#include "dlgen/engine/registry.hpp"
#include "dlgen/generator/generator.hpp"
#include "dlgen/replay/checkpoint_workflow.hpp"
#include "dlgen/replay/cluster.hpp"
#include "dlgen/replay/cluster_report.hpp"
#include "dlgen/replay/dlio_summary.hpp"
#ifdef DLGEN_TEST_HOOKS
#include "dlgen/engine/fault.hpp"
#endif
#include "dlgen/replay/find_max.hpp"
#include "dlgen/replay/mlperf.hpp"
#include "dlgen/replay/plan.hpp"
#include "dlgen/replay/runner.hpp"
#include "dlgen/trace/merge.hpp"
#include "interrupt.hpp"
#include "mlperf_cli.hpp"

namespace dlgen::cli {
namespace {

struct JobArgs {
  std::string job;
  std::string scale;
  std::vector<std::string> sets;
  std::string accelerator;
  std::vector<std::string> hydra;  // Hydra-style overrides after the job: ++workload.x.y=v
  bool quiet = false;              // no notes on stderr
  // Under mpirun: how long a rank waits for the others at a coordination point (the watchdog,
  // replay/cluster.hpp); "0": forever.
  std::string rank_timeout = "10m";
};

struct RunArgs {
  JobArgs job;
  std::string engine{engine::default_name()};
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

void add_job_options(CLI::App* cmd, JobArgs& a) {
  cmd->add_option("job", a.job, "Job file (TOML) or DLIO workload config (YAML)")->required();
  cmd->add_option(
      "overrides", a.hydra,
      "Hydra-style overrides as DLIO users type them: ++workload.dataset.num_files_train=64 "
      "workload.reader.read_threads=8 (on a TOML job: ++reader.batch_size=8, as --set)");
  cmd->add_option("--scale", a.scale, "Apply the job's [scales.NAME] (built-in: small)");
  // One value per --set, so `--set k=v job.toml` leaves the job file to the positional.
  cmd->add_option("--set", a.sets,
                  "Override a job key, e.g. --set reader.batch_size=8 (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--accelerator", a.accelerator,
                  "Compute profile: compute.<NAME>.time (a100, h100, ...)");
}

// Under mpirun only: `--rank-timeout DURATION` (docs/cluster.md, "The watchdog").
void add_rank_timeout(CLI::App* cmd, JobArgs& a) {
  cmd->add_option("--rank-timeout", a.rank_timeout,
                  "Under mpirun: end every rank, naming the one that stopped answering, when one "
                  "keeps the others waiting at a coordination point this long (default 10m; 0: "
                  "wait forever)");
}

// The cluster this process is part of (MPI under mpirun, else the single process).
Result<std::unique_ptr<replay::Cluster>> make_cluster(const JobArgs& a) {
  Result<double> t = parse_duration_s(a.rank_timeout);
  if (!t || *t < 0)
    return input_error("--rank-timeout " + a.rank_timeout + ": " +
                       (t ? std::string("must be >= 0") : t.error().message));
  replay::ClusterOptions o;
  o.rank_timeout_s = *t;
  return replay::make_cluster(o);
}

Result<Job> load(const JobArgs& a) {
  for (const auto& w : a.hydra)
    if (!is_hydra_override(w))
      return input_error(
          "'" + w +
          "': expected a Hydra-style override (key=value, ++key=value, ~key) after the job");
  JobLoadOptions o;
  o.overrides = a.sets;
  o.scale = a.scale;
  o.accelerator = a.accelerator;
  if (!is_dlio_config(a.job)) {
    // On a TOML job, `++reader.batch_size=8` and `reader.batch_size=8` are --set.
    std::vector<std::string> sets;
    for (std::string w : a.hydra) {
      if (w.front() == '~')
        return input_error("'" + w + "': removing keys (~) applies to DLIO configs only");
      w.erase(0, w.find_first_not_of('+'));
      sets.push_back(w);
    }
    o.overrides.insert(o.overrides.begin(), sets.begin(), sets.end());
    return load_job(a.job, o);
  }
  Result<DlioJob> d = load_dlio(a.job, a.hydra);
  if (!d) return d.error();
  if (!a.quiet)
    for (const auto& n : d->notes) std::fprintf(stderr, "dlgen: note: %s\n", n.c_str());
  if (o.overrides.empty() && o.scale.empty() && o.accelerator.empty()) return std::move(d->job);
  // --set, --scale and --accelerator act on the job as `dlgen convert` writes it.
  return parse_job(to_toml(d->job, d->comments), a.job + " (as converted to TOML)", o);
}

bool eval_used(const Job& job) {
  return job.validation.has_value() && job.run.eval_every_epochs > 0;
}

// Generates (or reuses) the training set and, when evaluation passes run, the validation set.
Result<void> prepare_datasets(const Job& job, const JobArgs& args, bool no_generate, bool quiet) {
  std::vector<const DatasetSpec*> sets{&job.dataset};
  if (eval_used(job)) sets.push_back(&*job.validation);
  for (const DatasetSpec* d : sets) {
    if (generator::dataset_ready(*d)) continue;
    if (no_generate)
      return runtime_error(
          "the dataset in " + d->dir.string() +
          " is missing or does not match the job; generate it with `dlgen generate " + args.job +
          (args.scale.empty() ? "" : " --scale " + args.scale) +
          "` (with the same --set options), or run without --no-generate");
    generator::GenerateOptions go;
    go.progress = !quiet;
    Result<generator::GenerateReport> g = generator::ensure_dataset(*d, go);
    if (!g) return g.error();
    if (!quiet && !g->reused)
      std::fprintf(stderr, "dlgen: generated %s: %llu files, %s in %.1f s\n",
                   d->dir.string().c_str(), static_cast<unsigned long long>(g->files_written),
                   format_size(g->bytes_written).c_str(), g->seconds);
  }
  return ok();
}

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

// MLPerf Storage's headline (replay/find_max.hpp): prints each trial, then the verdict.
// Under mpirun `run` returns the reduced report (AU = the lowest accelerator of any rank) on every
// rank, the per-host count is the same on all hosts, and only rank 0 prints (`quiet` elsewhere).
// With `output`, the search is also written there as JSON (replay::find_max_json).
// `can_drop_caches`: every host may drop its page cache (root everywhere).
int find_max_accelerators(const Job& base, const replay::TrialRunner& run, bool quiet,
                          const std::string& output, bool can_drop_caches, std::uint32_t ranks = 1,
                          const std::function<int(const Error&)>& fail = report_error,
                          bool silent = false) {
  auto observe = [&](const replay::FindMaxTrial& t) {
    if (quiet || silent) return;
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
  replay::FindMaxOptions fo;
  fo.ranks = ranks;
  fo.can_drop_caches = can_drop_caches;
  Result<replay::FindMaxResult> r = replay::find_max_accelerators(base, run, fo, observe);
  if (!r) return fail(r.error());
  if (silent) return 0;
  std::printf(
      "max accelerators: %u%s%s (whole-trial AU >= %.0f%% with %s)%s\n", r->max_accelerators,
      ranks > 1 ? " per host" : "", r->hit_limit ? " or more" : "", base.compute.au_threshold * 100,
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
  if (!output.empty())
    if (Result<void> w =
            write_text_file(output, replay::find_max_json(*r, base.compute.au_threshold));
        !w)
      return fail(w.error());
  return 0;
}

// A checkpoint-only job (run.train = false: MLPerf Storage's LLM checkpointing): N checkpoints
// written, then M read back, by simulated ranks (replay/checkpoint_workflow.hpp).
int run_checkpoint_only(const Job& job, const RunArgs& a) {
  if (a.find_max)
    return report_error(
        input_error("--find-max-accelerators needs a training job (run.train = true)"));
  if (!a.timeseries.empty())
    return report_error(input_error("--timeseries applies to training replays"));
  if (a.dry_run) {
    if (!a.quiet) std::fputs(replay::format_checkpoint_plan(job).c_str(), stdout);
    if (!a.output.empty()) {
      if (Result<void> w = write_text_file(a.output, replay::checkpoint_plan_json(job)); !w)
        return report_error(w.error());
    }
    return 0;
  }
  if (!a.capture.empty()) return exec_capture(a.capture);
  replay::CheckpointRunOptions o;
  o.engine = a.engine;
  o.progress = !a.quiet && progress_enabled();
  Result<replay::CheckpointRunResult> r = replay::run_checkpoint_workflow(job, o);
  if (!r) return report_error(r.error());
  if (a.quiet) {
    const replay::PhaseFigures w = replay::phase_figures(r->writes),
                               rd = replay::phase_figures(r->reads);
    std::printf("%s: write %.2f GiB/s (%u x %.3f s), read %.2f GiB/s (%u x %.3f s)\n",
                r->job_name.c_str(), w.mean_throughput_bps / (1 << 30), w.count, w.mean_duration_s,
                rd.mean_throughput_bps / (1 << 30), rd.count, rd.mean_duration_s);
  } else {
    std::fputs(replay::format_checkpoint_summary(*r).c_str(), stdout);
  }
  if (!a.output.empty())
    if (Result<void> w = replay::write_checkpoint_json(*r, a.output); !w)
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

// ---- Several ranks (mpirun -np N dlgen run JOB): docs/cluster.md ----------------------------
// Every collective below is matched on all ranks: each step ends with an agreement (cluster.hpp),
// so a rank that fails stops all of them, and the error (naming its rank and host) is printed once,
// by rank 0. Other ranks print nothing.

// The datasets, generated by all ranks together: rank 0 decides (reuse, regenerate, refuse a
// foreign directory) under the directory's lock, every rank writes the files i with i mod N = its
// rank, rank 0 writes the manifest once they all have.
// `all_sets`: the validation set too even when no evaluation pass runs (dlgen generate).
Result<void> prepare_datasets_ranks(const Job& job, const JobArgs& args, bool no_generate,
                                    bool quiet, replay::Cluster& cl, bool all_sets = false) {
  const bool root = cl.rank() == 0;
  std::vector<const DatasetSpec*> sets{&job.dataset};
  if (job.validation && (all_sets || eval_used(job))) sets.push_back(&*job.validation);
  for (const DatasetSpec* d : sets) {
    const std::uint8_t ready =
        replay::from_rank0<std::uint8_t>(cl, root && generator::dataset_ready(*d) ? 1 : 0);
    if (ready) {
      if (root && all_sets)
        std::printf("%s: up to date (%llu files)\n", d->dir.string().c_str(),
                    static_cast<unsigned long long>(d->num_files));
      continue;
    }
    if (no_generate)
      return runtime_error("the dataset in " + d->dir.string() +
                           " is missing or does not match the job; generate it with `mpirun ... "
                           "dlgen generate " +
                           args.job + "` (same options), or run without --no-generate");
    generator::GenerateOptions go;
    go.progress = root && !quiet;
    std::atomic<std::uint64_t> written{0};  // the watchdog's sign of life while this rank writes
    go.written = &written;
    const replay::ProgressScope alive(&cl, [&written] { return written.load(); });
    Result<generator::PreparedDataset> prepared = generator::PreparedDataset{};
    if (root) prepared = generator::begin_dataset(*d, go);
    if (Result<void> s = replay::agree(cl, prepared ? ok() : Result<void>(prepared.error())); !s)
      return s.error();
    struct Decision {
      std::uint8_t reused, resume;
    };
    const Decision decision =
        replay::from_rank0(cl, Decision{static_cast<std::uint8_t>(prepared->reused),
                                        static_cast<std::uint8_t>(prepared->resume)});
    if (decision.reused) continue;
    Result<generator::GenerateReport> g =
        generator::write_dataset_share(*d, decision.resume != 0, {cl.rank(), cl.size()}, go);
    if (Result<void> s = replay::agree(cl, g ? ok() : Result<void>(g.error())); !s)
      return s.error();
    Result<void> finished = root ? generator::finish_dataset(*d, *prepared) : ok();
    if (Result<void> s = replay::agree(cl, finished); !s) return s.error();
    const std::uint64_t files = replay::all_sum(cl, g->files_written);
    const std::uint64_t bytes = replay::all_sum(cl, g->bytes_written);
    const double seconds = replay::all_max(cl, g->seconds);
    if (root && (!quiet || all_sets))
      std::fprintf(stderr, "dlgen: generated %s with %u ranks: %llu files, %s in %.1f s\n",
                   d->dir.string().c_str(), cl.size(), static_cast<unsigned long long>(files),
                   format_size(bytes).c_str(), seconds);
  }
  return ok();
}

// `mpirun -np N dlgen run JOB` on a checkpoint-only job: each rank is one host running its share
// of the job's simulated ranks (replay::cluster_host_shards); every checkpoint starts on an
// agreement of all hosts; rank 0 prints the one summary and writes the one JSON of all hosts.
int run_checkpoint_ranks(const Job& job, const RunArgs& a, replay::Cluster& cl) {
  const bool root = cl.rank() == 0;
  auto fail = [root](const Error& e) { return root ? report_error(e) : e.exit_code(); };
  if (a.find_max)
    return fail(input_error("--find-max-accelerators needs a training job (run.train = true)"));
  if (!a.timeseries.empty()) return fail(input_error("--timeseries applies to training replays"));
  // The split is the same on every rank (the jobs agree): refused everywhere before any I/O.
  if (Result<std::vector<RankShard>> s = replay::cluster_host_shards(job, 0, cl.size()); !s)
    return fail(s.error());
  if (a.dry_run) {
    if (!root) return 0;
    if (!a.quiet) {
      std::fputs(replay::format_checkpoint_plan(job).c_str(), stdout);
      std::printf("  under mpirun %u hosts, each running %zu of the simulated ranks above\n",
                  cl.size(), replay::cluster_host_shards(job, 0, cl.size())->size());
    }
    if (!a.output.empty()) {
      if (Result<void> w = write_text_file(a.output, replay::checkpoint_plan_json(job)); !w)
        return report_error(w.error());
    }
    return 0;
  }
  replay::CheckpointRunOptions o;
  o.engine = a.engine;
  o.progress = root && !a.quiet && progress_enabled();
  o.cluster = &cl;
  Result<replay::CheckpointRunResult> r = replay::run_checkpoint_workflow(job, o);
  if (!r) return fail(r.error());
  if (!root) return 0;
  if (a.quiet) {
    const replay::PhaseFigures w = replay::phase_figures(r->writes),
                               rd = replay::phase_figures(r->reads);
    std::printf("%s: %zu hosts, write %.2f GiB/s (%u x %.3f s), read %.2f GiB/s (%u x %.3f s)\n",
                r->job_name.c_str(), r->hosts.size(), w.mean_throughput_bps / (1 << 30), w.count,
                w.mean_duration_s, rd.mean_throughput_bps / (1 << 30), rd.count,
                rd.mean_duration_s);
  } else {
    std::fputs(replay::format_checkpoint_summary(*r).c_str(), stdout);
  }
  if (!a.output.empty())
    if (Result<void> w = replay::write_checkpoint_json(*r, a.output); !w)
      return report_error(w.error());
  return 0;
}

int run_ranks(const RunArgs& a, replay::Cluster& cl) {
  const bool root = cl.rank() == 0;
  // Every error here is known to every rank: rank 0 prints it, the others only exit with its code.
  auto fail = [root](const Error& e) { return root ? report_error(e) : e.exit_code(); };
  JobArgs ja = a.job;
  ja.quiet = a.quiet || !root;
  Result<Job> job = load(ja);
  if (Result<void> s = replay::agree(cl, job ? ok() : Result<void>(job.error())); !s)
    return fail(s.error());
  // Ranks holding different jobs are refused before any I/O.
  if (Result<void> same = replay::check_same_job(cl, *job); !same) return fail(same.error());
  if (!job->run.train) return run_checkpoint_ranks(*job, a, cl);
  const engine::EngineOps* engine = engine::find(a.engine);
  if (!engine)
    return fail(input_error("--engine " + a.engine + ": expected " + engine::expected_names()));
  if (a.dry_run) {
    if (!root) return 0;
    const replay::PlanSummary plan = replay::summarize_plan(*job, {0, cl.size()});
    if (!a.quiet) {
      std::printf("%u ranks: each rank runs the plan below (rank 0's share shown)\n", cl.size());
      std::fputs(replay::format_plan(*job, plan).c_str(), stdout);
    }
    if (!a.output.empty()) {
      if (Result<void> w = write_text_file(a.output, replay::plan_json(*job, plan)); !w)
        return report_error(w.error());
    }
    return 0;
  }
  if (!engine->caps.diskless)
    if (Result<void> r = prepare_datasets_ranks(*job, a.job, a.no_generate, a.quiet, cl); !r)
      return fail(r.error());
  replay::RunOptions ro;
  ro.engine = engine->name;
  ro.cluster = &cl;
  ro.progress = root && !a.quiet && progress_enabled();
  ro.series = root && !a.timeseries.empty();
#ifdef DLGEN_TEST_HOOKS
  // Tests only (builds with the tests and MPI): rank DLGEN_TEST_SLOW_RANK's storage is slow, each
  // request completing DLGEN_TEST_SLOW_IO_MS later; from its DLGEN_TEST_STALL_AT-th request on
  // (0-based, when set) none completes within the hour (a stuck mount). The watchdog's tests.
  if (const char* slow = std::getenv("DLGEN_TEST_SLOW_RANK");
      slow && std::strtoul(slow, nullptr, 10) == cl.rank()) {
    const char* ms = std::getenv("DLGEN_TEST_SLOW_IO_MS");
    const char* stall = std::getenv("DLGEN_TEST_STALL_AT");
    const std::int64_t delay = (ms ? std::strtoll(ms, nullptr, 10) : 0) * 1'000'000;
    const std::uint64_t stall_at = stall ? std::strtoull(stall, nullptr, 10) : ~0ull;
    auto injection = std::make_shared<engine::FaultInjection>();
    injection->plan.delay_ns = [delay, stall_at](const engine::FaultRequest& r) {
      return r.index >= stall_at ? std::int64_t{3600} * 1'000'000'000 : delay;
    };
    ro.engine_factory = engine::fault_engine_factory(engine->name, injection);
  }
#endif
  // Every rank gets the reduced report (AU = lowest accelerator anywhere), so find-max takes the
  // same decisions on every rank.
  auto run_reduced = [&](const Job& j) -> Result<replay::Report> {
    Result<replay::Report> r = replay::run_job(j, ro);
    if (!r) return r;
    const replay::ClusterResult c = replay::gather_ranks(cl, *r);
    replay::apply_cluster(c, *r);
    return r;
  };
  if (a.find_max) {
    ro.progress = false;
    // Every rank's trials are judged cold only when every host could drop its cache.
    const bool all_root = replay::all_sum(cl, ::geteuid() == 0 ? 0 : 1) == 0;
    return find_max_accelerators(*job, run_reduced, a.quiet, a.output, all_root, cl.size(), fail,
                                 !root);
  }
  std::vector<replay::ConsumedPass> consumed;
  if (!a.record_samples.empty()) ro.consumed = &consumed;
  const std::string started = dlio_time_text();
  replay::StopSource stop;
  ro.stop = &stop;
  std::optional<InterruptGuard> guard(std::in_place, stop);
  Result<replay::Report> rep = replay::run_job(*job, ro);
  guard.reset();
  if (!rep) return fail(rep.error());
  const replay::ClusterResult c = replay::gather_ranks(cl, *rep);
  replay::apply_cluster(c, *rep);
  Result<void> recorded = ok();
  if (!a.record_samples.empty())
    recorded = write_consumed(consumed, a.record_samples, cl.rank(), cl.size());
  if (Result<void> s = replay::agree(cl, recorded); !s) return fail(s.error());
  if (!root) return rep->interrupted ? kInterruptedExit : 0;
  if (!a.dlio_summary.empty()) {
    replay::DlioSummaryContext ctx;
    ctx.hostname = cl.host();
    ctx.hosts = cl.size();
    ctx.start = started;
    ctx.end = dlio_time_text();
    if (Result<void> w =
            write_text_file(a.dlio_summary, replay::dlio_summary_json(*job, *rep, ctx));
        !w)
      return report_error(w.error());
  }
  if (a.quiet && c.au_applicable)
    std::printf("%s: %u ranks, AU %.1f%% %s, %.1f samples/s, %.1f MiB/s\n", rep->job_name.c_str(),
                c.ranks, c.au * 100, c.passed ? "PASS" : "FAIL", c.samples_per_s, c.mib_per_s);
  else if (a.quiet)
    std::printf("%s: %u ranks, %.1f samples/s, %.1f MiB/s\n", rep->job_name.c_str(), c.ranks,
                c.samples_per_s, c.mib_per_s);
  else
    std::fputs(replay::format_cluster_summary(*rep, c).c_str(), stdout);
  if (!a.output.empty())
    if (Result<void> w = replay::write_cluster_json(*rep, c, a.output); !w)
      return report_error(w.error());
  if (!a.timeseries.empty())
    if (Result<void> w = replay::write_timeseries_csv(*rep, a.timeseries); !w)
      return report_error(w.error());
  return rep->interrupted ? kInterruptedExit : 0;
}

int do_run(const RunArgs& a) {
  // `mpirun -np N dlgen run JOB --capture r-%r.h5`: each rank becomes `dlgen capture -o r-<rank>.h5
  // -- dlgen run JOB` before MPI starts here (the traced child joins the ranks). The dataset must
  // be there already: its coordinated generation needs the ranks, and must not be in the trace.
  if (!a.capture.empty() &&
      trace::launch_rank([](const char* n) { return std::getenv(n); }).rank >= 0) {
    JobArgs ja = a.job;
    ja.quiet = true;
    Result<Job> job = load(ja);
    if (!job) return report_error(job.error());
    if (job->run.train)
      if (Result<void> r = prepare_datasets(*job, a.job, /*no_generate=*/true, true); !r)
        return report_error(
            runtime_error(r.error().message +
                          "; under mpirun with --capture, generate it first: `mpirun -np N "
                          "dlgen generate " +
                          a.job.job + "`"));
    return exec_capture(a.capture);
  }
  // Without mpirun this is the single-process cluster (MPI is never started) and nothing changes.
  Result<std::unique_ptr<replay::Cluster>> cluster = make_cluster(a.job);
  if (!cluster) return report_error(cluster.error());
  if ((*cluster)->size() > 1) return run_ranks(a, **cluster);
  JobArgs ja = a.job;
  ja.quiet = a.quiet;
  Result<Job> job = load(ja);
  if (!job) return report_error(job.error());
  if (!job->run.train) return run_checkpoint_only(*job, a);
  const engine::EngineOps* engine = engine::find(a.engine);
  if (!engine)
    return report_error(
        input_error("--engine " + a.engine + ": expected " + engine::expected_names()));
  if (a.dry_run) {
    const replay::PlanSummary plan = replay::summarize_plan(*job);
    if (!a.quiet) {
      std::fputs(replay::format_plan(*job, plan).c_str(), stdout);
      std::printf("  dataset      %s\n", generator::dataset_ready(job->dataset)
                                             ? "present"
                                             : "missing (run generates it)");
    }
    if (!a.output.empty()) {
      if (Result<void> w = write_text_file(a.output, replay::plan_json(*job, plan)); !w)
        return report_error(w.error());
    }
    return 0;
  }
  if (!engine->caps.diskless)
    if (Result<void> r = prepare_datasets(*job, a.job, a.no_generate, a.quiet); !r)
      return report_error(r.error());
  // Generate first, trace second: the replay trace must hold the replay, not the dataset's
  // creation.
  if (!a.capture.empty()) return exec_capture(a.capture);
  replay::RunOptions ro;
  ro.engine = engine->name;
  ro.progress = !a.quiet && progress_enabled();
  ro.series = !a.timeseries.empty();
  if (a.find_max) {
    ro.progress = false;
    return find_max_accelerators(
        *job, [&](const Job& j) { return replay::run_job(j, ro); }, a.quiet, a.output,
        ::geteuid() == 0);
  }
  std::vector<replay::ConsumedPass> consumed;
  if (!a.record_samples.empty()) ro.consumed = &consumed;
  const std::string started = dlio_time_text();
  replay::StopSource stop;
  ro.stop = &stop;
  std::optional<InterruptGuard> guard(std::in_place, stop);
  Result<replay::Report> rep = replay::run_job(*job, ro);
  guard.reset();
  if (!rep) return report_error(rep.error());
  if (!a.record_samples.empty())
    if (Result<void> w = write_consumed(consumed, a.record_samples, 0, 1); !w)
      return report_error(w.error());
  if (!a.dlio_summary.empty()) {
    replay::DlioSummaryContext ctx;
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    ctx.hostname = host;
    ctx.start = started;
    ctx.end = dlio_time_text();
    if (Result<void> w =
            write_text_file(a.dlio_summary, replay::dlio_summary_json(*job, *rep, ctx));
        !w)
      return report_error(w.error());
  }
  if (a.quiet && rep->interrupted)
    std::printf("%s: INTERRUPTED after %u of %u epoch(s); over what ran: ", rep->job_name.c_str(),
                rep->epochs_completed, rep->epochs);
  if (a.quiet && rep->au_applicable)
    std::printf("%s: AU %.1f%% %s, %.1f samples/s, %.1f MiB/s\n", rep->job_name.c_str(),
                rep->au * 100, rep->passed ? "PASS" : "FAIL", rep->samples_per_s, rep->mib_per_s);
  else if (a.quiet)
    std::printf("%s: %.1f samples/s, %.1f MiB/s\n", rep->job_name.c_str(), rep->samples_per_s,
                rep->mib_per_s);
  else
    std::fputs(replay::format_summary(*rep).c_str(), stdout);
  if (!a.output.empty())
    if (Result<void> w = replay::write_json(*rep, a.output); !w) return report_error(w.error());
  if (!a.timeseries.empty())
    if (Result<void> w = replay::write_timeseries_csv(*rep, a.timeseries); !w)
      return report_error(w.error());
  // An AU below the threshold is a result (printed as FAIL), not a failure to run; an interrupted
  // run wrote its results over what ran and exits as the shell reports Ctrl-C.
  return rep->interrupted ? kInterruptedExit : 0;
}

// `mpirun -np N dlgen generate JOB`: the ranks write the datasets together (rank 0 decides and
// writes the manifest; see prepare_datasets_ranks).
int generate_ranks(JobArgs a, bool quiet, replay::Cluster& cl) {
  const bool root = cl.rank() == 0;
  auto fail = [root](const Error& e) { return root ? report_error(e) : e.exit_code(); };
  a.quiet = quiet || !root;
  Result<Job> job = load(a);
  if (Result<void> s = replay::agree(cl, job ? ok() : Result<void>(job.error())); !s)
    return fail(s.error());
  if (Result<void> same = replay::check_same_job(cl, *job); !same) return fail(same.error());
  if (!job->run.train) {
    if (root)
      std::printf("%s: a checkpoint-only job reads no dataset: nothing to generate\n",
                  job->name.c_str());
    return 0;
  }
  if (Result<void> r = prepare_datasets_ranks(*job, a, false, quiet, cl, true); !r)
    return fail(r.error());
  return 0;
}

int do_generate(JobArgs a, bool quiet) {
  Result<std::unique_ptr<replay::Cluster>> cluster = make_cluster(a);
  if (!cluster) return report_error(cluster.error());
  if ((*cluster)->size() > 1) return generate_ranks(a, quiet, **cluster);
  a.quiet = quiet;
  Result<Job> job = load(a);
  if (!job) return report_error(job.error());
  if (!job->run.train) {
    std::printf("%s: a checkpoint-only job reads no dataset: nothing to generate\n",
                job->name.c_str());
    return 0;
  }
  std::vector<const DatasetSpec*> sets{&job->dataset};
  if (job->validation) sets.push_back(&*job->validation);
  for (const DatasetSpec* d : sets) {
    generator::GenerateOptions go;
    go.progress = !quiet;
    Result<generator::GenerateReport> g = generator::ensure_dataset(*d, go);
    if (!g) return report_error(g.error());
    if (g->reused)
      std::printf("%s: up to date (%llu files)\n", d->dir.string().c_str(),
                  static_cast<unsigned long long>(d->num_files));
    else
      std::printf(
          "%s: wrote %llu files, %s in %.1f s (%.1f MiB/s)\n", d->dir.string().c_str(),
          static_cast<unsigned long long>(g->files_written), format_size(g->bytes_written).c_str(),
          g->seconds,
          g->seconds > 0 ? static_cast<double>(g->bytes_written) / 1048576.0 / g->seconds : 0.0);
  }
  return 0;
}

int do_validate(const JobArgs& a) {
  Result<Job> job = load(a);
  if (!job) {
    std::fprintf(stderr, "%s\n", job.error().message.c_str());
    return job.error().exit_code();
  }
  std::printf("ok: %s\n", job->name.empty() ? a.job.c_str() : job->name.c_str());
  return 0;
}

// dlgen convert CONFIG.yaml -o job.toml: the DLIO config as a commented dlgen job.
// dlgen convert JOB.toml --to dlio: a training job as a DLIO workload config.
Result<std::string> convert_to_dlio(const JobArgs& a) {
  Result<Job> job = load(a);
  if (!job) return job.error();
  std::vector<std::string> notes;
  Result<std::string> yaml = to_dlio_yaml(*job, &notes);
  if (!yaml) return yaml.error();
  std::string text = "# Converted by `dlgen convert --to dlio` from " + a.job + "\n";
  for (const auto& n : notes) text += "# note: " + n + "\n";
  return text + *yaml;
}

int do_convert(const JobArgs& a, const std::string& output, const std::string& to) {
  std::string text;
  if (to == "dlio") {
    Result<std::string> t = convert_to_dlio(a);
    if (!t) return report_error(t.error());
    text = *t;
  } else if (to != "toml") {
    return report_error(
        input_error("--to " + to + ": expected toml (from a DLIO config) or dlio (from a job)"));
  } else {
    if (!is_dlio_config(a.job))
      return report_error(
          input_error(a.job + ": convert reads a DLIO config (.yaml, .yml); --to dlio writes one"));
    Result<DlioJob> d = load_dlio(a.job, a.hydra);
    if (!d) return report_error(d.error());
    text = "# Converted by `dlgen convert` from the DLIO config " + a.job;
    for (const auto& h : a.hydra) text += " " + h;
    text += "\n# Each key says which DLIO key it came from.\n";
    for (const auto& n : d->notes) text += "# note: " + n + "\n";
    text += "\n" + to_toml(d->job, d->comments);
  }
  if (output.empty() || output == "-") {
    std::fputs(text.c_str(), stdout);
    return 0;
  }
  if (Result<void> w = write_text_file(output, text); !w) return report_error(w.error());
  return 0;
}

struct MlperfArgs {
  JobArgs job;
  std::string engine{engine::default_name()};
  std::string out_dir = "mlperf-results";
  std::string results_dir;  // the submission folder (mlperf_cli.hpp)
  std::string submitter = "dlgen-user";
  std::string system = "system-under-test";
  std::string ram;
  std::uint32_t runs = 0;  // 0: 5 for training; for checkpointing, one checkpoint each
  bool no_warmup = false;
  bool no_size = false;
  bool quiet = false;
};

// dlgen mlperf JOB|CONFIG: MLPerf Storage's run rules (replay/mlperf.hpp, docs/mlperf.md).
// Under mpirun (docs/mlperf.md, "Several hosts") every rank is one client host: the job must be
// the same on all (so is every host's accelerator count), the dataset is sized by all hosts'
// accelerators and RAM and generated by all ranks, each run is every host's, reduced on every
// rank; rank 0 alone prints and writes the results. Every error is agreed on, so it stops all
// ranks and rank 0 says which and why.
int do_mlperf_on(const MlperfArgs& a, replay::Cluster& cl) {
  const bool root = cl.rank() == 0;
  const bool several = cl.size() > 1;
  auto fail = [root](const Error& e) { return root ? report_error(e) : e.exit_code(); };
  JobArgs ja = a.job;
  ja.quiet = a.quiet || !root;
  Result<Job> loaded = load(ja);
  if (Result<void> s = replay::agree(cl, loaded ? ok() : Result<void>(loaded.error())); !s)
    return fail(s.error());
  // The same job on every host, hence the same accelerators per host (CLOSED's rule).
  if (several)
    if (Result<void> same = replay::check_same_job(cl, *loaded); !same) return fail(same.error());
  Job job = *loaded;
  // --ram is what the dataset is sized for; the host's measured RAM is what the rules mean (a
  // training run sized for less is INVALID, replay::MlperfOptions).
  const std::uint64_t measured = limits::host_memory_bytes();
  std::uint64_t ram = measured;
  if (!a.ram.empty()) {
    Result<std::uint64_t> r = parse_size(a.ram);
    if (!r) return fail(input_error("--ram " + a.ram + ": " + r.error().message));
    ram = *r;
  }
  // The clients' RAM: each host once (its lowest rank counts it).
  const std::uint64_t ram_all = several ? replay::all_sum(cl, cl.host_leader() ? ram : 0) : ram;
  const std::uint64_t measured_all =
      several ? replay::all_sum(cl, cl.host_leader() ? measured : 0) : measured;
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
  outputs.quiet = a.quiet;
  // MLPerf Storage v2.0's LLM checkpointing rules (cmd_mlperf.cpp).
  if (!job.run.train) return mlperf_checkpoint(job, outputs, cl);
  const engine::EngineOps* engine = engine::find(a.engine);
  if (!engine)
    return fail(input_error("--engine " + a.engine + ": expected " + engine::expected_names()));
  {
    // Only rank 0 writes the results: only it looks at the folder.
    const int rc = root ? check_submission_free(job, outputs, false, job.name) : 0;
    const std::uint8_t free_rc =
        replay::from_rank0<std::uint8_t>(cl, static_cast<std::uint8_t>(rc));
    if (free_rc != 0) return free_rc;
  }
  const std::string accelerator =
      !a.job.accelerator.empty() ? a.job.accelerator : replay::mlperf_match_accelerator(job);
  std::optional<Job> reference;
  if (!accelerator.empty()) {
    Result<Job> ref = replay::mlperf_reference(job.name, accelerator);
    if (ref) reference = *ref;
  }
  replay::MlperfOptions mo;
  mo.runs = a.runs > 0 ? a.runs : 5;
  mo.warmup = !a.no_warmup;
  mo.sizing = replay::mlperf_cluster_dataset_size(job, cl.size(), ram_all);
  mo.ram_bytes = ram_all;
  mo.measured_ram_bytes = measured_all;
  if (!a.no_size && job.dataset.num_files < mo.sizing.files) {
    if (!a.quiet && root)
      std::fprintf(stderr,
                   "dlgen: mlperf: dataset sized to %llu files (was %llu): 500 steps x %u x %u "
                   "accelerator(s)%s = %llu samples, 5 x RAM%s = %llu samples\n",
                   static_cast<unsigned long long>(mo.sizing.files),
                   static_cast<unsigned long long>(job.dataset.num_files), job.reader.batch_size,
                   job.run.accelerators,
                   several ? (" x " + std::to_string(cl.size()) + " ranks").c_str() : "",
                   static_cast<unsigned long long>(mo.sizing.samples_for_steps),
                   several ? " (all hosts)" : "",
                   static_cast<unsigned long long>(mo.sizing.samples_for_memory));
    job.dataset.num_files = mo.sizing.files;
    // The resized job is checked again, with this host's RAM (the plan must fit), before anything
    // is generated (under mpirun every rank checks with its own host's RAM, and all agree).
    Result<void> valid = ok();
    if (const std::vector<Diagnostic> d = validate(job, measured); !d.empty()) {
      std::string why = a.job.job + ": resized by the MLPerf rules to " +
                        std::to_string(job.dataset.num_files) + " files, the job is not valid:";
      for (const Diagnostic& x : d) why += "\n  " + x.path + ": " + x.message;
      valid = input_error(why);
    }
    if (Result<void> s = replay::agree(cl, valid); !s) return fail(s.error());
  }
  if (!engine->caps.diskless) {
    Result<void> r = several ? prepare_datasets_ranks(job, a.job, false, a.quiet, cl)
                             : prepare_datasets(job, a.job, false, a.quiet);
    if (!r) return fail(r.error());
  }
  replay::RunOptions ro;
  ro.engine = engine->name;
  if (several) {
    ro.cluster = &cl;
    // Every rank's result of each run, reduced for reduce_mlperf_ranks.
    mo.gather = [&cl](const replay::Report& mine) { return replay::gather_ranks(cl, mine); };
  }
  std::vector<replay::SubmissionRun> submission;  // with --results-dir: every run's files
  std::time_t last_second = 0;
  auto run = [&](const Job& j) {
    const std::string start = dlio_time_text();
    Result<replay::Report> rep = replay::run_job(j, ro);
    if (!rep || a.results_dir.empty()) return rep;
    // The submission's files hold the run of all hosts (rank 0 writes them).
    replay::Report reduced = *rep;
    std::string log;
    if (several) {
      const replay::ClusterResult c = replay::gather_ranks(cl, *rep);
      replay::apply_cluster(c, reduced);
      log = replay::format_cluster_summary(reduced, c);
    } else {
      log = replay::format_summary(reduced);
    }
    if (!root) return rep;
    last_second = distinct_second(last_second);
    submission.push_back(training_submission_run(j, reduced, start, dlio_time_text(), last_second,
                                                 mo.warmup && submission.empty(), log, cl.size()));
    return rep;
  };
  auto observe = [&](const replay::MlperfRun& m) {
    if (a.quiet || !root) return;
    std::printf("  %-8s seed %llu: %.1f samples/s, %.1f MiB/s, AU %.1f%% %s, %.1f s%s\n",
                m.warmup ? "warm-up" : "run", static_cast<unsigned long long>(m.seed),
                m.samples_per_s, m.mib_per_s, m.au * 100, m.au_passed ? "pass" : "FAIL",
                m.elapsed_s, several ? " (all hosts)" : "");
    std::fflush(stdout);
  };
  Result<replay::MlperfResult> r =
      replay::run_mlperf(job, reference ? &*reference : nullptr, run, mo, observe);
  if (!r) return fail(r.error());
  auto write_results = [&]() -> Result<void> {
    std::error_code ec;
    std::filesystem::create_directories(a.out_dir, ec);
    if (ec) return runtime_error(a.out_dir + ": " + ec.message());
    const std::pair<const char*, std::string> files[] = {{"results.json", replay::mlperf_json(*r)},
                                                         {"results.csv", replay::mlperf_csv(*r)},
                                                         {"summary.html", replay::mlperf_html(*r)}};
    for (const auto& [name, text] : files) {
      const std::filesystem::path p = std::filesystem::path(a.out_dir) / name;
      if (Result<void> w = write_text_file(p, text); !w) return w.error();
    }
    return ok();
  };
  if (Result<void> w = replay::agree(cl, root ? write_results() : ok()); !w) return fail(w.error());
  if (!root) return 0;
  std::printf(
      "%s: %s: mean %.1f samples/s, %.1f MiB/s, AU %.1f%% (lowest %.1f%%), %zu runs within "
      "%.1f%%%s\n",
      r->workload.c_str(), replay::to_string(r->division), r->mean_samples_per_s, r->mean_mib_per_s,
      r->mean_au * 100, r->min_au * 100, static_cast<std::size_t>(mo.runs), r->max_deviation * 100,
      several
          ? (", " + std::to_string(r->ranks) + " ranks on " + std::to_string(r->hosts) + " host(s)")
                .c_str()
          : "");
  for (const auto& why : r->reasons) std::printf("  %s\n", why.c_str());
  std::printf("  results in %s/ (results.json, results.csv, summary.html)\n", a.out_dir.c_str());
  if (!a.results_dir.empty())
    return write_training_submission(job, outputs, r->division, replay::mlperf_json(*r),
                                     submission);
  return 0;
}

int do_mlperf(const MlperfArgs& a) {
  // Without mpirun this is the single-process cluster (MPI is never started).
  Result<std::unique_ptr<replay::Cluster>> cluster = make_cluster(a.job);
  if (!cluster) return report_error(cluster.error());
  return do_mlperf_on(a, **cluster);
}

}  // namespace

void add_run_commands(CLI::App& app, Action& action) {
  auto run_args = std::make_shared<RunArgs>();
  CLI::App* run =
      app.add_subcommand("run", "Replay a job's training I/O (generating its dataset if missing)");
  add_job_options(run, run_args->job);
  add_rank_timeout(run, run_args->job);
  run->add_option("--engine", run_args->engine, "I/O engine: " + engine::help_names());
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

  auto gen_args = std::make_shared<JobArgs>();
  auto gen_quiet = std::make_shared<bool>(false);
  CLI::App* gen = app.add_subcommand(
      "generate", "Write a job's dataset (and validation set); reuse it when current");
  add_job_options(gen, *gen_args);
  add_rank_timeout(gen, *gen_args);
  gen->add_flag("--quiet,-q", *gen_quiet, "No progress");
  gen->callback([&action, gen_args, gen_quiet] {
    action = [gen_args, gen_quiet] { return do_generate(*gen_args, *gen_quiet); };
  });

  auto ml = std::make_shared<MlperfArgs>();
  CLI::App* mlc =
      app.add_subcommand("mlperf",
                         "MLPerf Storage's run rules (training and LLM checkpointing): verdict "
                         "CLOSED / OPEN / INVALID, results.json, results.csv, summary.html");
  add_job_options(mlc, ml->job);
  add_rank_timeout(mlc, ml->job);
  mlc->add_option("--runs", ml->runs,
                  "Measured runs (training: default 5, each with a new seed, fewer is INVALID; "
                  "checkpointing: the 10 checkpoints written and read split over them, default "
                  "one of each per run)");
  mlc->add_flag("--no-warmup", ml->no_warmup,
                "No warm-up run before them (training; the verdict is then INVALID)");
  mlc->add_flag("--no-size", ml->no_size,
                "Keep the job's dataset size (INVALID when smaller than the rules ask)");
  mlc->add_option("--ram", ml->ram,
                  "Client RAM: a training dataset must exceed 5x it (below this host's measured "
                  "RAM: INVALID); checkpointing drops the page cache under 3x it (default: this "
                  "host's)");
  mlc->add_option("--engine", ml->engine, "I/O engine: " + engine::help_names());
  mlc->add_option("--output-dir", ml->out_dir, "Where results go (default mlperf-results)");
  mlc->add_option("--results-dir", ml->results_dir,
                  "Also write MLPerf Storage's submission folder here (docs/mlperf.md)");
  mlc->add_option("--submitter", ml->submitter,
                  "Submitter (organisation) folder name in --results-dir (default dlgen-user)");
  mlc->add_option("--system", ml->system,
                  "System-under-test folder name in --results-dir (default system-under-test)");
  mlc->add_flag("--quiet,-q", ml->quiet, "Only the verdict");
  mlc->callback([&action, ml] { action = [ml] { return do_mlperf(*ml); }; });

  auto conv_args = std::make_shared<JobArgs>();
  auto conv_out = std::make_shared<std::string>();
  auto conv_to = std::make_shared<std::string>("toml");
  CLI::App* conv = app.add_subcommand("convert",
                                      "Write a DLIO workload config (YAML) as a commented dlgen "
                                      "job (TOML), or with --to dlio a job as a "
                                      "DLIO config");
  conv->add_option("config", conv_args->job, "DLIO config (YAML), or a job with --to dlio")
      ->required();
  conv->add_option("overrides", conv_args->hydra,
                   "Hydra-style overrides: ++workload.dataset.num_files_train=64");
  conv->add_option("--set", conv_args->sets,
                   "With --to dlio: override a job key first (repeatable)")
      ->allow_extra_args(false);
  conv->add_option("--scale", conv_args->scale,
                   "With --to dlio: apply the job's [scales.NAME] first");
  conv->add_option("--to", *conv_to, "toml (default: from a DLIO config) or dlio (from a job)");
  conv->add_option("--output,-o", *conv_out, "The file to write (default: stdout)");
  conv->callback([&action, conv_args, conv_out, conv_to] {
    action = [conv_args, conv_out, conv_to] { return do_convert(*conv_args, *conv_out, *conv_to); };
  });

  auto val_args = std::make_shared<JobArgs>();
  CLI::App* val = app.add_subcommand(
      "validate", "Check a job file: prints every problem (file:line: key: message) or ok");
  add_job_options(val, *val_args);
  val->callback([&action, val_args] { action = [val_args] { return do_validate(*val_args); }; });
}

}  // namespace dlgen::cli
