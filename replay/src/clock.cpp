#include "dlgen/replay/clock.hpp"

#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>
#include <time.h>

#include <cerrno>

namespace dlgen::replay {

std::int64_t RealClock::now_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return std::int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

void RealClock::sleep_until(std::int64_t deadline_ns) {
  timespec ts{};
  ts.tv_sec = deadline_ns / 1'000'000'000;
  ts.tv_nsec = deadline_ns % 1'000'000'000;
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
  }
}

// On a loaded host (2 shared cores) a woken thread can wait for a CPU for milliseconds; a
// real-time priority (root only, silently skipped otherwise) lets the sleeping accelerator
// thread run as soon as its deadline passes. It sleeps almost all the time, so it takes little.
void RealClock::prepare_thread() {
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  sched_param p{};
  p.sched_priority = 1;
  pthread_setschedparam(pthread_self(), SCHED_FIFO, &p);
}

void FakeClock::sleep_until(std::int64_t deadline_ns) {
  std::int64_t cur = now_.load(std::memory_order_relaxed);
  while (cur < deadline_ns && !now_.compare_exchange_weak(cur, deadline_ns, std::memory_order_relaxed)) {
  }
}

}  // namespace dlgen::replay
