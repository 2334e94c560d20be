// The discrete-event FakeClock: concurrent sleepers overlap, hand-offs between threads give the
// exact times of a schedule computed by hand, no wake-up is lost, time never moves while a
// registered thread runs, and a deadlock aborts instead of hanging. Plus ClockBarrier, and the
// RealClock's wait/notify (std::atomic's).
#include "dlgen/replay/clock.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace dlgen::replay {
namespace {

constexpr std::int64_t ms = 1'000'000;

// Starts every function on its own clock thread, all registered before any runs, and joins them.
void run_all(Clock& clock, std::vector<std::function<void()>> fns) {
  std::vector<std::thread> threads;
  {
    const ClockHold starting(clock);
    for (auto& f : fns) threads.push_back(start_thread(clock, std::move(f)));
  }
  for (auto& t : threads) t.join();
}

TEST(FakeClock, ConcurrentSleepersAllEndAfterOneDuration) {
  FakeClock clock;
  const std::int64_t t0 = clock.now_ns();
  constexpr int n = 8;
  std::vector<std::int64_t> woke(n, 0);
  std::vector<std::function<void()>> fns;
  for (int i = 0; i < n; ++i)
    fns.push_back([&, i] {
      clock.sleep_until(clock.now_ns() + 100 * ms);
      woke[i] = clock.now_ns();
    });
  run_all(clock, std::move(fns));
  for (int i = 0; i < n; ++i) EXPECT_EQ(woke[i], t0 + 100 * ms) << "thread " << i;
  EXPECT_EQ(clock.now_ns(), t0 + 100 * ms) << "8 sleeps of 100 ms at once take 100 ms, not 800";
}

TEST(FakeClock, SleepersWakeInDeadlineOrderAtTheirDeadlines) {
  FakeClock clock;
  const std::int64_t t0 = clock.now_ns();
  std::mutex mu;
  std::vector<int> order;
  std::vector<std::int64_t> woke(5, 0);
  std::vector<std::function<void()>> fns;
  const std::int64_t delay[5] = {40, 10, 50, 20, 30};
  for (int i = 0; i < 5; ++i)
    fns.push_back([&, i] {
      clock.sleep_until(t0 + delay[i] * ms);
      woke[i] = clock.now_ns();
      std::lock_guard lock(mu);
      order.push_back(i);
    });
  run_all(clock, std::move(fns));
  for (int i = 0; i < 5; ++i) EXPECT_EQ(woke[i], t0 + delay[i] * ms) << "thread " << i;
  EXPECT_EQ(order, (std::vector<int>{1, 3, 4, 0, 2}));
}

// A schedule by hand (times in ms from t0):
//   A: sleeps 30, publishes x = 1, then sleeps 5 twice               -> A ends at 40
//   B: waits for x (30), computes 20, publishes y = 1                -> y at 50
//   C: sleeps 10, waits for y (50), sleeps 15 three times            -> C ends at 95
//   D: sleeps 25 four times, independent of the others               -> D ends at 100
// Every thread stamps each step; all stamps must be exact.
TEST(FakeClock, ChainOfSleepsAndWaitsFollowsTheHandComputedSchedule) {
  FakeClock clock;
  const std::int64_t t0 = clock.now_ns();
  std::atomic<std::uint64_t> x{0}, y{0};
  std::vector<std::int64_t> a, b, c, d;
  auto at = [&] { return (clock.now_ns() - t0) / ms; };
  std::vector<std::function<void()>> fns;
  fns.push_back([&] {
    clock.sleep_until(t0 + 30 * ms);
    a.push_back(at());
    x.store(1);
    clock.notify(x);
    for (int i = 0; i < 2; ++i) {
      clock.sleep_until(clock.now_ns() + 5 * ms);
      a.push_back(at());
    }
  });
  fns.push_back([&] {
    clock.wait(x, 0);
    b.push_back(at());
    clock.sleep_until(clock.now_ns() + 20 * ms);
    b.push_back(at());
    y.store(1);
    clock.notify(y);
  });
  fns.push_back([&] {
    clock.sleep_until(t0 + 10 * ms);
    c.push_back(at());
    clock.wait(y, 0);
    c.push_back(at());
    for (int i = 0; i < 3; ++i) {
      clock.sleep_until(clock.now_ns() + 15 * ms);
      c.push_back(at());
    }
  });
  fns.push_back([&] {
    for (int i = 0; i < 4; ++i) {
      clock.sleep_until(clock.now_ns() + 25 * ms);
      d.push_back(at());
    }
  });
  run_all(clock, std::move(fns));
  EXPECT_EQ(a, (std::vector<std::int64_t>{30, 35, 40}));
  EXPECT_EQ(b, (std::vector<std::int64_t>{30, 50}));
  EXPECT_EQ(c, (std::vector<std::int64_t>{10, 50, 65, 80, 95}));
  EXPECT_EQ(d, (std::vector<std::int64_t>{25, 50, 75, 100}));
  EXPECT_EQ(clock.now_ns(), t0 + 100 * ms);
}

// A producer/consumer pair like the runner's hand-off: the producer makes an item every 10 ms and
// may run 2 ahead; the consumer takes 25 ms per item. Consumer-bound: item k (from 0) is ready at
// 10(k+1), taken at max(ready, end of k-1); the producer stalls on the window. 6 items:
// taken at 10, 35, 60, 85, 110, 135; done at 160.
TEST(FakeClock, BoundedHandOffBetweenTwoThreadsIsExact) {
  FakeClock clock;
  const std::int64_t t0 = clock.now_ns();
  std::atomic<std::uint64_t> produced{0}, consumed{0};
  std::vector<std::int64_t> taken;
  constexpr std::uint64_t n = 6, window = 2;
  std::vector<std::function<void()>> fns;
  fns.push_back([&] {
    for (std::uint64_t k = 0; k < n; ++k) {
      for (std::uint64_t c; k >= (c = consumed.load()) + window;) clock.wait(consumed, c);
      clock.sleep_until(clock.now_ns() + 10 * ms);
      produced.store(k + 1);
      clock.notify(produced);
    }
  });
  fns.push_back([&] {
    for (std::uint64_t k = 0; k < n; ++k) {
      for (std::uint64_t p; (p = produced.load()) <= k;) clock.wait(produced, p);
      taken.push_back((clock.now_ns() - t0) / ms);
      consumed.store(k + 1);
      clock.notify(consumed);
      clock.sleep_until(clock.now_ns() + 25 * ms);
    }
  });
  run_all(clock, std::move(fns));
  EXPECT_EQ(taken, (std::vector<std::int64_t>{10, 35, 60, 85, 110, 135}));
  EXPECT_EQ(clock.now_ns(), t0 + 160 * ms);
}

// A value changed and notified before anyone waits is seen by the later wait (it returns at once),
// and 20,000 ping-pong hand-offs with no sleeper at all complete: a lost wake-up would leave both
// threads waiting, which the clock reports as a deadlock (abort). Time never moves.
TEST(FakeClock, NotifyBeforeWaitIsNotLostAndPingPongNeverDeadlocks) {
  FakeClock clock;
  const std::int64_t t0 = clock.now_ns();
  std::atomic<std::uint64_t> early{0};
  std::atomic<std::uint64_t> ball{0};
  constexpr std::uint64_t rounds = 20000;
  std::int64_t waited_at = 0;
  std::vector<std::function<void()>> fns;
  fns.push_back([&] {
    early.store(1);
    clock.notify(early);  // no waiter yet (the other thread sleeps first)
    for (std::uint64_t v = 0; v < rounds; v += 2) {
      for (std::uint64_t b; (b = ball.load()) != v;) clock.wait(ball, b);
      ball.store(v + 1);
      clock.notify(ball);
    }
  });
  fns.push_back([&] {
    clock.sleep_until(t0 + 10 * ms);
    clock.wait(early, 0);
    waited_at = clock.now_ns();
    for (std::uint64_t v = 1; v < rounds; v += 2) {
      for (std::uint64_t b; (b = ball.load()) != v;) clock.wait(ball, b);
      ball.store(v + 1);
      clock.notify(ball);
    }
  });
  run_all(clock, std::move(fns));
  EXPECT_EQ(ball.load(), rounds);
  EXPECT_EQ(waited_at, t0 + 10 * ms);
  EXPECT_EQ(clock.now_ns(), t0 + 10 * ms);
}

// A thread woken by notify counts as running at once, before it is scheduled: the notifier's
// next sleep (10 ms) must not let time jump while the woken thread has not run yet. The woken
// thread then sleeps 5 ms and must wake at t0 + 5, before the notifier's t0 + 10. Repeated to
// give the race many chances.
TEST(FakeClock, ANotifiedThreadCountsAsRunningBeforeItRuns) {
  for (int round = 0; round < 200; ++round) {
    FakeClock clock;
    const std::int64_t t0 = clock.now_ns();
    std::atomic<std::uint64_t> go{0};
    std::int64_t woke = -1, slept = -1, notifier_woke = -1;
    std::vector<std::function<void()>> fns;
    fns.push_back([&] {
      clock.wait(go, 0);
      woke = clock.now_ns();
      clock.sleep_until(woke + 5 * ms);
      slept = clock.now_ns();
    });
    fns.push_back([&] {
      go.store(1);
      clock.notify(go);
      clock.sleep_until(t0 + 10 * ms);
      notifier_woke = clock.now_ns();
    });
    run_all(clock, std::move(fns));
    ASSERT_EQ(woke, t0) << "round " << round;
    ASSERT_EQ(slept, t0 + 5 * ms) << "round " << round;
    ASSERT_EQ(notifier_woke, t0 + 10 * ms) << "round " << round;
  }
}

// start_thread registers the new thread before it exists: a parent that starts a child and
// sleeps at once cannot move time while the child has not run yet (here the child begins only
// once the parent is asleep). Registering inside the child would let the parent's sleep jump to
// t0 + 100.
TEST(FakeClock, RegistrationBeforeStartPreventsAnEarlyAdvance) {
  FakeClock clock;
  const std::int64_t t0 = clock.now_ns();
  std::int64_t child_began = -1, child_woke = -1, parent_woke = -1;
  std::thread parent = start_thread(clock, [&] {
    std::thread child = start_thread(clock, [&] {
      clock.wait_until_running(1);  // the parent sleeps first: only this child runs
      child_began = clock.now_ns();
      clock.sleep_until(child_began + 30 * ms);
      child_woke = clock.now_ns();
    });
    clock.sleep_until(t0 + 100 * ms);
    parent_woke = clock.now_ns();
    child.join();  // the child ended long before (at t0 + 30): this join does not block on time
  });
  parent.join();
  EXPECT_EQ(child_began, t0);
  EXPECT_EQ(child_woke, t0 + 30 * ms);
  EXPECT_EQ(parent_woke, t0 + 100 * ms);
}

// A ClockHold is one more running thread: a lone sleeper does not move time while it is held.
TEST(FakeClock, HoldKeepsTimeStillUntilReleased) {
  FakeClock clock;
  const std::int64_t t0 = clock.now_ns();
  std::thread t;
  {
    const ClockHold hold(clock);
    t = start_thread(clock, [&] {
      clock.sleep_until(t0 + 100 * ms);
    });
    clock.wait_until_running(1);  // the thread sleeps; only the hold runs
    EXPECT_EQ(clock.now_ns(), t0);
  }
  t.join();
  EXPECT_EQ(clock.now_ns(), t0 + 100 * ms);
}

// A thread that was never registered takes part only while it sleeps: alone, it moves time to
// its deadline at once (as the old FakeClock did); advance() moves time by hand.
TEST(FakeClock, UnregisteredSleeperAloneJumpsToItsDeadline) {
  FakeClock clock(5 * ms);
  clock.sleep_until(clock.now_ns() + 7 * ms);
  EXPECT_EQ(clock.now_ns(), 12 * ms);
  clock.sleep_until(3 * ms);  // in the past: returns at once
  EXPECT_EQ(clock.now_ns(), 12 * ms);
  clock.advance(8 * ms);
  EXPECT_EQ(clock.now_ns(), 20 * ms);
}

TEST(FakeClockDeathTest, EveryThreadWaitingAndNoneSleepingAborts) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  auto two_waiters = [] {
    FakeClock clock;
    std::atomic<std::uint64_t> a{0}, b{0};
    std::vector<std::function<void()>> fns;
    fns.push_back([&] { clock.wait(a, 0); });
    fns.push_back([&] {
      clock.sleep_until(clock.now_ns() + 10 * ms);
      clock.wait(b, 0);
    });
    run_all(clock, std::move(fns));
  };
  EXPECT_DEATH(two_waiters(), "deadlock at t = 1010000000 ns: all 2 threads wait");
}

// The last running thread ends without notifying: the one left waiting can never wake.
TEST(FakeClockDeathTest, AThreadEndingWithoutNotifyingLeavesADeadlock) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  auto forgotten = [] {
    FakeClock clock;
    std::atomic<std::uint64_t> a{0};
    std::vector<std::function<void()>> fns;
    fns.push_back([&] { clock.wait(a, 0); });
    fns.push_back([&] { clock.sleep_until(clock.now_ns() + 20 * ms); });
    run_all(clock, std::move(fns));
  };
  EXPECT_DEATH(forgotten(), "deadlock at t = 1020000000 ns: all 1 threads wait");
}

TEST(FakeClockDeathTest, ALoneUnregisteredWaiterAborts) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        FakeClock clock;
        std::atomic<std::uint64_t> a{0};
        clock.wait(a, 0);
      },
      "deadlock");
}

// Three threads arrive after 10, 30 and 20 ms: all leave at 30, the completion runs once per
// phase, in the last arriver, before anyone leaves. A second phase: arrivals at 30+5, 30+15 and
// a drop at 30+1 (the dropping thread no longer counts): they leave at 45.
TEST(ClockBarrier, LastArrivalReleasesEveryoneAtItsTime) {
  FakeClock clock;
  const std::int64_t t0 = clock.now_ns();
  std::vector<std::int64_t> completions;
  ClockBarrier barrier(clock, 3, [&] { completions.push_back((clock.now_ns() - t0) / ms); });
  std::int64_t left[3][2] = {};
  const std::int64_t first[3] = {10, 30, 20};
  const std::int64_t second[3] = {5, 15, 1};
  std::vector<std::function<void()>> fns;
  for (int i = 0; i < 3; ++i)
    fns.push_back([&, i] {
      clock.sleep_until(t0 + first[i] * ms);
      barrier.arrive_and_wait();
      left[i][0] = (clock.now_ns() - t0) / ms;
      clock.sleep_until(clock.now_ns() + second[i] * ms);
      if (i == 2) {
        barrier.arrive_and_drop();
        return;
      }
      barrier.arrive_and_wait();
      left[i][1] = (clock.now_ns() - t0) / ms;
    });
  run_all(clock, std::move(fns));
  for (int i = 0; i < 3; ++i) EXPECT_EQ(left[i][0], 30) << "thread " << i;
  EXPECT_EQ(left[0][1], 45);
  EXPECT_EQ(left[1][1], 45);
  EXPECT_EQ(completions, (std::vector<std::int64_t>{30, 45}));
}

// The RealClock's wait and notify are std::atomic's: a wait returns once the value changed.
TEST(RealClock, WaitReturnsAfterNotify) {
  RealClock clock;
  std::atomic<std::uint64_t> a{0};
  std::thread t([&] {
    for (std::uint64_t v = 0; v < 1000; ++v) {
      a.store(v + 1);
      clock.notify(a);
    }
  });
  for (std::uint64_t v; (v = a.load()) < 1000;) clock.wait(a, v);
  t.join();
  EXPECT_EQ(a.load(), 1000u);
}

}  // namespace
}  // namespace dlgen::replay
