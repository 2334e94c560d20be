// An IterableDataset over Python's tarfile end to end (issue 18): tests/pytorch/tar_members.py,
// 8 tar shards of 100 .npy members, each of 2 DataLoader workers opening its own 4 shards with
// tarfile.open (which opens each shard four times: one probe per compression, then the open that
// reads the members) and np.load of each member, batch 32, 2 epochs. Captured, distilled, replayed
// under capture and compared. The probes must not split an epoch into passes (distil said 49
// epochs, 1 worker), and the job must stream each worker's own shards. Needs root (BPF).
#include <gtest/gtest.h>

#include "dlgen/core/json.hpp"

#include "compare_rows.hpp"
#include "dlgen/core/job_io.hpp"
#include "e2e_fixture.hpp"

namespace {

using dlgen::testing::Outcome;

const std::string kProgram = std::string(DLGEN_SOURCE_DIR) + "/tests/pytorch/tar_members.py";

class TarMembersE2E : public dlgen::testing::SharedRun<TarMembersE2E> {
 protected:
  static void SetUpTestSuite() {
    make_dir("tar-members-e2e");
    if (run(DLGEN_PYTHON " -c 'import torch, numpy'").code != 0)
      return skip("python3-torch or numpy is not installed");
    Outcome m = run(DLGEN_PYTHON " " + kProgram + " make " + root() + "/shards");
    if (m.code != 0) return fail("make shards: " + m.out);
    Outcome c;
    if (!capture_and_distil(
            "-q -o orig.h5 -- " DLGEN_PYTHON " " + kProgram + " " + root() + "/shards", &c))
      return;
    auto truth = dlgen::testing::parse_json(c.out.substr(c.out.rfind('{')));
    if (!truth) return fail("the program printed no ground truth: " + c.out);
    truth_ = *truth;
    replay_and_compare("", summary_, compared_);
  }

  static const nlohmann::json& metric(const std::string& name) {
    return dlgen::testing::compare_row(compared_, name);
  }

  static inline nlohmann::json truth_, summary_, compared_;
};

TEST_F(TarMembersE2E, DistilledAsEachWorkerStreamingItsOwnShards) {
  auto job = dlgen::load_job(dir() / "job.toml");
  ASSERT_TRUE(job) << job.error().message;
  EXPECT_EQ(job->reader.read_unit, dlgen::ReadUnit::stream);
  EXPECT_EQ(job->dataset.num_files, truth_["shards"].get<std::uint64_t>());
  EXPECT_EQ(job->run.epochs, truth_["epochs"].get<std::uint32_t>())
      << "tarfile.open's probes are not passes";
  EXPECT_EQ(job->reader.workers, truth_["workers"].get<std::uint32_t>());
  // Every step of every epoch, exact: a handover is a batch.
  std::vector<std::uint64_t> steps;
  for (const auto& e : summary_["epochs"]) steps.push_back(e["steps"].get<std::uint64_t>());
  EXPECT_EQ(steps, truth_["steps_per_epoch"].get<std::vector<std::uint64_t>>());
  // Each shard opened once per pass (its probes folded into that access), by one reader.
  for (const auto& e : summary_["epochs"]) {
    EXPECT_EQ(e["accesses"], truth_["shards"]) << e.dump();
    EXPECT_EQ(e["reader_count"], truth_["workers"]) << e.dump();
  }
}

// The replay's steps are not judged yet: a stream job counts a shard's samples in whole batches
// (3 a shard here, 24 steps an epoch), while each worker's 400 members made 12 full batches and a
// partial one (26 an epoch); the members are not visible in tarfile's buffered reads.
TEST_F(TarMembersE2E, ReplayReadsTheShardsAsTheOriginalDid) {
  for (const char* name : {"bytes_read", "files_read", "epoch_bytes_read", "readers", "epochs"})
    EXPECT_EQ(metric(name)["verdict"], "PASS") << metric(name).dump();
}

}  // namespace
