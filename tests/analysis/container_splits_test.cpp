// summarize + distil on hand-built traces of a training and a validation set kept in one container
// file (tests/pytorch/heldout_r6/README.md: h5_chunked.py, zip_members.py): passes found from when
// each set of regions is read, not from a region repeating, and each set a range of the file's
// samples in the job.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "dlgen/analysis/distil.hpp"
#include "dlgen/analysis/summary.hpp"
#include "dlgen/core/job.hpp"
#include "stages/stages.hpp"
#include "trace_builder.hpp"

namespace dlgen::analysis {
namespace {

using trace::Op;

// One HDF5 file: /train/x, 64 chunks of 8 samples (96 KiB a chunk) from byte 6,088, the training
// labels (512 B chunks), then /val/x, 16 chunks on a grid of their own, and the validation labels.
// h5py reads a sample's whole chunk, then its label chunk. Two persistent training workers and two
// persistent validation workers (forked at the first evaluation) serve batches of 32 and 64; a
// validation pass after each epoch.
class H5Run : public testing::TraceBuilder {
 public:
  static constexpr std::uint64_t kChunk = 98304, kTrainX = 6088, kTrainY = kTrainX + 64 * kChunk;
  static constexpr std::uint64_t kValX = kTrainY + 11424, kValY = kValX + 16 * kChunk;
  static constexpr std::uint64_t kSize = kValY + 3392;

  H5Run() {
    proc(kMain, 1, "python3", false, kMain);
    h5_ = file("/data/h5/data.h5", kSize, 0x0a1a0a0d46444889ull, 8);
  }

  // The training run: `epochs` epochs of 512 shuffled samples, each followed by a pass over the
  // 128 validation samples in order.
  const trace::Trace& run(int epochs) {
    std::mt19937 rng(5);
    std::vector<std::uint32_t> order(512), val(128);
    std::iota(order.begin(), order.end(), 0u);
    std::iota(val.begin(), val.end(), 0u);
    const auto train_workers = spawn();
    std::vector<std::uint32_t> val_workers;
    for (int e = 0; e < epochs; ++e) {
      std::shuffle(order.begin(), order.end(), rng);
      batches(train_workers, order, 32, kTrainX, kTrainY);
      if (val_workers.empty()) val_workers = spawn();
      batches(val_workers, val, 64, kValX, kValY);
    }
    return t_;
  }

 private:
  static constexpr std::uint32_t kMain = 100;

  std::vector<std::uint32_t> spawn() {
    now_ += 50'000'000;
    std::vector<std::uint32_t> pids;
    for (int w = 0; w < 2; ++w) {
      pids.push_back(next_pid_++);
      proc(pids.back(), kMain, "pt_data_worker", false, pids.back());
      ev(now_, 5'000, pids.back(), pids.back(), Op::open, h5_, -1, 0, 0, 9);
      ev(now_ + 6'000, 5'000, pids.back(), pids.back(), Op::pread, h5_, 9, 0, 2048, 2048);
      now_ += 12'000;
    }
    return pids;
  }

  // Sample i: its chunk of x, then its label chunk.
  void read_sample(std::uint32_t pid, std::uint32_t i, std::uint64_t x, std::uint64_t y) {
    ev(now_, 20'000, pid, pid, Op::pread, h5_, 9, x + i / 8 * kChunk, kChunk, kChunk);
    ev(now_ + 25'000, 3'000, pid, pid, Op::pread, h5_, 9, y + i / 64 * 512, 512, 512);
    now_ += 200'000;
  }

  void batches(const std::vector<std::uint32_t>& pids, const std::vector<std::uint32_t>& samples,
               std::uint32_t batch, std::uint64_t x, std::uint64_t y) {
    for (std::size_t b = 0; b * batch < samples.size(); ++b) {
      const std::uint32_t pid = pids[b % pids.size()];
      for (std::size_t i = b * batch; i < std::min(samples.size(), (b + 1) * batch); ++i)
        read_sample(pid, samples[i], x, y);
      ev(now_, 10'000, pid, pid, Op::sendmsg, trace::kNoFile, 5, 0, 64, 64);
      now_ += 20'000;
      ev(now_, 10'000, kMain, kMain, Op::recvmsg, trace::kNoFile, 6, 0, 64, 64);
      now_ += 20'000'000;
    }
  }

  std::uint32_t h5_ = 0, next_pid_ = 200;
};

// The /val chunks lie on a grid of their own after the training labels: the samples are the 80
// chunks read, not the slots of /train's grid (whose 65th would hold the training labels and the
// first /val chunk, read beside every sample).
TEST(ContainerSplits, ChunksOfTwoGroupsAreTheSamplesRead) {
  H5Run b;
  const TraceSummary s = summarize(b.run(2));
  ASSERT_EQ(s.sample_files.size(), 1u);
  EXPECT_EQ(s.sample_files[0].samples, 80u);
  ASSERT_EQ(s.sample_files[0].offsets.size(), 80u);
  EXPECT_EQ(s.sample_files[0].offsets[64], H5Run::kValX);
}

// Each chunk is read 8 times an epoch (once per sample in it): a chunk repeating does not end the
// pass. The passes are the runs of each set of regions: 2 epochs of 16 steps, 2 evaluation passes
// of 2 steps between them.
TEST(ContainerSplits, PassesOfOneFileAreTheRunsOfEachSet) {
  H5Run b;
  const TraceSummary s = summarize(b.run(2));
  std::vector<std::uint64_t> train, eval;
  for (const auto& e : s.epochs) (e.evaluation ? eval : train).push_back(e.steps);
  EXPECT_EQ(train, (std::vector<std::uint64_t>{16, 16}));
  EXPECT_EQ(eval, (std::vector<std::uint64_t>{2, 2}));
  const Distilled d = distil(s);
  EXPECT_EQ(d.job.run.epochs, 2u);
  EXPECT_EQ(d.job.reader.batch_size, 32u);
  EXPECT_EQ(d.job.reader.workers, 2u);
  EXPECT_EQ(d.job.run.eval_every_epochs, 1u);
}

// The job says which samples of the one file each set reads: /train's 64 chunks and /val's 16,
// in the same file.
TEST(ContainerSplits, EachSetIsARangeOfTheFilesSamples) {
  H5Run b;
  const Distilled d = distil(summarize(b.run(2)));
  EXPECT_EQ(d.job.dataset.num_files, 1u);
  EXPECT_EQ(d.job.dataset.samples_per_file, 80u);
  EXPECT_EQ(d.job.dataset.sample_begin, 0u);
  EXPECT_EQ(d.job.dataset.sample_end, 64u);
  ASSERT_TRUE(d.job.validation.has_value());
  EXPECT_EQ(d.job.validation->dir, d.job.dataset.dir);
  EXPECT_EQ(d.job.validation->seed, d.job.dataset.seed);
  EXPECT_EQ(d.job.validation->sample_begin, 64u);
  EXPECT_EQ(d.job.validation->sample_end, 80u);
  EXPECT_TRUE(validate(d.job).empty()) << validate(d.job)[0].message;
}

// passes_are_runs alone: a dataset whose runs alternate with another's and read each file twice
// or more a run; not one whose files are read once a run, nor one whose readers are forked afresh
// every pass, nor a dataset read alone.
TEST(ContainerSplits, RunsArePassesOnlyForReReadRegionsBetweenOtherReads) {
  auto access = [](std::int32_t ds, std::uint32_t file) {
    stages::Access a;
    a.dataset = ds;
    a.file = file;
    return a;
  };
  std::vector<stages::Access> as;
  for (int run = 0; run < 2; ++run) {
    for (std::uint32_t k = 0; k < 12; ++k) as.push_back(access(0, k % 4));  // 3 reads a file
    for (std::uint32_t k = 0; k < 4; ++k) as.push_back(access(1, 10 + k));  // once a file
  }
  EXPECT_EQ(stages::passes_are_runs(as, {}), (std::set<std::int32_t>{0}));
  EXPECT_TRUE(stages::passes_are_runs(as, {0}).empty()) << "fresh workers delimit the passes";
  std::vector<stages::Access> alone(as.begin(), as.begin() + 12);
  EXPECT_TRUE(stages::passes_are_runs(alone, {}).empty()) << "nothing else delimits the runs";
}

}  // namespace
}  // namespace dlgen::analysis
