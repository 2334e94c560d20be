// Batches that vary in size (a batch sampler of its own: a token budget, buckets by length): the
// training passes' samples per handover as a distribution for reader.batch_size (sections.hpp).
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "sections.hpp"

namespace dlgen::analysis::sections {

VaryingBatches varying_batches(const TraceSummary& s, std::uint32_t files_per_sample) {
  VaryingBatches v;
  if (s.batch_size == 0 || s.stream_shards || s.batches_from_read_bursts) return v;
  const std::uint32_t k = std::max<std::uint32_t>(files_per_sample, 1);
  std::map<std::uint64_t, std::uint64_t> count;  // samples → batches
  std::set<std::pair<std::int32_t, std::uint32_t>> passes;  // (pass, accelerator)
  for (const Batch& b : s.batches) {
    if (b.epoch < 0 || static_cast<std::size_t>(b.epoch) >= s.epochs.size() ||
        s.epochs[b.epoch].evaluation || b.samples < k)
      continue;
    ++count[b.samples / k];
    passes.insert({b.epoch, b.accelerator});
    ++v.batches;
  }
  if (count.size() < 3 || v.batches == 0) return v;
  const auto common = std::max_element(count.begin(), count.end(), [](auto& a, auto& b) {
    return a.second < b.second;
  });
  v.commonest = common->first;
  v.commonest_batches = common->second;
  // Off the commonest size: more than half the batches, beyond one a pass and accelerator (a
  // DataLoader's last partial batch).
  const std::uint64_t off = v.batches - common->second;
  if (off <= passes.size() || (off - passes.size()) * 2 <= v.batches) return v;
  v.sizes.kind = DistKind::histogram;
  std::uint64_t samples = 0;
  for (const auto& [size, n] : count) {
    v.sizes.bins.push_back({double(size), double(size), double(n)});
    samples += size * n;
  }
  v.smallest = count.begin()->first;
  v.largest = count.rbegin()->first;
  v.mean = double(samples) / double(v.batches);
  std::uint64_t seen = 0;
  for (const auto& [size, n] : count)
    if ((seen += n) * 2 >= v.batches) {
      v.median = size;
      break;
    }
  return v;
}

}  // namespace dlgen::analysis::sections
