// dataset.load (docs/job-format.md): "on_demand" by default, "memory" for a set its program read
// whole before training; [validation] follows [dataset] unless it says otherwise; the writer
// writes the key only for "memory", and what it writes reads back the same.
#include <gtest/gtest.h>

#include "dlgen/core/job_io.hpp"

namespace dlgen {
namespace {

constexpr const char* kJob = R"(
[dataset]
dir = "data/text"
num_files = 2
samples_per_file = 60
sample_size = "800B"
load = "memory"
[validation]
num_files = 1
[reader]
batch_size = 8
[run]
epochs = 2
eval_every_steps = 10
)";

TEST(DatasetLoad, MemoryIsReadAndTheValidationSetFollowsTheDataset) {
  Result<Job> j = parse_job(kJob, "mem.toml");
  ASSERT_TRUE(j) << j.error().message;
  EXPECT_EQ(j->dataset.load, Load::memory);
  ASSERT_TRUE(j->validation.has_value());
  EXPECT_EQ(j->validation->load, Load::memory);
  EXPECT_TRUE(validate(*j).empty());
}

TEST(DatasetLoad, DefaultIsOnDemandAndNotWritten) {
  Result<Job> j = parse_job("[dataset]\ndir = \"d\"\nsample_size = \"1KiB\"\n", "plain.toml");
  ASSERT_TRUE(j) << j.error().message;
  EXPECT_EQ(j->dataset.load, Load::on_demand);
  EXPECT_EQ(to_toml(*j).find("load"), std::string::npos);
}

TEST(DatasetLoad, WrittenJobReadsBackTheSame) {
  Result<Job> j = parse_job(kJob, "mem.toml");
  ASSERT_TRUE(j) << j.error().message;
  j->validation->load = Load::on_demand;  // a validation set read per sample beside it
  const std::string text = to_toml(*j);
  EXPECT_NE(text.find("load = \"memory\""), std::string::npos) << text;
  Result<Job> back = parse_job(text, "again.toml");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->dataset.load, Load::memory);
  EXPECT_EQ(back->validation->load, Load::on_demand);
}

TEST(DatasetLoad, UnknownValueNamesTheKeyAndLine) {
  Result<Job> j = parse_job("[dataset]\ndir = \"d\"\nsample_size = \"1KiB\"\nload = \"ram\"\n", "x.toml");
  ASSERT_FALSE(j);
  EXPECT_NE(j.error().message.find("x.toml:4"), std::string::npos) << j.error().message;
  EXPECT_NE(j.error().message.find("dataset.load"), std::string::npos) << j.error().message;
  EXPECT_NE(j.error().message.find("\"memory\""), std::string::npos) << j.error().message;
}

}  // namespace
}  // namespace dlgen
