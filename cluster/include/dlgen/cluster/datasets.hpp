#pragma once
// A dataset written by all ranks of a run together (`mpirun -np N dlgen run|generate JOB`, on a
// filesystem every host sees; docs/cluster.md). Rank 0 decides under the directory's lock (reuse,
// regenerate, refuse a foreign directory), every rank writes the files i with i mod N = its rank,
// and rank 0 writes the manifest once they all have. On a cluster of one this is
// generator::ensure_dataset. It lives here, not in generator/: the generator writes a share of
// files and knows no ranks; the order of the collectives between its steps is the cluster's.
#include <cstdint>
#include <string_view>

#include "dlgen/cluster/cluster.hpp"
#include "dlgen/core/job.hpp"
#include "dlgen/core/result.hpp"

namespace dlgen::cluster {

// Whether `spec.dir` holds the job's dataset, as rank 0 sees it, on every rank (collective).
bool dataset_ready(Cluster& cluster, const DatasetSpec& spec);

// What all ranks wrote, the same on every rank.
struct DatasetWrite {
  bool reused = false;  // rank 0 found it current under the lock: nothing written
  std::uint64_t files = 0, bytes = 0;
  double seconds = 0;  // rank 0's decision, then the slowest rank's writing
};
// Writes (or reuses) the dataset with every rank; `progress`: rank 0 draws the progress bar;
// `engine`: the I/O engine that writes the files (empty: the default; generator::writer_engine).
// Every step ends with an agreement, so a rank's failure ("rank R (host): ...") stops every rank.
Result<DatasetWrite> write_dataset(Cluster& cluster, const DatasetSpec& spec, bool progress,
                                   std::string_view engine = {});

}  // namespace dlgen::cluster
