#pragma once
// The checkpoint-only workflow (run.train = false), as MLPerf Storage v2.0 runs its LLM
// checkpointing workloads on one host: R simulated ranks (one thread each) write their shard files
// of checkpoint 1..N (fresh incompressible content, fsync'd when configured), one checkpoint after
// another with all ranks starting together; then, the page cache dropped when the data written is
// under 3x this host's RAM, checkpoints 1..M are read back the same way. Each checkpoint lives in
// its own directory, <checkpoint.dir>/global_epoch1_step<i> (DLIO's names).
//
// The runner records, per checkpoint and per rank, bytes moved and seconds from the common start
// to the rank's last byte (and fsync); every figure is computed from those records by the pure
// functions below (definitions: docs/metrics.md, "Checkpoint-only workflow").
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "dlgen/core/job.hpp"
#include "dlgen/core/llm.hpp"
#include "dlgen/core/result.hpp"
#include "dlgen/engine/registry.hpp"
#include "dlgen/engine/s3.hpp"
#include "dlgen/replay/checkpoint_figures.hpp"

namespace dlgen::replay {
class RankGroup;  // rank_group.hpp
}

namespace dlgen::mlperf {

// The per-rank records and their figures are the replay's (its training checkpoints are measured
// the same way: checkpoint_figures.hpp); named here too so that the workflow's users and tests
// read as before the move out of replay/.
using replay::CheckpointPass;
using replay::pass_figures;
using replay::PassFigures;
using replay::phase_figures;
using replay::PhaseFigures;
using replay::RankPass;

// MLPerf Storage v2.0's rule: the page cache is emptied between the writes and the reads when the
// checkpoint data written on this host is under 3x its RAM (else most of it cannot be cached).
bool drop_cache_between(std::uint64_t bytes_written, std::uint64_t ram_bytes);

// What one client host (one MPI rank of `mpirun -np N dlgen run`) did in a checkpoint-only run.
struct HostShare {
  std::string host;
  std::uint32_t first_rank = 0, ranks = 0;  // the simulated ranks it ran
  std::uint64_t checkpoint_bytes = 0;       // one checkpoint, its ranks
  std::uint64_t checkpoint_files = 0;
  std::uint64_t ram_bytes = 0;
  bool cache_dropped = false;
};

// The simulated ranks client host `host` of `hosts` runs (`mpirun -np hosts`): the job's ranks
// (host_shards: the model's world, or checkpoint.files ranks without a model) split evenly, host h
// taking ranks h x (ranks / hosts) onwards; an error when they do not divide. Subset mode
// (checkpoint.mode = "subset") keeps its meaning per host: every host is one host of
// checkpoint.ranks_per_host ranks, host h taking ranks h x ranks_per_host onwards, and the hosts
// together must fit in the model's world. With hosts = 1, host_shards(job).
Result<std::vector<RankShard>> cluster_host_shards(const Job& job, std::uint32_t host,
                                                   std::uint32_t hosts);

struct CheckpointRunResult {
  std::string job_name;
  std::filesystem::path dir;
  bool fsync = false;
  std::uint64_t parameters = 0;   // 0 without a [model]
  std::uint64_t world_ranks = 0;  // the model's TP x PP x DP (the ranks simulated without a model)
  std::uint32_t ranks = 0;        // simulated on this host
  std::uint64_t checkpoint_bytes = 0;  // one checkpoint, all simulated ranks
  std::uint64_t checkpoint_files = 0;
  std::uint64_t ram_bytes = 0;
  bool cache_dropped = false;
  std::string cache_note;  // why the cache was (not) dropped, how, and what mincore saw
  // How the reads were kept off the page cache: "drop_caches" (root: syncfs, then 1 written to
  // /proc/sys/vm/drop_caches), "O_DIRECT" (drop_caches refused: the files advised out with
  // POSIX_FADV_DONTNEED and read with O_DIRECT), "none" (not dropped: 3 x RAM rule); empty
  // without reads.
  std::string cache_method;
  // The fraction of the read-back files' bytes resident in the page cache just before the reads
  // (mincore); -1 without reads.
  double resident_fraction = -1;
  std::vector<CheckpointPass> writes, reads;
  // The HTTP requests the ranks sent to write and to read, when the checkpoints are objects of a
  // store (the s3 engine); none else. The writes' include the untimed writes of checkpoints a read
  // needed; neither holds the prefix's control requests (its manifest, the LISTs before reads).
  // Under mpirun every host's, added up. Figures: docs/metrics.md, "S3 requests".
  std::optional<engine::S3Counters> write_s3, read_s3;
  std::vector<std::string> notes;
  // Under mpirun, every host's share (in rank order); empty when one process ran every rank.
  std::vector<HostShare> hosts;
};

struct CheckpointRunOptions {
  // The I/O engine every rank writes and reads with (a registered name: engine/registry.hpp).
  std::string engine{engine::default_name()};
  bool progress = false;  // one line per checkpoint on stderr
  // The checkpoints this run writes and reads are global_epoch1_step<first_index> onwards, so
  // that several runs of the MLPerf rules (mlperf_checkpoint.hpp) leave as many distinct
  // checkpoints as one combined run would.
  std::uint32_t first_index = 1;
  std::uint64_t ram_bytes = 0;  // the client RAM for the page-cache rule; 0: this host's
  // Drop the page cache before the reads with drop_caches where permitted (root); false: always
  // the unprivileged way (POSIX_FADV_DONTNEED and O_DIRECT reads).
  bool drop_caches = true;
  // Under mpirun (replay/rank_group.hpp; nullptr or one rank: this host runs every simulated rank):
  // this host runs its share (cluster_host_shards); every checkpoint written or read starts on an
  // agreement of all hosts, so that its duration is the slowest host's slowest rank's, and any
  // host's failure stops every host there. Each host drops its own files from its page cache
  // under the 3x-RAM rule on its own bytes and RAM. Every rank returns the same result: all
  // hosts' records merged (merge_rank_results), `hosts` filled.
  replay::RankGroup* cluster = nullptr;
};

// Runs the workflow; the first I/O failure stops it with "path: write at OFFSET: reason".
Result<CheckpointRunResult> run_checkpoint_workflow(const Job& job,
                                                    const CheckpointRunOptions& options = {});

// The plan of a checkpoint-only job (for --dry-run): ranks, bytes and files per checkpoint, totals.
std::string format_checkpoint_plan(const Job& job);
std::string checkpoint_plan_json(const Job& job);

// Text for people (per checkpoint and overall, write and read) and JSON for scripts (`-o`).
std::string format_checkpoint_summary(const CheckpointRunResult& r);
std::string checkpoint_json(const CheckpointRunResult& r);
Result<void> write_checkpoint_json(const CheckpointRunResult& r, const std::filesystem::path& path);

}  // namespace dlgen::mlperf
