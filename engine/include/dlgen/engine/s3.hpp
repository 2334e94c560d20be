#pragma once
// What an object store offers besides reading and writing objects through the "s3" engine: its
// control requests, one synchronous request (or a few, for a paged LIST) each, off any hot path.
// They let a caller look before it writes (the root-safety rules, for buckets: nothing dlgen did
// not create is overwritten or deleted) and before it reads (a missing object is named, never met
// as a stack of 404s). Endpoint and credentials as the engine takes them (AWS_ENDPOINT_URL,
// AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY). A missing bucket is a runtime error
// naming it; every error names the object or prefix and the endpoint, never the secret.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dlgen/core/latency_histogram.hpp"
#include "dlgen/core/result.hpp"

namespace dlgen::engine {

// Up to `max_keys` keys of `bucket` that start with `prefix` (ListObjectsV2; one request, no
// paging).
Result<std::vector<std::string>> s3_list(const std::string& bucket, const std::string& prefix,
                                         std::uint32_t max_keys);

// An object as a LIST names it.
struct S3Object {
  std::string key;
  std::uint64_t size = 0;
};
// Every object of `bucket` whose key starts with `prefix`, in key order (ListObjectsV2, paged:
// 1000 keys a request).
Result<std::vector<S3Object>> s3_list_objects(const std::string& bucket, const std::string& prefix);

// A small object's bytes (a manifest, a record: at most 16 MiB), or nullopt when there is none
// (404).
Result<std::optional<std::string>> s3_get_text(const std::string& bucket, const std::string& key);
// Writes `text` as the object (one PUT).
Result<void> s3_put_text(const std::string& bucket, const std::string& key,
                         const std::string& text);
// Deletes the object (DELETE); one already gone is not an error.
Result<void> s3_delete(const std::string& bucket, const std::string& key);

}  // namespace dlgen::engine

namespace dlgen::engine {

// What an "s3" engine did on the wire, besides the requests it was given: every HTTP request
// (each try of a request is one), the failures by kind, and per answered request its times to
// first and to last byte. Cheap: a few counters and two histogram increments per HTTP request.
// The definitions, and what `dlgen run` reports of them: docs/metrics.md, "S3 requests".
struct S3Counters {
  // Every HTTP request sent (each try is one), and of which: GETs (reads), PUTs of whole objects,
  // PUTs of parts of multipart uploads, and the uploads' control requests (POST to initiate and
  // to complete, DELETE to abort). http_requests = gets + puts + parts + control.
  std::uint64_t http_requests = 0;
  std::uint64_t gets = 0, puts = 0, parts = 0, control = 0;
  std::uint64_t retries = 0;        // requests sent again after a retryable failure
  std::uint64_t slow_downs = 0;     // answers 503 (S3's SlowDown: "reduce your request rate")
  std::uint64_t server_errors = 0;  // other 5xx answers (500, 502, 504...)
  std::uint64_t timeouts = 0;       // requests that timed out (no answer in time)
  std::uint64_t resets = 0;         // connections reset or closed before the answer was whole
  // Per HTTP request answered in full (any status): from the moment it was handed to libcurl to
  // the first byte of the answer's status line (TTFB), and to its last byte (TTLB), in ns on the
  // engine's clock. TTFB <= TTLB request by request, so at every percentile.
  LatencyHistogram ttfb, ttlb;
  void merge(const S3Counters& o);
};
// Adds `k` (none: nothing went to a store) to `into`, which stays none until counters arrive.
void merge_into(std::optional<S3Counters>& into, const std::optional<S3Counters>& k);

class IoEngine;
// The counters of `e` when it is an "s3" engine; nullptr for any other.
const S3Counters* s3_counters(const IoEngine& e);
// The counters of `e` so far when it is an "s3" engine, which then counts afresh from zero (so
// that one engine used for several phases, a checkpoint's writes then its reads, gives each
// phase's own); nullopt for any other engine.
std::optional<S3Counters> take_s3_counters(IoEngine& e);
// The last failure of an "s3" engine as the store reported it ("s3://b/k: GET bytes=0-9: HTTP 404
// NoSuchKey [endpoint]"); "" for other engines and before any failure. Never holds the secret.
std::string s3_last_error(const IoEngine& e);

}  // namespace dlgen::engine
