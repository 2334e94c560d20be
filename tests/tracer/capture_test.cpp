// Captures real programs with the BPF tracer and checks that the trace holds exactly the I/O they
// did. Needs BPF privilege (root); skips where BPF cannot be loaded.
#include "dlgen/capture/capture.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <thread>

#include "dlgen/trace/trace_io.hpp"
#include "temp_dir.hpp"

namespace dlgen::capture {
namespace {

using trace::Op;

// A TraceWriter keeping everything in memory.
class MemoryWriter : public trace::TraceWriter {
 public:
  trace::Trace trace;
  int flushes = 0;
  bool finished = false;
  Result<void> append(const std::vector<trace::Event>& events) override {
    trace.events.insert(trace.events.end(), events.begin(), events.end());
    return ok();
  }
  Result<void> append_http(std::vector<trace::HttpRequest> rows) override {
    trace.http.insert(trace.http.end(), rows.begin(), rows.end());
    return ok();
  }
  Result<void> flush(const trace::Meta& m, const std::vector<trace::File>& f,
                     const std::vector<trace::Process>& p) override {
    ++flushes;
    trace.meta = m;
    trace.files = f;
    trace.processes = p;
    return ok();
  }
  Result<void> finish(const trace::Meta& m, const std::vector<trace::File>& f,
                      const std::vector<trace::Process>& p) override {
    finished = true;
    return flush(m, f, p);
  }
};

#define DLGEN_REQUIRE_BPF()                                                                    \
  do {                                                                                         \
    auto probe = probe_bpf();                                                                  \
    if (!probe) {                                                                              \
      if (probe.error().kind == ErrorKind::unsupported) GTEST_SKIP() << probe.error().message; \
      FAIL() << probe.error().message;                                                         \
    }                                                                                          \
  } while (0)

void make_file(const std::filesystem::path& p, std::size_t size, unsigned seed) {
  std::ofstream f(p, std::ios::binary);
  for (std::size_t k = 0; k < size; ++k) f.put(static_cast<char>((k * 7 + seed) & 0xff));
}

std::uint64_t expected_magic(unsigned seed) {
  std::uint64_t m = 0;
  for (int k = 7; k >= 0; --k) m = (m << 8) | ((static_cast<unsigned>(k) * 7 + seed) & 0xff);
  return m;
}

// Events on the file whose path ends with `/name`.
std::vector<trace::Event> on_file(const trace::Trace& t, const std::string& name) {
  std::vector<trace::Event> out;
  for (const auto& e : t.events)
    if (e.file != trace::kNoFile && e.file < t.files.size()) {
      const auto& p = t.files[e.file].path;
      if (p.size() > name.size() &&
          p.compare(p.size() - name.size() - 1, std::string::npos, "/" + name) == 0)
        out.push_back(e);
    }
  return out;
}

std::vector<trace::Event> with_op(const std::vector<trace::Event>& ev, Op op) {
  std::vector<trace::Event> out;
  std::copy_if(ev.begin(), ev.end(), std::back_inserter(out),
               [op](const trace::Event& e) { return e.op == op; });
  return out;
}

const trace::File* file_named(const trace::Trace& t, const std::string& name) {
  for (const auto& f : t.files)
    if (f.path.size() > name.size() && f.path.substr(f.path.size() - name.size() - 1) == "/" + name)
      return &f;
  return nullptr;
}

// Polls (every 10 ms, for up to 60 s) until `done()` holds: for states the code under test
// reaches and shows (a file the command wrote, a process that has exec'd, a flushed trace), never
// a guess at how long something takes. Returns whether it held.
bool wait_until(const std::function<bool()>& done) {
  for (int i = 0; i < 6000; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return done();
}

// The trace a running capture has flushed so far (nullopt until a flush reads back). The capture
// holds HDF5's (advisory) lock on its file while it runs, so this reads a copy.
std::optional<trace::Trace> read_live_trace(const std::filesystem::path& path) {
  const auto copy = path.parent_path() / (path.filename().string() + ".live-copy");
  std::error_code ec;
  std::filesystem::copy_file(path, copy, std::filesystem::copy_options::overwrite_existing, ec);
  if (ec) return std::nullopt;
  auto t = trace::read_trace(copy);
  std::filesystem::remove(copy, ec);
  if (!t) return std::nullopt;
  return std::move(*t);
}

// The pid a command wrote (`echo $$ > file`), once the whole line is there; 0 until then.
pid_t pid_in(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string line;
  if (!std::getline(in, line) || in.eof()) return 0;  // no newline yet: still being written
  return static_cast<pid_t>(std::atol(line.c_str()));
}

// /proc/PID/comm without its newline ("" once the process is gone).
std::string comm_of(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/comm");
  std::string c;
  std::getline(in, c);
  return c;
}

struct RunResult {
  int status = -1;
  std::string err;
};

// Runs dlgen with args (stderr captured); `during` runs with the child's pid once started.
RunResult run_dlgen(const std::vector<std::string>& args, const std::filesystem::path& errfile,
                    const std::function<void(pid_t)>& during = {},
                    const std::vector<std::string>& prefix = {}) {
  pid_t pid = ::fork();
  if (pid == 0) {
    int fd = ::open(errfile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
    ::dup2(fd, 2);
    std::vector<std::string> all = prefix;
    all.push_back(DLGEN_BINARY);
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execvp(argv[0], argv.data());
    ::_exit(126);
  }
  if (during) during(pid);
  int st = 0;
  ::waitpid(pid, &st, 0);
  RunResult r;
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  std::ifstream f(errfile);
  r.err.assign(std::istreambuf_iterator<char>(f), {});
  return r;
}

TEST(Capture, KnownProgramIoIsRecordedExactly) {
  DLGEN_REQUIRE_BPF();
  testing::TempDir dir("dlgen-capture");
  for (unsigned i = 0; i < 4; ++i) make_file(dir / ("data" + std::to_string(i)), 65536, i);
  make_file(dir / "child.bin", 65536, 10);
  make_file(dir / "thread.bin", 65536, 11);
  make_file(dir / "uring.bin", 65536, 12);

  CaptureOptions o;
  o.command = {DLGEN_IO_PROGRAM, dir.path().string()};
  MemoryWriter w;
  auto r = capture(o, w);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->exit_status, 0);
  ASSERT_TRUE(w.finished);
  const auto& t = w.trace;
  EXPECT_EQ(t.meta.exit_status, 0);
  EXPECT_EQ(t.meta.lost_events, 0u);
  EXPECT_TRUE(t.meta.complete);
  EXPECT_EQ(t.meta.command, o.command);
  ASSERT_TRUE(std::is_sorted(t.events.begin(), t.events.end(),
                             [](const auto& a, const auto& b) { return a.ts_ns < b.ts_ns; }));

  // The root process: the first row, with the program's name after exec.
  ASSERT_FALSE(t.processes.empty());
  const std::uint32_t root = t.processes.front().pid;
  EXPECT_EQ(t.processes.front().comm, "dlgen_io_progra");
  EXPECT_EQ(t.processes.front().exit_code, 0);
  EXPECT_GT(t.processes.front().end_ns, 0u);

  for (unsigned i = 0; i < 4; ++i) {
    const std::string name = "data" + std::to_string(i);
    auto ev = on_file(t, name);
    auto opens = with_op(ev, Op::open), reads = with_op(ev, Op::read),
         preads = with_op(ev, Op::pread), closes = with_op(ev, Op::close);
    ASSERT_EQ(opens.size(), 1u) << name;
    ASSERT_EQ(reads.size(), 1u) << name;
    ASSERT_EQ(preads.size(), 1u) << name;
    ASSERT_EQ(closes.size(), 1u) << name;
    EXPECT_EQ(ev.size(), 4u) << name;
    EXPECT_EQ(opens[0].pid, root);
    EXPECT_EQ(opens[0].flags & O_ACCMODE, static_cast<unsigned>(O_RDONLY));
    EXPECT_GE(opens[0].ret, 0);
    EXPECT_EQ(reads[0].offset, 0u);
    EXPECT_EQ(reads[0].size, 1000u);
    EXPECT_EQ(reads[0].ret, 1000);
    EXPECT_EQ(reads[0].fd, opens[0].ret);
    EXPECT_EQ(preads[0].offset, 4096u * (i + 1));
    EXPECT_EQ(preads[0].size, 4096u);
    EXPECT_EQ(preads[0].ret, 4096);
    EXPECT_LE(opens[0].ts_ns, reads[0].ts_ns);
    EXPECT_LE(reads[0].ts_ns, preads[0].ts_ns);
    const auto* f = file_named(t, name);
    ASSERT_NE(f, nullptr);
    struct stat st {};
    ASSERT_EQ(::stat((dir / name).c_str(), &st), 0);
    EXPECT_EQ(f->path, (dir / name).string());
    EXPECT_EQ(f->ino, st.st_ino);
    EXPECT_EQ(f->dev, st.st_dev);
    EXPECT_EQ(f->size_at_open, 65536u);
    EXPECT_EQ(f->magic_len, 8);
    EXPECT_EQ(f->magic, expected_magic(i));
  }

  auto out = on_file(t, "out.bin");
  auto writevs = with_op(out, Op::writev);
  ASSERT_EQ(writevs.size(), 1u);
  EXPECT_EQ(writevs[0].size, 600u);
  EXPECT_EQ(writevs[0].ret, 600);
  EXPECT_EQ(writevs[0].offset, 0u);
  EXPECT_EQ(writevs[0].arg, 3u);  // iovec count
  EXPECT_EQ(with_op(out, Op::fsync).size(), 1u);
  ASSERT_EQ(with_op(out, Op::open).size(), 1u);
  EXPECT_TRUE(with_op(out, Op::open)[0].flags & O_CREAT);

  // The forked child: its own process row, renamed, exit code 5, and its two reads.
  auto forks = with_op(t.events, Op::fork);
  ASSERT_EQ(forks.size(), 1u);
  const auto child_pid = static_cast<std::uint32_t>(forks[0].arg);
  EXPECT_EQ(forks[0].pid, root);
  auto crow = std::find_if(t.processes.begin(), t.processes.end(),
                           [&](const auto& p) { return p.pid == child_pid; });
  ASSERT_NE(crow, t.processes.end());
  EXPECT_FALSE(crow->is_thread);
  EXPECT_EQ(crow->ppid, root);
  EXPECT_EQ(crow->tgid, child_pid);
  EXPECT_EQ(crow->comm, "dl_child");
  EXPECT_EQ(crow->first_comm, "dlgen_io_progra");
  EXPECT_EQ(crow->exit_code, 5);
  EXPECT_EQ(with_op(t.events, Op::task_rename).size() >= 1, true);
  auto creads = with_op(on_file(t, "child.bin"), Op::read);
  ASSERT_EQ(creads.size(), 2u);
  EXPECT_EQ(creads[0].pid, child_pid);
  EXPECT_EQ(creads[0].offset, 0u);
  EXPECT_EQ(creads[0].size, 2048u);
  EXPECT_EQ(creads[1].offset, 10000u);  // after lseek: the file position is read in the kernel
  EXPECT_EQ(creads[1].size, 512u);
  auto lseeks = with_op(on_file(t, "child.bin"), Op::lseek);
  ASSERT_EQ(lseeks.size(), 1u);
  EXPECT_EQ(lseeks[0].ret, 10000);

  // The thread: same pid, another tid, a thread row.
  auto tpreads = with_op(on_file(t, "thread.bin"), Op::pread);
  ASSERT_EQ(tpreads.size(), 1u);
  EXPECT_EQ(tpreads[0].pid, root);
  EXPECT_NE(tpreads[0].tid, root);
  EXPECT_EQ(tpreads[0].offset, 333u);
  EXPECT_EQ(tpreads[0].size, 777u);
  EXPECT_EQ(tpreads[0].ret, 777);
  auto trow = std::find_if(t.processes.begin(), t.processes.end(),
                           [&](const auto& p) { return p.pid == tpreads[0].tid; });
  ASSERT_NE(trow, t.processes.end());
  EXPECT_TRUE(trow->is_thread);
  EXPECT_EQ(trow->tgid, root);
  EXPECT_EQ(with_op(t.events, Op::thread).size(), 1u);

  // io_uring: offset, length and result from the io_uring tracepoints.
  auto uring = with_op(on_file(t, "uring.bin"), Op::uring_read);
  ASSERT_EQ(uring.size(), 1u);
  EXPECT_EQ(uring[0].offset, 8192u);
  EXPECT_EQ(uring[0].size, 4096u);
  EXPECT_EQ(uring[0].ret, 4096);
  EXPECT_EQ(uring[0].pid, root);

  // Nothing from outside the traced tree.
  std::set<std::uint32_t> pids;
  for (const auto& p : t.processes) pids.insert(p.tgid);
  for (const auto& e : t.events)
    EXPECT_TRUE(pids.count(e.pid)) << "event from untraced pid " << e.pid;
}

// The whole record of a known program, counted per op: every event on its own files (syscalls and
// io_uring) and every process event (the process tree), so that a change to any of the BPF
// programs or to the loader that adds, drops or renames a record shows here.
TEST(Capture, KnownProgramEventCountsPerOp) {
  DLGEN_REQUIRE_BPF();
  testing::TempDir dir("dlgen-capture-ops");
  for (unsigned i = 0; i < 4; ++i) make_file(dir / ("data" + std::to_string(i)), 65536, i);
  for (const char* name : {"child.bin", "thread.bin", "uring.bin"}) make_file(dir / name, 65536, 7);
  CaptureOptions o;
  o.command = {DLGEN_IO_PROGRAM, dir.path().string()};
  MemoryWriter w;
  auto r = capture(o, w);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->exit_status, 0);
  const auto& t = w.trace;
  EXPECT_EQ(t.meta.lost_events, 0u);

  std::map<std::string, int> on_files, process_ops;
  const std::string prefix = dir.path().string() + "/";
  for (const auto& e : t.events) {
    const bool mine = e.file < t.files.size() && t.files[e.file].path.rfind(prefix, 0) == 0;
    if (mine) ++on_files[trace::to_string(e.op)];
    if (e.op == Op::fork || e.op == Op::thread || e.op == Op::exec || e.op == Op::exit)
      ++process_ops[trace::to_string(e.op)];
  }
  // io_program's own I/O (see io_program.c): 4 data files opened, read, pread and closed; out.bin
  // written with writev and fsync'd; the child's two reads around an lseek; the thread's pread;
  // one io_uring read.
  const std::map<std::string, int> expected_on_files = {
      {"open", 8},   {"read", 6},  {"pread", 5}, {"close", 8},
      {"writev", 1}, {"fsync", 1}, {"lseek", 1}, {"uring_read", 1}};
  EXPECT_EQ(on_files, expected_on_files);
  // The root's exec, the forked child, the thread; each of the three exits.
  const std::map<std::string, int> expected_process_ops = {
      {"exec", 1}, {"fork", 1}, {"thread", 1}, {"exit", 3}};
  EXPECT_EQ(process_ops, expected_process_ops);
}

// Page faults on a mapped file (faults.bpf.c): a program that maps a 64 KiB file and reads one
// byte of each page makes no read syscall; the faults must cover every page it touched.
TEST(Capture, PageFaultsOnAMappedFileCoverItsPages) {
  DLGEN_REQUIRE_BPF();
  testing::TempDir dir("dlgen-capture-mmap");
  make_file(dir / "mapped.bin", 65536, 3);
  CaptureOptions o;
  o.command = {DLGEN_IO_PROGRAM, "--mmap", (dir / "mapped.bin").string()};
  MemoryWriter w;
  auto r = capture(o, w);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->exit_status, 0);
  const auto& t = w.trace;
  const std::uint32_t root = t.processes.front().pid;
  auto ev = on_file(t, "mapped.bin");
  EXPECT_EQ(with_op(ev, Op::open).size(), 1u);
  EXPECT_EQ(with_op(ev, Op::close).size(), 1u);
  auto maps = with_op(ev, Op::mmap);
  ASSERT_EQ(maps.size(), 1u);
  EXPECT_EQ(maps[0].size, 65536u);
  EXPECT_EQ(maps[0].offset, 0u);
  EXPECT_EQ(with_op(ev, Op::read).size(), 0u);
  auto faults = with_op(ev, Op::fault);
  ASSERT_FALSE(faults.empty());
  std::set<std::uint64_t> pages;  // pages the faults say were brought in or mapped
  for (const auto& f : faults) {
    EXPECT_EQ(f.pid, root);
    EXPECT_EQ(f.offset % 4096, 0u);
    EXPECT_EQ(f.ret, static_cast<std::int64_t>(f.size));
    for (std::uint64_t off = f.offset; off < f.offset + f.size; off += 4096)
      pages.insert(off / 4096);
  }
  for (std::uint64_t page = 0; page < 16; ++page) EXPECT_TRUE(pages.count(page)) << "page " << page;
}

// A real PyTorch run: DataLoader with 2 workers over 16 sample files, then torch.save.
TEST(Capture, PyTorchDataLoaderWorkersSamplesCheckpointAndHandovers) {
  DLGEN_REQUIRE_BPF();
  if (::access(DLGEN_PYTHON, X_OK) != 0) GTEST_SKIP() << "no " << DLGEN_PYTHON;
  testing::TempDir dir("dlgen-torch");
  CaptureOptions o;
  o.command = {DLGEN_PYTHON, DLGEN_TORCH_LOADER, dir.path().string()};
  MemoryWriter w;
  auto r = capture(o, w);
  ASSERT_TRUE(r) << r.error().message;
  if (r->exit_status != 0) {
    // python3-torch missing is an environment problem, not a tracer one.
    const auto probe =
        std::system((std::string(DLGEN_PYTHON) + " -c 'import torch' 2>/dev/null").c_str());
    if (probe != 0) GTEST_SKIP() << "python3-torch is not installed";
  }
  ASSERT_EQ(r->exit_status, 0);
  const auto& t = w.trace;
  EXPECT_EQ(t.meta.lost_events, 0u);
  const std::uint32_t root = t.processes.front().pid;

  // Worker processes: forked by the main process (not threads).
  std::set<std::uint32_t> workers;
  for (const auto& p : t.processes)
    if (!p.is_thread && p.ppid == root && p.pid != root) workers.insert(p.pid);
  EXPECT_GE(workers.size(), 2u);

  // Every sample file is read, by a worker, in full (4 KiB).
  std::set<std::uint32_t> readers;
  for (int i = 0; i < 16; ++i) {
    char name[32];
    std::snprintf(name, sizeof(name), "sample_%02d.raw", i);
    std::uint64_t bytes = 0;
    for (const auto& e : with_op(on_file(t, name), Op::read))
      if (workers.count(e.pid) && e.ret > 0) {
        bytes += static_cast<std::uint64_t>(e.ret);
        readers.insert(e.pid);
      }
    EXPECT_EQ(bytes, 4096u) << name;
  }
  EXPECT_EQ(readers.size(), 2u);

  // The checkpoint: written by the main process.
  std::uint64_t ckpt_bytes = 0;
  for (const auto& e : on_file(t, "ckpt.pt"))
    if (trace::is_write(e.op) && e.ret > 0 && e.pid == root)
      ckpt_bytes += static_cast<std::uint64_t>(e.ret);
  EXPECT_EQ(ckpt_bytes, std::filesystem::file_size(dir / "ckpt.pt"));

  // Batch handover: tensors in /dev/shm, fds passed over unix sockets (workers send, main
  // receives).
  std::size_t shm = 0, send = 0, recv = 0;
  for (const auto& e : t.events) {
    if (e.op == Op::shm_open && e.file != trace::kNoFile &&
        t.files[e.file].path.find("/dev/shm/torch_") == 0)
      ++shm;
    if (e.op == Op::sendmsg && workers.count(e.pid)) ++send;
    if (e.op == Op::recvmsg && e.pid == root) ++recv;
  }
  EXPECT_GE(shm, 4u);  // at least one per batch
  EXPECT_GE(send, 4u);
  EXPECT_GE(recv, 4u);
}

// Paths are named by the kernel from the opened file, so they are absolute and right even when
// the open was relative to a cwd or dirfd, the file was removed or renamed, its directory is gone,
// or the process exited before user space saw the record (path_program exits right away).
TEST(Capture, OpenedFilesGetTheirAbsolutePaths) {
  DLGEN_REQUIRE_BPF();
  testing::TempDir tmp("dlgen-paths");
  const std::filesystem::path dir = std::filesystem::canonical(tmp.path());
  std::filesystem::create_directories(dir / "train");
  std::filesystem::create_directories(dir / "other");
  make_file(dir / "train" / "x.bin", 100, 1);
  make_file(dir / "other" / "y.bin", 100, 2);
  make_file(dir / "old.bin", 100, 3);
  const std::string shm_name = "dlgen-path-test-" + std::to_string(::getpid());

  CaptureOptions o;
  o.command = {DLGEN_PATH_PROGRAM, dir.string(), shm_name};
  MemoryWriter w;
  auto r = capture(o, w);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->exit_status, 0);
  const auto& t = w.trace;
  const std::uint32_t root = t.processes.front().pid;

  std::map<std::string, int> opens;  // path -> number of opens by the program
  for (const auto& e : t.events) {
    if ((e.op != Op::open && e.op != Op::shm_open) || e.pid != root || e.ret < 0) continue;
    ASSERT_LT(e.file, t.files.size());
    const std::string& p = t.files[e.file].path;
    EXPECT_EQ(p.rfind('/', 0), 0u) << "not absolute: " << p;
    EXPECT_EQ(p.find("(deleted)"), std::string::npos) << p;
    ++opens[p];
  }
  EXPECT_EQ(opens[(dir / "train" / "x.bin").string()], 1);
  EXPECT_EQ(opens[(dir / "other").string()], 1);
  EXPECT_EQ(opens[(dir / "other" / "y.bin").string()], 1);
  EXPECT_EQ(opens["/dev/shm/" + shm_name], 2);
  EXPECT_EQ(opens[(dir / "new.bin").string()], 1);
  EXPECT_EQ(opens[(dir / "gone" / "z.bin").string()], 1);
  for (const auto& e : t.events)
    if (e.file != trace::kNoFile && t.files[e.file].path == "/dev/shm/" + shm_name &&
        e.op == Op::open)
      ADD_FAILURE() << "a /dev/shm open is not marked shm_open";
  // Reads are attributed to the file opened, by its absolute path.
  auto x_reads = with_op(on_file(t, "x.bin"), Op::read);
  ASSERT_EQ(x_reads.size(), 1u);
  EXPECT_EQ(t.files[x_reads[0].file].path, (dir / "train" / "x.bin").string());
  auto new_reads = with_op(on_file(t, "new.bin"), Op::read);
  ASSERT_EQ(new_reads.size(), 1u);
  EXPECT_EQ(new_reads[0].ret, 16);  // path_program reads 16 bytes
  // Name-based ops relative to the cwd: the kernel names the cwd, the argument is appended.
  auto path_of = [&](Op op) {
    std::vector<std::string> out;
    for (const auto& e : with_op(t.events, op))
      if (e.pid == root && e.file < t.files.size()) out.push_back(t.files[e.file].path);
    return out;
  };
  EXPECT_EQ(path_of(Op::rename), std::vector<std::string>{(dir / "new.bin").string()});
  EXPECT_EQ(path_of(Op::mkdir), std::vector<std::string>{(dir / "gone").string()});
  auto unlinks = path_of(Op::unlink);
  EXPECT_NE(std::find(unlinks.begin(), unlinks.end(), (dir / "gone" / "z.bin").string()),
            unlinks.end());
  EXPECT_NE(std::find(unlinks.begin(), unlinks.end(), "/dev/shm/" + shm_name), unlinks.end());
}

TEST(Capture, BlockRequestsAreAttributedToTheReader) {
  DLGEN_REQUIRE_BPF();
  // A file on a block device (the build dir; /tmp may be tmpfs), dropped from the page cache.
  const std::filesystem::path path =
      std::filesystem::path(DLGEN_TEST_BINARY_DIR) / "block_test.bin";
  make_file(path, 1 << 20, 9);
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  if (major(st.st_dev) == 0) GTEST_SKIP() << "the build dir is not on a block device";
  int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ::fdatasync(fd);
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  ::close(fd);
  CaptureOptions o;
  o.command = {"cat", path.string()};
  o.block_layer = true;
  MemoryWriter w;
  // cat writes to our stdout: send it to /dev/null for the capture.
  int saved = ::dup(1), null = ::open("/dev/null", O_WRONLY);
  ::dup2(null, 1);
  auto r = capture(o, w);
  ::dup2(saved, 1);
  ::close(saved);
  ::close(null);
  std::filesystem::remove(path);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(w.trace.meta.block_layer);
  std::uint64_t bytes = 0;
  for (const auto& e : with_op(w.trace.events, Op::block)) {
    EXPECT_EQ(e.pid, w.trace.processes.front().pid);
    EXPECT_EQ(e.flags, 0u);  // REQ_OP_READ
    bytes += e.size;
  }
  if (bytes == 0) GTEST_SKIP() << "no block reads seen: the device may not have dropped the cache";
  EXPECT_GE(bytes, 4096u);
}

TEST(Capture, ExitStatusIsPassedThrough) {
  DLGEN_REQUIRE_BPF();
  testing::TempDir dir("dlgen-capture");
  auto r = run_dlgen({"capture", "-q", "-o", (dir / "t.h5").string(), "--", "sh", "-c", "exit 3"},
                     dir / "err");
  EXPECT_EQ(r.status, 3) << r.err;
  auto t = trace::read_trace(dir / "t.h5");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->meta.exit_status, 3);
  EXPECT_TRUE(t->meta.complete);
  ASSERT_FALSE(t->processes.empty());
  EXPECT_EQ(t->processes.front().exit_code, 3);

  auto k =
      run_dlgen({"capture", "-q", "-o", (dir / "k.h5").string(), "--", "sh", "-c", "kill -TERM $$"},
                dir / "err");
  EXPECT_EQ(k.status, 128 + SIGTERM) << k.err;
}

TEST(Capture, MissingCommandIsAClearError) {
  DLGEN_REQUIRE_BPF();
  testing::TempDir dir("dlgen-capture");
  auto r = run_dlgen(
      {"capture", "-q", "-o", (dir / "t.h5").string(), "--", "/nonexistent/dlgen-no-such-cmd"},
      dir / "err");
  EXPECT_EQ(r.status, 127);
  EXPECT_NE(r.err.find("cannot run '/nonexistent/dlgen-no-such-cmd'"), std::string::npos) << r.err;
}

TEST(Capture, NoCommandIsBadUsage) {
  testing::TempDir dir("dlgen-capture");
  auto r = run_dlgen({"capture", "-o", (dir / "t.h5").string()}, dir / "err");
  EXPECT_EQ(r.status, 2) << r.err;
}

TEST(Capture, CtrlCEndsTheCaptureWithAReadableTrace) {
  DLGEN_REQUIRE_BPF();
  testing::TempDir dir("dlgen-capture");
  const auto out = dir / "t.h5";
  const auto ready = dir / "ready";
  // The command announces that it runs (so the capture is attached) with its pid, then becomes
  // `sleep` (same pid) and waits to be interrupted; the signal is sent once it is `sleep`.
  const std::string script = "echo $$ > " + ready.string() + "; exec sleep 60";
  auto r = run_dlgen({"capture", "-q", "-o", out.string(), "--", "sh", "-c", script}, dir / "err",
                     [&](pid_t pid) {
                       pid_t command = 0;
                       EXPECT_TRUE(wait_until([&] { return (command = pid_in(ready)) > 0; }));
                       EXPECT_TRUE(wait_until([&] { return comm_of(command) == "sleep"; }));
                       ::kill(pid, SIGINT);  // as `kill -INT`: dlgen forwards it to the command
                     });
  EXPECT_EQ(r.status, 128 + SIGINT) << r.err;
  auto t = trace::read_trace(out);
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_TRUE(t->meta.complete);
  EXPECT_EQ(t->meta.exit_status, 128 + SIGINT);
  bool saw_ready = false;
  for (const auto& f : t->files) saw_ready |= f.path == ready.string();
  EXPECT_TRUE(saw_ready);
  bool sleep_exit = false;
  for (const auto& p : t->processes) sleep_exit |= p.comm == "sleep" && p.exit_code == 128 + SIGINT;
  EXPECT_TRUE(sleep_exit);
}

TEST(Capture, KilledCaptureStillLeavesAReadableTrace) {
  DLGEN_REQUIRE_BPF();
  testing::TempDir dir("dlgen-capture");
  make_file(dir / "early.bin", 8192, 4);
  const auto out = dir / "t.h5";
  const auto ready = dir / "ready";
  const std::string script = "cat " + (dir / "early.bin").string() + " > /dev/null; echo $$ > " +
                             ready.string() + "; exec sleep 60";
  pid_t command = 0;
  auto r = run_dlgen({"capture", "-q", "-o", out.string(), "--", "sh", "-c", script}, dir / "err",
                     [&](pid_t pid) {
                       EXPECT_TRUE(wait_until([&] { return (command = pid_in(ready)) > 0; }));
                       // Killed once a flush (every 2 s) has put the reads on disk, as the file
                       // itself shows.
                       EXPECT_TRUE(wait_until([&] {
                         auto live = read_live_trace(out);
                         return live && !with_op(on_file(*live, "early.bin"), Op::read).empty();
                       }));
                       ::kill(pid, SIGKILL);
                     });
  if (command > 0) ::kill(command, SIGKILL);  // the orphaned `sleep`
  EXPECT_EQ(r.status, 128 + SIGKILL);
  auto t = trace::read_trace(out);
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_FALSE(t->meta.complete);
  auto reads = with_op(on_file(*t, "early.bin"), Op::read);
  ASSERT_GE(reads.size(), 1u);
  EXPECT_EQ(reads[0].ret, 8192);
}

TEST(Capture, AttachToRunningProcessTree) {
  DLGEN_REQUIRE_BPF();
  testing::TempDir dir("dlgen-capture");
  make_file(dir / "late.bin", 4096, 3);
  const auto go = dir / "go";
  const auto out = dir / "t.h5";
  // A running tree (sh -> sh) that reads late.bin once `go` exists, then exits.
  const std::string script = "sh -c 'while [ ! -e " + go.string() +
                             " ]; do sleep 0.05; done; cat " + (dir / "late.bin").string() +
                             " > /dev/null'";
  // The pipe closes (close-on-exec) when the child has become sh: attach to sh, not to a copy
  // of this test.
  int exec_seen[2];
  ASSERT_EQ(::pipe2(exec_seen, O_CLOEXEC), 0);
  pid_t target = ::fork();
  if (target == 0) {
    ::execl("/bin/sh", "sh", "-c", script.c_str(), static_cast<char*>(nullptr));
    ::_exit(126);
  }
  ::close(exec_seen[1]);
  char byte;
  while (::read(exec_seen[0], &byte, 1) < 0 && errno == EINTR) {
  }
  ::close(exec_seen[0]);
  auto r = run_dlgen({"capture", "-q", "-o", out.string(), "-p", std::to_string(target)},
                     dir / "err", [&](pid_t) {
                       // The tree is traced once the capture lists the target among its processes
                       // in the trace it flushes (the first flush follows the attach).
                       EXPECT_TRUE(wait_until([&] {
                         auto live = read_live_trace(out);
                         if (!live) return false;
                         for (const auto& p : live->processes)
                           if (p.pid == static_cast<std::uint32_t>(target)) return true;
                         return false;
                       }));
                       std::ofstream(go) << "go";
                     });
  int st = 0;
  ::waitpid(target, &st, 0);
  EXPECT_EQ(r.status, 0) << r.err;
  auto t = trace::read_trace(out);
  ASSERT_TRUE(t) << t.error().message;
  auto reads = with_op(on_file(*t, "late.bin"), Op::read);
  ASSERT_GE(reads.size(), 1u);
  EXPECT_EQ(reads[0].offset, 0u);
  EXPECT_EQ(reads[0].ret, 4096);
  ASSERT_FALSE(t->processes.empty());
  EXPECT_EQ(t->processes.front().pid, static_cast<std::uint32_t>(target));
}

// More io_uring requests in flight than the in-flight map holds: the requests the map had no room
// for are counted (lost.uring_map), so every request is either in the trace or counted. The
// burst's 64 reads of an empty pipe are all submitted before any can complete.
TEST(Capture, InflightMapFullDropsAreCounted) {
  DLGEN_REQUIRE_BPF();
  testing::TempDir dir("dlgen-lost");
  constexpr std::uint64_t kRequests = 64, kEntries = 8;
  auto run = [&](std::uint32_t entries, const char* name) {
    CaptureOptions o;
    o.command = {DLGEN_IO_PROGRAM, "--uring-burst", std::to_string(kRequests)};
    o.inflight_map_entries = entries;
    o.output = dir / name;  // through the HDF5 file: the counts must survive the writer and reader
    auto r = capture(o);
    EXPECT_TRUE(r) << r.error().message;
    if (!r) return std::make_pair(CaptureResult{}, trace::Trace{});
    EXPECT_EQ(r->exit_status, 0);
    auto t = trace::read_trace(o.output);
    EXPECT_TRUE(t) << t.error().message;
    return std::make_pair(*r, t ? *t : trace::Trace{});
  };
  auto count_reads = [](const trace::Trace& t) {
    std::uint64_t n = 0;
    for (const auto& e : t.events) n += e.op == Op::uring_read && e.size == 1 && e.ret == 1;
    return n;
  };

  // Room for all: none lost, all 64 recorded.
  auto [roomy, roomy_trace] = run(65536, "roomy.h5");
  EXPECT_EQ(roomy_trace.meta.lost.uring_map, 0u);
  EXPECT_EQ(count_reads(roomy_trace), kRequests);

  // Room for 8: the other 56 are counted, and recorded + counted = submitted.
  auto [small, t] = run(kEntries, "small.h5");
  EXPECT_EQ(t.meta.lost.uring_map, kRequests - kEntries);
  EXPECT_EQ(count_reads(t) + t.meta.lost.uring_map, kRequests);
  EXPECT_GE(t.meta.lost_events, t.meta.lost.uring_map);
  EXPECT_EQ(t.meta.lost_events, t.meta.lost.total());
  EXPECT_EQ(small.lost, t.meta.lost);
  EXPECT_EQ(small.lost_events, t.meta.lost_events);
}

// More processes alive at once than the traced-process map holds: each one left out is counted
// (lost.process_map), and only the traced ones' reads are in the trace.
TEST(Capture, ProcessMapFullDropsAreCounted) {
  DLGEN_REQUIRE_BPF();
  testing::TempDir dir("dlgen-lost");
  make_file(dir / "f.bin", 4096, 3);
  constexpr std::uint64_t kChildren = 6;
  CaptureOptions o;
  o.command = {DLGEN_IO_PROGRAM, "--fork-burst", std::to_string(kChildren),
               (dir / "f.bin").string()};
  o.process_map_entries = 2;  // the command and one child
  MemoryWriter w;
  auto r = capture(o, w);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->exit_status, 0);
  const auto& t = w.trace;
  EXPECT_EQ(with_op(t.events, Op::fork).size(),
            kChildren);  // the parent is traced: every fork seen
  std::set<std::uint32_t> readers;
  for (const auto& e : with_op(on_file(t, "f.bin"), Op::read)) readers.insert(e.pid);
  EXPECT_EQ(readers.size(), 1u);
  EXPECT_EQ(t.meta.lost.process_map, kChildren - 1);
  EXPECT_EQ(t.meta.lost_events, t.meta.lost.total());
}

// A ring buffer of one page (about 30 records) against a burst of 200,000 lseeks: the reader
// drains, then naps 5 ms, while the burst overflows the ring many times over. Every lseek the
// trace lacks is counted as a ring-buffer drop (the count may also hold a few of the program's
// other records: its loader's opens and mmaps, its exit).
TEST(Capture, RingBufferDropsAreCounted) {
  DLGEN_REQUIRE_BPF();
  testing::TempDir dir("dlgen-lost");
  make_file(dir / "f.bin", 4096, 3);
  constexpr std::uint64_t kCalls = 200000, kOtherRecords = 1000;
  CaptureOptions o;
  o.command = {DLGEN_IO_PROGRAM, "--lseek-burst", std::to_string(kCalls), (dir / "f.bin").string()};
  o.ring_buffer_bytes = 4096;
  MemoryWriter w;
  auto r = capture(o, w);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->exit_status, 0);
  const auto& t = w.trace;
  const std::uint64_t seen = with_op(on_file(t, "f.bin"), Op::lseek).size();
  EXPECT_LT(seen, kCalls);
  EXPECT_GE(seen + t.meta.lost.ring_buffer, kCalls);
  EXPECT_LE(t.meta.lost.ring_buffer, kCalls - seen + kOtherRecords);
  EXPECT_EQ(t.meta.lost_events, t.meta.lost.total());
}

// The verb: a warning naming the reason on stderr, and the counts in --json-out.
TEST(Capture, CliWarnsAboutLostEventsAndWritesTheirCounts) {
  DLGEN_REQUIRE_BPF();
  testing::TempDir dir("dlgen-lost");
  const auto out = dir / "t.h5", json = dir / "c.json";
  auto r = run_dlgen({"capture", "-q", "-o", out.string(), "--inflight-map-entries", "4",
                      "--json-out", json.string(), "--", DLGEN_IO_PROGRAM, "--uring-burst", "16"},
                     dir / "err");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("WARNING: 12 events were lost"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("12 uring_map (io_uring in-flight map full)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("capture again with a larger --inflight-map-entries"), std::string::npos)
      << r.err;
  std::ifstream in(json);
  std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(text.find("\"uring_map\": 12"), std::string::npos) << text;
  EXPECT_NE(text.find("\"lost_events\": 12"), std::string::npos) << text;

  // Nothing lost: no warning; -v lists every reason's count.
  r = run_dlgen(
      {"capture", "-v", "-o", out.string(), "--", DLGEN_IO_PROGRAM, "--uring-burst", "16"},
      dir / "err");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.find("dlgen: WARNING"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("lost events by reason: ring_buffer 0, uring_map 0, block_map 0"),
            std::string::npos)
      << r.err;
}

// The CUDA driver API through uprobes, on the stand-in libcuda.so.1 (cuda_stub.c): every call of
// cuda_program.c is recorded once with its arguments, syncs last as long as the stub blocked, and
// a copy of the same program running untraced beside the capture leaves no event.
std::vector<trace::Event> cuda_events(const trace::Trace& t) {
  std::vector<trace::Event> out;
  std::copy_if(t.events.begin(), t.events.end(), std::back_inserter(out),
               [](const trace::Event& e) { return trace::is_cuda(e.op); });
  return out;
}

TEST(Capture, CudaDriverCallsOfAKnownProgramAreRecordedExactly) {
  DLGEN_REQUIRE_BPF();
  // The untraced copy: 30 steps of 20 ms, started first, so that it runs through the capture.
  pid_t other = ::fork();
  if (other == 0) {
    ::execl(DLGEN_CUDA_PROGRAM, DLGEN_CUDA_PROGRAM, "30", "20", static_cast<char*>(nullptr));
    ::_exit(126);
  }
  ASSERT_GT(other, 0);

  CaptureOptions o;
  o.command = {DLGEN_CUDA_PROGRAM, "5", "20"};
  o.cuda_lib = DLGEN_CUDA_STUB;
  MemoryWriter w;
  auto r = capture(o, w);
  int other_status = -1;
  ::waitpid(other, &other_status, 0);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->exit_status, 0);
  EXPECT_EQ(other_status, 0);
  const auto& t = w.trace;
  EXPECT_EQ(t.meta.lost_events, 0u);

  // What was probed, and the GPUs the stand-in NVML beside the stand-in driver lists.
  EXPECT_EQ(t.meta.gpu.cuda_lib, std::string(DLGEN_CUDA_STUB));
  const std::vector<std::string> probed = {
      "cuStreamSynchronize",  "cuEventSynchronize",   "cuCtxSynchronize",
      "cuMemcpyHtoD_v2",      "cuMemcpyHtoDAsync_v2", "cuMemcpyDtoH_v2",
      "cuMemcpyDtoHAsync_v2", "cuLaunchKernel",       "cuLaunchKernelEx"};
  EXPECT_EQ(t.meta.gpu.cuda_probes, probed);
  EXPECT_EQ(t.meta.gpu.devices, (std::vector<std::string>{"Stub GPU 0", "Stub GPU 1"}));
  EXPECT_EQ(t.meta.gpu.driver, "0.0-stub");
  EXPECT_EQ(t.meta.gpu.note, "");

  ASSERT_FALSE(t.processes.empty());
  const std::uint32_t root = t.processes.front().pid;
  const auto ev = cuda_events(t);
  for (const auto& e : ev) EXPECT_EQ(e.pid, root) << "an event of the untraced copy";
  // The main thread's calls in order: 5 steps, then the calls made once.
  std::vector<trace::Event> main_thread, other_thread;
  for (const auto& e : ev) (e.tid == root ? main_thread : other_thread).push_back(e);
  ASSERT_EQ(main_thread.size(), 5u * 6 + 5) << "calls of the main thread";
  constexpr std::uint64_t kStream = 0x5151;
  for (std::size_t step = 0; step < 5; ++step) {
    const auto* s = &main_thread[step * 6];
    SCOPED_TRACE("step " + std::to_string(step));
    EXPECT_EQ(s[0].op, Op::cuda_htod);
    EXPECT_EQ(s[0].flags, 4u);  // cuMemcpyHtoDAsync_v2
    EXPECT_EQ(s[0].size, (step + 1) << 20);
    EXPECT_EQ(s[0].arg, kStream);
    for (int k = 1; k <= 3; ++k) {
      EXPECT_EQ(s[k].op, Op::cuda_launch);
      EXPECT_EQ(s[k].arg, kStream);
      EXPECT_EQ(s[k].offset, 0xf000u + static_cast<unsigned>(k));  // the CUfunction
      EXPECT_EQ(s[k].flags, k < 3 ? 7u : 8u);  // cuLaunchKernel, cuLaunchKernelEx
    }
    EXPECT_EQ(s[4].op, Op::cuda_sync);
    EXPECT_EQ(s[4].flags, 0u);  // cuStreamSynchronize
    EXPECT_EQ(s[4].arg, kStream);
    EXPECT_EQ(s[4].ret, 0);
    EXPECT_GE(s[4].dur_ns, 20'000'000u);  // the stub blocked 20 ms: the CPU waited that long
    EXPECT_LT(s[4].dur_ns, 2'000'000'000u);
    EXPECT_EQ(s[5].op, Op::cuda_dtoh);
    EXPECT_EQ(s[5].flags, 5u);  // cuMemcpyDtoH_v2
    EXPECT_EQ(s[5].size, 4u);
    EXPECT_LE(s[0].ts_ns, s[1].ts_ns);
    EXPECT_LE(s[4].ts_ns + s[4].dur_ns, s[5].ts_ns);
    EXPECT_EQ(s[6].op, step + 1 < 5 ? Op::cuda_htod : Op::cuda_sync);
  }
  const auto* once = &main_thread[30];
  EXPECT_EQ(once[0].op, Op::cuda_sync);
  EXPECT_EQ(once[0].flags, 1u);  // cuEventSynchronize
  EXPECT_EQ(once[0].arg, 0xe7e7u);
  EXPECT_EQ(once[1].op, Op::cuda_sync);
  EXPECT_EQ(once[1].flags, 2u);  // cuCtxSynchronize
  EXPECT_EQ(once[2].op, Op::cuda_htod);
  EXPECT_EQ(once[2].flags, 3u);  // cuMemcpyHtoD_v2
  EXPECT_EQ(once[2].size, 4096u);
  EXPECT_EQ(once[3].op, Op::cuda_dtoh);
  EXPECT_EQ(once[3].flags, 6u);  // cuMemcpyDtoHAsync_v2
  EXPECT_EQ(once[3].size, 8u);
  EXPECT_EQ(once[3].arg, kStream);
  EXPECT_EQ(once[4].op, Op::cuda_sync);
  EXPECT_EQ(once[4].arg, 0xbadu);
  EXPECT_EQ(once[4].ret, -400);  // CUDA_ERROR_INVALID_HANDLE
  // The launch from the second thread.
  ASSERT_EQ(other_thread.size(), 1u);
  EXPECT_EQ(other_thread[0].op, Op::cuda_launch);
  EXPECT_EQ(other_thread[0].offset, 0xf004u);
  EXPECT_NE(other_thread[0].tid, root);
}

// The verb: DLGEN_CUDA_LIB names the driver, inspect summarises the calls; a --cuda-lib that is
// not there is bad usage; a library without the functions, or --no-cuda, leaves a note and no
// error.
TEST(Capture, CliProbesTheCudaDriverNamedByTheEnvironment) {
  DLGEN_REQUIRE_BPF();
  testing::TempDir dir("dlgen-cuda");
  const auto out = dir / "t.h5";
  auto r = run_dlgen({"capture", "-q", "-o", out.string(), "--", DLGEN_CUDA_PROGRAM, "5", "20"},
                     dir / "err", {},
                     {"/usr/bin/env", std::string("DLGEN_CUDA_LIB=") + DLGEN_CUDA_STUB});
  ASSERT_EQ(r.status, 0) << r.err;
  auto t = trace::read_trace(out);
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->meta.gpu.cuda_lib, std::string(DLGEN_CUDA_STUB));
  EXPECT_EQ(t->meta.gpu.devices.size(), 2u);
  EXPECT_EQ(cuda_events(*t).size(), 5u * 6 + 5 + 1);
  auto show = [&](const std::vector<std::string>& args) {
    std::string cmd = std::string(DLGEN_BINARY);
    for (const auto& a : args) cmd += " '" + a + "'";
    std::string text;
    if (FILE* p = ::popen(cmd.c_str(), "r")) {
      char buf[4096];
      std::size_t n;
      while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) text.append(buf, n);
      ::pclose(p);
    }
    return text;
  };
  const std::string text = show({"inspect", out.string()});
  EXPECT_NE(text.find("gpus:      Stub GPU 0, Stub GPU 1   driver 0.0-stub"), std::string::npos)
      << text;
  EXPECT_NE(text.find("cuda:      8 syncs ("), std::string::npos) << text;
  EXPECT_NE(text.find("6 HtoD copies (15.0 MiB)"), std::string::npos) << text;
  EXPECT_NE(text.find("6 DtoH copies (28 B)"), std::string::npos) << text;
  EXPECT_NE(text.find("16 launches   1 failed"), std::string::npos) << text;

  r = run_dlgen(
      {"capture", "-q", "-o", out.string(), "--cuda-lib", (dir / "nope.so").string(), "--", "true"},
      dir / "err");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("nope.so: no such file"), std::string::npos) << r.err;

  // The stand-in NVML exports none of the driver functions: no probes, a note, the run captured.
  const auto nvml = std::filesystem::path(DLGEN_CUDA_STUB).parent_path() / "libnvidia-ml.so.1";
  r = run_dlgen({"capture", "-q", "-o", out.string(), "--cuda-lib", nvml.string(), "--",
                 DLGEN_CUDA_PROGRAM, "1", "1"},
                dir / "err");
  ASSERT_EQ(r.status, 0) << r.err;
  t = trace::read_trace(out);
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_TRUE(t->meta.gpu.cuda_lib.empty());
  EXPECT_NE(t->meta.gpu.note.find("exports none of the probed driver functions"), std::string::npos)
      << t->meta.gpu.note;
  EXPECT_TRUE(cuda_events(*t).empty());

  r = run_dlgen(
      {"capture", "-q", "--no-cuda", "-o", out.string(), "--", DLGEN_CUDA_PROGRAM, "1", "1"},
      dir / "err", {}, {"/usr/bin/env", std::string("DLGEN_CUDA_LIB=") + DLGEN_CUDA_STUB});
  ASSERT_EQ(r.status, 0) << r.err;
  t = trace::read_trace(out);
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_TRUE(cuda_events(*t).empty());
  EXPECT_EQ(t->meta.gpu.note, "CUDA probes off (--no-cuda)");
}

TEST(Capture, WithoutPrivilegeExits77) {
  DLGEN_REQUIRE_BPF();
  if (::access("/usr/bin/setpriv", X_OK) != 0) GTEST_SKIP() << "setpriv (util-linux) not installed";
  testing::TempDir dir("dlgen-capture");
  ::chmod(dir.path().c_str(), 0777);
  const auto out = dir / "t.h5";
  auto r = run_dlgen({"capture", "-o", out.string(), "--", "true"}, dir / "err", {},
                     {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                      "--inh-caps=-all", "--bounding-set=-all"});
  if (r.status == 126) GTEST_SKIP() << "cannot run dlgen as nobody here: " << r.err;
  EXPECT_EQ(r.status, 77) << r.err;
  EXPECT_NE(r.err.find("BPF privilege"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(out));  // no silent empty trace
}

}  // namespace
}  // namespace dlgen::capture

namespace dlgen::capture {
namespace {

// The capture's own polling loop failing (a ring-buffer error, provoked by the test hook) must
// not leave the command running untraced nor lose the trace: the command is killed and reaped,
// and what was traced is kept, readable and marked incomplete, as NAME.partial.h5.
TEST(Capture, FailedPollLoopKillsTheCommandAndKeepsAPartialTrace) {
  DLGEN_REQUIRE_BPF();
  testing::TempDir dir("dlgen-capture");
  const auto pidfile = dir / "pid";
  CaptureOptions o;
  o.output = dir / "t.h5";
  o.command = {"sh", "-c", "echo $$ > " + pidfile.string() + "; exec sleep 600"};
  o.fail_poll_after = std::chrono::milliseconds(3000);
  auto r = capture(o);
  ASSERT_FALSE(r) << "the provoked poll failure must fail the capture";
  EXPECT_NE(r.error().message.find("ring buffer"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("t.partial.h5"), std::string::npos) << r.error().message;
  EXPECT_FALSE(std::filesystem::exists(o.output));
  auto t = trace::read_trace(dir / "t.partial.h5");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_FALSE(t->meta.complete);
  EXPECT_EQ(t->meta.lost_events, t->meta.lost.total());
  // The command (sh exec'ed into sleep) was killed and reaped: not even a zombie is left.
  std::ifstream f(pidfile);
  pid_t pid = 0;
  ASSERT_TRUE(f >> pid) << "the command never ran";
  EXPECT_EQ(::kill(pid, 0), -1);
  EXPECT_EQ(errno, ESRCH);
  bool traced = false;
  for (const auto& p : t->processes) traced |= static_cast<pid_t>(p.pid) == pid;
  EXPECT_TRUE(traced) << "the partial trace holds the command's process";
}

}  // namespace
}  // namespace dlgen::capture
