// The device level of the fidelity loop on real captures: a program reads a dataset from a cold
// page cache (caches dropped before it), captured with `--block`; its distilled job is replayed
// from a cold cache too, captured the same way, and compared. Block requests name the file whose
// pages they move, so the comparison counts the dataset's device traffic only (not the Python
// interpreter and libraries loading from the cold cache), and `device_read_fraction` says how much
// of what the program read came from the device rather than the page cache. A replay that drops
// the cache before every epoch must fail on it. Needs root (BPF, drop_caches).
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include "dlgen/core/json.hpp"

#include "compare_rows.hpp"
#include "e2e_fixture.hpp"

namespace {

using dlgen::testing::compare_json;
using dlgen::testing::compare_row;
using dlgen::testing::make_data;
using dlgen::testing::Outcome;

// 48 raw files of 200-600 KiB (~19 MiB): large enough for readahead to matter, small enough to
// read in well under a second.
const char* kDataJob = R"(
[job]
name = "block-e2e-data"

[dataset]
dir = "train"
format = "raw"
num_files = 48
sample_size = { dist = "uniform", min = "200KiB", max = "600KiB" }
seed = 11
)";

// A plain Python loop: every file read whole with open().read(), in a new random order each
// epoch, a little work per file. The second epoch is served by the page cache.
const char* kReader = R"(import os, random, sys, time
d = sys.argv[1]
files = sorted(os.listdir(d))
for epoch in range(2):
    random.Random(epoch).shuffle(files)
    for f in files:
        with open(os.path.join(d, f), "rb") as fh:
            fh.read()
        time.sleep(0.002)
)";

bool drop_caches() {
  ::sync();
  std::ofstream f("/proc/sys/vm/drop_caches");
  f << "3\n";
  f.flush();
  return static_cast<bool>(f);
}

class BlockE2E : public dlgen::testing::SharedRun<BlockE2E> {
 protected:
  static void SetUpTestSuite() {
    make_dir("block-e2e");
    std::ofstream(dir() / "read.py") << kReader;
    if (::geteuid() != 0) return skip("needs root (BPF capture, drop_caches)");
    if (!make_data(dir(), kDataJob, &setup_error_)) return;
    if (!drop_caches()) return fail("cannot write /proc/sys/vm/drop_caches");
    capture_and_distil("--block -o orig.h5 -- " DLGEN_PYTHON " read.py " + root() + "/train");
  }

  // Replays the job from a cold cache under `capture --block` and compares with the original.
  static nlohmann::json replay_and_compare(const std::string& name, const std::string& sets) {
    EXPECT_TRUE(drop_caches());
    Outcome r =
        dlgen("capture --block -o " + name + ".h5 -- '" DLGEN_BINARY "' run job.toml " + sets);
    EXPECT_EQ(r.code, 0) << r.out;
    return compare_json(dlgen("compare orig.h5 " + name + ".h5 --json"));
  }
};

TEST_F(BlockE2E, ColdReplayMovesTheSameDatasetBytesAtTheDevice) {
  auto j = replay_and_compare("cold", "");
  const auto& bytes = compare_row(j, "block_bytes");
  const auto& requests = compare_row(j, "block_requests");
  const auto& fraction = compare_row(j, "device_read_fraction");
  EXPECT_EQ(bytes["verdict"], "PASS") << bytes.dump();
  EXPECT_EQ(requests["verdict"], "PASS") << requests.dump();
  ASSERT_EQ(fraction["verdict"], "PASS") << fraction.dump() << " (block requests not attributed "
                                         << "to files? an overlay filesystem hides the inode)";
  // Both read every dataset byte from the device once (first epoch, cold) and from the page cache
  // the second time: about half of what was read. The dataset is ~19 MiB; the original moved that
  // for its dataset files, not the hundreds of MiB Python and its libraries need from a cold cache.
  const double dataset_bytes = compare_row(j, "bytes_read")["original"].get<double>() / 2;
  for (const char* side : {"original", "replay"}) {
    const double moved = bytes[side].get<double>();
    EXPECT_GT(moved, 0.8 * dataset_bytes) << side;
    EXPECT_LT(moved, 1.3 * dataset_bytes) << side;
  }
  EXPECT_NEAR(fraction["original"].get<double>(), 0.5, 0.15);
  EXPECT_NEAR(fraction["replay"].get<double>(), 0.5, 0.15);
}

// Dropping the page cache before every epoch makes the replay read everything from the device:
// device_read_fraction ~1 against the original's ~0.5, and twice the block bytes.
TEST_F(BlockE2E, AReplayThatDropsTheCacheEveryEpochFails) {
  auto j = replay_and_compare("drop", "--set run.cache=drop_epoch");
  EXPECT_EQ(compare_row(j, "device_read_fraction")["verdict"], "FAIL")
      << compare_row(j, "device_read_fraction").dump();
  EXPECT_EQ(compare_row(j, "block_bytes")["verdict"], "FAIL")
      << compare_row(j, "block_bytes").dump();
}

}  // namespace
