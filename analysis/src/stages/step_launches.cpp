// step_launches: the training loop's steps as its CUDA kernel launches show them. A loop that
// queues work on a GPU makes no syscall per step (docs/distil.md, "Batches and steps"), and behind
// a pin-memory thread or a prefetching loader the batches it receives run far ahead of the steps
// it takes (8 persistent workers with prefetch_factor 4 hand over a 32-step epoch before the loop
// takes its second step). Its kernels are launched in program order, though: a kernel launched by
// the same thread exactly once per training step (a backward or optimizer kernel; forward kernels
// run in evaluation steps too) has been launched k times when the loop has queued k steps, so a
// checkpoint or an evaluation written after step k sees k launches before it.
#include <algorithm>
#include <map>

#include "stages.hpp"

namespace dlgen::analysis::stages {

bool StepLaunches::empty() const {
  return kernels.empty();
}

std::uint64_t StepLaunches::before(std::uint64_t t) const {
  // Every kernel of a step is launched before whatever the loop does after the step, so they all
  // agree; the median keeps a kernel whose count matched the steps by chance (launched twice in
  // the first step's autotuning and never in some later one) from deciding.
  std::vector<std::uint64_t> counts;
  for (const auto& k : kernels)
    counts.push_back(
        static_cast<std::uint64_t>(std::lower_bound(k.begin(), k.end(), t) - k.begin()));
  if (counts.empty()) return 0;
  std::nth_element(counts.begin(), counts.begin() + counts.size() / 2, counts.end());
  return counts[counts.size() / 2];
}

StepLaunches step_launches(const trace::Trace& t, std::uint32_t pid, std::uint64_t steps) {
  StepLaunches out;
  if (steps == 0) return out;
  std::map<std::pair<std::uint32_t, std::uint64_t>, std::vector<std::uint64_t>> by_kernel;
  for (const auto& e : t.events)
    if (e.op == trace::Op::cuda_launch && e.pid == pid)
      by_kernel[{e.tid, e.offset}].push_back(e.ts_ns);
  for (auto& [kernel, times] : by_kernel)
    if (times.size() == steps) {
      std::sort(times.begin(), times.end());
      out.kernels.push_back(std::move(times));
    }
  return out;
}

}  // namespace dlgen::analysis::stages
