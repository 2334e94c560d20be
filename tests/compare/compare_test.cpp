// The comparison over Profiles: distances, verdicts, tolerances, the originals' spread and the metric
// table (the renderings: compare_report_test.cpp).
#include "dlgen/compare/compare.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include "dlgen/core/json.hpp"
#include <random>
#include <regex>

#include "dlgen/compare/stats.hpp"
#include "profiles.hpp"
#include "temp_dir.hpp"

namespace dlgen::compare {
namespace {

using namespace dlgen::compare::profiles;

TEST(Stats, KsDistance) {
  EXPECT_DOUBLE_EQ(ks_distance({1, 2, 3}, {1, 2, 3}), 0.0);
  EXPECT_DOUBLE_EQ(ks_distance({1, 2, 3}, {10, 20}), 1.0);
  EXPECT_DOUBLE_EQ(ks_distance({1, 2, 3, 4}, {3, 4, 5, 6}), 0.5);
  EXPECT_DOUBLE_EQ(ks_distance({}, {}), 0.0);
  EXPECT_DOUBLE_EQ(ks_distance({1}, {}), 1.0);
  // Ties across the samples must not count as a gap.
  EXPECT_DOUBLE_EQ(ks_distance({5, 5, 5}, {5}), 0.0);
}

TEST(Stats, Wasserstein) {
  EXPECT_DOUBLE_EQ(wasserstein_distance({1, 2, 3}, {1, 2, 3}), 0.0);
  EXPECT_NEAR(wasserstein_distance({1, 2, 3}, {11, 12, 13}), 10.0, 1e-9);
  EXPECT_NEAR(wasserstein_distance({0, 0}, {0, 4}), 2.0, 1e-9);
}

TEST(Stats, WeightedKsAndQuantile) {
  EXPECT_DOUBLE_EQ(ks_distance_weighted({{1, 1}, {2, 1}}, {{1, 5}, {2, 5}}), 0.0);
  EXPECT_NEAR(ks_distance_weighted({{1, 3}, {2, 1}}, {{1, 1}, {2, 3}}), 0.5, 1e-12);
  EXPECT_DOUBLE_EQ(quantile({4, 1, 3, 2, 5}, 0.5), 3.0);
  EXPECT_DOUBLE_EQ(quantile({1, 2}, 0.5), 1.5);
  Histogram h = log2_histogram({1000, 1024, 4096, 5000}, 9, 13);
  ASSERT_EQ(h.counts.size(), 4u);
  EXPECT_EQ(h.counts[0], 1);  // [512, 1024)
  EXPECT_EQ(h.counts[1], 1);  // [1024, 2048)
  EXPECT_EQ(h.counts[3], 2);  // [4096, 8192)
}

TEST(Compare, SelfComparisonPassesWithZeroDistance) {
  Profile p = baseline();
  Comparison c = compare(p, p, Tolerances{});
  EXPECT_TRUE(c.pass());
  EXPECT_EQ(c.failures(), 0u);
  for (const auto& m : c.metrics) {
    EXPECT_NE(m.verdict, Verdict::fail) << m.name;
    EXPECT_EQ(m.distance, 0.0) << m.name;
  }
  EXPECT_EQ(c.epochs.size(), 2u);
  // Every known metric appears once.
  EXPECT_EQ(c.metrics.size(), metric_defs().size());
}

// AU (the same definition on both sides, docs/metrics.md) is compared as an absolute difference:
// within 0.05 passes, beyond fails, and a side without steps cannot be judged. It shows in the
// table, the JSON and the HTML like every metric.
TEST(Compare, AuIsJudgedByItsAbsoluteDifference) {
  Profile b = baseline();
  b.au = 0.66;
  Comparison c = compare(baseline(), b, Tolerances{});
  const MetricResult& near = metric(c, "au");
  EXPECT_EQ(near.verdict, Verdict::pass);
  EXPECT_NEAR(near.distance, 0.04, 1e-12);
  EXPECT_DOUBLE_EQ(near.original, 0.62);
  EXPECT_DOUBLE_EQ(near.replay, 0.66);
  EXPECT_EQ(near.unit, "fraction");

  b.au = 0.55;  // the replay kept its accelerators less busy than the original run did
  c = compare(baseline(), b, Tolerances{});
  EXPECT_EQ(metric(c, "au").verdict, Verdict::fail);
  EXPECT_FALSE(c.pass());
  EXPECT_NE(format_table(c).find("au"), std::string::npos);
  const auto j = nlohmann::json::parse(to_json(c));
  bool found = false;
  for (const auto& m : j["metrics"])
    if (m["name"] == "au") {
      found = true;
      EXPECT_EQ(m["verdict"], "FAIL");
      EXPECT_NEAR(m["replay"].get<double>(), 0.55, 1e-12);
    }
  EXPECT_TRUE(found) << j["metrics"].dump();
  EXPECT_NE(to_html(c, "t").find(">au<"), std::string::npos);

  b.au_measured = false;
  c = compare(baseline(), b, Tolerances{});
  EXPECT_EQ(metric(c, "au").verdict, Verdict::skipped);
  EXPECT_NE(metric(c, "au").note.find("replay"), std::string::npos);
}

// The original's AU measured on the GPU (a trace with CUDA events; docs/metrics.md) is said beside
// the AU row, never judged; without it nothing is said.
TEST(Compare, OriginalsGpuAuIsSaidBesideTheAuRow) {
  Profile a = baseline(), b = baseline();
  b.au = 0.60;
  Comparison plain = compare(a, b, Tolerances{});
  EXPECT_EQ(format_table(plain).find("measured on the GPU"), std::string::npos);
  a.au_gpu_measured = true;
  a.au_gpu = 0.91;
  const Comparison c = compare(a, b, Tolerances{});
  EXPECT_EQ(metric(c, "au").verdict, metric(plain, "au").verdict);
  EXPECT_EQ(c.pass(), plain.pass());
  const std::string text = format_table(c);
  EXPECT_NE(text.find("original AU measured on the GPU (CUDA): 0.910; emulated AU of the original "
                      "from its compute gaps: 0.620; replay: 0.600"),
            std::string::npos)
      << text;
  const auto j = nlohmann::json::parse(to_json(c));
  EXPECT_DOUBLE_EQ(j["original"]["au"]["gpu"].get<double>(), 0.91);
  EXPECT_TRUE(j["replay"]["au"]["gpu"].is_null());
}

TEST(Compare, FewerWorkersFailsOnReaders) {
  Profile b = baseline();
  b.readers = 1;
  b.inflight = {{0, 2.0}, {1, 4.0}};
  Comparison c = compare(baseline(), b, Tolerances{});
  EXPECT_FALSE(c.pass());
  EXPECT_EQ(metric(c, "readers").verdict, Verdict::fail);
  EXPECT_EQ(metric(c, "inflight").verdict, Verdict::fail);
}

TEST(Compare, NoShuffleFailsOnOrder) {
  Profile b = baseline();
  b.order_vs_path = 1.0;
  b.epoch_order_similarity = 1.0;
  Comparison c = compare(baseline(), b, Tolerances{});
  EXPECT_EQ(metric(c, "order_vs_path").verdict, Verdict::fail);
  EXPECT_EQ(metric(c, "reshuffle").verdict, Verdict::fail);
  EXPECT_EQ(metric(c, "bytes_read").verdict, Verdict::pass);
}

// Two faithful shuffles of 100 files differ by up to ~0.3 by chance (spread sqrt(2/99) = 0.14):
// the order rows' tolerance is raised to 3.5 spreads (0.50), and an unshuffled order still fails.
TEST(Compare, OrderRowsAllowTheSamplingNoiseOfTheirFileCount) {
  Profile a = baseline(), b = baseline();
  a.epoch_order_similarity = 0.168, b.epoch_order_similarity = -0.133;  // seen: pt, 96 files
  a.order_vs_path = -0.15, b.order_vs_path = 0.17;
  Comparison c = compare(a, b, Tolerances{});
  EXPECT_EQ(metric(c, "reshuffle").verdict, Verdict::pass);
  EXPECT_EQ(metric(c, "order_vs_path").verdict, Verdict::pass);
  EXPECT_NEAR(metric(c, "reshuffle").tolerance, 3.5 * std::sqrt(2.0 / 99), 1e-9);
  EXPECT_NE(metric(c, "reshuffle").note.find("100 files"), std::string::npos);
  // A tolerance the user set is kept.
  Tolerances strict;
  strict.values["reshuffle"] = 0.3;
  EXPECT_EQ(metric(compare(a, b, strict), "reshuffle").verdict, Verdict::fail);
  // With many files the default stands: 0.30 from 273 files an epoch.
  for (auto* p : {&a, &b})
    for (auto& e : p->epochs) e.files_read = 1000;
  EXPECT_DOUBLE_EQ(metric(compare(a, b, Tolerances{}), "reshuffle").tolerance, 0.30);
  EXPECT_EQ(metric(compare(a, b, Tolerances{}), "reshuffle").verdict, Verdict::fail);
}

// A best-model copy (shutil.copyfile: sendfile) is a checkpoint step of its own: a replay that
// leaves it out fails checkpoint_copy; neither copying skips the row.
TEST(Compare, CheckpointCopiesAreJudgedOnTheirOwnRow) {
  Profile a = baseline(), b = baseline();
  EXPECT_EQ(metric(compare(a, b, Tolerances{}), "checkpoint_copy").verdict, Verdict::skipped);
  a.checkpoint_copy_bytes = b.checkpoint_copy_bytes = 8 << 20;
  EXPECT_EQ(metric(compare(a, b, Tolerances{}), "checkpoint_copy").verdict, Verdict::pass);
  b.checkpoint_copy_bytes = 0;
  const Comparison c = compare(a, b, Tolerances{});
  EXPECT_EQ(metric(c, "checkpoint_copy").verdict, Verdict::fail);
  EXPECT_EQ(metric(c, "checkpoint_size").verdict, Verdict::pass) << "the writes are the same";
}

// Two checkpoint-only runs read no dataset: duration and throughput are not measurable (SKIP,
// said why), the checkpoint rows judge them.
TEST(Compare, RunsReadingNoDatasetSkipDataTime) {
  Profile a = baseline();
  a.epochs.clear();
  a.bytes_read = a.files_read = a.read_ops = 0;
  a.duration_s = 0.14;
  Profile b = a;
  b.duration_s = 0.36;
  const Comparison c = compare(a, b, Tolerances{});
  EXPECT_EQ(metric(c, "duration").verdict, Verdict::skipped);
  EXPECT_EQ(metric(c, "throughput").verdict, Verdict::skipped);
  EXPECT_NE(metric(c, "duration").note.find("no dataset read"), std::string::npos);
  EXPECT_EQ(metric(c, "checkpoint_size").verdict, Verdict::pass);
  // One side reading data is still judged.
  b.bytes_read = 1 << 20;
  EXPECT_NE(metric(compare(a, b, Tolerances{}), "duration").verdict, Verdict::skipped);
}

// Data read besides the dataset (a mask per sample) that the replay does not read fails
// other_bytes_read when it is 5% or more of the dataset's bytes; a small label file does not.
TEST(Compare, OtherDataReadIsJudgedAgainstTheDatasetBytes) {
  Profile a = baseline(), b = baseline();
  EXPECT_EQ(metric(compare(a, b, Tolerances{}), "other_bytes_read").verdict, Verdict::skipped);
  a.other_bytes_read = 0.18 * a.bytes_read;  // masks: 18% of the images' bytes
  Comparison c = compare(a, b, Tolerances{});
  EXPECT_EQ(metric(c, "other_bytes_read").verdict, Verdict::fail);
  EXPECT_NEAR(metric(c, "other_bytes_read").distance, 0.18, 1e-9);
  a.other_bytes_read = 0.01 * a.bytes_read;  // a label file
  EXPECT_EQ(metric(compare(a, b, Tolerances{}), "other_bytes_read").verdict, Verdict::pass);
}

TEST(Compare, HalfTheFilesFailsOnVolume) {
  Profile b = baseline();
  b.files_read /= 2;
  b.bytes_read /= 2;
  b.read_ops /= 2;
  b.opens /= 2;
  for (auto& e : b.epochs) e.files_read /= 2, e.bytes_read /= 2, e.steps /= 2;
  b.step_times_s.resize(b.step_times_s.size() / 2);
  Comparison c = compare(baseline(), b, Tolerances{});
  EXPECT_EQ(metric(c, "files_read").verdict, Verdict::fail);
  EXPECT_EQ(metric(c, "bytes_read").verdict, Verdict::fail);
  EXPECT_EQ(metric(c, "epoch_bytes_read").verdict, Verdict::fail);
  EXPECT_EQ(metric(c, "steps").verdict, Verdict::fail);
  EXPECT_NEAR(metric(c, "files_read").distance, 0.5, 1e-12);
}

// A step whose interval held a checkpoint is left out of the step times but is a step taken:
// one side's checkpoint over its last step does not make it a step short.
TEST(Compare, StepsThatHeldACheckpointAreCounted) {
  Profile b = with_eval();
  b.step_times_s.pop_back();
  b.held_steps = 1;
  b.eval_step_times_s.pop_back();
  b.held_eval_steps = 1;
  const Comparison c = compare(with_eval(), b, Tolerances{});
  EXPECT_EQ(metric(c, "steps").distance, 0.0);
  EXPECT_EQ(metric(c, "eval_steps").distance, 0.0);
  b.held_steps = b.held_eval_steps = 0;
  const Comparison short_one = compare(with_eval(), b, Tolerances{});
  EXPECT_GT(metric(short_one, "steps").distance, 0.0);
  EXPECT_GT(metric(short_one, "eval_steps").distance, 0.0);
}

// Throughput is judged on the same seconds as duration: bytes are bytes_read's to judge, so 3%
// more bytes in the same time passes throughput (and fails nothing), while the same bytes in 15%
// less time fail duration and throughput together.
TEST(Compare, ThroughputIsJudgedOnTheOriginalsBytes) {
  Profile more = baseline();
  for (auto& e : more.epochs) e.bytes_read *= 1.03;
  more.bytes_read *= 1.03;
  Comparison c = compare(baseline(), more, Tolerances{});
  EXPECT_EQ(metric(c, "throughput").verdict, Verdict::pass);
  EXPECT_NEAR(metric(c, "throughput").replay, metric(c, "throughput").original * 1.03, 1e-9);
  EXPECT_NEAR(metric(c, "throughput").distance, 0.0, 1e-12);
  EXPECT_EQ(metric(c, "bytes_read").verdict, Verdict::pass);

  Profile faster = baseline();
  for (auto& e : faster.epochs) e.duration_s *= 0.85;
  c = compare(baseline(), faster, Tolerances{});
  EXPECT_EQ(metric(c, "duration").verdict, Verdict::fail);
  EXPECT_EQ(metric(c, "throughput").verdict, Verdict::fail);
  EXPECT_NEAR(metric(c, "throughput").distance, 0.15 / 0.85, 1e-9);
}

TEST(Compare, NoCheckpointFailsOnCheckpoints) {
  Profile b = baseline();
  b.checkpoints = 0;
  b.checkpoint_bytes = 0;
  b.checkpoint_start_s.clear();
  b.checkpoint_write_s.clear();
  b.bytes_written = 0;
  Comparison c = compare(baseline(), b, Tolerances{});
  EXPECT_EQ(metric(c, "checkpoints").verdict, Verdict::fail);
  EXPECT_EQ(metric(c, "bytes_written").verdict, Verdict::fail);
  EXPECT_EQ(metric(c, "files_read").verdict, Verdict::pass);
}

TEST(Compare, HalvedComputeFailsOnCompute) {
  Profile b = baseline();
  for (std::size_t i = 0; i < b.compute_s.size(); ++i) {
    b.compute_s[i] /= 2;
    b.step_times_s[i] = b.compute_s[i] + b.data_wait_s[i];
  }
  Comparison c = compare(baseline(), b, Tolerances{});
  EXPECT_EQ(metric(c, "compute").verdict, Verdict::fail);
  EXPECT_EQ(metric(c, "step_time").verdict, Verdict::fail);
  EXPECT_EQ(metric(c, "readers").verdict, Verdict::pass);
}

TEST(Compare, RequestSizeDistributionUsesKs) {
  Profile b = baseline();
  for (auto& s : b.request_sizes) s = 65536;  // same bytes, four times the requests
  Comparison c = compare(baseline(), b, Tolerances{});
  EXPECT_EQ(metric(c, "request_size").verdict, Verdict::fail);
  EXPECT_DOUBLE_EQ(metric(c, "request_size").distance, 1.0);
  EXPECT_EQ(metric(c, "request_size").original, 262144);
  EXPECT_EQ(metric(c, "request_size").replay, 65536);
}

TEST(Stats, KsCriticalValue) {
  EXPECT_NEAR(ks_critical_value(96, 96, 0.01), 1.628 * std::sqrt(2.0 / 96), 1e-3);
  EXPECT_NEAR(ks_critical_value(100, 100, 0.05), 0.192, 1e-3);
  EXPECT_EQ(ks_critical_value(0, 10, 0.01), 0.0);
}

// Two small samples of file sizes drawn from one distribution (a distilled job regenerates sizes
// from a fitted distribution) must not fail on sampling noise; a real change of sizes still does.
TEST(Compare, FewRequestsFromOneDistributionPass) {
  std::mt19937_64 ra(1), rb(2);
  std::uniform_real_distribution<double> size(40e3, 120e3);
  Profile a = baseline(), b = baseline();
  a.request_sizes.clear();
  b.request_sizes.clear();
  for (int i = 0; i < 96; ++i) a.request_sizes.push_back(std::round(size(ra)));
  for (int i = 0; i < 96; ++i) b.request_sizes.push_back(std::round(size(rb)));
  Comparison c = compare(a, b, Tolerances{});
  EXPECT_EQ(metric(c, "request_size").verdict, Verdict::pass) << metric(c, "request_size").distance;
  EXPECT_GT(metric(c, "request_size").tolerance, 0.15);
  for (auto& v : b.request_sizes) v /= 4;
  EXPECT_EQ(metric(compare(a, b, Tolerances{}), "request_size").verdict, Verdict::fail);
}

TEST(Compare, SkipsWhatNeitherSideHas) {
  Profile a = baseline();
  a.checkpoints = 0;
  a.checkpoint_start_s.clear();
  a.checkpoint_write_s.clear();
  Comparison c = compare(a, a, Tolerances{});
  EXPECT_EQ(metric(c, "checkpoint_size").verdict, Verdict::skipped);
  EXPECT_EQ(metric(c, "block_bytes").verdict, Verdict::skipped);
  EXPECT_TRUE(c.pass());
}

// dlgen's replay hands each batch over with a unix-socket sendmsg (reader thread) and recvmsg
// (accelerator thread), like a DataLoader, so its trace has steps: they are compared, not skipped.
TEST(Compare, ReplayWithHandoversComparesStepMetrics) {
  Profile b = baseline();
  b.label = "replay";
  for (auto& v : b.compute_s) v *= 1.02;
  for (auto& v : b.step_times_s) v *= 1.02;
  Comparison c = compare(baseline(), b, Tolerances{});
  for (const char* name : {"steps", "step_time", "compute", "data_wait"}) {
    EXPECT_NE(metric(c, name).verdict, Verdict::skipped) << name;
    EXPECT_EQ(metric(c, name).note.find("handovers"), std::string::npos) << name;
  }
  EXPECT_EQ(metric(c, "steps").verdict, Verdict::pass);
  EXPECT_EQ(metric(c, "compute").verdict, Verdict::pass);
  b.compute_s.assign(b.compute_s.size(), 0.3);
  EXPECT_EQ(metric(compare(baseline(), b, Tolerances{}), "compute").verdict, Verdict::fail);
}

// A trace without any handover (e.g. from a replay predating the socket signal) cannot say what a
// step is.
TEST(Compare, TraceWithoutHandoversSkipsStepMetrics) {
  Profile b = baseline();
  b.step_times_s.clear();
  b.compute_s.clear();
  b.data_wait_s.clear();
  Comparison c = compare(baseline(), b, Tolerances{});
  for (const char* name : {"steps", "step_time", "compute", "data_wait"}) {
    EXPECT_EQ(metric(c, name).verdict, Verdict::skipped) << name;
    EXPECT_NE(metric(c, name).note.find("replay"), std::string::npos) << name;
  }
  EXPECT_TRUE(c.pass());
}

// Evaluation passes have their own rows; a training figure is not moved by them, and a wrong
// validation set fails on the evaluation rows alone.
TEST(Compare, EvaluationPassesAreJudgedOnTheirOwnRows) {
  Comparison same = compare(with_eval(), with_eval(), Tolerances{});
  EXPECT_TRUE(same.pass());
  for (const char* name :
       {"eval_passes", "eval_files", "eval_epoch_bytes_read", "eval_steps", "eval_step_time"}) {
    EXPECT_EQ(metric(same, name).verdict, Verdict::pass) << name;
    EXPECT_EQ(metric(same, name).group, "evaluation") << name;
  }
  ASSERT_EQ(same.eval_passes.size(), 2u);
  EXPECT_EQ(same.eval_passes[1].original.files_read, 20);

  Comparison wrong = compare(with_eval(), with_eval(30), Tolerances{});
  EXPECT_EQ(metric(wrong, "eval_files").verdict, Verdict::fail);
  EXPECT_EQ(metric(wrong, "eval_epoch_bytes_read").verdict, Verdict::fail);
  EXPECT_NEAR(metric(wrong, "eval_epoch_bytes_read").distance, 0.5, 1e-9);
  for (const char* name : {"epoch_bytes_read", "steps", "step_time", "epochs", "readers"})
    EXPECT_EQ(metric(wrong, name).verdict, Verdict::pass) << name;

  Comparison slow = compare(with_eval(), with_eval(20, 0.06), Tolerances{});
  EXPECT_EQ(metric(slow, "eval_step_time").verdict, Verdict::fail);
  EXPECT_NEAR(metric(slow, "eval_step_time").distance, 0.5, 1e-9);
  EXPECT_EQ(metric(slow, "step_time").verdict, Verdict::pass);

  // A replay without its evaluation passes fails on their count.
  Comparison none = compare(with_eval(), baseline(), Tolerances{});
  EXPECT_EQ(metric(none, "eval_passes").verdict, Verdict::fail);
  EXPECT_EQ(metric(none, "eval_passes").original, 2);
  EXPECT_EQ(metric(none, "eval_passes").replay, 0);
}

TEST(Compare, EvaluationRowsAreSkippedWhenNeitherSideHasAPass) {
  Comparison c = compare(baseline(), baseline(), Tolerances{});
  for (const char* name :
       {"eval_passes", "eval_files", "eval_epoch_bytes_read", "eval_steps", "eval_step_time"}) {
    EXPECT_EQ(metric(c, name).verdict, Verdict::skipped) << name;
    EXPECT_NE(metric(c, name).note.find("evaluation"), std::string::npos) << name;
  }
  EXPECT_TRUE(c.eval_passes.empty());
}

TEST(Compare, OneSidedZeroIsInfinitelyFar) {
  Profile a = baseline(), b = baseline();
  a.bytes_read = 0;
  Comparison c = compare(a, b, Tolerances{});
  EXPECT_TRUE(std::isinf(metric(c, "bytes_read").distance));
  EXPECT_EQ(metric(c, "bytes_read").verdict, Verdict::fail);
}

// Bytes written are relative to at least 1 MiB: a replay that writes its checkpoints where the
// original wrote none fails, a few stray bytes (a log line) on one side do not.
TEST(Compare, BytesWrittenHasAFloorOfOneMiB) {
  Profile a = baseline(), b = baseline();
  a.bytes_written = 0;
  b.bytes_written = 8 << 20;
  EXPECT_EQ(metric(compare(a, b, Tolerances{}), "bytes_written").verdict, Verdict::fail);
  b.bytes_written = 16;
  EXPECT_EQ(metric(compare(a, b, Tolerances{}), "bytes_written").verdict, Verdict::pass);
}

TEST(Tolerances, OverrideTurnsFailureIntoPass) {
  Profile b = baseline();
  b.bytes_read *= 1.2;
  Tolerances tol;
  EXPECT_EQ(metric(compare(baseline(), b, tol), "bytes_read").verdict, Verdict::fail);
  ASSERT_TRUE(apply_tolerance(tol, "bytes_read=25%"));
  EXPECT_DOUBLE_EQ(tol.get("bytes_read"), 0.25);
  EXPECT_EQ(metric(compare(baseline(), b, tol), "bytes_read").verdict, Verdict::pass);
  ASSERT_TRUE(apply_tolerance(tol, "readers = 1"));
  EXPECT_DOUBLE_EQ(tol.get("readers"), 1.0);
}

TEST(Tolerances, BadInputIsAnInputError) {
  Tolerances tol;
  auto r = apply_tolerance(tol, "byte_read=0.1");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::bad_input);
  EXPECT_NE(r.error().message.find("did you mean 'bytes_read'"), std::string::npos)
      << r.error().message;
  EXPECT_FALSE(apply_tolerance(tol, "bytes_read"));
  EXPECT_FALSE(apply_tolerance(tol, "bytes_read=abc"));
  EXPECT_FALSE(apply_tolerance(tol, "bytes_read=-1"));
}

TEST(Tolerances, TomlFile) {
  testing::TempDir dir("compare");
  auto path = dir / "tol.toml";
  std::ofstream(path) << "[tolerance]\nbytes_read = 0.2\nstep_time = \"35%\"\nreaders = 1\n";
  Tolerances tol;
  ASSERT_TRUE(load_tolerances(tol, path));
  EXPECT_DOUBLE_EQ(tol.get("bytes_read"), 0.2);
  EXPECT_DOUBLE_EQ(tol.get("step_time"), 0.35);
  EXPECT_DOUBLE_EQ(tol.get("readers"), 1.0);
  EXPECT_DOUBLE_EQ(tol.get("files_read"), find_metric("files_read")->tolerance);
  std::ofstream(dir / "bad.toml") << "bytes_raed = 0.2\n";
  auto bad = load_tolerances(tol, dir / "bad.toml");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("bad.toml:1"), std::string::npos) << bad.error().message;
}

// Several captures of the original (issue 18): a real program does not repeat itself exactly, so
// a host-time row is judged at the larger of its tolerance and the originals' own spread.

TEST(Spread, TheOriginalsOwnSpreadWidensHostTimeRows) {
  // The replay is 25% slower than the first original, the second original 40% slower than the
  // first: the replay is inside the original's own variation.
  const Profile replay = stretched(1.25, "replay");
  const Comparison one = compare(stretched(1.0), replay, Tolerances{});
  for (const char* name : {"epoch_time", "duration", "step_time", "compute", "throughput"})
    EXPECT_EQ(metric(one, name).verdict, Verdict::fail) << name;
  EXPECT_TRUE(one.original_repeats.empty());

  const Comparison many = compare({stretched(1.0), stretched(1.4, "second")}, replay, Tolerances{});
  EXPECT_TRUE(many.pass()) << format_table(many);
  ASSERT_EQ(many.original_repeats, std::vector<std::string>{"second"});
  const MetricResult& epoch = metric(many, "epoch_time");
  EXPECT_DOUBLE_EQ(epoch.tolerance, 0.10);  // the row's own, reported beside the spread
  ASSERT_TRUE(epoch.has_spread);
  // The largest distance either way: (1.4 - 1) / 1 from the first, 0.4 / 1.4 from the second.
  EXPECT_NEAR(epoch.spread, 0.4, 1e-9);
  EXPECT_NEAR(epoch.tolerance_used(), 0.4, 1e-9);
  EXPECT_NEAR(epoch.distance, 0.25, 1e-9);  // judged against the first original
  for (const char* name : {"duration", "step_time", "compute", "throughput", "data_wait", "au"})
    EXPECT_TRUE(metric(many, name).has_spread) << name;
  // The first original's values are the ones shown.
  EXPECT_DOUBLE_EQ(epoch.original, 3.0);
}

TEST(Spread, CountsBytesAndOrderNeverWiden) {
  Profile second = baseline();
  second.step_times_s.resize(40);
  second.compute_s.resize(40);
  second.data_wait_s.resize(40);
  second.files_read = 50;
  second.bytes_read /= 2;
  second.readers = 1;
  Profile replay = baseline();
  replay.step_times_s.resize(45);
  replay.compute_s.resize(45);
  replay.data_wait_s.resize(45);
  replay.files_read = 90;
  replay.bytes_read *= 0.8;
  replay.readers = 2;
  const Comparison c = compare({baseline(), second}, replay, Tolerances{});
  for (const char* name : {"steps", "files_read", "bytes_read", "readers"}) {
    EXPECT_EQ(metric(c, name).verdict, Verdict::fail) << name;
    EXPECT_FALSE(metric(c, name).has_spread) << name;
  }
  for (const auto& m : c.metrics) {
    const MetricDef* def = find_metric(m.name);
    ASSERT_NE(def, nullptr);
    if (!def->host_time) {
      EXPECT_FALSE(m.has_spread) << m.name;
    }
    if (def->unit == "count" || def->unit == "bytes") {
      EXPECT_FALSE(def->host_time) << m.name;
    }
  }
}

TEST(Spread, ASpreadBelowTheToleranceKeepsTheTolerance) {
  // Two originals 2% apart: the 10% tolerance stands, and a replay 25% off still fails.
  const Comparison c = compare({stretched(1.0), stretched(1.02)}, stretched(1.25), Tolerances{});
  const MetricResult& epoch = metric(c, "epoch_time");
  ASSERT_TRUE(epoch.has_spread);
  EXPECT_NEAR(epoch.spread, 0.02, 1e-9);
  EXPECT_DOUBLE_EQ(epoch.tolerance_used(), 0.10);
  EXPECT_EQ(epoch.verdict, Verdict::fail);
  // One original: no spread anywhere, the same verdicts as the two-profile form.
  const Comparison one = compare(std::vector<Profile>{stretched(1.0)}, stretched(1.25), {});
  const Comparison plain = compare(stretched(1.0), stretched(1.25), Tolerances{});
  ASSERT_EQ(one.metrics.size(), plain.metrics.size());
  for (std::size_t i = 0; i < one.metrics.size(); ++i) {
    EXPECT_FALSE(one.metrics[i].has_spread) << one.metrics[i].name;
    EXPECT_EQ(one.metrics[i].verdict, plain.metrics[i].verdict) << one.metrics[i].name;
  }
}

TEST(Spread, ARepeatThatLostEventsIsRefused) {
  Profile second = stretched(1.0, "original 2 (b.h5)");
  second.lost_events = 7;
  const Comparison refused = compare({baseline(), second}, baseline(), Tolerances{});
  EXPECT_FALSE(refused.pass());
  ASSERT_EQ(refused.refusals.size(), 1u);
  EXPECT_NE(refused.refusals[0].find("original 2 (b.h5): lost 7 events"), std::string::npos)
      << refused.refusals[0];
  const Comparison allowed =
      compare({baseline(), second}, baseline(), Tolerances{}, LostEventsPolicy::allow);
  EXPECT_TRUE(allowed.pass());
  EXPECT_EQ(allowed.verdict_notes.size(), 1u);
}

// The metric table is the one list of metrics: compare's rows come in its order, each once, and
// docs/fidelity.md's table of defaults lists the same metrics in the same order, with the same
// distance kind and default tolerance (its "why this much" argues them).
TEST(Compare, RowsFollowTheMetricTableAndTheDocsListIt) {
  const Comparison c = compare(baseline(), baseline(), Tolerances{});
  ASSERT_EQ(c.metrics.size(), metric_defs().size());
  for (std::size_t i = 0; i < c.metrics.size(); ++i)
    EXPECT_EQ(c.metrics[i].name, metric_defs()[i].name) << i;

  std::ifstream doc(std::string(DLGEN_SOURCE_DIR) + "/docs/fidelity.md");
  ASSERT_TRUE(doc) << "docs/fidelity.md";
  // "| name | distance | default | why |": the distance column starts with the kind; the default
  // is a percentage or a number ("0.30, or the sampling noise").
  const std::regex row(R"(^\| ([a-z0-9_]+) \| ([^|]+) \| ([0-9.]+)(%?)[^|]* \|)");
  std::size_t next = 0;
  for (std::string line; std::getline(doc, line);) {
    std::smatch m;
    if (!std::regex_search(line, m, row) || !find_metric(m[1].str())) continue;
    ASSERT_LT(next, metric_defs().size()) << line;
    const MetricDef& def = metric_defs()[next++];
    EXPECT_EQ(m[1].str(), def.name) << "docs/fidelity.md lists the metrics in the rows' order";
    const std::string kind = def.kind == DistanceKind::relative   ? "relative"
                             : def.kind == DistanceKind::absolute ? "absolute"
                                                                  : "KS";
    EXPECT_EQ(m[2].str().rfind(kind, 0), 0u) << def.name << ": " << m[2].str();
    const double written = std::stod(m[3].str()) / (m[4].str() == "%" ? 100.0 : 1.0);
    EXPECT_NEAR(written, def.tolerance, 1e-9) << def.name;
  }
  EXPECT_EQ(next, metric_defs().size()) << "metrics missing from docs/fidelity.md";
}

}  // namespace
}  // namespace dlgen::compare
