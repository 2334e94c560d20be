#include "dlgen/replay/clock.hpp"

#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>
#include <time.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>

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

// One thread blocked on a FakeClock: sleeping until `deadline` or waiting on `address`. It lives on
// the blocked thread's stack; whoever unblocks it (advance or notify) clears `blocked` and
// un-counts it under the clock's mutex, so it counts as running before it actually runs.
struct FakeClock::Blocked {
  std::int64_t deadline = 0;
  const void* address = nullptr;
  bool blocked = true;
  std::condition_variable cv;
};

namespace {
// The FakeClock the current thread is registered with (enter_thread), if any.
thread_local const FakeClock* t_member = nullptr;

[[noreturn]] void die(const char* what) {
  std::fprintf(stderr, "dlgen FakeClock: %s\n", what);
  std::fflush(stderr);
  std::abort();
}
}  // namespace

FakeClock::~FakeClock() {
  std::lock_guard lock(mu_);
  if (threads_ != 0) die("destroyed while threads still take part in it");
}

void FakeClock::add_thread() {
  std::lock_guard lock(mu_);
  ++threads_;
}

void FakeClock::enter_thread() {
  if (t_member) die("a thread entered a clock twice");
  t_member = this;
}

void FakeClock::remove_thread() {
  std::lock_guard lock(mu_);
  if (threads_ == 0) die("remove_thread without add_thread");
  --threads_;
  settled_.notify_all();
  maybe_advance();
}

void FakeClock::wait_until_running(std::uint32_t running) {
  std::unique_lock lock(mu_);
  settled_.wait(lock, [&] { return threads_ - blocked_ <= running; });
}

void FakeClock::leave_thread() {
  if (t_member == this) t_member = nullptr;
}

void FakeClock::set_now(std::int64_t t) {
  now_.store(t, std::memory_order_release);
}

void FakeClock::unblock(Blocked& b) {
  b.blocked = false;
  --blocked_;
  b.cv.notify_one();
}

// Blocks the calling thread (counted in blocked_ from here on) until someone unblocks it. A thread
// that is not registered takes part for the length of this call.
void FakeClock::block(std::unique_lock<std::mutex>& lock, Blocked& b) {
  const bool visitor = t_member != this;
  if (visitor) ++threads_;
  ++blocked_;
  settled_.notify_all();
  maybe_advance();  // may unblock `b` itself (a lone sleeper)
  b.cv.wait(lock, [&] { return !b.blocked; });
  if (visitor) {
    --threads_;
    maybe_advance();
  }
}

// Under mu_: when every thread taking part is blocked, moves time to the earliest deadline and
// wakes the sleepers due. With no sleeper, no thread can ever wake: a deadlock.
void FakeClock::maybe_advance() {
  if (threads_ == 0 || blocked_ < threads_) return;
  if (sleepers_.empty()) {
    char msg[160];
    std::snprintf(msg, sizeof msg, "deadlock at t = %lld ns: all %u threads wait and none sleeps",
                  static_cast<long long>(now_.load()), threads_);
    die(msg);
  }
  std::int64_t t = sleepers_.front()->deadline;
  for (const Blocked* s : sleepers_) t = std::min(t, s->deadline);
  set_now(std::max(t, now_.load()));
  std::erase_if(sleepers_, [&](Blocked* s) {
    if (s->deadline > t) return false;
    unblock(*s);
    return true;
  });
}

void FakeClock::sleep_until(std::int64_t deadline_ns) {
  std::unique_lock lock(mu_);
  if (deadline_ns <= now_.load()) return;
  Blocked b;
  b.deadline = deadline_ns;
  sleepers_.push_back(&b);
  block(lock, b);
}

void FakeClock::wait(std::atomic<std::uint64_t>& a, std::uint64_t old) {
  std::unique_lock lock(mu_);
  // The value is read under mu_ and notify() takes mu_ after the value changed: either this
  // read sees the change, or this thread is listed as a waiter before notify() looks.
  while (a.load() == old) {
    Blocked b;
    b.address = &a;
    waiters_.push_back(&b);
    block(lock, b);
  }
}

void FakeClock::notify(std::atomic<std::uint64_t>& a) {
  std::lock_guard lock(mu_);
  std::erase_if(waiters_, [&](Blocked* w) {
    if (w->address != &a) return false;
    unblock(*w);
    return true;
  });
}

void FakeClock::advance(std::int64_t ns) {
  std::lock_guard lock(mu_);
  const std::int64_t t = now_.load() + ns;
  set_now(t);
  std::erase_if(sleepers_, [&](Blocked* s) {
    if (s->deadline > t) return false;
    unblock(*s);
    return true;
  });
}

void ClockBarrier::complete_locked() {
  arrived_ = 0;
  if (completion_) completion_();
  phase_.fetch_add(1);
}

void ClockBarrier::arrive_and_wait() {
  std::unique_lock lock(mu_);
  const std::uint64_t phase = phase_.load();
  if (++arrived_ >= expected_) {
    complete_locked();
    lock.unlock();
    clock_.notify(phase_);
    return;
  }
  lock.unlock();
  clock_.wait(phase_, phase);
}

void ClockBarrier::arrive_and_drop() {
  std::unique_lock lock(mu_);
  if (expected_ == 0) return;
  --expected_;
  if (arrived_ < expected_) return;
  complete_locked();
  lock.unlock();
  clock_.notify(phase_);
}

}  // namespace dlgen::replay
