// The held start (fork, wait for the go byte, exec) and the command's reaping.
#include "traced_command.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace dlgen::capture {
namespace {

// Signals: set while a capture runs.
volatile sig_atomic_t g_stop = 0;
volatile pid_t g_child = 0;
void on_signal(int sig, siginfo_t* info, void*) {
  g_stop = sig;
  if (g_child > 0 && info && info->si_code != SI_KERNEL) ::kill(g_child, sig);
}

struct sigaction g_old_int {
}, g_old_term{};

// The child side of the held start: wait for the go byte, then exec; report exec failure's errno.
[[noreturn]] void run_child(int go_fd, int err_fd, const std::vector<std::string>& command) {
  char c = 0;
  if (::read(go_fd, &c, 1) != 1) ::_exit(127);  // go_fd is O_CLOEXEC: exec closes it
  std::vector<char*> argv;
  for (const auto& a : command) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  ::execvp(argv[0], argv.data());
  int e = errno;
  [[maybe_unused]] auto n = ::write(err_fd, &e, sizeof(e));
  ::_exit(127);
}

}  // namespace

SignalScope::SignalScope() {
  g_stop = 0;
  struct sigaction sa {};
  sa.sa_sigaction = on_signal;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &g_old_int);
  sigaction(SIGTERM, &sa, &g_old_term);
}

SignalScope::~SignalScope() {
  sigaction(SIGINT, &g_old_int, nullptr);
  sigaction(SIGTERM, &g_old_term, nullptr);
  g_child = 0;
}

int SignalScope::stop_signal() {
  return g_stop;
}

Result<HeldCommand> HeldCommand::fork(const std::vector<std::string>& command) {
  int go[2] = {-1, -1}, err[2] = {-1, -1};
  if (::pipe2(go, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0)
    return runtime_error(std::string("pipe: ") + std::strerror(errno));
  pid_t child = ::fork();
  if (child < 0) return runtime_error(std::string("fork: ") + std::strerror(errno));
  if (child == 0) {
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    ::close(go[1]);
    ::close(err[0]);
    run_child(go[0], err[1], command);
  }
  ::close(go[0]);
  ::close(err[1]);
  g_child = child;
  HeldCommand c;
  c.pid_ = child;
  c.go_ = go[1];
  c.err_ = err[0];
  c.name_ = command[0];
  return c;
}

HeldCommand::~HeldCommand() {
  if (go_ >= 0) ::close(go_);
  if (err_ >= 0) ::close(err_);
}

HeldCommand::HeldCommand(HeldCommand&& o) noexcept
    : pid_(std::exchange(o.pid_, 0)),
      go_(std::exchange(o.go_, -1)),
      err_(std::exchange(o.err_, -1)),
      name_(std::move(o.name_)) {}

HeldCommand& HeldCommand::operator=(HeldCommand&& o) noexcept {
  if (this != &o) {
    this->~HeldCommand();
    pid_ = std::exchange(o.pid_, 0);
    go_ = std::exchange(o.go_, -1);
    err_ = std::exchange(o.err_, -1);
    name_ = std::move(o.name_);
  }
  return *this;
}

std::string HeldCommand::release() {
  char c = 'g';
  [[maybe_unused]] auto n = ::write(go_, &c, 1);  // release the command
  ::close(std::exchange(go_, -1));
  int e = 0;
  ssize_t got;
  do got = ::read(err_, &e, sizeof(e));
  while (got < 0 && errno == EINTR);
  ::close(std::exchange(err_, -1));
  if (got == static_cast<ssize_t>(sizeof(e)))
    return "cannot run '" + name_ + "': " + std::strerror(e);
  return "";
}

void HeldCommand::kill() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  ::waitpid(pid_, nullptr, 0);
}

std::optional<int> HeldCommand::poll_exit() {
  int status = 0;
  if (::waitpid(pid_, &status, WNOHANG) != pid_) return std::nullopt;
  return WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
}

void HeldCommand::wait() {
  int status = 0;
  ::waitpid(pid_, &status, 0);
}

}  // namespace dlgen::capture
