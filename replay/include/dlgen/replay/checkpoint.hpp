#pragma once
// Checkpoints as training writes them: `size_bytes` split over `files` shards in `dir` (or a
// [model]'s shard files, each accelerator one rank's), written
// with real writes of `write_size_bytes` (not zeros, not one block repeated: a fresh pseudo-random
// stream per shard and per checkpoint, so compressing or deduplicating storage cannot cheat),
// fsync'd when configured, by the one checkpoint writer (checkpoint_io.hpp). Each checkpoint
// overwrites the previous one's shards, as a "latest" checkpoint does. Restore reads the shards
// back.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <string_view>
#include <vector>

#include "dlgen/core/job.hpp"
#include "dlgen/core/result.hpp"
#include "dlgen/replay/report.hpp"

namespace dlgen::replay {

// Shard i's path: dir/"checkpoint-<i>-of-<n>.dlgen".
std::vector<std::filesystem::path> checkpoint_paths(const CheckpointSpec& spec);
// Bytes of shard i (the remainder goes to the first shards).
std::uint64_t checkpoint_shard_bytes(const CheckpointSpec& spec, std::uint32_t shard);

// One file of a checkpoint: its path, its bytes, and the rank (host) of a multi-host run that
// writes it.
struct CheckpointShard {
  std::filesystem::path path;
  std::uint64_t bytes = 0;
  std::uint32_t host = 0;
};
// The files of one checkpoint over `hosts` ranks: checkpoint.files shards of checkpoint.size
// (checkpoint_paths; shard i written by rank i mod hosts).
std::vector<CheckpointShard> checkpoint_shards(const CheckpointSpec& spec, std::uint32_t hosts = 1);
// A training job's: with a [model], every host's accelerators' shard files (core/llm.hpp
// training_shards; DeepSpeed's names under checkpoint.dir), else the spec's.
std::vector<CheckpointShard> checkpoint_shards(const Job& job, std::uint32_t hosts = 1);
// The final save's files (checkpoint.final_size, final_files): dir/"final-<i>-of-<n>.dlgen",
// shard i written by rank i mod hosts; empty when the job has none.
std::vector<CheckpointShard> final_shards(const CheckpointSpec& spec, std::uint32_t hosts = 1);

// Which shards this process writes: those of its rank (every shard once over the ranks of a
// multi-host run; {0, 1}: all of them).
struct ShardShare {
  std::uint32_t rank = 0, ranks = 1;
  bool owns(const CheckpointShard& s) const { return ranks <= 1 || s.host == rank; }
};

// Writes this process's shards of one checkpoint (in parallel) through engine `engine` (a
// registered name: checkpoint_io.hpp), adds their bytes, files and time to `into` (and appends
// them to into.write_bytes / into.write_seconds). `progress`, when set, grows by each write's
// bytes as it completes (the MPI watchdog's sign of life: rank_group.hpp).
Result<void> write_checkpoint(const CheckpointSpec& spec, CheckpointResult& into,
                              std::string_view engine, ShardShare share = {},
                              std::atomic<std::uint64_t>* progress = nullptr);
// The same with the checkpoint's files given (checkpoint_shards of a job).
Result<void> write_checkpoint(const CheckpointSpec& spec,
                              const std::vector<CheckpointShard>& shards, CheckpointResult& into,
                              std::string_view engine, ShardShare share = {},
                              std::atomic<std::uint64_t>* progress = nullptr);
// The engine that writes and restores a job's checkpoints: the run's `engine`, except for a
// checkpoint directory beside a dataset of objects (a program reading from S3 and saving to a
// local disk), which the default file engine writes while the s3 engine reads the dataset.
std::string checkpoint_engine(const Job& job, std::string_view engine);
// checkpoint.restore: writes the shards of the checkpoint the restore reads that this process
// owns and that are not there yet (true when it wrote). Run before a replay, and before a capture
// of one, like the dataset's generation: the replay's trace must not hold a write the original
// never made (compare would count it as a checkpoint).
Result<bool> prepare_restore(const Job& job, std::string_view engine, ShardShare share = {});
// Reads this process's shards of the latest checkpoint back through engine `engine` (writing them
// first when missing, untimed, and dropping them from the page cache so the read comes from
// storage); adds bytes and time to `into`.
Result<void> restore_checkpoint(const CheckpointSpec& spec, CheckpointResult& into,
                                std::string_view engine, ShardShare share = {},
                                std::atomic<std::uint64_t>* progress = nullptr);
Result<void> restore_checkpoint(const CheckpointSpec& spec,
                                const std::vector<CheckpointShard>& shards, CheckpointResult& into,
                                std::string_view engine, ShardShare share = {},
                                std::atomic<std::uint64_t>* progress = nullptr);

}  // namespace dlgen::replay
