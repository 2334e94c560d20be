#pragma once
// read = "row_group" with a sample shuffle: which row groups a shuffled batch reads. A reader
// asked for rows in random order (a map-style Dataset over Parquet files) reads, for each row,
// the row group that holds it (datasets::parquet::group_reads), decodes it and takes the batch's
// rows from it: a row group is read once per batch that holds any of its rows, so a row group
// whose rows land in k batches is read k times an epoch. Each file's footer is read once per
// worker (the opened file's metadata stays cached in the worker). Without a sample shuffle rows
// come in file order and every row group is read once (parquet::row_group_reads).
//
// The worker (worker.cpp) and the plan's figures (plan.cpp summarize_plan) both use
// ShuffledRowGroups, so the replay's requests and the plan's cannot disagree.
#include <cstdint>
#include <vector>

#include "dlgen/datasets/parquet.hpp"
#include "dlgen/replay/plan.hpp"

namespace dlgen::replay {

// One worker's memory of what it read: the row groups of its current batch (an open-addressing
// set keyed by (file, group), each slot stamped with the batch it was filled in, so a new batch
// starts empty without clearing) and the files whose footer it has read. Allocates only in init.
class ShuffledRowGroups {
 public:
  // `files` files of geometry `g`; batches of at most `batch_size` rows.
  void init(const datasets::parquet::FileGeometry& g, std::uint64_t files,
            std::uint64_t batch_size);
  // The reads for row `row` of file `file` in (global) batch `batch`: its row group's coalesced
  // chunks unless this batch read the group already, the file's footer first if this worker has
  // not read it. Returns the count written to `out` (at most max_row_group_reads()).
  std::size_t reads(std::uint64_t file, std::uint64_t row, std::uint64_t batch,
                    datasets::parquet::Range* out);

 private:
  // True when (key) was not yet seen in `batch` (and marks it seen).
  bool first_in_batch(std::uint64_t key, std::uint64_t batch);

  const datasets::parquet::FileGeometry* g_ = nullptr;
  std::vector<std::uint64_t> keys_;
  std::vector<std::uint64_t> stamps_;  // batch + 1 of the slot's key; 0: never used
  std::uint64_t mask_ = 0;
  std::vector<bool> footer_read_;
};

// The reads that `workers` workers per accelerator make over `plan` with a sample shuffle
// (batch k of an accelerator read by its worker k mod workers): bytes and ranges, before the
// replay splits a range into requests.
datasets::parquet::FileReads shuffled_plan_reads(const EpochPlan& plan,
                                                 const datasets::parquet::FileGeometry& g,
                                                 std::uint64_t files, std::uint32_t workers);

}  // namespace dlgen::replay
