// dlgen generate: write a job's datasets (the training set and the validation set), or say that
// they are up to date. Under mpirun the ranks write them together (cluster/datasets.hpp); without
// it this process is a cluster of one.
#include <cstdio>
#include <memory>
#include <string>

#include "commands.hpp"
#include "dlgen/engine/registry.hpp"
#include "dlgen/generator/generator.hpp"
#include "job_args.hpp"

namespace dlgen::cli {
namespace {

int do_generate(const JobArgs& a, bool quiet, const std::string& engine) {
  Result<std::unique_ptr<cluster::Cluster>> made = make_cluster(a);
  if (!made) return report_error(made.error());
  cluster::Cluster& cl = **made;
  Result<Job> job = load_on_ranks(cl, a, quiet);
  if (!job) return fail_on(cl, job.error());
  // Refused for every kind of job before any I/O, as `run --engine` is.
  Result<const engine::EngineOps*> writer = generator::writer_engine(engine);
  if (!writer) return fail_on(cl, writer.error());
  // A file engine named for an object location (or the s3 engine for a folder) is refused as
  // `run` refuses it, not overruled by the location.
  if (!engine.empty())
    if (Result<std::string> fits = engine_for(*job, engine, true); !fits)
      return fail_on(cl, fits.error());
  if (!job->run.train) {
    if (cl.rank() == 0)
      std::printf("%s: a checkpoint-only job reads no dataset: nothing to generate\n",
                  job->name.c_str());
    return 0;
  }
  if (Result<void> r = prepare_datasets(cl, *job, a, DatasetVerb::generate, false, quiet, engine);
      !r)
    return fail_on(cl, r.error());
  // The checkpoint a restore reads is the run's input too (a capture of the run must not hold it).
  // Without --engine: the s3 engine for objects, else the one that wrote the files.
  Result<std::string> run_engine = engine_for(*job, engine, !engine.empty());
  if (!run_engine) return fail_on(cl, run_engine.error());
  if (run_engine->empty()) *run_engine = (*writer)->name;
  if (Result<void> r = prepare_restore_checkpoint(cl, *job, *run_engine); !r)
    return fail_on(cl, r.error());
  return 0;
}

}  // namespace

void add_generate_command(CLI::App& app, Action& action) {
  auto args = std::make_shared<JobArgs>();
  auto quiet = std::make_shared<bool>(false);
  auto engine = std::make_shared<std::string>();
  CLI::App* gen = app.add_subcommand(
      "generate", "Write a job's dataset (and validation set); reuse it when current");
  add_job_options(gen, *args);
  add_rank_timeout(gen, *args);
  gen->add_flag("--quiet,-q", *quiet, "No progress");
  gen->add_option(
      "--engine", *engine,
      "I/O engine that writes the files: " + engine::help_names(generator::writes_storage) +
          "; without it, the default or, where io_uring is refused, pread");
  gen->callback([&action, args, quiet, engine] {
    action = [args, quiet, engine] { return do_generate(*args, *quiet, *engine); };
  });
}

}  // namespace dlgen::cli
