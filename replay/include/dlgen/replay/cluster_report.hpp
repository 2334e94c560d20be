#pragma once
// The result of a multi-host run (`mpirun -np N dlgen run JOB`), reduced from every rank's own
// Report: per rank one row (rank, host, accelerators, samples, bytes, MiB/s, AU, CPU), totals that
// are sums of the ranks' figures, AU = the lowest accelerator on any rank, and checkpoints as
// MLPerf Storage v2.0 reports them (duration = slowest rank, throughput = all ranks' bytes / that
// duration, slowest rank's own rate). Definitions: docs/metrics.md, "Several ranks".
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "dlgen/core/job.hpp"
#include "dlgen/core/result.hpp"
#include "dlgen/replay/checkpoint_workflow.hpp"
#include "dlgen/replay/cluster.hpp"
#include "dlgen/replay/report.hpp"

namespace dlgen::replay {

// The job's fingerprint: FNV-1a (64 bits, hex) of its canonical TOML (to_toml), the same on every
// host and build for the same job after --scale, --set and overrides.
std::string job_fingerprint(const Job& job);
// Every rank compares its job's fingerprint with the others' before any I/O: an input error on
// every rank, naming the ranks whose job differs from rank 0's, when they do not all match.
Result<void> check_same_job(Cluster& cluster, const Job& job);

// One rank's figures, as every rank sends them to the others.
struct RankResult {
  std::uint32_t rank = 0;
  std::string host;
  std::uint32_t accelerators = 0;
  std::uint64_t samples = 0, eval_samples = 0, steps = 0;
  std::uint64_t bytes_read = 0, train_bytes = 0, eval_bytes = 0, requests = 0, files_opened = 0;
  double elapsed_s = 0;
  double samples_per_s = 0, eval_samples_per_s = 0;
  double mib_per_s = 0, train_mib_per_s = 0, eval_mib_per_s = 0;
  double au = 0, au_mean = 0;
  bool au_applicable = true;
  double au_threshold = 0;
  CpuResult cpu;
  bool client_bound = false;
  std::vector<AcceleratorResult> per_accelerator;  // global accelerator ids
  std::vector<std::uint64_t> checkpoint_bytes;     // per checkpoint written, this rank's shards
  std::vector<double> checkpoint_seconds;
  std::uint64_t restore_bytes = 0;
  double restore_s = 0;
  std::vector<std::string> warnings;
};
RankResult rank_result(const Report& report, std::uint32_t rank, std::string host);

struct ClusterResult {
  std::uint32_t ranks = 0, hosts = 0;
  std::vector<RankResult> per_rank;  // in rank order
  // Sums over ranks (each rank's figure over its own passes' seconds).
  std::uint64_t samples = 0, eval_samples = 0, bytes_read = 0, train_bytes = 0, eval_bytes = 0,
                requests = 0, files_opened = 0;
  double samples_per_s = 0, eval_samples_per_s = 0, mib_per_s = 0, train_mib_per_s = 0,
         eval_mib_per_s = 0;
  std::uint64_t steps = 0;    // the most of any rank (per accelerator)
  double elapsed_s = 0;       // the slowest rank's
  double au = 0;              // the lowest accelerator on any rank
  double au_mean = 0;         // mean over every accelerator of every rank
  std::uint32_t au_rank = 0;  // the rank holding that lowest accelerator
  bool au_applicable = true;
  bool passed = false;
  bool client_bound = false;  // some rank's host was CPU-bound while AU missed its threshold
  // Checkpoints written by all ranks together, one CheckpointPass per checkpoint (every rank
  // writes the same number). The same figures as the checkpoint-only workflow.
  std::vector<CheckpointPass> checkpoints;
  PhaseFigures checkpoint;
  std::uint64_t restore_bytes = 0;
  double restore_s = 0;  // the slowest rank's
};
// Pure: sums, minimum, maximum and checkpoint figures of the ranks' results.
ClusterResult reduce_ranks(std::vector<RankResult> ranks);
// The ranks grouped by host name, in order of first appearance: sums per host, lowest AU.
struct HostRow {
  std::string host;
  std::uint32_t ranks = 0, accelerators = 0;
  std::uint64_t samples = 0, bytes = 0;
  double samples_per_s = 0, mib_per_s = 0, au = 0;
};
std::vector<HostRow> host_rows(const ClusterResult& cluster);
// Every rank's result to every rank (one all_gather), reduced: all ranks hold the same answer.
ClusterResult gather_ranks(Cluster& cluster, const Report& mine);
// The report with its headline figures replaced by the cluster's (samples, bytes, rates, AU,
// verdict, per_accelerator of every rank, RAM already summed by the runner); latency, epochs,
// compute accuracy and CPU stay this rank's.
void apply_cluster(const ClusterResult& cluster, Report& report);

// Rank 0's text: the job line, a per-host table, the totals, checkpoints, the verdict.
std::string format_cluster_summary(const Report& report, const ClusterResult& cluster);
// to_json(report) (after apply_cluster) with "ranks", "hosts", "per_rank" and "cluster".
std::string cluster_json(const Report& report, const ClusterResult& cluster);
Result<void> write_cluster_json(const Report& report, const ClusterResult& cluster,
                                const std::filesystem::path& path);

}  // namespace dlgen::replay
