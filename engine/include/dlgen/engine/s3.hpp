#pragma once
// What an object store offers besides reading and writing objects (the "s3" engine does those):
// listing the keys under a prefix, so that a caller can check, before it writes, that it overwrites
// nothing it did not create (the root-safety rules, for buckets). Endpoint and credentials as the
// engine takes them (AWS_ENDPOINT_URL, AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY).
#include <cstdint>
#include <string>
#include <vector>

#include "dlgen/core/result.hpp"

namespace dlgen::engine {

// Up to `max_keys` keys of `bucket` that start with `prefix` (ListObjectsV2; one request, no
// paging). A missing bucket is a runtime error naming it.
Result<std::vector<std::string>> s3_list(const std::string& bucket, const std::string& prefix,
                                         std::uint32_t max_keys);

}  // namespace dlgen::engine

namespace dlgen::engine {

// What an "s3" engine did besides the requests it was given.
struct S3Counters {
  std::uint64_t http_requests = 0;  // every HTTP request sent, retries and multipart control
  std::uint64_t retries = 0;        // requests sent again after a retryable failure
  std::uint64_t server_errors = 0;  // answers 5xx (503 SlowDown among them)
  std::uint64_t timeouts = 0;       // requests that timed out
  std::uint64_t resets = 0;         // connections reset or closed mid-answer
  // Time to first byte of the requests that completed (first byte of the answer - issue), ns.
  std::uint64_t ttfb_count = 0;
  std::int64_t ttfb_ns_total = 0, ttfb_ns_max = 0;
};

class IoEngine;
// The counters of `e` when it is an "s3" engine; nullptr for any other.
const S3Counters* s3_counters(const IoEngine& e);
// The last failure of an "s3" engine as the store reported it ("s3://b/k: GET bytes=0-9: HTTP 404
// NoSuchKey [endpoint]"); "" for other engines and before any failure. Never holds the secret.
std::string s3_last_error(const IoEngine& e);

}  // namespace dlgen::engine
