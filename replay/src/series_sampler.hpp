#pragma once
// The per-second time series of a run (Report::series): a thread that reads the live counters
// once a second of real time, until stopped. Private to the replay library.
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "dlgen/core/result.hpp"
#include "dlgen/replay/report.hpp"
#include "live_counters.hpp"

namespace dlgen::replay {

class SeriesSampler {
 public:
  explicit SeriesSampler(const LiveCounters& live) : live_(live) {}
  SeriesSampler(const SeriesSampler&) = delete;
  SeriesSampler& operator=(const SeriesSampler&) = delete;
  ~SeriesSampler() { stop(); }

  // Starts the sampling thread; an error when the system cannot start one.
  Result<void> start();
  // Stops and joins the thread (nothing when it never started) and hands over the points.
  std::vector<SeriesPoint> stop();

 private:
  void sample();

  const LiveCounters& live_;
  std::thread thread_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::vector<SeriesPoint> series_;
};

}  // namespace dlgen::replay
