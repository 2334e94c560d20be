// Start-up before evaluation passes apart from training passes' (stages/timing.cpp pass_startup,
// distil/reads.cpp startup_gap), on a hand-built trace of a CIFAR-style run: the main process
// pickle-loads two train files and test_batch at start, then each epoch forks 2 DataLoader workers
// that read nothing (6 batches of 8 from memory, 10 ms of compute a step), and after it a test
// DataLoader of 2 workers of its own (2 batches of 16, 4 ms a step). The training loader starts
// `train_gap` after the step (or evaluation) before it, the test loader `eval_gap` after the last
// training step. Laws: reader.startup is the training passes' gap and reader.eval_startup the
// evaluation passes' when they differ by 5 ms or more; one start-up when they do not.
#include <gtest/gtest.h>

#include <string>

#include "dlgen/analysis/distil.hpp"
#include "dlgen/analysis/summary.hpp"
#include "trace_builder.hpp"

namespace dlgen::analysis {
namespace {

using trace::Op;

constexpr std::uint64_t kMs = 1'000'000;

class CifarRun : public testing::TraceBuilder {
 public:
  CifarRun(std::uint64_t train_gap, std::uint64_t eval_gap)
      : train_gap_(train_gap), eval_gap_(eval_gap) {}

  trace::Trace run() {
    proc(100, 1, "python3", false, 100);
    for (const char* name : {"data_batch_1", "data_batch_2", "test_batch"})
      load(file(std::string("/data/cifar-10-batches-py/") + name, 40000));
    sock_ = file("socket:[77]", 0);
    for (int epoch = 0; epoch < 3; ++epoch) {
      now_ += epoch == 0 ? 30 * kMs : train_gap_;
      loader(6, 8, 10 * kMs);
      now_ += eval_gap_;
      loader(2, 16, 4 * kMs);
    }
    return t_;
  }

 private:
  void load(std::uint32_t f) {
    ev(now_, 5000, 100, 100, Op::open, f, 3, 0, 0, 3);
    const std::uint64_t size = t_.files[f].size_at_open;
    for (std::uint64_t at = 0; at <= size; at += 8192)
      ev(now_ + 10000 + at, 2000, 100, 100, Op::read, f, 3, at, 8192,
         static_cast<std::int64_t>(std::min<std::uint64_t>(8192, size - at)));
    ev(now_ + 200000, 1000, 100, 100, Op::close, f, 3, 0, 0, 0);
    now_ += kMs;
  }

  // A DataLoader: 2 workers forked (its start), each handing over every other batch as two
  // /dev/shm tensors (the images, the labels: an int64 a sample); the main process receives each
  // batch, computes (no syscall), then makes a syscall (an lseek: the step's end).
  void loader(std::uint32_t batches, std::uint64_t samples, std::uint64_t compute) {
    const std::uint32_t w = next_pid_;
    for (int i = 0; i < 2; ++i) proc(next_pid_++, 100, "python3", false, w + i), now_ += kMs;
    now_ += 8 * kMs;
    for (std::uint32_t b = 0; b < batches; ++b) {
      const std::uint32_t worker = w + b % 2;
      for (std::uint64_t bytes : {samples * 3072, samples * 8}) {
        const auto f = file("/dev/shm/torch_" + std::to_string(worker) + "_" +
                                std::to_string(shm_files_++),
                            0);
        ev(now_, 3000, worker, worker, Op::open, f, 9, 0, 0, 9);
        ev(now_ + 4000, 2000, worker, worker, Op::ftruncate, f, 9, 0, bytes, 0);
        now_ += 10000;
      }
      for (int k = 0; k < 2; ++k)
        ev(now_ + 20000 + k * 1000, 500, 100, 100, Op::recvmsg, sock_, 8, 0, 0, 1);
      now_ += 100000 + compute;
      ev(now_, 20000, 100, 100, Op::lseek, sock_, 8, 0, 0, 0);
      now_ += 100000;
    }
  }

  std::uint64_t train_gap_, eval_gap_;
  std::uint32_t sock_ = 0, next_pid_ = 200;
  std::uint64_t shm_files_ = 0;
};

// The test loader starts 120 ms after the training pass, the training loader 15 ms after the
// evaluation (each then 10 ms to its first batch): two start-ups. Before, reader.startup was the median over all 5 passes after the
// first (0.12 s here: 3 evaluation gaps of 5) and the replay waited it before every pass.
TEST(EvalStartup, TheTestLoadersStartUpIsItsOwn) {
  TraceSummary s = summarize(CifarRun(15 * kMs, 120 * kMs).run());
  ASSERT_TRUE(s.dataset_in_memory);
  ASSERT_EQ(s.epochs.size(), 6u);
  ASSERT_EQ(s.pass_startup_s.size(), 5u);
  EXPECT_TRUE(s.eval_startup_apart);
  // A pass from memory starts up until its first batch is handed over: from the last step's end
  // (its syscall) over the gap, the two forks and the workers' 8 ms to the first tensor (10 ms).
  EXPECT_NEAR(s.startup_s, 0.025, 0.001);
  EXPECT_NEAR(s.eval_startup_s, 0.130, 0.001);
  const Distilled d = distil(s);
  EXPECT_NEAR(d.job.reader.startup_s, 0.025, 0.0011);
  ASSERT_TRUE(d.job.reader.eval_startup_s.has_value());
  EXPECT_NEAR(*d.job.reader.eval_startup_s, 0.130, 0.0011);
  EXPECT_DOUBLE_EQ(d.job.reader.startup(true), *d.job.reader.eval_startup_s);
  EXPECT_DOUBLE_EQ(d.job.reader.startup(false), d.job.reader.startup_s);
  EXPECT_NE(d.comments.at("reader.eval_startup").find("3 evaluation passes"), std::string::npos)
      << d.comments.at("reader.eval_startup");
  EXPECT_NE(d.comments.at("reader.startup").find("2 training passes"), std::string::npos)
      << d.comments.at("reader.startup");
}

// Both loaders start 40 ms (42 ms) after the pass before them: one start-up, no eval_startup.
TEST(EvalStartup, LoadersThatStartAlikeShareOneStartUp) {
  const TraceSummary s = summarize(CifarRun(40 * kMs, 42 * kMs).run());
  ASSERT_EQ(s.pass_startup_s.size(), 5u);
  const Distilled d = distil(s);
  EXPECT_NEAR(d.job.reader.startup_s, 0.050, 0.0011);
  EXPECT_FALSE(d.job.reader.eval_startup_s.has_value());
  EXPECT_NE(d.comments.at("reader.startup").find("within 5 ms"), std::string::npos)
      << d.comments.at("reader.startup");
}

}  // namespace
}  // namespace dlgen::analysis
