#pragma once
// The `dlgen mlperf` verb's pieces that do not need the run verb's internals: the checkpointing
// rules end to end (cmd_mlperf.cpp), v3.0's rule 4.7.1 and `validate` (cmd_mlperf_v3.cpp), and
// the submission folder for either kind of workload (mlperf_submission.cpp).
#include <CLI/CLI.hpp>
#include <cstdint>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include "dlgen/cluster/cluster.hpp"
#include "dlgen/core/job.hpp"
#include "dlgen/mlperf/checkpoint_workflow.hpp"
#include "dlgen/mlperf/mlperf_checkpoint.hpp"
#include "dlgen/mlperf/mlperf_submission.hpp"
#include "dlgen/mlperf/provenance.hpp"
#include "dlgen/replay/report.hpp"

namespace dlgen::cli {

// Where the verb's results go, and how the job was given (for the submission's config files).
struct MlperfOutputs {
  std::string job_path;                // the job or DLIO config as given
  std::vector<std::string> overrides;  // --scale, --accelerator, --set, Hydra overrides as typed
  std::string out_dir = "mlperf-results";
  std::string results_dir;  // the submission folder; "" = none
  std::string submitter = "dlgen-user";
  std::string system = "system-under-test";
  std::uint64_t ram = 0;   // client RAM (bytes)
  std::uint32_t runs = 0;  // 0: the rules' default
  std::string engine;      // a registered engine (--engine): checkpoints are written through it
  bool quiet = false;
  bool v3 = true;           // --rules v3.0 (the default); false: v2.0
  std::string accelerator;  // --accelerator (v3.0 checkpointing: the simulated accelerator)
  double invocation_start_unix_s = 0;  // when this invocation began (rule 4.7.1)
  std::string invocation_start_text;   // the same as DLIO writes times (provenance.json)
  mlperf::ClientInfo clients;          // the client hosts and their RAM (provenance.json)
};

// `dlgen mlperf` on a checkpoint-only job: MLPerf Storage v2.0's checkpointing rules
// (replay/mlperf_checkpoint.hpp). Under mpirun (`cluster` of several ranks) every rank is one
// host running its share of the job's ranks; rank 0 alone prints and writes. Returns the exit
// code.
int mlperf_checkpoint(const Job& job, const MlperfOutputs& o, cluster::Cluster& cluster);

// Seconds since the epoch, now.
double now_unix_s();

// MLPerf Storage v3.0's rule 4.7.1 across invocations: a write phase (none read) leaves its end
// in the checkpoint folder (mlperf::PhaseRecord), a read phase (none written) judges the time
// since this invocation began against it, adding to `r`'s verdict and reasons. Rank 0 only.
void judge_checkpoint_phases(const Job& job, const MlperfOutputs& o, const std::string& workload,
                             mlperf::MlperfCheckpointResult& r);

// `dlgen mlperf validate DIR [--rules v3.0|v2.0] [--json]` (cmd_mlperf_v3.cpp).
CLI::App* add_mlperf_validate(CLI::App* mlperf, std::function<int()>& action);

// Local time as DLIO writes it in summary.json ("2024-05-01T12:00:00.123456").
std::string dlio_time_text();

// The second a run's submission folder is named after: now, or the next second when `last` (the
// previous run's) is now, so that two short runs never share a folder. Sleeps at most a second.
std::time_t distinct_second(std::time_t last);

// One training run's files for the submission folder (`hosts`: the ranks under mpirun).
mlperf::SubmissionRun training_submission_run(const Job& job, const replay::Report& report,
                                              const std::string& start, const std::string& end,
                                              std::time_t ended, bool warmup,
                                              const std::string& log, std::uint32_t hosts = 1);

// provenance.json of one run (index 1-based; 0: the whole invocation) of `job` under the rules
// `o` names, run from `start` to `end`.
std::string run_provenance(const Job& job, const MlperfOutputs& o, const std::string& workload,
                           std::uint32_t index, bool warmup, const std::string& start,
                           const std::string& end);

// This host's name (gethostname), as DLIO's summary.json names it.
std::string hostname();

// Writes each (name, text) into `dir`, creating it.
Result<void> write_files(const std::string& dir,
                         const std::vector<std::pair<const char*, std::string>>& files);

// The submission folder of a workload of either kind (`results_json`: results.json; `runs`: every
// run's files) under --results-dir; prints where it went unless --quiet. Returns the exit code.
int write_submission_tree(const Job& job, const MlperfOutputs& o, mlperf::Division division,
                          bool checkpointing, const std::string& workload,
                          const std::string& results_json,
                          const std::vector<mlperf::SubmissionRun>& runs,
                          const std::vector<mlperf::SubmissionStep>& steps = {});

// Before the runs: an error (exit 2) when --results-dir already holds this workload's results.
int check_submission_free(const Job& job, const MlperfOutputs& o, bool checkpointing,
                          const std::string& workload);

// The submission folder of a training workload's rules (`results_json`: results.json).
int write_training_submission(const Job& job, const MlperfOutputs& o, mlperf::Division division,
                              const std::string& results_json,
                              const std::vector<mlperf::SubmissionRun>& runs,
                              const std::vector<mlperf::SubmissionStep>& steps = {});

// A training step's folder for the submission (v3.0: "datasize", "datagen"), timestamped now:
// its metadata (mlperf::training_step_metadata_json: `files`, the accelerator and clients `o`
// names), its log, and its provenance (`start`: when the step began).
mlperf::SubmissionStep training_step(const Job& job, const MlperfOutputs& o,
                                     const std::string& command, std::uint64_t files,
                                     const mlperf::MlperfSizing& sizing, const std::string& start);

}  // namespace dlgen::cli
