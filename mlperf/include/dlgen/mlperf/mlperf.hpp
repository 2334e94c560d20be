#pragma once
// MLPerf Storage's run rules on top of `dlgen run`: the dataset sized by the rules, one warm-up run
// then N measured runs with a new seed each, their mean, the check that runs agree, the division
// (CLOSED / OPEN / INVALID) from which parameters differ from the reference workload, and the
// report files. The rules as dlgen applies them: docs/mlperf.md.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "dlgen/cluster/cluster_report.hpp"
#include "dlgen/core/job.hpp"
#include "dlgen/core/result.hpp"
#include "dlgen/replay/report.hpp"

namespace dlgen::mlperf {

// MLPerf's dataset size: enough samples for 500 steps of every accelerator, and at least 5x the
// clients' RAM, so that no run is served from the page cache.
struct MlperfSizing {
  std::uint64_t samples_for_steps = 0;   // 500 x batch x accelerators (all hosts)
  std::uint64_t samples_for_memory = 0;  // 5 x RAM (all hosts) / mean sample size
  std::uint64_t files = 0;               // max of both, in files of samples_per_file, rounded up
};
MlperfSizing mlperf_dataset_size(const Job& job, std::uint64_t ram_bytes_per_host,
                                 std::uint32_t hosts = 1);
// Under mpirun: `ranks` ranks each running run.accelerators, the clients' RAM summed over hosts
// (each host once, however many ranks it runs).
MlperfSizing mlperf_cluster_dataset_size(const Job& job, std::uint32_t ranks,
                                         std::uint64_t ram_bytes_all_hosts);

// whatif: MLPerf Storage v3.0's third category, for a workload or accelerator v3.0 does not admit
// in CLOSED or OPEN (rules.hpp); never given under the v2.0 rules.
enum class Division { closed, open, invalid, whatif };
const char* to_string(Division d);

// Which division a job may be submitted in, against the reference job of its workload, field by
// field over the whole job (deny by default): CLOSED may change only the dataset's size, folder,
// subfolders, file names and size seed, reader threads, transfer size, prefetch, the shuffle seed,
// O_DIRECT (unet3d), the checkpoint folder and the accelerator count; OPEN also the format, samples
// per file and how the loader reads (reader.read, iodepth, header_read, probe, readahead, recipe,
// O_DIRECT elsewhere). Any other field that differs, exactly (distributions with their bounds and
// every bin), makes it INVALID. `reasons` names every difference.
struct DivisionCheck {
  Division division = Division::closed;
  std::vector<std::string>
      reasons;  // "reader.batch_size: 4 (reference 7): not allowed in CLOSED or OPEN"
};
DivisionCheck check_division(const Job& reference, const Job& job);

// Which MLPerf Storage round's workloads (and rules): v2.0 (training unet3d, resnet50, cosmoflow
// on a100 / h100, unet3d also on b200) or v3.0 (training unet3d on b200 and retinanet on b200 and
// mi355 in CLOSED and OPEN; unet3d and retinanet on h100 / a100 as `whatif` only).
enum class Round { v2_0, v3_0 };
const char* to_string(Round r);  // "v2.0", "v3.0"

// One reference workload of a round: the pair and whether the round runs it only as `whatif`.
struct MlperfProfile {
  std::string workload, accelerator;
  bool whatif = false;
};
std::vector<MlperfProfile> mlperf_profiles(Round round);

// The reference workload (MLPerf Storage's published DLIO config of `round`) for `workload` on
// `accelerator`, as a Job; an error listing the round's known pairs otherwise.
Result<Job> mlperf_reference(const std::string& workload, const std::string& accelerator,
                             Round round = Round::v2_0);
// The accelerator profile of `round` whose reference compute time and batch size equal the job's,
// or "".
std::string mlperf_match_accelerator(const Job& job, Round round = Round::v2_0);

struct MlperfRun;
// One rank's (host's) own figures of one run under mpirun.
struct MlperfRankFigures {
  std::uint32_t rank = 0;
  std::string host;
  double samples_per_s = 0, mib_per_s = 0, au = 0, elapsed_s = 0;
  bool au_passed = false;
};
// Under mpirun: every rank's result of a run, reduced, given this rank's Report (gather_ranks: a
// collective, every rank calls it once per run, and all get the same answer).
using MlperfRankGather = std::function<cluster::ClusterResult(const replay::Report& mine)>;

// What CLOSED and OPEN need of a training submission: a warm-up, then this many measured runs
// (Rules.md 2.1.17: six timestamp folders, the first the warm-up).
constexpr std::uint32_t kMlperfTrainingRuns = 5;

struct MlperfOptions {
  std::uint32_t runs = kMlperfTrainingRuns;  // measured runs; fewer: INVALID
  bool warmup = true;                        // one run before them, not counted; none: INVALID
  // The clients' RAM the dataset was sized for (--ram, all hosts) and as measured on them (all
  // hosts; 0: not known). Sized for less than the measured RAM: INVALID (the 5x rule is the
  // real RAM's).
  std::uint64_t ram_bytes = 0;
  std::uint64_t measured_ram_bytes = 0;
  double replication_limit = 0.05;  // every run's samples/s within 5% of the mean
  MlperfSizing sizing;              // what the rules ask; a smaller dataset is INVALID
  // Set under mpirun: each run's figures are every rank's, reduced by reduce_mlperf_ranks (the
  // runner returns this rank's own Report).
  MlperfRankGather gather;
  // MLPerf Storage v3.0's rules (rules.hpp) on top: every measured run keeps v3.0's AU minimum
  // for the workload too, and a workload x accelerator v3.0 does not admit in CLOSED or OPEN is
  // WHATIF. false: v2.0's rules only (what `dlgen mlperf --rules v2.0` applies).
  bool v3 = false;
  std::string accelerator;  // the accelerator profile judged (--accelerator or matched)
};

struct MlperfRun {
  std::uint64_t seed = 0;
  bool warmup = false;
  double samples_per_s = 0, mib_per_s = 0, au = 0, elapsed_s = 0;
  bool au_passed = false;
  std::vector<MlperfRankFigures> per_rank;  // under mpirun: what each rank ran, in rank order
};

struct MlperfResult {
  std::string workload;
  // Under v3.0 (MlperfOptions::v3): "v3.0" and the accelerator judged, both in results.json;
  // empty under v2.0 (whose results.json has neither).
  std::string rules, accelerator;
  Division division = Division::closed;
  std::vector<std::string> reasons;  // why not CLOSED, or why INVALID
  MlperfSizing sizing;
  std::uint64_t dataset_files = 0;  // what the runs used
  double au_threshold = 0;
  std::vector<MlperfRun> runs;         // the warm-up first, when there was one
  std::uint32_t ranks = 1, hosts = 1;  // under mpirun: ranks, and distinct host names
  double mean_samples_per_s = 0, mean_mib_per_s = 0, mean_au = 0, min_au = 0;
  double max_deviation = 0;  // the largest |samples/s - mean| / mean over measured runs
  bool replicated = false;
  bool all_passed = false;  // every measured run kept AU >= threshold
};

// One measured (or warm-up) run's figures from its Report.
MlperfRun mlperf_run_of(const replay::Report& report, std::uint64_t seed, bool warmup);

// The seam for multi-host runs: one run's figures from the ranks' reduction (cluster_report.hpp):
// samples/s and MiB/s are all ranks' training samples and bytes over the cluster's training
// seconds (each epoch from the first rank's start to the last rank's end), AU is the lowest
// accelerator on any rank, the run lasts from the first rank's start to the last rank's end, and
// it passes only if every rank passed; per_rank holds each rank's own figures.
MlperfRun reduce_mlperf_ranks(const cluster::ClusterResult& cluster, std::uint64_t seed,
                              bool warmup);

using MlperfRunner = std::function<Result<replay::Report>(const Job&)>;
using MlperfObserver = std::function<void(const MlperfRun&)>;

// Runs the rules: `job` must already be sized (see mlperf_dataset_size); `reference` is its
// workload's reference job (for the division), or nullptr when there is none (then INVALID).
Result<MlperfResult> run_mlperf(const Job& job, const Job* reference, const MlperfRunner& run,
                                const MlperfOptions& options = {},
                                const MlperfObserver& observe = {});

std::string mlperf_json(const MlperfResult& r);
std::string mlperf_csv(const MlperfResult& r);
std::string mlperf_html(const MlperfResult& r);  // self-contained, inline SVG plots

}  // namespace dlgen::mlperf
