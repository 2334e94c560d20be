#pragma once
// The hosts of a checkpoint-only run under mpirun (checkpoint_hosts.cpp): each host's result
// joined into one on every host.
#include <cstdint>

#include "dlgen/mlperf/checkpoint_workflow.hpp"

namespace dlgen::mlperf {

// Every host's records joined into one result, on every host (a collective: every host calls it
// once, at the same point); `mine` is this host's result, `first_rank` its first simulated rank.
CheckpointRunResult join_hosts(replay::RankGroup& cluster, CheckpointRunResult mine,
                               std::uint32_t first_rank);

}  // namespace dlgen::mlperf
