// summarize + distil on synthetic traces with known ground truth (tests/analysis/sim.hpp), and on
// a hand-written text trace.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "dlgen/analysis/distil.hpp"
#include "dlgen/analysis/summary.hpp"
#include "dlgen/core/job_io.hpp"
#include "dlgen/trace/trace_text.hpp"
#include "sim.hpp"

namespace dlgen::analysis {
namespace {

using testing::Sim;
using testing::SimConfig;
using testing::SimOrder;

Distilled run(const SimConfig& c, TraceSummary* out = nullptr) {
  Sim sim(c);
  const auto s = summarize(sim.build());
  if (out) *out = s;
  Distilled d = distil(s);
  // Whatever the trace, the job distil writes must load and run (unless it says it could not
  // find a training dataset: then the section is a placeholder, and the note says so).
  bool placeholder = false;
  for (const auto& n : d.notes) placeholder |= n.find("no training dataset") != std::string::npos;
  if (!placeholder)
    for (const auto& problem : validate(d.job))
      ADD_FAILURE() << "distilled job does not validate: " << problem.path << ": "
                    << problem.message;
  return d;
}

bool has_note(const Distilled& d, const std::string& part) {
  for (const auto& n : d.notes)
    if (n.find(part) != std::string::npos) return true;
  return false;
}

TEST(Distil, SequentialTwoWorkers) {
  SimConfig c;
  c.workers = 2;
  c.batch = 8;
  c.epochs = 3;
  c.order = SimOrder::sequential;
  TraceSummary s;
  const auto d = run(c, &s);
  EXPECT_EQ(d.job.dataset.num_files, 64u);
  EXPECT_EQ(d.job.dataset.format, Format::npz);
  EXPECT_EQ(d.job.reader.workers, 2u);
  EXPECT_EQ(d.job.reader.batch_size, 8u);
  EXPECT_EQ(d.job.run.epochs, 3u);
  EXPECT_EQ(d.job.reader.shuffle, Shuffle::none);
  EXPECT_EQ(s.datasets[0].order.kind, OrderKind::sequential);
  EXPECT_FALSE(d.job.reader.drop_last);
  EXPECT_FALSE(d.job.checkpoint.enabled);
  EXPECT_EQ(d.job.run.accelerators, 1u);
  // The synthetic data goes to a new directory, never the traced one.
  EXPECT_EQ(d.job.dataset.dir, std::filesystem::path("data/unet"));
  EXPECT_NE(d.comments.at("reader.workers").find("2 readers per epoch"), std::string::npos);
}

TEST(Distil, ShuffledFourWorkersReshuffledEachEpoch) {
  SimConfig c;
  c.files = 128;
  c.workers = 4;
  c.batch = 4;
  c.order = SimOrder::shuffled;
  TraceSummary s;
  const auto d = run(c, &s);
  EXPECT_EQ(s.datasets[0].order.kind, OrderKind::shuffled);
  EXPECT_TRUE(s.datasets[0].order.reshuffled);
  EXPECT_TRUE(s.datasets[0].order.each_file_once);
  EXPECT_EQ(d.job.reader.shuffle, Shuffle::file);
  EXPECT_EQ(d.job.reader.shuffle_buffer, 0u);
  EXPECT_EQ(d.job.reader.workers, 4u);
  EXPECT_EQ(d.job.reader.batch_size, 4u);
  EXPECT_EQ(d.job.run.epochs, 3u);
  EXPECT_EQ(d.job.dataset.num_files, 128u);
}

TEST(Distil, BufferShuffleIsNotAPermutationNorSequential) {
  SimConfig c;
  c.files = 400;
  c.workers = 1;
  c.batch = 10;
  c.epochs = 2;
  c.order = SimOrder::buffer;
  c.buffer = 32;
  c.compute_ns = 2'000'000;
  TraceSummary s;
  const auto d = run(c, &s);
  EXPECT_EQ(s.datasets[0].order.kind, OrderKind::buffer_shuffled);
  EXPECT_EQ(d.job.reader.shuffle, Shuffle::file);
  EXPECT_GE(d.job.reader.shuffle_buffer, 16u);
  EXPECT_LE(d.job.reader.shuffle_buffer, 64u);
}

TEST(Distil, OneWorkerComputeBoundComputeTime) {
  SimConfig c;
  c.workers = 1;
  c.batch = 4;
  c.compute_ns = 80'000'000;
  TraceSummary s;
  const auto d = run(c, &s);
  EXPECT_EQ(d.job.reader.workers, 1u);
  EXPECT_EQ(d.job.reader.batch_size, 4u);
  const double t = d.job.compute.step_time.expected();
  EXPECT_NEAR(t, 0.080, 0.008);
  EXPECT_GT(s.au, 0.5);
}

TEST(Distil, RightSkewedComputeKeepsItsMean) {
  // Every 5th step computes 4x longer (a busy machine): a replay drawing around the median would
  // run short on every epoch. The distilled distribution keeps the median and the mean.
  SimConfig c;
  c.workers = 2;
  c.compute_ns = 30'000'000;
  c.compute_tail_every = 5;
  c.epochs = 4;
  TraceSummary s;
  const auto d = run(c, &s);
  const auto& t = d.job.compute.step_time;
  EXPECT_EQ(t.kind, DistKind::histogram);
  const double mean = (4 * 0.030 + 0.120) / 5;
  EXPECT_NEAR(t.expected(), mean, 0.08 * mean);
  EXPECT_NEAR(s.compute_time.p50, 0.030, 0.003);
}

TEST(Distil, RightSkewedPreprocessKeepsItsMean) {
  SimConfig c;
  c.workers = 2;
  c.preprocess_ns = 2'000'000;
  c.preprocess_tail_every = 4;
  c.compute_ns = 100'000'000;  // compute-bound: the workers' gaps are not handovers
  TraceSummary s;
  const auto d = run(c, &s);
  const auto& p = d.job.reader.preprocess;
  EXPECT_EQ(p.kind, DistKind::histogram);
  // The gaps that can be measured (those before a handover are left out) keep their mean.
  ASSERT_GE(s.preprocess_gaps_s.size(), 20u);
  double sum = 0;
  for (double g : s.preprocess_gaps_s) sum += g;
  const double mean = sum / static_cast<double>(s.preprocess_gaps_s.size());
  EXPECT_GT(mean, 1.2 * s.preprocess_s);  // the tail is there
  EXPECT_NEAR(p.expected(), mean, 0.08 * mean);
}

// reader.worker_pace: DataLoader workers do not all go at one speed, and the slowest ends the
// pass. Four workers preprocess at 0.8, 0.9, 1.1 and 1.2 times 4 ms a sample: distil keeps their
// spread (mean 1, the slowest ~1.2). Workers at one speed give none (their means differ by
// sampling noise only, here none at all).
TEST(Distil, WorkersAtDifferentSpeedsKeepTheirPace) {
  SimConfig c;
  c.workers = 4;
  c.batch = 4;
  c.files = 256;
  c.epochs = 3;
  c.preprocess_ns = 4'000'000;
  c.compute_ns = 100'000'000;  // compute-bound: the workers' gaps are not handovers
  c.worker_pace = {0.8, 0.9, 1.1, 1.2};
  const auto d = run(c);
  const auto& pace = d.job.reader.worker_pace;
  ASSERT_FALSE(pace.empty());
  double mean = 0;
  for (double f : pace) mean += f;
  EXPECT_NEAR(mean / double(pace.size()), 1.0, 0.02);
  EXPECT_NEAR(pace.front(), 0.8, 0.05);
  EXPECT_NEAR(pace.back(), 1.2, 0.05);
  c.worker_pace.clear();
  EXPECT_TRUE(run(c).job.reader.worker_pace.empty());
}

// The worker's time between a file's own reads (PIL parses a JPEG's header before it reads the
// rest) is per-sample time: preprocess = the gap after the reads + the one between them.
TEST(Distil, TimeBetweenAFilesReadsIsPreprocess) {
  SimConfig c;
  c.workers = 2;
  c.header = 4096;
  c.chunk = 65536;
  c.preprocess_ns = 2'000'000;
  c.header_gap_ns = 1'000'000;
  c.compute_ns = 100'000'000;
  TraceSummary s;
  const auto d = run(c, &s);
  // 2 ms after the reads, 1 ms between them, plus the simulator's own spacing (a few us).
  EXPECT_NEAR(d.job.reader.preprocess.expected(), 0.003, 0.0002);
}

// reader.collate: each worker spends 8 ms on a batch from its first handover event (the /dev/shm
// tensor) to its read of the next indices. With compute 40 ms a step the workers soon wait for
// their indices; those waits are not collate (the indices arrived just before the read), so the
// figure stays the worker's own, with 2 or 3 workers. Without an index queue in the trace it is
// not measured.
TEST(Distil, CollateIsTheWorkersTimeFromItsHandoverToItsNextIndices) {
  for (std::uint32_t workers : {2u, 3u}) {
    SCOPED_TRACE("workers " + std::to_string(workers));
    SimConfig c;
    c.workers = workers;
    c.preprocess_ns = 1'000'000;
    c.collate_ns = 8'000'000;
    c.compute_ns = 40'000'000;
    c.index_queue = true;
    TraceSummary s;
    const auto d = run(c, &s);
    ASSERT_GE(s.collate_times_s.size(), 3u);
    for (double x : s.collate_times_s) EXPECT_LT(x, 0.0095);  // never a wait for indices
    EXPECT_NEAR(d.job.reader.collate.expected(), 0.0081, 0.0004);
    EXPECT_NEAR(d.job.reader.preprocess.expected(), 0.001, 0.0003);
    c.index_queue = false;
    EXPECT_EQ(run(c).job.reader.collate, Distribution{});
  }
}

TEST(Distil, SymmetricComputeStaysCentredOnTheMedian) {
  SimConfig c;
  c.compute_ns = 30'000'000;
  const auto d = run(c);
  EXPECT_NE(d.job.compute.step_time.kind, DistKind::histogram);
  EXPECT_NEAR(d.job.compute.step_time.expected(), 0.030, 0.003);
}

TEST(Distil, FreshWorkersFirstSampleIsWarmup) {
  // Each pass's workers are new processes whose first sample takes 60 ms more (imports).
  SimConfig c;
  c.workers = 3;
  c.preprocess_ns = 1'000'000;
  c.warmup_ns = 60'000'000;
  const auto d = run(c);
  EXPECT_NEAR(d.job.reader.warmup_s, 0.060, 0.004);
  EXPECT_NEAR(d.job.reader.preprocess.expected(), 0.001, 0.0003);  // the first samples left out
  SimConfig none;
  none.workers = 3;
  none.preprocess_ns = 1'000'000;
  EXPECT_EQ(run(none).job.reader.warmup_s, 0.0);
}

TEST(Distil, FreshWorkersLateFirstBatchIsWarmup) {
  // Each pass's first batches reach the consumer 8 ms after they are ready (the workers' queue
  // feeder threads, the consumer's connection for their descriptors); later batches 0.3 ms.
  SimConfig c;
  c.workers = 2;
  c.first_handover_ns = 8'000'000;
  const auto d = run(c);
  EXPECT_NEAR(d.job.reader.warmup_s, 0.0083, 0.001);
  EXPECT_NE(d.comments.at("reader.warmup").find("first batch reached the consumer"),
            std::string::npos)
      << d.comments.at("reader.warmup");
  // Both parts add up: a slow first sample and a late first batch.
  c.warmup_ns = 30'000'000;
  EXPECT_NEAR(run(c).job.reader.warmup_s, 0.0383, 0.003);
  SimConfig none;
  none.workers = 2;
  EXPECT_EQ(run(none).job.reader.warmup_s, 0.0) << "0.3 ms hand-offs are no warm-up";
}

TEST(Distil, NumpyLoadProbeIsSetApartFromHeaderAndData) {
  // numpy.load: 4 KiB at 0 (magic), seek back, 128 B header, the data in 1 MiB chunks.
  SimConfig c;
  c.ext = ".npy";
  c.size = 4 << 20;
  c.probe = 4096;
  c.header = 128;
  c.chunk = 1 << 20;
  TraceSummary s;
  const auto d = run(c, &s);
  EXPECT_EQ(s.datasets[0].read.probe_bytes, 4096u);
  EXPECT_EQ(s.datasets[0].read.header_bytes, 128u);
  EXPECT_EQ(s.datasets[0].read.request_bytes, 1u << 20);
  // The job says it as its recipe (the per-library keys are then 0).
  EXPECT_EQ(recipe_text(d.job.reader.recipe), "0+4KiB, 0+128, 128+rest/1MiB");
  EXPECT_EQ(d.job.reader.probe_bytes, 0u);
  // PIL reads a 4 KiB header and goes on from there: no probe.
  SimConfig pil;
  pil.header = 4096;
  pil.chunk = 61440;
  pil.size = 200000;
  EXPECT_EQ(run(pil).job.reader.probe_bytes, 0u);
}

// torch.load per sample: many read-only .pt files in one directory are a dataset, not a restored
// checkpoint; a few are a checkpoint read before training.
TEST(Distil, ManyReadOnlyPtFilesAreSamplesAFewAreARestore) {
  SimConfig c;
  c.ext = ".pt";
  c.files = 32;
  TraceSummary s;
  const auto d = run(c, &s);
  ASSERT_EQ(s.datasets.size(), 1u);
  EXPECT_EQ(s.datasets[0].files.size(), 32u);
  EXPECT_FALSE(s.checkpoint_restore);
  EXPECT_EQ(d.job.dataset.num_files, 32u);
  SimConfig few = c;
  few.files = 4;
  TraceSummary t;
  run(few, &t);
  EXPECT_TRUE(t.datasets.empty());
  EXPECT_TRUE(t.checkpoint_restore);
}

TEST(Distil, OneFileOfManySamplesReadASampleAtATime) {
  // 512 samples of 16 KiB in one HDF5-like file, read by 2 DataLoader workers a sample at a time
  // (64 KiB read-ahead + a label read), batch 8, shuffled, 3 epochs: the same inferences as for a
  // file per sample, and the job reads samples of one file.
  SimConfig c;
  c.one_file_samples = 512;
  c.workers = 2;
  c.batch = 8;
  c.epochs = 3;
  c.order = SimOrder::shuffled;
  c.ext = ".h5";
  TraceSummary s;
  const auto d = run(c, &s);
  ASSERT_EQ(s.sample_files.size(), 1u);
  EXPECT_EQ(s.sample_files[0].stride, 16384u);
  EXPECT_EQ(s.sample_files[0].base, 2048u);
  EXPECT_EQ(d.job.dataset.num_files, 1u);
  EXPECT_EQ(d.job.dataset.samples_per_file, 512u);
  EXPECT_EQ(d.job.dataset.sample_size, Distribution::fixed_at(16384));
  EXPECT_EQ(d.job.dataset.format, Format::hdf5);
  EXPECT_EQ(d.job.reader.read_unit, ReadUnit::sample);
  EXPECT_EQ(d.job.reader.readahead_bytes, 65536u);
  EXPECT_EQ(d.job.reader.header_read_bytes, 4096u);  // the label read per sample
  EXPECT_EQ(d.job.reader.shuffle, Shuffle::sample);
  EXPECT_EQ(d.job.reader.workers, 2u);
  EXPECT_EQ(d.job.reader.batch_size, 8u);
  EXPECT_EQ(d.job.run.epochs, 3u);
  EXPECT_NEAR(d.job.compute.step_time.expected(), 0.050, 0.005);
}

TEST(Distil, SamplesOffOneGridAreStillSamplesOfTheFile) {
  // An HDF5 dataset chunked by row: B-tree nodes between every 8 chunks put the samples off one
  // base + k x stride grid (traced with h5py: 1024 rows of 16 KiB, 2 workers, batch 16). Each
  // offset read is a sample; the node reads are the file's metadata.
  SimConfig c;
  c.one_file_samples = 512;
  c.sample_gap_every = 8;
  c.sample_readahead = 16384;
  c.workers = 2;
  c.batch = 16;
  c.epochs = 2;
  c.order = SimOrder::shuffled;
  c.ext = ".h5";
  TraceSummary s;
  const auto d = run(c, &s);
  ASSERT_EQ(s.sample_files.size(), 1u);
  EXPECT_EQ(s.sample_files[0].offsets.size(), 512u);
  EXPECT_EQ(s.sample_files[0].stride, 16384u);
  EXPECT_EQ(d.job.dataset.num_files, 1u);
  EXPECT_EQ(d.job.dataset.samples_per_file, 512u);
  EXPECT_EQ(d.job.dataset.sample_size, Distribution::fixed_at(16384));
  EXPECT_EQ(d.job.reader.read_unit, ReadUnit::sample);
  EXPECT_EQ(d.job.reader.shuffle, Shuffle::sample);
  EXPECT_EQ(d.job.reader.workers, 2u);
  EXPECT_EQ(d.job.reader.batch_size, 16u);
  EXPECT_EQ(d.job.run.epochs, 2u);
  EXPECT_FALSE(s.stream_shards) << "a file kept open across batches is not a stream";
}

TEST(Distil, MemoryMappedFileReadByPageFaults) {
  // np.load(mmap_mode="r") of one .npy of 2048 samples of 16 KiB, 2 workers, batch 16, shuffled,
  // 2 epochs: the trace has only page faults, one per 64 KiB window a worker touches first. The
  // job must still read the whole file per epoch, in as many steps of as many bytes.
  SimConfig c;
  c.one_file_samples = 2048;
  c.mapped = true;
  c.workers = 2;
  c.batch = 16;
  c.epochs = 2;
  c.order = SimOrder::shuffled;
  c.ext = ".npy";
  TraceSummary s;
  const auto d = run(c, &s);
  ASSERT_EQ(s.sample_files.size(), 1u);
  EXPECT_TRUE(s.sample_files[0].mapped);
  EXPECT_EQ(s.sample_files[0].fault_window, 65536u);
  const auto& ds = d.job.dataset;
  const double file = 128 + 2048.0 * 16384;
  const double bytes = double(ds.num_files) * ds.samples_per_file * ds.sample_size.expected();
  EXPECT_NEAR(bytes / file, 1.0, 0.05);
  EXPECT_EQ(ds.num_files, 1u);
  EXPECT_EQ(d.job.reader.read_unit, ReadUnit::sample);
  EXPECT_EQ(d.job.reader.workers, 2u);
  EXPECT_EQ(d.job.run.epochs, 2u);
  // The batch is the truth's 16 samples, counted from each worker's touches between its
  // hand-overs (before: 4 fault-around windows of 64 KiB), and the epoch the truth's 2048 of them.
  EXPECT_EQ(d.job.reader.batch_size, 16u);
  EXPECT_EQ(ds.samples_per_file, 2048u);
  // Bytes per step are the truth's (16 x 16 KiB) but for the file's last page: the 128-byte
  // header pushes the samples 4 KiB past 32 MiB, a page the epoch's windows read too (4096 B
  // over 2048 samples: 2 B a sample).
  EXPECT_EQ(ds.sample_size.expected(), 16384.0 + 2);
  EXPECT_TRUE(has_note(d, "memory-mapped and read by page faults"));
}

TEST(Distil, FilePerSampleDatasetsAreNotSplit) {
  SimConfig c;
  c.files = 200;
  TraceSummary s;
  run(c, &s);
  EXPECT_TRUE(s.sample_files.empty());
  EXPECT_TRUE(s.virtual_files.empty());
}

TEST(Summarize, EveryBatchIsAStepEvenWhenTheLastRunsIntoACheckpoint) {
  // torch.save serialises for a while before its first write: the gap after a pass's last
  // receipt is longer than a step. It still holds one step (n batches are n steps), as in a
  // replay's trace, so that the two compare equal.
  SimConfig c;
  c.files = 96;  // 12 batches of 8 per epoch
  c.compute_ns = 40'000'000;
  c.ckpt_every_epochs = 1;
  c.ckpt_delay_ns = 150'000'000;
  TraceSummary s;
  run(c, &s);
  std::size_t train_steps = 0;
  for (const auto& st : s.steps) train_steps += st.epoch >= 0 && !s.epochs[st.epoch].evaluation;
  EXPECT_EQ(train_steps, 3u * 12u);
}

TEST(Distil, ColdFirstEpochSeparatesWaitFromCompute) {
  SimConfig c;
  c.workers = 1;
  c.batch = 8;
  c.epochs = 2;
  c.size = 1 << 20;
  c.cold_factor = 20;  // epoch 0: 8 MiB × 40 ms/MiB = 320 ms of reading per batch
  c.compute_ns = 30'000'000;
  TraceSummary s;
  const auto d = run(c, &s);
  EXPECT_NEAR(d.job.compute.step_time.expected(), 0.030, 0.003);
  EXPECT_GT(s.data_wait_time.p90, 0.1);
  EXPECT_LT(s.au, 0.5);
}

TEST(Distil, AlwaysWaitingComputeIsAnUpperBoundAndSaid) {
  SimConfig c;
  c.workers = 1;
  c.batch = 8;
  c.size = 8 << 20;
  c.compute_ns = 30'000'000;
  TraceSummary s;
  const auto d = run(c, &s);
  EXPECT_TRUE(has_note(d, "upper bound"));
  EXPECT_LE(d.job.compute.step_time.expected(), s.step_time.p50);
}

TEST(Distil, CheckpointEveryEpoch) {
  SimConfig c;
  c.workers = 2;
  c.epochs = 4;
  c.ckpt_every_epochs = 1;
  c.ckpt_size = 6 << 20;
  TraceSummary s;
  const auto d = run(c, &s);
  ASSERT_EQ(s.checkpoints.size(), 4u);
  EXPECT_TRUE(d.job.checkpoint.enabled);
  EXPECT_EQ(d.job.checkpoint.every_epochs, 1u);
  EXPECT_EQ(d.job.checkpoint.every_steps, 0u);
  EXPECT_EQ(d.job.checkpoint.size_bytes, 6u << 20);
  EXPECT_EQ(d.job.checkpoint.files, 1u);
  EXPECT_EQ(d.job.checkpoint.write_size_bytes, 1u << 20);
  EXPECT_TRUE(d.job.checkpoint.fsync);
  EXPECT_EQ(d.job.run.epochs, 4u);
  // Checkpoint files are neither data nor noise.
  EXPECT_EQ(d.job.dataset.num_files, 64u);
}

TEST(Distil, CheckpointEveryTwoEpochs) {
  SimConfig c;
  c.epochs = 4;
  c.ckpt_every_epochs = 2;
  const auto d = run(c);
  EXPECT_EQ(d.job.checkpoint.every_epochs, 2u);
}

// A program saving only when its validation loss improved: checkpoints at epoch ends in no
// every-N rhythm are listed; the gcd rule would write one every epoch (6 for 3).
TEST(Distil, CheckpointsOnlyAfterSomeEpochsAreListed) {
  SimConfig c;
  c.epochs = 6;
  c.ckpt_after_epochs = {1, 2, 4};
  const auto d = run(c);
  EXPECT_EQ(d.job.checkpoint.after_epochs, (std::vector<std::uint32_t>{1, 2, 4}));
  EXPECT_EQ(d.job.checkpoint.every_epochs, 0u);
  EXPECT_EQ(d.job.checkpoint.every_steps, 0u);
  EXPECT_TRUE(d.job.checkpoint.after_epoch(4));
  EXPECT_FALSE(d.job.checkpoint.after_epoch(3));
  // Every second epoch of 5 is the rule's {2, 4}: no list.
  c.epochs = 5;
  c.ckpt_after_epochs = {2, 4};
  const auto r = run(c);
  EXPECT_EQ(r.job.checkpoint.every_epochs, 2u);
  EXPECT_TRUE(r.job.checkpoint.after_epochs.empty());
}

TEST(Distil, CheckpointEveryNSteps) {
  SimConfig c;
  c.workers = 3;
  c.batch = 8;
  c.files = 96;  // 12 steps per epoch
  c.epochs = 2;
  c.ckpt_every_steps = 5;
  TraceSummary s;
  const auto d = run(c, &s);
  EXPECT_EQ(s.checkpoints.size(), 4u);  // after steps 5, 10, 15, 20
  EXPECT_EQ(d.job.checkpoint.every_steps, 5u);
  EXPECT_EQ(d.job.checkpoint.every_epochs, 0u);
  EXPECT_EQ(d.job.reader.workers, 3u);
  // Compute excludes the steps that held a checkpoint write.
  EXPECT_NEAR(d.job.compute.step_time.expected(), 0.050, 0.005);
}

TEST(Distil, NoCheckpointWhenNothingWritten) {
  SimConfig c;
  c.epochs = 2;
  const auto d = run(c);
  EXPECT_FALSE(d.job.checkpoint.enabled);
  EXPECT_EQ(d.job.checkpoint.every_epochs, 0u);
}

TEST(Summarize, NoiseFilesAreIgnored) {
  SimConfig c;
  c.noise = true;
  TraceSummary s;
  const auto d = run(c, &s);
  ASSERT_EQ(s.datasets.size(), 1u);
  EXPECT_EQ(s.datasets[0].dir, "/mnt/datasets/unet/train");
  for (const auto& f : s.files) {
    if (f.path.ends_with(".py") || f.path.ends_with(".so.2") || f.path.ends_with(".yaml") ||
        f.path.ends_with(".pyc") || f.path.starts_with("/proc") || f.path.ends_with(".so")) {
      EXPECT_EQ(f.cls, FileClass::ignored) << f.path;
    }
  }
  EXPECT_EQ(d.job.dataset.num_files, 64u);
}

TEST(Summarize, ClassFoldersMergeIntoOneDatasetWithFanOut) {
  SimConfig c;
  c.files = 120;
  c.files_per_dir = 10;
  c.data_dir = "/data/imagenet/train";
  c.ext = ".JPEG";
  c.magic = 0xe0ffd8ff;
  c.chunk = 65536;
  c.size = 110000;
  TraceSummary s;
  const auto d = run(c, &s);
  ASSERT_EQ(s.datasets.size(), 1u);
  EXPECT_EQ(s.datasets[0].dir, "/data/imagenet/train");
  EXPECT_EQ(s.datasets[0].dirs, 12u);
  EXPECT_EQ(d.job.dataset.files_per_dir, 10u);
  EXPECT_EQ(d.job.dataset.format, Format::jpeg);
  EXPECT_EQ(s.datasets[0].read.request_bytes, 65536u);
  EXPECT_EQ(recipe_text(d.job.reader.recipe), "0+rest/64KiB");
  EXPECT_EQ(d.job.dataset.num_files, 120u);
  EXPECT_EQ(d.job.name, "imagenet");
}

// Parquet files recognised by their magic "PAR1" (little-endian 0x31524150), whatever their
// extension says.
TEST(Summarize, ParquetMagicWinsOverTheExtension) {
  SimConfig c;
  c.files = 16;
  c.ext = ".bin";
  c.magic = 0x31524150;
  c.size = 300000;
  TraceSummary s;
  const auto d = run(c, &s);
  ASSERT_EQ(s.datasets.size(), 1u);
  EXPECT_EQ(d.job.dataset.format, Format::parquet);
  EXPECT_NE(s.datasets[0].format_evidence.find("magic bytes of parquet"), std::string::npos)
      << s.datasets[0].format_evidence;
}

// PIL on JPEG folders: read(4096) for the header, read(61440) for the rest of a 64 KiB block, more
// 61440 reads for larger files, and a final read() == 0 at EOF.
TEST(Summarize, PilHeaderThenChunksAndEofReadsNotCounted) {
  SimConfig c;
  c.files = 96;
  c.ext = ".jpg";
  c.magic = 0xe0ffd8ff;
  c.header = 4096;
  c.chunk = 61440;
  for (std::uint32_t i = 0; i < c.files; ++i) c.sizes.push_back(20000 + (i * 617) % 50000);
  TraceSummary s;
  const auto d = run(c, &s);
  EXPECT_EQ(s.datasets[0].read.header_bytes, 4096u);
  EXPECT_EQ(s.datasets[0].read.request_bytes, 61440u);
  EXPECT_EQ(recipe_text(d.job.reader.recipe), "0+4KiB, 4KiB+rest/60KiB");
  std::uint64_t expected_reads = 0;
  for (auto sz : c.sizes) expected_reads += 1 + (sz - 4096 + 61439) / 61440;
  EXPECT_EQ(s.dataset_read_ops, expected_reads * c.epochs);
  EXPECT_EQ(s.request_sizes.count(0), 0u);
  EXPECT_EQ(s.request_sizes.at(4096), std::uint64_t(c.files) * c.epochs);
}

// Every read the same size: no header, only chunks.
TEST(Summarize, UniformChunksHaveNoHeader) {
  SimConfig c;
  c.size = 1 << 20;
  c.chunk = 131072;
  TraceSummary s;
  const auto d = run(c, &s);
  EXPECT_EQ(s.datasets[0].read.header_bytes, 0u);
  EXPECT_EQ(s.datasets[0].read.request_bytes, 131072u);
  EXPECT_EQ(recipe_text(d.job.reader.recipe), "0+rest/128KiB");
}

// numpy.load-like: a small header read, then the data in one read of the rest.
TEST(Summarize, HeaderThenRestInOneRequest) {
  SimConfig c;
  c.header = 128;
  for (std::uint32_t i = 0; i < c.files; ++i) c.sizes.push_back(200000 + i * 1000);
  const auto d = run(c, nullptr);
  EXPECT_EQ(d.job.reader.header_read_bytes, 128u);
  EXPECT_EQ(d.job.reader.request_size_bytes, 0u);
}

// PyTorch re-forks DataLoader workers each epoch: the gap before each pass's first read, after the
// last step and the checkpoint, is distilled into reader.startup (the first pass is left out).
TEST(Summarize, EpochStartupGapIsMeasured) {
  SimConfig c;
  c.epochs = 4;
  c.startup_ns = 300'000'000;
  c.ckpt_every_epochs = 1;
  TraceSummary s;
  const auto d = run(c, &s);
  ASSERT_EQ(s.pass_startup_s.size(), 3u);
  EXPECT_NEAR(d.job.reader.startup_s, 0.3, 0.01);
  SimConfig quick = c;
  quick.startup_ns = 0;
  EXPECT_EQ(run(quick, nullptr).job.reader.startup_s, 0.0);
}

// A worker that decodes each sample after reading it opens the next file only after that work:
// the gap is distilled into reader.preprocess; none is written when readers go straight on.
TEST(Summarize, PerSamplePreprocessTimeIsMeasured) {
  SimConfig c;
  c.workers = 2;
  c.preprocess_ns = 3'000'000;
  const auto d = run(c, nullptr);
  EXPECT_NEAR(d.job.reader.preprocess.expected(), 0.003, 0.0003);
  SimConfig none = c;
  none.preprocess_ns = 0;
  EXPECT_EQ(run(none, nullptr).job.reader.preprocess.expected(), 0.0);
}

TEST(Summarize, ValidationSetIsSeparatedAndCounted) {
  SimConfig c;
  c.data_dir = "/data/ds/train";
  c.val_dir = "/data/ds/val";
  c.val_files = 16;
  c.epochs = 3;
  TraceSummary s;
  const auto d = run(c, &s);
  ASSERT_GE(s.datasets.size(), 2u);
  ASSERT_TRUE(d.job.validation.has_value());
  EXPECT_EQ(d.job.validation->num_files, 16u);
  EXPECT_EQ(d.job.dataset.num_files, 64u);
  EXPECT_EQ(d.job.run.epochs, 3u);
  EXPECT_EQ(d.job.run.eval_every_epochs, 1u);
  EXPECT_NE(d.job.validation->dir, d.job.dataset.dir);
  // Evaluation steps compute a third of a training step in the simulation: their own time.
  ASSERT_TRUE(d.job.compute.eval_time.has_value());
  EXPECT_NEAR(d.job.compute.eval_time->expected(), 0.050 / 3, 0.001);
  EXPECT_NEAR(d.job.compute.step_time.expected(), 0.050, 0.002);
}

// A validation set that is not a multiple of the batch ends each pass in a partial batch: 12 files
// in batches of 8 hand over 8 and 4, each as often. The remainder is not the evaluation batch (it
// made csv_split.py's replay take 3 steps of 28 where the program took 2 of 32 and 28).
TEST(Distil, AnEvaluationPassesRemainderIsNotItsBatch) {
  SimConfig c;
  c.data_dir = "/data/ds/train";
  c.val_dir = "/data/ds/val";
  c.val_files = 12;
  c.epochs = 2;
  TraceSummary s;
  const auto d = run(c, &s);
  ASSERT_TRUE(d.job.validation.has_value());
  EXPECT_EQ(d.job.validation->num_files, 12u);
  EXPECT_EQ(d.job.reader.batch_size, 8u);
  EXPECT_EQ(d.job.reader.eval_batch_size, 0u) << "evaluated in the training batch";
}

// `dlgen distil` writes the validation set to "<name>-val" beside "<name>", and `dlgen run` lays
// both out in class folders: the two trees are siblings with one extension, which merged into one
// dataset (validation files counted in the epochs, 4 readers, too many steps) until a split word in
// a directory's name ("imgs-val", "val2017") stopped the merge. A split word in a directory above
// both ("/tmp/test-7") says nothing about either.
TEST(Summarize, ValidationTreeBesideTheTrainingTreeIsItsOwnSet) {
  struct Case {
    std::string train, val;
  };
  for (const Case& k : {Case{"/tmp/test-7/data/imgs", "/tmp/test-7/data/imgs-val"},
                        Case{"/data/coco/train2017", "/data/coco/val2017"}}) {
    SimConfig c;
    c.data_dir = k.train;
    c.val_dir = k.val;
    c.files_per_dir = 16;
    c.val_files = 32;
    c.epochs = 2;
    TraceSummary s;
    const auto d = run(c, &s);
    ASSERT_EQ(s.datasets.size(), 2u) << k.val;
    EXPECT_EQ(s.datasets[0].dir, k.train);
    EXPECT_EQ(s.datasets[0].cls, FileClass::train);
    EXPECT_EQ(s.datasets[1].dir, k.val);
    EXPECT_EQ(s.datasets[1].cls, FileClass::validation);
    ASSERT_EQ(s.epochs.size(), 4u) << k.val;
    for (std::size_t i = 0; i < s.epochs.size(); ++i) {
      const auto& e = s.epochs[i];
      EXPECT_EQ(e.evaluation, i % 2 == 1);
      EXPECT_EQ(e.unique_files, e.evaluation ? 32u : 64u);
      EXPECT_EQ(e.steps, e.evaluation ? 4u : 8u);
      EXPECT_EQ(e.reader_count, 2u);
    }
    EXPECT_EQ(d.job.dataset.num_files, 64u);
    ASSERT_TRUE(d.job.validation.has_value());
    EXPECT_EQ(d.job.validation->num_files, 32u);
    EXPECT_EQ(d.job.reader.workers, 2u);
    EXPECT_EQ(d.job.run.eval_every_epochs, 1u);
  }
}

// A validation word in a directory above the training set ("test-runs") does not make it a
// validation set, even when another file read elsewhere (a cache blob under /tmp) shares nothing
// with it but "/".
TEST(Summarize, AValidationWordAboveTheTrainingSetDoesNotCount) {
  SimConfig c;
  c.data_dir = "/home/ci/test-runs/data";
  c.epochs = 2;
  trace::Trace t = Sim(c).build();
  trace::File blob;
  blob.path = "/tmp/cache/blob.bin";
  blob.size_at_open = 4096;
  t.files.push_back(blob);
  const auto f = static_cast<std::uint32_t>(t.files.size() - 1);
  trace::Event e;
  e.pid = e.tid = 100;
  e.file = f;
  e.fd = 9;
  e.ts_ns = 500'000;
  e.op = trace::Op::open;
  e.ret = 9;
  t.events.insert(t.events.begin(), e);
  e.op = trace::Op::read;
  e.ts_ns = 600'000;
  e.size = 4096;
  e.ret = 4096;
  t.events.insert(t.events.begin() + 1, e);
  const auto s = summarize(t);
  ASSERT_GE(s.datasets.size(), 1u);
  EXPECT_EQ(s.datasets[0].dir, "/home/ci/test-runs/data");
  EXPECT_EQ(s.datasets[0].cls, FileClass::train);
  EXPECT_EQ(train_dataset(s), 0);
}

// "train_val" names both splits, so neither: such a tree is an ordinary dataset.
TEST(Summarize, ADirectoryNamingBothSplitsIsTraining) {
  SimConfig c;
  c.data_dir = "/data/voc/train_val";
  TraceSummary s;
  run(c, &s);
  ASSERT_EQ(s.datasets.size(), 1u);
  EXPECT_EQ(s.datasets[0].cls, FileClass::train);
  EXPECT_EQ(s.epochs.size(), 3u);
}

TEST(Summarize, ThreadReadersWithoutHandoversUseReadBursts) {
  SimConfig c;
  c.files = 256;
  c.workers = 2;
  c.batch = 8;
  c.epochs = 2;
  c.thread_readers = true;  // like dlgen's own replay: reader threads, no sendmsg or /dev/shm
  TraceSummary s;
  const auto d = run(c, &s);
  EXPECT_EQ(d.job.reader.workers, 2u);
  EXPECT_EQ(s.accelerators.size(), 1u);
  EXPECT_TRUE(s.batches_from_read_bursts);
  EXPECT_EQ(d.job.reader.batch_size, 8u);
  EXPECT_NEAR(d.job.compute.step_time.expected(), 0.050, 0.005);
  EXPECT_TRUE(has_note(d, "bursts"));
}

TEST(Summarize, NoBatchSignalAtAllIsSaid) {
  SimConfig c;
  c.files = 16;
  c.workers = 4;
  c.thread_readers = true;
  c.batch = 4;
  c.epochs = 1;
  const auto d = run(c);  // each reader reads one batch: no cadence to measure
  EXPECT_TRUE(has_note(d, "compute"));
}

// A main process that loads its own batches (PyTorch num_workers=0): no handovers, so batches
// come from its reads. It loads a batch (each sample read, then decoded for 2 ms), then computes
// 50 ms: workers = 0 (loading and compute take turns), batch 8, compute the gap before each
// batch, preprocess the gaps inside one, never the other way round.
TEST(Summarize, MainProcessLoadingItsOwnBatches) {
  for (std::uint32_t batch : {1u, 4u, 8u}) {
    SCOPED_TRACE("batch " + std::to_string(batch));
    SimConfig c;
    c.workers = 0;
    c.batch = batch;
    c.preprocess_ns = batch > 1 ? 2'000'000 : 0;
    TraceSummary s;
    const auto d = run(c, &s);
    EXPECT_EQ(d.job.reader.workers, 0u);
    ASSERT_EQ(s.accelerators.size(), 1u);
    EXPECT_TRUE(s.accelerators[0].reads_itself);
    EXPECT_EQ(d.job.run.epochs, 3u);
    EXPECT_EQ(d.job.reader.batch_size, batch);
    // Compute: 50 ms, plus the 0.3 ms the simulated hand-over adds, plus the last sample's decode.
    const double decode = static_cast<double>(c.preprocess_ns) * 1e-9;
    EXPECT_NEAR(d.job.compute.step_time.expected(), 0.0503 + decode, 0.002);
    EXPECT_NEAR(d.job.reader.preprocess.expected(), decode, 0.0005);
    EXPECT_TRUE(has_note(d, "reads its own samples"));
  }
}

// A per-sample loop whose gaps only scatter (a loaded host: every 5th gap 4x longer) is not read
// as batches: each sample is a step of its own.
TEST(Summarize, MainProcessPerSampleLoopWithNoisyGapsIsBatchOne) {
  SimConfig c;
  c.workers = 0;
  c.batch = 1;
  c.compute_ns = 2'000'000;
  c.compute_tail_every = 5;
  const auto d = run(c);
  EXPECT_EQ(d.job.reader.workers, 0u);
  EXPECT_EQ(d.job.reader.batch_size, 1u);
  EXPECT_EQ(d.job.reader.preprocess.expected(), 0.0);
}

TEST(Distil, DropLastDetected) {
  SimConfig c;
  c.files = 70;  // 8 full batches of 8, 6 left over
  c.batch = 8;
  c.drop_last = true;
  c.order = SimOrder::shuffled;
  c.epochs = 3;
  const auto d = run(c);
  EXPECT_TRUE(d.job.reader.drop_last);
  EXPECT_EQ(d.job.reader.batch_size, 8u);
  EXPECT_EQ(d.job.dataset.num_files, 70u);
}

TEST(Distil, SizeDistributionFits) {
  SimConfig c;
  c.files = 200;
  c.epochs = 1;
  c.workers = 1;
  c.compute_ns = 1'000'000;
  c.ext = ".bin";
  c.magic_len = 0;
  std::mt19937 rng(3);
  std::normal_distribution<double> nd(4e6, 5e5);
  for (std::uint32_t i = 0; i < c.files; ++i)
    c.sizes.push_back(static_cast<std::uint64_t>(nd(rng)));
  auto d = run(c);
  EXPECT_EQ(d.job.dataset.format, Format::raw);
  EXPECT_TRUE(d.job.dataset.sample_size.kind == DistKind::normal ||
              d.job.dataset.sample_size.kind == DistKind::lognormal);
  EXPECT_NEAR(d.job.dataset.sample_size.mean, 4e6, 1e5);

  c.sizes.clear();
  c.size = 1 << 20;
  d = run(c);
  EXPECT_EQ(d.job.dataset.sample_size.kind, DistKind::fixed);
  EXPECT_EQ(d.job.dataset.sample_size.value, double(1 << 20));

  // Two clusters: no single parametric shape fits, so the exact histogram is kept.
  c.sizes.clear();
  for (std::uint32_t i = 0; i < c.files; ++i) c.sizes.push_back(i % 2 ? 1000 : 9000000);
  d = run(c);
  ASSERT_EQ(d.job.dataset.sample_size.kind, DistKind::histogram);
  ASSERT_EQ(d.job.dataset.sample_size.bins.size(), 2u);
  EXPECT_EQ(d.job.dataset.sample_size.bins[0].lo, 1000);
  EXPECT_EQ(d.job.dataset.sample_size.bins[0].weight, 100);
}

TEST(Distil, NpzSampleSizeExcludesFraming) {
  SimConfig c;
  c.size = 1 << 20;
  const auto d = run(c);
  ASSERT_EQ(d.job.dataset.sample_size.kind, DistKind::fixed);
  EXPECT_LT(d.job.dataset.sample_size.value, double(1 << 20));
  EXPECT_GT(d.job.dataset.sample_size.value, double(1 << 20) - 4096);
}

TEST(Distil, OutputIsAValidJobFile) {
  SimConfig c;
  c.ckpt_every_epochs = 1;
  c.val_dir = "/mnt/datasets/unet/val";
  const auto d = run(c);
  const std::string text = to_toml(d.job, d.comments);
  EXPECT_NE(text.find("# "), std::string::npos);
  auto parsed = parse_job(text, "distilled.toml");
  ASSERT_TRUE(parsed) << parsed.error().message << "\n" << text;
  EXPECT_EQ(parsed->reader.batch_size, d.job.reader.batch_size);
  EXPECT_EQ(parsed->dataset.num_files, d.job.dataset.num_files);
  EXPECT_EQ(parsed->checkpoint.every_epochs, 1u);
  EXPECT_FALSE(to_json(summarize(Sim(c).build())).empty());
}

TEST(Summarize, TextTrace) {
  const char* text = R"(meta command="python3 train.py" duration=1s
file path=/usr/lib/python3.11/json/__init__.py size=12KiB
file path=/srv/d/a_0.npy size=1MiB
file path=/srv/d/a_1.npy size=1MiB
file path=/srv/d/a_2.npy size=1MiB
proc pid=10 comm=python3 start=0
ts=1ms dur=10us pid=10 op=open file=/usr/lib/python3.11/json/__init__.py ret=3
ts=2ms dur=10us pid=10 op=read file=/usr/lib/python3.11/json/__init__.py fd=3 off=0 size=12KiB ret=12KiB
ts=3ms dur=10us pid=10 op=open file=/srv/d/a_0.npy ret=4
ts=4ms dur=100us pid=10 op=read file=/srv/d/a_0.npy fd=4 off=0 size=1MiB ret=1MiB
ts=5ms dur=10us pid=10 op=open file=/srv/d/a_1.npy ret=4
ts=6ms dur=100us pid=10 op=read file=/srv/d/a_1.npy fd=4 off=0 size=1MiB ret=1MiB
ts=7ms dur=10us pid=10 op=open file=/srv/d/a_2.npy ret=4
ts=8ms dur=100us pid=10 op=read file=/srv/d/a_2.npy fd=4 off=0 size=1MiB ret=1MiB
ts=9ms dur=10us pid=10 op=open file=/srv/d/a_0.npy ret=4
ts=10ms dur=100us pid=10 op=read file=/srv/d/a_0.npy fd=4 off=0 size=1MiB ret=1MiB
)";
  auto t = trace::parse_trace_text(text);
  ASSERT_TRUE(t) << t.error().message;
  const auto s = summarize(*t);
  ASSERT_EQ(s.datasets.size(), 1u);
  EXPECT_EQ(s.datasets[0].files.size(), 3u);
  EXPECT_EQ(s.datasets[0].dir, "/srv/d");
  EXPECT_EQ(s.epochs.size(), 2u);  // a_0 read again starts a second pass
  EXPECT_EQ(s.dataset_bytes_read, 4u << 20);
  EXPECT_EQ(s.bytes_read, (4u << 20) + 12 * 1024);
}

}  // namespace
}  // namespace dlgen::analysis
