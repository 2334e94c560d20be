// summarize + distil on hand-built traces of fixed-size records in shard files read with pread by
// DataLoader workers (tests/pytorch/heldout_r6/block_records.py): a batch sampler hands out blocks
// of 40 consecutive records of one shard, the blocks reshuffled every epoch and dealt to the
// workers in turn, so every worker reads every shard, a block at a time, and keeps the shards open.
// A sample is one pread, whatever the gaps between them: the answer must not change with the
// host's load.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <set>
#include <tuple>

#include "dlgen/analysis/distil.hpp"
#include "dlgen/analysis/summary.hpp"
#include "dlgen/core/job.hpp"
#include "trace_builder.hpp"

namespace dlgen::analysis {
namespace {

using trace::Op;

constexpr std::uint64_t kRecord = 3000;
constexpr std::uint32_t kShards = 4, kPerShard = 160, kBlock = 40, kVal = 120, kEvalBlock = 48;

// How the host spaced the program's calls: each pread's duration and the gap after it (plus up to
// `jitter_ns` drawn per read), and the consumer's compute per step.
struct Pace {
  std::uint64_t read_ns = 1'000, gap_ns = 300, jitter_ns = 0, compute_ns = 15'000'000;
};

// How the workers read: `op` per record, and whether each worker owns whole shards read front to
// back (a stream) instead of blocks dealt in turn.
struct Reading {
  Op op = Op::pread;
  bool owned_shards = false;
};

class Records : public testing::TraceBuilder {
 public:
  Records(Pace pace, Reading how) : pace_(pace), how_(how), rng_(5) {
    proc(kMain, 1, "python3", false, kMain);
    for (std::uint32_t s = 0; s < kShards; ++s)
      shards_.push_back(file("/data/rec/train-000" + std::to_string(s) + ".bin",
                             kPerShard * kRecord));
    val_ = file("/data/rec/val.bin", kVal * kRecord);
  }

  // `epochs` training passes, each followed by a validation pass (blocks of 48, in order).
  const trace::Trace& run(std::uint32_t epochs) {
    std::vector<Block> train;
    for (std::uint32_t s = 0; s < kShards; ++s)
      for (std::uint32_t k = 0; k < kPerShard; k += kBlock) train.push_back({s, k, kBlock});
    std::vector<Block> val;
    for (std::uint32_t k = 0; k < kVal; k += kEvalBlock)
      val.push_back({kShards, k, std::min(kEvalBlock, kVal - k)});
    for (std::uint32_t e = 0; e < epochs; ++e) {
      if (how_.owned_shards) {
        std::sort(train.begin(), train.end(),
                  [](const Block& a, const Block& b) { return a.first < b.first; });
        std::stable_sort(train.begin(), train.end(), [](const Block& a, const Block& b) {
          return a.shard % 3 < b.shard % 3;
        });
      } else {
        std::shuffle(train.begin(), train.end(), rng_);
      }
      pass(train);
      pass(val);
    }
    return t_;
  }

 private:
  static constexpr std::uint32_t kMain = 100;
  struct Block {
    std::uint32_t shard = 0, first = 0, count = 0;  // shard kShards: val.bin
  };

  // One pass: 3 fresh workers; block i goes to worker i mod 3 (a stream: a shard's blocks to the
  // worker that owns it), which opens every file on its first sample and keeps it open.
  void pass(const std::vector<Block>& blocks) {
    now_ += 200'000'000;
    std::vector<std::uint32_t> pids;
    for (std::uint32_t w = 0; w < 3; ++w) {
      pids.push_back(next_pid_++);
      proc(pids.back(), kMain, "pt_data_worker", false, pids.back());
    }
    std::set<std::uint32_t> opened;
    for (std::size_t i = 0; i < blocks.size(); ++i) {
      const Block& b = blocks[i];
      const std::uint32_t pid = how_.owned_shards ? pids[b.shard % 3] : pids[i % 3];
      if (opened.insert(pid).second) open_all(pid, b.shard == kShards);
      const std::uint32_t f = b.shard < kShards ? shards_[b.shard] : val_;
      for (std::uint32_t k = b.first; k < b.first + b.count; ++k) {
        ev(now_, pace_.read_ns, pid, pid, how_.op, f, 10 + static_cast<std::int32_t>(b.shard),
           k * kRecord, kRecord, kRecord);
        now_ += pace_.read_ns + pace_.gap_ns + (pace_.jitter_ns ? rng_() % pace_.jitter_ns : 0);
      }
      ev(now_, 10'000, pid, pid, Op::sendmsg, trace::kNoFile, 5, 0, 64, 64);
      now_ += 20'000;
      ev(now_, 10'000, kMain, kMain, Op::recvmsg, trace::kNoFile, 6, 0, 64, 64);
      now_ += pace_.compute_ns;
    }
  }

  // A worker's first sample opens every file of its dataset (the shards, or val.bin).
  void open_all(std::uint32_t pid, bool val) {
    for (std::uint32_t s = val ? kShards : 0; s < (val ? kShards + 1 : kShards); ++s) {
      ev(now_, 3'000, pid, pid, Op::open, s < kShards ? shards_[s] : val_, -1, 0, 0, 10 + s);
      now_ += 4'000;
    }
  }

  Pace pace_;
  Reading how_;
  std::mt19937 rng_;
  std::vector<std::uint32_t> shards_;
  std::uint32_t val_ = 0, next_pid_ = 200;
};

Distilled distil_run(Pace pace, Reading how = {}) {
  Records r(pace, how);
  return distil(summarize(r.run(3)));
}

// What the job says of the records and batches, to compare across paces.
auto shape(const Job& j) {
  return std::make_tuple(j.dataset.num_files, j.dataset.samples_per_file,
                         j.dataset.sample_size.expected(), j.reader.batch_size,
                         j.reader.eval_batch_size, j.reader.read_unit, j.reader.shuffle,
                         j.reader.shuffle_block, j.run.epochs, j.reader.workers);
}

TEST(BlockRecords, ARecordIsASampleAndBlocksAreShuffled) {
  const Distilled d = distil_run(Pace{});
  const Job& j = d.job;
  EXPECT_EQ(j.dataset.num_files, kShards);
  EXPECT_EQ(j.dataset.samples_per_file, kPerShard);
  EXPECT_EQ(j.dataset.sample_size.expected(), double(kRecord));
  EXPECT_EQ(j.reader.read_unit, ReadUnit::sample) << "every worker reads every shard: no stream";
  EXPECT_EQ(j.reader.batch_size, kBlock);
  EXPECT_EQ(j.reader.shuffle, Shuffle::sample);
  EXPECT_EQ(j.reader.shuffle_block, kBlock);
  EXPECT_EQ(j.reader.workers, 3u);
  EXPECT_EQ(j.run.epochs, 3u);
  ASSERT_TRUE(j.validation.has_value());
  EXPECT_EQ(j.validation->samples_per_file, kVal);
  EXPECT_EQ(j.reader.eval_batch_size, kEvalBlock);
  for (const auto& problem : validate(j)) ADD_FAILURE() << problem.path << ": " << problem.message;
}

// The same reads, spaced as a quiet host spaces them (back to back), as a loaded one does (ms
// apart, scattered), and with reads slower than the step: one answer.
TEST(BlockRecords, TheAnswerDoesNotDependOnTheGapsBetweenReads) {
  const auto quiet = shape(distil_run(Pace{}).job);
  EXPECT_EQ(shape(distil_run(Pace{500, 0, 0, 15'000'000}).job), quiet);
  EXPECT_EQ(shape(distil_run(Pace{40'000, 2'000'000, 3'000'000, 15'000'000}).job), quiet);
  EXPECT_EQ(shape(distil_run(Pace{200'000, 800'000, 0, 1'000'000}).job), quiet);
}

// Shards each owned by one worker and read front to back stay streams, whether the worker reads
// from the descriptor's position or by pread: their runs begin only at the shard's start.
TEST(BlockRecords, ShardsReadFrontToBackByTheirOwnWorkerStayStreams) {
  for (const Op op : {Op::read, Op::pread}) {
    Records r(Pace{}, Reading{op, true});
    const TraceSummary s = summarize(r.run(3));
    EXPECT_TRUE(s.sample_files.empty()) << static_cast<int>(op);
    EXPECT_EQ(distil(s).job.reader.read_unit, ReadUnit::stream) << static_cast<int>(op);
  }
}

}  // namespace
}  // namespace dlgen::analysis
