#pragma once
// Time as the runner sees it, in nanoseconds of CLOCK_MONOTONIC. The accelerator "computes" by
// sleeping until a deadline; a fake clock lets tests model "120 ms per step" in no real time.
//
// Every way a runner thread blocks on time or on another runner thread goes through the Clock:
// sleep_until for time, wait/notify on a std::atomic<std::uint64_t> for hand-offs, ClockBarrier
// for rendezvous. A RealClock maps them to clock_nanosleep and std::atomic wait/notify_all; a
// FakeClock sees every blocked thread and so can run them as a discrete-event simulation.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "dlgen/engine/engine.hpp"

namespace dlgen::replay {

// A Clock is the engines' time source too (now_ns, sleep_until: engine.hpp), so a FakeClock runs
// the null engine's latencies in fake time.
class Clock : public engine::TimeSource {
 public:
  // Called once by each thread that will sleep, before it does (timer slack is per thread).
  virtual void prepare_thread() {}

  // Blocks while `a` holds `old` (std::atomic::wait); returns once it holds another value.
  virtual void wait(std::atomic<std::uint64_t>& a, std::uint64_t old) = 0;
  // Wakes every thread blocked in wait(a, ...): call it after changing `a`.
  virtual void notify(std::atomic<std::uint64_t>& a) = 0;

  // Thread membership, for a clock that must know every thread taking part (a FakeClock). Use
  // start_thread() and ClockHold below rather than these. add_thread() counts one more running
  // thread (called by the starter, before the thread exists), remove_thread() one less;
  // enter_thread() and leave_thread() mark the calling thread as the one counted.
  virtual void add_thread() {}
  virtual void remove_thread() {}
  virtual void enter_thread() {}
  virtual void leave_thread() {}
};

// Enters a thread into its clock for the scope's life (the thread's body): see start_thread().
class ClockThreadScope {
 public:
  explicit ClockThreadScope(Clock& clock) : clock_(clock) { clock_.enter_thread(); }
  ClockThreadScope(const ClockThreadScope&) = delete;
  ClockThreadScope& operator=(const ClockThreadScope&) = delete;
  ~ClockThreadScope() {
    clock_.leave_thread();
    clock_.remove_thread();
  }

 private:
  Clock& clock_;
};

// Holds a FakeClock's time still while alive, as one more running thread. A thread that starts
// several clock threads keeps one over the starts: otherwise the first thread, finding itself
// alone and blocked, would see time move (or a deadlock) before the others are registered.
class ClockHold {
 public:
  explicit ClockHold(Clock& clock) : clock_(clock) { clock_.add_thread(); }
  ClockHold(const ClockHold&) = delete;
  ClockHold& operator=(const ClockHold&) = delete;
  ~ClockHold() { clock_.remove_thread(); }

 private:
  Clock& clock_;
};

// Starts `fn` on a new thread that takes part in `clock`'s time. The thread is registered before
// it exists (a FakeClock cannot move time past a thread that has not run yet) and deregistered
// when `fn` returns. To start several, keep a ClockHold over the starts.
template <class Fn>
std::thread start_thread(Clock& clock, Fn fn) {
  clock.add_thread();
  try {
    return std::thread([&clock, fn = std::move(fn)]() mutable {
      const ClockThreadScope scope(clock);
      fn();
    });
  } catch (...) {
    clock.remove_thread();  // the thread never ran
    throw;
  }
}

// CLOCK_MONOTONIC with clock_nanosleep(TIMER_ABSTIME): absolute deadlines do not drift, and a
// timer slack of 1 ns (PR_SET_TIMERSLACK; the default 50 us would add ~50 us per step) gives
// wake-ups well under 1 ms late without spinning a core. Waits are plain futex waits.
class RealClock final : public Clock {
 public:
  std::int64_t now_ns() override;
  void sleep_until(std::int64_t deadline_ns) override;
  void prepare_thread() override;
  void wait(std::atomic<std::uint64_t>& a, std::uint64_t old) override { a.wait(old); }
  void notify(std::atomic<std::uint64_t>& a) override { a.notify_all(); }
};

// A discrete-event clock: threads sleep "at once", as on a real clock, at no real cost.
//
// What it models. Every thread that takes part is registered (start_thread). Time stands still
// while any registered thread runs; when every registered thread is blocked — sleeping until a
// deadline or waiting on an atomic through wait() — time jumps to the earliest deadline and
// exactly the sleepers due then wake. So N threads each sleeping D from t0 all wake at t0 + D,
// and a thread woken by notify() counts as running from that notify on (no false "all blocked").
// Running code takes no time: I/O, CPU work, checkpoints written by a thread, a blocking reap on
// a real engine (the thread counts as running meanwhile, so time waits for it). When every
// registered thread waits and none sleeps, nothing can ever wake them: the clock prints the
// deadlock and aborts rather than hang.
//
// What it does not model: CPU contention (any number of threads run in parallel), the cost of
// system calls, page-cache or device latency, and blocking that bypasses the clock (a mutex, a
// condition variable, a join, a kernel wait): such a thread counts as running, so it holds time
// still; if what it waits for needs time to move, the run hangs instead of aborting.
//
// A thread that is not registered may sleep or wait too: it takes part for the length of that
// call only (alone, sleep_until just moves time to the deadline). now_ns() never blocks.
class FakeClock final : public Clock {
 public:
  explicit FakeClock(std::int64_t start_ns = 1'000'000'000) : now_(start_ns) {}
  ~FakeClock() override;
  FakeClock(const FakeClock&) = delete;
  FakeClock& operator=(const FakeClock&) = delete;

  std::int64_t now_ns() override { return now_.load(std::memory_order_acquire); }
  void sleep_until(std::int64_t deadline_ns) override;
  void wait(std::atomic<std::uint64_t>& a, std::uint64_t old) override;
  void notify(std::atomic<std::uint64_t>& a) override;
  void add_thread() override;
  void remove_thread() override;
  void enter_thread() override;
  void leave_thread() override;
  // Moves time forward by `ns` at once, waking the sleepers due (for tests that drive the clock).
  void advance(std::int64_t ns);
  // For tests, a handshake instead of a real-time sleep: blocks the caller (outside the clock; it
  // takes no part) until at most `running` of the threads taking part are not blocked in
  // sleep_until or wait: e.g. 1 while a starter's ClockHold keeps time still and every thread it
  // started has blocked (or ended).
  void wait_until_running(std::uint32_t running);

 private:
  struct Blocked;
  void block(std::unique_lock<std::mutex>& lock, Blocked& b);
  void unblock(Blocked& b);
  void maybe_advance();
  void set_now(std::int64_t t);

  std::mutex mu_;
  std::atomic<std::int64_t> now_;  // written under mu_
  std::uint32_t threads_ = 0;      // registered threads, and unregistered ones inside a call
  std::uint32_t blocked_ = 0;      // of those, blocked in sleep_until or wait
  std::condition_variable settled_;  // wait_until_running: blocked_ rose or threads_ fell
  std::vector<Blocked*> sleepers_, waiters_;
};

// A reusable barrier on a Clock (std::barrier's contract, blocking through Clock::wait): the last
// of `count` threads to arrive runs `completion` (while the others wait), then all go on.
// arrive_and_drop() arrives and takes the thread out of every later phase.
class ClockBarrier {
 public:
  ClockBarrier(Clock& clock, std::uint32_t count, std::function<void()> completion = {})
      : clock_(clock), expected_(count), completion_(std::move(completion)) {}
  void arrive_and_wait();
  void arrive_and_drop();

 private:
  void complete_locked();

  Clock& clock_;
  std::mutex mu_;
  std::uint32_t expected_;
  std::uint32_t arrived_ = 0;
  std::function<void()> completion_;
  std::atomic<std::uint64_t> phase_{0};
};

}  // namespace dlgen::replay
