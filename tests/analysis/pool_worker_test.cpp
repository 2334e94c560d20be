// A DataLoader worker that fetches its batch's samples on a pool of threads (a Dataset's
// __getitems__ on a ThreadPoolExecutor, as object-store datasets hide request latency): the
// worker process, not each pool thread, is a reader, and its batches are the samples its threads
// read between the process's hand-overs. A hand-built trace as PyTorch makes it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dlgen/analysis/distil.hpp"
#include "trace_builder.hpp"

namespace dlgen::analysis {
namespace {

using trace::Op;

// 2 workers, each with a pool of 4 threads; 48 files, batch 8: 3 batches a worker, each batch's
// 8 files read 2 a thread at once, then handed over by the worker's main thread (sendmsg). With
// `tensors`, as PyTorch shares a batch of images and int labels: the main thread collates the
// images into a /dev/shm tensor, and the result queue's feeder thread moves the labels into one
// as it sends the batch, after the pool began the worker's next batch.
class PoolWorkers : public testing::TraceBuilder {
 public:
  explicit PoolWorkers(bool tensors = false) : tensors_(tensors) {}

  trace::Trace build() {
    proc(kMain, 1, "python3", false, kMain);
    for (int i = 0; i < 48; ++i)
      files_.push_back(file("/d/train/" + std::to_string(i) + ".npy", 8192));
    for (std::uint32_t w = 0; w < 2; ++w) {
      const std::uint32_t pid = 200 + w;
      proc(pid, kMain, "pt_data_worker", false, pid);
      for (std::uint32_t k = 1; k <= 4; ++k) proc(pid * 10 + k, kMain, "python3", true, pid);
    }
    std::uint64_t at = 1'000'000;
    std::size_t next = 0;
    for (int b = 0; b < 6; ++b, at += 20'000'000) {
      const std::uint32_t pid = 200 + b % 2;
      for (std::uint32_t s = 0; s < 8; ++s) {
        const std::uint32_t tid = pid * 10 + 1 + s % 4, f = files_[next++];
        const std::uint64_t t0 = at + (s / 4) * 2'000'000;
        const auto fd = static_cast<std::int32_t>(10 + s % 4);
        ev(t0, 10'000, pid, tid, Op::open, f, fd, 0, 0, fd);
        ev(t0 + 20'000, 500'000, pid, tid, Op::read, f, fd, 0, 8192, 8192);
        ev(t0 + 600'000, 5'000, pid, tid, Op::close, f, fd, 0, 0, 0);
      }
      if (tensors_) {
        tensor(pid, pid, at + 5'000'000, 8 * 4096);
        tensor(pid, pid * 10 + 9, at + 41'000'000, 8 * 8);  // the worker's next batch: at + 40 ms
      }
      ev(at + 5'000'000, 20'000, pid, pid, Op::sendmsg, trace::kNoFile, 3, 0, 64, 64);
      ev(at + 6'000'000, 20'000, kMain, kMain, Op::recvmsg, trace::kNoFile, 4, 0, 64, 64);
    }
    t_.meta.duration_ns = at;
    return t_;
  }

 private:
  void tensor(std::uint32_t pid, std::uint32_t tid, std::uint64_t at, std::uint64_t bytes) {
    const auto f = file("/dev/shm/torch_" + std::to_string(pid) + "_" + std::to_string(shm_++), 0);
    ev(at, 1000, pid, tid, Op::shm_open, f, 9, 0, 0, 9);
    ev(at + 2000, 1000, pid, tid, Op::ftruncate, f, 9, 0, bytes, 0);
  }

  static constexpr std::uint32_t kMain = 100;
  bool tensors_;
  std::vector<std::uint32_t> files_;
  std::uint32_t shm_ = 0;
};

TEST(PoolWorkers, AWorkersThreadsAreOneReaderAndItsBatchTheirReads) {
  const TraceSummary s = summarize(PoolWorkers().build());
  ASSERT_EQ(s.accelerators.size(), 1u);
  EXPECT_EQ(s.accelerators[0].readers.size(), 2u) << "2 worker processes, not 8 pool threads";
  EXPECT_EQ(s.batch_size, 8u);
}

// Each worker's 4 pool threads read at once: the job keeps 4 requests in flight per worker (the
// replay's default, 1, kept 1.9 GETs in flight for the original's 13: held-out batch_pool).
TEST(PoolWorkers, ThePoolsReadsInFlightAreTheWorkersIodepth) {
  const TraceSummary s = summarize(PoolWorkers().build());
  ASSERT_EQ(s.accelerators.size(), 1u);
  EXPECT_EQ(s.accelerators[0].reader_depth, 4u);
  const Distilled d = distil(s);
  EXPECT_EQ(d.job.reader.iodepth, 4u);
  EXPECT_EQ(d.comments.at("reader.iodepth").rfind("a reader kept up to 4 reads in flight", 0), 0u)
      << d.comments.at("reader.iodepth");
}

// The main thread's tensor marks each batch; the feeder's label tensor, shared while the pool
// reads the next batch, split it (8, 4, 4, 4, 4, ... samples: 10 batches for 6).
TEST(PoolWorkers, TheMainThreadsTensorsMarkTheBatches) {
  const TraceSummary s = summarize(PoolWorkers(true).build());
  ASSERT_EQ(s.accelerators.size(), 1u);
  EXPECT_EQ(s.accelerators[0].readers.size(), 2u);
  EXPECT_EQ(s.batch_size, 8u);
  ASSERT_EQ(s.batches.size(), 6u);
  for (const auto& b : s.batches) EXPECT_EQ(b.samples, 8u);
}

}  // namespace
}  // namespace dlgen::analysis
