#pragma once
// The wait between tries of a request an engine refused for now (engine.hpp: transient_error).
#include <time.h>

#include <cstdint>
#include <thread>

namespace dlgen::engine {

// The wait between tries after a transient refusal (engine.hpp: transient_error), so that a
// refused thread leaves the CPU to whatever it waits for instead of spinning: a yield for the
// first 16 refusals in a row, then 1 ms sleeps; after kMaxRefusals in a row (about 2 s) the caller
// gives up.
class Backoff {
 public:
  static constexpr std::uint32_t kMaxRefusals = 2000;
  // Waits before the next try; false (no wait) once kMaxRefusals refusals came in a row.
  bool wait() {
    if (++refusals_ > kMaxRefusals) return false;
    if (refusals_ < 16) {
      std::this_thread::yield();
    } else {
      timespec ts{0, 1'000'000};
      ::nanosleep(&ts, nullptr);
    }
    return true;
  }
  void reset() { refusals_ = 0; }
  std::uint32_t refusals() const { return refusals_; }

 private:
  std::uint32_t refusals_ = 0;
};

}  // namespace dlgen::engine
