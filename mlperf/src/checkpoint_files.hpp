// The checkpoint-only workflow's files (checkpoint_workflow.cpp): where checkpoint `index` lives,
// which of its files or objects are missing, and the page-cache drop between writes and reads.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "dlgen/core/job.hpp"
#include "dlgen/core/llm.hpp"
#include "dlgen/core/result.hpp"

namespace dlgen::mlperf::checkpoint_files {

// "global_epoch1_step<index>", DLIO's name for a checkpoint's folder.
std::string step_name(std::uint32_t index);
std::filesystem::path checkpoint_dir(const Job& job, std::uint32_t index);

// Writes 1 to /proc/sys/vm/drop_caches (the clean page cache, every file's): root only, and not
// where /proc/sys is read-only (containers). Empty when done, else why not.
std::string drop_page_cache();

// The files of `shards` in checkpoint `index` that are not there at their size: a stat each in a
// directory, one LIST of the checkpoint's prefix on an object store.
Result<std::vector<std::string>> missing_files(const Job& job, const std::vector<RankShard>& shards,
                                               std::uint32_t index);
bool files_present(const Job& job, const std::vector<RankShard>& shards, std::uint32_t index);

}  // namespace dlgen::mlperf::checkpoint_files
