// [compute] of a distilled job: step time, evaluation step time, the consumer's batch overhead and
// the GPU's own compute when the trace measured it (sections.hpp).
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "dlgen/core/units.hpp"
#include "fit.hpp"
#include "sections.hpp"
#include "stats.hpp"

namespace dlgen::analysis::sections {
namespace {

// The original run's AU as the replay reports its own (docs/metrics.md): the lowest accelerator's,
// with the spread over accelerators when there are several.
std::string original_au(const TraceSummary& s) {
  if (!s.au_measured) return "original AU not measurable (no steps)";
  std::string out = "original AU " + pct(s.au, 1.0);
  std::size_t n = 0;
  double hi = 0;
  for (const auto& a : s.accelerators)
    if (a.au_wall_s > 0) ++n, hi = std::max(hi, a.au);
  if (n > 1)
    out += " (lowest of " + std::to_string(n) + " accelerators; highest " + pct(hi, 1.0) + ")";
  return out + " = compute / wall from the first batch to the end of the run";
}

// The original's AU measured on the GPU (TraceSummary::au_gpu, docs/metrics.md) beside the one
// from the main process's compute gaps.
std::string gpu_au(const TraceSummary& s) {
  const GpuAu& g = s.au_gpu;
  if (!g.measured) return original_au(s);
  double busy = 0, wall = 0;
  for (const auto& a : g.accelerators)
    if (a.measured && a.au == g.au) busy = a.busy_s, wall = a.wall_s;
  return "original AU measured on the GPU (CUDA) " + pct(g.au, 1.0) + " = GPU busy " +
         format_duration(busy) + " / wall " + format_duration(wall) +
         " from the first batch to the end of the run; from the main process's compute gaps, " +
         original_au(s);
}

// compute.batch_overhead: the consumer's own cost per batch (summarize's Step::consumer_ns) over
// the training steps: fixed at the median, or its 20 quantiles when right-skewed (as compute.time:
// an epoch's time is the sum of its steps, so the mean must survive too). Below 20 µs it is left
// out: the replay's own hand-off (a recvmsg and a wake-up) costs about that much.
void distil_batch_overhead(const TraceSummary& s, Job& job, JobWriter& x) {
  if (s.batches_from_read_bursts || s.consumer_time.count == 0) return;
  if (s.consumer_time.p50 < 20e-6) return;
  std::vector<double> costs;
  for (const auto& st : s.steps)
    if (st.epoch >= 0 && !s.epochs[st.epoch].evaluation)
      costs.push_back(static_cast<double>(st.consumer_ns) * 1e-9);
  std::string skew_why;
  if (auto h = skewed_times(costs, &skew_why))
    job.compute.batch_overhead = *h;
  else
    job.compute.batch_overhead =
        Distribution::fixed_at(std::round(s.consumer_time.p50 * 1e6) / 1e6);  // µs resolution
  x.evidence("compute.batch_overhead",
             "the main process's own time per batch outside compute and data wait (receiving it, "
             "unpickling, collating): " +
                 format_duration(s.consumer_time.p50) + " median over " +
                 std::to_string(s.consumer_time.count) + " training steps (p90 " +
                 format_duration(s.consumer_time.p90) + "; step time median " +
                 format_duration(s.step_time.p50) + ")" +
                 (skew_why.empty() ? "" : "; " + skew_why));
}

// A GPU-bound loop's steps are not all alike (every tenth waits at loss.item(), a few run long),
// and their intervals give only a mean. When the training steps measured between host-to-device
// copies are right-skewed, their 20 quantiles (skewed_times) scaled to the GPU's mean per step
// keep both: the replay's median step is the program's and its epochs as long. Returns the
// evidence's addition ("" when the step stays fixed).
std::string step_shape(const TraceSummary& s, double mean_s, Distribution& out) {
  std::vector<double> measured_s;
  for (const auto& st : s.steps)
    if (st.compute_measured && st.epoch >= 0 && !s.epochs[st.epoch].evaluation)
      measured_s.push_back(static_cast<double>(st.compute_ns) * 1e-9);
  std::string why;
  auto h = skewed_times(measured_s, &why);
  if (!h || mean_s <= 0) return "";
  const double scale = mean_s / h->expected();
  for (auto& b : h->bins) b.lo = b.hi = std::round(b.lo * scale * 1e6) / 1e6;
  out = *h;
  return "; the steps between host-to-device copies are " + why + ", scaled to that mean";
}

// compute.eval_batch_overhead: the consumer's own cost per evaluation batch, when it differs from
// the training batches' (more than 10% and 20 µs): a test loop takes its batches with other work
// than the training loop (no optimizer, no logging). Its median over the evaluation steps, fixed.
void distil_eval_overhead(const TraceSummary& s, Job& job, JobWriter& x) {
  if (!job.run.evaluates() || s.batches_from_read_bursts || s.consumer_time.count == 0) return;
  std::vector<double> costs;
  for (const auto& st : s.steps)
    if (st.epoch >= 0 && s.epochs[st.epoch].evaluation)
      costs.push_back(static_cast<double>(st.consumer_ns) * 1e-9);
  if (costs.size() < 3) return;
  const double e = detail::percentile(costs, 0.5);
  const double kept = e < 20e-6 ? 0.0 : std::round(e * 1e6) / 1e6;  // µs resolution
  const double train = job.compute.batch_overhead.expected();
  if (std::fabs(kept - train) <= std::max(0.1 * train, 20e-6)) return;
  job.compute.eval_batch_overhead = Distribution::fixed_at(kept);
  x.evidence("compute.eval_batch_overhead",
             "the main process's own time per evaluation batch outside compute and data wait: " +
                 format_duration(e) + " median over " + std::to_string(costs.size()) +
                 " evaluation steps (training: " + format_duration(train) + " mean)");
}

// The accelerator's own compute (TraceSummary::gpu) replaces the CPU's when the trace's CUDA events
// measured it: the CPU queues the GPU's work and runs ahead, so its busy time is not the step.
void distil_gpu_compute(const TraceSummary& s, Job& job, JobWriter& x) {
  const GpuCompute& g = s.gpu;
  if (!g.measured) return;
  auto us = [](double seconds) { return std::round(seconds * 1e6) / 1e6; };
  std::string gpus = "a GPU";
  if (!g.devices.empty()) {
    std::map<std::string, int> n;
    for (const auto& d : g.devices) ++n[d];
    gpus.clear();
    for (const auto& [name, count] : n)
      gpus += (gpus.empty() ? "" : ", ") + std::to_string(count) + " x " + name;
    if (!g.driver.empty()) gpus += " (driver " + g.driver + ")";
  }
  const double cpu = s.compute_time.p50;
  job.compute.step_time = Distribution::fixed_at(us(g.step_s));
  const std::string shape = step_shape(s, g.step_s, job.compute.step_time);
  const std::string bound =
      g.gpu_bound ? "; GPU-bound: the closing synchronisation found the GPU busy, so these "
                    "intervals are the GPU's own time"
                  : "; loop-bound: the GPU was busy at the closing synchronisation for only " +
                        std::to_string(g.busy_steps) + " of the " + std::to_string(g.steps) +
                        " steps, so the loop's own work per step is as long as the GPU's and the "
                        "step is the loop's time per step";
  const std::string how =
      g.periods > 0
          ? " mean period per training step, from one step's host-to-device copies to the next "
            "step's, over " +
                std::to_string(g.periods) +
                " step periods (those over twice the median left out: data waits, checkpoints, "
                "start-up); " +
                std::to_string(g.steps) + " steps in " + std::to_string(g.intervals_s.size()) +
                " intervals between the training loop's blocking CUDA synchronisations ("
          : " median per training step over " + std::to_string(g.steps) + " steps in " +
                std::to_string(g.intervals_s.size()) +
                " intervals between the training loop's blocking CUDA synchronisations, less its "
                "data waits inside them, over the steps whose batches were copied to the GPU in "
                "between (";
  x.evidence("compute.time",
             "measured on the GPU's timeline: " + gpus + ", " + format_duration(g.step_s) + how +
                 std::to_string(g.copies_per_step) + " host-to-device copies a step)" + bound +
                 "; the CPU's own busy time per step was " + format_duration(cpu) +
                 " (it queues the GPU's work and runs ahead); " + gpu_au(s) + shape);
  if (job.run.evaluates() && !g.eval_intervals_s.empty() &&
      std::fabs(g.eval_step_s - g.step_s) > 0.1 * g.step_s) {
    job.compute.eval_time = Distribution::fixed_at(us(g.eval_step_s));
    x.evidence("compute.eval_time",
               "measured on the GPU's timeline: " + gpus + ", " + format_duration(g.eval_step_s) +
                   (g.eval_periods ? " mean period" : " median") + " per evaluation step over " +
                   std::to_string(g.eval_intervals_s.size()) + " intervals (" +
                   std::to_string(g.eval_steps) + " steps), as compute.time");
  }
}

// compute.time from the training steps' compute: their 20 quantiles when right-skewed, else fixed
// at the median or a normal around it; the evidence says where the times came from (compute gaps,
// loading bursts, read-burst cadence).
void step_time(JobWriter& x) {
  const TraceSummary& s = x.s;
  Job& job = x.out.job;
  const auto& c = s.compute_time;
  Distribution d;
  auto us = [](double seconds) { return std::round(seconds * 1e6) / 1e6; };  // µs resolution
  // Robust to the odd mis-attributed gap: centre on the median, spread from p50..p90
  // (z(0.9) = 1.2816 for a normal), fixed when that spread is under 5% of the median.
  const double spread = (c.p90 - c.p50) / 1.2816;
  std::vector<double> measured_s;
  for (const auto& st : s.steps)
    if (st.epoch >= 0 && !s.epochs[st.epoch].evaluation)
      measured_s.push_back(static_cast<double>(st.compute_ns) * 1e-9);
  std::string skew_why;
  const bool consumer_loads = !s.accelerators.empty() && s.accelerators[0].reads_itself;
  // (Bursts without steps: the idle gaps before them stand for the compute.)
  if (s.batches_from_read_bursts && consumer_loads && measured_s.empty())
    measured_s = s.burst_gaps_s;
  if (auto h = s.batches_from_read_bursts && !consumer_loads
                   ? std::nullopt
                   : skewed_times(measured_s, &skew_why)) {
    d = *h;
  } else if (c.count < 3 || spread <= 0.05 * c.p50) {
    d = Distribution::fixed_at(us(c.p50));
  } else {
    d.kind = DistKind::normal;
    d.mean = us(c.p50);
    d.stdev = us(spread);
    // No clipping at the observed minimum: sleep and scheduling overshoot skew compute to the
    // right, and a normal clipped near its centre would move its mean off the median.
    d.min = us(std::max(0.0, c.p50 - 3 * spread));
  }
  job.compute.step_time = d;
  std::uint64_t measured = 0;
  for (const auto& st : s.steps)
    measured += st.compute_measured && st.epoch >= 0 && !s.epochs[st.epoch].evaluation;
  if (s.batches_from_read_bursts && consumer_loads)
    x.evidence("compute.time", "idle gap before each of the main process's loading bursts: " +
                                   format_duration(c.p50) +
                                   " median (it loads a batch, then computes)" +
                                   (skew_why.empty() ? "" : "; " + skew_why));
  else if (s.batches_from_read_bursts)
    x.evidence("compute.time",
               "step cadence of the readers' bursts: " + format_duration(c.p50) +
                   " median (an upper bound of compute; no handovers in the trace)");
  else
    x.evidence("compute.time", "main process busy " + format_duration(c.p50) +
                                   " median per step (p90 " + format_duration(c.p90) + ") over " +
                                   std::to_string(c.count) + " steps, " + std::to_string(measured) +
                                   " measured with the next batch ready; data wait median " +
                                   format_duration(s.data_wait_time.p50) + ", " + original_au(s) +
                                   (skew_why.empty() ? "" : "; " + skew_why));
}

// Evaluation steps (a validation pass: forward only) have their own compute time when the
// trace shows one that differs from training's by more than 10%.
void eval_time(JobWriter& x) {
  const TraceSummary& s = x.s;
  Job& job = x.out.job;
  const auto& c = s.compute_time;
  auto us = [](double seconds) { return std::round(seconds * 1e6) / 1e6; };  // µs resolution
  std::vector<double> eval_s;
  for (const auto& st : s.steps)
    if (st.compute_measured && st.epoch >= 0 && s.epochs[st.epoch].evaluation)
      eval_s.push_back(static_cast<double>(st.compute_ns) * 1e-9);
  if (job.run.evaluates() && eval_s.size() >= 3) {
    const double e = detail::percentile(eval_s, 0.5);
    if (std::fabs(e - c.p50) > 0.1 * c.p50) {
      job.compute.eval_time = Distribution::fixed_at(us(e));
      x.evidence("compute.eval_time",
                 "main process busy " + format_duration(e) + " median per evaluation step over " +
                     std::to_string(eval_s.size()) +
                     " measured steps (training: " + format_duration(c.p50) + ")");
    }
  }
}

}  // namespace

// [compute]: step time and evaluation step time, then the batch overhead and the GPU's compute.
void distil_compute(JobWriter& x) {
  const TraceSummary& s = x.s;
  Job& job = x.out.job;
  if (s.compute_time.count > 0) {
    step_time(x);
    eval_time(x);
    distil_batch_overhead(s, job, x);
    distil_eval_overhead(s, job, x);
    distil_gpu_compute(s, job, x);
  } else {
    job.compute.step_time = Distribution::fixed_at(0);
    x.note("compute.time: no step intervals (no batch receipts by the main process); 0 assumed");
    x.evidence("compute.time", "not inferred");
  }
}

}  // namespace dlgen::analysis::sections
