// Training from memory (stages/memory_training.cpp, distil/memory.cpp) on hand-built traces of a
// Hugging Face Trainer-style run: the main process reads two train .jsonl files and
// validation.jsonl whole at start, then each epoch forks 2 DataLoader workers that read nothing
// and hand over batches of three /dev/shm tensors (ids, mask, labels: one int64 a sample), and
// every 10 global steps an evaluation forks 2 workers of its own. Laws: the passes are the worker
// generations (2 epochs of 15 steps, 3 evaluations of 3), the batch is the labels' size over 8,
// the validation file is set apart, and the job loads both sets into memory.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "dlgen/analysis/distil.hpp"
#include "dlgen/analysis/summary.hpp"
#include "dlgen/core/recipe.hpp"
#include "trace_builder.hpp"

namespace dlgen::analysis {
namespace {

using trace::Op;

constexpr std::uint64_t kMs = 1'000'000;

class HfTrainer : public testing::TraceBuilder {
 public:
  // shm: batches as /dev/shm tensors (sizes known); else one sendmsg a batch (sizes unknown).
  explicit HfTrainer(bool shm) : shm_(shm) {}
  // Each file read as pickle.load reads a CIFAR batch, not in 8 KiB chunks.
  static HfTrainer pickled() {
    HfTrainer h(true);
    h.pickle_ = true;
    return h;
  }
  // The training loop spends 40 ms on each batch after receiving it (syscalls every 5 ms: the
  // consumer's cost), the test loop none; and each evaluation's second batch reaches the loop
  // before its first (received then, kept, and computed on after the first without a receipt).
  // The training workers run 2 batches ahead (the loop never waits).
  static HfTrainer stashing_evaluation() {
    HfTrainer h(true, 2, 0);
    h.stash_ = true;
    return h;
  }
  // The training workers hand batches over `ahead` steps before the loop takes them (a
  // DataLoader's prefetch), and a checkpoint-<step>/ directory is saved every `save_every`
  // global steps (a Trainer's save_steps). 0: neither.
  HfTrainer(bool shm, std::uint32_t ahead, std::uint32_t save_every)
      : shm_(shm), ahead_(ahead), save_every_(save_every) {}

  trace::Trace run() {
    proc(100, 1, "python3", false, 100);
    for (const char* name : {"train-00000-of-00002", "train-00001-of-00002", "validation"})
      load(file(std::string("/data/text/") + name + ".jsonl", name[0] == 'v' ? 27000 : 37000));
    sock_ = file("socket:[77]", 0);
    std::uint32_t global = 0;
    for (int epoch = 0; epoch < 2; ++epoch) {
      const std::uint32_t w0 = fork_workers();
      auto worker = [&](std::uint32_t b) { return b % 2 ? w0 + 1 : w0; };
      for (std::uint32_t b = 0; b < ahead_; ++b) hand_over(worker(b), 8);
      for (std::uint32_t b = 0; b < 15; ++b) {
        if (ahead_ == 0) hand_over(worker(b), 8);
        else if (b + ahead_ < 15) hand_over(worker(b + ahead_), 8);
        receive();
        for (int i = 0; stash_ && i < 8; ++i)  // the consumer's cost
          ev(now_ + i * 5 * kMs, 20000, 100, 100, Op::lseek, sock_, 8, 0, 0, 0);
        if (stash_) now_ += 40 * kMs;
        now_ += 300 * kMs;  // the step's compute
        if (stash_) ev(now_, 20000, 100, 100, Op::lseek, sock_, 8, 0, 0, 0);  // its end
        if (++global % 10 == 0) evaluate();
        if (save_every_ && global % save_every_ == 0) save(global);
      }
      now_ += 500 * kMs;
    }
    return t_;
  }

 private:
  void load(std::uint32_t f) {
    ev(now_, 5000, 100, 100, Op::open, f, 3, 0, 0, 3);
    const std::uint64_t size = t_.files[f].size_at_open;
    if (pickle_) {  // (every file the same size, as CIFAR's batches)
      // pickle: the first 4 KiB, the body, then the tail in three pieces (then EOF).
      const std::uint64_t reads[][2] = {{0, 4096},
                                        {4096, size - 4096 - 22921},
                                        {size - 22921, 4096},
                                        {size - 18825, 16384},
                                        {size - 2441, 2441}};
      for (const auto& [at, len] : reads)
        ev(now_ + 10000 + at, 2000, 100, 100, Op::read, f, 3, at, len,
           static_cast<std::int64_t>(len));
    }
    for (std::uint64_t at = 0; !pickle_ && at <= size; at += 8192)
      ev(now_ + 10000 + at, 2000, 100, 100, Op::read, f, 3, at, 8192,
         static_cast<std::int64_t>(std::min<std::uint64_t>(8192, size - at)));
    ev(now_ + 200000, 1000, 100, 100, Op::close, f, 3, 0, 0, 0);
    now_ += kMs;
  }

  std::uint32_t fork_workers() {
    const std::uint32_t w = next_pid_;
    for (int i = 0; i < 2; ++i) proc(next_pid_++, 100, "python3", false, w + i), now_ += 20 * kMs;
    now_ += 50 * kMs;
    return w;
  }

  // A worker tokenises (2 ms), hands its batch over; the main process receives it at once.
  void batch(std::uint32_t worker, std::uint64_t samples) {
    hand_over(worker, samples);
    receive();
  }

  void hand_over(std::uint32_t worker, std::uint64_t samples) {
    now_ += 2 * kMs;
    const std::uint64_t sizes[] = {samples * 1024, samples * 1024, samples * 8};
    for (std::uint64_t bytes : sizes) {
      if (shm_) {
        const auto f = file("/dev/shm/torch_" + std::to_string(worker) + "_" +
                                std::to_string(shm_files_++),
                            0);
        ev(now_, 3000, worker, worker, Op::open, f, 9, 0, 0, 9);
        ev(now_ + 4000, 2000, worker, worker, Op::ftruncate, f, 9, 0, bytes, 0);
      } else if (bytes == sizes[0]) {
        ev(now_, 3000, worker, worker, Op::sendmsg, sock_, 7, 0, 0, 1);
      }
      now_ += 10000;
    }
  }

  void receive() {
    for (int k = 0; k < (shm_ ? 3 : 1); ++k)
      ev(now_ + 20000 + k * 1000, 500, 100, 100, Op::recvmsg, sock_, 8, 0, 0, 1);
    now_ += kMs;
  }

  // checkpoint-<step>/: the weights and optimizer (torch.save, 2 MiB each) and a config.json.
  void save(std::uint32_t step) {
    const std::string dir = "/out/checkpoint-" + std::to_string(step) + "/";
    for (const char* name : {"config.json", "pytorch_model.bin", "optimizer.pt"}) {
      const bool json = name[0] == 'c';
      const auto f = file(dir + name, 0);
      ev(now_, 5000, 100, 100, Op::open, f, 12, 0, 0, 12, 01 | 0100);
      const std::uint64_t bytes = json ? 500 : 2 << 20;
      for (std::uint64_t at = 0; at < bytes; at += 1 << 20)
        ev(now_ + 10000 + at / 64, 3000, 100, 100, Op::write, f, 12, at,
           std::min<std::uint64_t>(bytes - at, 1 << 20),
           static_cast<std::int64_t>(std::min<std::uint64_t>(bytes - at, 1 << 20)));
      ev(now_ + 200000, 1000, 100, 100, Op::close, f, 12, 0, 0, 0);
      now_ += kMs;
    }
  }

  // 40 validation records at batch 16: 16, 16, 8.
  void evaluate() {
    const std::uint32_t w = fork_workers();
    if (stash_) {  // batch 1 first, kept; batch 0; 100 ms on each with no syscall between
      batch(w + 1, 16);
      batch(w, 16);
      now_ += 200 * kMs;
      batch(w, 8);
      now_ += 100 * kMs;
      ev(now_, 20000, 100, 100, Op::lseek, sock_, 8, 0, 0, 0);
      return;
    }
    batch(w, 16);
    now_ += 100 * kMs;
    batch(w + 1, 16);
    now_ += 100 * kMs;
    batch(w, 8);
    now_ += 100 * kMs;
  }

  bool shm_, pickle_ = false, stash_ = false;
  std::uint32_t ahead_ = 0, save_every_ = 0;
  std::uint32_t sock_ = 0, next_pid_ = 200;
  std::uint64_t shm_files_ = 0;
};

TEST(MemoryTraining, PassesBatchesAndValidationFromWorkersThatReadNothing) {
  const TraceSummary s = summarize(HfTrainer(true).run());
  ASSERT_TRUE(s.dataset_in_memory);
  ASSERT_EQ(s.datasets.size(), 2u);
  EXPECT_EQ(s.datasets[0].files.size(), 2u) << "the two train files";
  EXPECT_EQ(s.datasets[1].cls, FileClass::validation);
  EXPECT_EQ(s.datasets[1].files.size(), 1u) << "validation.jsonl apart";
  std::vector<std::uint64_t> train, eval, after;
  for (const auto& e : s.epochs) {
    (e.evaluation ? eval : train).push_back(e.steps);
    if (e.evaluation) after.push_back(e.after_step);
  }
  EXPECT_EQ(train, (std::vector<std::uint64_t>{15, 15}));
  EXPECT_EQ(eval, (std::vector<std::uint64_t>{3, 3, 3}));
  EXPECT_EQ(after, (std::vector<std::uint64_t>{10, 20, 30}));
  EXPECT_EQ(s.batch_size, 8u);
  EXPECT_EQ(s.eval_batch_size, 16u);
  ASSERT_EQ(s.accelerators.size(), 1u);
  EXPECT_FALSE(s.accelerators[0].reads_itself);
  EXPECT_EQ(s.accelerators[0].workers, 2u);
}

TEST(MemoryTraining, DistilledJobLoadsBothSetsAndKeepsTheSteps) {
  const Distilled d = distil(summarize(HfTrainer(true).run()));
  const Job& j = d.job;
  EXPECT_EQ(j.dataset.load, Load::memory);
  EXPECT_EQ(j.dataset.num_files, 2u);
  EXPECT_EQ(j.dataset.samples_per_file, 60u);  // 15 batches of 8 over 2 files
  EXPECT_NEAR(j.dataset.sample_size.expected() * 120, 74000, 120);  // the bytes kept
  ASSERT_TRUE(j.validation.has_value());
  EXPECT_EQ(j.validation->load, Load::memory);
  EXPECT_EQ(j.validation->samples_per_file, 40u);
  EXPECT_EQ(j.reader.batch_size, 8u);
  EXPECT_EQ(j.reader.eval_batch_size, 16u);
  EXPECT_EQ(j.reader.workers, 2u);
  // The load reads each file as the original did (reader.recipe): 8 KiB requests.
  ASSERT_FALSE(j.reader.recipe.empty());
  std::vector<std::uint64_t> lengths;
  for (const RecipeRequest& q : recipe_requests(j.reader.recipe, 37000))
    lengths.push_back(q.length);
  EXPECT_EQ(lengths, (std::vector<std::uint64_t>{8192, 8192, 8192, 8192, 4232}));
  EXPECT_EQ(j.run.epochs, 2u);
  EXPECT_EQ(j.run.eval_every_steps, 10u);
  EXPECT_NE(d.comments.at("dataset.load").find("memory"), std::string::npos);
}

// Without tensor files the batches' samples are not seen: the batch is said not inferred, and
// batch and samples per file are chosen so that the replay keeps the original's steps (a pass's
// steps in every file, as many samples a batch as files).
TEST(MemoryTraining, WithoutTensorSizesTheBatchIsNotInferredButTheStepsStay) {
  const TraceSummary s = summarize(HfTrainer(false).run());
  ASSERT_TRUE(s.dataset_in_memory);
  EXPECT_EQ(s.batch_size, 0u);
  const Distilled d = distil(s);
  const Job& j = d.job;
  EXPECT_NE(d.comments.at("reader.batch_size").find("not inferred"), std::string::npos);
  auto steps = [](std::uint64_t samples, std::uint64_t batch) {
    return (samples + batch - 1) / batch;
  };
  EXPECT_EQ(steps(j.dataset.samples_per_file * j.dataset.num_files, j.reader.batch_size), 15u);
  ASSERT_TRUE(j.validation.has_value());
  EXPECT_EQ(steps(j.validation->samples_per_file * j.validation->num_files,
                  j.reader.eval_batch_size),
            3u);
  EXPECT_EQ(j.run.eval_every_steps, 10u);
}

// Files the load read as pickle.load does (a header, the body, the tail in pieces): the job keeps
// how each file was read (reader.recipe), which the replay's load follows; before, the recipe was
// dropped for the dominant read size and the load made 2 reads of a file where pickle made 5.
TEST(MemoryTraining, TheLoadKeepsHowEachFileWasRead) {
  const Distilled d = distil(summarize(HfTrainer::pickled().run()));
  const Job& j = d.job;
  EXPECT_EQ(j.dataset.load, Load::memory);
  const std::uint64_t size = 37000;
  EXPECT_EQ(recipe_requests(j.reader.recipe, size),
            (std::vector<RecipeRequest>{{0, 4096},
                                        {4096, size - 4096 - 22921},
                                        {size - 22921, 4096},
                                        {size - 18825, 16384},
                                        {size - 2441, 2441}}));
  EXPECT_EQ(j.reader.request_size_bytes, 0u);
  EXPECT_TRUE(d.comments.count("reader.recipe"));
}

// dlgen's own replay of an in-memory job, as its trace shows it: the main thread loads the files,
// then each pass starts 2 reader threads that read nothing and send a token a batch, and an
// accelerator thread that receives each token, spends the consumer's cost (3 ms, in pieces
// ended by an lseek on its socket), then computes (10 ms), all threads of the one process.
class ReplayFromMemory : public testing::TraceBuilder {
 public:
  trace::Trace run() {
    proc(100, 1, "dlgen", false, 100);
    for (const char* name : {"/data/r/a.bin", "/data/r/b.bin"}) {
      const std::uint32_t f = file(name, 40000);
      ev(now_, 5000, 100, 100, Op::open, f, 3, 0, 0, 3);
      ev(now_ + 10000, 2000, 100, 100, Op::uring_read, f, 3, 0, 40000, 40000);
      ev(now_ + 20000, 1000, 100, 100, Op::close, f, 3, 0, 0, 0);
      now_ += kMs;
    }
    sock_ = file("socket:[91]", 0);
    for (int pass = 0; pass < 2; ++pass) epoch();
    return t_;
  }

 private:
  void epoch() {
    const std::uint32_t r0 = next_tid_, acc = next_tid_ + 2;
    for (std::uint32_t i = 0; i < 3; ++i) proc(next_tid_++, 100, "dlgen", true, 100);
    now_ += 5 * kMs;
    for (std::uint32_t b = 0; b < 10; ++b) {
      // The batch is ready before the step that takes it: the steps are compute-bound.
      ev(now_ - 2 * kMs, 5000, 100, r0 + b % 2, Op::sendmsg, sock_, 7, 0, 8, 8);
      ev(now_, 4000, 100, acc, Op::recvmsg, sock_, 8, 0, 8, 8);
      for (int piece = 1; piece <= 3; ++piece)
        ev(now_ + piece * kMs, 1000, 100, acc, Op::lseek, sock_, 8, 0, 0, -29);  // -ESPIPE
      now_ += 3 * kMs + 10 * kMs;
    }
    for (std::uint32_t i = 0; i < 3; ++i)
      ev(now_ + i * 1000, 0, 100, r0 + i, Op::exit, 0, -1, 0, 0, 0);
    now_ += 50 * kMs;
  }

  std::uint32_t sock_ = 0, next_tid_ = 101;
};

// Its steps are read on the accelerator thread: 10 ms of compute and 3 ms of the consumer's
// cost, as the job said. Before, the reader threads that read nothing were taken for PyTorch's
// worker processes behind a pin-memory thread, and the steps were fitted per pass as one 13 ms
// compute with no consumer cost (the held-out CIFAR replay: compute 14.5 ms, consumer 0).
TEST(MemoryTraining, ReplaysStepsAreComputeAndConsumerCostApart) {
  const TraceSummary s = summarize(ReplayFromMemory().run());
  ASSERT_TRUE(s.dataset_in_memory);
  ASSERT_EQ(s.steps.size(), 20u);
  std::vector<double> compute, consumer;
  for (const Step& st : s.steps) {
    compute.push_back(static_cast<double>(st.compute_ns));
    consumer.push_back(static_cast<double>(st.consumer_ns));
  }
  std::sort(compute.begin(), compute.end());
  std::sort(consumer.begin(), consumer.end());
  EXPECT_NEAR(compute[10], 10.0 * kMs, 0.1 * kMs);
  EXPECT_NEAR(consumer[10], 3.0 * kMs, 0.1 * kMs);
  for (const std::string& n : s.notes) EXPECT_EQ(n.find("pin memory"), std::string::npos) << n;
}

}  // namespace
}  // namespace dlgen::analysis

namespace dlgen::analysis {
namespace {

// The training workers run 4 batches ahead of the loop, and it evaluates after step 10: the
// evaluation's receipts are the evaluation loader's (the one started last), so the save after
// step 12 follows 12 steps. Matched in hand-over order, the evaluation's receipts went to the
// training batches handed over before it, and the save was placed after step 14.
TEST(MemoryTraining, ReceiptsDuringAnEvaluationAreItsOwn) {
  const TraceSummary s = summarize(HfTrainer(true, 4, 12).run());
  ASSERT_TRUE(s.dataset_in_memory);
  ASSERT_EQ(s.checkpoints.size(), 2u);
  EXPECT_EQ(s.checkpoints[0].after_step, 12u);
  EXPECT_EQ(s.checkpoints[1].after_step, 24u);
}

// The save's config.json, written beside its torch.save files, is one of its files; and the
// directories named by their step say a step cadence.
TEST(MemoryTraining, CheckpointDirectoryKeepsItsSmallFilesAndStepCadence) {
  const TraceSummary s = summarize(HfTrainer(true, 4, 12).run());
  ASSERT_EQ(s.checkpoints.size(), 2u);
  EXPECT_EQ(s.checkpoints[0].files, 3u);
  EXPECT_EQ(s.checkpoints[0].bytes, (4u << 20) + 500u);
  const Distilled d = distil(s);
  EXPECT_EQ(d.job.checkpoint.every_steps, 12u);
  EXPECT_EQ(d.job.checkpoint.files, 3u);
}

// Each evaluation's second batch arrives first: its receipt and the first batch's come back to
// back, then 200 ms without a syscall hold both batches' compute. Each step is 100 ms of it
// (before: a step of ~1 ms and one of 200 ms, whose median only happened to be right), and the
// test loop's own cost per batch (none) is apart from training's (40 ms): eval_batch_overhead 0.
TEST(MemoryTraining, AStashedEvaluationBatchIsAStepOfItsOwn) {
  const TraceSummary s = summarize(HfTrainer::stashing_evaluation().run());
  ASSERT_TRUE(s.dataset_in_memory);
  std::size_t eval_steps = 0;
  for (const auto& st : s.steps) {
    if (st.epoch < 0 || !s.epochs[st.epoch].evaluation) continue;
    ++eval_steps;
    EXPECT_NEAR(static_cast<double>(st.compute_ns) * 1e-9, 0.1, 0.005)
        << "evaluation step at " << st.start_ns;
  }
  EXPECT_EQ(eval_steps, 9u);
  const Distilled d = distil(s);
  EXPECT_GT(d.job.compute.batch_overhead.expected(), 0.035);  // the receipt and the 40 ms
  ASSERT_TRUE(d.job.compute.eval_time.has_value());
  EXPECT_NEAR(d.job.compute.eval_time->expected(), 0.1, 0.005);
  ASSERT_TRUE(d.job.compute.eval_batch_overhead.has_value());
  EXPECT_LT(d.job.compute.overhead(true).expected(), 0.002);
  EXPECT_NE(d.comments.at("compute.eval_batch_overhead").find("9 evaluation steps"),
            std::string::npos)
      << d.comments.at("compute.eval_batch_overhead");
  // Each evaluation's loader starts up 92 ms after the training step's compute (two forks 20 ms
  // apart, 50 ms, its first batch's 2 ms) although that step's interval runs on to the training
  // pass's next step: measured to its interval's end, the gap was 0.
  EXPECT_TRUE(s.eval_startup_apart);
  EXPECT_NEAR(s.eval_startup_s, 0.092, 0.003);
}

}  // namespace
}  // namespace dlgen::analysis
