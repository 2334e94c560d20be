// Batches that vary in size (a batch sampler of its own: a token budget, buckets by length): the
// training passes' samples per handover as a distribution for reader.batch_size (sections.hpp).
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "sections.hpp"

namespace dlgen::analysis::sections {

namespace {

// The size of the batch of rank `rank` (from 0) in size order, of batches counted by size.
std::uint64_t size_at(const std::map<std::uint64_t, std::uint64_t>& count, std::uint64_t rank) {
  std::uint64_t seen = 0;
  for (const auto& [size, n] : count)
    if ((seen += n) > rank) return size;
  return count.empty() ? 0 : count.rbegin()->first;
}

}  // namespace

VaryingBatches varying_batches(const TraceSummary& s, std::uint32_t files_per_sample) {
  VaryingBatches v;
  if (s.batch_size == 0 || s.stream_shards || s.batches_from_read_bursts) return v;
  const std::uint32_t k = std::max<std::uint32_t>(files_per_sample, 1);
  std::map<std::uint64_t, std::uint64_t> count;             // samples → batches
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
  const auto common = std::max_element(count.begin(), count.end(),
                                       [](auto& a, auto& b) { return a.second < b.second; });
  v.commonest = common->first;
  v.commonest_batches = common->second;
  // Off the commonest size: more than half the batches, beyond one a pass and accelerator (a
  // DataLoader's last partial batch).
  const std::uint64_t off = v.batches - common->second;
  if (off <= passes.size() || (off - passes.size()) * 2 <= v.batches) return v;
  // And a wide spread: the upper quartile at least 1.5 times the lower. Accesses counted as
  // samples scatter a fixed batch a few around its size (a replay's reads of 16 MiB shards in
  // the golden lm_cold: 17-35 around 26, quartiles 24 and 29); a token budget's are 6 and 22.
  if (2 * size_at(count, v.batches * 3 / 4) < 3 * size_at(count, v.batches / 4)) return v;
  v.sizes.kind = DistKind::histogram;
  std::uint64_t samples = 0;
  for (const auto& [size, n] : count) {
    v.sizes.bins.push_back({double(size), double(size), double(n)});
    samples += size * n;
  }
  v.smallest = count.begin()->first;
  v.largest = count.rbegin()->first;
  v.mean = double(samples) / double(v.batches);
  v.median = size_at(count, v.batches / 2);
  return v;
}

bool write_varying_batches(JobWriter& x, std::uint32_t files_per_sample) {
  const VaryingBatches vary = varying_batches(x.s, files_per_sample);
  if (vary.sizes.kind != DistKind::histogram) return false;
  auto& r = x.out.job.reader;
  r.batch_sizes = vary.sizes;
  r.batch_size = static_cast<std::uint32_t>(std::max(1L, std::lround(vary.mean)));
  x.evidence(
      "reader.batch_size",
      "varies: " + std::to_string(vary.batches) + " handovers of the training passes carried " +
          std::to_string(vary.smallest) + "-" + std::to_string(vary.largest) + " samples (median " +
          std::to_string(vary.median) + ", mean " + fmt("%.1f", vary.mean) + "; " +
          std::to_string(vary.commonest_batches) + " carried " + std::to_string(vary.commonest) +
          ", the commonest): a batch sampler's own batches; each training batch's size "
          "is drawn from their histogram");
  return true;
}

}  // namespace dlgen::analysis::sections
