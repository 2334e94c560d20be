#pragma once
// The MLPerf Storage submission folder (v2.0's validation rules, Rules.md 2.1): what `dlgen mlperf
// --results-dir DIR` writes, as a pure function from the runs' texts to (path, text) pairs, and
// the writer that puts them on disk. The layout, and where it differs from MLPerf's:
// docs/mlperf.md ("Submission folder").
//
//   DIR/<division>/<submitter>/code/README.md
//   DIR/<division>/<submitter>/systems/<system>.json             (a stub the submitter fills)
//   DIR/<division>/<submitter>/results/<system>/training/<workload>/run/results.json
//   DIR/<division>/<submitter>/results/<system>/training/<workload>/run/<YYYYMMDD_HHmmss>/...
//   DIR/<division>/<submitter>/results/<system>/checkpointing/<workload>/results.json
//   DIR/<division>/<submitter>/results/<system>/checkpointing/<workload>/<YYYYMMDD_HHmmss>/...
//
// with, in each run's timestamp folder: <category>_run.stdout.log, <category>_run.stderr.log,
// summary.json (DLIO's names), per_epoch_stats.json, dlgen_output.json (dlgen's full result),
// dlio.log, dlgen_job.toml, provenance.json (when the run has one) and dlio_config/{config.yaml,
// hydra.yaml, overrides.yaml}.
#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

#include "dlgen/core/job.hpp"
#include "dlgen/core/result.hpp"
#include "dlgen/mlperf/mlperf.hpp"
#include "dlgen/replay/report.hpp"

namespace dlgen::mlperf {

// One run's files (the warm-up too, when there was one: MLPerf keeps its folder).
struct SubmissionRun {
  std::string timestamp;  // YYYYMMDD_HHmmss, local time the run ended (submission_timestamp)
  std::string summary_json, per_epoch_stats_json, output_json;
  std::string log;              // what dlgen printed about the run (stdout log and dlio.log)
  std::string provenance_json;  // provenance.json (provenance.hpp); "" writes none
  bool warmup = false;
};

// A training workload's datasize or datagen step (MLPerf Storage v3.0, Rules.md 2.1.12 - 2.1.15,
// 3.3.1): one timestamp folder beside run/, <workload>/<command>/<timestamp>/, holding
// training_<command>.stdout.log and .stderr.log, training_<timestamp>_metadata.json and
// provenance.json; datagen also dlio.log and dlio_config/ (as the runs).
struct SubmissionStep {
  std::string command;  // "datasize" or "datagen"
  std::string timestamp;
  std::string metadata_json;  // training_step_metadata_json
  std::string log;
  std::string provenance_json;  // "" writes none
};

// What a step's metadata records (mlpstorage's training_<timestamp>_metadata.json): the inputs
// of the sizing under "args" (model, accelerator_type, num_accelerators, num_client_hosts,
// client_host_memory_in_gb per host, data_dir) and its outputs under "parameters.dataset"
// (num_files_train, num_subfolders_train, total_disk_bytes = files x samples a file x the
// nominal record size, num_samples_per_file, record_length_bytes) with reader.batch_size. The
// datasize step records the rules' minimum (`files` = MlperfSizing::files, with the sizing's
// two figures); the datagen step the dataset the runs read.
struct StepInputs {
  std::string command, accelerator;
  std::uint64_t accelerators = 0;  // all hosts
  std::uint32_t hosts = 1;
  double client_host_memory_gib = 0;  // one host
  std::uint64_t files = 0;
  MlperfSizing sizing;  // datasize only
};
std::string training_step_metadata_json(const Job& job, const StepInputs& in);

struct SubmissionSpec {
  std::string submitter, system;  // folder names (sanitised: see submission_name)
  Division division = Division::invalid;
  bool checkpointing = false;  // category "checkpointing" (else "training")
  std::string workload;        // unet3d, resnet50, cosmoflow, llama3-8b, ...
  std::string results_json;    // the rules' verdict and means (results.json)
  std::string job_toml;        // the job as run (dlgen_job.toml)
  std::string config_yaml;     // dlio_config/config.yaml: the DLIO config, or why there is none
  std::vector<std::string> overrides;  // dlio_config/overrides.yaml, one list item each
  std::string command_line;            // recorded in hydra.yaml and the logs
  std::string tool_version;            // "dlgen 0.x"
  std::vector<SubmissionRun> runs;
  std::vector<SubmissionStep> steps;  // training under v3.0: datasize, datagen
};

struct SubmissionFile {
  std::filesystem::path path;  // relative to the results directory
  std::string text;
  bool keep_existing = false;  // the submitter edits it: never overwritten
};

// A name usable as one folder: every character outside [A-Za-z0-9._-] becomes '-' (MLPerf's
// rule 2.1.1 for the submitter; the same for systems and workloads); "" becomes "unnamed".
std::string submission_name(const std::string& s);

// Local time as MLPerf's timestamp folders name it: YYYYMMDD_HHmmss.
std::string submission_timestamp(std::time_t t);

// The division folder: "closed", "open", or "invalid" (not a folder MLPerf knows: an INVALID
// result cannot be submitted; the tree is kept for inspection).
const char* submission_division_folder(Division d);

// Every file of the submission, paths relative to the results directory. Two runs with the same
// timestamp are an error (a second run's folder would replace the first's).
Result<std::vector<SubmissionFile>> submission_files(const SubmissionSpec& spec);

// DLIO's per_epoch_stats.json of a training run: per epoch (1-based, as text) its duration in
// seconds (text, 2 decimals, as DLIO writes it), samples, bytes, AU (%) and throughput; the
// evaluation passes under "eval".
std::string dlio_training_epoch_stats_json(const replay::Report& report);

// Before the runs: an error when `dir` already holds this submitter's, system's and workload's
// results.json in any division folder (write_submission would refuse it after hours of runs).
Result<void> check_submission_free(const std::filesystem::path& dir, const SubmissionSpec& spec);

// Writes them under `dir`; refuses a results folder (run/ or the checkpointing workload's) that
// already holds a results.json, so that an earlier submission's runs are never mixed with these.
Result<void> write_submission(const std::filesystem::path& dir,
                              const std::vector<SubmissionFile>& files);

}  // namespace dlgen::mlperf
