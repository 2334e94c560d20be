#pragma once
// The ranks of one run (`mpirun -np N dlgen run JOB`): one rank per client host, each running the
// job's accelerators and workers as threads. A Cluster is the small set of collectives dlgen
// needs: its rank and size, the host's name, a barrier, an all-gather of bytes, a broadcast, and
// an abort. Everything else (agreeing on a status, gathering plain structs, min / max / sum) is
// built on those in free functions below, so every implementation behaves alike.
//
// Two implementations: a single process (rank 0 of 1; no MPI at all: `dlgen run` without mpirun
// is a cluster of one) and MPI (built with DLGEN_WITH_MPI, used only when the process was started
// by mpirun). No MPI type appears here. Tests use make_thread_clusters: N ranks as threads of one
// process.
//
// A Cluster is the replay's RankGroup (replay/rank_group.hpp): the runner and the checkpoint
// workflow see only that interface, so replay/ links no MPI and includes nothing from here.
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "dlgen/core/result.hpp"
#include "dlgen/replay/rank_group.hpp"

namespace dlgen::cluster {

class Cluster : public replay::RankGroup {
 public:
  virtual ~Cluster() = default;
  // rank(), size(), host(), host_leader() and all_gather() (every rank's bytes to every rank,
  // in rank order) are RankGroup's; with these four they are the collectives dlgen needs.
  virtual void barrier() = 0;
  // Rank `root`'s `bytes` replace every other rank's.
  virtual void broadcast(std::string& bytes, std::uint32_t root = 0) = 0;
  // Ends every rank at once (the last resort when ranks cannot agree: a hang otherwise).
  [[noreturn]] virtual void abort(int exit_code) = 0;

  // The replay's view (replay::RankGroup), built on the collectives above alike for every
  // implementation (cluster.cpp).
  Result<void> agree(const Result<void>& mine) final;
  bool any(bool mine) final;
  bool all(bool mine) final;
  std::uint64_t sum(std::uint64_t mine) final;

  // The watchdog's sign of life (replay::RankGroup::set_progress): the MPI cluster sends it to
  // the ranks waiting for this one, so a rank that is merely slow stays alive however long it
  // takes; one whose count stands still for --rank-timeout is the hung one (docs/cluster.md,
  // "The watchdog"). None set: 0. Any thread may call progress().
  void set_progress(std::function<std::uint64_t()> source) final {
    std::lock_guard lock(progress_mu_);
    progress_ = std::move(source);
  }
  std::uint64_t progress() const {
    std::lock_guard lock(progress_mu_);
    return progress_ ? progress_() : 0;
  }

 private:
  mutable std::mutex progress_mu_;
  std::function<std::uint64_t()> progress_;
};

using replay::ProgressScope;

// True when this process was started by mpirun (Open MPI or PMIx set OMPI_COMM_WORLD_SIZE or
// PMIX_RANK in its environment). Read before any MPI call: without mpirun, MPI is never started.
bool launched_by_mpirun();
// Whether this build can run under mpirun (DLGEN_WITH_MPI).
bool mpi_built();

// The single-process cluster: rank 0 of 1, host = gethostname(), collectives return at once.
std::unique_ptr<Cluster> make_single_cluster();
struct ClusterOptions {
  // The watchdog: how long a rank waiting at a coordination point (an agreement, a barrier) lets
  // a rank that has not arrived go without progress (Cluster::progress, sent as heartbeats)
  // before it ends every rank with a message naming it ("rank 2 (node3) stopped answering ...").
  // A rank that fails says so at the next agreement; this is for one that hangs. A slow rank that
  // keeps completing steps and I/O is never ended, however far it lags; the timeout must exceed
  // the longest stretch without any completed step or request (one request, one cache drop).
  // 0: wait forever. `--rank-timeout` (docs/cluster.md).
  double rank_timeout_s = 600;
};

// MPI's cluster when launched by mpirun (initialising MPI; it is finalised when the returned
// object is destroyed), else the single-process one. Launched by mpirun in a build without MPI:
// an error (exit 77) rather than N unrelated runs each believing it is alone.
Result<std::unique_ptr<Cluster>> make_cluster(const ClusterOptions& options = {});
// N ranks as threads of one process (tests): ranks[i] is rank i; `hosts[i]` names rank i's host
// (default: all "localhost"). Each rank's calls must come from one thread at a time.
std::vector<std::unique_ptr<Cluster>> make_thread_clusters(std::uint32_t n,
                                                           std::vector<std::string> hosts = {});

// Every rank passes its own status; every rank gets the same answer: ok when all are ok, else an
// error naming the first failing rank, its host and its message ("rank 1 (node7): data/x: read at
// 0: Input/output error"), with that rank's error kind. One all_gather: a rank that failed calls
// it once where the others call it at their next agreement, so every rank leaves together.
Result<void> agree(Cluster& cluster, const Result<void>& mine);

// Gathers a trivially copyable struct from every rank, in rank order, on every rank.
template <class T>
std::vector<T> gather_all(Cluster& cluster, const T& mine) {
  static_assert(std::is_trivially_copyable_v<T>);
  const std::vector<std::string> parts =
      cluster.all_gather({reinterpret_cast<const char*>(&mine), sizeof(T)});
  std::vector<T> out(parts.size());
  for (std::size_t i = 0; i < parts.size(); ++i)
    if (parts[i].size() == sizeof(T)) std::memcpy(&out[i], parts[i].data(), sizeof(T));
  return out;
}

double all_max(Cluster& cluster, double mine);
double all_min(Cluster& cluster, double mine);
std::uint64_t all_sum(Cluster& cluster, std::uint64_t mine);
// Rank 0's value on every rank.
template <class T>
T from_rank0(Cluster& cluster, const T& mine) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::string bytes(reinterpret_cast<const char*>(&mine), sizeof(T));
  cluster.broadcast(bytes, 0);
  T out = mine;
  if (bytes.size() == sizeof(T)) std::memcpy(&out, bytes.data(), sizeof(T));
  return out;
}

}  // namespace dlgen::cluster
