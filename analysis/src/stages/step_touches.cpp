// step_touches: the training loop's steps as its first touch of each batch shows them. A
// DataLoader's consumer maps a batch's /dev/shm tensors when it receives the batch, and PyTorch
// receives batches early (out of order, cached, or all of an epoch's last ones while the loop is
// still some steps behind), but the loop touches a batch's pages only when it computes on it: the
// step's forward pass reads the tensor, and the kernel reports the first touch of each fault-around
// window of a fresh mapping as a page fault. So the loop's first fault on a batch's tensor is the
// start of that batch's step, in the order the loop took them, and a checkpoint written after
// step k sees k of them before it. The main thread's idle gaps tell less: the faults split a
// step's compute in pieces, a step before a checkpoint also holds the checkpoint's serialisation,
// and a wait for data is a gap too (tests/s3/heldout2/resume_ckpt.py: every 5 steps had been
// placed after 7, 8, 13 and 5, 11, 16).
#include <algorithm>

#include "stages.hpp"

namespace dlgen::analysis::stages {

StepLaunches step_touches(const trace::Trace& t, const Readers& r, const Passes& p,
                          const Batches& bt) {
  StepLaunches out;
  if (r.accelerators.empty() || bt.tensor_batch.empty()) return out;
  const std::uint32_t loop = r.accelerators[0].pid;  // its main thread: tid == pid
  std::vector<std::uint64_t> first(bt.batches.size(), 0);
  for (const auto& e : t.events) {
    if (e.op != trace::Op::fault || e.tid != loop) continue;
    const auto it = bt.tensor_batch.find(e.file);
    if (it == bt.tensor_batch.end() || it->second >= first.size()) continue;
    std::uint64_t& at = first[it->second];
    at = at == 0 ? e.ts_ns : std::min(at, e.ts_ns);
  }
  std::vector<std::uint64_t> touches;
  std::size_t batches = 0;
  for (std::size_t i = 0; i < bt.batches.size(); ++i) {
    const Batch& b = bt.batches[i];
    if (b.accelerator != 0 || b.epoch < 0 || p.evaluation(b.epoch)) continue;
    ++batches;
    if (first[i] != 0) touches.push_back(first[i]);
  }
  // Every training batch touched by the loop thread, or none of this: a batch it never touched
  // (a pin-memory thread copies the batches, a program that reads no tensor page) would hide a
  // step.
  if (batches == 0 || touches.size() != batches) return out;
  std::sort(touches.begin(), touches.end());
  out.kernels.push_back(std::move(touches));
  return out;
}

}  // namespace dlgen::analysis::stages
