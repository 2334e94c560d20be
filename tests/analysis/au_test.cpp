// The original run's AU from a trace (summarize) against the ground truth of simulated DDP runs
// (tests/analysis/sim.hpp): one or two steps an epoch, two or three accelerators, evaluation
// passes, checkpoints after an epoch's first step, long epoch boundaries. AU must equal the value
// computed by hand from what the simulation did, never exceed what the samples allow, and be what
// the replay's function gives on the same step records. Also: the prefetch estimate per
// accelerator.
#include <gtest/gtest.h>

#include <cmath>

#include "dlgen/analysis/distil.hpp"
#include "dlgen/analysis/summary.hpp"
#include "dlgen/replay/metrics.hpp"
#include "sim.hpp"

namespace dlgen::analysis {
namespace {

using testing::Sim;
using testing::SimConfig;

const Accelerator& rank_of(const TraceSummary& s, std::uint32_t rank) {
  for (const auto& a : s.accelerators)
    if (a.pid == 100 + 100 * rank) return a;
  ADD_FAILURE() << "no accelerator for rank " << rank;
  static Accelerator none;
  return none;
}

// Shapes whose old AU (compute / (compute + wait) over training steps, or any definition that
// leaves out epoch boundaries, evaluation or checkpoints) is far from the whole-run AU.
struct Shape {
  const char* name;
  SimConfig c;
};

std::vector<Shape> shapes() {
  std::vector<Shape> out;
  SimConfig base;
  base.accelerators = 2;
  base.workers = 2;
  base.batch = 8;
  base.compute_ns = 50'000'000;
  base.startup_ns = 200'000'000;  // each epoch's workers start for 200 ms: wall time, not compute
  base.noise = false;
  {
    // 1 step an epoch per accelerator, evaluation, a checkpoint after every step
    SimConfig c = base;
    c.files = 16;
    c.epochs = 4;
    c.val_dir = "/mnt/datasets/unet/val";
    c.val_files =
        32;  // 2 evaluation steps: its compute is measured (a lone one would be estimated)
    c.ckpt_every_steps = 1;
    c.ckpt_size = 4 << 20;
    out.push_back({"OneStepAnEpochEvalAndCheckpointEveryStep", c});
  }
  {
    // 2 steps an epoch, a checkpoint every 3 steps: after epoch 2's first step and epoch 3's last
    SimConfig c = base;
    c.files = 32;
    c.epochs = 4;
    c.ckpt_every_steps = 3;
    c.val_dir = "/mnt/datasets/unet/val";
    c.val_files = 32;
    out.push_back({"TwoStepsAnEpochCheckpointAfterTheFirstStep", c});
  }
  {
    // 3 accelerators, 2 steps an epoch, a cold first epoch, checkpoint each epoch
    SimConfig c = base;
    c.accelerators = 3;
    c.files = 48;
    c.epochs = 3;
    c.size = 1 << 20;
    c.cold_factor = 10;
    c.ckpt_every_epochs = 1;
    out.push_back({"ThreeAcceleratorsColdFirstEpochCheckpointEachEpoch", c});
  }
  return out;
}

TEST(SummarizeAu, EqualsTheHandComputedWholeRunAuAndObeysTheSamplesLaw) {
  for (const Shape& shape : shapes()) {
    SCOPED_TRACE(shape.name);
    Sim sim(shape.c);
    const TraceSummary s = summarize(sim.build());
    ASSERT_TRUE(s.au_measured);
    ASSERT_EQ(s.accelerators.size(), shape.c.accelerators);
    const double c = static_cast<double>(shape.c.compute_ns) * 1e-9;
    double lowest = 1;
    for (std::uint32_t r = 0; r < shape.c.accelerators; ++r) {
      SCOPED_TRACE("rank " + std::to_string(r));
      const auto& truth = sim.truth()[r];
      const Accelerator& a = rank_of(s, r);
      // By hand: every step's compute (train and eval) over the wall time from the rank's first
      // batch to the run's end (the last step or checkpoint of any rank).
      const double wall = static_cast<double>(sim.run_end_ns() - truth.first_batch_ns) * 1e-9;
      const double hand = static_cast<double>(truth.compute_ns) * 1e-9 / wall;
      EXPECT_LT(hand, 0.75);  // the shapes are far from busy: boundaries and checkpoints weigh
      // The trace sees each receipt ~130 us before the simulation hands the batch over.
      EXPECT_NEAR(a.au, hand, 0.01);
      EXPECT_NEAR(a.au_wall_s, wall, 0.001);
      EXPECT_NEAR(a.au_compute_s, static_cast<double>(truth.compute_ns) * 1e-9,
                  0.0002 * static_cast<double>(truth.steps));
      // The law: AU <= (samples/s of this accelerator) x compute per step / batch, with the figures
      // distil writes into the job (compute per step, batch size) and the samples it was handed.
      std::uint64_t samples = 0;
      for (const auto& b : s.batches)
        if (b.accelerator < s.accelerators.size() && &s.accelerators[b.accelerator] == &a)
          samples += b.samples;
      EXPECT_EQ(samples, truth.samples);
      ASSERT_EQ(s.batch_size, shape.c.batch);
      const double samples_per_s = static_cast<double>(samples) / a.au_wall_s;
      EXPECT_LE(a.au, samples_per_s * s.compute_time.max / s.batch_size + 1e-12);
      EXPECT_LE(s.compute_time.max, c + 0.001);
      lowest = std::min(lowest, a.au);
    }
    EXPECT_DOUBLE_EQ(s.au, lowest);  // the run's AU is the lowest accelerator's (MLPerf Storage)
  }
}

// The same step records give the same AU in the replay's function (replay/metrics.hpp), which
// `dlgen run` reports: one arithmetic, so an original and its replay can be set side by side.
TEST(SummarizeAu, TheReplaysFunctionGivesTheSameAuOnTheSameSteps) {
  for (const Shape& shape : shapes()) {
    SCOPED_TRACE(shape.name);
    const TraceSummary s = summarize(Sim(shape.c).build());
    ASSERT_TRUE(s.au_measured);
    std::vector<replay::PhaseRecord> phases(1);
    phases[0].steps.resize(s.accelerators.size());
    for (const auto* list : {&s.steps, &s.checkpoint_steps})
      for (const Step& st : *list) {
        replay::StepRecord r;
        r.wait_begin = static_cast<std::int64_t>(st.start_ns - st.wait_ns);
        r.ready = static_cast<std::int64_t>(st.start_ns);
        r.compute_ns = static_cast<std::int64_t>(st.compute_ns);
        r.end = static_cast<std::int64_t>(st.end_ns);
        phases[0].steps[st.accelerator].push_back(r);
      }
    for (std::size_t a = 0; a < s.accelerators.size(); ++a) {
      const replay::AuParts p =
          replay::accelerator_utilisation(phases, a, static_cast<std::int64_t>(s.run_begin_ns),
                                          static_cast<std::int64_t>(s.run_end_ns));
      EXPECT_DOUBLE_EQ(std::min(1.0, p.au()), s.accelerators[a].au) << a;
      EXPECT_DOUBLE_EQ(p.wall_s, s.accelerators[a].au_wall_s) << a;
    }
  }
}

// Every batch is a step, also when an accelerator gets a single batch in a pass (many
// accelerators on a small set): its compute counts. With one batch a pass there is no gap between
// receipts; the main process's idle gap after the receipt, up to its checkpoint, shows the compute.
TEST(SummarizeAu, ASingleBatchPassIsOneStep) {
  const TraceSummary s = summarize(Sim(shapes()[0].c).build());
  std::size_t train = 0, eval = 0;
  for (const auto* list : {&s.steps, &s.checkpoint_steps})
    for (const auto& st : *list) {
      (s.epochs[st.epoch].evaluation ? eval : train) += 1;
      EXPECT_NEAR(static_cast<double>(st.compute_ns) * 1e-9,
                  s.epochs[st.epoch].evaluation ? 0.050 / 3 : 0.050, 0.001);
    }
  EXPECT_EQ(train, 2u * 4u);  // 2 accelerators x 4 epochs x 1 batch
  EXPECT_EQ(eval, 2u * 4u * 2u);
}

// distil prints the original AU with that definition, the lowest accelerator's.
TEST(SummarizeAu, DistilSaysTheOriginalAu) {
  const Shape shape = shapes()[1];
  const TraceSummary s = summarize(Sim(shape.c).build());
  const Distilled d = distil(s);
  const std::string& why = d.comments.at("compute.time");
  const std::string expect =
      "original AU " + std::to_string(static_cast<int>(std::lround(s.au * 100))) + "%";
  EXPECT_NE(why.find(expect), std::string::npos) << why;
  EXPECT_NE(why.find("lowest of 2 accelerators"), std::string::npos) << why;
}

// Two accelerators whose loaders keep different numbers of batches ahead (compute-bound, so each
// fills its prefetch): each gets its own estimate, and the run's is the largest. The estimate used
// to carry the first accelerator's depths into the second's.
TEST(SummarizeAu, PrefetchIsEstimatedPerAccelerator) {
  for (const std::vector<std::uint32_t>& depths :
       {std::vector<std::uint32_t>{4, 1}, std::vector<std::uint32_t>{1, 3}}) {
    SimConfig c;
    c.accelerators = 2;
    c.workers = 2;
    c.batch = 4;
    c.files = 256;  // 32 batches per accelerator per epoch
    c.epochs = 2;
    c.size = 64 * 1024;
    c.compute_ns = 100'000'000;
    c.prefetch_per_accelerator = depths;
    c.noise = false;
    const TraceSummary s = summarize(Sim(c).build());
    ASSERT_EQ(s.accelerators.size(), 2u);
    EXPECT_EQ(rank_of(s, 0).prefetch, depths[0]);
    EXPECT_EQ(rank_of(s, 1).prefetch, depths[1]);
    EXPECT_EQ(s.prefetch, std::max(depths[0], depths[1]));
  }
}

}  // namespace
}  // namespace dlgen::analysis
