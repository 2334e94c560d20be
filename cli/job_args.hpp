#pragma once
// What the job verbs (run, generate, mlperf, convert, validate) share: the job and its overrides
// on the command line, loading it, the cluster this process is part of (a cluster of one without
// mpirun), and the datasets written by all ranks. One path for one host and many: every verb
// that runs I/O takes a cluster::Cluster and differs from one host to many only in what rank 0
// prints.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "dlgen/cluster/cluster.hpp"
#include "dlgen/core/job.hpp"
#include "dlgen/core/result.hpp"

namespace dlgen::cli {

struct JobArgs {
  std::string job;
  std::string scale;
  std::vector<std::string> sets;
  std::string accelerator;
  std::vector<std::string> hydra;  // Hydra-style overrides after the job: ++workload.x.y=v
  bool quiet = false;              // no notes on stderr
  // MPI ranks the job runs on (load_on_ranks sets it): a DLIO LLM config without
  // model.parallelism.data takes DP from them, as DLIO does (dlio/config.hpp, DlioContext).
  std::uint32_t mpi_ranks = 1;
  // Under mpirun: how long a rank waits for the others at a coordination point (the watchdog,
  // cluster/cluster.hpp); "0": forever.
  std::string rank_timeout = "10m";
};

// The job, its Hydra-style overrides, --scale, --set, --accelerator.
void add_job_options(CLI::App* cmd, JobArgs& a);
// Under mpirun only: `--rank-timeout DURATION` (docs/cluster.md, "The watchdog").
void add_rank_timeout(CLI::App* cmd, JobArgs& a);

// The job file (TOML) or DLIO config (YAML) with every override applied.
Result<Job> load(const JobArgs& a);

// The cluster this process is part of: MPI under mpirun, else the single process (MPI is never
// started).
Result<std::unique_ptr<cluster::Cluster>> make_cluster(const JobArgs& a);
// The job on every rank (notes on rank 0 only, unless `quiet`): a rank that cannot load it, or
// ranks holding different jobs, are refused on every rank before any I/O.
Result<Job> load_on_ranks(cluster::Cluster& cl, JobArgs a, bool quiet);

// Every error past load_on_ranks is agreed, hence known to every rank: rank 0 prints it, the
// others only exit with its code.
int fail_on(const cluster::Cluster& cl, const Error& e);

// Whether the job's evaluation passes run (so its validation set is read).
bool eval_used(const Job& job);

// Refuses, before any I/O, the object locations (s3://...) that this job's run cannot use (a URL
// is never taken for a local path): a training job's checkpoints on one kind of storage with its
// dataset on the other (one engine does both), and a malformed s3:// location.
Result<void> check_locations(const Job& job);

// Whether the job's I/O goes to objects: a training job's dataset, or a checkpoint-only job's
// checkpoint.dir, is an s3:// location.
bool uses_objects(const Job& job);

// The engine that reads the job's dataset (or moves a checkpoint-only job's checkpoints): `given`
// (--engine) when it can, else an error naming both; without --engine, "s3" for objects
// (uses_objects) and `name` (the default) otherwise.
Result<std::string> engine_for(const Job& job, const std::string& name, bool given);

// A training job's checkpoints on an object store: rank 0 claims checkpoint.dir for dlgen before
// any rank writes there (replay/checkpoint_objects.hpp), every rank agrees on the outcome.
// Nothing to do for checkpoints in a directory, or none.
Result<void> prepare_checkpoint_objects(cluster::Cluster& cl, const Job& job);
// checkpoint.restore: the checkpoint the restore reads, each rank's shards written when missing
// (replay::prepare_restore), before the run and before a capture of it, as the dataset is; every
// rank agrees on the outcome. `engine`: the run's engine (checkpoint_engine picks from it).
Result<void> prepare_restore_checkpoint(cluster::Cluster& cl, const Job& job,
                                        std::string_view engine);

// Which verb prepares the datasets: `run` (and mlperf) generates a missing training set (and the
// validation set when evaluation runs), noting it on stderr unless quiet; `generate` writes both
// sets and says of each what became of it.
enum class DatasetVerb { run, generate };
// Generates (or reuses) the job's datasets with every rank (cluster/datasets.hpp), writing through
// `engine` (empty: the default). `no_generate`: a missing dataset is an error, naming the command
// that writes it.
Result<void> prepare_datasets(cluster::Cluster& cl, const Job& job, const JobArgs& args,
                              DatasetVerb verb, bool no_generate, bool quiet,
                              std::string_view engine = {});

}  // namespace dlgen::cli
