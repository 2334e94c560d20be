// Items per batch of a memory-mapped dataset (analysis/src/prepass/mapped_touches.hpp) on
// hand-built traces: each worker's runs of faults in adjacent windows between its hand-overs,
// over the share of the dataset's windows that could still fault for it.
#include "prepass/mapped_touches.hpp"

#include <gtest/gtest.h>

#include "trace_builder.hpp"

namespace dlgen::analysis {
namespace {

using trace::Op;

constexpr std::uint64_t kWindow = 65536;

class Touches : public testing::TraceBuilder {
 public:
  explicit Touches(std::uint64_t size) {
    proc(100, 1, "python3", false, 100);
    proc(101, 100, "pt_data_worker", false, 101);
    data_ = file("/data/lmdb/data.mdb", size);
    sock_ = file("<dev 0:9 ino 7>", 0);
  }
  void fault(std::uint32_t pid, std::uint64_t window, std::uint64_t windows = 1) {
    ev(now_, 0, pid, pid, Op::fault, data_, -1, window * kWindow, windows * kWindow,
       static_cast<std::int64_t>(windows * kWindow), 1);
    now_ += 1000;
  }
  void hand_over(std::uint32_t pid) {
    ev(now_, 1000, pid, pid, Op::sendmsg, sock_, 5, 0, 0, 1);
    now_ += 2000;
  }
  std::map<std::string, MappedTouches> touches() {
    MappedFile m;
    m.file = data_;
    m.window = kWindow;
    return mapped_touches(t_, {m});
  }

 private:
  std::uint32_t data_ = 0, sock_ = 0;
};

TEST(MappedTouches, ItemsAreRunsOfAdjacentWindowsOverTheShareThatCouldFault) {
  Touches b(4 << 20);  // 64 windows in two 2 MiB blocks
  b.fault(101, 0);
  b.fault(101, 10);
  b.fault(101, 40);
  b.fault(101, 50);
  b.fault(101, 51);  // the same item: the next window of a value spanning two
  b.hand_over(101);  // 4 items, all 64 windows could fault
  b.hand_over(101);  // the batch's second hand-over (its tensors): no batch of its own
  b.fault(101, 20);  // an item in window 0 shows nothing: mapped already
  b.fault(101, 45);
  b.fault(101, 60);
  b.hand_over(101);
  b.hand_over(101);  // the batch's second hand-over (its tensors): no batch of its own
  b.fault(100, 30);  // the main process never hands over: not a worker
  const auto t = b.touches();
  ASSERT_EQ(t.count("/data/lmdb"), 1u);
  const MappedTouches& m = t.at("/data/lmdb");
  EXPECT_EQ(m.batches, 2u);
  EXPECT_EQ(m.touches, 7u);
  EXPECT_DOUBLE_EQ(m.shown, 1.0);
  // 4 + 3 touches over the chance an item shows one in each batch: all 64 windows could fault in
  // the first, 59 in the second (5 mapped); items span one window (6 seen) or two (1), and one
  // of two shows when either window could fault.
  const double f = 59.0 / 64.0, shows = (6 * f + (1 - (1 - f) * (1 - f))) / 7;
  EXPECT_DOUBLE_EQ(m.per_batch, 7.0 / (1.0 + shows));
}

TEST(MappedTouches, BlocksNoFaultShowedCannotShowATouch) {
  Touches b(6 << 20);  // 96 windows in three blocks; the third never faults (a 2 MiB folio)
  b.fault(101, 0);
  b.fault(101, 40);
  b.hand_over(101);
  const MappedTouches m = b.touches().at("/data/lmdb");
  EXPECT_DOUBLE_EQ(m.shown, 64.0 / 96.0);
  EXPECT_DOUBLE_EQ(m.per_batch, 2.0 / (64.0 / 96.0));
}

// A batch whose items all lay in windows the worker had mapped shows no touch, only its
// hand-overs: it counts, with the share that could fault then, or only the lucky batches would.
TEST(MappedTouches, BatchesThatShowNoTouchCount) {
  Touches b(4 << 20);
  b.fault(101, 0);
  b.fault(101, 40);
  b.hand_over(101);
  b.fault(101, 20);
  b.fault(101, 50);
  b.hand_over(101);
  b.hand_over(101);  // a second batch, of items in windows 0, 20, 40 or 50: no fault
  const MappedTouches m = b.touches().at("/data/lmdb");
  EXPECT_EQ(m.batches, 3u);
  EXPECT_EQ(m.touches, 4u);
  EXPECT_DOUBLE_EQ(m.per_batch, 4.0 / (1.0 + 62.0 / 64.0 + 60.0 / 64.0));
}

}  // namespace
}  // namespace dlgen::analysis
