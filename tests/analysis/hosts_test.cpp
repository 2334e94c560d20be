// Runs over several processes and hosts: a DDP run captured one trace per host (each rank's
// process tree on its own host) and merged must summarize as the same run captured whole, with
// each accelerator on its host, and distil to accelerators per host; dlgen's replay of several
// accelerators (threads of one process) must summarize as that many accelerators.
#include <gtest/gtest.h>

#include <set>

#include "dlgen/analysis/distil.hpp"
#include "dlgen/analysis/summary.hpp"
#include "dlgen/trace/merge.hpp"
#include "sim.hpp"
#include "trace_builder.hpp"

namespace dlgen::analysis {
namespace {

using testing::Sim;
using testing::SimConfig;

// Rank r's share of a whole-run trace, as its own host's capture would record it: the processes
// under main pid 100 + 100 r and their events, every file, its clock `late_ns` behind (its
// capture started that much later by the wall clock).
trace::Trace host_trace(const trace::Trace& whole, std::uint32_t rank, std::uint64_t late_ns) {
  std::map<std::uint32_t, std::uint32_t> parent;
  for (const auto& p : whole.processes) parent[p.pid] = p.is_thread ? p.tgid : p.ppid;
  auto rank_of = [&](std::uint32_t pid) -> std::int64_t {
    for (int hops = 0; hops < 16 && pid; ++hops) {
      if (pid == 100 || pid == 200) return (pid - 100) / 100;  // the Sim's two main processes
      auto it = parent.find(pid);
      pid = it == parent.end() ? 0 : it->second;
    }
    return -1;
  };
  trace::Trace t;
  t.meta = whole.meta;
  t.meta.host = "node" + std::to_string(rank);
  t.meta.rank = static_cast<std::int32_t>(rank);
  t.meta.world_size = 2;
  t.meta.start_wall_ns = 1'700'000'000'000'000'000 + static_cast<std::int64_t>(late_ns);
  t.meta.duration_ns = whole.meta.duration_ns - late_ns;
  t.files = whole.files;
  for (auto p : whole.processes)
    if (rank_of(p.pid) == rank) {
      p.start_ns -= std::min(p.start_ns, late_ns);
      if (p.end_ns) p.end_ns -= late_ns;
      t.processes.push_back(p);
    }
  for (auto e : whole.events)
    if (rank_of(e.pid) == rank) {
      EXPECT_GE(e.ts_ns, late_ns);
      e.ts_ns -= late_ns;
      t.events.push_back(e);
    }
  return t;
}

TEST(MultiHost, PerHostTracesMergedSummarizeAsTheWholeRun) {
  SimConfig c;
  c.accelerators = 2;
  c.workers = 2;
  c.files = 32;
  c.batch = 4;
  c.epochs = 3;
  c.order = testing::SimOrder::shuffled;
  c.ckpt_every_epochs = 1;
  c.noise = false;
  const trace::Trace whole = Sim(c).build();
  const TraceSummary a = summarize(whole);
  ASSERT_EQ(a.accelerators.size(), 2u);

  auto merged = trace::merge_host_traces({host_trace(whole, 1, 300'000), host_trace(whole, 0, 0)},
                                         {"run-1.h5", "run-0.h5"});
  ASSERT_TRUE(merged) << merged.error().message;
  const TraceSummary b = summarize(*merged);
  ASSERT_EQ(b.hosts.size(), 2u);
  EXPECT_EQ(b.hosts[0].host, "node0");
  EXPECT_EQ(b.hosts[1].rank, 1);
  EXPECT_EQ(b.hosts[1].source, "run-1.h5");
  ASSERT_EQ(b.accelerators.size(), 2u);
  std::set<std::uint32_t> hosts_used;
  for (const auto& acc : b.accelerators) {
    hosts_used.insert(acc.host);
    EXPECT_EQ(acc.workers, 2u);
    EXPECT_EQ(acc.pid >> trace::kHostPidShift, acc.host);
  }
  EXPECT_EQ(hosts_used, (std::set<std::uint32_t>{0, 1}));
  EXPECT_EQ(b.hosts[0].accelerators, 1u);
  EXPECT_EQ(b.hosts[1].accelerators, 1u);
  // The same run: passes, batches, steps, AU and checkpoints as the whole capture.
  EXPECT_EQ(b.epochs.size(), a.epochs.size());
  EXPECT_EQ(b.batches.size(), a.batches.size());
  EXPECT_EQ(b.steps.size(), a.steps.size());
  EXPECT_EQ(b.batch_size, a.batch_size);
  EXPECT_NEAR(b.au, a.au, 1e-9);
  EXPECT_EQ(b.datasets[0].order.kind, a.datasets[0].order.kind);
  ASSERT_EQ(b.checkpoints.size(), a.checkpoints.size());
  for (std::size_t i = 0; i < a.checkpoints.size(); ++i) {
    EXPECT_EQ(b.checkpoints[i].after_epoch, a.checkpoints[i].after_epoch);
    EXPECT_EQ(b.checkpoints[i].at_epoch_end, a.checkpoints[i].at_epoch_end);
    ASSERT_EQ(b.checkpoints[i].writers.size(), 1u) << "rank 0 alone saves";
    EXPECT_EQ(b.accelerators[b.checkpoints[i].writers[0]].host, 0u);
  }

  // The job runs its accelerators on every host: 1 per host, on 2 hosts.
  const Distilled whole_job = distil(a), per_host = distil(b);
  EXPECT_EQ(whole_job.job.run.accelerators, 2u);
  EXPECT_EQ(per_host.job.run.accelerators, 1u);
  const std::string why = per_host.comments.at("run.accelerators");
  EXPECT_NE(why.find("run on 2 hosts with mpirun -np 2"), std::string::npos) << why;
  EXPECT_NE(why.find("(16,16)"), std::string::npos) << "each rank's share: " << why;
  EXPECT_EQ(per_host.job.reader.batch_size, whole_job.job.reader.batch_size);
  EXPECT_EQ(per_host.job.reader.workers, whole_job.job.reader.workers);
  EXPECT_EQ(per_host.job.run.epochs, whole_job.job.run.epochs);
  EXPECT_EQ(per_host.job.run.max_steps, 0u) << "every file is read each epoch across the hosts";
  EXPECT_EQ(per_host.job.checkpoint.every_epochs, 1u);
  EXPECT_NE(per_host.comments.at("checkpoint.size").find("by 1 of 2 accelerator"),
            std::string::npos);
}

// dlgen's replay with run.accelerators = 2: one process; per accelerator a consumer thread that
// receives batch tokens (recvmsg on its socketpair end) and reader threads that send them; new
// threads every epoch, descriptors reused.
class ReplayShape : public testing::TraceBuilder {
 public:
  trace::Trace build() {
    t_.meta.command = {"dlgen", "run", "job.toml"};
    proc(500, 1, "dlgen", false, 500);
    std::vector<std::uint32_t> files;
    for (int i = 0; i < 32; ++i)
      files.push_back(file("/data/replay/f_" + std::to_string(100 + i) + ".bin", 65536));
    std::uint64_t ts = 10'000'000;
    for (std::uint32_t epoch = 0; epoch < 2; ++epoch) {
      const std::uint32_t base = 510 + 100 * epoch;
      now_ = ts;  // the phase's threads start together
      for (std::uint32_t a = 0; a < 2; ++a) {
        proc(base + a, 500, "dlgen", true, 500);  // consumer
        for (std::uint32_t w = 0; w < 2; ++w) proc(base + 10 + 2 * a + w, 500, "dlgen", true, 500);
      }
      // Each accelerator reads its 16 files in 4 batches of 4, its workers taking turns; the
      // consumers take each batch 1 ms after it is sent and compute 10 ms.
      for (std::uint32_t i = 0; i < 4; ++i) {
        for (std::uint32_t a = 0; a < 2; ++a) {
          const std::uint32_t reader = base + 10 + 2 * a + i % 2;
          for (std::uint32_t k = 0; k < 4; ++k) {
            const std::uint32_t f = files[(epoch * 7 + a * 16 + i * 4 + k) % 32];
            ev(ts, 20'000, 500, reader, trace::Op::open, f, -1, 0, 0, 9);
            ev(ts + 30'000, 100'000, 500, reader, trace::Op::pread, f, 9, 0, 65536, 65536);
            ev(ts + 140'000, 5'000, 500, reader, trace::Op::close, f, 9, 0, 0, 0);
            ts += 200'000;
          }
          ev(ts, 5'000, 500, reader, trace::Op::sendmsg, trace::kNoFile, 3 + 2 * a, 0, 8, 8);
          ev(ts + 1'000'000, 5'000, 500, base + a, trace::Op::recvmsg, trace::kNoFile, 4 + 2 * a, 0,
             8, 8);
        }
        ts += 10'000'000;
      }
      ts += 50'000'000;
    }
    std::stable_sort(
        t_.events.begin(), t_.events.end(),
        [](const trace::Event& x, const trace::Event& y) { return x.ts_ns < y.ts_ns; });
    t_.meta.duration_ns = ts;
    return t_;
  }
};

TEST(ThreadAccelerators, ReplayAcceleratorThreadsAreAcceleratorsEach) {
  const TraceSummary s = summarize(ReplayShape().build());
  ASSERT_EQ(s.accelerators.size(), 2u) << "two consumer threads, each fed by its own readers";
  EXPECT_EQ(s.accelerators[0].readers, (std::vector<std::uint32_t>{520, 521, 620, 621}));
  EXPECT_EQ(s.accelerators[1].readers, (std::vector<std::uint32_t>{522, 523, 622, 623}));
  for (const auto& a : s.accelerators) EXPECT_EQ(a.workers, 2u);
  EXPECT_EQ(s.batch_size, 4u);
  EXPECT_EQ(s.batches.size(), 16u);
  std::map<std::uint32_t, int> per_accelerator;
  for (const auto& b : s.batches) ++per_accelerator[b.accelerator];
  EXPECT_EQ(per_accelerator[0], 8);
  EXPECT_EQ(per_accelerator[1], 8);
  const Distilled d = distil(s);
  EXPECT_EQ(d.job.run.accelerators, 2u);
  // Both accelerators begin every pass within 0.8 ms (one batch's reads): together.
  EXPECT_TRUE(d.job.reader.startup_spread == Distribution{});
  EXPECT_NE(d.comments.at("reader.startup_spread").find("together"), std::string::npos);
}

// The same replay as one rank of `mpirun -np 2 dlgen run --capture` records it: each accelerator's
// share is short (two batches per reader), so its readers send every token before the consumer's
// first receipt (the replay starts the readers first); and MPI's own threads live through the
// whole run, one reading and writing its launcher's socket and exchanging messages with it.
class MpiRankReplayShape : public testing::TraceBuilder {
 public:
  trace::Trace build() {
    t_.meta.command = {"dlgen", "run", "job.toml"};
    t_.meta.rank = 0;
    t_.meta.world_size = 2;
    proc(500, 1, "dlgen", false, 500);
    proc(501, 500, "dlgen", true, 500);  // Open MPI's progress thread
    std::vector<std::uint32_t> files;
    for (int i = 0; i < 32; ++i)
      files.push_back(file("/data/replay/f_" + std::to_string(100 + i) + ".bin", 65536));
    std::uint64_t ts = 10'000'000;
    auto mpi = [&] {  // the launcher channel: a socket read, a writev, a message each way
      ev(ts, 5'000, 500, 501, trace::Op::read, trace::kNoFile, 30, 0, 64, 64);
      ev(ts + 10'000, 5'000, 500, 501, trace::Op::writev, trace::kNoFile, 30, 0, 64, 64);
      ev(ts + 20'000, 5'000, 500, 501, trace::Op::sendmsg, trace::kNoFile, 31, 0, 32, 32);
      ev(ts + 30'000, 5'000, 500, 501, trace::Op::recvmsg, trace::kNoFile, 31, 0, 32, 32);
    };
    mpi();
    ts += 1'000'000;
    for (std::uint32_t epoch = 0; epoch < 3; ++epoch) {
      const std::uint32_t base = 510 + 100 * epoch;
      now_ = ts;  // the phase's threads start together
      for (std::uint32_t a = 0; a < 2; ++a) {
        proc(base + a, 500, "dlgen", true, 500);  // consumer
        for (std::uint32_t w = 0; w < 2; ++w) proc(base + 10 + 2 * a + w, 500, "dlgen", true, 500);
      }
      // Every reader reads and hands over its two batches of 2 files at once ...
      for (std::uint32_t i = 0; i < 4; ++i)
        for (std::uint32_t a = 0; a < 2; ++a) {
          const std::uint32_t reader = base + 10 + 2 * a + i % 2;
          for (std::uint32_t k = 0; k < 2; ++k) {
            const std::uint32_t f = files[(epoch * 5 + a * 8 + i * 2 + k) % 32];
            ev(ts, 20'000, 500, reader, trace::Op::open, f, -1, 0, 0, 9);
            ev(ts + 30'000, 100'000, 500, reader, trace::Op::uring_read, f, 9, 0, 65536, 65536);
            ev(ts + 140'000, 5'000, 500, reader, trace::Op::close, f, 9, 0, 0, 0);
            ts += 200'000;
          }
          ev(ts, 5'000, 500, reader, trace::Op::sendmsg, trace::kNoFile, 3 + 2 * a, 0, 8, 8);
          ts += 10'000;
        }
      // ... then the consumers take one every 10 ms.
      for (std::uint32_t i = 0; i < 4; ++i) {
        for (std::uint32_t a = 0; a < 2; ++a)
          ev(ts + 1'000'000 + a * 100'000, 5'000, 500, base + a, trace::Op::recvmsg, trace::kNoFile,
             4 + 2 * a, 0, 8, 8);
        ts += 10'000'000;
      }
      mpi();  // the epoch's agreement between ranks
      ts += 50'000'000;
    }
    mpi();
    std::stable_sort(
        t_.events.begin(), t_.events.end(),
        [](const trace::Event& x, const trace::Event& y) { return x.ts_ns < y.ts_ns; });
    t_.meta.duration_ns = ts;
    return t_;
  }
};

TEST(ThreadAccelerators, ReadersDoneBeforeTheirConsumerAndMpiThreadsStillPairUp) {
  const TraceSummary s = summarize(MpiRankReplayShape().build());
  ASSERT_EQ(s.accelerators.size(), 2u) << "two consumer threads under MPI, each its own readers";
  EXPECT_EQ(s.accelerators[0].readers, (std::vector<std::uint32_t>{520, 521, 620, 621, 720, 721}));
  EXPECT_EQ(s.accelerators[1].readers, (std::vector<std::uint32_t>{522, 523, 622, 623, 722, 723}));
  EXPECT_EQ(s.batch_size, 2u);
  std::map<std::uint32_t, int> per_accelerator;
  for (const auto& b : s.batches) ++per_accelerator[b.accelerator];
  EXPECT_EQ(per_accelerator[0], 12);
  EXPECT_EQ(per_accelerator[1], 12);
  EXPECT_EQ(distil(s).job.run.accelerators, 2u);
}

// A replay with reader.startup_spread longer than a pass: per epoch accelerator 1's readers begin
// only after accelerator 0 took its last batch; which accelerator starts late alternates. The
// consumers' receipts do not overlap, but the threads were all started at the epoch's start.
class ApartShape : public testing::TraceBuilder {
 public:
  trace::Trace build() {
    t_.meta.command = {"dlgen", "run", "job.toml"};
    proc(500, 1, "dlgen", false, 500);
    std::vector<std::uint32_t> files;
    for (int i = 0; i < 32; ++i)
      files.push_back(file("/data/replay/f_" + std::to_string(100 + i) + ".bin", 65536));
    std::uint64_t ts = 10'000'000;
    for (std::uint32_t epoch = 0; epoch < 3; ++epoch) {
      const std::uint32_t base = 510 + 100 * epoch;
      now_ = ts;
      for (std::uint32_t a = 0; a < 2; ++a) {
        proc(base + a, 500, "dlgen", true, 500);
        for (std::uint32_t w = 0; w < 2; ++w) proc(base + 10 + 2 * a + w, 500, "dlgen", true, 500);
      }
      for (std::uint32_t turn = 0; turn < 2; ++turn) {
        const std::uint32_t a = (epoch + turn) % 2;
        for (std::uint32_t i = 0; i < 4; ++i) {
          const std::uint32_t reader = base + 10 + 2 * a + i % 2;
          for (std::uint32_t k = 0; k < 4; ++k) {
            const std::uint32_t f = files[(epoch * 7 + a * 16 + i * 4 + k) % 32];
            ev(ts, 20'000, 500, reader, trace::Op::open, f, -1, 0, 0, 9);
            ev(ts + 30'000, 100'000, 500, reader, trace::Op::uring_read, f, 9, 0, 65536, 65536);
            ev(ts + 140'000, 5'000, 500, reader, trace::Op::close, f, 9, 0, 0, 0);
            ts += 200'000;
          }
          ev(ts, 5'000, 500, reader, trace::Op::sendmsg, trace::kNoFile, 3 + 2 * a, 0, 8, 8);
          ev(ts + 1'000'000, 5'000, 500, base + a, trace::Op::recvmsg, trace::kNoFile, 4 + 2 * a, 0,
             8, 8);
          ts += 10'000'000;
        }
        ts += 20'000'000;  // the late accelerator's readers start after the early one is done
      }
      ts += 50'000'000;
    }
    std::stable_sort(
        t_.events.begin(), t_.events.end(),
        [](const trace::Event& x, const trace::Event& y) { return x.ts_ns < y.ts_ns; });
    t_.meta.duration_ns = ts;
    return t_;
  }
};

TEST(ThreadAccelerators, AcceleratorsStartingAPassAfterAnotherEndedStayApart) {
  const TraceSummary s = summarize(ApartShape().build());
  ASSERT_EQ(s.accelerators.size(), 2u) << "the threads of a pass are started together";
  EXPECT_EQ(s.accelerators[0].readers, (std::vector<std::uint32_t>{520, 521, 620, 621, 720, 721}));
  EXPECT_EQ(s.accelerators[1].readers, (std::vector<std::uint32_t>{522, 523, 622, 623, 722, 723}));
  for (const auto& a : s.accelerators) EXPECT_EQ(a.workers, 2u);
  // And they began each pass apart: the late one 63.2 ms after the early one (4 steps of 10.8 ms
  // and 20 ms).
  ASSERT_EQ(s.accelerator_starts_s.size(), 3u);
  for (std::size_t p = 0; p < 3; ++p) {
    ASSERT_EQ(s.accelerator_starts_s[p].size(), 2u);
    EXPECT_NEAR(std::max(s.accelerator_starts_s[p][0], s.accelerator_starts_s[p][1]), 0.0632,
                0.002);
    EXPECT_EQ(std::min(s.accelerator_starts_s[p][0], s.accelerator_starts_s[p][1]), 0.0);
  }
  const Distilled d = distil(s);
  EXPECT_EQ(d.job.run.accelerators, 2u);
  EXPECT_NEAR(d.job.reader.startup_spread.expected(), 0.063, 0.001) << "the spread is modelled";
}

}  // namespace
}  // namespace dlgen::analysis
