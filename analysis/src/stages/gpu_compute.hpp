#pragma once
// The accelerator's own compute per step, from the CUDA driver calls of the training loop's thread
// (trace ops cuda_sync, cuda_htod, cuda_dtoh; docs/distil.md, "GPU compute"). CUDA queues kernels,
// so the CPU runs ahead of the GPU and its idle gaps are not the GPU's step: the GPU's timeline
// shows only where the CPU waits for it. At the end of a blocking synchronisation the GPU has
// finished everything queued before it; between two such ends it ran the steps whose batches were
// copied to it in between.
#include <cstdint>
#include <vector>

#include "dlgen/trace/trace.hpp"

namespace dlgen::analysis::detail {

// One pass as the loop's thread saw it: [begin_ns, end_ns) (its first batch's receipt to the next
// pass's), and the steps it took in it.
struct GpuPass {
  std::uint64_t begin_ns = 0, end_ns = 0;
  std::uint64_t steps = 0;
  bool evaluation = false;
};

// One measured interval between two anchors (see gpu_step_times).
struct GpuInterval {
  std::uint64_t begin_ns = 0, end_ns = 0;  // the two anchors' ends
  std::uint64_t steps = 0;                 // steps whose batches were copied in between
  std::uint64_t data_wait_ns = 0;          // the loop's data waits inside it
  double per_step_ns = 0;                  // (end - begin - data_wait) / steps
  bool gpu_busy = false;                   // the closing anchor waited for the GPU
  bool evaluation = false;
};

struct GpuStepTimes {
  std::vector<GpuInterval> intervals;                           // those used, in time order
  std::uint32_t copies_per_step = 0, eval_copies_per_step = 0;  // 0: not found
  bool gpu_bound = false, eval_gpu_bound = false;  // only intervals with a busy GPU were kept
  // The GPU's time over every step the timeline shows, for the original's measured AU
  // (docs/metrics.md): every interval between two anchors of a pass that holds whole steps, before
  // the choices below (the first of a kind, loop-bound ones in a GPU-bound kind, those holding
  // data waits kept), each from its first copy (the GPU idles from the anchor's end until the
  // steps' batch is copied); a pass's first steps after a blocking point before the pass; and
  // its tail, up to the first blocking point after its last copy that waited >= 100 us, inside
  // the pass.
  std::vector<GpuInterval> spans;
  // The loop's period per step: from one step's copies to the next step's, for consecutive steps
  // of one pass (a step's copies: a run of exactly copies-per-step copies with no blocking point
  // between), by kind. A loop-bound kind's step (step_period).
  std::vector<double> periods_ns, eval_periods_ns;
};

// A loop-bound kind's step: the mean of its steps' periods, those over twice their median left
// out (a wait for data, a checkpoint, a pass's start-up; the first steps' cuDNN autotuning). The
// intervals' median undercounts what a step costs when a few steps in an interval are slow and
// overcounts it when an interval holds a data wait behind a pin-memory thread (unseen) or a
// checkpoint. mean_ns 0: no periods.
struct StepPeriod {
  double mean_ns = 0;
  std::size_t used = 0;  // the periods averaged
};
StepPeriod step_period(const std::vector<double>& periods_ns);

// events: the loop thread's CUDA events in time order (other ops are skipped). waits: the loop's
// data waits [begin, end), any order. The rule (docs/distil.md):
//  - blocking points: every cuda_sync, and every synchronous cuda_dtoh (flags bit 0 clear); each
//    ends with the GPU idle;
//  - anchors: the last blocking point before each run of host-to-device copies (a step's batch);
//  - copies per step: the pass kind's copies in its passes over its steps, when that is a whole
//    number (within 5%);
//  - an interval between consecutive anchors of one pass, the closing one followed by more of
//    the pass's copies, counts when its copies are a whole number n >= 1 of steps; per step
//    (end - begin - data waits inside) / n;
//  - GPU-bound: when the closing anchor waited (dur >= max(100 us, 1% of the interval)) in
//    intervals holding at least half a kind's steps, only those are kept: the GPU was still busy,
//    so it ran all along except while the loop waited for data. Otherwise all are kept: the loop
//    is as slow as the GPU or slower, and its time per step is the step (loop-bound);
//  - an interval whose data waits are
//    over 5% of it is used only when its kind has no other (the GPU works off its queue during
//    the first part of a wait, so taking the whole wait out gives a lower bound);
//  - the first interval of the first pass of each kind is left out (cuDNN autotuning, lazy
//    initialisation).
GpuStepTimes gpu_step_times(const std::vector<trace::Event>& events,
                            const std::vector<GpuPass>& passes,
                            const std::vector<std::pair<std::uint64_t, std::uint64_t>>& waits);

}  // namespace dlgen::analysis::detail
