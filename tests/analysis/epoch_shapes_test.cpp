// summarize's stages on loader shapes of real training programs (issue 18,
// tests/pytorch/heldout_gpu2): a grouped batch sampler that repeats a few images in an epoch's
// last batches (torchvision's detection reference), evaluated at batch 1; and a WebDataset-style
// stream whose shuffle buffer makes each worker read ahead of its handovers. Each trace is built
// call by call: fresh DataLoader workers every pass, each collating its batch into a /dev/shm
// tensor of its own thread.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "stages/stages.hpp"
#include "trace_builder.hpp"

namespace dlgen::analysis::stages {
namespace {

using trace::Op;

class Loader : public testing::TraceBuilder {
 public:
  Loader() { proc(100, 1, "python3", false, 100); }
  // A fresh worker of the main process forked at `at` (PyTorch forks them for every pass).
  std::uint32_t worker(std::uint64_t at) {
    now_ = at;
    proc(next_pid_, 100, "pt_data_worker", false, next_pid_);
    return next_pid_++;
  }
  std::vector<std::uint32_t> files(const std::string& dir, int n, std::uint64_t size = 8192) {
    std::vector<std::uint32_t> out;
    for (int i = 0; i < n; ++i) out.push_back(file(dir + "/" + std::to_string(i) + ".jpg", size));
    return out;
  }
  // `pid` opens `f`, reads it in `chunk` reads `gap` apart from `at` on, and closes it: the close
  // time.
  std::uint64_t read(std::uint32_t pid, std::uint32_t f, std::uint64_t at, std::uint64_t chunk,
                     std::uint64_t gap = 10'000) {
    const std::uint64_t size = t_.files[f].size_at_open;
    ev(at, 1000, pid, pid, Op::open, f, 5, 0, 0, 5);
    std::uint64_t ts = at + 2000;
    for (std::uint64_t off = 0; off < size; off += chunk, ts += gap)
      ev(ts, 1000, pid, pid, Op::read, f, 5, off, chunk, static_cast<std::int64_t>(chunk));
    ev(ts, 500, pid, pid, Op::close, f, 5, 0, 0, 0);
    return ts + 500;
  }
  // `pid`'s reading thread collates a batch into a new /dev/shm tensor at `at`.
  void handover(std::uint32_t pid, std::uint64_t at) {
    const auto f = file("/dev/shm/torch_" + std::to_string(pid) + "_" + std::to_string(shm_++), 0);
    ev(at, 1000, pid, pid, Op::shm_open, f, 9, 0, 0, 9);
  }
  // `workers` take turns at batches of `batch` files of `order` (each file read whole, then the
  // batch collated), `gap` apart, from `at` on: the time after.
  std::uint64_t batches(const std::vector<std::uint32_t>& workers,
                        const std::vector<std::uint32_t>& order, std::size_t batch,
                        std::uint64_t at, std::uint64_t gap = 5'000'000) {
    for (std::size_t b = 0; b * batch < order.size(); ++b) {
      const std::uint32_t pid = workers[b % workers.size()];
      for (std::size_t k = b * batch; k < std::min(order.size(), (b + 1) * batch); ++k)
        at = read(pid, order[k], at, 8192);
      handover(pid, at += 200'000);
      at += gap;
    }
    return at;
  }
  // A pass of 2 fresh workers over `order`, forked at `at`, then a 20 ms pause: the time after.
  std::uint64_t fresh_pass(const std::vector<std::uint32_t>& order, std::size_t batch,
                           std::uint64_t at) {
    const std::vector<std::uint32_t> w = {worker(at), worker(at)};
    return batches(w, order, batch, at) + 20'000'000;
  }
  const trace::Trace& get() const { return t_; }

 private:
  std::uint32_t next_pid_ = 200, shm_ = 0;
};

struct Stages {
  Classified c;
  std::vector<Access> as;
  Readers r;
  Passes p;
  Batches b;
};
Stages run(const trace::Trace& t) {
  Stages s;
  s.c = classify(t);
  s.as = find_accesses(t, s.c);
  s.r = find_readers(t, s.c, s.as);
  s.p = find_passes(s.c, s.as, s.r);
  s.b = find_batches(t, s.c, s.as, s.r, s.p);
  return s;
}

// A grouped batch sampler's order of n images in `epoch`: image n - 1 - epoch left out, image 3
// twice; after the first epoch, the epoch begins with the image the previous one left out (no
// repeat yet: its pass still begins at its workers' first read). One repeat in 48 reads is too
// few for a loader drawing with replacement (5 %).
std::vector<std::uint32_t> grouped_order(const std::vector<std::uint32_t>& images, int epoch) {
  const int n = static_cast<int>(images.size());
  std::vector<std::uint32_t> order;
  if (epoch > 0) order.push_back(images[n - epoch]);
  for (int i = 0; i < n; ++i)
    if (i != n - 1 - epoch && (epoch == 0 || i != n - epoch)) order.push_back(images[i]);
  order.push_back(images[3]);
  return order;
}

// A grouped batch sampler (aspect-ratio groups) over 48 images, batch 4, 2 workers: each epoch's
// last batch is completed with an image of its group the epoch gave already, and one image is left
// out. Evaluation after each epoch reads the 16 validation images one a batch. Each epoch's fresh
// workers are its pass (the repeat does not end it), and the batch is the training passes' 4,
// though the evaluations' batches of 1 are more.
TEST(EpochShapes, GroupedSamplerRepeatsStayInTheirEpochAndEvaluationBatchesDoNotSetTheBatch) {
  Loader l;
  const auto train = l.files("/d/coco/train2017", 48);
  const auto val = l.files("/d/coco/val2017", 16);
  std::uint64_t t = 10'000'000;
  for (int epoch = 0; epoch < 3; ++epoch) {
    t = l.fresh_pass(grouped_order(train, epoch), 4, t);
    t = l.batches({l.worker(t)}, val, 1, t, 1'000'000) + 20'000'000;
  }
  const Stages s = run(l.get());
  ASSERT_EQ(s.p.epochs.size(), 6u);  // 3 epochs, each with its evaluation
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(s.p.epochs[i].evaluation, i % 2 == 1) << i;
    EXPECT_EQ(s.p.epochs[i].accesses, i % 2 == 1 ? 16u : 48u) << i;
    EXPECT_EQ(s.b.steps_per_pass[i], i % 2 == 1 ? 16u : 12u) << i;
  }
  EXPECT_EQ(s.p.epochs[0].unique_files, 47u);
  EXPECT_EQ(s.b.batch_size, 4u);
  EXPECT_FALSE(s.b.stream);
}

// Epochs back to back (no evaluation between), each beginning with the image the previous one
// left out: that read is no repeat, but the new epoch's pass begins there, at its workers' first
// read, not at their first repeat.
TEST(EpochShapes, AnEpochBeginsAtItsWorkersFirstReadNotAtTheirFirstRepeat) {
  Loader l;
  const auto train = l.files("/d/coco/train2017", 48);
  std::uint64_t t = 10'000'000;
  for (int epoch = 0; epoch < 3; ++epoch) t = l.fresh_pass(grouped_order(train, epoch), 4, t);
  const Stages s = run(l.get());
  ASSERT_EQ(s.p.epochs.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(s.p.epochs[i].accesses, 48u) << i;
    EXPECT_EQ(s.b.steps_per_pass[i], 12u) << i;
  }
  EXPECT_EQ(s.as[48].file, train[47]);
  EXPECT_EQ(s.as[48].pass, 1);
}

// The same grouped sampler's training workers fresh each epoch, evaluated after epochs 1 and 3
// by a persistent worker: alive from the first evaluation to the last, it spans epochs 2 and 3,
// which counted among the workers of every dataset together were one generation (their repeats
// then ignored: one pass). Generations are counted among each dataset's own readers.
TEST(EpochShapes, APersistentEvaluationWorkerDoesNotJoinTheTrainingGenerations) {
  Loader l;
  const auto train = l.files("/d/coco/train2017", 48);
  const auto val = l.files("/d/coco/val2017", 4);
  std::uint32_t v = 0;
  std::uint64_t t = 10'000'000;
  for (int epoch = 0; epoch < 3; ++epoch) {
    t = l.fresh_pass(grouped_order(train, epoch), 4, t);
    if (epoch == 1) continue;
    if (v == 0) v = l.worker(t);
    t = l.batches({v}, val, 1, t, 1'000'000) + 20'000'000;
  }
  const Stages s = run(l.get());
  ASSERT_EQ(s.p.epochs.size(), 5u);  // epoch 1, evaluation, epochs 2 and 3, evaluation
  const bool evaluation[5] = {false, true, false, false, true};
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(s.p.epochs[i].evaluation, evaluation[i]) << i;
    EXPECT_EQ(s.p.epochs[i].accesses, evaluation[i] ? 4u : 48u) << i;
  }
}

// K-fold style: each epoch's training workers read 8 files of the folder, then fresh validation
// workers read its other 4. The newer generation re-reads nothing, so it does not end the pass
// (as before generations counted: 2 passes of 12, not 4).
TEST(EpochShapes, ANewerGenerationReadingOtherFilesStaysInThePass) {
  Loader l;
  const auto files = l.files("/d/folds/samples", 12);
  std::uint64_t t = 10'000'000;
  for (int epoch = 0; epoch < 2; ++epoch) {
    t = l.fresh_pass({files.begin(), files.begin() + 8}, 4, t);
    t = l.fresh_pass({files.begin() + 8, files.end()}, 4, t);
  }
  const Stages s = run(l.get());
  ASSERT_EQ(s.p.epochs.size(), 2u);
  for (const auto& e : s.p.epochs) EXPECT_EQ(e.accesses, 12u);
}

// 4 tar shards of 10 pieces, 2 fresh workers an epoch, each streaming its 2 shards through a
// shuffle buffer: it hands its first batch over while it reads its second shard and the other two
// after closing it, from the samples it read ahead. Every handover is a batch: 6 an epoch.
TEST(EpochShapes, AShuffleBufferReadingAheadIsStillAStream) {
  Loader l;
  const auto shards = l.files("/d/wds/train", 4, 10 * 12288);
  std::uint64_t t = 10'000'000;
  for (int epoch = 0; epoch < 3; ++epoch) {
    const std::uint32_t w[2] = {l.worker(t), l.worker(t)};
    for (int k = 0; k < 2; ++k) {
      std::uint64_t end = l.read(w[k], shards[k], t + k * 300'000, 12288, 100'000);
      const std::uint64_t second = end + 100'000;
      end = l.read(w[k], shards[k + 2], second, 12288, 100'000);
      l.handover(w[k], second + 450'000);  // while the second shard is open
      l.handover(w[k], end + 30'000'000);
      l.handover(w[k], end + 160'000'000);
    }
    t += 400'000'000;
  }
  const Stages s = run(l.get());
  EXPECT_TRUE(s.b.stream);
  ASSERT_EQ(s.p.epochs.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(s.b.steps_per_pass[i], 6u) << i;
  EXPECT_EQ(s.b.batch_size, 1u) << "a stream's batch counts as one sample";
}

// Files per sample, batch 4, and two tensors collated per batch by the reading thread (an image
// stack and a mask stack, 0.3 ms apart): the second follows the first with no read between, but
// within the collate, so it is not a batch read ahead, and the loader is no stream.
TEST(EpochShapes, TwoTensorsOfOneBatchAreNotAStream) {
  Loader l;
  const auto train = l.files("/d/seg/train", 16);
  std::uint64_t t = 10'000'000;
  for (int epoch = 0; epoch < 2; ++epoch) {
    const std::uint32_t w[2] = {l.worker(t), l.worker(t)};
    for (std::size_t batch = 0; batch < 4; ++batch) {
      const std::uint32_t pid = w[batch % 2];
      for (std::size_t k = 0; k < 4; ++k) t = l.read(pid, train[batch * 4 + k], t, 8192);
      l.handover(pid, t += 100'000);
      l.handover(pid, t += 300'000);
      t += 5'000'000;
    }
    t += 20'000'000;
  }
  const Stages s = run(l.get());
  EXPECT_FALSE(s.b.stream);
  ASSERT_EQ(s.p.epochs.size(), 2u);
  EXPECT_EQ(s.b.batch_size, 4u);
  for (std::size_t i = 0; i < 2; ++i) EXPECT_EQ(s.b.steps_per_pass[i], 4u) << i;
}

}  // namespace
}  // namespace dlgen::analysis::stages
