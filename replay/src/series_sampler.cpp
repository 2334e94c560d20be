#include "series_sampler.hpp"

#include <algorithm>
#include <chrono>
#include <string>
#include <system_error>
#include <utility>

namespace dlgen::replay {

Result<void> SeriesSampler::start() {
  try {
    thread_ = std::thread([this] { sample(); });
  } catch (const std::system_error& e) {
    return runtime_error(std::string("cannot start the time-series thread: ") + e.code().message());
  }
  return ok();
}

std::vector<SeriesPoint> SeriesSampler::stop() {
  if (thread_.joinable()) {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  return std::move(series_);
}

// One point per second: the counters' increase since the previous point, and the levels now.
void SeriesSampler::sample() {
  using namespace std::chrono;
  const auto start = steady_clock::now();
  std::uint64_t last_b = 0, last_s = 0, last_r = 0;
  std::unique_lock lock(mu_);
  for (int i = 1; !stop_; ++i) {
    if (cv_.wait_until(lock, start + seconds(i), [&] { return stop_; })) break;
    SeriesPoint p;
    p.t_s = duration<double>(steady_clock::now() - start).count();
    const std::uint64_t b = live_.bytes.load(), s = live_.samples.load(), r = live_.requests.load();
    p.bytes = b - last_b;
    p.samples = s - last_s;
    p.requests = r - last_r;
    last_b = b;
    last_s = s;
    last_r = r;
    p.in_flight = static_cast<std::uint32_t>(std::max<std::int64_t>(0, live_.in_flight.load()));
    p.ready_batches = static_cast<std::uint32_t>(std::max<std::int64_t>(0, live_.ready.load()));
    series_.push_back(p);
  }
}

}  // namespace dlgen::replay
