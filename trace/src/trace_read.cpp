// read_trace: the HDF5 library (1.10, as Debian ships it) can crash on corrupt metadata, e.g. a
// global-heap object whose length runs past its collection (H5HG_read) or a chunk whose size runs
// past its buffer (H5VM_memcpyvv); no check on our side can reach inside it. So the file is read
// once in a forked child with every check of read_trace_in_process; only when the child finished
// without a signal does this process read it itself (same file, same library: the same path through
// it). A child that died says the file is corrupt (exit 2), with the signal. The child's error, if
// it found one, is passed back through a pipe, so the message is the same as in-process.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>

#include "dlgen/trace/trace_io.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define DLGEN_SANITIZER_INTERFACE 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DLGEN_SANITIZER_INTERFACE 1
#endif
#endif
#ifndef DLGEN_SANITIZER_INTERFACE
#define DLGEN_SANITIZER_INTERFACE 0
#endif
#if DLGEN_SANITIZER_INTERFACE
#include <sanitizer/common_interface_defs.h>
#endif

namespace dlgen::trace {
namespace {

// Writes all of `s` to `fd` (the child's error message), ignoring failures: the exit code
// still tells the parent what happened.
void write_all(int fd, const std::string& s) {
  std::size_t done = 0;
  while (done < s.size()) {
    const ssize_t n = ::write(fd, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

// The child's outcome: exit codes are the Error kinds, with the message in the pipe.
constexpr int kChildOk = 0;

constexpr bool kAsan = DLGEN_SANITIZER_INTERFACE;  // address sanitizer (gcc or clang)

// Corrupt lengths can also make libhdf5 allocate and copy gigabytes for one string (seen: 6 GB and
// 20 s for a 78 KB trace), or loop for ever in its metadata cache (H5HG__protect). The child gets a
// time limit (SIGALRM) of 10 s plus 1 s per 4 MB of file (a million events, ~4 MB, read in ~0.4 s),
// and an address-space limit of what it already maps plus the larger of 2 GiB and 128 bytes per
// byte of file (a read trace takes ~25x its file in memory). ASan reserves terabytes of address
// space, so its builds get the time limit only.
unsigned child_seconds(std::uint64_t file_bytes) {
  return static_cast<unsigned>(10 + std::min<std::uint64_t>(file_bytes / (4u << 20), 3600));
}

// The child dies of its own signals: handlers inherited from the parent (a fuzzer's, a
// sanitizer's) would report the child's crash as the parent's and save its input as a crash.
void default_signals() {
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM}) std::signal(sig, SIG_DFL);
#if DLGEN_SANITIZER_INTERFACE
  __sanitizer_set_death_callback(nullptr);
#endif
}

void limit_child(const std::filesystem::path& path) {
  default_signals();
  std::error_code ec;
  const std::uint64_t bytes = std::filesystem::file_size(path, ec);
  const std::uint64_t file_bytes = ec ? 0 : bytes;
  ::alarm(child_seconds(file_bytes));
  if (kAsan) return;
  unsigned long vm_pages = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%lu", &vm_pages) != 1) vm_pages = 0;
    std::fclose(f);
  }
  if (vm_pages == 0) return;
  const std::uint64_t extra = std::max<std::uint64_t>(
      2ull << 30, file_bytes < (1ull << 50) ? file_bytes * 128 : UINT64_MAX / 2);
  const std::uint64_t limit =
      static_cast<std::uint64_t>(vm_pages) * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE)) +
      extra;
  struct rlimit rl {
    limit, limit
  };
  ::setrlimit(RLIMIT_AS, &rl);
}

}  // namespace

Result<Trace> read_trace(const std::filesystem::path& path) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    return read_trace_in_process(path);  // cannot isolate: read directly
  const pid_t child = ::fork();
  if (child < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return read_trace_in_process(path);
  }
  if (child == 0) {
    ::close(fds[0]);
    // Sanitizer reports of a crash inside libhdf5 would only be noise here: the parent reports.
    const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null >= 0) ::dup2(null, STDERR_FILENO);
    limit_child(path);
    Result<Trace> t = read_trace_in_process(path);
    if (t) ::_exit(kChildOk);
    write_all(fds[1], t.error().message);
    ::_exit(t.error().exit_code());
  }
  ::close(fds[1]);
  std::string message;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    message.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0)
    if (errno != EINTR)
      return runtime_error(path.string() +
                           ": cannot wait for the trace reader: " + std::strerror(errno));
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
    std::error_code ec;
    const std::uint64_t bytes = std::filesystem::file_size(path, ec);
    return input_error(path.string() +
                       ": corrupt trace: the HDF5 library did not finish reading it in " +
                       std::to_string(child_seconds(ec ? 0 : bytes)) + " s");
  }
  if (WIFSIGNALED(status))
    return input_error(path.string() + ": corrupt trace: the HDF5 library crashed reading it (" +
                       strsignal(WTERMSIG(status)) + ")");
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (code == kChildOk) return read_trace_in_process(path);
  if (!message.empty())
    return Error{message, code == 1 ? ErrorKind::runtime : ErrorKind::bad_input};
  // A sanitizer's report (exit 1 without a message) or an abort inside the library.
  return input_error(path.string() + ": corrupt trace: the HDF5 library failed reading it (exit " +
                     std::to_string(code) + ")");
}

}  // namespace dlgen::trace
