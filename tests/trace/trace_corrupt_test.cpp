// Corrupt trace files: every check of the reader refuses its corruption with a reason (exit 2),
// and byte-flipped copies of a valid trace never crash `dlgen inspect` or `dlgen distil`.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <hdf5.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <random>
#include <sstream>

#include "dlgen/trace/trace_io.hpp"
#include "dlgen/trace/trace_text.hpp"
#include "temp_dir.hpp"

extern char** environ;

namespace dlgen::trace {
namespace {

namespace fs = std::filesystem;

// A DataLoader-like trace: a main process, a worker reading 12 files in 64 KiB requests, batch
// hand-overs by sendmsg. Built from the text form, so no binary fixture is committed.
Trace valid_trace() {
  std::string text =
      "meta command=\"python3 train.py\" host=h1 exit=0 lost=0 complete=1\n"
      "proc pid=100 comm=python3 start=0 end=2s\n"
      "proc pid=101 ppid=100 comm=pt_data_worker_0 start=5ms\n"
      "proc pid=102 tgid=100 ppid=100 comm=pt_pin_memory\n";
  for (int f = 0; f < 12; ++f)
    text += "file path=/data/x/f" + std::to_string(f) +
            ".npz size=1MiB dev=2049 ino=" + std::to_string(f + 10) +
            " magic=0x04034b50 magic_len=4\n";
  std::uint64_t ts = 1'000'000;
  for (int f = 0; f < 12; ++f) {
    const std::string p = "#" + std::to_string(f);
    text += "ts=" + std::to_string(ts) + " dur=20us pid=101 op=open file=" + p + " fd=3 ret=3\n";
    ts += 30'000;
    for (int k = 0; k < 16; ++k) {
      text += "ts=" + std::to_string(ts) + " dur=50us pid=101 op=read file=" + p +
              " fd=3 off=" + std::to_string(k * 65536) + " size=64KiB\n";
      ts += 60'000;
    }
    text += "ts=" + std::to_string(ts) + " dur=5us pid=101 op=close file=" + p + " fd=3 ret=0\n";
    text += "ts=" + std::to_string(ts + 10'000) + " dur=5us pid=101 op=sendmsg size=100\n";
    text += "ts=" + std::to_string(ts + 20'000) + " dur=5us pid=100 op=recvmsg size=100\n";
    ts += 200'000;
  }
  auto t = parse_trace_text(text);
  EXPECT_TRUE(t) << t.error().message;
  return t ? *t : Trace{};
}

void write_valid(const fs::path& path, const Trace& t = valid_trace()) {
  auto w = write_trace(path, t);
  ASSERT_TRUE(w) << w.error().message;
}

// Opens a written trace with HDF5 to corrupt it in a way the format cannot express.
struct Edit {
  explicit Edit(const fs::path& p) : file(H5Fopen(p.c_str(), H5F_ACC_RDWR, H5P_DEFAULT)) {}
  ~Edit() { H5Fclose(file); }
  void set_extent(const char* dataset, hsize_t n) {
    hid_t d = H5Dopen2(file, dataset, H5P_DEFAULT);
    EXPECT_GE(H5Dset_extent(d, &n), 0);
    H5Dclose(d);
  }
  template <class T>
  void set_attr(const char* object, const char* name, hid_t type, T value) {
    hid_t o = H5Oopen(file, object, H5P_DEFAULT);
    hid_t a = H5Aopen(o, name, H5P_DEFAULT);
    EXPECT_GE(H5Awrite(a, type, &value), 0);
    H5Aclose(a);
    H5Oclose(o);
  }
  template <class T>
  void set_row(const char* dataset, hid_t type, hsize_t row, T value) {
    hid_t d = H5Dopen2(file, dataset, H5P_DEFAULT);
    hid_t fs = H5Dget_space(d);
    hsize_t one = 1;
    H5Sselect_hyperslab(fs, H5S_SELECT_SET, &row, nullptr, &one, nullptr);
    hid_t ms = H5Screate_simple(1, &one, nullptr);
    EXPECT_GE(H5Dwrite(d, type, ms, fs, H5P_DEFAULT, &value), 0);
    H5Sclose(ms);
    H5Sclose(fs);
    H5Dclose(d);
  }
  hid_t file;
};

std::string read_error(const fs::path& path) {
  auto r = read_trace(path);
  EXPECT_FALSE(r) << path;
  if (r) return "";
  EXPECT_EQ(r.error().exit_code(), 2) << r.error().message;
  EXPECT_NE(r.error().message.find(path.string() + ": "), std::string::npos) << r.error().message;
  return r.error().message;
}

TEST(TraceCorrupt, ValidTraceReadsBack) {
  testing::TempDir dir;
  const Trace t = valid_trace();
  write_valid(dir / "t.h5", t);
  auto back = read_trace(dir / "t.h5");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->events.size(), t.events.size());
  EXPECT_EQ(back->files.size(), 12u);
  auto direct = read_trace_in_process(dir / "t.h5");
  ASSERT_TRUE(direct);
  EXPECT_EQ(direct->events.size(), t.events.size());
}

TEST(TraceCorrupt, EventFileIndexOutOfRange) {
  testing::TempDir dir;
  Trace t = valid_trace();
  t.events[5].file = 90;
  write_valid(dir / "t.h5", t);
  EXPECT_NE(read_error(dir / "t.h5").find("names file 90 but /files has 12 rows"),
            std::string::npos);
}

TEST(TraceCorrupt, UnknownOpCode) {
  testing::TempDir dir;
  write_valid(dir / "t.h5");
  Edit(dir / "t.h5").set_row<std::uint8_t>("/events/op", H5T_NATIVE_UINT8, 3, 200);
  EXPECT_NE(read_error(dir / "t.h5").find("unknown op code 200"), std::string::npos);
}

// A /http_body row must name a /http row and lie inside its body, after the previous burst.
TEST(TraceCorrupt, BurstsOutsideTheirRequestOrBody) {
  testing::TempDir dir;
  Trace t = valid_trace();
  auto get = parse_trace_text(
      "http pid=101 method=GET path=/b/s.tar status=200 length=100 ts=1ms first=2ms last=9ms "
      "burst=2ms-3ms@0+60 burst=8ms-9ms@60+40\n");
  ASSERT_TRUE(get) << get.error().message;
  t.http = get->http;
  write_valid(dir / "a.h5", t);
  write_valid(dir / "b.h5", t);
  write_valid(dir / "c.h5", t);
  Edit(dir / "a.h5").set_row<std::uint64_t>("/http_body/request", H5T_NATIVE_UINT64, 1, 7);
  EXPECT_NE(read_error(dir / "a.h5").find("/http_body row 1 names no /http row"),
            std::string::npos);
  Edit(dir / "b.h5").set_row<std::uint64_t>("/http_body/bytes", H5T_NATIVE_UINT64, 1, 41);
  EXPECT_NE(read_error(dir / "b.h5").find("/http_body row 1 is not a burst of its body"),
            std::string::npos);
  Edit(dir / "c.h5").set_row<std::uint64_t>("/http_body/offset", H5T_NATIVE_UINT64, 1, 10);
  EXPECT_NE(read_error(dir / "c.h5").find("/http_body row 1 is not a burst of its body"),
            std::string::npos);
}

TEST(TraceCorrupt, ColumnsOfAFinishedTraceMustAgree) {
  testing::TempDir dir;
  write_valid(dir / "t.h5");
  Edit(dir / "t.h5").set_extent("/files/dev", 30);
  EXPECT_NE(read_error(dir / "t.h5").find("/files columns disagree: dev has 30 rows, path 12"),
            std::string::npos);
  write_valid(dir / "e.h5");
  Edit(dir / "e.h5").set_extent("/events/size", 10);
  EXPECT_NE(read_error(dir / "e.h5").find("/events columns disagree"), std::string::npos);
}

TEST(TraceCorrupt, AnUnfinishedTraceTakesTheShortestColumn) {
  testing::TempDir dir;
  write_valid(dir / "t.h5");
  {
    Edit e(dir / "t.h5");
    e.set_attr<std::uint8_t>("/", "complete", H5T_NATIVE_UINT8, 0);
    e.set_extent("/events/size", 10);
  }
  auto back = read_trace(dir / "t.h5");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->events.size(), 10u);
}

TEST(TraceCorrupt, RowCountBeyondWhatTheFileHolds) {
  testing::TempDir dir;
  write_valid(dir / "t.h5");
  Edit(dir / "t.h5").set_extent("/events/arg", hsize_t{1} << 40);
  EXPECT_NE(read_error(dir / "t.h5").find("/events/arg claims 1099511627776 rows"),
            std::string::npos);
}

TEST(TraceCorrupt, TimeUnitOutOfRange) {
  testing::TempDir dir;
  write_valid(dir / "t.h5");
  Edit(dir / "t.h5").set_attr<std::uint64_t>("/events", "ts_unit_ns", H5T_NATIVE_UINT64, 0);
  EXPECT_NE(read_error(dir / "t.h5").find("ts_unit_ns is 0"), std::string::npos);
}

TEST(TraceCorrupt, TimesBeyondTheTraceSpan) {
  testing::TempDir dir;
  write_valid(dir / "t.h5");
  Edit(dir / "t.h5").set_row<std::int64_t>("/events/ts_delta", H5T_NATIVE_INT64, 7, -5);
  EXPECT_NE(read_error(dir / "t.h5").find("a time beyond 31 days"), std::string::npos);
  write_valid(dir / "d.h5");
  Edit(dir / "d.h5").set_attr<std::uint64_t>("/", "duration_ns", H5T_NATIVE_UINT64, UINT64_MAX);
  EXPECT_NE(read_error(dir / "d.h5").find("duration_ns is 18446744073709551615, more than 31 days"),
            std::string::npos);
}

TEST(TraceCorrupt, MagicLengthAtMostEight) {
  testing::TempDir dir;
  write_valid(dir / "t.h5");
  Edit(dir / "t.h5").set_row<std::uint8_t>("/files/magic_len", H5T_NATIVE_UINT8, 2, 200);
  EXPECT_NE(read_error(dir / "t.h5").find("/files row 2 has magic_len 200"), std::string::npos);
}

TEST(TraceCorrupt, TruncatedFile) {
  testing::TempDir dir;
  write_valid(dir / "t.h5");
  fs::resize_file(dir / "t.h5", fs::file_size(dir / "t.h5") / 2);
  read_error(dir / "t.h5");
}

// Runs `dlgen <args>` with stdout discarded; returns the wait status and stderr.
std::pair<int, std::string> run_dlgen(const std::vector<std::string>& args,
                                      const fs::path& err_file) {
  std::vector<std::string> argv_s{DLGEN_BINARY};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, err_file.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) return {-1, "spawn failed"};
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::ifstream in(err_file);
  return {status, std::string(std::istreambuf_iterator<char>(in), {})};
}

// Issue 9: byte-flipped copies of a valid trace (1 to 20 random bytes changed) made inspect and
// distil die of SIGSEGV on ~3% of them. Now: exit 0, or exit 2 with a reason on stderr.
TEST(TraceCorrupt, ByteFlippedCopiesNeverCrashTheCli) {
  testing::TempDir dir;
  write_valid(dir / "good.h5");
  std::ifstream in(dir / "good.h5", std::ios::binary);
  const std::string good((std::istreambuf_iterator<char>(in)), {});
  ASSERT_GT(good.size(), 1000u);
  std::mt19937_64 rng(20261124);
  int refused = 0, read = 0;
  constexpr int kCopies = 300;
  for (int i = 0; i < kCopies; ++i) {
    std::string bad = good;
    const int flips = 1 + static_cast<int>(rng() % 20);
    for (int k = 0; k < flips; ++k) bad[rng() % bad.size()] = static_cast<char>(rng() & 0xff);
    const fs::path p = dir / ("c" + std::to_string(i) + ".h5");
    std::ofstream(p, std::ios::binary) << bad;
    for (const char* verb : {"inspect", "distil"}) {
      SCOPED_TRACE(std::string(verb) + " " + p.filename().string());
      std::vector<std::string> args{verb, p.string()};
      if (std::string(verb) == "distil")
        args.insert(args.end(), {"-o", (dir / "out.toml").string()});
      const auto [status, err] = run_dlgen(args, dir / "stderr.txt");
      ASSERT_TRUE(WIFEXITED(status))
          << "killed by signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
      const int code = WEXITSTATUS(status);
      ASSERT_TRUE(code == 0 || code == 2) << "exit " << code << ": " << err;
      if (code == 2) {
        EXPECT_NE(err.find("dlgen: " + p.string() + ": "), std::string::npos) << err;
        ++refused;
      } else {
        ++read;
      }
    }
    fs::remove(p);
  }
  // Most flips hit metadata or compressed chunks and are refused; some hit padding and read.
  EXPECT_GT(refused, kCopies / 4);
  EXPECT_GT(read, 0);
}

}  // namespace
}  // namespace dlgen::trace
