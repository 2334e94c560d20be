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

// A figure of each training epoch and of each evaluation pass, in time order.
using Figures = std::vector<std::uint64_t>;
std::pair<Figures, Figures> per_pass(const TraceSummary& s, std::uint64_t EpochSummary::*figure) {
  std::pair<Figures, Figures> out;
  for (const auto& e : s.epochs) (e.evaluation ? out.second : out.first).push_back(e.*figure);
  return out;
}

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
  EXPECT_EQ(per_pass(s, &EpochSummary::steps), std::make_pair(Figures{16, 16}, Figures{2, 2}));
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

// dlgen's replay of such a job (zip_members.py's): one generated .npz archive of 400 members
// (a zip; its trace has no magic, io_uring reads record none), training members [0, 320) and
// validation members [320, 400), in order. The reader workers are threads of the replay's one process,
// started afresh for every pass; each opens the archive and reads a member in one io_uring read
// from its local header (not its framing at the end), then signals its batch on a unix socket to the accelerator thread.
class NpzReplayRun : public testing::TraceBuilder {
 public:
  NpzReplayRun() {
    proc(kMain, 1, "exe", false, kMain);
    proc(kAccel, kMain, "exe", true, kMain);
    std::mt19937 rng(3);
    std::uint64_t at = 0;
    for (int k = 0; k < 400; ++k) {
      offsets_.push_back(at);
      at += 4146 + rng() % 12245;
    }
    offsets_.push_back(at);  // the central directory
    npz_ = file("/replay-data/samples_0000000.npz", at + 400 * 60);
  }

  // `epochs` training passes of the 320 training members shuffled (batch 16, 2 workers), each
  // followed by a validation pass over the 80 others in order.
  const trace::Trace& run(int epochs) {
    std::mt19937 rng(5);
    std::vector<std::uint32_t> train(320), val(80);
    std::iota(train.begin(), train.end(), 0u);
    std::iota(val.begin(), val.end(), 320u);
    for (int e = 0; e < epochs; ++e) {
      std::shuffle(train.begin(), train.end(), rng);
      pass(train);
      pass(val);
    }
    return t_;
  }

 private:
  static constexpr std::uint32_t kMain = 100, kAccel = 101;

  void pass(const std::vector<std::uint32_t>& members) {
    now_ += 20'000'000;
    const std::uint32_t workers[2] = {next_tid_, next_tid_ + 1};
    for (std::uint32_t w : workers) {
      proc(w, kMain, "exe", true, kMain);
      ev(now_, 5'000, kMain, w, Op::open, npz_, static_cast<std::int32_t>(w), 0, 0, w);
      now_ += 10'000;
    }
    next_tid_ += 2;
    for (std::size_t b = 0; b * 16 < members.size(); ++b) {
      const std::uint32_t w = workers[b % 2];
      for (std::size_t i = b * 16; i < (b + 1) * 16; ++i) {
        // The sample's bytes from the member's local header: its framing (~160 B) is not read.
        const std::uint64_t off = offsets_[members[i]];
        const std::uint64_t len = offsets_[members[i] + 1] - off - 160;
        ev(now_, 60'000, kMain, w, Op::uring_read, npz_, static_cast<std::int32_t>(w), off, len,
           static_cast<std::int64_t>(len));
        now_ += 70'000;
      }
      ev(now_, 5'000, kMain, w, Op::sendmsg, trace::kNoFile, 3, 0, 0, 8);
      ev(now_ + 20'000, 5'000, kMain, kAccel, Op::recvmsg, trace::kNoFile, 4, 0, 0, 8);
      now_ += 12'000'000;
    }
  }

  std::vector<std::uint64_t> offsets_;
  std::uint32_t npz_ = 0, next_tid_ = 200;
};

// compare summarises the replay's trace with the same code as the original's: the generated
// archive is split into its 400 members, and the validation members, read by the threads of
// passes of their own, are the evaluation passes (before: no members, so each thread's reads of
// the one file were a pass of one file: 8 "epochs" of 2 to 10 steps, no evaluation).
TEST(ContainerSplits, ReplayOfOneArchiveHasTheOriginalsPasses) {
  NpzReplayRun b;
  const TraceSummary s = summarize(b.run(2));
  ASSERT_EQ(s.sample_files.size(), 1u);
  EXPECT_EQ(s.sample_files[0].samples, 400u);
  EXPECT_EQ(per_pass(s, &EpochSummary::steps), std::make_pair(Figures{20, 20}, Figures{5, 5}));
  EXPECT_EQ(per_pass(s, &EpochSummary::unique_files),
            std::make_pair(Figures{320, 320}, Figures{80, 80}));
  const Distilled d = distil(s);
  EXPECT_EQ(d.job.reader.workers, 2u);
  EXPECT_EQ(d.job.reader.batch_size, 16u);
  EXPECT_EQ(d.job.run.eval_every_epochs, 1u);
  // One read a member, of its own size: no buffered reader's fills.
  EXPECT_EQ(d.job.reader.request_size_bytes, 0u);
  EXPECT_EQ(d.job.reader.stream_granule_bytes, 0u);
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
