// MLPerf Storage v3.0's reference training workloads beside v2.0's: the round's pairs (CLOSED and
// whatif), their figures as the published configs give them, the accelerators' simulated memory,
// and the shipped jobs/retinanet.toml being the v3.0 reference on b200 and mi355.
#include <gtest/gtest.h>

#include <string>

#include "dlgen/core/job_io.hpp"
#include "dlgen/dlio/config.hpp"
#include "dlgen/mlperf/mlperf.hpp"
#include "dlgen/mlperf/rules.hpp"

namespace dlgen::mlperf {
namespace {

Job reference(const char* workload, const char* accel, Round round) {
  Result<Job> r = mlperf_reference(workload, accel, round);
  EXPECT_TRUE(r) << (r ? "" : r.error().message);
  return r ? *r : Job{};
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "\n";
  return s;
}

TEST(MlperfV3, RoundsHaveTheirOwnPairs) {
  EXPECT_STREQ(to_string(Round::v2_0), "v2.0");
  EXPECT_STREQ(to_string(Round::v3_0), "v3.0");
  std::string closed, whatif;
  for (const MlperfProfile& p : mlperf_profiles(Round::v3_0))
    (p.whatif ? whatif : closed) += p.workload + "/" + p.accelerator + " ";
  // mlpstorage's "v3.0 submittable combinations": there is no unet3d_mi355.yaml.
  EXPECT_EQ(closed, "unet3d/b200 retinanet/b200 retinanet/mi355 ");
  EXPECT_EQ(whatif, "unet3d/h100 unet3d/a100 retinanet/h100 retinanet/a100 ");
  for (const MlperfProfile& p : mlperf_profiles(Round::v2_0)) EXPECT_FALSE(p.whatif);

  Result<Job> none = mlperf_reference("unet3d", "mi355", Round::v3_0);
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("no MLPerf Storage v3.0 reference for unet3d on mi355"),
            std::string::npos)
      << none.error().message;
  // retinanet is no v2.0 workload, and the default round stays v2.0.
  EXPECT_FALSE(mlperf_reference("retinanet", "b200"));
  EXPECT_FALSE(mlperf_reference("retinanet", "b200", Round::v2_0));
}

TEST(MlperfV3, ReferenceFiguresAreThePublishedConfigs) {
  const Job b = reference("retinanet", "b200", Round::v3_0);
  EXPECT_EQ(b.dataset.format, Format::jpeg);
  EXPECT_EQ(b.dataset.num_files, 1170301u);
  EXPECT_EQ(b.dataset.sample_size, Distribution::fixed_at(322957));
  EXPECT_EQ(b.reader.batch_size, 24u);
  EXPECT_EQ(b.reader.workers, 8u);
  EXPECT_EQ(b.run.epochs, 8u);
  EXPECT_EQ(b.compute.effective(), Distribution::fixed_at(0.04755));
  EXPECT_DOUBLE_EQ(b.compute.au_threshold, 0.85);
  const Job m = reference("retinanet", "mi355", Round::v3_0);
  EXPECT_EQ(m.reader.batch_size, 32u);
  EXPECT_EQ(m.compute.effective(), Distribution::fixed_at(0.0634));
  const Job h = reference("retinanet", "h100", Round::v3_0);
  EXPECT_EQ(h.dataset.num_files, 1743042u);
  EXPECT_EQ(h.reader.batch_size, 16u);
  EXPECT_EQ(h.run.epochs, 5u);
  EXPECT_EQ(h.compute.effective(), Distribution::fixed_at(0.180));
  EXPECT_EQ(reference("retinanet", "a100", Round::v3_0).compute.effective(),
            Distribution::fixed_at(0.210));

  const Job u3 = reference("unet3d", "b200", Round::v3_0);
  EXPECT_EQ(u3.dataset.num_files, 7200u);
  EXPECT_EQ(u3.compute.effective(), Distribution::fixed_at(0.162));
  EXPECT_FALSE(u3.checkpoint.enabled);  // v3.0's unet3d_b200.yaml: workflow.checkpoint False
  const Job u2 = reference("unet3d", "b200", Round::v2_0);
  EXPECT_EQ(u2.dataset.num_files, 168u);
  EXPECT_TRUE(u2.checkpoint.enabled);

  EXPECT_DOUBLE_EQ(v3_au_threshold("retinanet"), 0.85);
  EXPECT_EQ(mlperf_match_accelerator(m, Round::v3_0), "mi355");
  EXPECT_EQ(mlperf_match_accelerator(b, Round::v3_0), "b200");
  EXPECT_EQ(mlperf_match_accelerator(b), "");  // not a v2.0 workload
}

// The copies of the published configs in tests/data/dlio/v3.0 are their references: CLOSED.
TEST(MlperfV3, PublishedConfigsAreClosedAgainstTheirReferences) {
  const std::filesystem::path dir =
      std::filesystem::path(DLGEN_SOURCE_DIR) / "tests/data/dlio/v3.0";
  struct Case {
    const char* file;
    const char* workload;
    const char* accel;
  };
  for (const Case& c : {Case{"retinanet_b200.yaml", "retinanet", "b200"},
                        Case{"retinanet_mi355.yaml", "retinanet", "mi355"},
                        Case{"unet3d_b200.yaml", "unet3d", "b200"},
                        Case{"unet3d_b200_release.yaml", "unet3d", "b200"},
                        Case{"unet3d_b200_run.yaml", "unet3d", "b200"}}) {
    Result<DlioJob> d = load_dlio(dir / c.file);
    ASSERT_TRUE(d) << d.error().message;
    const DivisionCheck check = check_division(reference(c.workload, c.accel, Round::v3_0), d->job);
    EXPECT_EQ(check.division, Division::closed) << c.file << ":\n" << joined(check.reasons);
  }
}

// jobs/retinanet.toml at full size, on each accelerator it defines, is the v3.0 reference: the
// accelerator brings its own batch (24 on b200, 32 on mi355).
TEST(Mlperf, ShippedRetinanetIsTheV3Reference) {
  const std::string path = DLGEN_SOURCE_DIR "/jobs/retinanet.toml";
  Result<Job> base = load_job(path);
  ASSERT_TRUE(base) << base.error().message;
  EXPECT_EQ(base->compute.accelerator, "b200");
  ASSERT_EQ(base->compute.per_accelerator.size(), 2u);
  for (const auto& [accelerator, profile] : base->compute.per_accelerator) {
    JobLoadOptions lo;
    lo.accelerator = accelerator;
    Result<Job> j = load_job(path, lo);
    ASSERT_TRUE(j) << j.error().message;
    EXPECT_EQ(j->reader.batch_size, profile.batch_size) << accelerator;
    EXPECT_EQ(mlperf_match_accelerator(*j, Round::v3_0), accelerator);
    const DivisionCheck c =
        check_division(reference("retinanet", accelerator.c_str(), Round::v3_0), *j);
    EXPECT_EQ(c.division, Division::closed) << accelerator << ":\n" << joined(c.reasons);
  }
}

TEST(MlperfV3, SimulatedAcceleratorMemory) {
  EXPECT_DOUBLE_EQ(v3_accelerator_memory_gb("b200"), 180);
  EXPECT_DOUBLE_EQ(v3_accelerator_memory_gb("mi355"), 288);
  EXPECT_DOUBLE_EQ(v3_accelerator_memory_gb("h100"), 80);
  EXPECT_DOUBLE_EQ(v3_accelerator_memory_gb("a100"), 80);
  EXPECT_DOUBLE_EQ(v3_accelerator_memory_gb("v100"), 0);
}

}  // namespace
}  // namespace dlgen::mlperf
