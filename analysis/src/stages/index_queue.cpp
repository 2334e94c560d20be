// index_queue: when a DataLoader worker's batches are shared by another of its threads, the batch
// boundaries are the worker's reads of its index queue (stages.hpp, handovers_at_index_reads).
//
// PyTorch's worker loop takes a batch's indices from its index queue (a pipe), fetches the
// samples, collates and puts the batch on its result queue. A collate_fn that does not allocate in
// shared memory (apex's fast_collate: torch.from_numpy(np.stack(...))) leaves the sharing to the
// queue's feeder thread, which pickles the batch into /dev/shm tensors while the worker already
// reads the next batch: the handovers then fall a few samples into the next batch (batch 64 had
// been 61 + 3; tests/pytorch/heldout_gpu/prefetch_imagenet.py). The worker's own index reads are
// on time.
#include <algorithm>
#include <map>
#include <set>

#include "stages.hpp"

namespace dlgen::analysis::stages {

bool on_pipe(const trace::Trace& t, const trace::Event& e) {
  return e.ret > 0 && e.file < t.files.size() && t.files[e.file].path.rfind("pipe:", 0) == 0;
}

std::map<std::uint32_t, std::vector<std::uint64_t>> pipe_reads(
    const trace::Trace& t, const std::set<std::uint32_t>& tids) {
  std::map<std::uint32_t, std::vector<std::uint64_t>> out;
  for (const auto& e : t.events)
    if (trace::is_read(e.op) && tids.count(e.tid) && on_pipe(t, e)) out[e.tid].push_back(e.ts_ns);
  return out;
}

std::vector<std::uint64_t> handovers_at_index_reads(const std::vector<std::uint64_t>& accesses,
                                                    const std::vector<std::uint64_t>& index_reads,
                                                    const std::vector<std::uint64_t>& handovers) {
  if (accesses.empty() || index_reads.empty() || handovers.empty()) return handovers;
  // Batches: the accesses between consecutive index reads (a reset or stop message reads the
  // queue too, with no accesses after it). Each with its last access and the index read after it.
  struct Span {
    std::uint64_t last_access = 0, next_index = UINT64_MAX;
  };
  std::vector<Span> batches;
  std::size_t ri = 0;
  for (const std::uint64_t a : accesses) {
    const std::size_t before = ri;
    while (ri < index_reads.size() && index_reads[ri] <= a) ++ri;
    if (batches.empty() || ri > before) {
      if (!batches.empty()) batches.back().next_index = index_reads[before];
      batches.push_back({});
    }
    batches.back().last_access = a;
  }
  if (ri < index_reads.size()) batches.back().next_index = index_reads[ri];
  // k handovers a batch (data and label tensors), in order; else the rule does not apply.
  const std::size_t k = handovers.size() / batches.size();
  if (k == 0 || k * batches.size() != handovers.size()) return handovers;
  std::vector<std::uint64_t> out(handovers.size());
  for (std::size_t b = 0; b < batches.size(); ++b) {
    const std::uint64_t first = handovers[b * k];
    // A batch is shared after its last sample was read; a handover before that is not this one's.
    if (first < batches[b].last_access) return handovers;
    // Ready when the worker was done with it: it asked for its next indices, or shared it.
    const std::uint64_t ready = std::min(first, batches[b].next_index);
    for (std::size_t j = 0; j < k; ++j) out[b * k + j] = ready;
  }
  return out;
}

}  // namespace dlgen::analysis::stages
