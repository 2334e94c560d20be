// Evaluation passes end to end, with real captures (root: BPF; skips when capture reports 77):
// - a replay of a job with a validation set (laid out as `dlgen distil` writes it: "<name>-val"
//   beside "<name>", both in class folders) summarises with its evaluation passes apart from its
//   epochs, with the numbers the job plans (files, steps and readers per pass);
// - an ImageFolder-style PyTorch script (tests/pytorch/imagefolder.py: 2 workers, batch 16, JPEG
//   class folders, a validation pass after every epoch, torch.save each epoch and a copy of the
//   best model) through capture → distil → run --capture → compare: the training and evaluation
//   rows pass, and the HTML report shows the evaluation passes as their own rows. Both sides run
//   at real-time priority, so other jobs on the host do not stretch only the original's steps; the
//   original is captured twice and so is the replay, and the rows of host time are judged against
//   both sides' own run-to-run spreads.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include "dlgen/core/json.hpp"

#include "compare_rows.hpp"
#include "dlgen/core/job_io.hpp"
#include "e2e_fixture.hpp"

namespace {

using dlgen::testing::compare_row;
using dlgen::testing::failed_rows;
using dlgen::testing::Outcome;
using dlgen::testing::Priority;
using dlgen::testing::sh;
using dlgen::testing::slurp;
using dlgen::testing::TempDir;

class EvalE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "dlgen capture needs root (BPF)";
  }

  Outcome dlgen(const std::string& args) {
    return dlgen::testing::dlgen_in(dir_.path(), args, Priority::as_is);
  }

  // A run whose timing is measured (a capture of the original, a replay), at real-time priority
  // (SCHED_FIFO 1, inherited by every process and thread it starts): the programs on both sides
  // then get a CPU when they need one even while other jobs load the host, as an accelerator's
  // feeding process on an idle node would. dlgen's replay already runs its accelerator threads so;
  // without this only the original's steps stretched under load.
  Outcome dlgen_measured(const std::string& args) {
    return dlgen::testing::dlgen_in(dir_.path(), args, Priority::realtime);
  }

  // The summary of a trace (`dlgen distil --json`).
  nlohmann::json summary(const std::string& trace) {
    Outcome o = dlgen("distil --json " + trace);
    EXPECT_EQ(o.code, 0) << o.out;
    return nlohmann::json::parse(o.out, nullptr, false);
  }

  TempDir dir_{"evalpass-e2e"};
};

TEST_F(EvalE2E, ReplayOfAJobWithValidationSummarisesItsEvaluationPassesApart) {
  const std::string root = dir_.path().string();
  // 120 training files in 4 folders, 40 validation files in 4 folders, batch 8, 2 workers,
  // 3 epochs with a validation pass after each: 15 training and 5 evaluation steps per pass.
  std::ofstream(dir_ / "job.toml") << "[job]\nname = \"evalpass\"\n"
                                   << "[dataset]\ndir = \"" << root
                                   << "/imgs\"\nformat = \"jpeg\"\nnum_files = 120\n"
                                      "sample_size = \"20KiB\"\nfiles_per_dir = 30\n"
                                   << "[validation]\ndir = \"" << root
                                   << "/imgs-val\"\nnum_files = 40\nfiles_per_dir = 10\n"
                                      "[reader]\nbatch_size = 8\nworkers = 2\n"
                                      "[compute]\ntime = \"0.004s\"\neval_time = \"0.002s\"\n"
                                      "[run]\nepochs = 3\neval_every_epochs = 1\n";
  Outcome r = dlgen("run job.toml -q --capture replay.h5");
  if (r.code == 77) GTEST_SKIP() << "capture cannot run here: " << r.out;
  ASSERT_EQ(r.code, 0) << r.out;
  const auto s = summary("replay.h5");
  ASSERT_TRUE(s.is_object());
  ASSERT_EQ(s["datasets"].size(), 2u) << s["datasets"].dump();
  EXPECT_EQ(s["datasets"][0]["dir"], root + "/imgs");
  EXPECT_EQ(s["datasets"][0]["class"], "train");
  EXPECT_EQ(s["datasets"][0]["files"], 120);
  EXPECT_EQ(s["datasets"][1]["dir"], root + "/imgs-val");
  EXPECT_EQ(s["datasets"][1]["class"], "validation");
  EXPECT_EQ(s["datasets"][1]["files"], 40);
  ASSERT_EQ(s["epochs"].size(), 6u);
  for (std::size_t i = 0; i < 6; ++i) {
    const auto& e = s["epochs"][i];
    const bool eval = i % 2 == 1;
    EXPECT_EQ(e["evaluation"], eval) << i;
    EXPECT_EQ(e["index"], i / 2) << i;
    EXPECT_EQ(e["accesses"], eval ? 40 : 120) << i;
    EXPECT_EQ(e["unique_files"], eval ? 40 : 120) << i;
    EXPECT_EQ(e["steps"], eval ? 5 : 15) << i;
    EXPECT_EQ(e["reader_count"], 2) << i;
  }
  // The training set's order is a fresh shuffle each epoch, untouched by the validation reads.
  EXPECT_EQ(s["datasets"][0]["order"]["kind"], "shuffled");
  EXPECT_TRUE(s["datasets"][0]["order"]["reshuffled"].get<bool>());
  // And distil of the replay gives back the job's shape.
  Outcome d = dlgen("distil replay.h5 -o back.toml");
  ASSERT_EQ(d.code, 0) << d.out;
  auto back = dlgen::load_job(dir_ / "back.toml");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->dataset.num_files, 120u);
  ASSERT_TRUE(back->validation.has_value());
  EXPECT_EQ(back->validation->num_files, 40u);
  EXPECT_EQ(back->run.epochs, 3u);
  EXPECT_EQ(back->run.eval_every_epochs, 1u);
  EXPECT_EQ(back->reader.workers, 2u);
  EXPECT_EQ(back->reader.batch_size, 8u);
}

TEST_F(EvalE2E, ImageFolderScriptWithValidationPassesOnTrainingAndEvaluationRows) {
  if (sh(std::string(DLGEN_PYTHON) + " -c 'import torch, PIL, numpy'").code != 0)
    GTEST_SKIP() << "python3-torch, PIL or numpy is not installed";
  if (sh("chrt -f 1 true").code != 0)
    GTEST_SKIP() << "cannot run at real-time priority here (chrt -f 1): timings would be the "
                    "host's";
  const std::string root = dir_.path().string();
  const std::string script = std::string(DLGEN_SOURCE_DIR) + "/tests/pytorch/imagefolder.py";
  Outcome m = sh(std::string(DLGEN_PYTHON) + " " + script + " --make-data " + root + "/data");
  ASSERT_EQ(m.code, 0) << m.out;
  Outcome c = dlgen_measured("capture -q -o orig.h5 -- " DLGEN_PYTHON " " + script + " --data " +
                             root + "/data/train --val-data " + root +
                             "/data/val --checkpoint-dir " + root + "/ckpt");
  if (c.code == 77) GTEST_SKIP() << "capture cannot run here: " << c.out;
  ASSERT_EQ(c.code, 0) << c.out;
  const auto truth = nlohmann::json::parse(c.out.substr(c.out.rfind('{')), nullptr, false);
  ASSERT_TRUE(truth.is_object()) << c.out;

  Outcome d = dlgen("distil orig.h5 -o job.toml --dataset-dir " + root + "/replay-data");
  ASSERT_EQ(d.code, 0) << d.out;
  auto job = dlgen::load_job(dir_ / "job.toml");
  ASSERT_TRUE(job) << job.error().message;
  EXPECT_EQ(job->dataset.num_files, truth["train_files"].get<std::uint64_t>());
  ASSERT_TRUE(job->validation.has_value());
  EXPECT_EQ(job->validation->num_files, truth["val_files"].get<std::uint64_t>());
  EXPECT_EQ(job->reader.batch_size, 16u);
  EXPECT_EQ(job->reader.workers, 2u);
  EXPECT_EQ(job->run.epochs, 2u);
  EXPECT_EQ(job->run.eval_every_epochs, 1u);

  ASSERT_EQ(dlgen("generate -q job.toml").code, 0);
  Outcome r = dlgen_measured("run job.toml -q --set checkpoint.dir=" + root +
                             "/replay-ckpt --capture replay.h5");
  ASSERT_EQ(r.code, 0) << r.out;
  // The original and the replay once more each, after the first replay: each side's two runs
  // give its run-to-run spread over the window the comparison ran in (spread_tolerances).
  Outcome c2 = dlgen_measured("capture -q -o orig2.h5 -- " DLGEN_PYTHON " " + script + " --data " +
                              root + "/data/train --val-data " + root +
                              "/data/val --checkpoint-dir " + root + "/ckpt2");
  ASSERT_EQ(c2.code, 0) << c2.out;
  Outcome r2 = dlgen_measured("run job.toml -q --set checkpoint.dir=" + root +
                              "/replay-ckpt2 --capture replay2.h5");
  ASSERT_EQ(r2.code, 0) << r2.out;
  std::vector<nlohmann::json> spreads;
  for (const char* pair : {"orig.h5 orig2.h5", "replay.h5 replay2.h5"}) {
    Outcome o = dlgen(std::string("compare ") + pair + " --json");
    spreads.push_back(nlohmann::json::parse(o.out, nullptr, false));
    ASSERT_TRUE(spreads.back().is_object()) << o.out;
  }
  Outcome cmp = dlgen("compare orig.h5 replay.h5 --json --report report.html" +
                      dlgen::testing::spread_tolerances(spreads));
  const auto j = nlohmann::json::parse(cmp.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << cmp.out;

  // Every row at its default tolerance: training rows, evaluation rows, the run's timing (the
  // fresh workers' warm-up and the consumer's per-batch cost are in the job) and the checkpoint
  // as written (torch.save each epoch, the best model copied). The rows of host time (timing at
  // 10%, eval_step_time at 20%...) are widened by the original's and the replay's own spreads
  // between their two runs (spread_tolerances): a real program's step times move with the host's
  // load, and a replay need not match the original better than each matches itself.
  for (const char* name : {"bytes_read",
                           "files_read",
                           "read_ops",
                           "request_size",
                           "epoch_bytes_read",
                           "epochs",
                           "steps",
                           "readers",
                           "order_vs_path",
                           "reshuffle",
                           "reads_per_file",
                           "sequential_fraction",
                           "epoch_time",
                           "duration",
                           "throughput",
                           "step_time",
                           "compute",
                           "consumer",
                           "au",
                           "eval_passes",
                           "eval_files",
                           "eval_epoch_bytes_read",
                           "eval_steps",
                           "eval_step_time",
                           "checkpoints",
                           "checkpoint_size",
                           "checkpoint_write_time",
                           "checkpoint_copy",
                           "bytes_written"})
    EXPECT_EQ(compare_row(j, name)["verdict"], "PASS") << name << ": " << failed_rows(j);
  EXPECT_EQ(cmp.code, 0) << "every metric passes; failed: " << failed_rows(j);
  ASSERT_EQ(j["eval_passes"].size(), 2u);
  for (const auto& row : j["eval_passes"]) {
    EXPECT_EQ(row["original"]["files_read"], truth["val_files"]);
    EXPECT_EQ(row["replay"]["files_read"], truth["val_files"]);
  }
  ASSERT_EQ(j["epochs"].size(), 2u);
  for (const auto& row : j["epochs"]) {
    EXPECT_EQ(row["original"]["files_read"], truth["train_files"]);
    EXPECT_EQ(row["replay"]["files_read"], truth["train_files"]);
  }

  const std::string html = slurp(dir_ / "report.html");
  EXPECT_NE(html.find("<h2>Per evaluation pass</h2>"), std::string::npos);
  for (const char* name : {"eval_passes", "eval_epoch_bytes_read", "eval_steps", "eval_step_time"})
    EXPECT_NE(html.find(std::string("<td class=\"l\">") + name + "</td>"), std::string::npos)
        << name;
}

}  // namespace
