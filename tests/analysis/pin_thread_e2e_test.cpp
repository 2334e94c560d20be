// A training loop behind an in-process hand-over, captured for real (root, BPF): the CPU stand-in
// for PyTorch's pin_memory=True (tests/pytorch/pin_thread.py: a `pt_data_pin` thread of the main
// process receives the batches from 4 DataLoader workers and hands them to the loop through a
// queue.Queue; JPEG class folders, batch 16, 3 epochs with a validation pass after each). The
// loop makes no syscall per step; distil must still count the program's own steps per pass, and
// the number of steps it reports must be those the program printed. Skips (with the reason) where
// capture cannot run.
#include <gtest/gtest.h>
#include <unistd.h>

#include "dlgen/core/json.hpp"
#include <string>

#include "shell.hpp"
#include "temp_dir.hpp"

namespace {

using dlgen::testing::Outcome;
using dlgen::testing::sh;

class PinThreadE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "dlgen capture needs root (BPF)";
    if (sh(DLGEN_PYTHON " -c 'import torch, PIL'").code != 0)
      GTEST_SKIP() << "python3-torch or python3-pil is not installed";
  }
  Outcome run(const std::string& cmd) {
    return sh("cd '" + dir_.path().string() + "' && DLGEN_NO_PROGRESS=1 " + cmd);
  }
  dlgen::testing::TempDir dir_{"dlgen-pin-e2e"};
};

// Last stdout line that parses as a JSON object.
nlohmann::json last_json(const std::string& out) {
  const auto pos = out.rfind("\n{");
  return nlohmann::json::parse(pos == std::string::npos ? out : out.substr(pos + 1), nullptr,
                               false);
}

TEST_F(PinThreadE2E, DistilCountsTheLoopsStepsBehindAReceivingThread) {
  const std::string script = std::string(DLGEN_SOURCE_DIR) + "/tests/pytorch/pin_thread.py";
  ASSERT_EQ(run(DLGEN_PYTHON " " + script + " --make-data data").code, 0);
  const Outcome c = run("'" DLGEN_BINARY "' capture -q -o run.h5 -- " DLGEN_PYTHON " " + script +
                        " --data data/train --val-data data/val --checkpoint-dir ck "
                        "--workers 4 --batch-size 16 --epochs 3");
  if (c.code == 77) GTEST_SKIP() << "dlgen capture cannot run here: " << c.out;
  ASSERT_EQ(c.code, 0) << c.out;
  const auto truth = last_json(c.out);
  ASSERT_TRUE(truth.is_object() && truth.contains("steps_per_epoch")) << c.out;

  const Outcome d = run("'" DLGEN_BINARY "' distil run.h5 --json");
  ASSERT_EQ(d.code, 0) << d.out;
  const auto s = nlohmann::json::parse(d.out, nullptr, false);
  ASSERT_TRUE(s.is_object()) << d.out;
  const auto& epochs = s["epochs"];
  ASSERT_EQ(epochs.size(), 6u) << epochs.dump();
  std::vector<std::size_t> steps(epochs.size(), 0);
  for (const auto& st : s["steps"]) ++steps.at(st["epoch"].get<std::size_t>());
  std::size_t train = 0, eval = 0;
  for (std::size_t i = 0; i < epochs.size(); ++i) {
    const bool evaluation = epochs[i]["evaluation"].get<bool>();
    ASSERT_EQ(evaluation, i % 2 == 1) << i;
    const auto want = (evaluation ? truth["val_steps_per_pass"] : truth["steps_per_epoch"])[i / 2]
                          .get<std::size_t>();
    EXPECT_EQ(steps[i], want) << "pass " << i;
    EXPECT_EQ(epochs[i]["steps"].get<std::size_t>(), want) << "pass " << i;
    (evaluation ? eval : train) += steps[i];
  }
  EXPECT_EQ(train, truth["steps"].get<std::size_t>());
  EXPECT_EQ(eval, truth["val_steps"].get<std::size_t>());
}

}  // namespace
