// The GPU training programs of issue 18 on CPU, at small scale: make_gpu_datasets.py writes the
// layouts the programs read (deterministically), gpu_imagenet.py and gpu_segmentation.py train on
// them and print their own ground truth (one record per step, per pass, per checkpoint, a summary),
// and bench/gpu/step_times.py --smoke times its cases. The ground truth is what GPU captures are
// judged against, so these tests check it against the dataset on disk: steps per epoch from the
// file counts and the batch size, validation cases from the list file, checkpoint bytes from the
// files written. Real PyTorch, no root; skipped where python3-torch, PIL or numpy is missing.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "dlgen/core/json.hpp"

#include "shell.hpp"
#include "temp_dir.hpp"
#include "truth_log.hpp"

namespace fs = std::filesystem;
using dlgen::testing::Outcome;
using dlgen::testing::sh;
using dlgen::testing::of;
using dlgen::testing::read_log;
using dlgen::testing::TempDir;
using nlohmann::json;

namespace {

const std::string kPy = DLGEN_PYTHON;
const std::string kDir = std::string(DLGEN_SOURCE_DIR) + "/tests/pytorch/";

std::size_t count_files(const fs::path& dir, const std::string& suffix) {
  std::size_t n = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().string().ends_with(suffix)) ++n;
  return n;
}

class GpuPrograms : public ::testing::Test {
 protected:
  void SetUp() override {
    if (sh(kPy + " -c 'import torch, PIL, numpy'").code != 0)
      GTEST_SKIP() << "python3-torch, PIL or numpy is not installed";
  }
  TempDir dir_{"dlgen-gpuprogs"};
};

TEST_F(GpuPrograms, DatasetsHaveTheLayoutsAndAreTheSameBytesEveryTime) {
  const auto root = dir_.path();
  const std::string args = " --train 40 --val 12 --classes 4 --cases 6 --eval 2 --side 16";
  Outcome a = sh(kPy + " " + kDir + "make_gpu_datasets.py --imagenet " + (root / "a/img").string() +
                 " --kits " + (root / "a/kits").string() + args + " --jobs 2");
  ASSERT_EQ(a.code, 0) << a.out;
  Outcome b = sh(kPy + " " + kDir + "make_gpu_datasets.py --imagenet " + (root / "b/img").string() +
                 " --kits " + (root / "b/kits").string() + args + " --jobs 1");
  ASSERT_EQ(b.code, 0) << b.out;
  EXPECT_EQ(sh("diff -r " + (root / "a").string() + " " + (root / "b").string()).code, 0)
      << "two runs wrote different files";

  EXPECT_EQ(count_files(root / "a/img/train", ".JPEG"), 40u);
  EXPECT_EQ(count_files(root / "a/img/val", ".JPEG"), 12u);
  std::set<std::string> classes;
  for (const auto& e : fs::directory_iterator(root / "a/img/train")) classes.insert(e.path().filename());
  EXPECT_EQ(classes.size(), 4u);
  for (const auto& e : fs::recursive_directory_iterator(root / "a/img")) {
    if (!e.is_regular_file()) continue;
    EXPECT_GE(e.file_size(), 10u << 10) << e.path();  // photo-sized JPEGs, not thumbnails
    EXPECT_LE(e.file_size(), 100u << 10) << e.path();
  }
  // KiTS19: image and label side by side in one folder, and the list of validation cases.
  EXPECT_EQ(count_files(root / "a/kits", "_x.npy"), 6u);
  EXPECT_EQ(count_files(root / "a/kits", "_y.npy"), 6u);
  EXPECT_TRUE(fs::exists(root / "a/kits/case_00005_x.npy"));
  EXPECT_TRUE(fs::exists(root / "a/kits/case_00005_y.npy"));
  std::ifstream list(root / "a/kits/evaluation_cases.txt");
  std::vector<std::string> ids;
  for (std::string l; std::getline(list, l);) ids.push_back(l);
  EXPECT_EQ(ids, (std::vector<std::string>{"00001", "00004"}));
}

TEST_F(GpuPrograms, ImagenetGroundTruthMatchesTheDatasetAndTheCheckpointsOnDisk) {
  const auto root = dir_.path();
  Outcome m = sh(kPy + " " + kDir + "make_gpu_datasets.py --imagenet " + (root / "img").string() +
                 " --train 72 --val 20 --classes 3 --jobs 2");
  ASSERT_EQ(m.code, 0) << m.out;
  // 72 / 16 = 4.5: the last training batch is short (no drop_last), as in PyTorch's example.
  Outcome r = sh(kPy + " " + kDir + "gpu_imagenet.py " + (root / "img").string() +
                 " --device cpu -a tiny -j 2 -b 16 --epochs 2 --image-size 32 --val-resize 40 --amp"
                 " --channels-last --checkpoint-dir " + (root / "ckpt").string() + " --log " +
                 (root / "truth.jsonl").string());
  ASSERT_EQ(r.code, 0) << r.out;
  const auto log = read_log(root / "truth.jsonl");
  const auto summary = of(log, "summary");
  ASSERT_EQ(summary.size(), 1u);
  const json& s = summary[0];
  EXPECT_EQ(s["train_samples"], 72);
  EXPECT_EQ(s["val_samples"], 20);
  EXPECT_EQ(s["steps_per_epoch"], json::array({5, 5}));
  EXPECT_EQ(s["val_steps_per_pass"], json::array({2, 2}));
  EXPECT_EQ(s["batch_size"], 16);
  EXPECT_EQ(s["workers"], 2);
  EXPECT_EQ(s["pin_memory"], false) << "pinning needs CUDA";

  const auto steps = of(log, "step");
  ASSERT_EQ(steps.size(), 14u);
  std::int64_t last_ready = 0;
  for (const auto& st : steps) {
    EXPECT_GT(st["compute_s"].get<double>(), 0.0) << st;
    EXPECT_GE(st["data_wait_s"].get<double>(), 0.0) << st;
    EXPECT_GT(st["t_ready_ns"].get<std::int64_t>(), last_ready) << "steps in time order";
    last_ready = st["t_ready_ns"].get<std::int64_t>();
  }
  EXPECT_EQ(steps[5]["phase"], "val");
  EXPECT_EQ(steps[5]["epoch"], 0);
  EXPECT_EQ(steps[7]["phase"], "train");
  EXPECT_EQ(steps[7]["epoch"], 1);
  EXPECT_EQ(steps[7]["step"], 0);

  // Every epoch a torch.save; model_best a copy whenever accuracy improved (at least the first).
  const auto ck = of(log, "checkpoint");
  std::uint64_t total = 0, saves = 0;
  for (const auto& c : ck) {
    total += c["bytes"].get<std::uint64_t>();
    saves += c["kind"] == "torch.save";
  }
  EXPECT_EQ(saves, 2u);
  EXPECT_EQ(ck[1]["kind"], "copyfile");
  EXPECT_EQ(s["checkpoint_bytes"], total);
  EXPECT_EQ(ck.back()["bytes"].get<std::uintmax_t>(), fs::file_size(ck.back()["path"].get<std::string>()));
}

TEST_F(GpuPrograms, SegmentationSamplesArePairsAndValidationComesFromTheList) {
  const auto root = dir_.path();
  Outcome m = sh(kPy + " " + kDir + "make_gpu_datasets.py --kits " + (root / "kits").string() +
                 " --cases 11 --eval 3 --side 16 --jobs 2");
  ASSERT_EQ(m.code, 0) << m.out;
  // 8 training cases in batches of 2 (drop_last): 4 steps; 3 evaluation cases, batch 1: 3 steps.
  Outcome r = sh(kPy + " " + kDir + "gpu_segmentation.py " + (root / "kits").string() +
                 " --device cpu -j 2 -b 2 --epochs 2 --patch 16 --filters 4,8 --print-freq 2"
                 " --checkpoint " + (root / "ckpt/unet3d.pt").string() + " --log " +
                 (root / "truth.jsonl").string());
  ASSERT_EQ(r.code, 0) << r.out;
  const auto log = read_log(root / "truth.jsonl");
  const auto summary = of(log, "summary");
  ASSERT_EQ(summary.size(), 1u);
  const json& s = summary[0];
  EXPECT_EQ(s["train_samples"], 8);
  EXPECT_EQ(s["val_samples"], 3);
  EXPECT_EQ(s["train_files"], 16);
  EXPECT_EQ(s["files_per_sample"], 2);
  EXPECT_EQ(s["steps_per_epoch"], json::array({4, 4}));
  EXPECT_EQ(s["val_steps_per_pass"], json::array({3, 3}));
  EXPECT_EQ(of(log, "step").size(), 14u);
  // One checkpoint, at the end, of the size on disk.
  const auto ck = of(log, "checkpoint");
  ASSERT_EQ(ck.size(), 1u);
  EXPECT_EQ(ck[0]["bytes"].get<std::uintmax_t>(), fs::file_size(root / "ckpt/unet3d.pt"));
  EXPECT_EQ(s["checkpoint_bytes"], ck[0]["bytes"]);

  // A patch the U-Net cannot halve down to 2 voxels is a usage error.
  Outcome bad = sh(kPy + " " + kDir + "gpu_segmentation.py " + (root / "kits").string() +
                   " --device cpu --patch 16 --filters 4,8,16,32");
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("--patch 16"), std::string::npos) << bad.out;
}

TEST_F(GpuPrograms, StepTimesSmokeTimesEveryCaseAndReadsTheJobsAcceleratorTimes) {
  const auto root = dir_.path();
  const std::string bench = std::string(DLGEN_SOURCE_DIR) + "/bench/gpu/step_times.py";
  Outcome r = sh(kPy + " " + bench + " --smoke --out " + (root / "t.json").string() + " >/dev/null");
  ASSERT_EQ(r.code, 0) << r.out;
  std::ifstream f(root / "t.json");
  const json t = json::parse(f);
  EXPECT_EQ(t["device"], "cpu");
  ASSERT_EQ(t["cases"].size(), 4u);
  std::set<std::string> seen;
  for (const auto& c : t["cases"]) {
    ASSERT_TRUE(c.contains("median_s")) << c;
    EXPECT_GT(c["median_s"].get<double>(), 0.0);
    EXPECT_EQ(c["times_s"].size(), 2u);
    seen.insert(c["model"].get<std::string>() + "/" + c["precision"].get<std::string>());
  }
  EXPECT_EQ(seen, (std::set<std::string>{"resnet50/fp32", "resnet50/amp", "unet3d/fp32", "unet3d/amp"}));
  // The MLPerf Storage figures beside the GPU's come from the shipped jobs, not from a copy.
  Outcome j = sh("cd " + std::string(DLGEN_SOURCE_DIR) + "/bench/gpu && " + kPy +
                 " -c 'import json, step_times; print(json.dumps(step_times.job_times(\"unet3d\")))'");
  ASSERT_EQ(j.code, 0) << j.out;
  const json u = json::parse(j.out.substr(j.out.rfind('{')));
  EXPECT_DOUBLE_EQ(u["h100"].get<double>(), 0.323);
  EXPECT_DOUBLE_EQ(u["b200"].get<double>(), 0.162);
}

}  // namespace
