// The MLPerf Storage submission folder: the tree v2.0's validation rules ask for (division,
// submitter, code, systems, results/<system>/<category>/<workload>, one timestamp folder per run
// with its logs, DLIO-named summary.json and dlio_config/ of exactly three files), written to a
// temporary directory and walked; names made folder-safe; runs that would share a folder and an
// earlier submission in the same place are refused; the submitter's system file is kept.
#include "dlgen/mlperf/mlperf_submission.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include "dlgen/core/json.hpp"
#include <regex>
#include <set>

#include "dlgen/dlio/summary.hpp"
#include "dlgen/mlperf/mlperf_checkpoint.hpp"
#include "temp_dir.hpp"

namespace dlgen::mlperf {
namespace {

using dlio::dlio_summary_json;
using replay::EpochResult;
using replay::Report;
using testing::TempDir;
namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream f(p);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

std::set<std::string> names(const fs::path& dir) {
  std::set<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.insert(e.path().filename().string());
  return out;
}

// A training run's files as the CLI makes them: DLIO's summary of a small report.
SubmissionRun training_run(const std::string& ts, bool warmup) {
  Job job;
  job.name = "unet3d";
  Report rep;
  rep.samples_per_s = 100;
  rep.au = 0.95;
  rep.passed = true;
  EpochResult e;
  e.epoch = 1;
  e.seconds = 2;
  e.samples = 200;
  e.bytes = 1 << 20;
  rep.epochs_detail.push_back(e);
  SubmissionRun r;
  r.timestamp = ts;
  r.summary_json = dlio_summary_json(job, rep, {});
  r.per_epoch_stats_json = dlio_training_epoch_stats_json(rep);
  r.output_json = "{}\n";
  r.log = "unet3d: 100 samples/s\n";
  r.warmup = warmup;
  return r;
}

SubmissionSpec spec(bool checkpointing, std::size_t runs) {
  SubmissionSpec s;
  s.submitter = "ACME Storage/Labs";
  s.system = "fast box";
  s.division = Division::closed;
  s.checkpointing = checkpointing;
  s.workload = checkpointing ? "llama3-8b" : "unet3d";
  s.results_json = "{\"division\": \"CLOSED\"}\n";
  s.job_toml = "[job]\nname = \"x\"\n";
  s.config_yaml = "model:\n  name: x\n";
  s.overrides = {"++workload.reader.read_threads=8", "--set reader.prefetch=4"};
  s.command_line = "dlgen mlperf x.yaml";
  s.tool_version = "dlgen test";
  for (std::size_t i = 0; i < runs; ++i) {
    char ts[48];
    std::snprintf(ts, sizeof ts, "20260101_1200%02zu", i);
    if (!checkpointing) {
      s.runs.push_back(training_run(ts, i == 0));
    } else {
      CheckpointRunResult c;
      c.ranks = 1;
      c.checkpoint_bytes = 1 << 30;
      c.writes = {CheckpointPass{static_cast<std::uint32_t>(i + 1), {{0, 1 << 30, 2.0}}}};
      c.reads = {CheckpointPass{static_cast<std::uint32_t>(i + 1), {{0, 1 << 30, 1.0}}}};
      SubmissionRun r;
      r.timestamp = ts;
      r.summary_json = dlio_checkpoint_summary_json(c, {});
      r.per_epoch_stats_json = dlio_checkpoint_epoch_stats_json(c);
      r.output_json = checkpoint_json(c);
      s.runs.push_back(r);
    }
  }
  return s;
}

// Checks one run's timestamp folder and returns its parsed summary.json.
nlohmann::json check_run_folder(const fs::path& d, const char* category) {
  EXPECT_TRUE(std::regex_match(d.filename().string(), std::regex("[0-9]{8}_[0-9]{6}")))
      << d.filename();
  const std::set<std::string> want = {std::string(category) + "_run.stdout.log",
                                      std::string(category) + "_run.stderr.log",
                                      "summary.json",
                                      "per_epoch_stats.json",
                                      "dlgen_output.json",
                                      "dlio.log",
                                      "dlgen_job.toml",
                                      "dlio_config"};
  EXPECT_EQ(names(d), want) << d;
  // MLPerf's rule 2.1.20 / 2.1.26: dlio_config holds these three files and nothing else.
  EXPECT_EQ(names(d / "dlio_config"),
            (std::set<std::string>{"config.yaml", "hydra.yaml", "overrides.yaml"}));
  EXPECT_NE(read(d / "dlio_config/overrides.yaml").find("- '++workload.reader.read_threads=8'"),
            std::string::npos);
  EXPECT_TRUE(nlohmann::json::accept(read(d / "per_epoch_stats.json")));
  return nlohmann::json::parse(read(d / "summary.json"));
}

TEST(MlperfSubmission, TrainingTreeAsTheRulesLayItOut) {
  TempDir tmp("dlgen-sub");
  Result<std::vector<SubmissionFile>> files = submission_files(spec(false, 6));
  ASSERT_TRUE(files) << files.error().message;
  ASSERT_TRUE(write_submission(tmp.path(), *files));
  EXPECT_EQ(names(tmp.path()), (std::set<std::string>{"closed"}));
  const fs::path top = tmp / "closed/ACME-Storage-Labs";
  EXPECT_EQ(names(top), (std::set<std::string>{"code", "results", "systems"}));
  EXPECT_EQ(names(top / "systems"), (std::set<std::string>{"fast-box.json"}));
  EXPECT_TRUE(nlohmann::json::accept(read(top / "systems/fast-box.json")));  // a stub, valid JSON
  EXPECT_EQ(names(top / "results"), (std::set<std::string>{"fast-box"}));
  EXPECT_EQ(names(top / "results/fast-box"), (std::set<std::string>{"training"}));
  const fs::path run = top / "results/fast-box/training/unet3d/run";
  std::set<std::string> in_run = names(run);
  EXPECT_EQ(in_run.count("results.json"), 1u);
  EXPECT_EQ(in_run.size(), 7u);  // results.json + warm-up + 5 runs
  for (const std::string& n : in_run) {
    if (n == "results.json") continue;
    const auto s = check_run_folder(run / n, "training");
    for (const char* key : {"train_au_mean_percentage", "train_throughput_mean_samples_per_second",
                            "train_io_mean_MB_per_second", "train_au_meet_expectation"})
      EXPECT_TRUE(s["metric"].contains(key)) << n << " " << key;
  }
  EXPECT_NE(read(run / "20260101_120000/training_run.stdout.log").find("warm-up"),
            std::string::npos);
  EXPECT_EQ(read(run / "20260101_120001/training_run.stdout.log").find("warm-up"),
            std::string::npos);
  // A second submission into the same place is refused, before its runs and after; the
  // submitter's system file is kept.
  SubmissionSpec later = spec(false, 0);
  later.division = Division::invalid;  // whatever division the next result gets
  EXPECT_FALSE(check_submission_free(tmp.path(), later));
  later.workload = "cosmoflow";
  EXPECT_TRUE(check_submission_free(tmp.path(), later));
  std::ofstream(top / "systems/fast-box.json") << "{\"filled\": true}\n";
  Result<void> again = write_submission(tmp.path(), *files);
  ASSERT_FALSE(again);
  EXPECT_NE(again.error().message.find("already there"), std::string::npos);
  SubmissionSpec other = spec(false, 2);
  other.workload = "resnet50";
  ASSERT_TRUE(write_submission(tmp.path(), *submission_files(other)));
  EXPECT_EQ(read(top / "systems/fast-box.json"), "{\"filled\": true}\n");
}

TEST(MlperfSubmission, CheckpointingTreeWithDlioNames) {
  TempDir tmp("dlgen-sub");
  SubmissionSpec s = spec(true, 10);
  s.division = Division::invalid;
  Result<std::vector<SubmissionFile>> files = submission_files(s);
  ASSERT_TRUE(files) << files.error().message;
  ASSERT_TRUE(write_submission(tmp.path(), *files));
  // INVALID has no MLPerf folder: the tree is kept apart, for inspection.
  const fs::path w = tmp / "invalid/ACME-Storage-Labs/results/fast-box/checkpointing/llama3-8b";
  std::set<std::string> in = names(w);
  EXPECT_EQ(in.count("results.json"), 1u);
  EXPECT_EQ(in.size(), 11u);  // results.json + 10 runs
  for (const std::string& n : in) {
    if (n == "results.json") continue;
    const auto j = check_run_folder(w / n, "checkpointing");
    for (const char* key :
         {"save_checkpoint_io_mean_GB_per_second", "save_checkpoint_duration_mean_seconds",
          "load_checkpoint_io_mean_GB_per_second", "load_checkpoint_duration_mean_seconds",
          "checkpoint_size_GB"})
      EXPECT_TRUE(j["metric"].contains(key)) << n << " " << key;
    EXPECT_DOUBLE_EQ(j["metric"]["save_checkpoint_io_mean_GB_per_second"].get<double>(), 0.5);
  }
}

TEST(MlperfSubmission, NamesTimestampsAndCollisions) {
  EXPECT_EQ(submission_name("ACME Storage/Labs"), "ACME-Storage-Labs");
  EXPECT_EQ(submission_name("a.b_c-D9"), "a.b_c-D9");
  EXPECT_EQ(submission_name(""), "unnamed");
  EXPECT_EQ(submission_name(".."), "unnamed");
  EXPECT_TRUE(std::regex_match(submission_timestamp(0), std::regex("[0-9]{8}_[0-9]{6}")));
  EXPECT_NE(submission_timestamp(0), submission_timestamp(1));
  EXPECT_STREQ(submission_division_folder(Division::open), "open");
  SubmissionSpec s = spec(false, 2);
  s.runs[1].timestamp = s.runs[0].timestamp;
  Result<std::vector<SubmissionFile>> f = submission_files(s);
  ASSERT_FALSE(f);
  EXPECT_NE(f.error().message.find("two runs end at"), std::string::npos);
}

}  // namespace
}  // namespace dlgen::mlperf
