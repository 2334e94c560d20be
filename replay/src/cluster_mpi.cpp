// The MPI cluster: MPI_COMM_WORLD, one rank per client host (or several on one host in tests).
//
// The watchdog. A rank that hangs (a stuck NFS mount, a host frozen in D state) does not fail:
// it simply never reaches the next coordination point, and the others would wait there forever.
// So every collective is entered with a deadline: on entering collective k, a rank tells every
// other rank "I am at k" (a small message on a duplicate of MPI_COMM_WORLD, so it can never match
// a collective), and while it waits it reads the others' notices. When the deadline passes with
// the collective unfinished, the ranks not yet at k are the ones that stopped answering: the
// lowest waiting rank prints "rank R (host) stopped answering ..." and ends every rank with
// MPI_Abort (the others follow a few seconds later, should that rank itself be gone).
#include "cluster_mpi.hpp"

#include <mpi.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <numeric>
#include <thread>

namespace dlgen::replay {
namespace {

constexpr int kArrivalTag = 7411;
// The waiting ranks after the lowest one end the job this much later, so that one message names
// the missing rank(s) rather than N.
constexpr double kFollowerGraceS = 5.0;

using SteadyClock = std::chrono::steady_clock;

class MpiCluster final : public Cluster {
 public:
  explicit MpiCluster(const ClusterOptions& options) : timeout_s_(options.rank_timeout_s) {
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
    MPI_Comm_dup(MPI_COMM_WORLD, &watch_);
    // Every rank's host name, for the watchdog's message (set up before any deadline applies).
    char all[256 * 1] = {};
    std::vector<char> names(static_cast<std::size_t>(n) * sizeof all);
    std::snprintf(all, sizeof all, "%s", host_.c_str());
    MPI_Allgather(all, sizeof all, MPI_CHAR, names.data(), sizeof all, MPI_CHAR, MPI_COMM_WORLD);
    for (int i = 0; i < n; ++i) hosts_.emplace_back(names.data() + i * sizeof all);
    seen_.assign(size_, 0);
#ifdef DLGEN_TEST_HOOKS
    // Tests only (built with DLGEN_BUILD_TESTS): rank DLGEN_TEST_HANG_RANK stops answering (sleeps
    // an hour) instead of entering its DLGEN_TEST_HANG_AT-th collective (default the 3rd).
    if (const char* h = std::getenv("DLGEN_TEST_HANG_RANK"); h && std::atoi(h) == r) {
      const char* at = std::getenv("DLGEN_TEST_HANG_AT");
      hang_at_ = at ? std::strtoull(at, nullptr, 10) : 3;
    }
#endif
  }
  ~MpiCluster() override {
    // Every rank arrives here: the last notices are read before the communicator goes.
    barrier();
    drain_arrivals();
    reap_sends(true);
    MPI_Comm_free(&watch_);
    MPI_Finalize();
  }
  std::uint32_t rank() const override {
    return rank_;
  }
  std::uint32_t size() const override {
    return size_;
  }
  const std::string& host() const override {
    return host_;
  }
  bool host_leader() const override {
    return leader_;
  }
  void barrier() override {
    enter();
    MPI_Request req;
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    wait(req);
  }
  std::vector<std::string> all_gather(std::string_view mine) override {
    enter();
    const int len = static_cast<int>(mine.size());
    std::vector<int> lens(size_), offs(size_);
    MPI_Request req;
    MPI_Iallgather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, MPI_COMM_WORLD, &req);
    wait(req);
    std::exclusive_scan(lens.begin(), lens.end(), offs.begin(), 0);
    std::string all(static_cast<std::size_t>(offs.back() + lens.back()), '\0');
    MPI_Iallgatherv(mine.data(), len, MPI_CHAR, all.data(), lens.data(), offs.data(), MPI_CHAR,
                    MPI_COMM_WORLD, &req);
    wait(req);
    std::vector<std::string> out(size_);
    for (std::uint32_t i = 0; i < size_; ++i) out[i] = all.substr(offs[i], lens[i]);
    return out;
  }
  void broadcast(std::string& bytes, std::uint32_t root) override {
    enter();
    unsigned long long len = bytes.size();
    MPI_Request req;
    MPI_Ibcast(&len, 1, MPI_UNSIGNED_LONG_LONG, static_cast<int>(root), MPI_COMM_WORLD, &req);
    wait(req);
    bytes.resize(len);
    MPI_Ibcast(bytes.data(), static_cast<int>(len), MPI_CHAR, static_cast<int>(root),
               MPI_COMM_WORLD, &req);
    wait(req);
  }
  [[noreturn]] void abort(int exit_code) override {
    MPI_Abort(MPI_COMM_WORLD, exit_code);
    std::_Exit(exit_code);
  }

 private:
  // A notice in flight: its buffer lives until every send of it completed.
  struct Notice {
    std::unique_ptr<unsigned long long> seq;
    std::vector<MPI_Request> sends;
  };

  // Entering collective number ++seq_: every other rank is told (non-blocking sends).
  void enter() {
    ++seq_;
#ifdef DLGEN_TEST_HOOKS
    if (hang_at_ != 0 && seq_ == hang_at_)
      for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
#endif
    entered_ = SteadyClock::now();
    reap_sends(false);
    if (size_ < 2) return;
    Notice n;
    n.seq = std::make_unique<unsigned long long>(seq_);
    for (std::uint32_t p = 0; p < size_; ++p) {
      if (p == rank_) continue;
      MPI_Request req;
      MPI_Isend(n.seq.get(), 1, MPI_UNSIGNED_LONG_LONG, static_cast<int>(p), kArrivalTag, watch_,
                &req);
      n.sends.push_back(req);
    }
    notices_.push_back(std::move(n));
  }

  void reap_sends(bool all) {
    while (!notices_.empty()) {
      Notice& n = notices_.front();
      int done = 0;
      if (all)
        MPI_Waitall(static_cast<int>(n.sends.size()), n.sends.data(), MPI_STATUSES_IGNORE);
      else
        MPI_Testall(static_cast<int>(n.sends.size()), n.sends.data(), &done, MPI_STATUSES_IGNORE);
      if (!all && !done) return;
      notices_.pop_front();
    }
  }

  void drain_arrivals() {
    for (;;) {
      int flag = 0;
      MPI_Status st;
      MPI_Iprobe(MPI_ANY_SOURCE, kArrivalTag, watch_, &flag, &st);
      if (!flag) return;
      unsigned long long seq = 0;
      MPI_Recv(&seq, 1, MPI_UNSIGNED_LONG_LONG, st.MPI_SOURCE, kArrivalTag, watch_,
               MPI_STATUS_IGNORE);
      seen_[static_cast<std::size_t>(st.MPI_SOURCE)] =
          std::max<std::uint64_t>(seen_[static_cast<std::size_t>(st.MPI_SOURCE)], seq);
    }
  }

  // Waits for a non-blocking collective without spinning: Open MPI's blocking collectives poll a
  // core at 100%, which on a client host steals the CPU its reader workers and checkpoint writers
  // need (ranks wait in collectives at every epoch start and checkpoint). Polls at once, then
  // sleeps 20 us, doubling up to 1 ms between polls: a collective ends at most ~1 ms late. Past
  // the deadline, the watchdog ends the job.
  void wait(MPI_Request& request) {
    int done = 0;
    long sleep_ns = 20'000;
    for (;;) {
      MPI_Test(&request, &done, MPI_STATUS_IGNORE);
      if (done) return;
      if (timeout_s_ > 0) {
        drain_arrivals();
        const double waited = std::chrono::duration<double>(SteadyClock::now() - entered_).count();
        if (waited > timeout_s_) watchdog(waited);
      }
      timespec ts{0, sleep_ns};
      ::nanosleep(&ts, nullptr);
      sleep_ns = std::min<long>(sleep_ns * 2, 1'000'000);
    }
  }

  void watchdog(double waited) {
    std::vector<std::uint32_t> missing;
    std::uint32_t lowest_here = rank_;
    for (std::uint32_t p = 0; p < size_; ++p) {
      if (p == rank_) continue;
      if (seen_[p] < seq_)
        missing.push_back(p);
      else
        lowest_here = std::min(lowest_here, p);
    }
    // The lowest rank that arrived speaks first; the others give it a few seconds.
    if (lowest_here != rank_ && waited < timeout_s_ + kFollowerGraceS) return;
    std::string who;
    for (std::uint32_t p : missing) {
      if (!who.empty()) who += ", ";
      who += "rank " + std::to_string(p) + " (" + hosts_[p] + ")";
    }
    char line[512];
    if (missing.empty())
      std::snprintf(line, sizeof line,
                    "dlgen: every rank reached coordination point %llu, but it did not finish "
                    "within %.0f s (--rank-timeout): ending every rank",
                    static_cast<unsigned long long>(seq_), timeout_s_);
    else
      std::snprintf(line, sizeof line,
                    "dlgen: %s stopped answering: rank %u (%s) waited %.0f s for it at "
                    "coordination point %llu (--rank-timeout %.0f s): ending every rank",
                    who.c_str(), rank_, host_.c_str(), waited,
                    static_cast<unsigned long long>(seq_), timeout_s_);
    std::fprintf(stderr, "%s\n", line);
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
    std::_Exit(1);
  }

  std::uint32_t rank_ = 0, size_ = 1;
  std::string host_;
  bool leader_ = true;
  double timeout_s_ = 0;
  MPI_Comm watch_ = MPI_COMM_NULL;
  std::vector<std::string> hosts_;
  std::vector<std::uint64_t> seen_;  // the latest coordination point each rank said it reached
  std::uint64_t seq_ = 0;            // coordination points this rank entered
  SteadyClock::time_point entered_ = SteadyClock::now();
  std::deque<Notice> notices_;
#ifdef DLGEN_TEST_HOOKS
  std::uint64_t hang_at_ = 0;
#endif
};

}  // namespace

Result<std::unique_ptr<Cluster>> make_mpi_cluster(const ClusterOptions& options) {
  int provided = 0;
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
    return unsupported_error("MPI_Init_thread failed");
  // Only one thread calls MPI at a time (the main thread, or the checkpoint completion while the
  // main thread waits in join): SERIALIZED is what dlgen needs; FUNNELED would be too little.
  if (provided < MPI_THREAD_SERIALIZED) {
    MPI_Finalize();
    return unsupported_error("this MPI does not support MPI_THREAD_SERIALIZED");
  }
  return std::unique_ptr<Cluster>(std::make_unique<MpiCluster>(options));
}

}  // namespace dlgen::replay
