// The MPI cluster: MPI_COMM_WORLD, one rank per client host (or several on one host in tests).
//
// The watchdog. A rank that hangs (a stuck NFS mount, a host frozen in D state) does not fail:
// it simply never reaches the next coordination point, and the others would wait there forever.
// A rank that is only slow (a slower host, a larger share) must not be mistaken for it. So:
// - on entering collective k, a rank tells every other rank "I am at k" (a small message on a
//   duplicate of MPI_COMM_WORLD, so it can never match a collective);
// - heartbeats: a thread of each rank sends its progress count (Cluster::progress: steps and
//   bytes done) to the ranks waiting at a point it has not reached, whenever the count grew since
//   its last heartbeat (at most every min(1 s, timeout / 4));
// - a waiting rank reads both. A rank not yet at k is alive while its heartbeats arrive; when one
//   has sent none for --rank-timeout (counted from the later of the wait's start and its last
//   heartbeat), it is the one that stopped answering: the lowest waiting rank prints "rank R
//   (host) stopped answering ..." and ends every rank with MPI_Abort (the others follow a few
//   seconds later, should that rank itself be gone). With every rank at k and the collective
//   still unfinished after the timeout, the job ends too.
// Only one thread calls MPI at a time (MPI_THREAD_SERIALIZED): every MPI call holds mu_.
#include "cluster_mpi.hpp"

#include <mpi.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <mutex>
#include <numeric>
#include <thread>

namespace dlgen::cluster {
namespace {

constexpr int kArrivalTag = 7411;
constexpr int kHeartbeatTag = 7412;
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
    alive_.assign(size_, SteadyClock::time_point{});
    arrived_.assign(size_, SteadyClock::time_point{});
#ifdef DLGEN_TEST_HOOKS
    // Tests only (built with DLGEN_BUILD_TESTS): rank DLGEN_TEST_HANG_RANK stops answering (sleeps
    // an hour) instead of entering its DLGEN_TEST_HANG_AT-th collective (default the 3rd).
    if (const char* h = std::getenv("DLGEN_TEST_HANG_RANK"); h && std::atoi(h) == r) {
      const char* at = std::getenv("DLGEN_TEST_HANG_AT");
      hang_at_ = at ? std::strtoull(at, nullptr, 10) : 3;
    }
    // Rank DLGEN_TEST_LATE_RANK calls each collective DLGEN_TEST_LATE_MS after telling the others
    // it arrived: the gap in which a watchdog counting from its own arrival misjudged a slow rank.
    if (const char* l = std::getenv("DLGEN_TEST_LATE_RANK"); l && std::atoi(l) == r)
      if (const char* ms = std::getenv("DLGEN_TEST_LATE_MS"))
        late_ = std::chrono::milliseconds(std::atoi(ms));
#endif
    if (size_ > 1 && timeout_s_ > 0) heart_ = std::thread([this] { heartbeats(); });
  }
  ~MpiCluster() override {
    if (heart_.joinable()) {
      {
        std::lock_guard lock(heart_mu_);
        heart_stop_ = true;
      }
      heart_cv_.notify_all();
      heart_.join();
    }
    // Every rank arrives here: the last notices are read before the communicator goes.
    barrier();
    std::lock_guard lock(mu_);
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
    {
      std::lock_guard lock(mu_);
      MPI_Ibarrier(MPI_COMM_WORLD, &req);
    }
    wait(req);
  }
  std::vector<std::string> all_gather(std::string_view mine) override {
    enter();
    const int len = static_cast<int>(mine.size());
    std::vector<int> lens(size_), offs(size_);
    MPI_Request req;
    {
      std::lock_guard lock(mu_);
      MPI_Iallgather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, MPI_COMM_WORLD, &req);
    }
    wait(req);
    std::exclusive_scan(lens.begin(), lens.end(), offs.begin(), 0);
    std::string all(static_cast<std::size_t>(offs.back() + lens.back()), '\0');
    {
      std::lock_guard lock(mu_);
      MPI_Iallgatherv(mine.data(), len, MPI_CHAR, all.data(), lens.data(), offs.data(), MPI_CHAR,
                      MPI_COMM_WORLD, &req);
    }
    wait(req);
    std::vector<std::string> out(size_);
    for (std::uint32_t i = 0; i < size_; ++i) out[i] = all.substr(offs[i], lens[i]);
    return out;
  }
  void broadcast(std::string& bytes, std::uint32_t root) override {
    enter();
    unsigned long long len = bytes.size();
    MPI_Request req;
    {
      std::lock_guard lock(mu_);
      MPI_Ibcast(&len, 1, MPI_UNSIGNED_LONG_LONG, static_cast<int>(root), MPI_COMM_WORLD, &req);
    }
    wait(req);
    bytes.resize(len);
    {
      std::lock_guard lock(mu_);
      MPI_Ibcast(bytes.data(), static_cast<int>(len), MPI_CHAR, static_cast<int>(root),
                 MPI_COMM_WORLD, &req);
    }
    wait(req);
  }
  [[noreturn]] void abort(int exit_code) override {
    mu_.lock();  // held until the process ends
    MPI_Abort(MPI_COMM_WORLD, exit_code);
    std::_Exit(exit_code);
  }

 private:
  // A notice in flight: its buffer lives until every send of it completed.
  struct Notice {
    std::unique_ptr<unsigned long long> seq;
    std::vector<MPI_Request> sends;
  };

  // Entering collective number ++seq_: every other rank is told (non-blocking sends). Only the
  // thread calling the collective writes seq_; the heartbeat thread reads it under mu_.
  void enter() {
#ifdef DLGEN_TEST_HOOKS
    if (hang_at_ != 0 && seq_ + 1 == hang_at_)
      for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
#endif
    {
      std::lock_guard lock(mu_);
      ++seq_;
      entered_ = SteadyClock::now();
      reap_sends(false);
      if (size_ < 2) return;
      send_all(seq_, kArrivalTag, [](std::uint32_t) { return true; });
    }
#ifdef DLGEN_TEST_HOOKS
    std::this_thread::sleep_for(late_);
#endif
  }

  // Sends `value` with `tag` to every other rank p with want(p) (non-blocking; the buffer lives
  // in notices_ until every send completed). Holds mu_.
  template <class Want>
  void send_all(std::uint64_t value, int tag, Want want) {
    Notice n;
    n.seq = std::make_unique<unsigned long long>(value);
    for (std::uint32_t p = 0; p < size_; ++p) {
      if (p == rank_ || !want(p)) continue;
      MPI_Request req;
      MPI_Isend(n.seq.get(), 1, MPI_UNSIGNED_LONG_LONG, static_cast<int>(p), tag, watch_, &req);
      n.sends.push_back(req);
    }
    if (!n.sends.empty()) notices_.push_back(std::move(n));
  }

  // The heartbeat thread: every period, reads the notices (who waits where) and, when this
  // rank's progress grew since its last heartbeat, tells the ranks waiting at a point this rank
  // has not reached. A rank stuck in I/O keeps this thread running, but its count stands still,
  // so it sends nothing and the others see it as hung.
  void heartbeats() {
    const auto period = std::chrono::duration_cast<SteadyClock::duration>(
        std::chrono::duration<double>(std::clamp(timeout_s_ / 4, 0.01, 1.0)));
    std::uint64_t sent = 0;
    std::unique_lock wake(heart_mu_);
    while (!heart_cv_.wait_for(wake, period, [&] { return heart_stop_; })) {
      const std::uint64_t now = progress();
      std::lock_guard lock(mu_);
      drain_arrivals();
      reap_sends(false);
      if (now == sent) continue;
      sent = now;
      send_all(now, kHeartbeatTag, [&](std::uint32_t p) { return seen_[p] > seq_; });
    }
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

  // Reads every notice and heartbeat that arrived. Holds mu_.
  void drain_arrivals() {
    for (;;) {
      int flag = 0;
      MPI_Status st;
      MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, watch_, &flag, &st);
      if (!flag) return;
      unsigned long long value = 0;
      MPI_Recv(&value, 1, MPI_UNSIGNED_LONG_LONG, st.MPI_SOURCE, st.MPI_TAG, watch_,
               MPI_STATUS_IGNORE);
      const auto from = static_cast<std::size_t>(st.MPI_SOURCE);
      if (st.MPI_TAG == kArrivalTag) {
        if (value > seen_[from]) arrived_[from] = SteadyClock::now();
        seen_[from] = std::max<std::uint64_t>(seen_[from], value);
      } else  // a heartbeat: that rank made progress since its last one
        alive_[from] = SteadyClock::now();
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
      {
        std::lock_guard lock(mu_);
        MPI_Test(&request, &done, MPI_STATUS_IGNORE);
        if (done) return;
        if (timeout_s_ > 0) {
          drain_arrivals();
          check_ranks();
        }
      }
      timespec ts{0, sleep_ns};
      ::nanosleep(&ts, nullptr);
      sleep_ns = std::min<long>(sleep_ns * 2, 1'000'000);
    }
  }

  // The watchdog's decision while waiting at coordination point seq_ (holds mu_): a rank not yet
  // there that has sent no heartbeat for the timeout (since this wait began) is hung; with every
  // rank there, the collective itself is, once the timeout passed since the last of them arrived
  // (a slow rank that kept sending heartbeats may arrive long after this rank began waiting).
  void check_ranks() {
    const SteadyClock::time_point now = SteadyClock::now();
    SteadyClock::time_point all_here = entered_;
    std::vector<std::uint32_t> missing;
    std::uint32_t lowest_here = rank_;
    bool absent = false;
    double silent = 0;  // the longest any absent rank went without a heartbeat
    for (std::uint32_t p = 0; p < size_; ++p) {
      if (p == rank_) continue;
      if (seen_[p] >= seq_) {
        lowest_here = std::min(lowest_here, p);
        all_here = std::max(all_here, arrived_[p]);
        continue;
      }
      absent = true;
      const double quiet =
          std::chrono::duration<double>(now - std::max(entered_, alive_[p])).count();
      if (quiet > timeout_s_) {
        missing.push_back(p);
        silent = std::max(silent, quiet);
      }
    }
    const double waited = std::chrono::duration<double>(now - all_here).count();
    if (absent ? missing.empty() : waited <= timeout_s_) return;
    if (!absent) silent = waited;
    // The lowest rank that arrived speaks first; the others give it a few seconds.
    if (lowest_here != rank_ && silent < timeout_s_ + kFollowerGraceS) return;
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
                    "dlgen: %s stopped answering: rank %u (%s) waited at coordination point %llu "
                    "and heard of no progress from it for %.0f s (--rank-timeout %.0f s): ending "
                    "every rank",
                    who.c_str(), rank_, host_.c_str(), static_cast<unsigned long long>(seq_),
                    silent, timeout_s_);
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
  std::vector<SteadyClock::time_point> alive_;  // when each rank's last heartbeat arrived
  std::vector<SteadyClock::time_point> arrived_;  // when each rank's latest arrival notice did
  std::uint64_t seq_ = 0;                       // coordination points this rank entered
  SteadyClock::time_point entered_ = SteadyClock::now();
  std::deque<Notice> notices_;
  std::mutex mu_;  // every MPI call, and the state above
  std::thread heart_;
  std::mutex heart_mu_;
  std::condition_variable heart_cv_;
  bool heart_stop_ = false;
#ifdef DLGEN_TEST_HOOKS
  std::uint64_t hang_at_ = 0;
  std::chrono::milliseconds late_{0};
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

}  // namespace dlgen::cluster
