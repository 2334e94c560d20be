// Multi-host traces: the MPI rank from the environment, per-rank trace names, the rank and world
// size stored in the file, and merging one trace per host into one.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "dlgen/trace/merge.hpp"
#include "dlgen/trace/trace_io.hpp"
#include "dlgen/trace/trace_text.hpp"
#include "temp_dir.hpp"

namespace dlgen::trace {
namespace {

LaunchRank rank_from(std::map<std::string, std::string> vars) {
  return launch_rank([&](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  });
}

TEST(LaunchRank, ReadsOpenMpiPmixAndPmi) {
  EXPECT_EQ(rank_from({}).rank, -1);
  auto ompi = rank_from({{"OMPI_COMM_WORLD_RANK", "2"}, {"OMPI_COMM_WORLD_SIZE", "3"}});
  EXPECT_EQ(ompi.rank, 2);
  EXPECT_EQ(ompi.world_size, 3);
  auto pmix = rank_from({{"PMIX_RANK", "1"}});
  EXPECT_EQ(pmix.rank, 1);
  EXPECT_EQ(pmix.world_size, 0);
  auto pmi = rank_from({{"PMI_RANK", "4"}, {"PMI_SIZE", "8"}});
  EXPECT_EQ(pmi.rank, 4);
  EXPECT_EQ(pmi.world_size, 8);
  EXPECT_EQ(rank_from({{"OMPI_COMM_WORLD_RANK", "x1"}}).rank, -1) << "not a number: ignored";
  EXPECT_EQ(rank_from({{"OMPI_COMM_WORLD_RANK", "5"}, {"OMPI_COMM_WORLD_SIZE", "2"}}).world_size, 0)
      << "a size that cannot hold the rank is unknown";
}

TEST(ExpandTracePath, RankHostAndPercent) {
  LaunchRank r{3, 4};
  EXPECT_EQ(*expand_trace_path("t-%r.h5", r, "node7"), "t-3.h5");
  EXPECT_EQ(*expand_trace_path("%h/t-%r-%%.h5", r, "node7"), "node7/t-3-%.h5");
  EXPECT_EQ(*expand_trace_path("t-%h.h5", r, "node7"), "t-node7.h5");
  EXPECT_EQ(*expand_trace_path("plain.h5", LaunchRank{}, "n"), "plain.h5");
  EXPECT_EQ(*expand_trace_path("one.h5", LaunchRank{0, 1}, "n"), "one.h5") << "mpirun -np 1";
}

TEST(ExpandTracePath, RefusesWhatWouldCollideOrCannotBeFilled) {
  auto no_mpi = expand_trace_path("t-%r.h5", LaunchRank{}, "n");
  ASSERT_FALSE(no_mpi);
  EXPECT_NE(no_mpi.error().message.find("not started by mpirun"), std::string::npos);
  EXPECT_EQ(no_mpi.error().exit_code(), 2);
  auto shared = expand_trace_path("t.h5", LaunchRank{1, 2}, "n");
  ASSERT_FALSE(shared);
  EXPECT_NE(shared.error().message.find("put %r"), std::string::npos) << shared.error().message;
  auto unknown = expand_trace_path("t-%x.h5", LaunchRank{1, 2}, "n");
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message.find("%x"), std::string::npos);
}

TEST(TraceRank, StoredInTheFileAndAbsentInOlderOnes) {
  dlgen::testing::TempDir dir("merge");
  auto t = parse_trace_text(
      "meta command=\"python3 t.py\" host=node1 rank=1 world_size=2 duration=1ms\n"
      "ts=0 op=open file=/d/a fd=3 ret=3\n");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->meta.rank, 1);
  ASSERT_TRUE(write_trace(dir / "r.h5", *t));
  auto back = read_trace_in_process(dir / "r.h5");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->meta.rank, 1);
  EXPECT_EQ(back->meta.world_size, 2);
  EXPECT_EQ(back->meta.host, "node1");
  EXPECT_NE(format_trace_text(*back).find("rank=1 world_size=2"), std::string::npos);
  // A trace without the attributes (written before them, or not under MPI) reads as rank -1.
  auto plain = parse_trace_text("meta host=node1 duration=1ms\nts=0 op=open file=/d/a ret=3\n");
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->meta.rank, -1);
  EXPECT_EQ(format_trace_text(*plain).find("rank="), std::string::npos);
}

// Two hosts of one run: the same pids on each (separate pid spaces), the same dataset path, host
// 1 started 2 ms after host 0 by the wall clock.
const char* kHost0 = R"(
meta command="python3 train.py" host=node0 rank=0 world_size=2 start_wall=1000000000 duration=10ms
proc pid=100 ppid=1 comm=python3 start=0
proc pid=101 ppid=100 comm=python3 start=1ms
ts=1ms pid=100 op=fork arg=101
ts=2ms pid=101 op=open file=/data/a fd=5 ret=5
ts=3ms pid=101 op=read file=/data/a fd=5 size=4096
ts=4ms pid=100 op=write file=/ckpt/e1.pt size=1MiB
)";
const char* kHost1 = R"(
meta command="python3 train.py" host=node1 rank=1 world_size=2 start_wall=1002000000 duration=9ms lost=3 lost_ring_buffer=3
file path=/data/b size=8192
file path=/data/a size=4096
proc pid=100 ppid=1 comm=python3 start=0 end=9ms
proc pid=102 tgid=100 comm=python3 start=1ms
ts=1ms pid=100 tid=102 op=open file=/data/b fd=5 ret=5
ts=2ms pid=100 tid=102 op=read file=/data/b fd=5 size=8192
ts=5ms pid=100 op=read file=/data/a fd=6 size=4096
)";

Trace parsed(const char* text) {
  auto t = parse_trace_text(text);
  if (!t) {
    ADD_FAILURE() << t.error().message;
    return {};
  }
  return std::move(*t);
}

TEST(MergeHostTraces, KeepsHostsApartOnOneClockWithFilesByPath) {
  // Given out of rank order: merged in rank order.
  auto m = merge_host_traces({parsed(kHost1), parsed(kHost0)}, {"b.h5", "a.h5"});
  ASSERT_TRUE(m) << m.error().message;
  ASSERT_EQ(m->hosts.size(), 2u);
  EXPECT_EQ(m->hosts[0].host, "node0");
  EXPECT_EQ(m->hosts[0].source, "a.h5");
  EXPECT_EQ(m->hosts[1].rank, 1);
  EXPECT_EQ(m->hosts[0].pid_base, 0u);
  EXPECT_EQ(m->hosts[1].pid_base, 1u << kHostPidShift);
  EXPECT_EQ(m->hosts[1].offset_ns, 2'000'000u);
  // Processes: host 0's pids unchanged, host 1's moved (pid 100 on both hosts stays two).
  std::set<std::uint32_t> pids;
  for (const auto& p : m->processes) pids.insert(p.pid);
  const std::uint32_t b = 1u << kHostPidShift;
  EXPECT_EQ(pids, (std::set<std::uint32_t>{100, 101, b + 100, b + 102}));
  for (const auto& p : m->processes)
    if (p.pid == b + 102) {
      EXPECT_EQ(p.tgid, b + 100);
      EXPECT_EQ(p.start_ns, 3'000'000u) << "host 1's 1 ms is 3 ms on the merged clock";
    } else if (p.pid == b + 100) {
      EXPECT_EQ(p.ppid, 1u + b) << "a ppid outside the tree moves too (it is that host's)";
      EXPECT_EQ(p.end_ns, 11'000'000u);
    } else {
      EXPECT_LT(p.pid, b);
    }
  // Files by path: /data/a is one file, read on both hosts.
  std::map<std::string, int> paths;
  for (const auto& f : m->files) ++paths[f.path];
  EXPECT_EQ(paths["/data/a"], 1);
  EXPECT_EQ(m->files.size(), 3u);
  std::set<std::uint32_t> readers_of_a;
  for (const auto& e : m->events)
    if (e.file != kNoFile && m->files[e.file].path == "/data/a" && e.op == Op::read)
      readers_of_a.insert(e.pid);
  EXPECT_EQ(readers_of_a, (std::set<std::uint32_t>{101, b + 100}));
  // Events: on one clock, in time order; fork's child pid moved with its host (host 0: same).
  for (std::size_t i = 1; i < m->events.size(); ++i)
    EXPECT_LE(m->events[i - 1].ts_ns, m->events[i].ts_ns);
  bool saw_b_read = false;
  for (const auto& e : m->events) {
    if (e.op == Op::fork) {
      EXPECT_EQ(e.arg, 101u);
    }
    if (e.pid == b + 100 && e.op == Op::read && m->files[e.file].path == "/data/b") {
      EXPECT_EQ(e.ts_ns, 4'000'000u);
      EXPECT_EQ(e.tid, b + 102);
      saw_b_read = true;
    }
  }
  EXPECT_TRUE(saw_b_read);
  // Metadata.
  EXPECT_EQ(m->meta.host, "node0,node1");
  EXPECT_EQ(m->meta.duration_ns, 11'000'000u) << "host 1: 2 ms late, 9 ms long";
  EXPECT_EQ(m->meta.lost_events, 3u);
  EXPECT_EQ(m->meta.lost.ring_buffer, 3u);
  EXPECT_EQ(m->meta.start_wall_ns, 1'000'000'000);
}

// A host's HTTP requests move with its threads and clock, their bodies' bursts too.
TEST(MergeHostTraces, HttpRequestsAndTheirBurstsMoveWithTheirHost) {
  Trace host1 = parsed(kHost1);
  auto get = parse_trace_text(
      "http pid=100 tid=102 method=GET path=/b/s.tar status=200 length=100 ts=6ms first=6.1ms "
      "last=8ms burst=6.5ms-7ms@0+60 burst=7.5ms-8ms@60+40\n");
  ASSERT_TRUE(get) << get.error().message;
  host1.http = get->http;
  auto m = merge_host_traces({parsed(kHost0), std::move(host1)}, {"a.h5", "b.h5"});
  ASSERT_TRUE(m) << m.error().message;
  ASSERT_EQ(m->http.size(), 1u);
  const HttpRequest& r = m->http[0];
  EXPECT_EQ(r.tid, (1u << kHostPidShift) + 102);
  EXPECT_EQ(r.request_ns, 8'000'000u);
  const std::vector<HttpBurst> body = {{8'500'000, 9'000'000, 0, 60},
                                       {9'500'000, 10'000'000, 60, 40}};
  EXPECT_EQ(r.body, body);
}

TEST(MergeHostTraces, OneTraceIsItselfAndBadSetsAreRefused) {
  auto one = merge_host_traces({parsed(kHost0)}, {"a.h5"});
  ASSERT_TRUE(one);
  EXPECT_TRUE(one->hosts.empty());
  EXPECT_EQ(one->processes.size(), 2u);
  EXPECT_FALSE(merge_host_traces({}, {}));
  auto twice = merge_host_traces({parsed(kHost0), parsed(kHost0)}, {"a.h5", "a2.h5"});
  ASSERT_FALSE(twice);
  EXPECT_NE(twice.error().message.find("same capture"), std::string::npos);
  Trace late = parsed(kHost1);
  late.meta.start_wall_ns += 3 * 86400ll * 1'000'000'000;
  auto apart = merge_host_traces({parsed(kHost0), late}, {"a.h5", "b.h5"});
  ASSERT_FALSE(apart);
  EXPECT_NE(apart.error().message.find("b.h5 starts"), std::string::npos);
  Trace big = parsed(kHost1);
  big.processes[0].pid = 1u << 22;
  EXPECT_FALSE(merge_host_traces({parsed(kHost0), big}, {"a.h5", "b.h5"}));
}

TEST(MergeHostTraces, WithoutWallClocksTracesStartTogether) {
  Trace a = parsed(kHost0), b = parsed(kHost1);
  b.meta.start_wall_ns = 0;
  auto m = merge_host_traces({a, b}, {"a.h5", "b.h5"});
  ASSERT_TRUE(m);
  EXPECT_EQ(m->hosts[1].offset_ns, 0u);
}

}  // namespace
}  // namespace dlgen::trace
