#pragma once
// SIGINT/SIGTERM during a run: the first one asks the runner to stop (the result file is still
// written, "interrupted": true, exit 130); a second one ends the process at once (exit 130).
// The signals are blocked in every thread started after construction and taken by one thread with
// sigwait, so the stop is requested from an ordinary thread (the runner's wake-ups are not
// async-signal-safe). Construct it before any other thread starts.
#include <pthread.h>
#include <signal.h>

#include <thread>

#include "dlgen/replay/runner.hpp"

namespace dlgen::cli {

class InterruptGuard {
 public:
  explicit InterruptGuard(replay::StopSource& stop);
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

 private:
  sigset_t old_{};
  std::thread waiter_;
};

// The exit status of a run the user interrupted (128 + SIGINT, as a shell reports it).
constexpr int kInterruptedExit = 130;

}  // namespace dlgen::cli
