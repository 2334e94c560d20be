// HDF5 trace files: round trip, streaming writer, crash safety, error messages.
#include "dlgen/trace/trace_io.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <map>

#include "dlgen/trace/trace_text.hpp"
#include "temp_dir.hpp"

namespace dlgen::trace {
namespace {

// What format version 2 declares: ts to the nearest multiple of 125 ns, dur to 7 significant
// bits (relative error <= 2^-7); every other field exact.
std::uint64_t stored_ts(std::uint64_t ts) {
  return (ts + 62) / 125 * 125;
}
bool dur_within_precision(std::uint64_t stored, std::uint64_t orig) {
  if (orig < 128) return stored == orig;
  double err = std::abs(static_cast<double>(stored) - static_cast<double>(orig));
  return err <= static_cast<double>(orig) / 128.0;
}

// Equal up to the declared precision of ts and dur.
bool operator==(const Event& a, const Event& b) {
  return stored_ts(a.ts_ns) == stored_ts(b.ts_ns) && dur_within_precision(a.dur_ns, b.dur_ns) &&
         dur_within_precision(b.dur_ns, a.dur_ns) && a.pid == b.pid && a.tid == b.tid &&
         a.op == b.op && a.file == b.file && a.fd == b.fd && a.offset == b.offset &&
         a.size == b.size && a.ret == b.ret && a.flags == b.flags && a.arg == b.arg;
}

bool exactly_equal(const Event& a, const Event& b) {
  return a.ts_ns == b.ts_ns && a.dur_ns == b.dur_ns && a.pid == b.pid && a.tid == b.tid &&
         a.op == b.op && a.file == b.file && a.fd == b.fd && a.offset == b.offset &&
         a.size == b.size && a.ret == b.ret && a.flags == b.flags && a.arg == b.arg;
}

// Every field differs from its default so a column lost on the way shows.
Trace sample_trace() {
  Trace t;
  t.meta.command = {"python3", "train.py", "--epochs", "2"};
  t.meta.start_wall_ns = 1700000000123456789;
  t.meta.start_mono_ns = 987654321;
  t.meta.duration_ns = 5'000'000'000;
  t.meta.host = "node1";
  t.meta.kernel = "6.18.0";
  t.meta.dlgen_version = "0.1.0";
  t.meta.lost_events = 7;
  t.meta.exit_status = 3;
  t.meta.block_layer = true;
  t.meta.complete = true;
  t.meta.gpu.devices = {"NVIDIA H200", "NVIDIA H200"};
  t.meta.gpu.driver = "580.82.07";
  t.meta.gpu.cuda_lib = "/usr/local/nvidia/lib64/libcuda.so.1";
  t.meta.gpu.cuda_probes = {"cuStreamSynchronize", "cuLaunchKernel"};
  t.meta.gpu.note = "a note";
  t.files = {{"/data/train/a.npz", 2049, 11, 1 << 20, 0x04034b50, 4},
             {"/data/train/b.npz", 2049, 12, 3 << 20, 0, 0},
             {"/ckpt/model.pt", 2050, 99, 0, 0, 0}};
  t.processes = {{100, 100, 1, "python3", "python3", 0, 5'000'000'000, 3, false},
                 {101, 101, 100, "pt_data_worker", "python3", 1000, 4'000'000'000, 0, false},
                 {102, 100, 100, "pt_pin_memory", "python3", 2000, 0, 0, true}};
  for (int i = 0; i < 1000; ++i) {
    Event e;
    e.ts_ns = 1000ull * i + (i % 7);
    e.dur_ns = 500 + i;
    e.pid = i % 2 ? 101 : 100;
    e.tid = e.pid;
    e.op = i % 5 == 0 ? Op::open : Op::pread;
    e.file = i % 3 == 2 ? kNoFile : static_cast<std::uint32_t>(i % 2);
    e.fd = 3 + i % 4;
    e.offset = 4096ull * i;
    e.size = 65536;
    e.ret = i % 11 == 0 ? -5 : 65536;
    e.flags = static_cast<std::uint32_t>(i * 3);
    e.arg = 1ull << 40 | i;
    t.events.push_back(e);
  }
  return t;
}

void expect_equal(const Trace& a, const Trace& b) {
  EXPECT_EQ(a.meta.command, b.meta.command);
  EXPECT_EQ(a.meta.start_wall_ns, b.meta.start_wall_ns);
  EXPECT_EQ(a.meta.start_mono_ns, b.meta.start_mono_ns);
  EXPECT_EQ(a.meta.duration_ns, b.meta.duration_ns);
  EXPECT_EQ(a.meta.host, b.meta.host);
  EXPECT_EQ(a.meta.kernel, b.meta.kernel);
  EXPECT_EQ(a.meta.dlgen_version, b.meta.dlgen_version);
  EXPECT_EQ(a.meta.lost_events, b.meta.lost_events);
  EXPECT_EQ(a.meta.exit_status, b.meta.exit_status);
  EXPECT_EQ(a.meta.block_layer, b.meta.block_layer);
  EXPECT_EQ(a.meta.complete, b.meta.complete);
  EXPECT_EQ(a.meta.gpu, b.meta.gpu);
  ASSERT_EQ(a.files.size(), b.files.size());
  for (std::size_t i = 0; i < a.files.size(); ++i) {
    EXPECT_EQ(a.files[i].path, b.files[i].path);
    EXPECT_EQ(a.files[i].dev, b.files[i].dev);
    EXPECT_EQ(a.files[i].ino, b.files[i].ino);
    EXPECT_EQ(a.files[i].size_at_open, b.files[i].size_at_open);
    EXPECT_EQ(a.files[i].magic, b.files[i].magic);
    EXPECT_EQ(a.files[i].magic_len, b.files[i].magic_len);
  }
  ASSERT_EQ(a.processes.size(), b.processes.size());
  for (std::size_t i = 0; i < a.processes.size(); ++i) {
    const Process &p = a.processes[i], &q = b.processes[i];
    EXPECT_EQ(p.pid, q.pid);
    EXPECT_EQ(p.tgid, q.tgid);
    EXPECT_EQ(p.ppid, q.ppid);
    EXPECT_EQ(p.comm, q.comm);
    EXPECT_EQ(p.first_comm, q.first_comm);
    EXPECT_EQ(p.start_ns, q.start_ns);
    EXPECT_EQ(p.end_ns, q.end_ns);
    EXPECT_EQ(p.exit_code, q.exit_code);
    EXPECT_EQ(p.is_thread, q.is_thread);
  }
  ASSERT_EQ(a.events.size(), b.events.size());
  for (std::size_t i = 0; i < a.events.size(); ++i)
    ASSERT_TRUE(a.events[i] == b.events[i]) << "event " << i;
}

TEST(TraceIo, RoundTripKeepsEveryField) {
  testing::TempDir dir;
  Trace t = sample_trace();
  ASSERT_TRUE(write_trace(dir / "t.h5", t));
  auto back = read_trace(dir / "t.h5");
  ASSERT_TRUE(back) << back.error().message;
  expect_equal(t, *back);
}

TEST(TraceIo, TimesKeepTheirDeclaredResolution) {
  testing::TempDir dir;
  Trace t;
  t.files = {{"/f", 1, 1, 0, 0, 0}};
  // Durations over the whole range the reader accepts (up to 31 days: longer is a corrupt file),
  // times on and off the 125 ns grid, two threads interleaved.
  std::uint64_t durs[] = {0,
                          1,
                          127,
                          128,
                          129,
                          255,
                          256,
                          257,
                          1000,
                          12345,
                          20000,
                          50000,
                          999999,
                          123456789,
                          1ull << 40,
                          (1ull << 40) + 12345,
                          31ull * 86400 * 1'000'000'000 - 1};
  std::uint64_t ts = 0;
  for (std::size_t i = 0; i < std::size(durs); ++i) {
    Event e;
    e.ts_ns = ts;
    ts += 1000 + 61 * i;
    e.dur_ns = durs[i];
    e.pid = e.tid = i % 2 ? 7 : 8;
    e.op = Op::read;
    e.file = 0;
    t.events.push_back(e);
  }
  ASSERT_TRUE(write_trace(dir / "r.h5", t));
  auto back = read_trace(dir / "r.h5");
  ASSERT_TRUE(back) << back.error().message;
  ASSERT_EQ(back->events.size(), t.events.size());
  for (std::size_t i = 0; i < t.events.size(); ++i) {
    const Event &a = t.events[i], &b = back->events[i];
    EXPECT_EQ(b.ts_ns, stored_ts(a.ts_ns)) << i;
    EXPECT_LE(b.ts_ns > a.ts_ns ? b.ts_ns - a.ts_ns : a.ts_ns - b.ts_ns, 62u) << i;
    EXPECT_TRUE(dur_within_precision(b.dur_ns, a.dur_ns))
        << i << ": " << a.dur_ns << " -> " << b.dur_ns;
    EXPECT_EQ(b.pid, a.pid) << i;
  }
  // Whole microseconds and powers of two stay exact.
  EXPECT_EQ(back->events[0].ts_ns, 0u);
  EXPECT_EQ(back->events[1].ts_ns, 1000u);
  EXPECT_EQ(back->events[7].dur_ns, 256u);  // 257 needs 9 bits: rounds to 256
  EXPECT_EQ(back->events[6].dur_ns, 256u);
  EXPECT_EQ(back->events[14].dur_ns, 1ull << 40);
}

// Offsets and returns are coded against each other and the previous row; the extremes (errors,
// fd returns, random and backward positions, values near 2^64) must still come back exactly.
TEST(TraceIo, OffsetAndRetEncodingsAreExact) {
  testing::TempDir dir;
  Trace t;
  t.files = {{"/f", 1, 1, 0, 0, 0}};
  const std::uint64_t big = 0xfffffffffffff000ull;
  struct Row {
    Op op;
    std::uint64_t off, size;
    std::int64_t ret;
    std::uint32_t tid;
  };
  Row rows[] = {{Op::open, 0, 0, 3, 1},         {Op::read, 0, 4096, 4096, 1},
                {Op::read, 4096, 4096, 100, 1}, {Op::read, 4196, 4096, 0, 1},
                {Op::close, 0, 0, 0, 1},        {Op::pread, big, 4096, 4095, 2},
                {Op::pread, 5, ~0ull, -22, 2},  {Op::pread, 1ull << 63, 1ull << 63, INT64_MAX, 2},
                {Op::pwrite, 17, 3, 3, 1},      {Op::pwrite, 20, 3, -28, 2}};
  for (std::size_t i = 0; i < std::size(rows); ++i) {
    Event e;
    e.ts_ns = 1000 * i;
    e.op = rows[i].op;
    e.offset = rows[i].off;
    e.size = rows[i].size;
    e.ret = rows[i].ret;
    e.pid = 1;
    e.tid = rows[i].tid;
    e.file = 0;
    e.fd = 3;
    t.events.push_back(e);
  }
  ASSERT_TRUE(write_trace(dir / "o.h5", t));
  auto back = read_trace(dir / "o.h5");
  ASSERT_TRUE(back) << back.error().message;
  ASSERT_EQ(back->events.size(), t.events.size());
  for (std::size_t i = 0; i < t.events.size(); ++i)
    EXPECT_TRUE(exactly_equal(back->events[i], t.events[i])) << "event " << i;
}

// Rows are stored grouped by thread; events of different threads at the same (quantised) time come
// back sorted by time with each thread's own order kept.
TEST(TraceIo, ThreadOrderSurvivesGroupingAndTies) {
  testing::TempDir dir;
  Trace t;
  for (int i = 0; i < 300; ++i) {
    Event e;
    e.ts_ns = 1000 * static_cast<std::uint64_t>(i / 3);  // three threads per instant
    e.pid = 1;
    e.tid = static_cast<std::uint32_t>(10 - i % 3);
    e.size = static_cast<std::uint64_t>(i);
    t.events.push_back(e);
  }
  ASSERT_TRUE(write_trace(dir / "g.h5", t));
  auto back = read_trace(dir / "g.h5");
  ASSERT_TRUE(back) << back.error().message;
  ASSERT_EQ(back->events.size(), t.events.size());
  std::map<std::uint32_t, std::vector<std::uint64_t>> want, got;
  for (const auto& e : t.events) want[e.tid].push_back(e.size);
  for (std::size_t i = 0; i < back->events.size(); ++i) {
    const Event& e = back->events[i];
    got[e.tid].push_back(e.size);
    EXPECT_EQ(e.ts_ns, 1000 * (e.size / 3)) << i;
    if (i > 0) {
      EXPECT_LE(back->events[i - 1].ts_ns, e.ts_ns) << i;
    }
  }
  EXPECT_EQ(want, got);
}

TEST(TraceIo, RoundTripEmptyTrace) {
  testing::TempDir dir;
  Trace t;
  ASSERT_TRUE(write_trace(dir / "e.h5", t));
  auto back = read_trace(dir / "e.h5");
  ASSERT_TRUE(back) << back.error().message;
  expect_equal(t, *back);
}

TEST(TraceIo, ReaderSortsEventsAppendedOutOfOrder) {
  testing::TempDir dir;
  auto w = TraceWriter::create(dir / "s.h5");
  ASSERT_TRUE(w);
  std::vector<Event> evs(3);
  evs[0].ts_ns = 3000;
  evs[1].ts_ns = 1000;
  evs[2].ts_ns = 2000;
  evs[0].size = 3;
  evs[1].size = 1;
  evs[2].size = 2;
  ASSERT_TRUE((*w)->append(evs));
  ASSERT_TRUE((*w)->finish({}, {}, {}));
  auto back = read_trace(dir / "s.h5");
  ASSERT_TRUE(back);
  ASSERT_EQ(back->events.size(), 3u);
  EXPECT_EQ(back->events[0].size, 1u);
  EXPECT_EQ(back->events[1].ts_ns, 2000u);
  EXPECT_EQ(back->events[2].size, 3u);
}

TEST(TraceIo, StreamingWriterEqualsWholeWrite) {
  testing::TempDir dir;
  Trace t = sample_trace();
  auto w = TraceWriter::create(dir / "w.h5");
  ASSERT_TRUE(w) << w.error().message;
  for (std::size_t i = 0; i < t.events.size(); i += 137) {
    std::vector<Event> part(t.events.begin() + i,
                            t.events.begin() + std::min(i + 137, t.events.size()));
    ASSERT_TRUE((*w)->append(part));
    // Tables grow between flushes, as in a capture.
    std::size_t nf = std::min<std::size_t>(1 + i / 300, t.files.size());
    std::vector<File> files(t.files.begin(), t.files.begin() + nf);
    Process renamed = t.processes[0];
    renamed.comm = "early" + std::to_string(i);
    ASSERT_TRUE((*w)->flush(t.meta, files, {renamed}));
  }
  ASSERT_TRUE((*w)->finish(t.meta, t.files, t.processes));
  auto back = read_trace(dir / "w.h5");
  ASSERT_TRUE(back) << back.error().message;
  expect_equal(t, *back);
}

TEST(TraceIo, DestroyingUnfinishedWriterLeavesIncompleteTrace) {
  testing::TempDir dir;
  Trace t = sample_trace();
  {
    auto w = TraceWriter::create(dir / "d.h5");
    ASSERT_TRUE(w);
    ASSERT_TRUE((*w)->flush(t.meta, t.files, t.processes));
    ASSERT_TRUE((*w)->append(t.events));
  }
  auto back = read_trace(dir / "d.h5");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_FALSE(back->meta.complete);
  EXPECT_EQ(back->events.size(), t.events.size());
  EXPECT_EQ(back->files.size(), t.files.size());
}

// A capture killed with SIGKILL after a flush: the child writes, flushes, appends more without
// flushing and _exits without closing anything. The file must read back with the flushed state.
TEST(TraceIo, KilledAfterFlushLeavesReadableTrace) {
  testing::TempDir dir;
  auto path = dir / "k.h5";
  Trace t = sample_trace();
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    auto w = TraceWriter::create(path);
    if (!w) ::_exit(10);
    std::vector<Event> first(t.events.begin(), t.events.begin() + 600);
    if (!(*w)->append(first)) ::_exit(11);
    if (!(*w)->flush(t.meta, t.files, t.processes)) ::_exit(12);
    std::vector<Event> rest(t.events.begin() + 600, t.events.end());
    if (!(*w)->append(rest)) ::_exit(13);
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0);
  auto back = read_trace(path);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_FALSE(back->meta.complete);
  ASSERT_EQ(back->events.size(), 600u);
  EXPECT_TRUE(back->events[599] == t.events[599]);
  EXPECT_EQ(back->events[599].ts_ns, stored_ts(t.events[599].ts_ns));
  EXPECT_EQ(back->files.size(), t.files.size());
  EXPECT_EQ(back->processes.size(), t.processes.size());
  EXPECT_EQ(back->meta.command, t.meta.command);
}

TEST(TraceIo, MissingFileIsBadInput) {
  auto r = read_trace("/nonexistent/run.h5");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().exit_code(), 2);
  EXPECT_NE(r.error().message.find("no such file"), std::string::npos);
}

TEST(TraceIo, NonHdf5FileIsBadInput) {
  testing::TempDir dir;
  std::ofstream(dir / "x.h5") << "not hdf5\n";
  auto r = read_trace(dir / "x.h5");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().exit_code(), 2);
  EXPECT_NE(r.error().message.find("not an HDF5 file"), std::string::npos);
}

}  // namespace
}  // namespace dlgen::trace
