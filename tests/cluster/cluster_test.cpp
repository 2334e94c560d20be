// The ranks of a multi-host run, with N ranks as threads of one process (make_thread_clusters):
// agreements stop every rank on any rank's failure, the reduced result obeys its laws, and a
// run over several ranks reads every sample once per epoch and writes every checkpoint with all
// ranks even when their batch counts differ.
#include "dlgen/cluster/cluster.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <set>
#include <thread>

#include "dlgen/cluster/cluster_report.hpp"
#include "dlgen/replay/checkpoint.hpp"
#include "dlgen/replay/plan.hpp"
#include "dlgen/replay/runner.hpp"
#include "replay_fixture.hpp"
#include "temp_dir.hpp"

namespace dlgen::cluster {
namespace {

using namespace dlgen::replay;
using dlgen::testing::TempDir;

// Runs body(rank, cluster) on one thread per rank and joins them.
template <class F>
void on_ranks(std::vector<std::unique_ptr<Cluster>>& ranks, F body) {
  std::vector<std::thread> threads;
  for (std::size_t r = 0; r < ranks.size(); ++r)
    threads.emplace_back([&, r] { body(static_cast<std::uint32_t>(r), *ranks[r]); });
  for (auto& t : threads) t.join();
}

TEST(Cluster, SingleProcessIsRankZeroOfOneAndNeedsNoMpi) {
  auto c = make_single_cluster();
  EXPECT_EQ(c->rank(), 0u);
  EXPECT_EQ(c->size(), 1u);
  EXPECT_TRUE(c->host_leader());
  EXPECT_EQ(c->all_gather("x"), std::vector<std::string>{"x"});
  const Result<void> bad = agree(*c, runtime_error("boom"));
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "boom");  // one rank: the error as it was, no rank prefix
}

TEST(Cluster, AgreeStopsEveryRankNamingTheFailingRankAndHost) {
  auto ranks = make_thread_clusters(3, {"hostA", "hostB", "hostC"});
  std::vector<Result<void>> got(3);
  on_ranks(ranks, [&](std::uint32_t r, Cluster& c) {
    got[r] = agree(c, r == 1 ? input_error("data/x.npz: read at 0: Input/output error") : ok());
  });
  for (const auto& g : got) {
    ASSERT_FALSE(g);
    EXPECT_EQ(g.error().message, "rank 1 (hostB): data/x.npz: read at 0: Input/output error");
    EXPECT_EQ(g.error().exit_code(), 2);  // the failing rank's kind, on every rank
  }
  std::vector<Result<void>> fine(3, runtime_error("unset"));
  on_ranks(ranks, [&](std::uint32_t r, Cluster& c) { fine[r] = agree(c, ok()); });
  for (const auto& g : fine) EXPECT_TRUE(g);
}

TEST(Cluster, GatherBroadcastAndReductionsGiveEveryRankTheSameAnswer) {
  auto ranks = make_thread_clusters(3, {"a", "b", "a"});
  EXPECT_TRUE(ranks[0]->host_leader());
  EXPECT_TRUE(ranks[1]->host_leader());
  EXPECT_FALSE(ranks[2]->host_leader());  // host "a" already has rank 0
  std::vector<std::vector<std::uint32_t>> gathered(3);
  std::vector<std::uint64_t> sums(3);
  std::vector<double> maxes(3), mins(3);
  std::vector<int> root(3);
  on_ranks(ranks, [&](std::uint32_t r, Cluster& c) {
    gathered[r] = gather_all(c, r * 10);
    sums[r] = all_sum(c, r + 1);
    maxes[r] = all_max(c, r * 1.5);
    mins[r] = all_min(c, r * 1.5 + 1);
    root[r] = from_rank0(c, static_cast<int>(r) + 7);
  });
  for (std::uint32_t r = 0; r < 3; ++r) {
    EXPECT_EQ(gathered[r], (std::vector<std::uint32_t>{0, 10, 20}));
    EXPECT_EQ(sums[r], 6u);
    EXPECT_DOUBLE_EQ(maxes[r], 3.0);
    EXPECT_DOUBLE_EQ(mins[r], 1.0);
    EXPECT_EQ(root[r], 7);
  }
}

Job tiny_job(const std::filesystem::path& dir) {
  Job job = fixture::small_job(dir / "data", 25, Distribution::fixed_at(4096));
  job.reader.batch_size = 2;
  job.reader.shuffle = Shuffle::sample;
  job.run.accelerators = 2;
  job.run.epochs = 3;
  return job;
}

// Runs `job` on consumed.size() thread ranks with the pread engine; each rank's consumed samples
// into consumed[rank].
std::vector<Result<Report>> run_ranks(const Job& job,
                                      std::vector<std::vector<ConsumedPass>>& consumed) {
  const auto n = static_cast<std::uint32_t>(consumed.size());
  auto ranks = make_thread_clusters(n);
  std::vector<Result<Report>> reports(n, runtime_error("unset"));
  on_ranks(ranks, [&](std::uint32_t r, Cluster& c) {
    RunOptions o;
    o.engine = "pread";
    o.series = false;
    o.cluster = &c;
    o.consumed = &consumed[r];
    reports[r] = run_job(job, o);
  });
  return reports;
}

TEST(Cluster, RanksHoldingDifferentJobsAreRefusedWithAnInputError) {
  TempDir tmp;
  auto ranks = make_thread_clusters(3, {"a", "b", "c"});
  std::vector<Result<void>> got(3);
  on_ranks(ranks, [&](std::uint32_t r, Cluster& c) {
    Job job = tiny_job(tmp.path());
    if (r == 2) job.reader.batch_size = 3;
    got[r] = check_same_job(c, job);
  });
  for (const auto& g : got) {
    ASSERT_FALSE(g);
    EXPECT_EQ(g.error().exit_code(), 2);
    EXPECT_NE(g.error().message.find("rank 2 (c)"), std::string::npos) << g.error().message;
    EXPECT_EQ(g.error().message.find("rank 1"), std::string::npos) << g.error().message;
  }
  on_ranks(ranks,
           [&](std::uint32_t r, Cluster& c) { got[r] = check_same_job(c, tiny_job(tmp.path())); });
  for (const auto& g : got) EXPECT_TRUE(g);
}

RankResult rank_row(std::uint32_t rank, std::vector<double> aus, double seconds_per_ckpt) {
  RankResult r;
  r.rank = rank;
  r.host = "h" + std::to_string(rank % 2);
  r.accelerators = static_cast<std::uint32_t>(aus.size());
  r.samples = 100 + rank;
  r.bytes_read = 1000000 * (rank + 1);
  r.samples_per_s = 50.0 + rank;
  r.mib_per_s = 10.0 * (rank + 1);
  r.au_threshold = 0.9;
  r.au = *std::min_element(aus.begin(), aus.end());
  double mean = 0;
  for (std::size_t i = 0; i < aus.size(); ++i) {
    AcceleratorResult a;
    a.id = rank * static_cast<std::uint32_t>(aus.size()) + static_cast<std::uint32_t>(i);
    a.au = aus[i];
    mean += aus[i];
    r.per_accelerator.push_back(a);
  }
  r.au_mean = mean / static_cast<double>(aus.size());
  r.elapsed_s = 10 + rank;
  r.begin_s = 0;
  r.end_s = 10 + rank;
  // One training pass, from the common zero to 10 + rank seconds.
  r.passes.push_back({1, false, 0, 10.0 + rank, 5, r.samples, r.bytes_read, 0, r.au});
  r.train_seconds = 10 + rank;
  r.checkpoint_bytes = {1 << 20, 1 << 20};
  r.checkpoint_seconds = {seconds_per_ckpt, 2 * seconds_per_ckpt};
  return r;
}

TEST(ClusterReport, CountsAreSumsAuIsTheLowestAcceleratorAnywhereCheckpointsEndWithTheSlowestRank) {
  std::vector<RankResult> rows = {rank_row(2, {0.97, 0.95}, 0.3), rank_row(0, {0.99, 0.98}, 0.1),
                                  rank_row(1, {0.91, 0.96}, 0.2)};
  const ClusterResult c = reduce_ranks(rows);
  ASSERT_EQ(c.ranks, 3u);
  EXPECT_EQ(c.hosts, 2u);
  for (std::uint32_t r = 0; r < 3; ++r) EXPECT_EQ(c.per_rank[r].rank, r);  // rank order
  EXPECT_EQ(c.samples, 100u + 101 + 102);
  EXPECT_EQ(c.bytes_read, 6000000u);
  // Rates: the sums over the cluster's window (0 to the last rank's end, 12 s), not the sums of
  // the ranks' own rates (50 + 51 + 52).
  EXPECT_DOUBLE_EQ(c.train_seconds, 12);
  EXPECT_DOUBLE_EQ(c.samples_per_s, 303.0 / 12);
  EXPECT_DOUBLE_EQ(c.mib_per_s, 6000000 / 1048576.0 / 12);
  EXPECT_DOUBLE_EQ(c.elapsed_s, 12);
  double lowest = 1, sum = 0;
  for (const auto& r : rows)
    for (const auto& a : r.per_accelerator) {
      lowest = std::min(lowest, a.au);
      sum += a.au;
    }
  EXPECT_DOUBLE_EQ(c.au, lowest);
  EXPECT_EQ(c.au_rank, 1u);
  EXPECT_NEAR(c.au_mean, sum / 6, 1e-12);
  EXPECT_TRUE(c.passed);  // 0.91 >= 0.9
  // Checkpoint i lasts as long as its slowest rank; throughput x duration = all ranks' bytes.
  ASSERT_EQ(c.checkpoints.size(), 2u);
  EXPECT_DOUBLE_EQ(pass_figures(c.checkpoints[0]).duration_s, 0.3);
  EXPECT_DOUBLE_EQ(pass_figures(c.checkpoints[1]).duration_s, 0.6);
  EXPECT_EQ(c.checkpoint.bytes, 6u << 20);
  EXPECT_NEAR(c.checkpoint.throughput_bps * c.checkpoint.duration_s, 6 << 20, 1e-3);
  EXPECT_NEAR(c.checkpoint.slowest_rank_bps, (1 << 20) / 0.6, 1e-6);

  // Per host (ranks 0 and 2 on h0, rank 1 on h1): sums, lowest AU.
  const std::vector<HostRow> hosts = host_rows(c);
  ASSERT_EQ(hosts.size(), 2u);
  EXPECT_EQ(hosts[0].host, "h0");
  EXPECT_EQ(hosts[0].ranks, 2u);
  EXPECT_EQ(hosts[0].accelerators, 4u);
  EXPECT_EQ(hosts[0].samples, 100u + 102);
  EXPECT_DOUBLE_EQ(hosts[0].mib_per_s, 4000000 / 1048576.0 / 12);  // ranks 0 and 2: 0 to 12 s
  EXPECT_DOUBLE_EQ(hosts[1].samples_per_s, 101.0 / 11);
  EXPECT_DOUBLE_EQ(hosts[0].au, 0.95);
  EXPECT_DOUBLE_EQ(hosts[1].au, 0.91);

  Report rep;
  apply_cluster(c, rep);
  EXPECT_EQ(rep.per_accelerator.size(), 6u);
  EXPECT_DOUBLE_EQ(rep.au, lowest);
  EXPECT_DOUBLE_EQ(rep.mib_per_s, c.mib_per_s);
}

// Issue 17: one rank reads 1000 samples in 10 s, another 1000 in 20 s. The cluster delivered
// 2000 samples in 20 s: 100/s, not the 150/s that adding the ranks' own rates gives. The window
// runs from the first rank's start to the last rank's end, so ranks that start apart count the
// gap too; seconds and passes are the cluster's, and every law holds on them.
TEST(ClusterReport, RatesAreAllRanksCountsOverOneCommonWindow) {
  auto rank = [](std::uint32_t id, double begin, double end, double eval_end) {
    RankResult r;
    r.rank = id;
    r.host = "h" + std::to_string(id);
    r.accelerators = 1;
    r.samples = 1000;
    r.train_bytes = 1000ull << 20;
    r.eval_samples = 100;
    r.eval_bytes = 100ull << 20;
    r.bytes_read = r.train_bytes + r.eval_bytes;
    r.train_seconds = end - begin;
    r.eval_seconds = eval_end - end;
    r.samples_per_s = 1000 / r.train_seconds;  // the rank's own rate
    r.mib_per_s = 1100 / (r.train_seconds + r.eval_seconds);
    r.begin_s = begin;
    r.end_s = eval_end;
    r.passes = {{1, false, begin, end, 10, 1000, 1000ull << 20, 1000, 0.9},
                {1, true, end, eval_end, 1, 100, 100ull << 20, 100, 0.5}};
    r.au = r.au_mean = 0.9;
    return r;
  };
  const ClusterResult c = reduce_ranks({rank(0, 0, 10, 11), rank(1, 0, 20, 22)});
  EXPECT_DOUBLE_EQ(c.train_seconds, 20);
  EXPECT_DOUBLE_EQ(c.samples_per_s, 100);  // today's sum of rates: 100 + 50 = 150
  EXPECT_DOUBLE_EQ(c.train_mib_per_s, 100);
  // The evaluation pass: from the first rank's start (10 s) to the last rank's end (22 s).
  EXPECT_DOUBLE_EQ(c.eval_seconds, 12);
  EXPECT_DOUBLE_EQ(c.eval_samples_per_s, 200.0 / 12);
  EXPECT_DOUBLE_EQ(c.elapsed_s, 22);
  // Laws: rate x seconds = the summed count.
  EXPECT_NEAR(c.samples_per_s * c.train_seconds, c.samples, 1e-9);
  EXPECT_NEAR(c.mib_per_s * 1048576.0 * (c.train_seconds + c.eval_seconds), c.bytes_read, 1e-3);
  ASSERT_EQ(c.epochs.size(), 2u);
  EXPECT_EQ(c.epochs[0].samples, 2000u);
  EXPECT_DOUBLE_EQ(c.epochs[0].seconds, 20);
  EXPECT_DOUBLE_EQ(c.epochs[0].samples_per_s(), 100);
  EXPECT_DOUBLE_EQ(c.epochs[0].au, 0.9);
  EXPECT_TRUE(c.epochs[1].eval);

  // Rank 1 starting 5 s after rank 0: the cluster's window is 0 to 25 s.
  const ClusterResult late = reduce_ranks({rank(0, 0, 10, 11), rank(1, 5, 25, 26)});
  EXPECT_DOUBLE_EQ(late.train_seconds, 25);
  EXPECT_DOUBLE_EQ(late.samples_per_s, 80);

  // The report carries the cluster's seconds and passes (totals.wall_seconds = train + eval).
  Report rep;
  apply_cluster(c, rep);
  EXPECT_DOUBLE_EQ(rep.train_seconds, 20);
  EXPECT_DOUBLE_EQ(rep.eval_seconds, 12);
  EXPECT_DOUBLE_EQ(rep.elapsed_s, 22);
  EXPECT_EQ(rep.epochs_detail.size(), 2u);
  // One row per host: each host's own window.
  const std::vector<HostRow> hosts = host_rows(c);
  ASSERT_EQ(hosts.size(), 2u);
  EXPECT_DOUBLE_EQ(hosts[0].samples_per_s, 100);
  EXPECT_DOUBLE_EQ(hosts[1].samples_per_s, 50);
}

// A host's clock standing at one instant: CLOCK_MONOTONIC counts from each host's boot, so two
// hosts' stamps of one instant differ by anything.
class StoppedClock final : public Clock {
 public:
  explicit StoppedClock(std::int64_t at) : at_(at) {}
  std::int64_t now_ns() override { return at_; }
  void sleep_until(std::int64_t) override {}
  void wait(std::atomic<std::uint64_t>&, std::uint64_t) override {}
  void notify(std::atomic<std::uint64_t>&) override {}

 private:
  std::int64_t at_;
};

// gather_ranks puts every rank's stamps on one clock, the barrier's exit: rank 1's host booted
// 1000 s after rank 0's, rank 0 trained from 20 s to 10 s before the gather and rank 1 from 15 s
// to 5 s before it. The cluster's window is 15 s, whatever the hosts' clocks read.
TEST(ClusterReport, GatherPutsEveryRanksStampsOnTheBarriersClock) {
  auto ranks = make_thread_clusters(2, {"a", "b"});
  std::vector<ClusterResult> got(2);
  on_ranks(ranks, [&](std::uint32_t r, Cluster& c) {
    const std::int64_t now = (r == 0 ? 5000 : 4000) * std::int64_t{1'000'000'000};
    StoppedClock clock(now);
    Report rep;
    rep.accelerators = 1;
    rep.samples = 300;
    rep.train_bytes = rep.bytes_read = 300ull << 20;
    const std::int64_t begin = now - (r == 0 ? 20 : 15) * std::int64_t{1'000'000'000};
    const std::int64_t end = now - (r == 0 ? 10 : 5) * std::int64_t{1'000'000'000};
    rep.begin_ns = begin;
    rep.end_ns = end;
    EpochResult e;
    e.epoch = 1;
    e.samples = 300;
    e.bytes = 300ull << 20;
    e.begin_ns = begin;
    e.end_ns = end;
    e.seconds = 10;
    rep.epochs_detail.push_back(e);
    got[r] = gather_ranks(c, rep, &clock);
  });
  for (const ClusterResult& c : got) {
    EXPECT_DOUBLE_EQ(c.elapsed_s, 15);
    EXPECT_DOUBLE_EQ(c.train_seconds, 15);
    EXPECT_DOUBLE_EQ(c.samples_per_s, 600.0 / 15);
    EXPECT_DOUBLE_EQ(c.per_rank[1].begin_s, -15);
  }
}

// A real run over 3 ranks x 2 accelerators (threads), 25 samples of batch 2: global accelerators
// get 5 or 4 samples, so ranks 1 and 2 take one batch fewer than rank 0 in every epoch.
TEST(ClusterRun, EverySampleOncePerEpochAcrossRanksAndEveryRankJoinsEveryCheckpoint) {
  TempDir tmp;
  Job job = tiny_job(tmp.path());
  job.checkpoint.enabled = true;
  job.checkpoint.dir = tmp.path() / "ckpt";
  job.checkpoint.size_bytes = 3 << 16;
  job.checkpoint.files = 3;
  job.checkpoint.every_steps = 3;  // rank 0 reaches step 3 of an epoch, ranks 1 and 2 do not
  // An evaluation pass over 7 validation files after every epoch (no shuffle, tail kept).
  job.validation = job.dataset;
  job.validation->dir = tmp.path() / "val";
  job.validation->num_files = 7;
  job.run.eval_every_epochs = 1;
  fixture::write_dataset(job.dataset);
  fixture::write_dataset(*job.validation);
  const std::uint32_t n = 3;
  std::vector<std::vector<ConsumedPass>> consumed(n);
  const std::vector<Result<Report>> reports = run_ranks(job, consumed);
  for (std::uint32_t r = 0; r < n; ++r) ASSERT_TRUE(reports[r]) << reports[r].error().message;
  std::vector<std::vector<std::uint64_t>> orders(job.run.epochs);
  for (std::uint32_t e = 1; e <= job.run.epochs; ++e) {
    std::multiset<std::uint64_t> seen;
    for (std::uint32_t r = 0; r < n; ++r)
      for (const ConsumedPass& p : consumed[r])
        if (p.epoch == e && !p.eval) {
          for (std::size_t i = 0; i < p.samples.size(); ++i) {
            seen.insert(p.samples[i].file);
            EXPECT_EQ(p.accelerator[i] / job.run.accelerators, r);  // this rank's accelerators
          }
          if (r == 0) orders[e - 1].assign(p.samples.size(), 0);
          if (r == 0)
            for (std::size_t i = 0; i < p.samples.size(); ++i) orders[e - 1][i] = p.samples[i].file;
        }
    ASSERT_EQ(seen.size(), 25u) << "epoch " << e;
    for (std::uint64_t f = 0; f < 25; ++f) EXPECT_EQ(seen.count(f), 1u) << "epoch " << e;
  }
  for (std::uint32_t e = 1; e <= job.run.epochs; ++e) {
    std::multiset<std::uint64_t> eval;
    for (std::uint32_t r = 0; r < n; ++r)
      for (const ConsumedPass& p : consumed[r])
        if (p.epoch == e && p.eval)
          for (const SampleRef& s : p.samples) eval.insert(s.file);
    EXPECT_EQ(eval, (std::multiset<std::uint64_t>{0, 1, 2, 3, 4, 5, 6})) << "eval " << e;
  }
  EXPECT_NE(orders[0], orders[1]);  // reshuffled per epoch
  EXPECT_NE(orders[1], orders[2]);
  // Rank 0 takes 3 steps an epoch: 9 steps, checkpoints after global steps 3, 6, 9; every rank
  // took part in each and wrote its shard (shard i on rank i mod 3).
  for (std::uint32_t r = 0; r < n; ++r) {
    EXPECT_EQ(reports[r]->checkpoint.count, 3u) << "rank " << r;
    EXPECT_EQ(reports[r]->checkpoint.write_seconds.size(), 3u);
    EXPECT_EQ(reports[r]->checkpoint.files, 3u);  // one shard per checkpoint
    EXPECT_EQ(reports[r]->checkpoint.bytes, 3u << 16);
  }
  for (const auto& p : checkpoint_paths(job.checkpoint))
    EXPECT_EQ(std::filesystem::file_size(p), 1u << 16) << p;
}

// run.eval_every_steps over 3 ranks: rank 0 reaches step 3 of each epoch, ranks 1 and 2 take a
// batch fewer and run the evaluation after their pass (catching up), so every rank joins each of
// the 3 evaluations (after global steps 3, 6, 9) and each reads the 7 validation files once.
TEST(ClusterRun, EveryRankJoinsEveryEvaluationByStep) {
  TempDir tmp;
  Job job = tiny_job(tmp.path());
  job.validation = job.dataset;
  job.validation->dir = tmp.path() / "val";
  job.validation->num_files = 7;
  job.run.eval_every_steps = 3;
  fixture::write_dataset(job.dataset);
  fixture::write_dataset(*job.validation);
  const std::uint32_t n = 3;
  std::vector<std::vector<ConsumedPass>> consumed(n);
  const std::vector<Result<Report>> reports = run_ranks(job, consumed);
  for (std::uint32_t r = 0; r < n; ++r) {
    ASSERT_TRUE(reports[r]) << reports[r].error().message;
    std::vector<std::uint64_t> after;
    for (const EpochResult& e : reports[r]->epochs_detail)
      if (e.eval) after.push_back(e.after_step);
    EXPECT_EQ(after, (std::vector<std::uint64_t>{3, 6, 9})) << "rank " << r;
  }
  for (std::size_t k = 0; k < 3; ++k) {
    std::multiset<std::uint64_t> eval;
    for (std::uint32_t r = 0; r < n; ++r) {
      std::size_t seen = 0;
      for (const ConsumedPass& p : consumed[r])
        if (p.eval && seen++ == k)
          for (const SampleRef& s : p.samples) eval.insert(s.file);
    }
    EXPECT_EQ(eval, (std::multiset<std::uint64_t>{0, 1, 2, 3, 4, 5, 6})) << "evaluation " << k;
  }
}

// A rank that fails (its checkpoint shard cannot be opened) stops every rank with its message.
TEST(ClusterRun, AFailingRankStopsEveryRankWithItsMessage) {
  TempDir tmp;
  Job job = tiny_job(tmp.path());
  job.checkpoint.enabled = true;
  job.checkpoint.dir = tmp.path() / "ckpt";
  job.checkpoint.size_bytes = 3 << 16;
  job.checkpoint.files = 3;
  job.checkpoint.every_epochs = 1;
  fixture::write_dataset(job.dataset);
  // Shard 1 (rank 1's) is a directory: open(O_WRONLY) fails with EISDIR on rank 1 only.
  std::filesystem::create_directories(checkpoint_paths(job.checkpoint)[1]);
  auto ranks = make_thread_clusters(3, {"h0", "h1", "h2"});
  std::vector<Result<Report>> reports(3, runtime_error("unset"));
  on_ranks(ranks, [&](std::uint32_t r, Cluster& c) {
    RunOptions o;
    o.engine = "pread";
    o.series = false;
    o.cluster = &c;
    reports[r] = run_job(job, o);
  });
  for (std::uint32_t r = 0; r < 3; ++r) {
    ASSERT_FALSE(reports[r]) << "rank " << r;
    EXPECT_EQ(reports[r].error().message.rfind("rank 1 (h1): ", 0), 0u)
        << reports[r].error().message;
    EXPECT_NE(reports[r].error().message.find("directory"), std::string::npos)
        << reports[r].error().message;
  }
}

}  // namespace
}  // namespace dlgen::cluster
