#include "job_args.hpp"

#include <stdlib.h>

#include <chrono>
#include <cstdio>

#include "commands.hpp"
#include "dlgen/cluster/cluster_report.hpp"
#include "dlgen/cluster/datasets.hpp"
#include "dlgen/core/job_io.hpp"
#include "dlgen/core/storage_location.hpp"
#include "dlgen/core/units.hpp"
#include "dlgen/dlio/config.hpp"
#include "dlgen/engine/registry.hpp"
#include "dlgen/objects/object_dataset.hpp"
#include "dlgen/replay/checkpoint.hpp"
#include "dlgen/replay/checkpoint_objects.hpp"

namespace dlgen::cli {

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
                  "Compute profile: compute.<NAME>.time and batch (a100, h100, b200, mi355, ...); "
                  "on a DLIO config, the accelerator the config is for");
}

void add_rank_timeout(CLI::App* cmd, JobArgs& a) {
  cmd->add_option("--rank-timeout", a.rank_timeout,
                  "Under mpirun: end every rank, naming the one that stopped answering, when one "
                  "keeps the others waiting at a coordination point this long (default 10m; 0: "
                  "wait forever)");
}

Result<std::unique_ptr<cluster::Cluster>> make_cluster(const JobArgs& a) {
  Result<double> t = parse_duration_s(a.rank_timeout);
  if (!t || *t < 0)
    return input_error("--rank-timeout " + a.rank_timeout + ": " +
                       (t ? std::string("must be >= 0") : t.error().message));
  cluster::ClusterOptions o;
  o.rank_timeout_s = *t;
  return cluster::make_cluster(o);
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
  DlioContext context;
  context.mpi_ranks = a.mpi_ranks;
  Result<DlioJob> d = load_dlio(a.job, a.hydra, context);
  if (!d) return d.error();
  if (!a.quiet)
    for (const auto& n : d->notes) std::fprintf(stderr, "dlgen: note: %s\n", n.c_str());
  // The config's object store, where the environment names none (the environment wins).
  for (const auto& [name, value] : d->environment) ::setenv(name.c_str(), value.c_str(), 0);
  if (o.overrides.empty() && o.scale.empty() && o.accelerator.empty()) return std::move(d->job);
  // A DLIO config is one accelerator's (MLPerf ships retinanet_b200.yaml, retinanet_mi355.yaml):
  // --accelerator names the one its compute time and batch are for.
  if (!o.accelerator.empty() && d->job.compute.per_accelerator.empty())
    d->job.compute.per_accelerator[o.accelerator].time = d->job.compute.step_time;
  // --set, --scale and --accelerator act on the job as `dlgen convert` writes it.
  return parse_job(to_toml(d->job, d->comments), a.job + " (as converted to TOML)", o);
}

Result<Job> load_on_ranks(cluster::Cluster& cl, JobArgs a, bool quiet) {
  a.quiet = quiet || cl.rank() != 0;
  a.mpi_ranks = static_cast<std::uint32_t>(cl.size());
  Result<Job> job = load(a);
  if (Result<void> s = cl.agree(job ? ok() : Result<void>(job.error())); !s) return s.error();
  if (Result<void> same = cluster::check_same_job(cl, *job); !same) return same.error();
  return job;
}

int fail_on(const cluster::Cluster& cl, const Error& e) {
  return cl.rank() == 0 ? report_error(e) : e.exit_code();
}

bool eval_used(const Job& job) {
  return job.validation.has_value() && job.run.evaluates();
}

Result<void> check_locations(const Job& job) {
  const CheckpointSpec& k = job.checkpoint;
  if (!job.run.train || !k.enabled || !is_url(k.dir.string())) {
    // A checkpoint directory beside a dataset of objects: the default file engine writes the
    // checkpoints while the s3 engine reads the dataset (replay/src/runner.cpp).
    // The checkpoint-only workflow writes a directory or objects (s3://), as given.
    if (!job.run.train && is_url(k.dir.string()))
      if (Result<StorageLocation> loc = parse_location(k.dir.string()); !loc) return loc.error();
    return ok();
  }
  // s3:// checkpoints of a training job: written through the run's engine, the s3 engine.
  if (!is_url(job.dataset.dir.string()))
    return input_error("checkpoint.dir = \"" + k.dir.string() +
                       "\" is an object location, dataset.dir a directory: one engine reads the "
                       "dataset and writes the checkpoints, so both are directories or both s3://");
  if (Result<StorageLocation> loc = parse_location(k.dir.string()); !loc) return loc.error();
  return ok();
}

bool uses_objects(const Job& job) {
  return job.run.train ? is_url(job.dataset.dir.string()) : is_url(job.checkpoint.dir.string());
}

Result<std::string> engine_for(const Job& job, const std::string& name, bool given) {
  const bool objects = uses_objects(job);
  if (!given) return objects ? std::string("s3") : name;
  const engine::EngineOps* e = engine::find(name);
  if (!e) return name;  // the caller names the registered ones
  const std::string where = job.run.train
                                ? "dataset.dir = \"" + job.dataset.dir.string() + "\""
                                : "checkpoint.dir = \"" + job.checkpoint.dir.string() + "\"";
  if (objects && e->caps.posix_fd)
    return input_error("--engine " + name + " reads files; " + where +
                       " is an object location (--engine s3 reads it)");
  if (!objects && !e->caps.posix_fd && !e->caps.diskless)
    return input_error("--engine " + name + " reads objects (s3://BUCKET/PREFIX); " + where +
                       " is a directory");
  return name;
}

Result<void> prepare_checkpoint_objects(cluster::Cluster& cl, const Job& job) {
  const CheckpointSpec& k = job.checkpoint;
  if (!k.enabled || !replay::is_object_dir(k.dir)) return ok();
  return cl.agree(cl.rank() == 0 ? replay::claim_checkpoint_prefix(k.dir) : ok());
}

Result<void> prepare_restore_checkpoint(cluster::Cluster& cl, const Job& job,
                                        std::string_view engine) {
  if (!job.checkpoint.enabled || !job.checkpoint.restore) return ok();
  if (Result<void> c = prepare_checkpoint_objects(cl, job); !c) return c;
  const replay::ShardShare share =
      cl.size() > 1 ? replay::ShardShare{cl.rank(), cl.size()} : replay::ShardShare{};
  Result<bool> wrote = replay::prepare_restore(job, engine, share);
  return cl.agree(wrote ? ok() : Result<void>(wrote.error()));
}

namespace {

// --no-generate and the dataset is not there (`why`, when known): which command writes it.
Error missing_dataset(const DatasetSpec& d, const JobArgs& args, std::uint32_t ranks,
                      const std::string& why = {}) {
  const std::string gap = why.empty() ? "" : " (" + why + ")";
  if (ranks > 1)
    return runtime_error("the dataset in " + d.dir.string() +
                         " is missing or does not match the job" + gap +
                         "; generate it with `mpirun ... "
                         "dlgen generate " +
                         args.job + "` (same options), or run without --no-generate");
  return runtime_error("the dataset in " + d.dir.string() +
                       " is missing or does not match the job" + gap +
                       "; generate it with `dlgen generate " + args.job +
                       (args.scale.empty() ? "" : " --scale " + args.scale) +
                       "` (with the same --set options), or run without --no-generate");
}

// Rank 0's line on a dataset just written (or found current under the lock).
void say_written(const DatasetSpec& d, const cluster::DatasetWrite& w, DatasetVerb verb, bool quiet,
                 std::uint32_t ranks) {
  const auto files = static_cast<unsigned long long>(w.files);
  if (w.reused) {
    if (verb == DatasetVerb::generate)
      std::printf("%s: up to date (%llu files)\n", d.dir.string().c_str(),
                  static_cast<unsigned long long>(d.num_files));
  } else if (ranks > 1) {
    if (!quiet || verb == DatasetVerb::generate)
      std::fprintf(stderr, "dlgen: generated %s with %u ranks: %llu files, %s in %.1f s\n",
                   d.dir.string().c_str(), ranks, files, format_size(w.bytes).c_str(), w.seconds);
  } else if (verb == DatasetVerb::generate) {
    std::printf("%s: wrote %llu files, %s in %.1f s (%.1f MiB/s)\n", d.dir.string().c_str(), files,
                format_size(w.bytes).c_str(), w.seconds,
                w.seconds > 0 ? static_cast<double>(w.bytes) / 1048576.0 / w.seconds : 0.0);
  } else if (!quiet) {
    std::fprintf(stderr, "dlgen: generated %s: %llu files, %s in %.1f s\n", d.dir.string().c_str(),
                 files, format_size(w.bytes).c_str(), w.seconds);
  }
}

// The object indexes rank 0's claim listed, on every rank (as text: "3 17 42").
std::vector<std::uint64_t> shared_files(cluster::Cluster& cl,
                                        const std::vector<std::uint64_t>& mine) {
  std::string text;
  if (cl.rank() == 0)
    for (const std::uint64_t f : mine) text += std::to_string(f) + " ";
  cl.broadcast(text);
  std::vector<std::uint64_t> out;
  for (std::size_t at = 0, end; (end = text.find(' ', at)) != std::string::npos; at = end + 1)
    out.push_back(std::stoull(text.substr(at, end - at)));
  return out;
}

// A dataset of objects (s3://...), every rank writing its share of them: rank 0 checks the
// manifest and claims the prefix (dlgen/objects), every rank writes the objects whose position
// in the claim's list is its rank modulo the ranks, and once all are done rank 0 marks the
// manifest complete. Every step is agreed on, so a failure anywhere stops every rank there.
Result<void> prepare_objects(cluster::Cluster& cl, const DatasetSpec& d, DatasetVerb verb,
                             bool no_generate, const JobArgs& args, bool quiet) {
  const bool root = cl.rank() == 0;
  const auto start = std::chrono::steady_clock::now();
  Result<objects::DatasetClaim> claim = objects::DatasetClaim{};
  if (root) {
    if (no_generate) {
      Result<std::string> gap = objects::dataset_gap(d);
      if (!gap)
        claim = gap.error();
      else if (!gap->empty())
        claim = missing_dataset(d, args, cl.size(), *gap);
      else
        claim = objects::DatasetClaim{true, {}};
    } else {
      claim = objects::claim_dataset(d);
    }
  }
  if (Result<void> s = cl.agree(claim ? ok() : Result<void>(claim.error())); !s) return s.error();
  const bool reused = cluster::from_rank0<std::uint8_t>(cl, root && claim->reused ? 1 : 0) != 0;
  cluster::DatasetWrite dw;
  dw.reused = reused;
  if (!reused) {
    const std::vector<std::uint64_t> files =
        shared_files(cl, root ? claim->files : std::vector<std::uint64_t>{});
    Result<objects::ObjectWrite> w = objects::write_objects(d, files, {cl.rank(), cl.size()});
    if (Result<void> s = cl.agree(w ? ok() : Result<void>(w.error())); !s) return s.error();
    dw.files = cl.sum(w->files);
    dw.bytes = cl.sum(w->bytes);
    if (Result<void> s = cl.agree(root ? objects::finish_dataset(d) : ok()); !s) return s.error();
    dw.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  if (root) say_written(d, dw, verb, quiet, cl.size());
  return ok();
}

}  // namespace

Result<void> prepare_datasets(cluster::Cluster& cl, const Job& job, const JobArgs& args,
                              DatasetVerb verb, bool no_generate, bool quiet,
                              std::string_view engine) {
  const bool root = cl.rank() == 0;
  std::vector<const DatasetSpec*> sets{&job.dataset};
  // A validation set in the training set's files (sample_range; validate holds their layout the
  // same) is written with them: one dataset, one manifest.
  if (job.validation && (verb == DatasetVerb::generate || eval_used(job)) &&
      job.validation->dir != job.dataset.dir)
    sets.push_back(&*job.validation);
  for (const DatasetSpec* d : sets) {
    if (is_url(d->dir.string())) {
      if (Result<void> r = prepare_objects(cl, *d, verb, no_generate, args, quiet); !r) return r;
      continue;
    }
    if (cluster::dataset_ready(cl, *d)) {
      if (root && verb == DatasetVerb::generate)
        std::printf("%s: up to date (%llu files)\n", d->dir.string().c_str(),
                    static_cast<unsigned long long>(d->num_files));
      continue;
    }
    if (no_generate) return missing_dataset(*d, args, cl.size());
    Result<cluster::DatasetWrite> w = cluster::write_dataset(cl, *d, !quiet, engine);
    if (!w) return w.error();
    if (root) say_written(*d, *w, verb, quiet, cl.size());
  }
  return ok();
}

}  // namespace dlgen::cli
