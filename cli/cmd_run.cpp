// dlgen run / generate / validate: load a job (with --scale, --set, --accelerator), make sure its
// dataset exists, replay it, print what a storage engineer needs, write JSON and a time series.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "dlgen/core/job_io.hpp"
#include "dlgen/core/progress.hpp"
#include "dlgen/core/units.hpp"
#include "dlgen/generator/generator.hpp"
#include "dlgen/replay/plan.hpp"
#include "dlgen/replay/runner.hpp"

namespace dlgen::cli {
namespace {

struct JobArgs {
  std::string job;
  std::string scale;
  std::vector<std::string> sets;
  std::string accelerator;
};

struct RunArgs {
  JobArgs job;
  std::string engine = "uring";
  std::string output;
  std::string timeseries;
  std::string capture;
  bool dry_run = false;
  bool no_generate = false;
  bool find_max = false;
  bool quiet = false;
};

void add_job_options(CLI::App* cmd, JobArgs& a) {
  cmd->add_option("job", a.job, "Job file (TOML)")->required();
  cmd->add_option("--scale", a.scale, "Apply the job's [scales.NAME] (built-in: small)");
  // One value per --set, so `--set k=v job.toml` leaves the job file to the positional.
  cmd->add_option("--set", a.sets, "Override a job key, e.g. --set reader.batch_size=8 (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--accelerator", a.accelerator, "Compute profile: compute.<NAME>.time (a100, h100, ...)");
}

Result<Job> load(const JobArgs& a) {
  JobLoadOptions o;
  o.overrides = a.sets;
  o.scale = a.scale;
  o.accelerator = a.accelerator;
  return load_job(a.job, o);
}

bool eval_used(const Job& job) { return job.validation.has_value() && job.run.eval_every_epochs > 0; }

// Generates (or reuses) the training set and, when evaluation passes run, the validation set.
Result<void> prepare_datasets(const Job& job, const JobArgs& args, bool no_generate, bool quiet) {
  std::vector<const DatasetSpec*> sets{&job.dataset};
  if (eval_used(job)) sets.push_back(&*job.validation);
  for (const DatasetSpec* d : sets) {
    if (generator::dataset_ready(*d)) continue;
    if (no_generate)
      return runtime_error("the dataset in " + d->dir.string() + " is missing or does not match the job; generate it with `dlgen generate " +
                           args.job + (args.scale.empty() ? "" : " --scale " + args.scale) +
                           "` (with the same --set options), or run without --no-generate");
    generator::GenerateOptions go;
    go.progress = !quiet;
    Result<generator::GenerateReport> g = generator::ensure_dataset(*d, go);
    if (!g) return g.error();
    if (!quiet && !g->reused)
      std::fprintf(stderr, "dlgen: generated %s: %llu files, %s in %.1f s\n", d->dir.string().c_str(),
                   static_cast<unsigned long long>(g->files_written), format_size(g->bytes_written).c_str(), g->seconds);
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
  return report_error(runtime_error(std::string("cannot exec dlgen capture: ") + std::strerror(errno)));
}

// MLPerf Storage's headline: the most simulated accelerators whose AU stays at or above the
// threshold, doubling until one fails, then bisecting. Each trial is sized so that the storage,
// not the prefetched first batches, decides it: every accelerator computes at least
// kMeasuredSteps steps after its first (AU leaves the first step out: it waits for the cold
// start) and at least kMinTrialSeconds of compute. An epoch too short for that is repeated, as
// training would; a dataset that cannot give each accelerator kMinEpochSteps steps an epoch (or
// would need more than kMaxEpochs epochs) makes the trial inconclusive, not a pass.
int find_max_accelerators(const Job& base, const replay::RunOptions& ro, bool quiet) {
  constexpr std::uint64_t kMeasuredSteps = 30;
  constexpr double kMinTrialSeconds = 3.0;
  constexpr std::uint64_t kMinEpochSteps = 2;
  constexpr std::uint64_t kMaxEpochs = 64;
  constexpr std::uint32_t kLimit = 1024;
  const double step_s = base.compute.effective().expected();
  const std::uint64_t target =
      1 + std::max<std::uint64_t>(kMeasuredSteps, static_cast<std::uint64_t>(std::ceil(kMinTrialSeconds / step_s)));
  std::uint32_t good = 0, bad = 0;
  std::string limit;
  std::uint32_t inconclusive_at = 0;
  bool many_epochs = false;
  auto probe = [&](std::uint32_t n) -> Result<bool> {
    Job j = base;
    j.run.accelerators = n;
    j.run.epochs = 1;
    j.run.max_steps = 0;
    j.run.max_seconds = 0;
    j.run.eval_every_epochs = 0;
    j.checkpoint.enabled = false;
    // The accelerator with the fewest batches bounds how many steps every one of them gets.
    const replay::EpochPlan plan = replay::plan_epoch(j, 0);
    std::uint64_t per_epoch = plan.accelerators.empty() ? 0 : UINT64_MAX;
    for (const auto& acc : plan.accelerators) per_epoch = std::min<std::uint64_t>(per_epoch, acc.num_batches());
    if (base.run.max_steps > 0) per_epoch = std::min(per_epoch, base.run.max_steps);
    const std::uint64_t epochs = per_epoch == 0 ? 0 : (target + per_epoch - 1) / per_epoch;
    if (per_epoch < kMinEpochSteps || epochs > kMaxEpochs) {
      inconclusive_at = n;
      limit = "inconclusive at " + std::to_string(n) + " accelerators: an epoch gives each only " +
              std::to_string(per_epoch) + " step(s) of " + std::to_string(base.reader.batch_size) +
              " samples; a trial needs " + std::to_string(target) + " steps (" + std::to_string(kMeasuredSteps) +
              "+ measured, >= " + std::to_string(static_cast<int>(kMinTrialSeconds)) +
              " s of compute) from at most " + std::to_string(kMaxEpochs) + " epochs of >= " +
              std::to_string(kMinEpochSteps) + " steps; a larger dataset may show a higher number";
      return false;
    }
    j.run.epochs = static_cast<std::uint32_t>(epochs);
    j.run.max_steps = (target + epochs - 1) / epochs;  // spread evenly over the epochs
    Result<replay::Report> r = replay::run_job(j, ro);
    if (!r) return r.error();
    if (epochs > 1 && r->dataset_fits_in_ram) many_epochs = true;
    const bool pass = r->passed;
    if (!quiet)
      std::printf("  %4u accelerator(s): AU %5.1f%% (lowest), %.1f MiB/s, %.1f samples/s, %llu epoch(s) x %llu "
                  "steps, %.1f s: %s\n",
                  n, r->au * 100, r->mib_per_s, r->samples_per_s, static_cast<unsigned long long>(epochs),
                  static_cast<unsigned long long>(j.run.max_steps), r->elapsed_s, pass ? "pass" : "fail");
    std::fflush(stdout);
    return pass;
  };
  for (std::uint32_t n = 1; n <= kLimit; n *= 2) {
    Result<bool> p = probe(n);
    if (!p) return report_error(p.error());
    if (!*p) {
      bad = n;
      break;
    }
    good = n;
  }
  while (bad > 0 && bad - good > 1) {
    const std::uint32_t mid = good + (bad - good) / 2;
    Result<bool> p = probe(mid);
    if (!p) return report_error(p.error());
    (*p ? good : bad) = mid;
  }
  const bool inconclusive = bad != 0 && bad == inconclusive_at;
  if (bad == 0) limit = "stopped searching at " + std::to_string(kLimit);
  else if (!inconclusive) limit.clear();
  std::printf("max accelerators: %u%s (AU >= %.0f%% with %s)\n", good, inconclusive ? " or more (inconclusive)" : "",
              base.compute.au_threshold * 100,
              base.compute.accelerator.empty() ? "the job's step time" : base.compute.accelerator.c_str());
  if (!limit.empty()) std::printf("note: %s\n", limit.c_str());
  if (many_epochs)
    std::printf("note: trials repeat epochs of a dataset that fits in RAM; later epochs may read from the page "
                "cache (run.cache = \"drop_epoch\" avoids it)\n");
  return 0;
}

int do_run(const RunArgs& a) {
  Result<Job> job = load(a.job);
  if (!job) return report_error(job.error());
  const auto engine = replay::engine_from_string(a.engine);
  if (!engine) return report_error(input_error("--engine " + a.engine + ": expected uring, pread or null"));
  if (a.dry_run) {
    std::fputs(replay::format_plan(*job, replay::summarize_plan(*job)).c_str(), stdout);
    std::printf("  dataset      %s\n", generator::dataset_ready(job->dataset) ? "present" : "missing (run generates it)");
    return 0;
  }
  if (*engine != replay::EngineKind::null)
    if (Result<void> r = prepare_datasets(*job, a.job, a.no_generate, a.quiet); !r) return report_error(r.error());
  // Generate first, trace second: the replay trace must hold the replay, not the dataset's creation.
  if (!a.capture.empty()) return exec_capture(a.capture);
  replay::RunOptions ro;
  ro.engine = *engine;
  ro.progress = !a.quiet && progress_enabled();
  ro.series = !a.timeseries.empty();
  if (a.find_max) {
    if (job->compute.effective().expected() <= 0)
      return report_error(input_error("--find-max-accelerators needs a compute time per step (compute.time or "
                                      "--accelerator): with none, any number of accelerators is \"busy\""));
    ro.progress = false;
    return find_max_accelerators(*job, ro, a.quiet);
  }
  Result<replay::Report> rep = replay::run_job(*job, ro);
  if (!rep) return report_error(rep.error());
  if (a.quiet && rep->au_applicable)
    std::printf("%s: AU %.1f%% %s, %.1f samples/s, %.1f MiB/s\n", rep->job_name.c_str(), rep->au * 100,
                rep->passed ? "PASS" : "FAIL", rep->samples_per_s, rep->mib_per_s);
  else if (a.quiet)
    std::printf("%s: %.1f samples/s, %.1f MiB/s\n", rep->job_name.c_str(), rep->samples_per_s, rep->mib_per_s);
  else
    std::fputs(replay::format_summary(*rep).c_str(), stdout);
  if (!a.output.empty())
    if (Result<void> w = replay::write_json(*rep, a.output); !w) return report_error(w.error());
  if (!a.timeseries.empty())
    if (Result<void> w = replay::write_timeseries_csv(*rep, a.timeseries); !w) return report_error(w.error());
  return 0;  // an AU below the threshold is a result (printed as FAIL), not a failure to run
}

int do_generate(const JobArgs& a, bool quiet) {
  Result<Job> job = load(a);
  if (!job) return report_error(job.error());
  std::vector<const DatasetSpec*> sets{&job->dataset};
  if (job->validation) sets.push_back(&*job->validation);
  for (const DatasetSpec* d : sets) {
    generator::GenerateOptions go;
    go.progress = !quiet;
    Result<generator::GenerateReport> g = generator::ensure_dataset(*d, go);
    if (!g) return report_error(g.error());
    if (g->reused)
      std::printf("%s: up to date (%llu files)\n", d->dir.string().c_str(), static_cast<unsigned long long>(d->num_files));
    else
      std::printf("%s: wrote %llu files, %s in %.1f s (%.1f MiB/s)\n", d->dir.string().c_str(),
                  static_cast<unsigned long long>(g->files_written), format_size(g->bytes_written).c_str(), g->seconds,
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

}  // namespace

void add_run_commands(CLI::App& app, Action& action) {
  auto run_args = std::make_shared<RunArgs>();
  CLI::App* run = app.add_subcommand("run", "Replay a job's training I/O (generating its dataset if missing)");
  add_job_options(run, run_args->job);
  run->add_option("--engine", run_args->engine, "I/O engine: uring (default), pread, null");
  run->add_option("--output,-o", run_args->output, "Write the full result as JSON");
  run->add_option("--timeseries", run_args->timeseries, "Write per-second throughput and queue depth as CSV");
  run->add_flag("--dry-run", run_args->dry_run, "Print the plan (files, bytes, steps, minimum runtime) and exit");
  run->add_flag("--no-generate", run_args->no_generate, "Fail instead of generating a missing dataset");
  run->add_option("--capture", run_args->capture, "Trace the replay itself into this HDF5 trace (dlgen capture)");
  run->add_flag("--find-max-accelerators", run_args->find_max,
                "Search the most simulated accelerators this storage keeps at AU >= threshold");
  run->add_flag("--quiet,-q", run_args->quiet, "One result line, no progress");
  run->callback([&action, run_args] { action = [run_args] { return do_run(*run_args); }; });

  auto gen_args = std::make_shared<JobArgs>();
  auto gen_quiet = std::make_shared<bool>(false);
  CLI::App* gen = app.add_subcommand("generate", "Write a job's dataset (and validation set); reuse it when current");
  add_job_options(gen, *gen_args);
  gen->add_flag("--quiet,-q", *gen_quiet, "No progress");
  gen->callback([&action, gen_args, gen_quiet] { action = [gen_args, gen_quiet] { return do_generate(*gen_args, *gen_quiet); }; });

  auto val_args = std::make_shared<JobArgs>();
  CLI::App* val = app.add_subcommand("validate", "Check a job file: prints every problem (file:line: key: message) or ok");
  add_job_options(val, *val_args);
  val->callback([&action, val_args] { action = [val_args] { return do_validate(*val_args); }; });
}

}  // namespace dlgen::cli
