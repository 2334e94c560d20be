#pragma once
// Time as the runner sees it, in nanoseconds of CLOCK_MONOTONIC. The accelerator "computes" by
// sleeping until a deadline; a fake clock lets tests model "120 ms per step" in no real time.
#include <atomic>
#include <cstdint>

namespace dlgen::replay {

class Clock {
 public:
  virtual ~Clock() = default;
  virtual std::int64_t now_ns() = 0;
  // Returns at (or just after) `deadline_ns`; returns at once when the deadline has passed.
  virtual void sleep_until(std::int64_t deadline_ns) = 0;
  // Called once by each thread that will sleep, before it does (timer slack is per thread).
  virtual void prepare_thread() {}
};

// CLOCK_MONOTONIC with clock_nanosleep(TIMER_ABSTIME): absolute deadlines do not drift, and a
// timer slack of 1 ns (PR_SET_TIMERSLACK; the default 50 us would add ~50 us per step) gives
// wake-ups well under 1 ms late without spinning a core.
class RealClock final : public Clock {
 public:
  std::int64_t now_ns() override;
  void sleep_until(std::int64_t deadline_ns) override;
  void prepare_thread() override;
};

// Time moves only when someone sleeps (or advance() is called): thread-safe, never blocks.
class FakeClock final : public Clock {
 public:
  std::int64_t now_ns() override { return now_.load(std::memory_order_relaxed); }
  void sleep_until(std::int64_t deadline_ns) override;
  void advance(std::int64_t ns) { now_.fetch_add(ns, std::memory_order_relaxed); }

 private:
  std::atomic<std::int64_t> now_{1'000'000'000};
};

}  // namespace dlgen::replay
