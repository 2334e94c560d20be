// The MLPerf Storage v3.0 rules `dlgen mlperf validate` checks on a results folder's records
// (v3_checks.hpp), each with a passing and a failing record and the reason it gives: the dataset
// size against the clients' RAM and accelerators (3.1.2), the datasize / datagen / run steps
// (3.2.1, 3.3.1), the checkpoint phases and counts (Table 3), the 30-second window (4.7.1), the
// page-cache flush (4.3.1), the checkpointing parameters (4.3.4, 4.3.5) and O_DIRECT outside
// unet3d; and the step metadata `dlgen mlperf` writes for the datasize and datagen folders.
#include "dlgen/mlperf/v3_checks.hpp"

#include <gtest/gtest.h>

#include "dlgen/core/json.hpp"

#include "dlgen/mlperf/mlperf_checkpoint.hpp"
#include "dlgen/mlperf/mlperf_submission.hpp"

namespace dlgen::mlperf {
namespace {

constexpr std::uint64_t kGiB = 1ull << 30;

// The problems as "rule: message" lines, for failure output and searching.
std::string text(const std::vector<RuleProblem>& problems) {
  std::string s;
  for (const RuleProblem& p : problems) s += p.rule + ": " + p.message + "\n";
  return s;
}

bool has(const std::vector<RuleProblem>& problems, const std::string& rule,
         const std::string& part) {
  for (const RuleProblem& p : problems)
    if (p.rule.find(rule) != std::string::npos && p.message.find(part) != std::string::npos)
      return true;
  return false;
}

Job retinanet(std::uint64_t files) {
  Result<Job> r = mlperf_reference("retinanet", "b200", Round::v3_0);
  EXPECT_TRUE(r);
  Job j = r ? *r : Job{};
  j.dataset.num_files = files;
  return j;
}

ClientInfo clients(std::uint32_t hosts, std::uint32_t ranks, std::uint64_t ram,
                   std::uint64_t measured) {
  ClientInfo c;
  c.hosts = hosts;
  c.ranks = ranks;
  c.ram_bytes = ram;
  c.measured_ram_bytes = measured;
  return c;
}

// retinanet/b200: 322,957 B a sample, batch 24, one accelerator a rank. 1 GiB of RAM asks for
// ceil(5 x 2^30 / 322,957) = 16,624 samples; 500 steps for 12,000.
TEST(V3Checks, DatasetSizeAgainstTheClientsRam) {
  EXPECT_TRUE(check_v3_dataset_size(retinanet(16624), clients(1, 1, kGiB, kGiB)).empty());
  const auto small = check_v3_dataset_size(retinanet(16623), clients(1, 1, kGiB, kGiB));
  ASSERT_EQ(small.size(), 1u);
  EXPECT_TRUE(has(small, "3.1.2 trainingRecalculateDatasetSize",
                  "dataset.num_files 16,623 is below the 16,624 files the rules ask"))
      << text(small);
  EXPECT_TRUE(has(small, "3.1.2", "= 12,000 samples")) << text(small);
  EXPECT_TRUE(has(small, "3.1.2", "322957 B a sample = 16,624 samples")) << text(small);
  // The RAM the hosts measured counts when the dataset was sized for less (--ram).
  EXPECT_FALSE(check_v3_dataset_size(retinanet(16624), clients(1, 1, kGiB, 2 * kGiB)).empty());
  // Two hosts' RAM doubles the memory figure.
  EXPECT_TRUE(has(check_v3_dataset_size(retinanet(20000), clients(2, 2, 2 * kGiB, 2 * kGiB)),
                  "3.1.2", "(2 host(s))"));
}

TEST(V3Checks, DatasetSizeAgainstTheAcceleratorsOfEveryRank) {
  // 1 MiB of RAM: the 500 steps decide; 4 ranks x 1 accelerator x batch 24 x 500 = 48,000.
  const ClientInfo c = clients(4, 4, 1 << 20, 1 << 20);
  EXPECT_TRUE(check_v3_dataset_size(retinanet(48000), c).empty());
  const auto few = check_v3_dataset_size(retinanet(47999), c);
  EXPECT_TRUE(
      has(few, "3.1.2", "500 steps x batch 24 x 1 accelerator(s) x 4 rank(s) = 48,000 samples"))
      << text(few);
}

TEST(V3Checks, StepsBoundTheRunsFiles) {
  EXPECT_TRUE(check_v3_training_steps({100, 120, 110}).empty());
  EXPECT_TRUE(check_v3_training_steps({100, 100, 100}).empty());
  EXPECT_TRUE(check_v3_training_steps({std::nullopt, std::nullopt, 5}).empty());
  const auto under = check_v3_training_steps({100, 120, 90});
  EXPECT_TRUE(has(under, "3.3.1 trainingRunDataMatchesDatasize",
                  "the run reads 90 files, below the 100 the datasize step asks"))
      << text(under);
  const auto over = check_v3_training_steps({100, 120, 130});
  EXPECT_TRUE(has(over, "3.3.1", "the run reads 130 files, more than the 120 datagen wrote"))
      << text(over);
  EXPECT_TRUE(check_v3_datagen_size({100, 100, 0}).empty());
  EXPECT_TRUE(check_v3_datagen_size({std::nullopt, 80, 0}).empty());
  const auto gen = check_v3_datagen_size({100, 80, 80});
  EXPECT_TRUE(has(gen, "3.2.1 trainingDatagenMinimumSize",
                  "datagen wrote 80 files, below the 100 the datasize step asks"))
      << text(gen);
}

Job ck_reference(const char* w) {
  Result<Job> r = mlperf_checkpoint_reference(w);
  EXPECT_TRUE(r);
  return r ? *r : Job{};
}

// llama3-8b on b200 as the reference, one host with 64 GiB, one combined invocation that dropped
// the cache: CLOSED and no problem.
CheckpointRecord good_checkpointing() {
  CheckpointRecord r;
  r.workload = "llama3-8b";
  r.accelerator = "b200";
  r.division = Division::closed;
  r.job = ck_reference("llama3-8b");
  r.checkpoint_bytes = 105 * kGiB;
  r.ram_bytes_per_host = 64 * kGiB;
  r.invocations = {{10, 10, 1000, 2000, true}};
  return r;
}

TEST(V3Checks, CheckpointingAsTheReferenceHasNoProblem) {
  const Job ref = ck_reference("llama3-8b");
  const auto p = check_v3_checkpointing(good_checkpointing(), &ref);
  EXPECT_TRUE(p.empty()) << text(p);
}

TEST(V3Checks, CheckpointingTenWrittenThenTenRead) {
  const Job ref = ck_reference("llama3-8b");
  CheckpointRecord split = good_checkpointing();
  split.job.checkpoint.reads = 0;  // the first folder's job: the write phase
  split.invocations = {{10, 0, 1000, 2000, false}, {0, 10, 2010, 3000, false}};
  EXPECT_TRUE(check_v3_checkpointing(split, nullptr).empty())
      << text(check_v3_checkpointing(split, nullptr));
  // Against the reference too: two invocations of one run each are CLOSED, two runs of one
  // invocation are not.
  split.runs = 2;
  EXPECT_TRUE(check_v3_checkpointing(split, &ref).empty())
      << text(check_v3_checkpointing(split, &ref));
  CheckpointRecord two_runs = good_checkpointing();
  two_runs.runs = 2;
  two_runs.invocations = {{5, 5, 1000, 2000, true}, {5, 5, 1000, 3000, true}};
  EXPECT_TRUE(has(check_v3_checkpointing(two_runs, &ref), "4.6.3", "2 invocations"))
      << text(check_v3_checkpointing(two_runs, &ref));
  CheckpointRecord five = good_checkpointing();
  five.invocations = {{5, 5, 1000, 2000, true}};
  EXPECT_TRUE(has(check_v3_checkpointing(five, nullptr), "Table 3 num_checkpoints",
                  "5 written and 5 read over 1 invocation(s); CLOSED writes 10 then reads 10"));
  CheckpointRecord reversed = good_checkpointing();
  reversed.invocations = {{0, 10, 1000, 2000, false}, {10, 0, 2010, 3000, false}};
  EXPECT_TRUE(has(check_v3_checkpointing(reversed, nullptr), "Table 3",
                  "or a write phase (num_checkpoints_read=0) then a read phase"));
  // OPEN may change the counts.
  five.division = Division::open;
  EXPECT_FALSE(has(check_v3_checkpointing(five, nullptr), "Table 3", ""));
}

TEST(V3Checks, ReadPhaseWithinThirtySecondsOfTheWritePhase) {
  CheckpointRecord r = good_checkpointing();
  r.invocations = {{10, 0, 1000, 2000, false}, {0, 10, 2029.5, 3000, false}};
  EXPECT_FALSE(has(check_v3_checkpointing(r, nullptr), "4.7.1", ""));
  r.invocations[1].start_unix_s = 2042;
  EXPECT_TRUE(has(check_v3_checkpointing(r, nullptr), "4.7.1 checkpointCacheFlushValidation",
                  "the read phase began 42.0 s after the write phase ended; 30 s at most"));
  r.invocations[1].start_unix_s = 1990;  // clock skew between hosts: not a violation
  EXPECT_FALSE(has(check_v3_checkpointing(r, nullptr), "4.7.1", ""));
  r.invocations[1].start_unix_s = 0;
  EXPECT_TRUE(has(check_v3_checkpointing(r, nullptr), "4.7.1", "is not recorded"));
}

TEST(V3Checks, PageCacheDroppedUnderThreeTimesTheRam) {
  CheckpointRecord r = good_checkpointing();
  r.invocations[0].cache_dropped = false;  // 1050 GiB written on a 64 GiB host: no need
  EXPECT_FALSE(has(check_v3_checkpointing(r, nullptr), "4.3.1", ""));
  r.ram_bytes_per_host = 512 * kGiB;  // 1050 GiB < 3 x 512 GiB: it had to be dropped
  EXPECT_TRUE(has(check_v3_checkpointing(r, nullptr), "4.3.1 checkpointDataSizeRatio",
                  "of RAM, and the page cache was not dropped between the writes and the reads"))
      << text(check_v3_checkpointing(r, nullptr));
  r.invocations[0].cache_dropped = true;
  EXPECT_FALSE(has(check_v3_checkpointing(r, nullptr), "4.3.1", ""));
  r.hosts = 4;  // the data per host is what counts: still dropped, still fine
  EXPECT_FALSE(has(check_v3_checkpointing(r, nullptr), "4.3.1", ""));
}

TEST(V3Checks, CheckpointParametersAgainstTheReference) {
  const Job ref8 = ck_reference("llama3-8b"), ref70 = ck_reference("llama3-70b");
  CheckpointRecord none = good_checkpointing();
  none.accelerator = "";
  EXPECT_TRUE(has(check_v3_checkpointing(none, &ref8), "4.6.3 checkpointClosedCheckpointParameters",
                  "rule 4.3.4 needs one"));
  // 70B on 8 h100s: 640 GB of accelerator memory for a 912 GB checkpoint (4.3.4), INVALID even
  // for a WHATIF result.
  CheckpointRecord small = good_checkpointing();
  small.workload = "llama3-70b";
  small.accelerator = "h100";
  small.division = Division::whatif;
  small.job = ref70;
  small.job.model->data = 1;
  EXPECT_TRUE(has(check_v3_checkpointing(small, &ref70), "4.3 checkpointParameters",
                  "8 x h100 at 80 GB = 640 GB, below the llama3-70b checkpoint of 912 GB"))
      << text(check_v3_checkpointing(small, &ref70));
  // Subset mode on 70B (4.3.5).
  CheckpointRecord subset = small;
  subset.accelerator = "mi355";
  subset.division = Division::open;
  subset.job = ref70;
  subset.job.checkpoint.mode = CheckpointMode::subset;
  EXPECT_TRUE(has(check_v3_checkpointing(subset, &ref70), "4.3 checkpointParameters",
                  "subset mode is defined for llama3-8b only"));
  // An INVALID result is not rechecked: it says so itself.
  subset.division = Division::invalid;
  EXPECT_TRUE(check_v3_checkpointing(subset, &ref70).empty());
}

TEST(V3Checks, DirectIoOutsideUnet3dIsInvalid) {
  Job j = retinanet(100);
  Division d = Division::closed;
  std::vector<std::string> reasons;
  apply_v3_direct(j, d, reasons);
  EXPECT_EQ(d, Division::closed);
  EXPECT_TRUE(reasons.empty());
  j.reader.direct = true;
  apply_v3_direct(j, d, reasons);
  EXPECT_EQ(d, Division::invalid);
  ASSERT_EQ(reasons.size(), 1u);
  EXPECT_NE(reasons[0].find("reader.direct: yes on retinanet"), std::string::npos) << reasons[0];
  Result<Job> unet = mlperf_reference("unet3d", "b200", Round::v3_0);
  ASSERT_TRUE(unet);
  unet->reader.direct = true;
  Division du = Division::closed;
  reasons.clear();
  apply_v3_direct(*unet, du, reasons);
  EXPECT_EQ(du, Division::closed);
}

// The datasize and datagen folders' metadata, as the checker reads it.
TEST(V3Checks, StepMetadataRecordsTheSizingAndItsInputs) {
  Job j = retinanet(2000);
  j.dataset.files_per_dir = 300;
  StepInputs in;
  in.command = "datasize";
  in.accelerator = "b200";
  in.accelerators = 2;
  in.hosts = 2;
  in.client_host_memory_gib = 31.5;
  in.files = 1800;
  in.sizing = {12000, 1800, 1800};
  const nlohmann::json m = nlohmann::json::parse(training_step_metadata_json(j, in));
  EXPECT_EQ(m["parameters"]["dataset"]["num_files_train"], 1800);
  EXPECT_EQ(m["parameters"]["dataset"]["num_subfolders_train"], 6);  // ceil(1800 / 300)
  EXPECT_EQ(m["parameters"]["dataset"]["total_disk_bytes"], 1800ull * 322957);
  EXPECT_EQ(m["parameters"]["reader"]["batch_size"], 24);
  EXPECT_EQ(m["args"]["accelerator_type"], "b200");
  EXPECT_EQ(m["args"]["num_client_hosts"], 2);
  EXPECT_DOUBLE_EQ(m["args"]["client_host_memory_in_gb"].get<double>(), 31.5);
  EXPECT_EQ(m["sizing"]["samples_for_steps"], 12000);
  in.command = "datagen";
  EXPECT_FALSE(nlohmann::json::parse(training_step_metadata_json(j, in)).contains("sizing"));
}

}  // namespace
}  // namespace dlgen::mlperf
