#pragma once
// Launching and reaping the traced command. It is forked at once but held on a pipe until the
// BPF side traces its pid, so that none of its I/O escapes the trace; then released to exec, and
// reaped when it exits. SIGINT and SIGTERM are caught while a capture runs and forwarded to it.
#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

#include "dlgen/core/result.hpp"

namespace dlgen::capture {

// SIGINT/SIGTERM handlers for the capture's lifetime (the previous ones come back on
// destruction). The terminal delivers Ctrl-C to the whole foreground group, command included
// (si_code SI_KERNEL); a kill(2) aimed at dlgen alone is forwarded to the command.
class SignalScope {
 public:
  SignalScope();
  ~SignalScope();
  SignalScope(const SignalScope&) = delete;
  SignalScope& operator=(const SignalScope&) = delete;
  // The signal that asked the capture to stop, 0 while none has.
  static int stop_signal();
};

class HeldCommand {
 public:
  HeldCommand() = default;  // no command (attached with -p)
  // Forks the command, held before exec; signals caught by a SignalScope go to it from now on.
  static Result<HeldCommand> fork(const std::vector<std::string>& command);
  // Closes the pipes; the command itself is left as it is (--duration leaves it running).
  ~HeldCommand();
  HeldCommand(HeldCommand&& o) noexcept;
  HeldCommand& operator=(HeldCommand&& o) noexcept;

  explicit operator bool() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }
  // Lets it exec and waits until it has (or failed to): "" once it runs, else why it could not
  // ("cannot run 'x': No such file or directory").
  std::string release();
  // SIGKILL and reap: a failed capture must not leave it running untraced.
  void kill();
  // Its exit status (its exit code, or 128+signal) once it has exited and been reaped; nullopt
  // while it runs.
  std::optional<int> poll_exit();
  // Reaps it, waiting (after a failed exec).
  void wait();

 private:
  pid_t pid_ = 0;
  int go_ = -1;   // write end: one byte releases it
  int err_ = -1;  // read end: exec's errno, or EOF once exec succeeded
  std::string name_;
};

}  // namespace dlgen::capture
