// stream_reads: the read granule of a streaming reader and the read of a shard's tail
// (StreamReads). A reader that streams a shard (tarfile `r|` over a file or over an HTTP body)
// pulls it through its own buffers, so each burst of reads ends on its granule, not at a sample:
// the bursts between two others are whole multiples of it (an HTTP body's first burst also holds
// what came with the response's head, its last the archive's end).
#include <algorithm>
#include <map>

#include "stages.hpp"

namespace dlgen::analysis::stages {
namespace {

// The candidate granules, ascending: 1 KiB x 2^k (socket and buffered-file reads) and
// 10 KiB x 2^k (tarfile's records of 20 blocks), up to 16 MiB.
std::vector<std::uint64_t> candidate_granules() {
  std::vector<std::uint64_t> out;
  for (std::uint64_t g = 1024; g <= (16u << 20); g *= 2) out.push_back(g);
  for (std::uint64_t g = 10240; g <= (16u << 20); g *= 2) out.push_back(g);
  std::sort(out.begin(), out.end());
  return out;
}

// The granule that the reads inside accesses (`inner`) are whole multiples of (StreamReads's
// rule), and how many of them are; {0, 0} when none qualifies.
std::pair<std::uint64_t, std::uint64_t> granule_of(const std::vector<std::uint64_t>& inner) {
  std::pair<std::uint64_t, std::uint64_t> best{0, 0};
  if (inner.size() < 8) return best;
  for (const std::uint64_t g : candidate_granules()) {
    const auto hits = static_cast<std::uint64_t>(
        std::count_if(inner.begin(), inner.end(), [g](std::uint64_t n) { return n % g == 0; }));
    if (4 * hits < inner.size()) continue;
    // Against the best so far: at least half its reads, and 1.5 times its share x granule (reads
    // spread over many granules are multiples of a k times larger one 1 in k by chance).
    const bool better = best.first == 0 || (2 * hits >= best.second &&
                                            double(hits) * double(g) >=
                                                1.5 * double(best.second) * double(best.first));
    if (better) best = {g, hits};
  }
  return best;
}

// The head before a shard on the granule's grid (StreamReads's rule) and the inner reads that end
// on that grid, from the inner reads' end offsets; {0, 0} when fewer than half end alike.
std::pair<std::uint64_t, std::uint64_t> head_of(const std::vector<std::uint64_t>& ends,
                                                std::uint64_t g) {
  std::map<std::uint64_t, std::uint64_t> at;
  for (std::uint64_t e : ends) ++at[e % g];
  const auto most = std::max_element(at.begin(), at.end(), [](const auto& a, const auto& b) {
    return a.second < b.second;
  });
  if (most == at.end() || 2 * most->second < ends.size()) return {0, 0};
  return {(g - most->first) % g, most->second};
}

// One dataset's StreamReads from its accesses.
StreamReads stream_reads_of(const Classified& c, const std::vector<const Access*>& as) {
  StreamReads out;
  std::vector<std::uint64_t> inner, ends;
  for (const Access* a : as)
    for (std::size_t i = 1; i + 1 < a->moved.size(); ++i) {
      inner.push_back(a->moved[i]);
      ends.push_back(a->offsets[i] + a->moved[i]);
    }
  std::tie(out.granule_bytes, out.granule_reads) = granule_of(inner);
  out.inner_reads = inner.size();
  if (out.granule_bytes == 0) return out;
  std::tie(out.head_bytes, out.head_reads) = head_of(ends, out.granule_bytes);
  std::vector<std::uint64_t> tails;
  for (const Access* a : as) {
    if (a->moved.size() < 2) continue;
    ++out.accesses;
    const std::uint64_t n = a->moved.back();
    if (n < out.granule_bytes && a->offsets.back() + n == c.files[a->file].size_bytes)
      tails.push_back(n);
  }
  out.tails = tails.size();
  if (tails.empty() || 4 * tails.size() < out.accesses) return out;
  std::nth_element(tails.begin(), tails.begin() + (tails.size() - 1) / 2, tails.end());
  out.tail_bytes = tails[(tails.size() - 1) / 2];
  return out;
}

}  // namespace

std::vector<StreamReads> stream_reads(const Classified& c, const std::vector<Access>& as) {
  std::vector<std::vector<const Access*>> of(c.datasets.size());
  for (const Access& a : as)
    if (a.dataset >= 0 && static_cast<std::size_t>(a.dataset) < of.size())
      of[a.dataset].push_back(&a);
  std::vector<StreamReads> out;
  for (const auto& accesses : of) out.push_back(stream_reads_of(c, accesses));
  return out;
}

}  // namespace dlgen::analysis::stages
