// StorageLocation: a URL is never a path. "s3://BUCKET/PREFIX" is an object location with S3's
// bucket rules, any other scheme is refused by name, and the rest is a directory; local_dir
// refuses object locations for the callers that open local paths.
#include "dlgen/core/storage_location.hpp"

#include <gtest/gtest.h>

#include "dlgen/core/job.hpp"

namespace dlgen {
namespace {

TEST(StorageLocation, PathsStayPaths) {
  for (const char* p : {"data/unet3d", "/mnt/nvme/ds", "./s3", "s3:/x", "://x", "a/s3://b"}) {
    Result<StorageLocation> loc = parse_location(p);
    ASSERT_TRUE(loc) << p;
    EXPECT_EQ(loc->kind, StorageKind::posix) << p;
    EXPECT_EQ(loc->path, std::filesystem::path(p));
  }
}

TEST(StorageLocation, S3UrlIsBucketAndPrefix) {
  Result<StorageLocation> loc = parse_location("s3://my-bucket/datasets/unet3d/");
  ASSERT_TRUE(loc) << loc.error().message;
  EXPECT_EQ(loc->kind, StorageKind::s3);
  EXPECT_EQ(loc->bucket, "my-bucket");
  EXPECT_EQ(loc->prefix, "datasets/unet3d");
  EXPECT_EQ(loc->key("file_1.npz"), "datasets/unet3d/file_1.npz");
  EXPECT_EQ(loc->text(), "s3://my-bucket/datasets/unet3d");
  Result<StorageLocation> whole = parse_location("s3://bucket");
  ASSERT_TRUE(whole);
  EXPECT_EQ(whole->prefix, "");
  EXPECT_EQ(whole->key("a"), "a");
}

TEST(StorageLocation, BadUrlsAreRefusedByName) {
  const std::pair<const char*, const char*> bad[] = {
      {"gs://bucket/x", "gs:// locations are not supported"},
      {"s3://", "is not a bucket name"},
      {"s3://ab/x", "is not a bucket name"},
      {"s3://Upper/x", "is not a bucket name"},
      {"s3://bucket/a//b", "empty, \".\" or \"..\" segment"},
      {"s3://bucket/../b", "empty, \".\" or \"..\" segment"},
  };
  for (const auto& [text, why] : bad) {
    Result<StorageLocation> loc = parse_location(text);
    ASSERT_FALSE(loc) << text;
    EXPECT_EQ(loc.error().kind, ErrorKind::bad_input);
    EXPECT_NE(loc.error().message.find(why), std::string::npos) << loc.error().message;
  }
}

TEST(StorageLocation, ObjectUrlNamesAKey) {
  Result<StorageLocation> o = parse_object_url("s3://bucket/ds/file_7.raw");
  ASSERT_TRUE(o);
  EXPECT_EQ(o->bucket, "bucket");
  EXPECT_EQ(o->prefix, "ds/file_7.raw");
  EXPECT_FALSE(parse_object_url("s3://bucket"));
  EXPECT_FALSE(parse_object_url("/tmp/file"));
}

TEST(StorageLocation, LocalDirRefusesUrls) {
  EXPECT_TRUE(local_dir("data/x", "dataset.dir", "the generator"));
  Result<std::filesystem::path> s3 = local_dir("s3://bucket/ds", "dataset.dir", "the generator");
  ASSERT_FALSE(s3);
  EXPECT_EQ(s3.error().kind, ErrorKind::bad_input);
  EXPECT_EQ(s3.error().message,
            "dataset.dir = \"s3://bucket/ds\" is an object store location; the generator does not "
            "support object storage yet");
  EXPECT_FALSE(local_dir("http://host/x", "checkpoint.dir", "the checkpoint writer"));
}

TEST(StorageLocation, ValidateNamesTheKeyOfABadUrl) {
  Job job;
  job.dataset.dir = "gs://bucket/ds";
  job.dataset.sample_size = Distribution::fixed_at(4096);
  job.checkpoint.dir = "s3://x/ckpt";
  bool dataset = false, checkpoint = false;
  for (const Diagnostic& d : validate(job, 0)) {
    dataset |= d.path == "dataset.dir" && d.message.find("gs://") != std::string::npos;
    checkpoint |= d.path == "checkpoint.dir" && d.message.find("bucket name") != std::string::npos;
  }
  EXPECT_TRUE(dataset);
  EXPECT_TRUE(checkpoint);
}

}  // namespace
}  // namespace dlgen
