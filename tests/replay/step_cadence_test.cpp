// Checkpoints and evaluation passes by step cadence (checkpoint.every_steps, run.eval_every_steps),
// on the fake clock and the null engine: each comes after the training steps the job says, counted
// over the run (not restarted each epoch), and an evaluation in the middle of an epoch holds the
// epoch's steps while it runs.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "dlgen/replay/runner.hpp"
#include "replay_fixture.hpp"

namespace dlgen::replay {
namespace {

using fixture::run_fake;
using fixture::small_job;

// `train_steps` steps of 4 samples an epoch per accelerator, `epochs`, 10 ms a step; a validation
// set of `eval_steps` steps of 4, 2 ms a step.
Job cadence_job(std::uint32_t accelerators, std::uint64_t train_steps, std::uint32_t epochs,
                std::uint64_t eval_steps) {
  Job job = small_job("/nonexistent/cadence", 4 * train_steps * accelerators,
                      Distribution::fixed_at(1000));
  job.run.accelerators = accelerators;
  job.run.epochs = epochs;
  DatasetSpec v = job.dataset;
  v.dir = "/nonexistent/cadence-val";
  v.num_files = 4 * eval_steps * accelerators;
  job.validation = v;
  job.compute.step_time = Distribution::fixed_at(0.010);
  job.compute.eval_time = Distribution::fixed_at(0.002);
  job.checkpoint.size_bytes = 4096;
  job.checkpoint.write_size_bytes = 4096;
  job.checkpoint.fsync = false;
  job.checkpoint.dir = "/nonexistent/cadence-ck";
  return job;
}

std::vector<const EpochResult*> passes(const Report& r, bool eval) {
  std::vector<const EpochResult*> out;
  for (const EpochResult& e : r.epochs_detail)
    if (e.eval == eval) out.push_back(&e);
  return out;
}

// The training steps before each evaluation pass, in the order they ran.
std::vector<std::uint64_t> eval_after_steps(const Report& r) {
  std::vector<std::uint64_t> steps;
  for (const EpochResult* e : passes(r, true)) steps.push_back(e->after_step);
  return steps;
}

// lm_shards' shape: 2 epochs of 80 micro-steps, an evaluation of 10 steps every 40 (gradient
// accumulation 4, every 10 optimizer steps), a checkpoint after each epoch. Four evaluations,
// two of them in the middle of an epoch, each beginning when its 40th step ends: no reads or
// waits cost time here, so at the first training pass's start + the steps and evaluations before.
TEST(StepCadence, EvaluationsEveryNStepsComeAfterTheirSteps) {
  for (std::uint32_t accelerators : {1u, 2u}) {
    Job job = cadence_job(accelerators, 80, 2, 10);
    job.run.eval_every_steps = 40;
    job.checkpoint.enabled = true;
    job.checkpoint.every_epochs = 1;
    ASSERT_TRUE(validate(job).empty()) << validate(job).front().message;
    Result<Report> r = run_fake(job);
    ASSERT_TRUE(r) << r.error().message;
    const auto train = passes(*r, false), eval = passes(*r, true);
    ASSERT_EQ(train.size(), 2u);
    ASSERT_EQ(eval.size(), 4u) << "was 2 with an evaluation every epoch";
    const std::int64_t t0 = train[0]->begin_ns;
    const std::int64_t step = 10'000'000, pass = 10 * 2'000'000;
    EXPECT_EQ(eval_after_steps(*r), (std::vector<std::uint64_t>{40, 80, 120, 160})) << accelerators;
    for (std::size_t i = 0; i < eval.size(); ++i) {
      EXPECT_EQ(eval[i]->steps, 10u);
      EXPECT_EQ(eval[i]->begin_ns, t0 + static_cast<std::int64_t>(40 * (i + 1)) * step +
                                       static_cast<std::int64_t>(i) * pass)
          << "evaluation " << i << ", " << accelerators << " accelerators";
    }
    // Each training epoch's own time leaves its evaluations out: 80 steps of 10 ms.
    for (const EpochResult* e : train) {
      EXPECT_EQ(e->steps, 80u);
      EXPECT_NEAR(e->seconds, 80 * 0.010, 1e-9);
    }
    EXPECT_EQ(r->checkpoint.after_steps, (std::vector<std::uint64_t>{80, 160}));
    EXPECT_NEAR(r->eval_seconds, 4 * 10 * 0.002, 1e-9);
    EXPECT_NEAR(r->train_seconds, 2 * 80 * 0.010, 1e-9);
    EXPECT_DOUBLE_EQ(r->au, 1.0);  // the evaluations compute too
  }
}

// prefetch_imagenet's shape: 3 epochs of 32 steps, a checkpoint every 20 steps (after steps 20,
// 40, 60 and 80: the count runs over the epochs), an evaluation after each epoch.
TEST(StepCadence, CheckpointsEveryNStepsCountOverTheEpochs) {
  Job job = cadence_job(1, 32, 3, 4);
  job.run.eval_every_epochs = 1;
  job.checkpoint.enabled = true;
  job.checkpoint.every_steps = 20;
  ASSERT_TRUE(validate(job).empty()) << validate(job).front().message;
  Result<Report> r = run_fake(job);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->checkpoint.count, 4u);
  EXPECT_EQ(r->checkpoint.after_steps, (std::vector<std::uint64_t>{20, 40, 60, 80}));
  EXPECT_EQ(eval_after_steps(*r), (std::vector<std::uint64_t>{32, 64, 96}));
}

// A checkpoint and an evaluation due at the same step: both, the checkpoint first (as after an
// epoch).
TEST(StepCadence, CheckpointAndEvaluationAtTheSameStep) {
  Job job = cadence_job(1, 30, 1, 2);
  job.run.eval_every_steps = 10;
  job.checkpoint.enabled = true;
  job.checkpoint.every_steps = 10;
  Result<Report> r = run_fake(job);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->checkpoint.after_steps, (std::vector<std::uint64_t>{10, 20, 30}));
  EXPECT_EQ(eval_after_steps(*r), (std::vector<std::uint64_t>{10, 20, 30}));
}

TEST(StepCadence, EvaluationByStepNeedsValidationAndOneCadence) {
  Job job = cadence_job(1, 8, 1, 2);
  job.run.eval_every_steps = 4;
  job.run.eval_every_epochs = 1;
  auto problems = validate(job);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].path, "run.eval_every_steps");
  job.run.eval_every_epochs = 0;
  job.validation.reset();
  problems = validate(job);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].path, "run.eval_every_steps");
}

}  // namespace
}  // namespace dlgen::replay
