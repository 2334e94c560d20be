#pragma once
// The MLPerf Storage v3.0 rules `dlgen mlperf validate` checks on what a results folder records,
// as pure functions of the records (validate.cpp reads them from the folder): the dataset size
// against the clients' RAM and accelerators (Rules.md 3.1.2), the datasize / datagen / run steps'
// file counts (3.2.1, 3.3.1), and a checkpointing result's phases, 30-second window, page-cache
// flush and parameters (Table 3, 4.7.1, 4.3.1, 4.3.2 - 4.6.4). Each problem names its rule and
// says why, with the numbers. The rules as dlgen reads them: docs/mlperf-v3.md.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dlgen/core/job.hpp"
#include "dlgen/mlperf/mlperf.hpp"
#include "dlgen/mlperf/provenance.hpp"

namespace dlgen::mlperf {

struct RuleProblem {
  std::string rule;  // "3.1.2 trainingRecalculateDatasetSize", ...
  std::string message;
};

// Rule 3.1.2: the training dataset (the run's job: dataset.num_files, samples_per_file, the
// sample size, reader.batch_size, run.accelerators) against what the clients ask: 500 steps of
// every accelerator of every rank, and 5 x the clients' RAM (the larger of the RAM it was sized
// for and the RAM the hosts measured, all hosts) in samples of the nominal record size.
std::vector<RuleProblem> check_v3_dataset_size(const Job& job, const ClientInfo& clients);

// The file counts of a training result's steps: the datasize step's minimum, the datagen step's
// dataset, and one run's dataset.num_files. A step not recorded (nullopt) is left out.
struct TrainingStepFiles {
  std::optional<std::uint64_t> datasize, datagen;
  std::uint64_t run = 0;
};
// Rule 3.2.1 (once a result): datagen wrote at least the files datasize asks.
std::vector<RuleProblem> check_v3_datagen_size(const TrainingStepFiles& f);
// Rule 3.3.1 (each run): the run reads at least the files datasize asks, at most datagen's.
std::vector<RuleProblem> check_v3_training_steps(const TrainingStepFiles& f);

// One timestamp folder of a checkpointing result (one invocation of dlgen mlperf): the
// checkpoints it wrote and read, when the invocation began and the run ended (seconds since the
// epoch, provenance.json), and whether the page cache was dropped between its writes and reads.
struct CheckpointInvocation {
  std::uint32_t writes = 0, reads = 0;
  double start_unix_s = 0, end_unix_s = 0;
  bool cache_dropped = false;
};

// A checkpointing result as its folder records it: results.json's verdict, accelerator, hosts,
// ranks, checkpoint size and runs; the job of its runs (dlgen_job.toml); the RAM of one client
// host (provenance.json's clients: the larger of sized-for and measured, over the hosts).
struct CheckpointRecord {
  std::string workload;  // llama3-8b, ...
  std::string accelerator;
  Division division = Division::closed;  // what results.json says
  Job job;
  std::uint32_t hosts = 1;
  std::uint32_t runs = 1;  // the runs results.json lists (a write and a read phase: one each)
  std::uint64_t checkpoint_bytes = 0;  // one checkpoint, all hosts' ranks
  std::uint64_t ram_bytes_per_host = 0;
  std::vector<CheckpointInvocation> invocations;  // in timestamp order
};

// v3.0's checkpointing rules on the record: 10 written then 10 read, in one invocation or a
// write phase then a read phase (Table 3, 2.1.23; CLOSED only: OPEN may change the counts and
// split them over runs), the read phase within 30 s of the write phase's end (4.7.1; a
// negative gap is clock skew, not a problem), the page cache dropped between the writes and the
// reads of one invocation when the data written per host is under 3x its RAM (4.3.1), and the
// run's job against the reference (check_checkpoint_division_v3: fsync 4.3.2, model 4.3.3,
// accelerator memory 4.3.4, subset mode 4.3.5, processes 4.6.1 - 4.6.4): a CLOSED result must be
// CLOSED against it, an OPEN or WHATIF one not INVALID (an INVALID result is not rechecked).
// `reference`: nullptr when none.
std::vector<RuleProblem> check_v3_checkpointing(const CheckpointRecord& r, const Job* reference);

// reader.direct (DLIO's reader.odirect) under v3.0: mlpstorage's run checker
// (check_odirect_supported_model) makes it INVALID outside unet3d, where v2.0's rules (and
// check_division) let it be OPEN. Sets `division` INVALID and adds the reason when the job reads
// with O_DIRECT and is not unet3d.
void apply_v3_direct(const Job& job, Division& division, std::vector<std::string>& reasons);

}  // namespace dlgen::mlperf
