// The samples of a stream's batches (stages/stream_samples.cpp): tar shards streamed by DataLoader
// workers show no sample boundaries in their reads, but each batch is handed over as /dev/shm
// tensors whose sizes do: the smallest is the labels, one int64 a sample. Hand-built traces as
// PyTorch makes them: the reading thread collates the images into a tensor of its own, the
// queue's feeder thread moves the labels (made by torch.tensor) into /dev/shm as it sends the
// batch, often after the reading thread collated the next one.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dlgen/analysis/distil.hpp"
#include "stages/stages.hpp"
#include "trace_builder.hpp"

namespace dlgen::analysis::stages {
namespace {

using trace::Op;

// The law: n samples when the smallest tensor is n int64s and every other is n samples of at
// least 64 bytes; 0 when the sizes do not say.
TEST(StreamSamples, TheSmallestTensorIsTheLabelsOneInt64ASample) {
  EXPECT_EQ(samples_of_tensors({8 * 3 * 48 * 48 * 4, 64}), 8u);  // float images, labels
  EXPECT_EQ(samples_of_tensors({1024, 128 * 3 * 160 * 160}), 128u);
  EXPECT_EQ(samples_of_tensors({64, 8 * 16384, 8 * 100}), 8u);  // a third tensor of 100 B a sample
  EXPECT_EQ(samples_of_tensors({221184}), 0u) << "one tensor: no labels to count";
  EXPECT_EQ(samples_of_tensors({221184, 0}), 0u) << "a size unknown";
  EXPECT_EQ(samples_of_tensors({32, 64}), 0u) << "float32 scalars (4n) are under 8 times the rest";
  EXPECT_EQ(samples_of_tensors({60, 6000}), 0u) << "not whole int64s";
  EXPECT_EQ(samples_of_tensors({64, 8 * 1000 + 4}), 0u) << "not 8 equal parts";
  EXPECT_EQ(samples_of_tensors({64, 64}), 0u) << "two of one size: which is the labels?";
  // block_records.py's batches: 40 records of 749 float32, the labels and each record's bytes
  // read (an int64 each): the feeder thread shares both small tensors.
  EXPECT_EQ(samples_of_tensors({119840, 320, 320}), 40u) << "labels and a second int64 a sample";
  EXPECT_EQ(samples_of_tensors({320, 320, 320}), 0u) << "nothing beside the int64s";
}

// 4 tar shards of 24 samples (6 KiB each, read in 10 KiB records), 2 fresh workers a pass, each
// streaming its own 2 shards, batch 8: 3 batches a shard, each handed over while its shard is
// open, 6 a worker, 12 steps a pass, 2 passes. `image_bytes` a sample of the reading thread's
// tensor; `labels`: the feeder thread shares a label tensor (8 int64s) for each batch, after
// the reading thread's next one.
class TarStream : public testing::TraceBuilder {
 public:
  static constexpr std::uint64_t kSample = 6144, kShard = 24 * kSample, kRecord = 10240;

  trace::Trace build(std::uint64_t image_bytes, bool labels) {
    proc(kMain, 1, "python3", false, kMain);
    for (int s = 0; s < 4; ++s)
      shards_.push_back(file("/d/shards/train-" + std::to_string(s) + ".tar", kShard));
    for (std::uint32_t pass = 0; pass < 2; ++pass) {
      const std::uint32_t w[2] = {200 + 10 * pass, 201 + 10 * pass};
      for (auto pid : w)
        proc(pid, kMain, "pt_data_worker", false, pid), proc(pid + 5, kMain, "python3", true, pid);
      for (int k = 0; k < 2; ++k)
        stream(w[k], {shards_[(k + pass) % 4], shards_[(k + pass + 2) % 4]}, now_ + k * 300'000,
               image_bytes, labels);
      now_ += 200'000'000;
    }
    t_.meta.duration_ns = now_;
    return t_;
  }

 private:
  static constexpr std::uint32_t kMain = 100;

  // Worker `pid` streams `files` from `at`: 8 samples' bytes read a batch, its tensors shared.
  void stream(std::uint32_t pid, std::vector<std::uint32_t> files, std::uint64_t at,
              std::uint64_t image_bytes, bool labels) {
    std::vector<std::uint64_t> own;  // the reading thread's tensors' times
    for (auto f : files) {
      ev(at, 1000, pid, pid, Op::open, f, 5, 0, 0, 5);
      std::uint64_t off = 0;
      for (int b = 0; b < 3; ++b) {
        const std::uint64_t end = std::min(kShard, (b + 1) * 8 * kSample);
        for (; off < end; off += kRecord, at += 200'000)
          ev(at, 20'000, pid, pid, Op::read, f, 5, off, kRecord,
             static_cast<std::int64_t>(std::min(kRecord, kShard - off)));
        tensor(pid, pid, at += 1'000'000, 8 * image_bytes);
        own.push_back(at);
        at += 15'000'000;
      }
      ev(at, 1000, pid, pid, Op::close, f, 5, 0, 0, 0);
    }
    // The feeder: batch j's labels just after batch j + 1's images (the last one's after its own).
    for (std::size_t j = 0; labels && j < own.size(); ++j)
      tensor(pid, pid + 5, (j + 1 < own.size() ? own[j + 1] : own[j]) + 500'000, 64);
  }

  void tensor(std::uint32_t pid, std::uint32_t tid, std::uint64_t at, std::uint64_t bytes) {
    const auto f = file("/dev/shm/torch_" + std::to_string(pid) + "_" + std::to_string(shm_++), 0);
    ev(at, 1000, pid, tid, Op::shm_open, f, 9, 0, 0, 9);
    ev(at + 2000, 1000, pid, tid, Op::ftruncate, f, 9, 0, bytes, 0);
  }

  std::vector<std::uint32_t> shards_;
  std::uint32_t shm_ = 0;
};

Batches batches_of(const trace::Trace& t) {
  const Classified c = classify(t);
  const auto as = find_accesses(t, c);
  const Readers r = find_readers(t, c, as);
  return find_batches(t, c, as, r, find_passes(c, as, r));
}

// Each batch counted from its images and the labels the feeder shared late: 8 samples, every
// batch; the job: 24 samples a shard of 6 KiB, batch 8 (it said 3 "samples" of a batch's worth,
// batch 1).
TEST(StreamSamples, BatchesOfAStreamCountedFromTheirTensors) {
  const trace::Trace t = TarStream().build(3 * 48 * 48 * 4, true);
  const Batches b = batches_of(t);
  ASSERT_TRUE(b.stream);
  EXPECT_TRUE(b.stream_samples);
  ASSERT_EQ(b.batches.size(), 24u);
  for (const auto& batch : b.batches) EXPECT_EQ(batch.samples, 8u);
  EXPECT_EQ(b.batch_size, 8u);
  EXPECT_EQ(b.steps_per_pass, (std::vector<std::uint64_t>{12, 12}));

  const Distilled d = distil(summarize(t));
  EXPECT_EQ(d.job.reader.read_unit, ReadUnit::stream);
  EXPECT_EQ(d.job.reader.batch_size, 8u);
  EXPECT_EQ(d.job.dataset.samples_per_file, 24u);
  // A .tar shard (format = "tar" since branch s3tar): 6 KiB a sample less tar's framing, the
  // largest payload whose 24 members (512 B header each, padded to 512 B) and end blocks, padded
  // to the 10 KiB record, fit the shard's 147,456 B: 5,120 B (a 143,360 B archive).
  EXPECT_EQ(d.job.dataset.format, Format::tar);
  EXPECT_EQ(d.job.dataset.sample_size.expected(), static_cast<double>(TarStream::kSample - 1024));
}

// Tensors that do not tell the samples (a float32 scalar a sample, 32 B a batch, is smaller
// than the labels' 64 B; or no labels shared): not inferred, a batch counts as one sample, as
// before.
TEST(StreamSamples, TensorsThatDoNotTellLeaveABatchOneSample) {
  for (const auto& [image, labels] : {std::pair<std::uint64_t, bool>{4, true}, {27648, false}}) {
    const trace::Trace t = TarStream().build(image, labels);
    const Batches b = batches_of(t);
    ASSERT_TRUE(b.stream) << image;
    EXPECT_FALSE(b.stream_samples) << image;
    EXPECT_EQ(b.batch_size, 1u) << image;
    const Distilled d = distil(summarize(t));
    EXPECT_EQ(d.job.reader.batch_size, 1u) << image;
    EXPECT_EQ(d.job.dataset.samples_per_file, 3u) << image << ": a shard's batches";
  }
}

}  // namespace
}  // namespace dlgen::analysis::stages
