// MLPerf Storage v2.0's checkpointing rules: the workloads and their references (the shipped
// jobs are the references), the division from what differs, the 10 checkpoints split over the
// runs, per run duration = slowest rank and throughput = slowest rank's rate with their means,
// the 5% agreement, the multi-host seam (ranks of several hosts reduced as one run), DLIO's
// summary.json names, the report files, and a real run of the workflow from a later index.
#include "dlgen/mlperf/mlperf_checkpoint.hpp"

#include <gtest/gtest.h>

#include "dlgen/core/json.hpp"

#include "dlgen/core/job_io.hpp"
#include "dlgen/core/llm.hpp"
#include "temp_dir.hpp"

namespace dlgen::mlperf {
namespace {

using testing::TempDir;

Job reference(const char* w = "llama3-8b") {
  Result<Job> r = mlperf_checkpoint_reference(w);
  EXPECT_TRUE(r) << (r ? "" : r.error().message);
  return r ? *r : Job{};
}

// `ranks` ranks each moving `bytes` per checkpoint; rank k takes seconds[k % size].
std::vector<CheckpointPass> passes(std::uint32_t first, std::uint32_t count, std::uint32_t ranks,
                                   std::uint64_t bytes, const std::vector<double>& seconds,
                                   std::uint32_t first_rank = 0) {
  std::vector<CheckpointPass> out;
  for (std::uint32_t i = 0; i < count; ++i) {
    CheckpointPass p;
    p.index = first + i;
    for (std::uint32_t k = 0; k < ranks; ++k)
      p.ranks.push_back({first_rank + k, bytes, seconds[k % seconds.size()]});
    out.push_back(p);
  }
  return out;
}

// A runner: every rank writes and reads 1000 bytes per checkpoint; run i's slowest rank takes
// slow[i] seconds, the others 1 s. Records what it was asked.
struct Model {
  std::vector<double> slow;
  std::uint32_t ranks = 8;
  std::vector<std::uint32_t> firsts, writes, reads;
  Result<CheckpointRunResult> operator()(const Job& j, std::uint32_t first) {
    const double s = slow[firsts.size() % slow.size()];
    firsts.push_back(first);
    writes.push_back(j.checkpoint.writes);
    reads.push_back(j.checkpoint.reads);
    CheckpointRunResult r;
    r.ranks = ranks;
    r.checkpoint_bytes = 1000ull * ranks;
    std::vector<double> secs(ranks, 1.0);
    secs.back() = s;
    r.writes = passes(first, j.checkpoint.writes, ranks, 1000, secs);
    r.reads = passes(first, j.checkpoint.reads, ranks, 1000, secs);
    r.cache_dropped = true;
    return r;
  }
};

TEST(MlperfCheckpoint, WorkloadsAndReferences) {
  for (const auto& [name, w] :
       std::vector<std::pair<std::string, std::string>>{{"llama3-8b", "llama3-8b"},
                                                        {"llama_70b", "llama3-70b"},
                                                        {"llama3_405b", "llama3-405b"},
                                                        {"llama3-1t", "llama3-1t"},
                                                        {"unet3d", ""},
                                                        {"llama3-13b", ""}}) {
    Job j;
    j.name = name;
    EXPECT_EQ(mlperf_checkpoint_workload(j), w) << name;
  }
  EXPECT_FALSE(mlperf_checkpoint_reference("llama3-13b"));
  // MLPerf's table: 8B 105 "GB" (GiB) over 8 processes, 70B 912 over 64.
  const Job r8 = reference("llama3-8b"), r70 = reference("llama3-70b");
  EXPECT_EQ(r8.model->world(), 8u);
  EXPECT_EQ(r70.model->world(), 64u);
  EXPECT_NEAR(double(checkpoint_bytes(rank_shards(*r8.model))) / (1ull << 30), 104.7, 0.1);
  EXPECT_NEAR(double(checkpoint_bytes(rank_shards(*r70.model))) / (1ull << 30), 911.2, 0.1);
  EXPECT_EQ(r8.checkpoint.writes, 10u);
  EXPECT_EQ(r8.checkpoint.reads, 10u);
  EXPECT_TRUE(r8.checkpoint.fsync);
  // The shipped jobs are the references (their folder and subset mode are CLOSED's freedoms).
  for (const char* w : {"llama3-8b", "llama3-70b", "llama3-405b", "llama3-1t"}) {
    Result<Job> shipped = load_job(std::string(DLGEN_SOURCE_DIR "/jobs/") + w + ".toml");
    ASSERT_TRUE(shipped) << shipped.error().message;
    EXPECT_EQ(mlperf_checkpoint_workload(*shipped), w);
    const DivisionCheck c = check_checkpoint_division(reference(w), *shipped, 10);
    EXPECT_EQ(c.division, Division::closed) << w << ": " << (c.reasons.empty() ? "" : c.reasons[0]);
  }
}

TEST(MlperfCheckpoint, DivisionFollowsWhatChanged) {
  const Job ref = reference("llama3-70b");
  EXPECT_EQ(check_checkpoint_division(ref, ref, 10).division, Division::closed);
  Job j = ref;
  j.checkpoint.dir = "/mnt/fast/ckpt";
  j.checkpoint.mode = CheckpointMode::subset;
  j.checkpoint.ranks_per_host = 8;
  DivisionCheck c = check_checkpoint_division(ref, j, 1);
  EXPECT_EQ(c.division, Division::closed);
  EXPECT_TRUE(c.reasons.empty());

  Job more = ref;
  more.model->data = 16;  // 128 processes: more, in multiples of TP x PP
  c = check_checkpoint_division(ref, more, 10);
  EXPECT_EQ(c.division, Division::open);
  ASSERT_EQ(c.reasons.size(), 1u);
  EXPECT_NE(c.reasons[0].find("allowed in OPEN only"), std::string::npos);
  Job size = ref;
  size.checkpoint.write_size_bytes = 1 << 20;
  EXPECT_EQ(check_checkpoint_division(ref, size, 10).division, Division::open);

  auto invalid = [&](const Job& x, const char* what) {
    const DivisionCheck d = check_checkpoint_division(ref, x, 10);
    EXPECT_EQ(d.division, Division::invalid) << what;
    bool named = false;
    for (const auto& s : d.reasons) named = named || s.find(what) != std::string::npos;
    EXPECT_TRUE(named) << what;
  };
  Job fewer = ref;
  fewer.model->data = 4;
  invalid(fewer, "model.data_parallel");
  Job layers = ref;
  layers.model->num_layers = 2;
  invalid(layers, "model:");
  Job nosync = ref;
  nosync.checkpoint.fsync = false;
  invalid(nosync, "checkpoint.fsync");
  Job twenty = ref;
  twenty.checkpoint.writes = 20;
  invalid(twenty, "checkpoint.writes/reads");
  Job five = ref;
  five.checkpoint.reads = 5;
  invalid(five, "checkpoint.writes/reads");
  // One phase alone is a phase of a split submission (write, flush the cache, read): allowed.
  Job write_phase = ref;
  write_phase.checkpoint.reads = 0;
  EXPECT_EQ(check_checkpoint_division(ref, write_phase, 10).division, Division::closed);
  Job pause = ref;
  pause.checkpoint.pause_s = 0;
  invalid(pause, "checkpoint.pause");
  Job subset4 = ref;
  subset4.checkpoint.mode = CheckpointMode::subset;
  subset4.checkpoint.ranks_per_host = 4;
  invalid(subset4, "checkpoint.ranks_per_host");
  Job nomodel = ref;
  nomodel.model.reset();
  invalid(nomodel, "model: none");
  const Job r8 = reference("llama3-8b");
  Job sub8 = r8;
  sub8.checkpoint.mode = CheckpointMode::subset;
  EXPECT_EQ(check_checkpoint_division(r8, sub8, 10).division, Division::invalid);
}

TEST(MlperfCheckpoint, TenCheckpointsSplitOverTheRunsAndTheirMeans) {
  const Job ref = reference();
  Model m{{1.0, 1.02, 0.98, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0}};
  Result<MlperfCheckpointResult> r = run_mlperf_checkpoint(ref, &ref, std::ref(m));
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->runs.size(), 10u);
  EXPECT_EQ(r->writes_per_run, 1u);
  EXPECT_EQ(r->reads_per_run, 1u);
  for (std::uint32_t i = 0; i < 10; ++i) {
    EXPECT_EQ(m.firsts[i], i + 1);  // every run its own checkpoint, as one combined run
    EXPECT_EQ(m.writes[i], 1u);
    EXPECT_EQ(m.reads[i], 1u);
    EXPECT_EQ(r->runs[i].index, i + 1);
    EXPECT_EQ(r->runs[i].ranks, 8u);
  }
  // Run 2: the slowest rank took 1.02 s: duration is its time, throughput its rate.
  EXPECT_DOUBLE_EQ(r->runs[1].write.duration_s, 1.02);
  EXPECT_DOUBLE_EQ(r->runs[1].write.throughput_bps, 1000 / 1.02);
  EXPECT_DOUBLE_EQ(r->runs[1].write.aggregate_bps, 8000 / 1.02);  // DLIO's: all ranks / duration
  // Run 3: the last rank was the fastest (0.98 s); the slowest rank is another, at 1 s.
  EXPECT_DOUBLE_EQ(r->runs[2].read.duration_s, 1.0);
  EXPECT_DOUBLE_EQ(r->runs[2].read.throughput_bps, 1000.0);
  double sum = 0;
  for (const auto& run : r->runs) {
    sum += run.write.throughput_bps;
    // Laws: the slowest rank's rate x the duration <= one rank's bytes; the aggregate moves all.
    EXPECT_LE(run.write.throughput_bps * run.write.duration_s, 1000 + 1e-9);
    EXPECT_NEAR(run.write.aggregate_bps * run.write.duration_s, 8000, 1e-6);
  }
  EXPECT_DOUBLE_EQ(r->mean_write.throughput_bps, sum / 10);
  EXPECT_EQ(r->mean_write.checkpoints, 10u);
  EXPECT_EQ(r->mean_write.bytes, 80000u);
  EXPECT_NEAR(r->write_deviation,
              (r->mean_write.throughput_bps - 1000 / 1.02) / r->mean_write.throughput_bps, 1e-12);
  EXPECT_TRUE(r->replicated);
  EXPECT_EQ(r->division, Division::closed);
  EXPECT_TRUE(r->reasons.empty());

  // Two runs of five each; one run of all ten (the rules: "may be combined in a single run").
  Model two{{1.0}};
  MlperfCheckpointOptions o;
  o.runs = 2;
  r = run_mlperf_checkpoint(ref, &ref, std::ref(two), o);
  ASSERT_TRUE(r);
  EXPECT_EQ(two.firsts, (std::vector<std::uint32_t>{1, 6}));
  EXPECT_EQ(r->runs[0].write.checkpoints, 5u);
  EXPECT_EQ(r->division, Division::closed);
  // The read phase of a submission that writes and reads apart: 10 read, each run its own.
  Job reads = ref;
  reads.checkpoint.writes = 0;
  Model rd{{1.0}};
  r = run_mlperf_checkpoint(reads, &ref, std::ref(rd));
  ASSERT_TRUE(r);
  EXPECT_EQ(rd.firsts, (std::vector<std::uint32_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  EXPECT_EQ(rd.writes, std::vector<std::uint32_t>(10, 0));
  EXPECT_EQ(r->division, Division::closed);
  EXPECT_EQ(r->mean_write.checkpoints, 0u);
  EXPECT_EQ(r->mean_read.checkpoints, 10u);
  o.runs = 3;  // 10 does not split over 3 runs
  EXPECT_FALSE(run_mlperf_checkpoint(ref, &ref, std::ref(two), o));
  o.runs = 0;
  EXPECT_FALSE(run_mlperf_checkpoint(ref, &ref, std::ref(two), o));
}

TEST(MlperfCheckpoint, RunsThatDisagreeOrUnknownWorkloadsAreInvalid) {
  const Job ref = reference();
  Model spread{{1.0, 1.0, 1.0, 1.0, 1.3, 1.0, 1.0, 1.0, 1.0, 1.0}};
  Result<MlperfCheckpointResult> r = run_mlperf_checkpoint(ref, &ref, std::ref(spread));
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->replicated);
  EXPECT_GT(r->write_deviation, 0.05);
  EXPECT_EQ(r->division, Division::invalid);
  ASSERT_FALSE(r->reasons.empty());
  EXPECT_NE(r->reasons[0].find("runs disagree: write"), std::string::npos) << r->reasons[0];

  Model fine{{1.0}};
  Job other = ref;
  other.name = "my-llm";
  r = run_mlperf_checkpoint(other, nullptr, std::ref(fine));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->division, Division::invalid);
  EXPECT_NE(r->reasons[0].find("information only"), std::string::npos);
  Job training = ref;
  training.run.train = true;
  EXPECT_FALSE(run_mlperf_checkpoint(training, &ref, std::ref(fine)));
}

// The multi-host seam: two hosts' ranks of one run reduce as eight ranks of one host would.
TEST(MlperfCheckpoint, RanksOfSeveralHostsReduceAsOneRun) {
  CheckpointRunResult a, b;
  a.ranks = b.ranks = 4;
  a.checkpoint_bytes = b.checkpoint_bytes = 4000;
  a.writes = passes(1, 2, 4, 1000, {1.0, 1.0, 2.0, 1.0}, 0);
  b.writes = passes(1, 2, 4, 1000, {0.5, 4.0, 1.0, 1.0}, 4);
  a.reads = passes(1, 2, 4, 1000, {1.0}, 0);
  b.reads = passes(1, 2, 4, 1000, {0.5}, 4);
  a.cache_dropped = true;
  b.cache_dropped = false;
  a.ram_bytes = 100;
  b.ram_bytes = 200;
  a.cache_note = b.cache_note = "(each host's own)";
  a.hosts = {HostShare{"node1", 0, 4, 4000, 4, 100, true}};
  b.hosts = {HostShare{"node2", 4, 4, 4000, 4, 200, false}};
  // Host b's records first: the merge puts every checkpoint's ranks in rank order.
  const CheckpointRunResult m = merge_rank_results({b, a});
  EXPECT_EQ(m.ranks, 8u);
  EXPECT_EQ(m.checkpoint_bytes, 8000u);
  EXPECT_EQ(m.ram_bytes, 300u);   // the clients' RAM together
  EXPECT_FALSE(m.cache_dropped);  // one host kept its cache
  EXPECT_NE(m.cache_note.find("not dropped on node2"), std::string::npos) << m.cache_note;
  ASSERT_EQ(m.hosts.size(), 2u);
  EXPECT_EQ(m.hosts[0].host, "node2");
  for (const auto* phase : {&m.writes, &m.reads})
    for (const CheckpointPass& p : *phase)
      for (std::size_t k = 0; k < p.ranks.size(); ++k) EXPECT_EQ(p.ranks[k].rank, k);
  ASSERT_EQ(m.writes.size(), 2u);
  EXPECT_EQ(m.writes[0].ranks.size(), 8u);
  const MlperfCheckpointRun run = reduce_checkpoint_run(m, 1);
  EXPECT_EQ(run.ranks, 8u);
  EXPECT_DOUBLE_EQ(run.write.duration_s, 4.0);        // host b's rank 5: the slowest of all
  EXPECT_DOUBLE_EQ(run.write.throughput_bps, 250.0);  // its rate: 1000 B / 4 s
  EXPECT_DOUBLE_EQ(run.write.aggregate_bps, 2000.0);  // 8000 B / 4 s
  EXPECT_EQ(run.write.bytes, 16000u);
  EXPECT_DOUBLE_EQ(run.read.duration_s, 1.0);
  EXPECT_DOUBLE_EQ(run.read.throughput_bps, 1000.0);
  // Reduced from one host alone, the figures are that host's.
  EXPECT_DOUBLE_EQ(reduce_checkpoint_run(a, 1).write.duration_s, 2.0);
  EXPECT_EQ(merge_rank_results({}).ranks, 0u);
}

TEST(MlperfCheckpoint, ReportFilesAndDlioSummary) {
  const Job ref = reference();
  Model m{{1.0, 1.01}};
  Result<MlperfCheckpointResult> r = run_mlperf_checkpoint(ref, &ref, std::ref(m));
  ASSERT_TRUE(r);
  const auto j = nlohmann::json::parse(mlperf_checkpoint_json(*r));
  EXPECT_EQ(j["division"], "CLOSED");
  EXPECT_EQ(j["benchmark"], "checkpointing");
  EXPECT_EQ(j["runs"].size(), 10u);
  EXPECT_DOUBLE_EQ(j["mean"]["write"]["throughput_bytes_per_s"].get<double>(),
                   r->mean_write.throughput_bps);
  const std::string csv = mlperf_checkpoint_csv(*r);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 12);  // header, 10 runs, mean
  const std::string html = mlperf_checkpoint_html(*r);
  EXPECT_NE(html.find("<p class='verdict'>CLOSED</p>"), std::string::npos);
  EXPECT_EQ(std::count(html.begin(), html.end(), '<'), std::count(html.begin(), html.end(), '>'));
  EXPECT_EQ(std::count(html.begin(), html.end(), '\n'), 1);
  EXPECT_NE(html.find("<svg"), std::string::npos);

  // DLIO's summary.json: its names, GiB (2^30), io = all ranks' bytes / duration.
  CheckpointRunResult one;
  one.ranks = 2;
  one.checkpoint_bytes = 3ull << 30;
  one.writes = {CheckpointPass{1, {{0, 1ull << 30, 1.0}, {1, 2ull << 30, 2.0}}},
                CheckpointPass{2, {{0, 1ull << 30, 0.5}, {1, 2ull << 30, 1.0}}}};
  one.reads = {CheckpointPass{1, {{0, 1ull << 30, 0.25}, {1, 2ull << 30, 0.5}}}};
  DlioCheckpointContext ctx;
  ctx.host_memory_gib = 24;
  const auto s = nlohmann::json::parse(dlio_checkpoint_summary_json(one, ctx));
  const auto& mt = s["metric"];
  EXPECT_DOUBLE_EQ(mt["checkpoint_size_GB"].get<double>(), 3.0);
  EXPECT_DOUBLE_EQ(mt["save_checkpoint_duration_mean_seconds"].get<double>(), 1.5);
  EXPECT_DOUBLE_EQ(mt["save_checkpoint_io_mean_GB_per_second"].get<double>(), (1.5 + 3.0) / 2);
  EXPECT_DOUBLE_EQ(mt["save_checkpoint_io_stdev_GB_per_second"].get<double>(), 0.75);
  EXPECT_DOUBLE_EQ(mt["load_checkpoint_io_mean_GB_per_second"].get<double>(), 6.0);
  EXPECT_DOUBLE_EQ(mt["load_checkpoint_duration_stdev_seconds"].get<double>(), 0.0);
  EXPECT_EQ(s["num_accelerators"], 2);
  EXPECT_DOUBLE_EQ(s["host_memory_GB"][0].get<double>(), 24);
  // Slowest rank: 1 GiB/s in checkpoint 1, 2 GiB/s in checkpoint 2.
  EXPECT_DOUBLE_EQ(s["dlgen"]["save_checkpoint_slowest_rank_mean_GiB_per_second"].get<double>(),
                   1.5);
  const auto e = nlohmann::json::parse(dlio_checkpoint_epoch_stats_json(one));
  EXPECT_EQ(e["1"]["save_ckpt2"]["duration"], "1.00");
  EXPECT_DOUBLE_EQ(e["1"]["load_ckpt1"]["throughput"].get<double>(), 6.0);
}

// The workflow itself from a later index, with a given RAM: runs of the rules do not overwrite
// each other's checkpoints, and the cache rule takes the RAM it is given.
TEST(MlperfCheckpoint, WorkflowRunsFromALaterCheckpointIndex) {
  TempDir tmp("dlgen-mlck");
  const std::string toml =
      "[job]\nname = \"tiny\"\n[checkpoint]\nwrites = 1\nreads = 1\nwrite_size = \"64KiB\"\n"
      "dir = \"" +
      (tmp / "ck").string() +
      "\"\n[run]\ntrain = false\n[model]\nnum_layers = 2\nhidden_size = 64\nffn_hidden_size = "
      "128\nvocab_size = 100\nattention_heads = 4\nkv_heads = 2\ndata_parallel = 2\n"
      "zero_stage = 3\n";
  Result<Job> job = parse_job(toml, "tiny.toml");
  ASSERT_TRUE(job) << job.error().message;
  CheckpointRunOptions o;
  o.first_index = 4;
  o.ram_bytes = 1;  // 1 byte of RAM: the data is over 3x it, so the cache is kept
  Result<CheckpointRunResult> r = run_checkpoint_workflow(*job, o);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->writes.size(), 1u);
  ASSERT_EQ(r->reads.size(), 1u);
  EXPECT_EQ(r->writes[0].index, 4u);
  EXPECT_EQ(r->reads[0].index, 4u);
  EXPECT_EQ(r->ram_bytes, 1u);
  EXPECT_FALSE(r->cache_dropped);
  EXPECT_TRUE(std::filesystem::exists(tmp / "ck/global_epoch1_step4"));
  EXPECT_FALSE(std::filesystem::exists(tmp / "ck/global_epoch1_step1"));
  EXPECT_EQ(pass_figures(r->reads[0]).bytes, r->checkpoint_bytes);
}

}  // namespace
}  // namespace dlgen::mlperf
