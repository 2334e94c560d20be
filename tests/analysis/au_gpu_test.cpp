// The original's AU measured on the GPU (issue 18: "where the trace knows when the GPU was busy,
// report the original's measured accelerator utilisation"; docs/metrics.md, "AU of the original
// measured on the GPU"). The real captures in tests/data/gpu/cuda/ ran on one H200 with CUDA
// probes; each program logged every step's GPU time from CUDA events (NAME.truth.jsonl,
// tests/pytorch/README.md), so the truth is Σ compute_s / (the run's end − the first step's
// t_ready_ns), t_ready_ns being on the trace's clock.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include "dlgen/core/json.hpp"
#include <string>
#include <vector>

#include "dlgen/analysis/distil.hpp"
#include "dlgen/analysis/summary.hpp"
#include "dlgen/trace/trace_io.hpp"
#include "stages/gpu_compute.hpp"
#include "stages/stages.hpp"

namespace dlgen::analysis {
namespace {

const std::string kDir = std::string(DLGEN_SOURCE_DIR) + "/tests/data/gpu/cuda/";

struct Truth {
  double compute_s = 0;  // Σ compute_s over every step, training and validation
  std::uint64_t first_ready_ns = UINT64_MAX, last_ready_ns = 0;
  std::size_t steps = 0;
};

Truth truth_of(const std::string& name) {
  Truth t;
  std::ifstream in(kDir + name + ".truth.jsonl");
  std::string line;
  while (std::getline(in, line)) {
    const auto j = nlohmann::json::parse(line);
    if (j.value("event", "") != "step") continue;
    t.compute_s += j.at("compute_s").get<double>();
    const auto ready = j.at("t_ready_ns").get<std::uint64_t>();
    t.first_ready_ns = std::min(t.first_ready_ns, ready);
    t.last_ready_ns = std::max(t.last_ready_ns, ready);
    ++t.steps;
  }
  return t;
}

class GpuAuCapture : public ::testing::TestWithParam<std::string> {};

TEST_P(GpuAuCapture, MeasuredAuIsTheProgramsOwn) {
  const std::string& name = GetParam();
  auto t = trace::read_trace(kDir + name + ".h5");
  ASSERT_TRUE(t) << t.error().message;
  const TraceSummary s = summarize(*t);
  const Truth truth = truth_of(name);
  ASSERT_GT(truth.steps, 0u);
  // The run's end as AU defines it (the last step's end or checkpoint write), from the trace: the
  // program logs no end instant. Event times are relative to the trace's start on CLOCK_MONOTONIC;
  // the end lies past the last step's hand-over.
  ASSERT_TRUE(s.au_measured);
  const std::uint64_t end_ns = t->meta.start_mono_ns + s.run_end_ns;
  ASSERT_GT(end_ns, truth.last_ready_ns);
  const double wall = static_cast<double>(end_ns - truth.first_ready_ns) * 1e-9;
  const double au_truth = truth.compute_s / wall;

  ASSERT_TRUE(s.au_gpu.measured) << name;
  EXPECT_EQ(s.au_gpu.source, "cuda");
  EXPECT_NEAR(s.au_gpu.au, au_truth, 0.05)
      << name << ": GPU busy " << s.au_gpu.accelerators[0].busy_s << " s over "
      << s.au_gpu.accelerators[0].wall_s << " s; truth " << truth.compute_s << " s over " << wall
      << " s; AU from the compute gaps " << s.au;
  // The same wall as AU's.
  ASSERT_EQ(s.au_gpu.accelerators.size(), s.accelerators.size());
  for (std::size_t ai = 0; ai < s.accelerators.size(); ++ai)
    if (s.au_gpu.accelerators[ai].measured) {
      EXPECT_DOUBLE_EQ(s.au_gpu.accelerators[ai].wall_s, s.accelerators[ai].au_wall_s);
    }

  // In distil --json, and in the job's comment beside the AU from the compute gaps.
  const auto j = nlohmann::json::parse(to_json(s));
  ASSERT_TRUE(j.at("au_gpu").is_object());
  EXPECT_EQ(j["au_gpu"]["source"], "cuda");
  EXPECT_DOUBLE_EQ(j["au_gpu"]["au"].get<double>(), s.au_gpu.au);
  const Distilled d = distil(s);
  const auto it = d.comments.find("compute.time");
  ASSERT_NE(it, d.comments.end());
  EXPECT_NE(it->second.find("original AU measured on the GPU (CUDA)"), std::string::npos)
      << it->second;
  EXPECT_NE(it->second.find("from the main process's compute gaps"), std::string::npos)
      << it->second;
}

INSTANTIATE_TEST_SUITE_P(RealH200, GpuAuCapture,
                         ::testing::Values("imagenet", "imagenet_amp", "segmentation"));

// A trace without CUDA events has no measured AU: absent from the summary, null in the JSON. The
// same program on the same H200, captured before the CUDA probes existed (syscalls only).
TEST(GpuAu, NoCudaEventsNoMeasuredAu) {
  auto t = trace::read_trace(std::string(DLGEN_SOURCE_DIR) + "/tests/data/gpu/imagenet.h5");
  ASSERT_TRUE(t) << t.error().message;
  const TraceSummary s = summarize(*t);
  EXPECT_TRUE(s.au_measured);  // its AU from the compute gaps stands
  EXPECT_FALSE(s.au_gpu.measured);
  const auto j = nlohmann::json::parse(to_json(s));
  ASSERT_TRUE(j.contains("au_gpu"));
  EXPECT_TRUE(j["au_gpu"].is_null());
}

// The arithmetic on hand-made stages: busy = the GPU's time over the steps the timeline's intervals
// span + every other step at the median of its kind; over AU's wall; the run's is the lowest.
TEST(GpuAu, BusyIsSeenStepsPlusTheRestAtTheMedian) {
  stages::Passes p;
  p.epochs.resize(2);
  p.epochs[1].evaluation = true;
  stages::Checkpoints k;
  auto step = [](std::uint32_t acc, std::int32_t epoch) {
    Step st;
    st.accelerator = acc;
    st.epoch = epoch;
    return st;
  };
  // Accelerator 0: 10 training steps (one held a checkpoint) and 4 evaluation steps; accelerator
  // 1: 10 training steps, no CUDA calls on its main thread.
  for (int i = 0; i < 9; ++i) k.steps.push_back(step(0, 0));
  k.checkpoint_steps.push_back(step(0, 0));
  for (int i = 0; i < 4; ++i) k.steps.push_back(step(0, 1));
  for (int i = 0; i < 10; ++i) k.steps.push_back(step(1, 0));
  GpuCompute g;
  g.measured = true;
  g.step_s = 0.1;
  g.eval_step_s = 0;  // no evaluation interval: training's median
  g.seen.resize(2);
  g.seen[0].cuda = true;
  g.seen[0].s = 3.0;  // 6 steps, the first (autotuning) among them
  g.seen[0].steps = 6;
  stages::Utilisation au;
  au.measured = true;
  au.accelerators.resize(2);
  au.accelerators[0] = {true, 0.2, 1.0, 10.0, 0.5};
  au.accelerators[1] = {true, 0.3, 1.0, 5.0, 0.5};

  const GpuAu a = stages::gpu_utilisation(g, p, k, au);
  ASSERT_TRUE(a.measured);
  EXPECT_EQ(a.source, "cuda");
  ASSERT_EQ(a.accelerators.size(), 2u);
  const auto& a0 = a.accelerators[0];
  EXPECT_TRUE(a0.measured);
  EXPECT_EQ(a0.steps, 10u);
  EXPECT_EQ(a0.eval_steps, 4u);
  EXPECT_EQ(a0.seen_steps, 6u);
  // 3.0 s seen + 4 training steps × 0.1 s + 4 evaluation steps × 0.1 s.
  EXPECT_NEAR(a0.busy_s, 3.8, 1e-12);
  EXPECT_DOUBLE_EQ(a0.wall_s, 10.0);
  EXPECT_NEAR(a0.au, 0.38, 1e-12);
  EXPECT_FALSE(a.accelerators[1].measured);  // no CUDA calls: not measured, not the lowest
  EXPECT_NEAR(a.au, 0.38, 1e-12);

  // An evaluation median of its own; more steps seen than found caps the rest at none.
  g.eval_step_s = 0.05;
  g.seen[0].steps = 12;
  const GpuAu b = stages::gpu_utilisation(g, p, k, au);
  EXPECT_NEAR(b.accelerators[0].busy_s, 3.0 + 4 * 0.05, 1e-12);

  // Both accelerators measured: the run's is the lowest, au_mean their mean; capped at 1.
  g.seen[1].cuda = true;
  g.seen[1].s = 1.0;
  g.seen[1].steps = 10;
  const GpuAu c = stages::gpu_utilisation(g, p, k, au);
  EXPECT_NEAR(c.accelerators[1].au, 0.2, 1e-12);
  EXPECT_NEAR(c.au, 0.2, 1e-12);
  EXPECT_NEAR(c.au_mean, (0.32 + 0.2) / 2, 1e-12);
  g.seen[1].s = 9.0;
  EXPECT_DOUBLE_EQ(stages::gpu_utilisation(g, p, k, au).accelerators[1].au, 1.0);

  // No GPU step time measured: nothing.
  g.measured = false;
  EXPECT_FALSE(stages::gpu_utilisation(g, p, k, au).measured);
}

// The timeline's spans hold the first interval of a kind (left out of the median: cuDNN's
// autotuning) so that the GPU's time of the run's first steps counts, each from its first copy.
TEST(GpuAu, SpansKeepTheFirstInterval) {
  using trace::Op;
  auto ev = [](Op op, std::uint64_t ts_ms, std::uint64_t dur_ms) {
    trace::Event e;
    e.op = op;
    e.ts_ns = ts_ms * 1000000;
    e.dur_ns = dur_ms * 1000000;
    e.flags = op == Op::cuda_htod ? 1u : 0u;
    e.pid = e.tid = 1;
    return e;
  };
  // Sync, then per step one copy and a sync that waits: the first step 1 s, the others 50 ms.
  std::vector<trace::Event> events{ev(Op::cuda_sync, 0, 1)};
  std::uint64_t t = 10;
  for (int i = 0; i < 5; ++i) {
    events.push_back(ev(Op::cuda_htod, t, 0));
    const std::uint64_t gpu = i == 0 ? 1000 : 50;
    events.push_back(ev(Op::cuda_sync, t + 1, gpu - 1));
    t += gpu + 10;
  }
  events.push_back(ev(Op::cuda_htod, t, 0));  // the next pass's step closes the last interval
  const std::vector<detail::GpuPass> passes{{0, (t + 1) * 1000000, 6, false}};
  const auto g = detail::gpu_step_times(events, passes, {});
  // The spans run from each step's copy to the synchronisation that found the GPU done; the step
  // times from one synchronisation's end to the next.
  ASSERT_EQ(g.spans.size(), g.intervals.size() + 1);
  EXPECT_NEAR(g.spans.front().per_step_ns * 1e-9, 1.0, 1e-9);
  for (std::size_t i = 1; i < g.spans.size(); ++i)
    EXPECT_NEAR(g.spans[i].per_step_ns * 1e-9, 0.05, 1e-9);
  for (const auto& iv : g.intervals) EXPECT_NEAR(iv.per_step_ns * 1e-9, 0.06, 1e-9);
}

}  // namespace
}  // namespace dlgen::analysis
