// The MPI cluster: MPI_COMM_WORLD, one rank per client host (or several on one host in tests).
#include "cluster_mpi.hpp"

#include <mpi.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>

namespace dlgen::replay {
namespace {

// Waits for a non-blocking collective without spinning: Open MPI's blocking collectives poll a
// core at 100%, which on a client host steals the CPU its reader workers and checkpoint writers
// need (ranks wait in collectives at every epoch start and checkpoint). Polls at once, then sleeps
// 20 us, doubling up to 1 ms between polls: a collective ends at most ~1 ms late.
void wait_politely(MPI_Request& request) {
  int done = 0;
  long sleep_ns = 20'000;
  for (;;) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return;
    timespec ts{0, sleep_ns};
    ::nanosleep(&ts, nullptr);
    sleep_ns = std::min<long>(sleep_ns * 2, 1'000'000);
  }
}

class MpiCluster final : public Cluster {
 public:
  MpiCluster() {
    int r = 0, n = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    rank_ = static_cast<std::uint32_t>(r);
    size_ = static_cast<std::uint32_t>(n);
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
    host_ = host[0] ? host : "localhost";
    // The ranks sharing this host's memory: the lowest of them is the host's leader.
    MPI_Comm local;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, r, MPI_INFO_NULL, &local);
    int local_rank = 0;
    MPI_Comm_rank(local, &local_rank);
    leader_ = local_rank == 0;
    MPI_Comm_free(&local);
  }
  ~MpiCluster() override { MPI_Finalize(); }
  std::uint32_t rank() const override { return rank_; }
  std::uint32_t size() const override { return size_; }
  const std::string& host() const override { return host_; }
  bool host_leader() const override { return leader_; }
  void barrier() override {
    MPI_Request req;
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    wait_politely(req);
  }
  std::vector<std::string> all_gather(std::string_view mine) override {
    const int len = static_cast<int>(mine.size());
    std::vector<int> lens(size_), offs(size_);
    MPI_Request req;
    MPI_Iallgather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, MPI_COMM_WORLD, &req);
    wait_politely(req);
    std::exclusive_scan(lens.begin(), lens.end(), offs.begin(), 0);
    std::string all(static_cast<std::size_t>(offs.back() + lens.back()), '\0');
    MPI_Iallgatherv(mine.data(), len, MPI_CHAR, all.data(), lens.data(), offs.data(), MPI_CHAR,
                    MPI_COMM_WORLD, &req);
    wait_politely(req);
    std::vector<std::string> out(size_);
    for (std::uint32_t i = 0; i < size_; ++i) out[i] = all.substr(offs[i], lens[i]);
    return out;
  }
  void broadcast(std::string& bytes, std::uint32_t root) override {
    unsigned long long len = bytes.size();
    MPI_Request req;
    MPI_Ibcast(&len, 1, MPI_UNSIGNED_LONG_LONG, static_cast<int>(root), MPI_COMM_WORLD, &req);
    wait_politely(req);
    bytes.resize(len);
    MPI_Ibcast(bytes.data(), static_cast<int>(len), MPI_CHAR, static_cast<int>(root),
               MPI_COMM_WORLD, &req);
    wait_politely(req);
  }
  [[noreturn]] void abort(int exit_code) override {
    MPI_Abort(MPI_COMM_WORLD, exit_code);
    std::_Exit(exit_code);
  }

 private:
  std::uint32_t rank_ = 0, size_ = 1;
  std::string host_;
  bool leader_ = true;
};

}  // namespace

Result<std::unique_ptr<Cluster>> make_mpi_cluster() {
  int provided = 0;
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
    return unsupported_error("MPI_Init_thread failed");
  // Only one thread calls MPI at a time (the main thread, or the checkpoint completion while the
  // main thread waits in join): SERIALIZED is what dlgen needs; FUNNELED would be too little.
  if (provided < MPI_THREAD_SERIALIZED) {
    MPI_Finalize();
    return unsupported_error("this MPI does not support MPI_THREAD_SERIALIZED");
  }
  return std::unique_ptr<Cluster>(std::make_unique<MpiCluster>());
}

}  // namespace dlgen::replay
