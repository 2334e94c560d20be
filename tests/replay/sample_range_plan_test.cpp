// The epoch plan of a set that reads a range of its files' samples (dataset.sample_range): a
// training and a validation set kept in one container file each read their own samples, every
// one once a pass, and the counts (steps, samples) are those of the range.
#include <gtest/gtest.h>

#include <set>

#include "dlgen/replay/plan.hpp"

namespace dlgen::replay {
namespace {

Job container_job() {
  Job job;
  job.name = "container";
  job.dataset.dir = "/nonexistent/container";
  job.dataset.num_files = 1;
  job.dataset.samples_per_file = 400;
  job.dataset.sample_size = Distribution::fixed_at(10000);
  job.dataset.sample_begin = 0;
  job.dataset.sample_end = 320;
  job.validation = job.dataset;
  job.validation->sample_begin = 320;
  job.validation->sample_end = 400;
  job.reader.batch_size = 16;
  job.reader.shuffle = Shuffle::sample;
  job.reader.read_unit = ReadUnit::sample;
  job.reader.seed = 3;
  job.run.eval_every_epochs = 1;
  job.compute.step_time = Distribution::fixed_at(0.01);
  return job;
}

// The (file, sample) pairs of a plan, checking each comes once.
std::set<std::uint32_t> samples_once(const EpochPlan& p) {
  std::set<std::uint32_t> seen;
  for (const auto& a : p.accelerators)
    for (const auto& r : a.samples) {
      EXPECT_EQ(r.file, 0u);
      EXPECT_TRUE(seen.insert(r.sample).second) << "sample " << r.sample << " twice";
    }
  return seen;
}

TEST(SampleRangePlan, EachSetReadsItsOwnSamplesOnce) {
  const Job job = container_job();
  for (std::uint32_t accs : {1u, 2u}) {
    Job j = job;
    j.run.accelerators = accs;
    const EpochPlan train = plan_epoch(j, 1);
    const auto t = samples_once(train);
    ASSERT_EQ(t.size(), 320u);
    EXPECT_EQ(*t.begin(), 0u);
    EXPECT_EQ(*t.rbegin(), 319u);
    const EpochPlan eval = plan_dataset(*j.validation, j.reader, j.run, 0, Phase::eval, Topology{});
    const auto v = samples_once(eval);
    ASSERT_EQ(v.size(), 80u);
    EXPECT_EQ(*v.begin(), 320u);
    EXPECT_EQ(*v.rbegin(), 399u);
    EXPECT_EQ(train.num_steps(), most_batches(j.dataset, j.reader, j.run, Phase::train, 1));
    EXPECT_EQ(eval.num_steps(), most_batches(*j.validation, j.reader, j.run, Phase::eval, 1));
  }
  // One accelerator: 320 samples in 20 steps of 16, 80 in 5.
  EXPECT_EQ(plan_epoch(job, 0).num_steps(), 20u);
  EXPECT_EQ(most_batches(*job.validation, job.reader, job.run, Phase::eval, 1), 5u);
  EXPECT_EQ(summarize_plan(job).samples_per_epoch, 320u);
}

// validate: the range lies within the files' samples, is read a sample or a file at a time, and a
// validation set in the training set's files keeps their layout.
TEST(SampleRangePlan, ValidateHoldsTheRangesRules) {
  Job job = container_job();
  EXPECT_TRUE(validate(job).empty()) << validate(job)[0].message;
  auto paths = [](const Job& j) {
    std::set<std::string> out;
    for (const auto& d : validate(j)) out.insert(d.path);
    return out;
  };
  Job beyond = job;
  beyond.validation->sample_end = 401;
  EXPECT_EQ(paths(beyond), (std::set<std::string>{"validation.sample_range"}));
  Job empty = job;
  empty.dataset.sample_begin = empty.dataset.sample_end = 5;
  EXPECT_EQ(paths(empty), (std::set<std::string>{"dataset.sample_range"}));
  Job stream = job;
  stream.reader.read_unit = ReadUnit::stream;
  stream.reader.shuffle = Shuffle::file;
  EXPECT_EQ(paths(stream),
            (std::set<std::string>{"dataset.sample_range", "validation.sample_range"}));
  Job other = job;
  other.validation->sample_size = Distribution::fixed_at(20000);
  EXPECT_EQ(paths(other), (std::set<std::string>{"validation.dir"}));
}

}  // namespace
}  // namespace dlgen::replay
