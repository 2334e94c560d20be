// Compare over synthetic traces through the shared summary: each deliberately wrong replay fails
// on the metric that should catch it, and the io_uring replay shape of the same run passes.
#include <gtest/gtest.h>

#include "../analysis/sim.hpp"
#include "dlgen/analysis/summary.hpp"
#include "dlgen/compare/compare.hpp"
#include "run_builder.hpp"

namespace dlgen::compare {
namespace {

using testing::RunShape;

Profile profile(const RunShape& s) {
  trace::Trace t = testing::build_run(s);
  return profile_of(t, analysis::summarize(t));
}

Comparison versus(const RunShape& original, const RunShape& replay) {
  return compare(profile(original), profile(replay), Tolerances{});
}

const MetricResult& metric(const Comparison& c, std::string_view name) {
  for (const auto& m : c.metrics)
    if (m.name == name) return m;
  ADD_FAILURE() << "no metric " << name;
  static MetricResult none;
  return none;
}

std::string failures(const Comparison& c) {
  std::string out;
  for (const auto& m : c.metrics)
    if (m.verdict == Verdict::fail) out += m.name + " ";
  return out;
}

// The steady state the timing rows judge (docs/fidelity.md): the training steps of the passes after
// the first, and AU from the end of the first pass's last step, in a shape of 2 steps an epoch with
// a checkpoint after each: every steady step is flagged, none of the first pass's, and AU over the
// steady state is a share of its own wall, at most the whole run's compute over its steady wall.
TEST(CompareTrace, SteadyStateIsThePassesAfterTheFirst) {
  RunShape s;
  s.files = 8;  // 2 steps an epoch of batch 4
  s.epochs = 3;
  const Profile p = profile(s);
  ASSERT_EQ(p.step_times_s.size(), 6u);
  ASSERT_EQ(p.step_steady.size(), 6u);
  std::size_t steady = 0;
  for (char f : p.step_steady) steady += f ? 1 : 0;
  EXPECT_EQ(steady, 4u);  // epochs 2 and 3
  EXPECT_EQ(p.step_steady[0], 0);
  EXPECT_EQ(p.step_steady[1], 0);
  ASSERT_TRUE(p.au_steady.has_value());
  EXPECT_GT(*p.au_steady, 0.0);
  EXPECT_LE(*p.au_steady, 1.0);
  // Four 40 ms steps over at least their own compute: the AU of the steady state is no more than 1
  // and, with the checkpoints and the third pass's start in its wall, under the compute-only bound.
  EXPECT_LT(*p.au_steady, 0.999);
  const Comparison same = compare(p, p, Tolerances{});
  for (const char* row : {"step_time", "compute", "data_wait", "au"})
    EXPECT_EQ(metric(same, row).distance, 0.0) << row;
  // One pass: the whole run is the steady state.
  s.epochs = 1;
  const Profile one = profile(s);
  EXPECT_FALSE(one.au_steady.has_value());
  for (char f : one.step_steady) EXPECT_EQ(f, 1);
}

TEST(CompareTrace, ProfileMeasuresTheRun) {
  RunShape s;
  Profile p = profile(s);
  EXPECT_EQ(p.files_read, 48);
  EXPECT_EQ(p.bytes_read, 2.0 * 48 * 192 * 1024);
  EXPECT_EQ(p.read_ops, 2.0 * 48 * 3);
  EXPECT_EQ(p.epochs.size(), 2u);
  EXPECT_EQ(p.readers, 3);
  EXPECT_EQ(p.checkpoints, 2);
  EXPECT_EQ(p.checkpoint_bytes, 4 << 20);
  EXPECT_DOUBLE_EQ(p.sequential_fraction, 1.0);
  EXPECT_NEAR(p.reads_per_file, 1.0, 1e-9);
  EXPECT_FALSE(p.step_times_s.empty());
  EXPECT_FALSE(p.throughput_mib_s.empty());
  for (double r : p.request_sizes) EXPECT_EQ(r, 65536);
}

TEST(CompareTrace, TraceWithItselfPassesWithZeroDistance) {
  RunShape s;
  Comparison c = versus(s, s);
  EXPECT_TRUE(c.pass()) << failures(c);
  for (const auto& m : c.metrics) EXPECT_EQ(m.distance, 0.0) << m.name;
}

TEST(CompareTrace, FewerWorkersFailsOnReaders) {
  RunShape b;
  b.workers = 1;
  Comparison c = versus(RunShape{}, b);
  EXPECT_EQ(metric(c, "readers").verdict, Verdict::fail) << failures(c);
}

TEST(CompareTrace, NoShuffleFailsOnOrder) {
  RunShape b;
  b.shuffle = false;
  Comparison c = versus(RunShape{}, b);
  EXPECT_EQ(metric(c, "order_vs_path").verdict, Verdict::fail) << failures(c);
  EXPECT_EQ(metric(c, "reshuffle").verdict, Verdict::fail) << failures(c);
  EXPECT_EQ(metric(c, "bytes_read").verdict, Verdict::pass);
}

TEST(CompareTrace, HalfTheFilesFailsOnFilesRead) {
  RunShape b;
  b.files /= 2;
  Comparison c = versus(RunShape{}, b);
  EXPECT_EQ(metric(c, "files_read").verdict, Verdict::fail) << failures(c);
  EXPECT_EQ(metric(c, "bytes_read").verdict, Verdict::fail);
  EXPECT_EQ(metric(c, "steps").verdict, Verdict::fail);
}

TEST(CompareTrace, NoCheckpointFailsOnCheckpoints) {
  RunShape b;
  b.checkpoint = false;
  Comparison c = versus(RunShape{}, b);
  EXPECT_EQ(metric(c, "checkpoints").verdict, Verdict::fail) << failures(c);
  EXPECT_EQ(metric(c, "files_read").verdict, Verdict::pass);
}

TEST(CompareTrace, HalvedComputeFailsOnCompute) {
  RunShape b;
  b.compute_ns /= 2;
  Comparison c = versus(RunShape{}, b);
  EXPECT_EQ(metric(c, "compute").verdict, Verdict::fail) << failures(c);
  EXPECT_EQ(metric(c, "epoch_time").verdict, Verdict::fail) << failures(c);
}

TEST(CompareTrace, SmallerRequestsFailOnRequestSize) {
  RunShape b;
  b.chunk = 16 * 1024;
  Comparison c = versus(RunShape{}, b);
  EXPECT_EQ(metric(c, "request_size").verdict, Verdict::fail) << failures(c);
  EXPECT_EQ(metric(c, "read_ops").verdict, Verdict::fail);
  EXPECT_EQ(metric(c, "bytes_read").verdict, Verdict::pass);
}

// The replay reads with io_uring from threads of one process and hands nothing over: compare
// must judge the semantics (bytes, sizes, order, readers, timing), not the syscall names.
// Without handovers, summarize tells checkpoints apart by a gap of over a second between write
// bursts, so the epochs here last longer than that.
TEST(CompareTrace, IoUringReplayOfTheSameRunPasses) {
  RunShape original;
  original.compute_ns = 100'000'000;
  RunShape replay = original;
  replay.replay = true;
  replay.seed = 99;  // a different permutation, as the replay draws its own
  Comparison c = versus(original, replay);
  EXPECT_TRUE(c.pass()) << format_table(c);
  EXPECT_EQ(metric(c, "readers").replay, 3);
  EXPECT_EQ(metric(c, "step_time").verdict, Verdict::skipped);
}

// A replay trace has no batch receipts, so summarize merges checkpoint bursts less than a second
// apart; compare splits them again at epoch starts.
TEST(CompareTrace, ReplayCheckpointsOfShortEpochsAreCountedApart) {
  RunShape replay;
  replay.replay = true;
  Profile p = profile(replay);
  EXPECT_EQ(p.checkpoints, 2);
  EXPECT_EQ(p.checkpoint_bytes, 4 << 20);
  EXPECT_EQ(p.fsyncs, 2);
  Comparison c = versus(RunShape{}, replay);
  EXPECT_EQ(metric(c, "checkpoints").verdict, Verdict::pass) << failures(c);
  EXPECT_EQ(metric(c, "checkpoint_size").verdict, Verdict::pass) << failures(c);
}

// AU from both traces with the replay's definition: the same run agrees with itself; a replay
// trace without batch handovers (no steps to measure) cannot be judged on AU, so it is skipped,
// not passed.
TEST(CompareTrace, AuIsMeasuredOnBothSidesOrSkipped) {
  RunShape slower;
  slower.workers = 1;
  slower.file_size *= 16;  // one worker reading 3 MiB files: the accelerator waits for data
  Comparison same = versus(slower, slower);
  EXPECT_EQ(metric(same, "au").verdict, Verdict::pass);
  EXPECT_EQ(metric(same, "au").distance, 0.0);
  EXPECT_GT(metric(same, "au").original, 0.5);
  EXPECT_LT(metric(same, "au").original, 0.97);
  RunShape uring;
  uring.replay = true;
  Comparison c = versus(RunShape{}, uring);
  EXPECT_EQ(metric(c, "au").verdict, Verdict::skipped);
  EXPECT_NE(metric(c, "au").note.find("replay"), std::string::npos);
}

// A validation set beside the training set, named as `dlgen distil` names it ("<name>-val" next to
// "<name>"), in class folders: the passes over it are evaluation passes on their own rows, and the
// training figures (epochs, files and steps per epoch, readers, step times) count training alone.
TEST(CompareTrace, EvaluationPassesStayOutOfTheTrainingFigures) {
  testing::SimConfig sc;
  sc.data_dir = "/tmp/test-7/data/imgs";
  sc.val_dir = "/tmp/test-7/data/imgs-val";
  sc.files_per_dir = 16;
  sc.val_files = 32;  // two class folders, as the training set has four
  sc.epochs = 3;
  testing::Sim sim(sc);
  const trace::Trace t = sim.build();
  const Profile p = profile_of(t, analysis::summarize(t));
  ASSERT_EQ(p.epochs.size(), 3u);
  for (const auto& e : p.epochs) {
    EXPECT_EQ(e.files_read, 64);
    EXPECT_EQ(e.steps, 8);  // 64 files / batch 8
  }
  ASSERT_EQ(p.eval_passes.size(), 3u);
  for (const auto& e : p.eval_passes) {
    EXPECT_EQ(e.files_read, 32);
    EXPECT_EQ(e.steps, 4);
  }
  EXPECT_EQ(p.eval_files_read, 32);
  EXPECT_EQ(p.files_read, 96);
  EXPECT_EQ(p.readers, 2);
  EXPECT_EQ(p.eval_step_times_s.size(), 3u * 4);
  EXPECT_EQ(p.step_times_s.size(), 3u * 8);
  // Evaluation steps compute a third of a training step in the simulation: not in step_time.
  EXPECT_NEAR(quantile(p.compute_s, 0.5), 0.050, 0.002);
  EXPECT_LT(quantile(p.eval_step_times_s, 0.5), 0.030);

  Comparison c = compare(p, p, Tolerances{});
  EXPECT_TRUE(c.pass()) << failures(c);
  EXPECT_EQ(c.eval_passes.size(), 3u);
}

}  // namespace
}  // namespace dlgen::compare
