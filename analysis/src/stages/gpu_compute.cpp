// gpu_compute: the accelerator's compute per step from the CUDA events of the training loop's
// thread (gpu_compute.hpp; docs/distil.md, "GPU compute").
#include "gpu_compute.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "stages.hpp"
#include "stats.hpp"

namespace dlgen::analysis {
namespace detail {
namespace {

using trace::Op;

bool blocking(const trace::Event& e) {
  return e.op == Op::cuda_sync || (e.op == Op::cuda_dtoh && !(e.flags & 1u));
}

// Copies per step of one pass kind: the copies in its passes over its steps, 0 unless whole.
std::uint32_t copies_per_step(const std::vector<trace::Event>& events,
                              const std::vector<GpuPass>& passes, bool evaluation) {
  std::uint64_t copies = 0, steps = 0;
  for (const auto& p : passes) {
    if (p.evaluation != evaluation) continue;
    steps += p.steps;
    for (const auto& e : events)
      if (e.op == Op::cuda_htod && e.ts_ns >= p.begin_ns && e.ts_ns < p.end_ns) ++copies;
  }
  if (!steps || copies < steps) return 0;
  const double k = static_cast<double>(copies) / static_cast<double>(steps);
  const double whole = std::round(k);
  return std::fabs(k - whole) <= 0.05 * whole ? static_cast<std::uint32_t>(whole) : 0;
}

using Waits = std::vector<std::pair<std::uint64_t, std::uint64_t>>;  // data waits [begin, end)

// An anchor: the last blocking point before a run of copies, with the copies that follow it up to
// the next anchor.
struct Anchor {
  const trace::Event* point;
  std::uint64_t copies_before = 0;          // copies between the previous anchor and this one
  std::uint64_t next_copy_ns = UINT64_MAX;  // the first copy after it
};

std::vector<Anchor> find_anchors(const std::vector<trace::Event>& events) {
  std::vector<Anchor> anchors;
  const trace::Event* last_point = nullptr;
  std::uint64_t copies = 0;
  bool copied_since_point = false;
  for (const auto& e : events) {
    if (blocking(e)) {
      last_point = &e;
      copied_since_point = false;
    } else if (e.op == Op::cuda_htod) {
      if (last_point && !copied_since_point) {
        anchors.push_back({last_point, copies, e.ts_ns});
        copies = 0;
      }
      copied_since_point = true;
      ++copies;
    }
  }
  // A blocking point after the last copies closes them.
  if (last_point && !copied_since_point && copies) anchors.push_back({last_point, copies});
  return anchors;
}

// The interval's data wait (its overlap with `waits`) and its time per step without it.
void per_step(GpuInterval& x, const Waits& waits) {
  x.data_wait_ns = 0;
  for (const auto& [w0, w1] : waits) {
    const std::uint64_t lo = std::max(w0, x.begin_ns), hi = std::min(w1, x.end_ns);
    if (hi > lo) x.data_wait_ns += hi - lo;
  }
  const std::uint64_t n = x.end_ns - x.begin_ns;
  x.per_step_ns =
      static_cast<double>(n - std::min(n, x.data_wait_ns)) / static_cast<double>(x.steps);
}

// The intervals of one pass between consecutive anchors, `k` copies a step. An interval closes on
// an anchor followed by more of its pass's copies: the last blocking point before the next pass's
// first copies lies past this pass's end (the accuracy read, a checkpoint's copies to the host,
// the next pass's start-up), so a pass's tail is not used. `first_interval`: the pass is the first
// of its kind, whose first interval is only a span.
void pass_intervals(const std::vector<Anchor>& anchors, const GpuPass& pass, std::uint32_t k,
                    const Waits& waits, bool first_interval, GpuStepTimes& out) {
  for (std::size_t i = 1; i < anchors.size(); ++i) {
    const trace::Event& a = *anchors[i - 1].point;
    const trace::Event& b = *anchors[i].point;
    std::uint64_t a_end = a.ts_ns + a.dur_ns;
    const std::uint64_t b_end = b.ts_ns + b.dur_ns;
    // A pass's first steps follow a blocking point before the pass (loading the model, the
    // previous pass's accuracy read): the GPU, idle there, starts on them at their first copy.
    // Such an interval is only a span (the GPU's time for the measured AU): its start is not a
    // synchronisation, so it is not a step time.
    const bool opens_before = a_end < pass.begin_ns;
    if (opens_before) a_end = anchors[i - 1].next_copy_ns;
    if (a_end < pass.begin_ns || b_end >= pass.end_ns || b_end <= a_end ||
        anchors[i].next_copy_ns >= pass.end_ns)
      continue;
    const std::uint64_t h = anchors[i].copies_before;
    if (h == 0 || h % k != 0) continue;
    const std::uint64_t len = b_end - a_end;
    GpuInterval iv;
    iv.gpu_busy = b.dur_ns >= std::max<std::uint64_t>(100000, len / 100);
    iv.begin_ns = a_end;
    iv.end_ns = b_end;
    iv.steps = h / k;
    iv.evaluation = pass.evaluation;
    per_step(iv, waits);
    // As a span, from the first copy after the opening anchor: the GPU, idle at the anchor's
    // end, starts on the steps when their first batch is copied (a pass's start-up, as an
    // evaluation's loader starting inside a pass, is not the GPU's).
    GpuInterval span = iv;
    span.begin_ns = std::max(a_end, std::min(anchors[i - 1].next_copy_ns, b_end));
    per_step(span, waits);
    out.spans.push_back(span);
    if (opens_before) continue;
    if (first_interval) {
      first_interval = false;
      continue;
    }
    out.intervals.push_back(iv);
  }
}

// The pass's tail (its last anchor closes past the pass): from that anchor to the first
// blocking point after the pass's last copy, when that point lies inside the pass and waited
// for the GPU (the GPU ran the tail's steps up to its end). Only a span, for the measured AU.
void pass_tail(const std::vector<trace::Event>& events, const std::vector<Anchor>& anchors,
               const GpuPass& pass, std::uint32_t k, const Waits& waits, GpuStepTimes& out) {
  const trace::Event* last_copy = nullptr;
  for (const auto& e : events)
    if (e.op == Op::cuda_htod && e.ts_ns >= pass.begin_ns && e.ts_ns < pass.end_ns) last_copy = &e;
  if (!last_copy) return;
  // (loss.item() is an asynchronous copy's call then a stream synchronisation: the first of
  // the blocking points before the next copy that waited.)
  const trace::Event* close = nullptr;
  for (const auto& e : events) {
    if (e.ts_ns <= last_copy->ts_ns) continue;
    if (e.op == Op::cuda_htod || e.ts_ns >= pass.end_ns) break;
    if (blocking(e) && e.dur_ns >= 100000) {
      close = &e;
      break;
    }
  }
  const Anchor* open = nullptr;
  for (const auto& an : anchors)
    if (an.point->ts_ns < last_copy->ts_ns) open = &an;
  if (!close || !open) return;
  // From the tail's first copy, as the spans of pass_intervals.
  const std::uint64_t a_end =
      std::max(open->point->ts_ns + open->point->dur_ns, open->next_copy_ns);
  const std::uint64_t b_end = close->ts_ns + close->dur_ns;
  if (a_end < pass.begin_ns || b_end >= pass.end_ns || b_end <= a_end) return;
  std::uint64_t h = 0;
  for (const auto& e : events)
    if (e.op == Op::cuda_htod && e.ts_ns >= a_end && e.ts_ns < close->ts_ns) ++h;
  const std::uint64_t len = b_end - a_end;
  if (h == 0 || h % k != 0 || close->dur_ns < std::max<std::uint64_t>(100000, len / 100)) return;
  GpuInterval iv;
  iv.gpu_busy = true;
  iv.begin_ns = a_end;
  iv.end_ns = b_end;
  iv.steps = h / k;
  iv.evaluation = pass.evaluation;
  per_step(iv, waits);
  out.spans.push_back(iv);
}

// GPU-bound when the closing synchronisation found the GPU busy for at least half the steps:
// then those intervals only. Otherwise the loop's own work is as long as the GPU's (or longer),
// and every interval is the loop's time per step, whichever of the two bound it.
void keep_gpu_bound(GpuStepTimes& out) {
  for (const bool evaluation : {false, true}) {
    std::uint64_t busy = 0, all = 0;
    for (const auto& iv : out.intervals)
      if (iv.evaluation == evaluation) {
        all += iv.steps;
        busy += iv.gpu_busy ? iv.steps : 0;
      }
    const bool bound = all && busy * 2 >= all;
    (evaluation ? out.eval_gpu_bound : out.gpu_bound) = bound;
    if (bound)
      out.intervals.erase(std::remove_if(out.intervals.begin(), out.intervals.end(),
                                         [&](const GpuInterval& iv) {
                                           return iv.evaluation == evaluation && !iv.gpu_busy;
                                         }),
                          out.intervals.end());
  }
}

// The GPU idles during a data wait only once it has drained what the loop had queued, so an
// interval holding one (over 5% of it) is a lower bound: used only where a kind has no other.
void drop_waiting(GpuStepTimes& out) {
  for (const bool evaluation : {false, true}) {
    auto held = [&](const GpuInterval& iv) {
      return iv.evaluation == evaluation && iv.data_wait_ns * 20 > iv.end_ns - iv.begin_ns;
    };
    const bool clean = std::any_of(
        out.intervals.begin(), out.intervals.end(),
        [&](const GpuInterval& iv) { return iv.evaluation == evaluation && !held(iv); });
    if (clean)
      out.intervals.erase(std::remove_if(out.intervals.begin(), out.intervals.end(), held),
                          out.intervals.end());
  }
}

// The pass's step periods (GpuStepTimes::periods_ns): the first copy of each run of exactly k
// copies, one step after another.
void pass_periods(const std::vector<trace::Event>& events, const GpuPass& pass, std::uint32_t k,
                  std::vector<double>& out) {
  std::vector<std::uint64_t> starts;
  std::uint64_t run_start = 0;
  std::uint32_t run = 0;
  auto close_run = [&] {
    if (run == k) starts.push_back(run_start);
    run = 0;
  };
  for (const auto& e : events) {
    if (e.ts_ns < pass.begin_ns || e.ts_ns >= pass.end_ns) continue;
    if (e.op != Op::cuda_htod) {
      if (blocking(e)) close_run();
      continue;
    }
    if (run > 0 && run == k) close_run();  // a step's copies are followed by its kernels
    if (run == 0) run_start = e.ts_ns;
    ++run;
  }
  close_run();
  for (std::size_t i = 1; i < starts.size(); ++i)
    out.push_back(static_cast<double>(starts[i] - starts[i - 1]));
}

}  // namespace

StepPeriod step_period(const std::vector<double>& periods_ns) {
  StepPeriod out;
  if (periods_ns.empty()) return out;
  const double cap = 2 * percentile(periods_ns, 0.5);
  double sum = 0;
  for (double p : periods_ns)
    if (p <= cap) sum += p, ++out.used;
  out.mean_ns = out.used ? sum / static_cast<double>(out.used) : 0;
  return out;
}

GpuStepTimes gpu_step_times(const std::vector<trace::Event>& events,
                            const std::vector<GpuPass>& passes, const Waits& waits) {
  GpuStepTimes out;
  out.copies_per_step = copies_per_step(events, passes, false);
  out.eval_copies_per_step = copies_per_step(events, passes, true);
  const std::vector<Anchor> anchors = find_anchors(events);
  std::map<bool, bool> first_of_kind_seen;
  for (const auto& pass : passes) {
    const std::uint32_t k = pass.evaluation ? out.eval_copies_per_step : out.copies_per_step;
    if (!k) continue;
    const bool first_interval = !first_of_kind_seen[pass.evaluation];
    first_of_kind_seen[pass.evaluation] = true;
    pass_intervals(anchors, pass, k, waits, first_interval, out);
    pass_tail(events, anchors, pass, k, waits, out);
    pass_periods(events, pass, k, pass.evaluation ? out.eval_periods_ns : out.periods_ns);
  }
  keep_gpu_bound(out);
  drop_waiting(out);
  std::sort(out.intervals.begin(), out.intervals.end(),
            [](const GpuInterval& x, const GpuInterval& y) { return x.begin_ns < y.begin_ns; });
  return out;
}

}  // namespace detail

namespace stages {

namespace {

// A loop-bound kind's step is the loop's own time per step, its steps' mean period
// (detail::step_period), in place of the intervals' median.
void loop_bound_steps(const std::vector<double>& periods, const std::vector<double>& eval_periods,
                      bool eval_measured, GpuCompute& out) {
  const detail::StepPeriod period = detail::step_period(periods);
  if (out.measured && !out.gpu_bound && period.mean_ns > 0) {
    out.step_s = period.mean_ns * 1e-9;
    out.periods = period.used;
  }
  const detail::StepPeriod eval_period = detail::step_period(eval_periods);
  if (eval_measured && !out.eval_gpu_bound && eval_period.mean_ns > 0) {
    out.eval_step_s = eval_period.mean_ns * 1e-9;
    out.eval_periods = eval_period.used;
  }
}

}  // namespace

GpuCompute gpu_compute(const trace::Trace& t, const Readers& r, const Passes& p, const Batches& b,
                       const Steps& st) {
  GpuCompute out;
  out.devices = t.meta.gpu.devices;
  out.driver = t.meta.gpu.driver;
  std::vector<double> train, eval, periods, eval_periods;
  out.seen.resize(r.accelerators.size());
  for (std::size_t ai = 0; ai < r.accelerators.size(); ++ai) {
    const std::uint32_t pid = r.accelerators[ai].pid;
    // The training loop's thread: the process's main thread.
    std::vector<trace::Event> events;
    for (const auto& e : t.events)
      if (trace::is_cuda(e.op) && e.op != trace::Op::cuda_launch && e.pid == pid && e.tid == pid)
        events.push_back(e);
    if (events.empty()) continue;
    out.seen[ai].cuda = true;
    // Passes: from the first receipt of a pass's batch to the next pass's, in receipt order (a
    // training pass an evaluation interrupts is two stretches).
    std::vector<std::pair<std::uint64_t, std::int32_t>> receipts;
    for (const auto& bt : b.batches)
      if (bt.accelerator == ai && bt.received_ns && bt.epoch >= 0)
        receipts.push_back({bt.received_ns, bt.epoch});
    std::stable_sort(receipts.begin(), receipts.end());
    std::vector<detail::GpuPass> passes;
    std::int32_t current = -1;
    for (const auto& [received, pass] : receipts) {
      if (passes.empty() || pass != current) {
        detail::GpuPass gp;
        gp.begin_ns = received;
        gp.end_ns = UINT64_MAX;
        gp.evaluation = p.evaluation(pass);
        if (!passes.empty()) passes.back().end_ns = gp.begin_ns;
        passes.push_back(gp);
        current = pass;
      }
      ++passes.back().steps;
    }
    // The loop's data waits: the tail of each step's interval, where the loop's thread receives
    // the batches itself. Behind an in-process hand-over (a pin-memory thread receives them) the
    // loop's waits are not seen (its steps are fitted, docs/distil.md): none taken out.
    std::set<std::uint32_t> receivers;
    for (const auto& e : t.events)
      if (e.op == trace::Op::recvmsg && e.pid == pid) receivers.insert(e.tid);
    const bool handed_over = !receivers.empty() && !receivers.count(pid);
    std::vector<std::pair<std::uint64_t, std::uint64_t>> waits;
    for (const auto& s : st.steps)
      if (!handed_over && s.accelerator == ai && s.wait_ns)
        waits.push_back({s.end_ns - s.wait_ns, s.end_ns});
    const detail::GpuStepTimes g = detail::gpu_step_times(events, passes, waits);
    periods.insert(periods.end(), g.periods_ns.begin(), g.periods_ns.end());
    eval_periods.insert(eval_periods.end(), g.eval_periods_ns.begin(), g.eval_periods_ns.end());
    out.copies_per_step = std::max(out.copies_per_step, g.copies_per_step);
    out.gpu_bound = out.gpu_bound || g.gpu_bound;
    out.eval_gpu_bound = out.eval_gpu_bound || g.eval_gpu_bound;
    for (const auto& iv : g.spans) {
      auto& seen = out.seen[ai];
      (iv.evaluation ? seen.eval_s : seen.s) +=
          iv.per_step_ns * static_cast<double>(iv.steps) * 1e-9;
      (iv.evaluation ? seen.eval_steps : seen.steps) += iv.steps;
    }
    for (const auto& iv : g.intervals)
      (iv.evaluation ? out.eval_busy_steps : out.busy_steps) += iv.gpu_busy ? iv.steps : 0;
    for (const auto& iv : g.intervals) {
      (iv.evaluation ? out.eval_intervals_s : out.intervals_s).push_back(iv.per_step_ns * 1e-9);
      (iv.evaluation ? out.eval_steps : out.steps) += iv.steps;
      out.data_wait_s += static_cast<double>(iv.data_wait_ns) * 1e-9;
      // The median over steps: each interval's figure once per step it spans.
      for (std::uint64_t i = 0; i < iv.steps; ++i)
        (iv.evaluation ? eval : train).push_back(iv.per_step_ns * 1e-9);
    }
  }
  out.measured = !train.empty();
  out.step_s = detail::percentile(train, 0.5);
  out.eval_step_s = detail::percentile(eval, 0.5);
  loop_bound_steps(periods, eval_periods, !eval.empty(), out);
  return out;
}

}  // namespace stages
}  // namespace dlgen::analysis
