#pragma once
// Samples per batch of a memory-mapped dataset, from its readers' page faults between their
// hand-overs (issue 18: "a sample is the pages one worker touches for one item, between two
// hand-overs"). faults_as_reads (mapped_files.hpp) makes each fault-around window a read, which
// keeps bytes per epoch but counts windows, not the program's items: a 2 KiB token window inside
// a 16 MiB np.memmap is one window, an 80 KiB LMDB value two or three.
//
// A DataLoader worker reads its batch's items one after the other, then hands the batch over
// (sendmsg, /dev/shm tensors). Between two hand-overs, each item shows as one touch: a run of the
// worker's faults on one file in adjacent windows (a value spanning windows faults them in
// order). An item shows nothing when its windows were mapped by the same process already, or
// lie in a page-cache folio the kernel maps without a tracepoint (2 MiB folios of a file still
// cached from being written). So a batch of B items shows, on average, B x P(f) touches, f being
// the share of the dataset's windows that could still fault for that worker (those it has not
// mapped yet, in 2 MiB blocks where some fault was ever seen) and P(f) the chance an item shows:
// 1 - (1 - f)^s for an item spanning s windows, over the spans of the touches seen while f was
// at least 0.9 (a worker's first batches, where a touch shows its item's whole span). The
// estimate is sum(touches) / sum(P(f))
// over the workers' batches, those that showed no touch included (a run of
// hand-overs as long as two batches' or more after a batch: left out, a worker late in its
// mapping, with few windows left to fault, would count only its batches that happened to show
// one, and B would come out too large).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "mapped_files.hpp"

namespace dlgen::analysis {

// One dataset directory's mapped files, as their workers touched them.
struct MappedTouches {
  double per_batch = 0;       // items per batch estimated (0: no worker batch showed a touch)
  std::uint64_t batches = 0;  // worker batches (those that showed no touch included)
  std::uint64_t touches = 0;  // their touches
  double shown = 0;           // share of the files' windows in blocks some fault showed
};

// Per directory of the mapped files in `found` (their parent path), from the faults of the
// processes that handed batches over (DataLoader workers); a directory none of whose files such
// a process faulted on is absent.
std::map<std::string, MappedTouches> mapped_touches(const trace::Trace& t,
                                                    const std::vector<MappedFile>& found);

}  // namespace dlgen::analysis
