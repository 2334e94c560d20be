// A training process that reads its own batches, with no DataLoader workers and so no hand-overs
// (nanoGPT's train.py): get_batch() maps train.bin afresh every call, touches random token
// windows (page faults), unmaps it, and the loop computes. Laws of summarize and distil on
// hand-built traces of that shape: every read burst + compute gap is a step, the batch is the
// windows a burst reads, compute the gap between bursts; the evaluation (every N iterations, on
// batches of both splits, at its own cadence) is its own pass, whose steps count apart. Checked
// with one reading thread, with a background thread doing other I/O meanwhile, and with a second
// thread of the process faulting some of each burst's windows.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "dlgen/analysis/distil.hpp"
#include "dlgen/analysis/summary.hpp"
#include "trace_builder.hpp"

namespace dlgen::analysis {
namespace {

using trace::Op;

constexpr std::uint64_t kWindow = 65536;
constexpr std::uint64_t kMs = 1'000'000;

enum class Threads { one, background_io, two_readers };

// The shape of the run: iterations, windows drawn per batch, evaluation every N iterations with
// eval_iters batches of each split, compute per training step and per evaluation batch (ns).
struct LoopShape {
  std::uint32_t iters = 120, batch = 12, eval_interval = 40, eval_iters = 8;
  std::uint64_t compute_ns = 20 * kMs, eval_compute_ns = 5 * kMs;
  Threads threads = Threads::one;
};

class SelfReader : public testing::TraceBuilder {
 public:
  explicit SelfReader(const LoopShape& shape) : shape_(shape) {
    proc(100, 1, "python3", false, 100);
    if (shape.threads != Threads::one) proc(106, 100, "python3", true, 100);
    train_ = file("/data/owt/train.bin", 32 << 20);
    val_ = file("/data/owt/val.bin", 4 << 20);
    ckpt_ = file("/data/out/ckpt.pt", 0);
    metrics_ = file("/data/out/metrics.bin", 0);
  }

  // nanoGPT's loop: the first batch, then per iteration an evaluation every eval_interval (and a
  // checkpoint after it past iteration 0), the forward pass, the next batch, backward + step.
  trace::Trace run() {
    get_batch(train_, 32 << 20);
    for (std::uint32_t it = 0; it <= shape_.iters; ++it) {
      if (it % shape_.eval_interval == 0) {
        for (std::uint32_t f : {train_, val_})
          for (std::uint32_t k = 0; k < shape_.eval_iters; ++k) {
            get_batch(f, f == train_ ? 32 << 20 : 4 << 20);
            compute(shape_.eval_compute_ns);
          }
        if (it > 0) checkpoint();
      }
      if (it == shape_.iters) break;
      compute(kMs);  // forward
      get_batch(train_, 32 << 20);
      compute(shape_.compute_ns);  // backward, optimizer step, the accelerator
    }
    return t_;
  }

 private:
  // np.memmap: open, map shared read-only, close; the windows of `batch` random draws (a window
  // already mapped in this call shows no fault), each a fault of its fault-around window; unmap.
  void get_batch(std::uint32_t f, std::uint64_t size) {
    const std::int64_t addr = 0x7f0000000000 + static_cast<std::int64_t>(++maps_) * (64 << 20);
    ev(now_, 5000, 100, 100, Op::open, f, -1, 0, 0, 3);
    ev(now_ + 10000, 8000, 100, 100, Op::mmap, f, 3, 0, size, addr, 0x01);
    t_.events.back().arg = 0x1;  // PROT_READ
    ev(now_ + 20000, 1000, 100, 100, Op::close, f, 3, 0, 0, 0);
    now_ += 40000;
    std::set<std::uint64_t> mapped;
    std::uniform_int_distribution<std::uint64_t> window(0, size / kWindow - 1);
    for (std::uint32_t i = 0; i < shape_.batch; ++i) {
      const std::uint64_t w = window(rng_);
      if (!mapped.insert(w).second) continue;
      // The second thread of two_readers faults every third window (a copy done in parallel).
      const std::uint32_t tid = shape_.threads == Threads::two_readers && i % 3 == 2 ? 106 : 100;
      ev(now_, 0, 100, tid, Op::fault, f, -1, w * kWindow, kWindow,
         static_cast<std::int64_t>(kWindow), 1);
      now_ += 15000;
    }
    ev(now_, 30000, 100, 100, Op::munmap, trace::kNoFile, -1, static_cast<std::uint64_t>(addr),
       size, 0);
    now_ += 50000;
  }

  // Compute: the main thread makes no syscall; with background_io another thread of the process
  // writes metrics and reads a small file back every 3 ms meanwhile.
  void compute(std::uint64_t ns) {
    if (shape_.threads == Threads::background_io)
      for (std::uint64_t at = now_ + 1 * kMs; at + kMs < now_ + ns; at += 3 * kMs) {
        ev(at, 20000, 100, 106, Op::pwrite, metrics_, 9, 0, 512, 512);
        ev(at + 40000, 20000, 100, 106, Op::pread, metrics_, 9, 0, 512, 512);
      }
    now_ += ns;
  }

  // torch.save: open, a small header write, one writev per tensor, close.
  void checkpoint() {
    ev(now_, 10000, 100, 100, Op::open, ckpt_, -1, 0, 0, 5);
    std::uint64_t off = 0;
    ev(now_ + 20000, 10000, 100, 100, Op::write, ckpt_, 5, off, 4096, 4096);
    off += 4096;
    for (int k = 0; k < 8; ++k, off += 1 << 20)
      ev(now_ + 40000 + k * 300000, 250000, 100, 100, Op::writev, ckpt_, 5, off, 1 << 20, 1 << 20);
    ev(now_ + 3 * kMs, 10000, 100, 100, Op::close, ckpt_, 5, 0, 0, 0);
    now_ += 4 * kMs;
  }

  LoopShape shape_;
  std::uint32_t train_ = 0, val_ = 0, ckpt_ = 0, metrics_ = 0;
  std::uint64_t maps_ = 0;
  std::mt19937_64 rng_{7};
};

struct Counted {
  std::size_t train_steps = 0, eval_steps = 0, eval_passes = 0;
};

Counted count(const TraceSummary& s) {
  Counted c;
  for (const auto& st : s.steps)
    (s.epochs[st.epoch].evaluation ? c.eval_steps : c.train_steps) += 1;
  for (const auto& st : s.checkpoint_steps)
    (s.epochs[st.epoch].evaluation ? c.eval_steps : c.train_steps) += 1;
  for (const auto& e : s.epochs) c.eval_passes += e.evaluation;
  return c;
}

class SelfReaderThreads : public ::testing::TestWithParam<Threads> {};

// Every training iteration is a step (its batch read in a burst, then computed on), 120 of them;
// each evaluation pass holds its batches of both splits (16) and counts apart; the batch is the
// 12 windows of a burst, the compute the 21 ms between bursts; train.bin and val.bin are the
// training and validation sets, and the main process reads its own samples.
TEST_P(SelfReaderThreads, EveryBurstAndComputeGapIsAStep) {
  LoopShape shape;
  shape.threads = GetParam();
  const TraceSummary s = summarize(SelfReader(shape).run());
  ASSERT_EQ(s.accelerators.size(), 1u);
  EXPECT_TRUE(s.accelerators[0].reads_itself);
  ASSERT_EQ(s.datasets.size(), 2u);
  EXPECT_EQ(s.datasets[0].cls, FileClass::train);
  EXPECT_EQ(s.datasets[1].cls, FileClass::validation);
  const Counted c = count(s);
  EXPECT_EQ(c.train_steps, shape.iters);
  EXPECT_EQ(c.eval_passes, shape.iters / shape.eval_interval + 1);
  EXPECT_EQ(c.eval_steps, c.eval_passes * 2 * shape.eval_iters);
  EXPECT_NEAR(s.compute_time.p50, 0.021, 0.0021);
  const Distilled d = distil(s);
  EXPECT_EQ(d.job.reader.workers, 0u);
  EXPECT_EQ(d.job.reader.batch_size, shape.batch);
  EXPECT_NEAR(d.job.compute.step_time.expected(), 0.021, 0.0021);
  EXPECT_TRUE(d.job.validation.has_value());
}

INSTANTIATE_TEST_SUITE_P(Threads, SelfReaderThreads,
                         ::testing::Values(Threads::one, Threads::background_io,
                                           Threads::two_readers));

// The law behind the steps: with the batch and compute changed, the steps follow (a step is a
// burst and a compute gap, not a fixed count), and an evaluation at the training cadence cannot
// be told from training: its training-split batches stay training steps.
TEST(SelfReader, StepsFollowTheLoopNotAFixedShape) {
  LoopShape shape;
  shape.iters = 60;
  shape.batch = 6;
  shape.eval_interval = 20;
  shape.eval_iters = 4;
  shape.compute_ns = 40 * kMs;
  TraceSummary s = summarize(SelfReader(shape).run());
  Counted c = count(s);
  EXPECT_EQ(c.train_steps, 60u);
  EXPECT_EQ(c.eval_passes, 4u);
  EXPECT_EQ(c.eval_steps, 4u * 8);
  EXPECT_NEAR(s.compute_time.p50, 0.041, 0.0041);
  EXPECT_EQ(distil(s).job.reader.batch_size, 6u);

  shape.eval_compute_ns = shape.compute_ns;
  s = summarize(SelfReader(shape).run());
  c = count(s);
  EXPECT_EQ(c.train_steps, 60u + 4 * 4) << "one cadence: the training-split batches stay";
  EXPECT_EQ(c.eval_steps, 4u * 4);
}

// torchvision's CIFAR10: the main process unpickles every batch file first, then DataLoader
// workers serve the arrays from memory, handing batches over without a read. The trace shows
// those hand-overs, not their data: summarize counts them and their processes, and they are the
// training's steps from memory (memory_training_test.cpp has the laws of that shape).
class MemoryLoader : public testing::TraceBuilder {
 public:
  trace::Trace run() {
    proc(100, 1, "python3", false, 100);
    const auto sock = file("socket:[77]", 0);
    for (int i = 0; i < 6; ++i) {
      const auto f = file("/data/cifar-10-batches-py/data_batch_" + std::to_string(i), 3 << 20);
      ev(now_, 5000, 100, 100, Op::open, f, -1, 0, 0, 3);
      ev(now_ + 10000, 900000, 100, 100, Op::read, f, 3, 0, 3 << 20, 3 << 20);
      ev(now_ + 950000, 1000, 100, 100, Op::close, f, 3, 0, 0, 0);
      now_ += kMs;
    }
    for (std::uint32_t pid : {101u, 102u}) proc(pid, 100, "python3", false, pid);
    for (int b = 0; b < 40; ++b) {
      const std::uint32_t pid = b % 2 ? 102 : 101;
      ev(now_, 20000, pid, pid, Op::sendmsg, sock, 7, 0, 0, 1);
      ev(now_ + 50000, 20000, 100, 100, Op::recvmsg, sock, 8, 0, 0, 1);
      now_ += 10 * kMs;
    }
    return t_;
  }
};

TEST(SelfReader, HandOversOfDataFromMemoryAreTheTrainingSteps) {
  const TraceSummary s = summarize(MemoryLoader().run());
  EXPECT_EQ(s.memory_handovers, 40u);
  EXPECT_EQ(s.memory_workers, 2u);
  EXPECT_TRUE(s.dataset_in_memory);
  const Distilled d = distil(s);
  EXPECT_EQ(d.job.dataset.load, Load::memory);
  EXPECT_EQ(d.job.reader.workers, 2u);
  const std::uint64_t samples = d.job.dataset.samples_per_file * d.job.dataset.num_files;
  EXPECT_EQ((samples + d.job.reader.batch_size - 1) / d.job.reader.batch_size, 40u);
}

}  // namespace
}  // namespace dlgen::analysis
