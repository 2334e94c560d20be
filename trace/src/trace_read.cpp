// read_trace: the HDF5 library (1.10, as Debian ships it) can crash on corrupt metadata, e.g. a
// global-heap object whose length runs past its collection (H5HG_read) or a chunk whose size runs
// past its buffer (H5VM_memcpyvv); no check on our side can reach inside it. So the file is read
// in a forked child, with every check of read_trace_in_process and time and memory limits; the
// child ships the tables it read through a pipe, and this process then reads only the attributes
// itself (which the child has shown to be safe). A child that died says the file is corrupt
// (exit 2), with the signal. The child's error, if it found one, comes back through the pipe, so
// the message is the same as in-process.
#include "trace_read.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "dlgen/trace/trace_io.hpp"
#include "h5_schema.hpp"

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

using schema::kHttpBurstColumns;
using schema::kHttpNumbers;
using schema::kHttpStrings;

// Writes all of `s` to `fd` (the child's error message), ignoring failures: the exit code
// still tells the parent what happened.
void write_all(int fd, std::string_view s) {
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

// The child ships what it read through the pipe: the tables (files, processes, events); the
// parent reads the attributes (Meta) itself, which the child has shown to be safe, so Meta needs
// no encoding here. Layout: "DLGT", then each table as a u64 count and its rows; strings as a u64
// length and bytes; events as their raw bytes (same binary on both sides of the fork).
constexpr char kMagic[4] = {'D', 'L', 'G', 'T'};
// A field added to File or Process must be added to encode_tables and decode_tables too; events
// travel as raw bytes, so any field of Event does (it must stay trivially copyable). HttpRequest
// rows travel as the columns of /http (h5_schema.hpp), so a field added there travels too, and
// their bursts as those of /http_body.
static_assert(sizeof(File) == 72 && sizeof(Process) == 104,
              "File or Process changed: carry the new field in encode_tables/decode_tables");
static_assert(std::is_trivially_copyable_v<Event>);

template <class T>
void put(std::string& out, const T& v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}
void put_string(std::string& out, const std::string& s) {
  put<std::uint64_t>(out, s.size());
  out += s;
}

std::string encode_tables(const Trace& t) {
  std::string out(kMagic, sizeof kMagic);
  put<std::uint64_t>(out, t.files.size());
  for (const File& f : t.files) {
    put_string(out, f.path);
    put(out, f.dev), put(out, f.ino), put(out, f.size_at_open), put(out, f.magic),
        put(out, f.magic_len);
  }
  put<std::uint64_t>(out, t.processes.size());
  for (const Process& p : t.processes) {
    put(out, p.pid), put(out, p.tgid), put(out, p.ppid);
    put_string(out, p.comm);
    put_string(out, p.first_comm);
    put(out, p.start_ns), put(out, p.end_ns), put(out, p.exit_code), put(out, p.is_thread);
  }
  put<std::uint64_t>(out, t.http.size());
  for (const HttpRequest& r : t.http) {
    put(out, r.pid), put(out, r.tid), put(out, r.fd), put(out, r.status);
    for (const auto& c : kHttpNumbers) put(out, r.*c.field);
    for (const auto& c : kHttpStrings) put_string(out, r.*c.field);
    put<std::uint64_t>(out, r.body.size());
    for (const HttpBurst& b : r.body)
      for (const auto& c : kHttpBurstColumns) put(out, b.*c.field);
  }
  put<std::uint64_t>(out, t.events.size());  // the events' raw bytes follow
  return out;
}

// Reads what encode_tables wrote, every length checked against what is left.
class Decoder {
 public:
  explicit Decoder(std::string_view in) : in_(in) {}
  template <class T>
  bool get(T& v) {
    if (in_.size() < sizeof v) return false;
    std::memcpy(&v, in_.data(), sizeof v);
    in_.remove_prefix(sizeof v);
    return true;
  }
  bool get_string(std::string& s) {
    std::uint64_t n = 0;
    if (!get(n) || n > in_.size()) return false;
    s.assign(in_.data(), n);
    in_.remove_prefix(n);
    return true;
  }
  // A count of rows of at least `min_row` bytes each.
  bool get_count(std::uint64_t& n, std::size_t min_row) {
    return get(n) && n <= in_.size() / min_row;
  }
  std::string_view rest() const { return in_; }
  void skip(std::size_t n) { in_.remove_prefix(n); }

 private:
  std::string_view in_;
};

bool decode_tables(std::string_view in, Trace& t) {
  if (in.size() < sizeof kMagic ||
      in.substr(0, sizeof kMagic) != std::string_view(kMagic, sizeof kMagic))
    return false;
  Decoder d(in.substr(sizeof kMagic));
  std::uint64_t n = 0;
  if (!d.get_count(n, 8)) return false;
  t.files.resize(n);
  for (File& f : t.files)
    if (!d.get_string(f.path) || !d.get(f.dev) || !d.get(f.ino) || !d.get(f.size_at_open) ||
        !d.get(f.magic) || !d.get(f.magic_len))
      return false;
  if (!d.get_count(n, 8)) return false;
  t.processes.resize(n);
  for (Process& p : t.processes)
    if (!d.get(p.pid) || !d.get(p.tgid) || !d.get(p.ppid) || !d.get_string(p.comm) ||
        !d.get_string(p.first_comm) || !d.get(p.start_ns) || !d.get(p.end_ns) ||
        !d.get(p.exit_code) || !d.get(p.is_thread))
      return false;
  if (!d.get_count(n, 8)) return false;
  t.http.resize(n);
  for (HttpRequest& r : t.http) {
    if (!d.get(r.pid) || !d.get(r.tid) || !d.get(r.fd) || !d.get(r.status)) return false;
    for (const auto& c : kHttpNumbers)
      if (!d.get(r.*c.field)) return false;
    for (const auto& c : kHttpStrings)
      if (!d.get_string(r.*c.field)) return false;
    if (!d.get_count(n, sizeof(HttpBurst))) return false;
    r.body.resize(n);
    for (HttpBurst& b : r.body)
      for (const auto& c : kHttpBurstColumns)
        if (!d.get(b.*c.field)) return false;
  }
  if (!d.get_count(n, sizeof(Event)) || d.rest().size() != n * sizeof(Event)) return false;
  t.events.resize(n);
  if (n > 0) std::memcpy(t.events.data(), d.rest().data(), n * sizeof(Event));  // may be null
  return true;
}

}  // namespace

Result<Trace> read_trace(const std::filesystem::path& path) {
  // The child's answer goes to an in-memory file: 80 MB of events per million move at memcpy
  // speed, and the parent reads it after the child is gone (no pipe to keep draining).
  const int out = ::memfd_create("dlgen-trace-read", MFD_CLOEXEC);
  if (out < 0) return read_trace_in_process(path);  // cannot isolate: read directly
  const pid_t child = ::fork();
  if (child < 0) {
    ::close(out);
    return read_trace_in_process(path);
  }
  if (child == 0) {
    // Sanitizer reports of a crash inside libhdf5 would only be noise here: the parent reports.
    const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null >= 0) ::dup2(null, STDERR_FILENO);
    limit_child(path);
    Result<Trace> t = read_trace_in_process(path);
    if (t) {
      write_all(out, encode_tables(*t));
      write_all(out, std::string_view(reinterpret_cast<const char*>(t->events.data()),
                                      t->events.size() * sizeof(Event)));
      ::_exit(kChildOk);
    }
    write_all(out, t.error().message);
    ::_exit(t.error().exit_code());
  }
  int status = 0;
  while (::waitpid(child, &status, 0) < 0)
    if (errno != EINTR) {
      ::close(out);
      return runtime_error(path.string() +
                           ": cannot wait for the trace reader: " + std::strerror(errno));
    }
  std::string message;  // the child's error, or its tables
  struct stat st {};
  if (::fstat(out, &st) == 0 && st.st_size > 0) {
    message.resize(static_cast<std::size_t>(st.st_size));
    std::size_t done = 0;
    while (done < message.size()) {
      const ssize_t n =
          ::pread(out, message.data() + done, message.size() - done, static_cast<off_t>(done));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    message.resize(done);
  }
  ::close(out);
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
  if (code == kChildOk) {
    Result<Trace> t = read_trace_in_process(path, true);
    if (!t) return t;
    if (!decode_tables(message, *t))
      return runtime_error(path.string() + ": the trace reader's child sent " +
                           std::to_string(message.size()) + " bytes that do not decode");
    return t;
  }
  if (!message.empty())
    return Error{message, code == 1 ? ErrorKind::runtime : ErrorKind::bad_input};
  // A sanitizer's report (exit 1 without a message) or an abort inside the library.
  return input_error(path.string() + ": corrupt trace: the HDF5 library failed reading it (exit " +
                     std::to_string(code) + ")");
}

}  // namespace dlgen::trace
