#pragma once
// The MPI cluster (cluster_mpi.cpp, built with DLGEN_WITH_MPI only).
#include <memory>

#include "dlgen/cluster/cluster.hpp"
#include "dlgen/core/result.hpp"

namespace dlgen::cluster {

// Initialises MPI (MPI_Init_thread, serialized: one thread at a time calls MPI) and wraps
// MPI_COMM_WORLD; MPI_Finalize runs when the object is destroyed. Every collective waits at most
// options.rank_timeout_s for the other ranks (the watchdog: cluster_mpi.cpp).
Result<std::unique_ptr<Cluster>> make_mpi_cluster(const ClusterOptions& options);

}  // namespace dlgen::cluster
