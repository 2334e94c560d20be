// The epoch plan: seeded, complete (every sample once per epoch), reshuffled per epoch, sharded.
#include "dlgen/replay/plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

namespace dlgen::replay {
namespace {

Job make_job(std::uint64_t files, std::uint32_t per_file, std::uint32_t batch, Shuffle shuffle) {
  Job job;
  job.name = "plan";
  job.dataset.dir = "/nonexistent/plan";
  job.dataset.num_files = files;
  job.dataset.samples_per_file = per_file;
  job.dataset.sample_size = Distribution::fixed_at(1000);
  job.reader.batch_size = batch;
  job.reader.shuffle = shuffle;
  job.reader.seed = 42;
  job.compute.step_time = Distribution::fixed_at(0.1);
  return job;
}

std::vector<SampleRef> all_samples(const EpochPlan& p) {
  std::vector<SampleRef> out;
  for (const auto& a : p.accelerators) out.insert(out.end(), a.samples.begin(), a.samples.end());
  return out;
}

// Every (file, sample) of the dataset exactly once.
void expect_exactly_once(const std::vector<SampleRef>& got, std::uint64_t files,
                         std::uint32_t per_file) {
  ASSERT_EQ(got.size(), files * per_file);
  std::set<std::pair<std::uint64_t, std::uint32_t>> seen;
  for (const auto& r : got) {
    ASSERT_LT(r.file, files);
    ASSERT_LT(r.sample, per_file);
    EXPECT_TRUE(seen.insert({r.file, r.sample}).second)
        << "duplicate " << r.file << ":" << r.sample;
  }
}

// reader.startup_spread: per pass the first accelerator starts at 0 and the last at the drawn
// spread, the others evenly between; which accelerator goes first changes with the seed (the
// pass); the same seed gives the same offsets; one accelerator or no spread: all start at once.
TEST(Plan, AcceleratorStartOffsetsSpanTheSpreadEvenlyInASeededOrder) {
  const Distribution spread = Distribution::fixed_at(0.3);
  std::set<std::vector<std::int64_t>> orders;
  for (std::uint64_t seed = 0; seed < 32; ++seed) {
    const auto off = accelerator_start_offsets(spread, seed, 4);
    ASSERT_EQ(off.size(), 4u);
    std::vector<std::int64_t> sorted = off;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted, (std::vector<std::int64_t>{0, 100'000'000, 200'000'000, 300'000'000}));
    EXPECT_EQ(off, accelerator_start_offsets(spread, seed, 4));
    orders.insert(off);
  }
  EXPECT_GT(orders.size(), 8u) << "the order must change from pass to pass";
  const auto two = accelerator_start_offsets(spread, 7, 2);
  EXPECT_EQ(std::max(two[0], two[1]) - std::min(two[0], two[1]), 300'000'000);
  EXPECT_EQ(accelerator_start_offsets(spread, 7, 1), (std::vector<std::int64_t>{0}));
  EXPECT_EQ(accelerator_start_offsets(Distribution{}, 7, 3), (std::vector<std::int64_t>(3, 0)));
  // A histogram of spreads: each pass draws one of them.
  Distribution h;
  h.kind = DistKind::histogram;
  h.bins = {{0.1, 0.1, 1}, {0.2, 0.2, 1}};
  std::set<std::int64_t> seen;
  for (std::uint64_t seed = 0; seed < 32; ++seed) {
    const auto off = accelerator_start_offsets(h, seed, 2);
    seen.insert(std::max(off[0], off[1]));
  }
  EXPECT_EQ(seen, (std::set<std::int64_t>{100'000'000, 200'000'000}));
}

TEST(Plan, NoShuffleIsFileOrder) {
  const Job job = make_job(5, 3, 4, Shuffle::none);
  const EpochPlan p = plan_epoch(job, 0);
  ASSERT_EQ(p.accelerators.size(), 1u);
  const auto& s = p.accelerators[0].samples;
  for (std::size_t i = 0; i < s.size(); ++i)
    EXPECT_EQ(s[i], (SampleRef{i / 3, static_cast<std::uint32_t>(i % 3)}));
  EXPECT_EQ(p.accelerators[0].num_batches(), 4u);  // 15 samples, batch 4, last batch of 3 kept
  EXPECT_EQ(p.accelerators[0].batch(3).size(), 3u);
}

TEST(Plan, EverySampleExactlyOncePerEpochForEveryShuffle) {
  for (Shuffle sh : {Shuffle::none, Shuffle::file, Shuffle::sample}) {
    for (std::uint64_t buffer : {0, 7}) {
      Job job = make_job(37, 5, 8, sh);
      job.reader.shuffle_buffer = buffer;
      job.run.accelerators = 3;
      for (std::uint32_t e = 0; e < 3; ++e)
        expect_exactly_once(all_samples(plan_epoch(job, e)), 37, 5);
    }
  }
}

TEST(Plan, SameSeedSamePlanAndEpochsDiffer) {
  for (Shuffle sh : {Shuffle::file, Shuffle::sample}) {
    const Job job = make_job(200, 2, 16, sh);
    const auto a = all_samples(plan_epoch(job, 1));
    EXPECT_EQ(a, all_samples(plan_epoch(job, 1)));
    const auto b = all_samples(plan_epoch(job, 2));
    EXPECT_NE(a, b) << "epoch 2 must be reshuffled";
    std::size_t same = 0;
    for (std::size_t i = 0; i < a.size(); ++i) same += a[i] == b[i];
    EXPECT_LT(same, a.size() / 10) << "the reshuffle must change most positions";
    Job other = job;
    other.reader.seed = 43;
    EXPECT_NE(a, all_samples(plan_epoch(other, 1)));
  }
}

TEST(Plan, FileShuffleKeepsAFilesSamplesTogether) {
  const Job job = make_job(50, 4, 1000, Shuffle::file);
  const auto s = all_samples(plan_epoch(job, 0));
  for (std::size_t i = 0; i < s.size(); i += 4)
    for (std::uint32_t j = 0; j < 4; ++j) EXPECT_EQ(s[i + j], (SampleRef{s[i].file, j}));
}

// shuffle_block: every sample once an epoch, in runs of `block` consecutive samples of one file
// that start on the file's grid of blocks (a file's last block shorter), the blocks' order
// reshuffled every epoch.
TEST(Plan, BlockShuffleKeepsBlocksOfConsecutiveSamples) {
  Job job = make_job(4, 150, 40, Shuffle::sample);
  job.reader.shuffle_block = 40;
  std::vector<std::vector<SampleRef>> epochs;
  for (std::uint32_t e = 0; e < 2; ++e) {
    const auto s = all_samples(plan_epoch(job, e));
    expect_exactly_once(s, 4, 150);
    std::size_t blocks = 0;
    for (std::size_t i = 0; i < s.size();) {
      ASSERT_EQ(s[i].sample % 40, 0u) << "a block starts on its file's grid, at " << i;
      const std::uint32_t len = std::min<std::uint32_t>(40, 150 - s[i].sample);
      for (std::uint32_t j = 0; j < len; ++j)
        ASSERT_EQ(s[i + j], (SampleRef{s[i].file, s[i].sample + j}));
      i += len, ++blocks;
    }
    EXPECT_EQ(blocks, 16u);  // 4 files of 3 blocks of 40 and one of 30
    epochs.push_back(s);
  }
  EXPECT_NE(epochs[0], epochs[1]) << "the blocks are reshuffled every epoch";
  job.reader.shuffle_block = 0;
  const auto plain = all_samples(plan_epoch(job, 0));
  std::size_t runs = 0;
  for (std::size_t i = 1; i < plain.size(); ++i)
    runs += !(plain[i].file == plain[i - 1].file && plain[i].sample == plain[i - 1].sample + 1);
  EXPECT_GT(runs, plain.size() / 2) << "without blocks, samples are shuffled one by one";
}

TEST(Plan, ShuffleBufferMovesSamplesBackAtMostItsSize) {
  DatasetSpec d;
  d.num_files = 1000;
  ReaderSpec r;
  r.shuffle = Shuffle::sample;
  r.shuffle_buffer = 16;
  r.seed = 1;
  const auto order = epoch_order(d, r, 0);
  ASSERT_EQ(order.size(), 1000u);
  // The stream before the buffer is the (file-shuffled) order: recompute it without a buffer.
  ReaderSpec file_only = r;
  file_only.shuffle = Shuffle::file;
  file_only.shuffle_buffer = 0;
  const auto stream = epoch_order(d, file_only, 0);
  std::vector<std::size_t> pos_in_stream(1000);
  for (std::size_t i = 0; i < stream.size(); ++i) pos_in_stream[stream[i]] = i;
  std::size_t moved = 0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    // A sample at stream position p enters the buffer after p-16 outputs: it leaves no earlier.
    EXPECT_GE(i + 16, pos_in_stream[order[i]]);
    moved += pos_in_stream[order[i]] != i;
  }
  EXPECT_GT(moved, 900u);
  EXPECT_NE(order, epoch_order(d, r, 1));
}

TEST(Plan, ShardsAcrossAcceleratorsAndRanksWithoutOverlap) {
  Job job = make_job(101, 1, 4, Shuffle::sample);
  job.run.accelerators = 2;
  std::vector<SampleRef> all;
  std::set<std::uint32_t> ids;
  for (std::uint32_t rank = 0; rank < 3; ++rank) {
    const EpochPlan p = plan_epoch(job, 0, {rank, 3});
    ASSERT_EQ(p.accelerators.size(), 2u);
    for (const auto& a : p.accelerators) {
      ids.insert(a.global_id);
      EXPECT_NEAR(static_cast<double>(a.samples.size()), 101.0 / 6, 1.0);
    }
    const auto s = all_samples(p);
    all.insert(all.end(), s.begin(), s.end());
  }
  EXPECT_EQ(ids, (std::set<std::uint32_t>{0, 1, 2, 3, 4, 5}));
  expect_exactly_once(all, 101, 1);
}

TEST(Plan, DropLastKeepsOnlyFullBatches) {
  Job job = make_job(103, 1, 10, Shuffle::file);
  job.run.accelerators = 2;
  job.reader.drop_last = true;
  const EpochPlan p = plan_epoch(job, 0);
  for (const auto& a : p.accelerators) {
    EXPECT_EQ(a.num_batches(), 5u);  // 103 → 102 usable → 51 each → 5 full batches
    for (std::size_t k = 0; k < a.num_batches(); ++k) EXPECT_EQ(a.batch(k).size(), 10u);
  }
  job.reader.drop_last = false;
  const EpochPlan q = plan_epoch(job, 0);
  EXPECT_EQ(q.num_samples(), 103u);
  EXPECT_EQ(q.num_steps(), 6u);
}

// reader.batch_size as a distribution (a token-budget sampler's batches): an epoch's 71 batch
// sizes as a histogram (each size weighted by its batches) plan to exactly those 71 sizes every
// epoch, in an order that changes with the epoch, every sample once; a planner that cut batches of
// the mean (17) would give 71 batches of one size, and one of the commonest size (2) 600.
TEST(Plan, VaryingBatchesAreDrawnFromTheirDistributionEveryEpoch) {
  Job job = make_job(1200, 1, 1, Shuffle::sample);
  job.reader.batch_sizes.kind = DistKind::histogram;
  job.reader.batch_sizes.bins = {{2, 2, 20}, {11, 11, 30}, {30, 30, 1}, {40, 40, 20}};
  job.reader.batch_size = 17;  // the mean, as the reader sets it: 1200 / 71
  std::multiset<std::uint64_t> epoch_sizes;
  for (int i = 0; i < 20; ++i) epoch_sizes.insert(2);
  for (int i = 0; i < 30; ++i) epoch_sizes.insert(11);
  for (int i = 0; i < 20; ++i) epoch_sizes.insert(40);
  epoch_sizes.insert(30);
  std::set<std::vector<std::uint64_t>> orders;
  for (std::uint32_t epoch = 0; epoch < 3; ++epoch) {
    const EpochPlan p = plan_epoch(job, epoch);
    expect_exactly_once(all_samples(p), 1200, 1);
    ASSERT_EQ(p.num_steps(), 71u);
    std::vector<std::uint64_t> sizes;
    for (std::size_t k = 0; k < p.accelerators[0].num_batches(); ++k)
      sizes.push_back(p.accelerators[0].batch_size(k));
    EXPECT_EQ(std::multiset<std::uint64_t>(sizes.begin(), sizes.end()), epoch_sizes);
    orders.insert(sizes);
    EXPECT_EQ(sizes, [&] {
      std::vector<std::uint64_t> again;
      const EpochPlan q = plan_epoch(job, epoch);
      for (std::size_t k = 0; k < q.accelerators[0].num_batches(); ++k)
        again.push_back(q.accelerators[0].batch_size(k));
      return again;
    }()) << "the same seed and epoch must give the same batches";
  }
  EXPECT_EQ(orders.size(), 3u) << "each epoch its own order of batch sizes";
  // Evaluation passes are cut in batches of one size (batch_size, the mean).
  job.validation = job.dataset;
  job.validation->num_files = 68;
  const EpochPlan e = plan_eval(job, 0);
  EXPECT_EQ(e.num_steps(), 4u);
  EXPECT_EQ(e.accelerators[0].batch_size(0), 17u);
}

// Batches drawn from a continuous distribution: every accelerator's share in round(share / mean)
// batches whatever the sharding, drop_last (no partial batch to drop) and max_steps; what the dry
// run counts and most_batches are what the plan holds.
TEST(Plan, VaryingBatchesKeepStepsAtSamplesOverTheMean) {
  for (std::uint32_t accs : {1u, 3u})
    for (std::uint32_t ranks : {1u, 2u})
      for (bool drop_last : {false, true})
        for (std::uint64_t max_steps : {0u, 5u}) {
          Job job = make_job(1000, 1, 10, Shuffle::sample);
          job.reader.batch_sizes.kind = DistKind::lognormal;
          job.reader.batch_sizes.mean = 10;
          job.reader.batch_sizes.stdev = 6;
          job.reader.batch_sizes.min = 1;
          job.reader.drop_last = drop_last;
          job.run.accelerators = accs;
          job.run.max_steps = max_steps;
          const std::string at = "accs " + std::to_string(accs) + " ranks " +
                                 std::to_string(ranks) + " drop_last " + std::to_string(drop_last) +
                                 " max_steps " + std::to_string(max_steps);
          std::uint64_t most = 0;
          for (std::uint32_t rank = 0; rank < ranks; ++rank) {
            const Topology t{rank, ranks};
            const EpochPlan p = plan_epoch(job, 0, t);  // the dry run's epoch
            std::set<std::uint64_t> distinct;
            for (const AcceleratorPlan& a : p.accelerators) {
              const std::uint64_t share = 1000 / (accs * ranks) + 1;  // within one
              const std::uint64_t want = max_steps ? max_steps : (share + 5) / 10;
              EXPECT_NEAR(double(a.num_batches()), double(want), 1.0) << at;
              if (max_steps == 0) {
                EXPECT_GE(a.num_samples() + 1, share - 1) << at;
                EXPECT_LE(a.num_samples(), share) << at;
              }
              for (std::size_t k = 0; k < a.num_batches(); ++k) distinct.insert(a.batch_size(k));
            }
            if (max_steps == 0) {
              EXPECT_GE(distinct.size(), 4u) << at;
            }
            const PlanSummary s = summarize_plan(job, t);
            EXPECT_EQ(s.steps_per_epoch, p.num_steps()) << at;
            EXPECT_EQ(s.samples_per_epoch, p.num_samples()) << at;
            most = std::max<std::uint64_t>(most, p.num_steps());
          }
          EXPECT_EQ(most_batches(job.dataset, job.reader, job.run, Phase::train, ranks), most)
              << at;
        }
}

// dataset.files_per_sample: a sample is k consecutive files (an image and its label), kept
// together and in order inside its batch, every file once an epoch; batch_size counts samples, and
// drop_last, sharding and most_batches count them too.
TEST(Plan, SamplesOfSeveralFilesStayTogetherInTheirBatch) {
  for (bool drop_last : {false, true})
    for (std::uint32_t accs : {1, 2}) {
      Job job = make_job(42, 1, 4, Shuffle::file);  // 21 samples of 2 files
      job.dataset.files_per_sample = 2;
      job.reader.drop_last = drop_last;
      job.run.accelerators = accs;
      const EpochPlan p = plan_epoch(job, 1);
      std::uint64_t samples = 0;
      for (const auto& a : p.accelerators) {
        for (std::size_t b = 0; b < a.num_batches(); ++b) {
          const auto batch = a.batch(b);
          ASSERT_EQ(batch.size() % 2, 0u);
          if (drop_last || b + 1 < a.num_batches()) {
            EXPECT_EQ(batch.size(), 8u);
          }
          for (std::size_t i = 0; i < batch.size(); i += 2) {
            EXPECT_EQ(batch[i].file % 2, 0u);                 // a sample's first file...
            EXPECT_EQ(batch[i + 1].file, batch[i].file + 1);  // ...then its second
          }
        }
        samples += a.samples.size() / 2;
      }
      if (!drop_last) expect_exactly_once(all_samples(p), 42, 1);
      // 21 samples: one accelerator 5 full batches + 1 sample; two: 10 + 10 (drop_last: the
      // 21st dropped, then 2 full batches each and 2 samples over).
      EXPECT_EQ(samples, drop_last ? (accs == 1 ? 20u : 16u) : 21u);
      EXPECT_EQ(p.num_steps(), most_batches(job.dataset, job.reader, job.run, Phase::train, 1));
      const PlanSummary sum = summarize_plan(job);
      EXPECT_EQ(sum.samples_per_epoch, samples);
      EXPECT_EQ(sum.files, 42u);
    }
  // The order still changes between epochs, by whole samples.
  Job job = make_job(40, 1, 2, Shuffle::file);
  job.dataset.files_per_sample = 2;
  EXPECT_NE(all_samples(plan_epoch(job, 0)), all_samples(plan_epoch(job, 1)));
}

// summarize_plan counts the samples and steps without building the plan (a dry run of MLPerf's
// 4.3 billion dlrm rows needs none); its counts are the plan's for every shape of sharding.
TEST(Plan, SummaryCountsWhatThePlanHolds) {
  for (std::uint32_t accs : {1u, 3u})
    for (std::uint32_t ranks : {1u, 2u})
      for (bool drop_last : {false, true})
        for (std::uint64_t max_steps : {0u, 2u})
          for (std::uint32_t k : {1u, 2u}) {
            Job job = make_job(46, 3, 4, Shuffle::sample);
            job.run.accelerators = accs;
            job.run.max_steps = max_steps;
            job.reader.drop_last = drop_last;
            job.reader.eval_batch_size = 5;
            job.dataset.files_per_sample = k;
            job.validation = job.dataset;
            job.validation->num_files = 14;
            job.run.eval_every_epochs = 1;
            for (std::uint32_t rank = 0; rank < ranks; ++rank) {
              const Topology t{rank, ranks};
              const EpochPlan train = plan_epoch(job, 0, t);
              const PlanSummary s = summarize_plan(job, t);
              const std::string at = "accs " + std::to_string(accs) + " ranks " +
                                     std::to_string(ranks) + " rank " + std::to_string(rank) +
                                     " drop_last " + std::to_string(drop_last) + " max_steps " +
                                     std::to_string(max_steps) + " k " + std::to_string(k);
              EXPECT_EQ(s.samples_per_epoch, train.num_samples() / k) << at;
              EXPECT_EQ(s.steps_per_epoch, train.num_steps()) << at;
              EXPECT_EQ(s.eval_steps, plan_eval(job, 0, t).num_steps()) << at;
            }
          }
}

// read = "row_group" in a file-level order is planned by arithmetic (OrderShard): the same samples
// in the same batches as the listed plan of the same order (read = "sample"), for every sharding,
// drop_last, max_steps, epoch and the evaluation pass.
TEST(Plan, RowGroupPlanByArithmeticIsTheListedPlan) {
  for (Shuffle shuffle : {Shuffle::none, Shuffle::file})
    for (std::uint32_t accs : {1u, 3u})
      for (std::uint32_t ranks : {1u, 2u})
        for (bool drop_last : {false, true})
          for (std::uint64_t max_steps : {0u, 5u}) {
            Job listed = make_job(13, 37, 8, shuffle);
            listed.dataset.format = Format::parquet;
            listed.dataset.parquet.row_group_size = 10;
            listed.run.accelerators = accs;
            listed.run.max_steps = max_steps;
            listed.reader.drop_last = drop_last;
            listed.reader.read_unit = ReadUnit::sample;
            listed.validation = listed.dataset;
            listed.validation->num_files = 4;
            listed.run.eval_every_epochs = 1;
            Job rows = listed;
            rows.reader.read_unit = ReadUnit::row_group;
            for (std::uint32_t rank = 0; rank < ranks; ++rank)
              for (std::uint32_t epoch : {0u, 1u})
                for (bool eval : {false, true}) {
                  const Topology t{rank, ranks};
                  const EpochPlan want =
                      eval ? plan_eval(listed, epoch, t) : plan_epoch(listed, epoch, t);
                  const EpochPlan got =
                      eval ? plan_eval(rows, epoch, t) : plan_epoch(rows, epoch, t);
                  SCOPED_TRACE("shuffle " + std::string(to_string(shuffle)) + " accs " +
                               std::to_string(accs) + " rank " + std::to_string(rank) + "/" +
                               std::to_string(ranks) + " drop_last " + std::to_string(drop_last) +
                               " max_steps " + std::to_string(max_steps) + " epoch " +
                               std::to_string(epoch) + (eval ? " eval" : " train"));
                  ASSERT_EQ(got.accelerators.size(), want.accelerators.size());
                  EXPECT_EQ(got.num_samples(), want.num_samples());
                  EXPECT_EQ(got.num_steps(), want.num_steps());
                  for (std::size_t a = 0; a < want.accelerators.size(); ++a) {
                    const AcceleratorPlan& w = want.accelerators[a];
                    const AcceleratorPlan& g = got.accelerators[a];
                    ASSERT_TRUE(g.shard);
                    ASSERT_FALSE(w.shard);
                    EXPECT_TRUE(g.samples.empty());
                    EXPECT_EQ(g.global_id, w.global_id);
                    ASSERT_EQ(g.num_batches(), w.num_batches());
                    for (std::size_t k = 0; k < w.num_batches(); ++k) {
                      ASSERT_EQ(g.batch_size(k), w.batch(k).size()) << "batch " << k;
                      for (std::size_t j = 0; j < w.batch(k).size(); ++j)
                        ASSERT_EQ(g.sample(k, j), w.batch(k)[j]) << "batch " << k << " entry " << j;
                    }
                  }
                }
          }
}

// reader.eval_batch_size: the evaluation pass's batches, when set; training keeps batch_size.
TEST(Plan, EvalBatchSizeCutsTheEvaluationPassOnly) {
  Job job = make_job(20, 1, 4, Shuffle::file);
  DatasetSpec v = job.dataset;
  v.num_files = 9;
  job.validation = v;
  job.reader.eval_batch_size = 1;
  EXPECT_EQ(plan_epoch(job, 0).num_steps(), 5u);
  EXPECT_EQ(plan_eval(job, 0).num_steps(), 9u);
  EXPECT_EQ(most_batches(*job.validation, job.reader, job.run, Phase::eval, 1), 9u);
  EXPECT_EQ(most_batches(job.dataset, job.reader, job.run, Phase::train, 1), 5u);
}

TEST(Plan, MaxStepsCutsEachEpoch) {
  Job job = make_job(1000, 1, 10, Shuffle::sample);
  job.run.max_steps = 7;
  const EpochPlan p = plan_epoch(job, 0);
  EXPECT_EQ(p.num_steps(), 7u);
  EXPECT_EQ(p.num_samples(), 70u);
}

TEST(Plan, EvalPassReadsTheValidationSetInOrder) {
  Job job = make_job(10, 1, 4, Shuffle::sample);
  EXPECT_TRUE(plan_eval(job, 0).accelerators.empty());
  DatasetSpec v = job.dataset;
  v.num_files = 9;
  job.validation = v;
  const EpochPlan p = plan_eval(job, 3);
  const auto s = all_samples(p);
  expect_exactly_once(s, 9, 1);
  for (std::size_t i = 0; i < s.size(); ++i) EXPECT_EQ(s[i].file, i);
}

TEST(Plan, CheckpointCount) {
  Job job = make_job(10, 1, 1, Shuffle::none);
  job.run.epochs = 6;
  job.checkpoint.enabled = true;
  job.checkpoint.every_epochs = 2;
  EXPECT_EQ(checkpoint_count(job, 10), 3u);
  job.checkpoint.every_steps = 25;
  EXPECT_EQ(checkpoint_count(job, 10), 3u + 2u);
  job.checkpoint.enabled = false;
  EXPECT_EQ(checkpoint_count(job, 10), 0u);
  // A list of epochs: those within the run's.
  job.checkpoint.enabled = true;
  job.checkpoint.every_epochs = 0;
  job.checkpoint.every_steps = 0;
  job.checkpoint.after_epochs = {1, 2, 5, 9};
  EXPECT_EQ(checkpoint_count(job, 10), 3u);
  EXPECT_TRUE(job.checkpoint.after_epoch(5));
  EXPECT_FALSE(job.checkpoint.after_epoch(3));
}

}  // namespace
}  // namespace dlgen::replay

namespace dlgen::replay {
namespace {

// read = "stream" (tar / WebDataset shards): every shard is owned by one accelerator of one rank
// and read front to back; every sample once per epoch across ranks; the shard order reshuffled
// each epoch. 23 shards do not divide evenly: workers whose shards run out leave the tail to
// the others.
TEST(Plan, StreamsReadEachShardFrontToBackOnOneAccelerator) {
  Job job = make_job(23, 5, 3, Shuffle::file);
  job.reader.read_unit = ReadUnit::stream;
  job.reader.workers = 2;
  job.run.accelerators = 2;
  ASSERT_TRUE(validate(job).empty());
  std::vector<std::vector<std::uint64_t>> shard_orders;
  for (std::uint32_t epoch = 0; epoch < 3; ++epoch) {
    for (std::uint32_t nranks : {1u, 3u}) {
      SCOPED_TRACE("epoch " + std::to_string(epoch) + ", ranks " + std::to_string(nranks));
      std::vector<SampleRef> every;
      std::map<std::uint64_t, std::uint32_t> owner;    // shard → global accelerator
      std::map<std::uint64_t, std::uint32_t> next_of;  // shard → next sample expected
      for (std::uint32_t rank = 0; rank < nranks; ++rank) {
        const EpochPlan p = plan_epoch(job, epoch, {rank, nranks});
        ASSERT_EQ(p.accelerators.size(), 2u);
        for (const AcceleratorPlan& a : p.accelerators) {
          every.insert(every.end(), a.samples.begin(), a.samples.end());
          for (std::size_t k = 0; k < a.num_batches(); ++k) EXPECT_LE(a.batch(k).size(), 3u);
          for (const SampleRef& r : a.samples) {
            EXPECT_TRUE(owner.emplace(r.file, a.global_id).second || owner[r.file] == a.global_id);
            EXPECT_EQ(r.sample, next_of[r.file]++) << "shard " << r.file << " front to back";
          }
        }
      }
      expect_exactly_once(every, 23, 5);
      if (nranks == 1) {
        std::vector<std::uint64_t> order;
        for (const auto& r : every)
          if (r.sample == 0) order.push_back(r.file);
        shard_orders.push_back(order);
      }
    }
  }
  EXPECT_NE(shard_orders[0], shard_orders[1]);
  EXPECT_NE(shard_orders[1], shard_orders[2]);
}

// With shards that divide evenly, batch k is worker k mod W's: each worker's batches, taken in
// turn, are its own shards' samples in order (a new shard starts at its sample 0), and no two
// workers share a shard.
TEST(Plan, StreamsTakeBatchesFromTheWorkersInTurn) {
  Job job = make_job(24, 5, 3, Shuffle::file);  // 6 shards per worker, 30 samples, 10 batches
  job.reader.read_unit = ReadUnit::stream;
  job.reader.workers = 2;
  job.run.accelerators = 2;
  const EpochPlan p = plan_epoch(job, 1);
  std::map<std::uint64_t, std::uint32_t> owner;
  for (const AcceleratorPlan& a : p.accelerators) {
    ASSERT_EQ(a.num_batches(), 20u);
    std::vector<std::vector<SampleRef>> per_worker(2);
    for (std::size_t k = 0; k < a.num_batches(); ++k) {
      const auto b = a.batch(k);
      EXPECT_EQ(b.size(), 3u);
      per_worker[k % 2].insert(per_worker[k % 2].end(), b.begin(), b.end());
    }
    for (std::uint32_t w = 0; w < 2; ++w) {
      const auto& s = per_worker[w];
      ASSERT_EQ(s.size(), 30u);
      for (std::size_t i = 0; i < s.size(); ++i) {
        EXPECT_EQ(s[i].sample, i % 5);
        const std::uint32_t slot = a.global_id * 2 + w;
        EXPECT_TRUE(owner.emplace(s[i].file, slot).second || owner[s[i].file] == slot);
      }
    }
  }
  EXPECT_EQ(owner.size(), 24u);
}

// most_batches is what every rank counts its step checkpoints against: it must be the largest
// batch count of any accelerator of any rank, for either drop_last, any max_steps, train or eval.
TEST(Plan, MostBatchesIsTheLargestBatchCountOfAnyRank) {
  for (std::uint64_t files : {1, 7, 25, 64})
    for (std::uint32_t batch : {1, 2, 5})
      for (std::uint32_t nranks : {1, 2, 3})
        for (std::uint32_t accs : {1, 2})
          for (bool drop_last : {false, true})
            for (std::uint64_t max_steps : {0, 2})
              for (Phase phase : {Phase::train, Phase::eval})
                for (ReadUnit unit : {ReadUnit::file, ReadUnit::stream}) {
                  Job job = make_job(files, 2, batch,
                                     unit == ReadUnit::stream ? Shuffle::file : Shuffle::sample);
                  job.reader.read_unit = unit;
                  job.reader.workers = unit == ReadUnit::stream ? 3 : 1;
                  job.run.accelerators = accs;
                  job.reader.drop_last = drop_last;
                  job.run.max_steps = max_steps;
                  std::uint64_t most = 0;
                  for (std::uint32_t r = 0; r < nranks; ++r)
                    most = std::max(
                        most, plan_dataset(job.dataset, job.reader, job.run, 0, phase, {r, nranks})
                                  .num_steps());
                  EXPECT_EQ(most_batches(job.dataset, job.reader, job.run, phase, nranks), most)
                      << files << " files, batch " << batch << ", " << nranks << " ranks x " << accs
                      << ", drop_last " << drop_last << ", max_steps " << max_steps << ", "
                      << to_string(unit);
                }
}

}  // namespace
}  // namespace dlgen::replay
