#include "interrupt.hpp"

#include <unistd.h>

#include <cstdio>

namespace dlgen::cli {
namespace {

// The waiter's own wake-up at destruction: a real-time signal nothing else in dlgen uses.
int quit_signal() {
  return SIGRTMIN + 3;
}

sigset_t handled() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, quit_signal());
  return set;
}

}  // namespace

InterruptGuard::InterruptGuard(replay::StopSource& stop) {
  const sigset_t set = handled();
  pthread_sigmask(SIG_BLOCK, &set, &old_);
  waiter_ = std::thread([&stop, set] {
    for (int seen = 0;;) {
      int sig = 0;
      if (sigwait(&set, &sig) != 0 || sig == quit_signal()) return;
      if (++seen > 1) {
        static const char msg[] = "dlgen: interrupted again, stopping now\n";
        [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, msg, sizeof msg - 1);
        ::_exit(kInterruptedExit);
      }
      std::fprintf(stderr,
                   "\ndlgen: %s: stopping after the steps in hand and writing the results "
                   "(again to stop at once)\n",
                   sig == SIGINT ? "interrupted" : "terminated");
      stop.request();
    }
  });
}

InterruptGuard::~InterruptGuard() {
  pthread_kill(waiter_.native_handle(), quit_signal());
  waiter_.join();
  pthread_sigmask(SIG_SETMASK, &old_, nullptr);
}

}  // namespace dlgen::cli
