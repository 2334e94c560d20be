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

with h5py.File(sys.argv[1], "r") as f:
    ev = {name: col[:] for name, col in f["events"].items()}
    ts_ns = np.cumsum(ev["ts_delta_ns"])          # absolute entry times, ns since trace start
    paths = f["files/path"].asstr()[:]             # index with ev["file"] (0xffffffff: no file)
    comm = f["processes/comm"][:].astype(str)
    command = list(f.attrs["command"])
    complete = bool(f.attrs["complete"])
    reads = np.isin(ev["op"], [2, 3, 4, 5, 25])    # read, pread, readv, preadv, uring_read

# checks against the trace the C++ test wrote
assert command == ["python3", "train.py"], command
assert complete
assert len(ts_ns) == 4, len(ts_ns)
assert ts_ns.tolist() == [1000000, 2000000, 3000000, 2000000000], ts_ns.tolist()
assert ev["size"][reads].sum() == 65536 + 4096, ev["size"][reads]
assert paths[ev["file"][1]] == "/data/a.npz"
assert ev["file"][3] == 0xffffffff
assert ev["ret"][2] == -5
assert comm.tolist() == ["python3", "pt_data_worker"], comm
print("ok")
)PY";

TEST(Python, H5pyReadsTheTrace) {
  if (std::system((std::string(DLGEN_PYTHON) + " -c 'import h5py, numpy' 2>/dev/null").c_str()) != 0)
    GTEST_SKIP() << "python3-h5py or python3-numpy is not installed";
  testing::TempDir dir;
  auto t = parse_trace_text(R"(
meta command="python3 train.py" complete=1
proc pid=100 comm=python3
proc pid=101 ppid=100 comm=pt_data_worker
ts=1ms pid=101 op=open file=/data/a.npz ret=3
ts=2ms pid=101 op=read file=/data/a.npz size=64KiB
ts=3ms pid=101 op=pread file=/data/b.npz size=4096 ret=-EIO
ts=2s pid=100 op=sendmsg size=72
)");
  ASSERT_TRUE(t) << t.error().message;
  ASSERT_TRUE(write_trace(dir / "t.h5", *t));
  std::ofstream(dir / "read.py") << kSnippet;
  std::string cmd = std::string(DLGEN_PYTHON) + " " + (dir / "read.py").string() + " " +
                    (dir / "t.h5").string();
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
}

}  // namespace
}  // namespace dlgen::trace
