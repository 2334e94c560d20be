#include "dlgen/cluster/cluster.hpp"

#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <mutex>

#ifdef DLGEN_WITH_MPI
#include "cluster_mpi.hpp"
#endif

namespace dlgen::cluster {
namespace {

std::string host_name() {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) return "localhost";
  return host;
}

class SingleCluster final : public Cluster {
 public:
  SingleCluster() : host_(host_name()) {}
  std::uint32_t rank() const override { return 0; }
  std::uint32_t size() const override { return 1; }
  const std::string& host() const override { return host_; }
  bool host_leader() const override { return true; }
  void barrier() override {}
  std::vector<std::string> all_gather(std::string_view mine) override {
    return {std::string(mine)};
  }
  void broadcast(std::string&, std::uint32_t) override {}
  [[noreturn]] void abort(int exit_code) override { std::_Exit(exit_code); }

 private:
  std::string host_;
};

// The state N thread ranks share: one all_gather round at a time. A round completes when the
// last rank deposits its part; a rank that starts the next round before a slow one has copied
// the result cannot overwrite it, since that round needs the slow rank too.
struct ThreadShared {
  std::mutex mu;
  std::condition_variable cv;
  std::uint32_t n = 0, arrived = 0;
  std::uint64_t round = 0;
  std::vector<std::string> slots, result;
};

class ThreadCluster final : public Cluster {
 public:
  ThreadCluster(std::shared_ptr<ThreadShared> s, std::uint32_t rank, std::string host, bool leader)
      : s_(std::move(s)), rank_(rank), host_(std::move(host)), leader_(leader) {}
  std::uint32_t rank() const override { return rank_; }
  std::uint32_t size() const override { return s_->n; }
  const std::string& host() const override { return host_; }
  bool host_leader() const override { return leader_; }
  void barrier() override { all_gather({}); }
  std::vector<std::string> all_gather(std::string_view mine) override {
    std::unique_lock lock(s_->mu);
    const std::uint64_t my_round = s_->round;
    s_->slots[rank_] = std::string(mine);
    if (++s_->arrived == s_->n) {
      s_->result = s_->slots;
      s_->arrived = 0;
      ++s_->round;
      s_->cv.notify_all();
      return s_->result;
    }
    s_->cv.wait(lock, [&] { return s_->round != my_round; });
    return s_->result;
  }
  void broadcast(std::string& bytes, std::uint32_t root) override {
    bytes = all_gather(rank_ == root ? std::string_view(bytes) : std::string_view())[root];
  }
  [[noreturn]] void abort(int exit_code) override { std::_Exit(exit_code); }

 private:
  std::shared_ptr<ThreadShared> s_;
  std::uint32_t rank_;
  std::string host_;
  bool leader_;
};

}  // namespace

bool launched_by_mpirun() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr || std::getenv("PMIX_RANK") != nullptr;
}

bool mpi_built() {
#ifdef DLGEN_WITH_MPI
  return true;
#else
  return false;
#endif
}

std::unique_ptr<Cluster> make_single_cluster() {
  return std::make_unique<SingleCluster>();
}

Result<std::unique_ptr<Cluster>> make_cluster(const ClusterOptions& options) {
  if (!launched_by_mpirun()) return make_single_cluster();
#ifdef DLGEN_WITH_MPI
  return make_mpi_cluster(options);
#else
  (void)options;
  return unsupported_error(
      "started by mpirun, but this dlgen was built without MPI (DLGEN_WITH_MPI=OFF; install "
      "libopenmpi-dev and rebuild)");
#endif
}

std::vector<std::unique_ptr<Cluster>> make_thread_clusters(std::uint32_t n,
                                                           std::vector<std::string> hosts) {
  auto shared = std::make_shared<ThreadShared>();
  shared->n = std::max<std::uint32_t>(n, 1);
  shared->slots.resize(shared->n);
  hosts.resize(shared->n, "localhost");
  std::vector<std::unique_ptr<Cluster>> out;
  for (std::uint32_t r = 0; r < shared->n; ++r) {
    const bool leader = std::find(hosts.begin(), hosts.begin() + r, hosts[r]) == hosts.begin() + r;
    out.push_back(std::make_unique<ThreadCluster>(shared, r, hosts[r], leader));
  }
  return out;
}

Result<void> agree(Cluster& cluster, const Result<void>& mine) {
  if (cluster.size() == 1) return mine;
  // One byte: 0 ok, else the error's exit code; then the host, a NUL, the message.
  std::string part(1, '\0');
  if (!mine) {
    part[0] = static_cast<char>(mine.error().exit_code());
    part += cluster.host();
    part.push_back('\0');
    part += mine.error().message;
  }
  const std::vector<std::string> all = cluster.all_gather(part);
  for (std::size_t r = 0; r < all.size(); ++r) {
    if (all[r].empty() || all[r][0] == '\0') continue;
    const std::string_view rest = std::string_view(all[r]).substr(1);
    const std::size_t nul = rest.find('\0');
    const std::string host(rest.substr(0, nul));
    const std::string message(nul == std::string_view::npos ? "" : rest.substr(nul + 1));
    Error e{"rank " + std::to_string(r) + " (" + host + "): " + message, ErrorKind::runtime};
    const int code = static_cast<unsigned char>(all[r][0]);
    if (code == static_cast<int>(ErrorKind::bad_input)) e.kind = ErrorKind::bad_input;
    if (code == static_cast<int>(ErrorKind::unsupported)) e.kind = ErrorKind::unsupported;
    return e;
  }
  return ok();
}

double all_max(Cluster& cluster, double mine) {
  const std::vector<double> v = gather_all(cluster, mine);
  return *std::max_element(v.begin(), v.end());
}

double all_min(Cluster& cluster, double mine) {
  const std::vector<double> v = gather_all(cluster, mine);
  return *std::min_element(v.begin(), v.end());
}

std::uint64_t all_sum(Cluster& cluster, std::uint64_t mine) {
  std::uint64_t sum = 0;
  for (std::uint64_t x : gather_all(cluster, mine)) sum += x;
  return sum;
}

Result<void> Cluster::agree(const Result<void>& mine) {
  return cluster::agree(*this, mine);
}

bool Cluster::any(bool mine) {
  return all_max(*this, mine ? 1.0 : 0.0) > 0;
}

bool Cluster::all(bool mine) {
  return all_min(*this, mine ? 1.0 : 0.0) > 0;
}

std::uint64_t Cluster::sum(std::uint64_t mine) {
  return all_sum(*this, mine);
}

}  // namespace dlgen::cluster
