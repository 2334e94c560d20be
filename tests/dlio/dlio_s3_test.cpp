// DLIO's object-storage configs as published (tests/data/dlio/s3: DLIO's own unet3d_h100_s3.yaml
// and MLPerf Storage's unet3d_h100_s3torch.yaml, llama3_8b_checkpoint_minio.yaml) read into a job
// on a dataset (or checkpoints) of objects, the store's endpoint, region and addressing as
// environment values, never a credential; a storage type dlgen cannot reach is refused with its
// line.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "dlgen/dlio/config.hpp"

namespace dlgen {
namespace {

const std::filesystem::path kS3 = std::filesystem::path(DLGEN_SOURCE_DIR) / "tests/data/dlio/s3";

DlioJob must_load(const std::filesystem::path& path,
                  const std::vector<std::string>& overrides = {}) {
  Result<DlioJob> d = load_dlio(path, overrides);
  EXPECT_TRUE(d) << (d ? "" : d.error().message);
  return d ? *d : DlioJob{};
}

bool has_note(const DlioJob& d, const std::string& part) {
  return std::any_of(d.notes.begin(), d.notes.end(),
                     [&](const std::string& n) { return n.find(part) != std::string::npos; });
}

TEST(DlioS3, DliosOwnUnet3dS3ReadsObjectsOfTheBucket) {
  const DlioJob d = must_load(kS3 / "unet3d_h100_s3.yaml");
  EXPECT_EQ(d.job.dataset.dir.string(), "s3://s3pytorchconnector/train");
  EXPECT_EQ(d.job.dataset.num_files, 168u);
  EXPECT_EQ(d.job.reader.batch_size, 7u);
  EXPECT_EQ(d.environment.at("AWS_ENDPOINT_URL"), "http://localhost:9020");  // the first of three
  EXPECT_EQ(d.environment.at("AWS_REGION"), "us-east-1");
  EXPECT_EQ(d.environment.at("DLGEN_S3_ADDRESSING"), "virtual");  // s3_force_path_style: False
  EXPECT_EQ(d.environment.size(), 3u);                            // never a credential
  EXPECT_TRUE(has_note(d, "dlgen uses the first, http://localhost:9020"));
  EXPECT_TRUE(has_note(d, "storage.storage_options.secret_access_key: not read"));
  EXPECT_TRUE(has_note(d, "s3_max_attempts"));
}

TEST(DlioS3, MlperfsS3torchConfigPutsTheDataFolderInTheBucket) {
  const DlioJob d = must_load(kS3 / "unet3d_h100_s3torch.yaml");
  EXPECT_EQ(d.job.dataset.dir.string(), "s3://mlp-s3torch/test-run/unet3d/train");
  EXPECT_EQ(d.environment.at("AWS_ENDPOINT_URL"), "https://172.16.1.40:9000");
  EXPECT_EQ(d.environment.count("DLGEN_S3_ADDRESSING"), 0u);
  EXPECT_TRUE(has_note(d, "storage.storage_library s3torchconnector"));
  // A data folder "." is the bucket's root; a storage_root with a prefix keeps it.
  EXPECT_EQ(must_load(kS3 / "unet3d_h100_s3torch.yaml",
                      {"++workload.dataset.data_folder=.", "++workload.storage.storage_root=bkt/p"})
                .job.dataset.dir.string(),
            "s3://bkt/p/train");
}

// With storage_type s3 DLIO's pt_s3_save writes checkpoints to s3://<storage_root>/
// <checkpoint_folder>/...: a relative checkpoint_folder is a prefix in the bucket, never a local
// folder; a URL is taken as it is; an absolute local path is refused with its line.
TEST(DlioS3, ARelativeCheckpointFolderIsAPrefixBelowStorageRoot) {
  const std::filesystem::path llama = kS3 / "llama3_8b_checkpoint_minio.yaml";
  const DlioJob rel =
      must_load(llama, {"++workload.checkpoint.checkpoint_folder=./checkpoints/llama3/"});
  EXPECT_EQ(rel.job.checkpoint.dir.string(), "s3://chckpt-test1/checkpoints/llama3");
  EXPECT_TRUE(has_note(rel,
                       "checkpoint.checkpoint_folder ./checkpoints/llama3/ with storage_type "
                       "s3: checkpoints are objects below s3://chckpt-test1/checkpoints/llama3"));
  EXPECT_EQ(must_load(llama, {"++workload.checkpoint.checkpoint_folder=ck",
                              "++workload.storage.storage_root=bkt/p"})
                .job.checkpoint.dir.string(),
            "s3://bkt/p/ck");
  EXPECT_EQ(must_load(llama).job.checkpoint.dir.string(), "s3://chckpt-test1/minio/llama3-8b");
  // Without a checkpoint_folder, DLIO's default folder in the bucket; the training configs too.
  EXPECT_EQ(
      must_load(llama, {"~workload.checkpoint.checkpoint_folder"}).job.checkpoint.dir.string(),
      "s3://chckpt-test1/checkpoints");
  EXPECT_EQ(must_load(kS3 / "unet3d_h100_s3.yaml", {"++workload.workflow.checkpoint=True"})
                .job.checkpoint.dir.string(),
            "s3://s3pytorchconnector/checkpoints/unet3d");
  Result<DlioJob> abs = load_dlio(llama, {"++workload.checkpoint.checkpoint_folder=/mnt/ck"});
  ASSERT_FALSE(abs);
  EXPECT_NE(abs.error().message.find("checkpoint.checkpoint_folder: is a local path, and with "
                                     "storage_type s3 DLIO writes checkpoints as objects"),
            std::string::npos)
      << abs.error().message;
  // On files, the folder stays a folder.
  EXPECT_EQ(must_load(llama,
                      {"++workload.storage.storage_type=local_fs", "~workload.storage.storage_root",
                       "~workload.storage.storage_options.endpoint_url",
                       "++workload.checkpoint.checkpoint_folder=checkpoints/llama3"})
                .job.checkpoint.dir.string(),
            "checkpoints/llama3");
}

TEST(DlioS3, OtherStorageTypesAndMisplacedKeysAreRefusedWithTheirLine) {
  Result<DlioJob> d =
      load_dlio(kS3 / "unet3d_h100_s3torch.yaml", {"++workload.storage.storage_type=aistore"});
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().message.find("storage.storage_type: \"aistore\" is not supported"),
            std::string::npos)
      << d.error().message;
  d = load_dlio(kS3 / "unet3d_h100_s3torch.yaml", {"++workload.storage.storage_type=local_fs"});
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().message.find("unet3d_h100_s3torch.yaml:57: storage.storage_root: applies to "
                                   "storage.storage_type s3 only"),
            std::string::npos)
      << d.error().message;
  d = load_dlio(kS3 / "unet3d_h100_s3torch.yaml", {"++workload.storage.storage_options.bogus=1"});
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().message.find("storage.storage_options.bogus: not a DLIO key"),
            std::string::npos)
      << d.error().message;
}

}  // namespace
}  // namespace dlgen
