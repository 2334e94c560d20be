#pragma once
// The live counters of one run: the threads of a pass add to them as they work; the time-series
// sampler, the progress line and the MPI watchdog read them meanwhile. Private to the replay
// library. Figures of the report come from the run's record (metrics.cpp), never from these.
#include <atomic>
#include <cstdint>

namespace dlgen::replay {

struct LiveCounters {
  std::atomic<std::uint64_t> bytes{0}, samples{0}, requests{0};
  std::atomic<std::uint64_t> checkpoint_bytes{0};  // written or restored so far
  std::atomic<std::int64_t> in_flight{0};          // requests the engines hold
  std::atomic<std::int64_t> ready{0};              // batches read, not yet taken

  // The sign of life for the watchdog: a count that only grows while the run makes progress.
  std::uint64_t work_done() const {
    return bytes.load() + samples.load() + requests.load() + checkpoint_bytes.load();
  }
};

}  // namespace dlgen::replay
