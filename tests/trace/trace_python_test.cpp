// The trace file is readable from Python with h5py alone, as docs/trace-format.md shows. The
// snippet below is the one in the doc (section "Reading from Python").
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "dlgen/trace/trace_io.hpp"
#include "dlgen/trace/trace_text.hpp"
#include "temp_dir.hpp"

namespace dlgen::trace {
namespace {

const char* kSnippet = R"PY(
import sys
import h5py
import numpy as np

def load_events(f):
    """/events of a format-version-2 trace as plain columns, sorted by entry time."""
    ev = {name: col[:] for name, col in f["events"].items()}
    ev["ts_ns"] = np.cumsum(ev.pop("ts_delta")) * int(f["events"].attrs["ts_unit_ns"])
    ev["ret"] = ev.pop("ret_delta") + ev["size"].astype(np.int64)
    # offset: sequential runs are stored as 0, continuing from the previous row when it moved bytes
    prev_ret = np.r_[0, ev["ret"][:-1]]
    step = ev.pop("offset_delta") + np.maximum(prev_ret, 0)
    run_start = np.maximum.accumulate(np.where(prev_ret > 0, 0, np.arange(len(step))))
    total = np.cumsum(step)
    ev["offset"] = (total - total[run_start] + step[run_start]).astype(np.uint64)
    order = np.argsort(ev["ts_ns"], kind="stable")  # rows are stored grouped by thread
    return {name: col[order] for name, col in ev.items()}

with h5py.File(sys.argv[1], "r") as f:
    ev = load_events(f)
    paths = f["files/path"].asstr()[:]             # index with ev["file"] (0xffffffff: no file)
    comm = f["processes/comm"][:].astype(str)
    command = list(f.attrs["command"])
    complete = bool(f.attrs["complete"])
ts_ns, dur_ns = ev["ts_ns"], ev["dur_ns"]          # dur_ns: float32, 7 significant bits
reads = np.isin(ev["op"], [2, 3, 4, 5, 25])        # read, pread, readv, preadv, uring_read
bytes_read = np.clip(ev["ret"][reads], 0, None).sum()

# checks against the trace the C++ test wrote
assert command == ["python3", "train.py"], command
assert complete
assert len(ts_ns) == 6, len(ts_ns)
assert ts_ns.tolist() == [1000000, 2000000, 2000000, 3000000, 4000000, 2000000000], ts_ns.tolist()
assert ev["tid"].tolist() == [101, 101, 102, 101, 102, 100], ev["tid"]
assert ev["size"][reads].sum() == 65536 + 4096 + 65536 + 4096, ev["size"][reads]
assert bytes_read == 65536 + 1000 + 4096, bytes_read
assert ev["offset"].tolist() == [0, 0, 1 << 40, 65536, 8192, 0], ev["offset"]
assert ev["ret"].tolist() == [3, 65536, 4096, 1000, -5, 0], ev["ret"]
assert abs(dur_ns[1] - 20000) <= 20000 / 128 and dur_ns[3] == 100, dur_ns
assert paths[ev["file"][1]] == "/data/a.npz"
assert ev["file"][5] == 0xffffffff
assert comm.tolist() == ["python3", "pt_data_worker", "pt_data_worker"], comm
print("ok")
)PY";

TEST(Python, H5pyReadsTheTrace) {
  if (std::system((std::string(DLGEN_PYTHON) + " -c 'import h5py, numpy' 2>/dev/null").c_str()) !=
      0)
    GTEST_SKIP() << "python3-h5py or python3-numpy is not installed";
  testing::TempDir dir;
  auto t = parse_trace_text(R"(
meta command="python3 train.py" complete=1
proc pid=100 comm=python3
proc pid=101 ppid=100 comm=pt_data_worker
proc pid=102 ppid=100 comm=pt_data_worker
ts=1ms pid=101 op=open file=/data/a.npz ret=3
ts=2ms dur=20us pid=101 op=read file=/data/a.npz size=64KiB
ts=2ms pid=102 op=pread file=/data/b.npz off=1TiB size=4096
ts=3ms dur=100 pid=101 op=read file=/data/a.npz off=64KiB size=64KiB ret=1000
ts=4ms pid=102 op=pread file=/data/b.npz off=8KiB size=4096 ret=-EIO
ts=2s pid=100 op=sendmsg size=72
)");
  ASSERT_TRUE(t) << t.error().message;
  ASSERT_TRUE(write_trace(dir / "t.h5", *t));
  std::ofstream(dir / "read.py") << kSnippet;
  std::string cmd =
      std::string(DLGEN_PYTHON) + " " + (dir / "read.py").string() + " " + (dir / "t.h5").string();
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
}

// Format version 1 (every field as is, ts_delta_ns in ns, time order) still reads. The file is
// built with h5py per the version 1 spec, since this dlgen only writes version 2.
TEST(Python, Version1TraceStillReads) {
  if (std::system((std::string(DLGEN_PYTHON) + " -c 'import h5py, numpy' 2>/dev/null").c_str()) !=
      0)
    GTEST_SKIP() << "python3-h5py or python3-numpy is not installed";
  testing::TempDir dir;
  std::ofstream(dir / "v1.py") << R"PY(
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "w") as f:
    f.attrs["format"] = "dlgen-trace"
    f.attrs["format_version"] = np.uint32(1)
    f.attrs["complete"] = np.uint8(1)
    e = f.create_group("events")
    cols = dict(ts_delta_ns=np.int64([1001, 999, 7]), dur_ns=np.uint64([12345, 1, 999999]),
                pid=np.uint32([5, 5, 6]), tid=np.uint32([5, 5, 6]), op=np.uint8([0, 2, 3]),
                file=np.uint32([0, 0, 0]), fd=np.int32([3, 3, 4]), offset=np.uint64([0, 0, 77]),
                size=np.uint64([0, 4096, 100]), ret=np.int64([3, 4000, -5]),
                flags=np.uint32([0x80000, 0, 0]), arg=np.uint64([0, 0, 9]))
    for k, v in cols.items():
        e.create_dataset(k, data=v, maxshape=(None,), chunks=(16,), shuffle=True, compression="gzip")
    fl = f.create_group("files")
    fl.create_dataset("path", data=["/d/a"], dtype=h5py.string_dtype())
    for k in ("dev", "ino", "size_at_open", "magic"):
        fl.create_dataset(k, data=np.uint64([11]))
    fl.create_dataset("magic_len", data=np.uint8([1]))
    pr = f.create_group("processes")
    for k in ("pid", "tgid", "ppid", "start_ns", "end_ns", "exit_code", "is_thread"):
        pr.create_dataset(k, data=np.uint32([5]))
    pr.create_dataset("comm", data=np.array([b"python3"], dtype="S16"))
    pr.create_dataset("first_comm", data=np.array([b"python3"], dtype="S16"))
)PY";
  std::string cmd =
      std::string(DLGEN_PYTHON) + " " + (dir / "v1.py").string() + " " + (dir / "v1.h5").string();
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  auto t = read_trace(dir / "v1.h5");
  ASSERT_TRUE(t) << t.error().message;
  ASSERT_EQ(t->events.size(), 3u);
  EXPECT_EQ(t->events[0].ts_ns, 1001u);  // version 1 is exact to the ns
  EXPECT_EQ(t->events[2].ts_ns, 2007u);
  EXPECT_EQ(t->events[0].dur_ns, 12345u);
  EXPECT_EQ(t->events[2].dur_ns, 999999u);
  EXPECT_EQ(t->events[1].ret, 4000);
  EXPECT_EQ(t->events[2].ret, -5);
  EXPECT_EQ(t->events[2].offset, 77u);
  EXPECT_EQ(t->events[2].op, Op::pread);
  EXPECT_EQ(t->events[2].arg, 9u);
  EXPECT_EQ(t->events[0].flags, 0x80000u);
  ASSERT_EQ(t->files.size(), 1u);
  EXPECT_EQ(t->files[0].path, "/d/a");
  EXPECT_EQ(t->processes.at(0).comm, "python3");
}

}  // namespace
}  // namespace dlgen::trace
