// The held-out GPU programs (README.md here) on CPU at tiny scale, no capture: make_data.py writes
// the same bytes every time, and each program's own ground truth (the records a GPU capture is
// judged against) agrees with the files on disk: steps per epoch from the CSV rows or the sampler's
// draws and the batch size, optimizer steps from the accumulation, the checkpoints that remain and
// their sizes. Real PyTorch, no root; skipped where python3-torch, PIL or numpy is missing.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include "dlgen/core/json.hpp"
#include <set>
#include <string>
#include <vector>

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
const std::string kDir = std::string(DLGEN_SOURCE_DIR) + "/tests/pytorch/heldout_gpu/";

// The rows of a CSV after its header (filename,label), each checked to name a file in `folder`.
std::vector<std::string> csv_files(const fs::path& csv, const fs::path& folder) {
  std::ifstream f(csv);
  std::string line;
  std::getline(f, line);
  EXPECT_EQ(line, "filename,label") << csv;
  std::vector<std::string> out;
  while (std::getline(f, line)) {
    if (line.empty()) continue;
    const std::string name = line.substr(0, line.find(','));
    EXPECT_TRUE(fs::is_regular_file(folder / name)) << csv << ": " << name;
    out.push_back(name);
  }
  return out;
}

std::set<std::string> names_in(const fs::path& dir) {
  std::set<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.insert(e.path().filename());
  return out;
}

class HeldoutGpuPrograms : public ::testing::Test {
 protected:
  void SetUp() override {
    if (sh(kPy + " -c 'import torch, PIL, numpy'").code != 0)
      GTEST_SKIP() << "python3-torch, PIL or numpy is not installed";
  }
  Outcome make(const std::string& args) { return sh(kPy + " " + kDir + "make_data.py " + args); }
  TempDir dir_{"dlgen-heldoutgpu"};
};

TEST_F(HeldoutGpuPrograms, DataIsTheSameBytesEveryTimeWithValidationByListInOneFolder) {
  const auto root = dir_.path();
  const std::string a = (root / "a").string(), b = (root / "b").string();
  Outcome ma = make("--images " + a + "/img --shards " + a + "/sh --train 40 --val 12 --jobs 2");
  ASSERT_EQ(ma.code, 0) << ma.out;
  Outcome mb = make("--images " + b + "/img --shards " + b + "/sh --train 40 --val 12 --jobs 1");
  ASSERT_EQ(mb.code, 0) << mb.out;
  EXPECT_EQ(sh("diff -r " + a + " " + b).code, 0) << "two runs wrote different files";

  // One flat folder; the CSVs split it, every image listed once.
  const auto train = csv_files(root / "a/img/train.csv", root / "a/img/images");
  const auto val = csv_files(root / "a/img/val.csv", root / "a/img/images");
  EXPECT_EQ(train.size(), 40u);
  EXPECT_EQ(val.size(), 12u);
  std::set<std::string> listed(train.begin(), train.end());
  listed.insert(val.begin(), val.end());
  EXPECT_EQ(listed, names_in(root / "a/img/images"));
  bool png = false;
  for (const auto& n : listed) png = png || n.ends_with(".png");
  EXPECT_TRUE(png) << "JPEG and PNG mixed";

  // Token shards: uint16, the cpu scale's 4 x 256 KiB and one val shard.
  EXPECT_EQ(
      names_in(root / "a/sh/train"),
      (std::set<std::string>{"shard_000.bin", "shard_001.bin", "shard_002.bin", "shard_003.bin"}));
  EXPECT_EQ(fs::file_size(root / "a/sh/train/shard_002.bin"), 256u << 10);
  EXPECT_EQ(fs::file_size(root / "a/sh/val/shard_000.bin"), 256u << 10);
  std::ifstream meta(root / "a/sh/meta.json");
  EXPECT_EQ(json::parse(meta)["vocab_size"], 512);
}

TEST_F(HeldoutGpuPrograms, PrefetchImagenetStepsFollowTheCsvAndOnlyTheLastTwoCheckpointsRemain) {
  const auto root = dir_.path();
  Outcome m = make("--images " + (root / "img").string() + " --train 72 --val 20 --jobs 2");
  ASSERT_EQ(m.code, 0) << m.out;
  const auto ckpt = root / "ckpt";
  // 72 rows / 16 = 4.5: the last batch is short (no drop_last): 5 steps an epoch, 10 in all, so a
  // checkpoint every 3 steps saves at 3, 6 and 9 and deletes the one of step 3.
  Outcome r =
      sh(kPy + " " + kDir + "prefetch_imagenet.py " + (root / "img").string() +
         " --device cpu --arch tiny -j 2 -b 16 --epochs 2 --image-size 32 --val-resize 40 --amp"
         " --ckpt-every 3 --checkpoint-dir " +
         ckpt.string() + " --log " + (root / "truth.jsonl").string());
  ASSERT_EQ(r.code, 0) << r.out;
  const auto log = read_log(root / "truth.jsonl");
  const auto summary = of(log, "summary");
  ASSERT_EQ(summary.size(), 1u);
  const json& s = summary[0];
  const auto train_rows = csv_files(root / "img/train.csv", root / "img/images").size();
  const auto val_rows = csv_files(root / "img/val.csv", root / "img/images").size();
  EXPECT_EQ(s["train_samples"], train_rows);
  EXPECT_EQ(s["val_samples"], val_rows);
  EXPECT_EQ(s["steps_per_epoch"], json::array({5, 5}));
  EXPECT_EQ(s["val_steps_per_pass"], json::array({2, 2}));
  EXPECT_EQ(s["batch_size"], 16);
  EXPECT_EQ(s["workers"], 2);
  EXPECT_EQ(s["prefetcher"], "plain") << "CPU: no streams";
  EXPECT_EQ(s["pin_memory"], false);

  const auto steps = of(log, "step");
  ASSERT_EQ(steps.size(), 14u);
  for (const auto& st : steps) {
    EXPECT_GT(st["compute_s"].get<double>(), 0.0) << st;
    EXPECT_GE(st["data_wait_s"].get<double>(), 0.0) << st;
    // The prefetcher took the batch from the DataLoader before the loop took it from the
    // prefetcher.
    EXPECT_LE(st["t_loaded_ns"].get<std::int64_t>(), st["t_ready_ns"].get<std::int64_t>()) << st;
  }

  const auto saved = of(log, "checkpoint");
  ASSERT_EQ(saved.size(), 3u);
  std::uint64_t total = 0;
  for (const auto& c : saved) total += c["bytes"].get<std::uint64_t>();
  EXPECT_EQ(s["checkpoint_bytes"], total);
  EXPECT_EQ(saved[0]["step"], 3);
  EXPECT_EQ(saved[2]["step"], 9);
  const auto removed = of(log, "checkpoint_removed");
  ASSERT_EQ(removed.size(), 1u);
  EXPECT_EQ(removed[0]["path"], saved[0]["path"]);
  EXPECT_EQ(s["checkpoints_removed"], 1);
  EXPECT_EQ(names_in(ckpt), (std::set<std::string>{"checkpoint_step000006.pth.tar",
                                                   "checkpoint_step000009.pth.tar"}));
  for (std::size_t i = 1; i < 3; ++i)
    EXPECT_EQ(saved[i]["bytes"].get<std::uintmax_t>(),
              fs::file_size(saved[i]["path"].get<std::string>()));
}

TEST_F(HeldoutGpuPrograms, LmShardsCountsMicroStepsOptimizerStepsEvaluationsAndTheCheckpoint) {
  const auto root = dir_.path();
  Outcome m = make("--shards " + (root / "sh").string() + " --jobs 2");
  ASSERT_EQ(m.code, 0) << m.out;
  // The sampler draws 100 windows an epoch, batch 8: 13 micro-steps (the last of 4 windows), 26 in
  // all; every 4th an optimizer step: 6 (the last 2 micro-steps' gradients are never applied);
  // evaluations of 3 batches after optimizer steps 2, 4 and 6; ckpt.pt after 3 and 6.
  Outcome r = sh(
      kPy + " " + kDir + "lm_shards.py " + (root / "sh").string() +
      " --device cpu --size tiny -j 2 -b 8 --block 64 --accum 4 --epochs 2 --samples-per-epoch 100"
      " --eval-every 2 --eval-iters 3 --ckpt-every 3 --log-every 5 --out " +
      (root / "out").string() + " --log " + (root / "truth.jsonl").string());
  ASSERT_EQ(r.code, 0) << r.out;
  const auto log = read_log(root / "truth.jsonl");
  const auto summary = of(log, "summary");
  ASSERT_EQ(summary.size(), 1u);
  const json& s = summary[0];
  EXPECT_EQ(s["steps_per_epoch"], json::array({13, 13}));
  EXPECT_EQ(s["val_steps_per_pass"], json::array({3, 3, 3}));
  EXPECT_EQ(s["evals_after_optimizer_steps"], json::array({2, 4, 6}));
  EXPECT_EQ(s["optimizer_steps"], 6);
  EXPECT_EQ(s["micro_batches_per_optimizer_step"], 4);
  EXPECT_EQ(s["batch_size"], 8);
  EXPECT_EQ(s["workers"], 2);
  EXPECT_EQ(s["train_shards"], 4);
  EXPECT_EQ(s["val_shards"], 1);

  std::size_t train = 0, val = 0, optimizer = 0;
  for (const auto& st : of(log, "step")) {
    EXPECT_GT(st["compute_s"].get<double>(), 0.0) << st;
    if (st["phase"] == "val") {
      ++val;
      continue;
    }
    EXPECT_EQ(st["micro_step"], train) << "training records in order";
    EXPECT_EQ(st["optimizer_step"].get<bool>(), train % 4 == 3) << st;
    optimizer += st["optimizer_step"].get<bool>();
    ++train;
  }
  EXPECT_EQ(train, 26u);
  EXPECT_EQ(val, 9u);
  EXPECT_EQ(optimizer, 6u);

  // ckpt.pt is overwritten: the file on disk is the last save; the summary counts both.
  const auto saved = of(log, "checkpoint");
  ASSERT_EQ(saved.size(), 2u);
  EXPECT_EQ(saved[0]["optimizer_step"], 3);
  EXPECT_EQ(saved[1]["optimizer_step"], 6);
  EXPECT_EQ(names_in(root / "out"), std::set<std::string>{"ckpt.pt"});
  EXPECT_EQ(saved[1]["bytes"].get<std::uintmax_t>(), fs::file_size(root / "out/ckpt.pt"));
  EXPECT_EQ(s["checkpoint_bytes"],
            saved[0]["bytes"].get<std::uint64_t>() + saved[1]["bytes"].get<std::uint64_t>());
}

}  // namespace
