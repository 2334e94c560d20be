// MLPerf's UNet3D/KiTS19 loader shape end to end (issue 18): tests/pytorch/gpu_segmentation.py on
// CPU, its cases in ONE folder, each sample two files (case_N_x.npy, then case_N_y.npy, read back
// to back by one DataLoader worker), the validation cases chosen by evaluation_cases.txt in the
// same folder, an evaluation pass after every epoch. Captured, distilled, replayed under capture
// and compared: distil must tell the evaluation passes from training by the files each pass reads
// (there is no directory to tell them by), say batch = samples of 2 files, and the replay must read
// both files of each sample. Needs root (BPF).
#include <gtest/gtest.h>

#include <fstream>
#include "dlgen/core/json.hpp"

#include "compare_rows.hpp"
#include "dlgen/core/job_io.hpp"
#include "e2e_fixture.hpp"

namespace {

using dlgen::testing::Outcome;

const std::string kDir = std::string(DLGEN_SOURCE_DIR) + "/tests/pytorch/";

class SegmentationE2E : public dlgen::testing::SharedRun<SegmentationE2E> {
 protected:
  static void SetUpTestSuite() {
    make_dir("segmentation-e2e");
    if (run(DLGEN_PYTHON " -c 'import torch, numpy'").code != 0)
      return skip("python3-torch or numpy is not installed");
    // 20 cases, 4 of them listed for evaluation: 16 training samples (32 files) in batches of 2
    // (drop_last): 8 steps an epoch; 4 evaluation samples (8 files), batch 1: 4 steps a pass.
    Outcome m = run(DLGEN_PYTHON " " + kDir + "make_gpu_datasets.py --kits " + root() +
                    "/kits --cases 20 --eval 4 --side 16 --jobs 2");
    if (m.code != 0) return fail("make_gpu_datasets: " + m.out);
    if (!capture_and_distil("-o orig.h5 -- " DLGEN_PYTHON " " + kDir + "gpu_segmentation.py " +
                            root() +
                            "/kits --device cpu -j 2 -b 2 --epochs 3 --patch 16 --filters 4,8 "
                            "--print-freq 4 --checkpoint " +
                            root() + "/ckpt/unet3d.pt --log " + root() + "/truth.jsonl"))
      return;
    std::ifstream log(dir() / "truth.jsonl");
    for (std::string line; std::getline(log, line);) {
      auto j = dlgen::testing::parse_json(line);
      if (j && j->value("event", "") == "summary") truth_ = *j;
    }
    if (!truth_.is_object()) return fail("the program wrote no summary record");
    replay_and_compare(" --set checkpoint.dir=" + root() + "/replay-ckpt", summary_, compared_);
  }

  static const nlohmann::json& metric(const std::string& name) {
    return dlgen::testing::compare_row(compared_, name);
  }

  static inline nlohmann::json truth_, summary_, compared_;
};

TEST_F(SegmentationE2E, ValidationChosenByTheListIsItsOwnPasses) {
  ASSERT_EQ(summary_["datasets"].size(), 2u) << summary_["datasets"].dump();
  EXPECT_EQ(summary_["datasets"][0]["class"], "train");
  EXPECT_EQ(summary_["datasets"][0]["files"], truth_["train_files"]);
  EXPECT_EQ(summary_["datasets"][1]["class"], "validation");
  EXPECT_EQ(summary_["datasets"][1]["files"], truth_["val_files"]);
  EXPECT_EQ(summary_["datasets"][0]["dir"], summary_["datasets"][1]["dir"]) << "one folder";
  // Every pass's steps, exact, in the program's order: a training epoch, then its evaluation.
  std::vector<std::uint64_t> train, val;
  for (const auto& e : summary_["epochs"])
    (e["evaluation"].get<bool>() ? val : train).push_back(e["steps"].get<std::uint64_t>());
  EXPECT_EQ(train, truth_["steps_per_epoch"].get<std::vector<std::uint64_t>>());
  EXPECT_EQ(val, truth_["val_steps_per_pass"].get<std::vector<std::uint64_t>>());
}

TEST_F(SegmentationE2E, ASampleIsTwoFilesAndABatchCountsSamples) {
  auto job = dlgen::load_job(dir() / "job.toml");
  ASSERT_TRUE(job) << job.error().message;
  EXPECT_EQ(job->dataset.num_files, truth_["train_files"].get<std::uint64_t>());
  EXPECT_EQ(job->dataset.files_per_sample, 2u);
  EXPECT_EQ(job->reader.batch_size, truth_["batch_size"].get<std::uint32_t>());
  EXPECT_EQ(job->reader.eval_batch_size, truth_["val_batch_size"].get<std::uint32_t>());
  EXPECT_EQ(job->reader.workers, truth_["workers"].get<std::uint32_t>());
  EXPECT_EQ(job->run.epochs, truth_["epochs"].get<std::uint32_t>());
  ASSERT_TRUE(job->validation.has_value());
  EXPECT_EQ(job->validation->num_files, truth_["val_files"].get<std::uint64_t>());
  EXPECT_EQ(job->validation->files_per_sample, 2u);
  EXPECT_EQ(job->run.eval_every_epochs, 1u);
}

TEST_F(SegmentationE2E, ReplayReadsBothFilesOfEachSample) {
  // Volume and structure: the replay reads every file of each sample, in as many steps and
  // evaluation steps (timing rows are not judged here: a 2-core host's noise on 0.01 s steps).
  for (const char* name : {"bytes_read", "files_read", "epoch_bytes_read", "epochs", "steps",
                           "readers", "eval_passes", "eval_files", "eval_steps"})
    EXPECT_EQ(metric(name)["verdict"], "PASS") << metric(name).dump();
}

}  // namespace
