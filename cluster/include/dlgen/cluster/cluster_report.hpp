#pragma once
// The result of a multi-host run (`mpirun -np N dlgen run JOB`), reduced from every rank's own
// Report: per rank one row (rank, host, accelerators, samples, bytes, MiB/s, AU, CPU); counts that
// add up over ranks; rates that are those sums over the cluster's own seconds (each pass from the
// first rank's start to the last rank's end, on one clock), never sums of the ranks' own rates;
// AU = the lowest accelerator on any rank; and checkpoints as MLPerf Storage v2.0 reports them
// (duration = slowest rank, throughput = all ranks' bytes / that duration, slowest rank's own
// rate). Definitions: docs/metrics.md, "Several ranks"; the common clock: docs/cluster.md.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "dlgen/cluster/cluster.hpp"
#include "dlgen/core/job.hpp"
#include "dlgen/core/result.hpp"
#include "dlgen/engine/s3.hpp"
#include "dlgen/replay/checkpoint_figures.hpp"
#include "dlgen/replay/clock.hpp"
#include "dlgen/replay/report.hpp"

namespace dlgen::cluster {

// The replay's results are what the ranks reduce.
using replay::AcceleratorResult;
using replay::CheckpointPass;
using replay::Clock;
using replay::CpuResult;
using replay::EpochResult;
using replay::PhaseFigures;
using replay::Report;

// The job's fingerprint: FNV-1a (64 bits, hex) of its canonical TOML (to_toml), the same on every
// host and build for the same job after --scale, --set and overrides.
std::string job_fingerprint(const Job& job);
// Every rank compares its job's fingerprint with the others' before any I/O: an input error on
// every rank, naming the ranks whose job differs from rank 0's, when they do not all match.
Result<void> check_same_job(Cluster& cluster, const Job& job);

// One pass (a training epoch or an evaluation pass) of one rank, its instants on the ranks'
// common clock: seconds from the instant every rank left gather_ranks' barrier (negative:
// before it).
struct RankEpoch {
  std::uint32_t epoch = 0;  // 1-based
  bool eval = false;
  double begin_s = 0, end_s = 0;
  std::uint64_t steps = 0, samples = 0, bytes = 0, requests = 0;
  double au = 0;  // the pass's AU column (EpochResult::au)
};

// One rank's figures, as every rank sends them to the others.
struct RankResult {
  std::uint32_t rank = 0;
  std::string host;
  std::uint32_t accelerators = 0;
  std::uint64_t samples = 0, eval_samples = 0, steps = 0;
  std::uint64_t bytes_read = 0, train_bytes = 0, eval_bytes = 0, requests = 0, files_opened = 0;
  double elapsed_s = 0;
  // This rank's own figures (its passes' seconds): the per-rank rows, never added up.
  double train_seconds = 0, eval_seconds = 0;
  double samples_per_s = 0, eval_samples_per_s = 0;
  double mib_per_s = 0, train_mib_per_s = 0, eval_mib_per_s = 0;
  // The run and its passes on the common clock (RankEpoch): what the cluster's seconds come from.
  double begin_s = 0, end_s = 0;
  std::vector<RankEpoch> passes;
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
  // Every HTTP request this rank sent to an object store (the report's s3 wire counters, TTFB and
  // TTLB histograms included) and the checkpoints' share; none when it used no store.
  std::optional<engine::S3Counters> s3, s3_checkpoint;
  // Its data reads' latencies (the report's histogram), merged across ranks for latency_us.
  LatencyHistogram latency;
};
// `sync_ns`: the common instant on the report's clock (the stamps become seconds from it).
RankResult rank_result(const Report& report, std::uint32_t rank, std::string host,
                       std::int64_t sync_ns = 0);

struct ClusterResult {
  std::uint32_t ranks = 0, hosts = 0;
  std::vector<RankResult> per_rank;  // in rank order
  // Sums over ranks.
  std::uint64_t samples = 0, eval_samples = 0, bytes_read = 0, train_bytes = 0, eval_bytes = 0,
                requests = 0, files_opened = 0;
  // The cluster's passes: pass i of every rank, from the first rank's start to the last rank's
  // end on the common clock; its samples, bytes and requests summed over ranks, its steps the
  // most of any rank, its AU the mean over every accelerator (accelerator-weighted mean of the
  // ranks' pass AU). train_seconds / eval_seconds add up those windows.
  std::vector<EpochResult> epochs;
  double train_seconds = 0, eval_seconds = 0;
  // The sums over the cluster's seconds: samples / train_seconds, eval_samples / eval_seconds,
  // train_bytes / train_seconds, eval_bytes / eval_seconds, bytes_read / (train + eval seconds).
  double samples_per_s = 0, eval_samples_per_s = 0, mib_per_s = 0, train_mib_per_s = 0,
         eval_mib_per_s = 0;
  std::uint64_t steps = 0;    // the most of any rank (per accelerator)
  double elapsed_s = 0;       // the first rank's start to the last rank's end
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
  // The ranks' S3 counters added up and their TTFB / TTLB histograms merged, so the percentiles
  // are those of every rank's requests together; the checkpoints' share likewise. None when no
  // rank used an object store.
  std::optional<engine::S3Counters> s3, s3_checkpoint;
  LatencyHistogram latency;  // every rank's data reads' latencies together
};
// Pure: sums, minimum, maximum and checkpoint figures of the ranks' results.
ClusterResult reduce_ranks(std::vector<RankResult> ranks);
// The ranks grouped by host name, in order of first appearance: samples and bytes summed per
// host, over that host's ranks' common seconds (as the cluster's rates), lowest AU.
struct HostRow {
  std::string host;
  std::uint32_t ranks = 0, accelerators = 0;
  std::uint64_t samples = 0, bytes = 0;
  double samples_per_s = 0, mib_per_s = 0, au = 0;
};
std::vector<HostRow> host_rows(const ClusterResult& cluster);
// Every rank's result to every rank, reduced: all ranks hold the same answer. First a barrier:
// the instant every rank leaves it is the common clock's zero, each rank stamping it on `clock`
// (the run's; nullptr: a RealClock); then one all_gather of the results with their instants
// relative to it (docs/cluster.md, "One clock").
ClusterResult gather_ranks(Cluster& cluster, const Report& mine, Clock* clock = nullptr);
// The report with its headline figures replaced by the cluster's (samples, bytes, rates, seconds,
// passes, AU, verdict, per_accelerator of every rank, S3 requests, RAM already summed by the
// runner); latency, compute accuracy and CPU stay this rank's.
void apply_cluster(const ClusterResult& cluster, Report& report);

// Rank 0's text: the job line, a per-host table, the totals, checkpoints, all ranks' S3
// requests, the verdict.
std::string format_cluster_summary(const Report& report, const ClusterResult& cluster);
// to_json(report) (after apply_cluster) with "ranks", "hosts", "per_rank" and "cluster".
std::string cluster_json(const Report& report, const ClusterResult& cluster);
Result<void> write_cluster_json(const Report& report, const ClusterResult& cluster,
                                const std::filesystem::path& path);

// An engine's S3 counters as text for an all-gather (the histograms as their non-empty buckets,
// as a rank sends them: exact), and back: the hosts of a checkpoint-only run send theirs so.
std::string s3_counters_text(const engine::S3Counters& k);
engine::S3Counters s3_counters_from_text(const std::string& text);

}  // namespace dlgen::cluster
