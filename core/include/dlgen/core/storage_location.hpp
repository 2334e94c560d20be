#pragma once
// Where a dataset or checkpoint lives: a POSIX directory, or a bucket and key prefix of an S3
// object store ("s3://BUCKET/PREFIX"). A job's `dataset.dir`, `validation.dir` and `checkpoint.dir`
// hold either; a URL is never taken for a path (a local folder named "s3:" must never appear), so
// every caller that opens or creates local paths asks `local_dir` first and refuses the rest
// clearly.
#include <filesystem>
#include <string>
#include <string_view>

#include "dlgen/core/result.hpp"

namespace dlgen {

enum class StorageKind { posix, s3 };

struct StorageLocation {
  StorageKind kind = StorageKind::posix;
  std::filesystem::path path;  // posix: the directory
  std::string bucket;          // s3: the bucket
  std::string prefix;          // s3: the key prefix, no leading or trailing '/' ("" = whole bucket)
  // s3: the key of `name` below the prefix ("PREFIX/name", or "name" without a prefix).
  std::string key(std::string_view name) const;
  // As a job writes it: the path, or "s3://BUCKET/PREFIX".
  std::string text() const;
  bool operator==(const StorageLocation&) const = default;
};

// True when `text` starts with a URL scheme ("word://"): such text is never a local path.
bool is_url(std::string_view text);
// Reads a location: "s3://BUCKET[/PREFIX]" is an object location (BUCKET as S3 names buckets:
// 3-63 of a-z 0-9 . -), any other URL an input error naming the scheme, the rest a path.
Result<StorageLocation> parse_location(std::string_view text);
// Splits "s3://BUCKET/KEY" (an object's URL, as the S3 engine's open_file takes it) into bucket
// and key; an input error when it is not one.
Result<StorageLocation> parse_object_url(std::string_view text);
// `dir` as a local directory for `what` ("dlgen generate", "the checkpoint writer"), or an input
// error, naming `key` ("dataset.dir") and the location, when it is an object location or another
// URL that `what` cannot use.
Result<std::filesystem::path> local_dir(const std::filesystem::path& dir, std::string_view key,
                                        std::string_view what);

}  // namespace dlgen
