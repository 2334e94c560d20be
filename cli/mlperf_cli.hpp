#pragma once
// The `dlgen mlperf` verb's pieces that do not need the run verb's internals (cmd_mlperf.cpp):
// the checkpointing rules end to end, and the submission folder for either kind of workload.
#include <cstdint>
#include <ctime>
#include <string>
#include <vector>

#include "dlgen/cluster/cluster.hpp"
#include "dlgen/core/job.hpp"
#include "dlgen/mlperf/checkpoint_workflow.hpp"
#include "dlgen/mlperf/mlperf_submission.hpp"
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
};

// `dlgen mlperf` on a checkpoint-only job: MLPerf Storage v2.0's checkpointing rules
// (replay/mlperf_checkpoint.hpp). Under mpirun (`cluster` of several ranks) every rank is one
// host running its share of the job's ranks; rank 0 alone prints and writes. Returns the exit
// code.
int mlperf_checkpoint(const Job& job, const MlperfOutputs& o, cluster::Cluster& cluster);

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

// Before the runs: an error (exit 2) when --results-dir already holds this workload's results.
int check_submission_free(const Job& job, const MlperfOutputs& o, bool checkpointing,
                          const std::string& workload);

// The submission folder of a training workload's rules (`results_json`: results.json).
int write_training_submission(const Job& job, const MlperfOutputs& o, mlperf::Division division,
                              const std::string& results_json,
                              const std::vector<mlperf::SubmissionRun>& runs);

}  // namespace dlgen::cli
