#pragma once
// Checkpoints as training writes them: `size_bytes` split over `files` shards in `dir`, written
// with real writes of `write_size_bytes` (not zeros, not one block repeated: a fresh pseudo-random
// stream per shard and per checkpoint, so compressing or deduplicating storage cannot cheat),
// fsync'd when configured. Each checkpoint overwrites the
// previous one's shards, as a "latest" checkpoint does. Restore reads the shards back.
#include <cstdint>
#include <filesystem>
#include <vector>

#include "dlgen/core/job.hpp"
#include "dlgen/core/result.hpp"
#include "dlgen/replay/report.hpp"

namespace dlgen::replay {

// Shard i's path: dir/"checkpoint-<i>-of-<n>.dlgen".
std::vector<std::filesystem::path> checkpoint_paths(const CheckpointSpec& spec);
// Bytes of shard i (the remainder goes to the first shards).
std::uint64_t checkpoint_shard_bytes(const CheckpointSpec& spec, std::uint32_t shard);

// Writes one checkpoint (shards in parallel), adds its bytes, files and time to `into`.
Result<void> write_checkpoint(const CheckpointSpec& spec, CheckpointResult& into);
// Reads the latest checkpoint back (writing one first when it is missing, untimed, and dropping
// it from the page cache so the read comes from storage); adds bytes and time to `into`.
Result<void> restore_checkpoint(const CheckpointSpec& spec, CheckpointResult& into);

}  // namespace dlgen::replay
