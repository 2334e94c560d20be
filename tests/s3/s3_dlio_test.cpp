// DLIO's own S3 workload config (tests/data/dlio/s3/unet3d_h100_s3.yaml, as published) run by
// `dlgen run CONFIG.yaml` against the real S3 server: the dataset is generated as objects of the
// bucket the config names (workflow.generate_data) and read back through the s3 engine. Only the
// sizes are shrunk and the bucket renamed, by Hydra overrides; the endpoint is the environment's
// (the test server's), which wins over the config's.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include "dlgen/core/json.hpp"
#include <sstream>

#include "s3_server.hpp"
#include "temp_dir.hpp"

namespace {

using dlgen::testing::new_bucket;
using dlgen::testing::Outcome;
using dlgen::testing::s3_check;
using dlgen::testing::sh;
using dlgen::testing::TempDir;
namespace fs = std::filesystem;

TEST(S3Dlio, DliosOwnS3ConfigRunsAgainstTheStore) {
  TempDir dir("dlgen-s3-dlio");
  const std::string b = new_bucket();
  const std::string shrink =
      " ++workload.storage.storage_root=" + b + " ++workload.dataset.data_folder=s3://" + b +
      " ++workload.dataset.num_files_train=8 ++workload.dataset.record_length_bytes=65536"
      " ++workload.train.epochs=1 ++workload.train.computation_time=0.001";
  const Outcome run = sh("cd '" + dir.path().string() +
                         "' && DLGEN_NO_PROGRESS=1 timeout 300 '" DLGEN_BINARY
                         "' run '" DLGEN_SOURCE_DIR "/tests/data/dlio/s3/unet3d_h100_s3.yaml'" +
                         shrink + " -q -o r.json");
  ASSERT_EQ(run.code, 0) << run.out;
  EXPECT_FALSE(fs::exists(dir / "s3:"));
  // boto3 sees the 8 objects under train/ (and dlgen's manifest).
  const Outcome ls = s3_check("ls " + b + " train/");
  ASSERT_EQ(ls.code, 0) << ls.out;
  std::istringstream lines(ls.out);
  int objects = 0;
  for (std::string key, size; lines >> key >> size;)
    if (key.find(".dlgen-manifest") == std::string::npos) ++objects;
  EXPECT_EQ(objects, 8) << ls.out;
  const nlohmann::json r = nlohmann::json::parse(std::ifstream(dir / "r.json"));
  EXPECT_EQ(r["engine"], "s3");
  EXPECT_EQ(r["totals"]["samples"], 8u);
  ASSERT_TRUE(r.contains("s3")) << r.dump();
  EXPECT_EQ(r["s3"]["gets"], r["totals"]["requests"]);
  EXPECT_GT(r["totals"]["bytes_read"].get<std::uint64_t>(), 8u * 65536u - 1);
}

}  // namespace
