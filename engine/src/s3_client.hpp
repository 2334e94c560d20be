#pragma once
// What the S3 engine needs of S3 besides the transfers (private to engine/): where the store is
// and who we are (from the usual AWS environment variables), an object's URL (path-style or
// virtual-host style, the key %-encoded), the signing set-up of a libcurl handle (SigV4 with the
// quirks of libcurl 7.88), HTTP statuses as -errno, and the few XML fields an S3 answer carries.
#include <curl/curl.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "dlgen/core/result.hpp"

namespace dlgen::engine::s3 {

// The store and the credentials. The secret never leaves this struct: no message, result or
// trace prints it.
struct Config {
  std::string endpoint;  // "http://127.0.0.1:8080" or "https://s3.us-east-1.amazonaws.com"
  std::string region = "us-east-1";
  std::string access_key, secret_key;
  bool virtual_host = false;  // BUCKET.host/KEY rather than host/BUCKET/KEY
};

// From AWS_ENDPOINT_URL (default: AWS's endpoint of the region), AWS_REGION (or
// AWS_DEFAULT_REGION; default us-east-1), AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and
// DLGEN_S3_ADDRESSING ("path" or "virtual"; default: path with AWS_ENDPOINT_URL, virtual without).
// An input error names the variable that is missing or wrong (never its value for the secret).
Result<Config> config_from_env();

// RFC 3986 %-encoding as SigV4 wants it: unreserved characters stay, '/' stays when `keep_slash`.
std::string uri_encode(std::string_view s, bool keep_slash);
// The URL of `key` in `bucket` ("" key: the bucket), with `query` appended when not empty. The
// query must already be canonical (sorted, %-encoded): libcurl 7.88 signs it as given.
std::string object_url(const Config& c, std::string_view bucket, std::string_view key,
                       std::string_view query = {});

// Sets the signing, credentials and keep-alive options on `h` (once per handle) and returns the
// header list every request sends (x-amz-content-sha256: UNSIGNED-PAYLOAD, which libcurl 7.88
// neither adds nor computes; every extra header is signed). The caller frees it.
curl_slist* setup_handle(CURL* h, const Config& c);

// An HTTP status or libcurl failure as -errno: 404 -ENOENT, 403 -EACCES, 416 -> 0 (past the end),
// 5xx -EIO, a timeout -ETIMEDOUT, a reset -ECONNRESET, no connection -ECONNREFUSED.
int status_errno(long http_status);
int curl_errno(CURLcode code);
// Whether a failure is worth another try: 500, 502, 503 (SlowDown), 504, timeouts, resets.
bool retryable(long http_status, CURLcode code);

// The text of the first <tag>...</tag> in `xml`, or "".
std::string xml_field(std::string_view xml, std::string_view tag);

}  // namespace dlgen::engine::s3
