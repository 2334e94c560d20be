// DLIO's summary.json written from a dlgen report: DLIO's keys and aggregations (per training
// epoch lists, np.mean and np.std over them, evaluation passes left out) and its nominal MB/s
// (samples/s x the configured mean record size / 2^20), beside what storage really served.
#include "dlgen/dlio/summary.hpp"

#include <gtest/gtest.h>

#include "dlgen/core/json.hpp"

namespace dlgen::dlio {
namespace {

using replay::EpochResult;
using replay::Report;

TEST(DlioSummary, NominalRecordBytesIsTheConfiguredMeanSampleSize) {
  EXPECT_DOUBLE_EQ(nominal_record_bytes(Distribution::fixed_at(4096)), 4096);
  Distribution u;
  u.kind = DistKind::uniform;
  u.min = 1000;
  u.max = 3000;
  EXPECT_DOUBLE_EQ(nominal_record_bytes(u), 2000);
  Distribution n;
  n.kind = DistKind::normal;
  n.mean = 146e6;
  n.stdev = 68e6;
  EXPECT_DOUBLE_EQ(nominal_record_bytes(n), 146e6);
  Distribution h;  // weighted mean of the bins' midpoints: (1 x 150 + 3 x 350) / 4
  h.kind = DistKind::histogram;
  h.bins = {{100, 200, 1}, {300, 400, 3}};
  EXPECT_DOUBLE_EQ(nominal_record_bytes(h), 300);
}

TEST(DlioSummary, TrainingEpochsOnlyWithDliosMeansAndPopulationStdev) {
  Job job;
  job.dataset.sample_size = Distribution::fixed_at(1048576);
  job.dataset.num_files = 10;
  job.run.epochs = 2;
  job.run.accelerators = 4;
  Report r;
  EpochResult e1, eval, e2;
  e1.epoch = 1, e1.seconds = 10, e1.samples = 1000, e1.au = 0.90;
  eval.epoch = 1, eval.eval = true, eval.seconds = 1, eval.samples = 5, eval.au = 0.10;
  e2.epoch = 2, e2.seconds = 10, e2.samples = 3000, e2.au = 0.70;
  r.epochs_detail = {e1, eval, e2};
  r.samples_per_s = 200;
  r.passed = true;
  DlioSummaryContext ctx;
  ctx.hosts = 2;
  const auto j = nlohmann::json::parse(dlio_summary_json(job, r, ctx));
  const auto& m = j["metric"];
  ASSERT_EQ(m["train_au_percentage"].size(), 2u);  // the evaluation pass is not a training epoch
  EXPECT_NEAR(m["train_au_mean_percentage"].get<double>(), 80, 1e-9);
  EXPECT_NEAR(m["train_au_stdev_percentage"].get<double>(), 10, 1e-9);  // np.std, not n - 1
  EXPECT_NEAR(m["train_throughput_stdev_samples_per_second"].get<double>(), 100, 1e-9);
  EXPECT_EQ(m["train_au_meet_expectation"], "success");
  // DLIO's "MB/s": samples/s x record_length_bytes / 2^20 (here 1 MiB records).
  EXPECT_NEAR(m["train_io_mean_MB_per_second"].get<double>(), 200, 1e-9);
  EXPECT_EQ(j["num_accelerators"], 8);  // accelerators per host x hosts
  EXPECT_EQ(j["num_hosts"], 2);
  EXPECT_TRUE(j.contains("dlgen"));
}

}  // namespace
}  // namespace dlgen::dlio
