#pragma once
// MLPerf Storage v2.0's rules for its LLM checkpointing workloads (llama3-8b, -70b, -405b, -1t) on
// top of the checkpoint-only workflow (checkpoint_workflow.hpp): the 10 checkpoints written and 10
// read that the rules fix, split over N runs (default: one checkpoint written and one read per
// run, the rules' "10x runs for read and write"), the page cache dropped between a run's writes
// and reads when its data is under 3x the client RAM, per run the duration (max over ranks) and
// throughput (min over ranks) of write and read and their means over the runs, the check that
// runs agree within 5%, and the division (CLOSED / OPEN / INVALID) from what differs from the
// reference workload. The rules as dlgen applies them, and where MLPerf's texts disagree:
// docs/mlperf.md.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "dlgen/core/job.hpp"
#include "dlgen/core/result.hpp"
#include "dlgen/mlperf/checkpoint_workflow.hpp"
#include "dlgen/mlperf/mlperf.hpp"

namespace dlgen::mlperf {

// MLPerf Storage's checkpointing workload a job is ("llama3-8b", "llama3-70b", "llama3-405b",
// "llama3-1t"), from its name as the shipped jobs and MLPerf's DLIO configs spell it
// ("llama3-70b", "llama_70b", "llama3_70b"); "" when it is none of them.
std::string mlperf_checkpoint_workload(const Job& job);

// The reference job of a checkpointing workload (MLPerf Storage v2.0, Table 2): the model, its
// TP x PP x DP and ZeRO stage, 10 checkpoints written with fsync and 10 read back, all ranks
// simulated (mode = all); an error listing the known ones otherwise.
Result<Job> mlperf_checkpoint_reference(const std::string& workload);

// Which division a checkpointing job may be submitted in: CLOSED may change only the checkpoint
// folder, the simulated processes per host (more than 4; subset mode runs one host's share) and
// the request size; OPEN may also add processes in multiples of TP x PP (a larger DP). Anything
// else - the model, datatypes, TP, PP, ZeRO, fsync off, a total other than 10 checkpoints
// written and 10 read over `runs` runs - is INVALID. `reasons` names every difference.
DivisionCheck check_checkpoint_division(const Job& reference, const Job& job, std::uint32_t runs);

// The same under MLPerf Storage v3.0's rules (rules.hpp; Rules.md 4.3 - 4.7): the model, its TP
// and PP, ZeRO, fsync and the pause as in v2.0; CLOSED runs exactly the workload's processes
// (8, 64, 512, 1024; more than 4 per host), OPEN any multiple of TP x PP (4.6.1, 4.6.4); subset
// mode only for llama3-8b on exactly 8 processes (4.3.5); 10 written and 10 read in one
// invocation, or a write-phase then a read-phase invocation (10 and 0, then 0 and 10), other
// counts or several invocations OPEN only (2.1.23, Table 3); the `accelerator` (b200, mi355,
// h100, a100) declared, and its memory x the processes at least the checkpoint (4.3.4, Tables 2
// and 3). `hosts`: client hosts sharing the ranks.
DivisionCheck check_checkpoint_division_v3(const Job& reference, const Job& job, std::uint32_t runs,
                                           const std::string& accelerator, std::uint32_t hosts);

// One phase (write or read) of one run, from every rank's records (pass_figures per checkpoint).
struct MlperfCheckpointPhase {
  std::uint32_t checkpoints = 0;
  std::uint64_t bytes = 0;    // all ranks, all of the run's checkpoints of this phase
  double duration_s = 0;      // mean over the checkpoints of their duration (max over ranks)
  double throughput_bps = 0;  // mean over the checkpoints of the slowest rank's bytes/s
  double aggregate_bps = 0;   // mean over the checkpoints of all ranks' bytes / duration (DLIO's)
};

// One measured run: `index` 1-based; the phases reduced from per-rank records.
struct MlperfCheckpointRun {
  std::uint32_t index = 0;
  std::uint32_t ranks = 0;  // ranks whose records were reduced (all hosts' in a multi-rank run)
  MlperfCheckpointPhase write, read;
  bool cache_dropped = false;
  std::string cache_note;
  // The run's HTTP requests to write and to read, on an object store (CheckpointRunResult's).
  std::optional<engine::S3Counters> write_s3, read_s3;
};

// The seam for multi-host runs: the figures of one run from per-rank records, whether the ranks
// were threads of this process or several hosts' ranks gathered by merge_rank_results.
MlperfCheckpointRun reduce_checkpoint_run(const CheckpointRunResult& ranks, std::uint32_t index);

// Several hosts' records of one run as one: per checkpoint index, every host's ranks together
// (bytes and counts add up; the cache was dropped only if every host dropped it).
CheckpointRunResult merge_rank_results(const std::vector<CheckpointRunResult>& hosts);

struct MlperfCheckpointOptions {
  std::uint32_t runs = 10;          // measured runs; the job's writes and reads are split over them
  double replication_limit = 0.05;  // every run's write and read throughput within 5% of the mean
  // Client hosts (mpirun -np) sharing the job's ranks (cluster_host_shards); the runner returns
  // every host's records merged.
  std::uint32_t hosts = 1;
  // MLPerf Storage v3.0's rules (check_checkpoint_division_v3; an accelerator v3.0 admits only as
  // whatif makes the verdict WHATIF). false: v2.0's.
  bool v3 = false;
  std::string accelerator;  // --accelerator: the simulated accelerator (v3.0 rule 4.3.4)
};

struct MlperfCheckpointResult {
  std::string workload;  // the job's name
  // Under v3.0: "v3.0" and the simulated accelerator (results.json); empty under v2.0.
  std::string rules, accelerator;
  std::string reference;  // "llama3-8b", ... ("" when none)
  Division division = Division::closed;
  std::vector<std::string> reasons;
  std::uint32_t writes_per_run = 0, reads_per_run = 0;
  std::uint64_t checkpoint_bytes = 0;  // one checkpoint, all hosts' ranks
  std::uint32_t ranks = 0;             // simulated ranks, all hosts
  std::uint32_t hosts = 1;
  bool fsync = false;
  std::vector<MlperfCheckpointRun> runs;
  std::vector<HostShare> per_host;  // under mpirun: every host's share (from the first run)
  // Means of the runs' duration, throughput and aggregate; checkpoints and bytes: all runs'.
  MlperfCheckpointPhase mean_write, mean_read;
  double write_deviation = 0, read_deviation = 0;  // largest |throughput - mean| / mean
  bool replicated = false;
  // Every run's HTTP requests to write and to read added up (percentiles from the merged
  // histograms), on an object store; none else.
  std::optional<engine::S3Counters> write_s3, read_s3;
};

// One run of the workflow: `job` already holds the run's writes and reads; `first_index` is the
// first checkpoint it writes (so runs do not overwrite each other). The CLI's runner calls
// run_checkpoint_workflow; a multi-host runner would merge its ranks' results.
using MlperfCheckpointRunner =
    std::function<Result<CheckpointRunResult>(const Job& job, std::uint32_t first_index)>;
using MlperfCheckpointObserver = std::function<void(const MlperfCheckpointRun&)>;

// Runs the rules: `job` has the totals (checkpoint.writes / reads: MLPerf's 10 and 10), each a
// multiple of options.runs; `reference` is its workload's reference job, or nullptr (INVALID).
Result<MlperfCheckpointResult> run_mlperf_checkpoint(const Job& job, const Job* reference,
                                                     const MlperfCheckpointRunner& run,
                                                     const MlperfCheckpointOptions& options = {},
                                                     const MlperfCheckpointObserver& observe = {});

std::string mlperf_checkpoint_json(const MlperfCheckpointResult& r);
std::string mlperf_checkpoint_csv(const MlperfCheckpointResult& r);
std::string mlperf_checkpoint_html(const MlperfCheckpointResult& r);  // inline SVG plots

// DLIO's summary.json of one checkpointing run (its metric names: save_checkpoint_io_mean_GB_per_
// second ... in GiB/s, checkpoint_size_GB in GiB, as DLIO means them: all ranks' bytes / the
// checkpoint's duration), MLPerf's per-rank figures beside them under "dlgen".
struct DlioCheckpointContext {
  std::string hostname;
  std::string start, end;  // local time, DLIO's "%Y-%m-%dT%H:%M:%S.%f"
  std::uint32_t hosts = 1;
  double host_memory_gib = 0;
};
std::string dlio_checkpoint_summary_json(const CheckpointRunResult& r,
                                         const DlioCheckpointContext& context);
// DLIO's per_epoch_stats.json of a checkpointing run: "save_ckpt<i>" / "load_ckpt<i>" entries
// under epoch "1" with duration (s) and throughput (GiB/s).
std::string dlio_checkpoint_epoch_stats_json(const CheckpointRunResult& r);

}  // namespace dlgen::mlperf
