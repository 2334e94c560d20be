// The accelerator's compute per step from the CUDA driver calls of the training loop (issue 18:
// "the GPU's step time, not the CPU's"; docs/distil.md, "GPU compute"). The real captures in
// tests/data/gpu/cuda/ ran on one H200 with CUDA probes; each program logged its own per-step GPU
// time from CUDA events (NAME.truth.jsonl, tests/pytorch/README.md). The programs read loss.item()
// only every few steps, so the CPU runs ahead of the GPU and its idle gaps are not the step.
#include "stages/gpu_compute.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include "dlgen/core/json.hpp"
#include <string>
#include <vector>

#include "dlgen/analysis/distil.hpp"
#include "dlgen/analysis/summary.hpp"
#include "dlgen/trace/trace_io.hpp"

namespace dlgen::analysis {
namespace {

const std::string kDir = std::string(DLGEN_SOURCE_DIR) + "/tests/data/gpu/cuda/";

// The program's own median GPU time per training step (its "summary" record).
double truth_median(const std::string& name) {
  std::ifstream in(kDir + name + ".truth.jsonl");
  std::string line;
  while (std::getline(in, line)) {
    const auto j = nlohmann::json::parse(line);
    if (j.value("event", "") == "summary") return j.at("compute_median_s").get<double>();
  }
  ADD_FAILURE() << name << ".truth.jsonl has no summary record";
  return 0;
}

struct Case {
  std::string name;
  std::size_t train_passes = 0;
  std::uint64_t steps_per_epoch = 0;
};

class GpuCapture : public ::testing::TestWithParam<Case> {};

TEST_P(GpuCapture, TrainingComputeIsTheGpusStep) {
  const Case& c = GetParam();
  auto t = trace::read_trace(kDir + c.name + ".h5");
  ASSERT_TRUE(t) << t.error().message;
  const TraceSummary s = summarize(*t);
  const double truth = truth_median(c.name);
  ASSERT_GT(truth, 0);
  ASSERT_TRUE(s.gpu.measured) << c.name;
  EXPECT_NEAR(s.gpu.step_s, truth, 0.1 * truth) << c.name;
  ASSERT_FALSE(s.gpu.devices.empty());
  EXPECT_EQ(s.gpu.devices.front(), "NVIDIA H200");

  const Distilled d = distil(s);
  EXPECT_NEAR(d.job.compute.step_time.expected(), truth, 0.1 * truth) << c.name;
  const auto it = d.comments.find("compute.time");
  ASSERT_NE(it, d.comments.end());
  EXPECT_NE(it->second.find("NVIDIA H200"), std::string::npos) << it->second;
  EXPECT_NE(it->second.find("measured on the GPU's timeline"), std::string::npos) << it->second;
}

// Training steps per epoch, exact (the program's own count, in its truth log too).
void expect_train_steps(const Case& c) {
  auto t = trace::read_trace(kDir + c.name + ".h5");
  ASSERT_TRUE(t) << t.error().message;
  const TraceSummary s = summarize(*t);
  std::vector<std::uint64_t> train_steps;
  for (const auto& e : s.epochs)
    if (!e.evaluation) train_steps.push_back(e.steps);
  EXPECT_EQ(train_steps, std::vector<std::uint64_t>(c.train_passes, c.steps_per_epoch)) << c.name;
}

TEST(GpuCaptureSteps, ImagenetStepsPerEpoch) {
  expect_train_steps({"imagenet", 2, 32});
}
TEST(GpuCaptureSteps, ImagenetAmpStepsPerEpoch) {
  expect_train_steps({"imagenet_amp", 2, 32});
}
// The validation cases are chosen by a list in the training folder: the evaluation passes are
// told apart by the files their readers read, so their 4 steps are not counted in training.
TEST(GpuCaptureSteps, SegmentationStepsPerEpoch) {
  expect_train_steps({"segmentation", 4, 10});
}

// The same capture as a job: 20 training samples of 2 files (image, then label, one worker),
// batch 2 samples, 4 workers, 4 epochs, and 4 validation samples (8 files) evaluated after each
// epoch in 4 steps, as the program's own log says.
TEST(GpuCaptureSteps, SegmentationSamplesAreImageAndLabel) {
  auto t = trace::read_trace(kDir + "segmentation.h5");
  ASSERT_TRUE(t) << t.error().message;
  const TraceSummary s = summarize(*t);
  std::vector<std::uint64_t> eval_steps;
  for (const auto& e : s.epochs)
    if (e.evaluation) eval_steps.push_back(e.steps);
  EXPECT_EQ(eval_steps, std::vector<std::uint64_t>(4, 4));
  const Distilled d = distil(s);
  EXPECT_EQ(d.job.dataset.num_files, 40u);
  EXPECT_EQ(d.job.dataset.files_per_sample, 2u);
  EXPECT_EQ(d.job.reader.batch_size, 2u);
  EXPECT_EQ(d.job.reader.eval_batch_size, 1u);  // one case an evaluation step
  EXPECT_EQ(d.job.reader.workers, 4u);
  EXPECT_EQ(d.job.run.epochs, 4u);
  ASSERT_TRUE(d.job.validation.has_value());
  EXPECT_EQ(d.job.validation->num_files, 8u);
  EXPECT_EQ(d.job.validation->files_per_sample, 2u);
  EXPECT_EQ(d.job.run.eval_every_epochs, 1u);
}

// The checkpoints are the program's torch.save files, one for each "torch.save" record of its log
// and of its bytes; the CUDA driver's kernel cache (~/.nv/ComputeCache, written during the first
// steps) is neither a checkpoint nor data (it was taken for a checkpoint, and the steps it spanned
// were set apart from the step count).
TEST_P(GpuCapture, CheckpointsAreTheProgramsTorchSaves) {
  const Case& c = GetParam();
  std::vector<std::uint64_t> saved;
  std::ifstream in(kDir + c.name + ".truth.jsonl");
  for (std::string line; std::getline(in, line);) {
    const auto j = nlohmann::json::parse(line);
    if (j.value("event", "") == "checkpoint" && j.value("kind", "") == "torch.save")
      saved.push_back(j.at("bytes").get<std::uint64_t>());
  }
  ASSERT_FALSE(saved.empty());
  auto t = trace::read_trace(kDir + c.name + ".h5");
  ASSERT_TRUE(t) << t.error().message;
  const TraceSummary s = summarize(*t);
  std::vector<std::uint64_t> found;
  for (const auto& k : s.checkpoints) found.push_back(k.bytes);
  EXPECT_EQ(found, saved) << c.name;
  std::uint64_t steps = 0;
  for (const auto& e : s.epochs)
    if (!e.evaluation) steps += e.steps;
  std::size_t listed = 0;  // the timed steps, those set apart at checkpoints included
  for (const auto& st : s.steps)
    if (st.epoch >= 0 && !s.epochs[static_cast<std::size_t>(st.epoch)].evaluation) ++listed;
  EXPECT_EQ(listed, steps) << c.name << ": every training step timed, none lost to a cache write";
}

INSTANTIATE_TEST_SUITE_P(RealH200, GpuCapture,
                         ::testing::Values(Case{"imagenet", 2, 32}, Case{"imagenet_amp", 2, 32},
                                           Case{"segmentation", 4, 10}),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace dlgen::analysis

namespace dlgen::analysis::detail {
namespace {

using trace::Op;

constexpr std::uint64_t kMs = 1000000;

GpuPass pass(std::uint64_t begin_ms, std::uint64_t end_ms, std::uint64_t steps, bool evaluation) {
  return {begin_ms * kMs, end_ms * kMs, steps, evaluation};
}

trace::Event ev(Op op, std::uint64_t ts_ms, double dur_ms = 0, std::uint32_t flags = 0) {
  trace::Event e;
  e.op = op;
  e.ts_ns = ts_ms * 1000000;
  e.dur_ns = static_cast<std::uint64_t>(dur_ms * 1e6);
  e.flags = flags;
  e.pid = e.tid = 1;
  return e;
}

// A loop that copies 2 tensors a step (async), queues 40 ms of GPU work a step while its own CPU
// time is 10 ms, and reads the loss every 4 steps (an async DtoH copy and a stream sync that
// waits for the GPU's backlog).
std::vector<trace::Event> loop(std::uint64_t t0, int steps, std::uint64_t gpu_ms,
                               std::uint64_t& t_end, std::uint64_t stall_at_step = 1000,
                               std::uint64_t stall_ms = 0) {
  std::vector<trace::Event> out;
  std::uint64_t cpu = t0, gpu_free = t0;
  for (int i = 0; i < steps; ++i) {
    if (static_cast<std::uint64_t>(i) == stall_at_step) cpu += stall_ms;  // data wait
    out.push_back(ev(Op::cuda_htod, cpu, 0.01, 1));
    out.push_back(ev(Op::cuda_htod, cpu + 1, 0.01, 1));
    gpu_free = std::max(gpu_free, cpu + 1) + gpu_ms;
    cpu += 10;
    if (i % 4 == 3) {
      out.push_back(ev(Op::cuda_dtoh, cpu, 0.01, 1));
      const std::uint64_t wait = gpu_free > cpu ? gpu_free - cpu : 0;
      out.push_back(ev(Op::cuda_sync, cpu, static_cast<double>(wait)));
      cpu += wait;
    }
  }
  t_end = cpu;
  return out;
}

TEST(GpuStepTimes, BlockingSyncsOverCopiedStepsGiveTheGpusStep) {
  std::uint64_t end = 0;
  const auto events = loop(1000, 20, 40, end);
  const std::vector<GpuPass> passes = {pass(1000, end + 1, 20, false)};
  const GpuStepTimes g = gpu_step_times(events, passes, {});
  EXPECT_EQ(g.copies_per_step, 2u);
  EXPECT_TRUE(g.gpu_bound);
  // Anchors after steps 4, 8, 12, 16, 20: four intervals, the first left out (autotuning), the
  // last not followed by copies of the pass (its tail).
  ASSERT_EQ(g.intervals.size(), 2u);
  for (const auto& iv : g.intervals) {
    EXPECT_EQ(iv.steps, 4u);
    EXPECT_NEAR(iv.per_step_ns, 40e6, 0.3e6);  // the GPU's 40 ms, not the CPU's 10 ms
  }
}

TEST(GpuStepTimes, DataWaitsInsideAnIntervalAreNotCompute) {
  std::uint64_t end = 0;
  // Step 9 waits 500 ms for its batch: the GPU drains its queue and idles.
  const auto events = loop(1000, 20, 40, end, 9, 500);
  const std::vector<GpuPass> passes = {pass(1000, end + 1, 20, false)};
  // The wait as summarize's steps report it: the 500 ms before step 9's copies.
  std::uint64_t copy9 = 0;
  int copies = 0;
  for (const auto& e : events)
    if (e.op == Op::cuda_htod && copies++ == 18) copy9 = e.ts_ns;
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> waits = {{copy9 - 500 * kMs, copy9}};
  const GpuStepTimes g = gpu_step_times(events, passes, waits);
  // Steps 8-11 held the wait: the GPU worked off step 8 during its first 30 ms, so the interval
  // less the wait is too short (a lower bound); the clean interval of steps 12-15 is used (16-19
  // is the pass's tail).
  ASSERT_EQ(g.intervals.size(), 1u);
  EXPECT_EQ(g.intervals[0].data_wait_ns, 0u);
  EXPECT_EQ(g.intervals[0].steps, 4u);
  EXPECT_NEAR(g.intervals[0].per_step_ns, 40e6, 0.3e6);
  // With only that interval, its lower bound is what there is.
  const std::vector<GpuPass> first12 = {{1000 * kMs, 1953 * kMs + kMs / 2, 12, false}};
  const GpuStepTimes only = gpu_step_times(events, first12, waits);
  ASSERT_EQ(only.intervals.size(), 1u);
  EXPECT_EQ(only.intervals[0].data_wait_ns, 500 * kMs);
  EXPECT_LT(only.intervals[0].per_step_ns, 40e6);
  EXPECT_GT(only.intervals[0].per_step_ns, 30e6);
}

TEST(GpuStepTimes, AGpuThatKeepsUpGivesTheLoopsTime) {
  // 5 ms of GPU work a step against 10 ms of CPU: every sync returns at once (the GPU idles), so
  // the step is the loop's own 10 ms, not the GPU's 5.
  std::uint64_t end = 0;
  const auto events = loop(1000, 20, 5, end);
  const std::vector<GpuPass> passes = {pass(1000, end + 1, 20, false)};
  const GpuStepTimes g = gpu_step_times(events, passes, {});
  EXPECT_FALSE(g.gpu_bound);
  ASSERT_EQ(g.intervals.size(), 2u);
  for (const auto& iv : g.intervals) {
    EXPECT_FALSE(iv.gpu_busy);
    EXPECT_NEAR(iv.per_step_ns, 10e6, 0.1e6);
  }
}

// Loop-bound (5 ms of GPU work against 10 ms of CPU a step), with a 500 ms wait for data at step
// 9 behind a pin-memory thread (not seen, so not taken out of its interval): the step is the
// steps' mean period, the wait's period left out as over twice the median.
TEST(GpuStepTimes, ALoopBoundStepIsItsMeanPeriodLessTheWaits) {
  std::uint64_t end = 0;
  const auto events = loop(1000, 20, 5, end, 9, 500);
  const std::vector<GpuPass> passes = {pass(1000, end + 1, 20, false)};
  const GpuStepTimes g = gpu_step_times(events, passes, {});
  EXPECT_FALSE(g.gpu_bound);
  ASSERT_EQ(g.periods_ns.size(), 19u);  // 20 steps of one pass
  const StepPeriod p = step_period(g.periods_ns);
  EXPECT_EQ(p.used, 18u);
  EXPECT_NEAR(p.mean_ns, 10e6, 0.1e6);
  // The interval that held the wait is 10 steps' worth too long a step over its 4 steps.
  bool held = false;
  for (const auto& iv : g.intervals) held = held || iv.per_step_ns > 100e6;
  EXPECT_TRUE(held);
}

TEST(GpuStepTimes, IntervalsStayInsideTheirPassAndKind) {
  std::uint64_t mid = 0, end = 0;
  auto events = loop(1000, 16, 40, mid);
  const auto eval = loop(mid + 100, 16, 20, end);
  events.insert(events.end(), eval.begin(), eval.end());
  const std::vector<GpuPass> ns = {pass(1000, mid + 50, 16, false),
                                   pass(mid + 100, end + 1, 16, true)};
  const GpuStepTimes g = gpu_step_times(events, ns, {});
  EXPECT_EQ(g.eval_copies_per_step, 2u);
  // One per pass: each pass's first is left out, and its last (closed by the point before the
  // next pass's copies) is its tail.
  ASSERT_EQ(g.intervals.size(), 2u);
  EXPECT_FALSE(g.intervals[0].evaluation);
  EXPECT_NEAR(g.intervals[0].per_step_ns, 40e6, 0.3e6);
  EXPECT_TRUE(g.intervals[1].evaluation);
  EXPECT_NEAR(g.intervals[1].per_step_ns, 20e6, 0.3e6);
}

}  // namespace
}  // namespace dlgen::analysis::detail
