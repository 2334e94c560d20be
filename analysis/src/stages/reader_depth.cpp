// reader_depth: how many dataset reads each reader had in flight at once. A reader's reads on one
// thread of ordinary system calls never overlap; they do when the reader is a process whose
// threads read for it (a DataLoader worker fetching its batch on a thread pool: its GETs on 8
// threads at once) or when it submits asynchronously (io_uring: dlgen's own replay at iodepth N).
#include <algorithm>
#include <map>
#include <vector>

#include "stages.hpp"

namespace dlgen::analysis::stages {

namespace {

struct Edge {
  std::uint64_t ts;
  int delta;
};

// The reads in flight that a reader spends 90% of its busy time (one read or more in flight) at
// or under, from its reads' starts and ends in time order: a time-weighted 90th percentile, so a
// brief overlap (a worker's reads of a sample stamped as overlapping: the GPU segmentation
// captures' workers had 2 at once for a moment) does not count, while a pool that stays full
// for most of a batch (8 threads at once) does.
std::uint32_t busy_p90(const std::vector<Edge>& edges) {
  std::map<int, std::uint64_t> ns_at;  // reads in flight → ns spent at that count
  std::uint64_t busy = 0, prev = 0;
  int inflight = 0;
  for (const auto& ed : edges) {
    if (inflight > 0) ns_at[inflight] += ed.ts - prev, busy += ed.ts - prev;
    prev = ed.ts;
    inflight += ed.delta;
  }
  std::uint64_t seen = 0;
  for (const auto& [count, ns] : ns_at)
    if ((seen += ns) * 10 >= busy * 9) return static_cast<std::uint32_t>(count);
  return 0;
}

}  // namespace

std::map<std::uint32_t, std::uint32_t> reads_in_flight(const trace::Trace& t, const Classified& c,
                                                       const std::vector<Access>& accesses) {
  std::map<std::uint32_t, std::uint32_t> reader_of;  // reading thread → its reader key
  for (const auto& a : accesses) reader_of[a.tid] = a.reader;
  std::map<std::uint32_t, std::vector<Edge>> edges;  // reader key → its reads' starts and ends
  for (const auto& e : t.events) {
    if (e.file == trace::kNoFile || !c.is_dataset_file(e.file) || !trace::is_read(e.op)) continue;
    const auto it = reader_of.find(e.tid);
    if (it == reader_of.end()) continue;
    auto& list = edges[it->second];
    list.push_back({e.ts_ns, +1});
    list.push_back({e.ts_ns + std::max<std::uint64_t>(e.dur_ns, 1), -1});
  }
  std::map<std::uint32_t, std::uint32_t> out;
  for (auto& [reader, list] : edges) {
    // Ends before starts at one instant: a read that begins as another ends does not overlap it.
    std::sort(list.begin(), list.end(), [](const Edge& a, const Edge& b) {
      return a.ts != b.ts ? a.ts < b.ts : a.delta < b.delta;
    });
    out[reader] = busy_p90(list);
  }
  return out;
}

}  // namespace dlgen::analysis::stages
