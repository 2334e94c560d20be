// sample_groups: samples made of several files (an image and its label, MLPerf's KiTS19
// case_*_x.npy + case_*_y.npy), which one worker reads back to back for each sample. A batch of B
// such samples shows B x k accesses between two handovers; the files of one sample are always read
// in the same order, one right after the other in the same batch, while which sample follows which
// changes with the shuffle.
#include <algorithm>
#include <map>

#include "stages.hpp"

namespace dlgen::analysis::stages {
namespace {

constexpr std::uint32_t kNone = UINT32_MAX;

// Each access's batch position: the batch of its reader it went into (the reader's first handover
// at or after it), as (reader, handover index).
std::vector<std::pair<std::uint32_t, std::size_t>> batch_of(const std::vector<Access>& as,
                                                            const std::vector<Batch>& batches) {
  std::map<std::uint32_t, std::vector<std::uint64_t>> ready;  // reader → its handovers, in order
  for (const auto& b : batches) ready[b.worker].push_back(b.ready_ns);
  for (auto& [r, ts] : ready) std::sort(ts.begin(), ts.end());
  std::vector<std::pair<std::uint32_t, std::size_t>> out;
  for (const auto& a : as) {
    const auto& ts = ready[a.reader];
    out.emplace_back(a.reader, static_cast<std::size_t>(
                                   std::lower_bound(ts.begin(), ts.end(), a.ts) - ts.begin()));
  }
  return out;
}

}  // namespace

std::uint32_t files_per_sample(const Classified& c, const std::vector<Access>& as,
                               const std::vector<Batch>& batches, std::uint32_t files_per_batch) {
  const int di = [&] {
    for (std::size_t i = 0; i < c.datasets.size(); ++i)
      if (c.datasets[i].cls == FileClass::train) return static_cast<int>(i);
    return -1;
  }();
  if (di < 0 || files_per_batch < 4) return 1;
  const auto where = batch_of(as, batches);
  // Per file: its reads, and the file its reader read next in the same batch (kNone: none, or not
  // always the same one).
  std::map<std::uint32_t, std::uint32_t> reads, next, next_count;
  std::map<std::uint32_t, const Access*> last;  // reader → its previous access
  std::map<std::uint32_t, std::size_t> last_i;
  for (std::size_t i = 0; i < as.size(); ++i) {
    const Access& a = as[i];
    if (a.dataset != di) continue;
    ++reads[a.file];
    auto p = last.find(a.reader);
    if (p != last.end() && where[last_i[a.reader]] == where[i] && p->second->pass == a.pass) {
      const std::uint32_t f = p->second->file;
      auto [it, added] = next.try_emplace(f, a.file);
      if (!added && it->second != a.file) it->second = kNone;
      ++next_count[f];
    }
    last[a.reader] = &a;
    last_i[a.reader] = i;
  }
  // Links f → g: every read of f (at least 2) was followed in its batch by g, and g was read as
  // often. A file with a link into it is not a sample's first file.
  std::map<std::uint32_t, std::uint32_t> link;
  std::map<std::uint32_t, bool> linked_into;
  for (const auto& [f, g] : next)
    if (g != kNone && reads[f] >= 2 && next_count[f] == reads[f] && reads[g] == reads[f])
      link[f] = g, linked_into[g] = true;
  // Samples: chains of links from a first file. A sample's last file followed by the same file
  // in every pass (few passes, by chance) joins two samples into one chain: k is the commonest
  // length, every chain a multiple of it, and most files in chains of exactly k.
  std::map<std::uint64_t, std::uint64_t> files_in;  // chain length → files in such chains
  std::uint64_t covered = 0;
  for (const auto& [f, n] : reads) {
    if (linked_into.count(f)) continue;
    std::uint64_t len = 1;
    for (auto it = link.find(f); it != link.end() && len <= reads.size();
         it = link.find(it->second))
      ++len;
    files_in[len] += len;
    covered += len;
  }
  std::uint64_t k = 0;
  for (const auto& [len, n] : files_in)
    if (k == 0 || n > files_in[k]) k = len;
  if (k < 2 || covered != reads.size() || files_in[k] * 4 < covered * 3) return 1;
  for (const auto& [len, n] : files_in)
    if (len % k != 0) return 1;
  // Chains as long as a batch are batches read in the same order every pass (no shuffle): the
  // files of a sample cannot be told from the samples of a batch then.
  if (files_per_batch % k != 0 || k >= files_per_batch) return 1;
  return static_cast<std::uint32_t>(k);
}

}  // namespace dlgen::analysis::stages
