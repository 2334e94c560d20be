// The store's control requests (s3.hpp): LIST, a small GET or PUT, DELETE, each on one easy handle
// of its own, synchronously, off any hot path. Failures that may pass (500, 502, 503 SlowDown,
// 504, timeouts, resets) are sent again as the engine's transfers are: up to 5 tries, the wait
// doubling from 50 ms.
#include <curl/curl.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <string_view>
#include <thread>

#include "dlgen/engine/s3.hpp"
#include "s3_client.hpp"

namespace dlgen::engine {
namespace {

constexpr int kMaxAttempts = 5;
constexpr std::chrono::milliseconds kFirstBackoff{50};
constexpr std::size_t kMaxText = std::size_t{16} << 20;  // what s3_get_text keeps

struct Exchange {
  std::string body;  // the answer
  const std::string* upload = nullptr;
  std::size_t sent = 0;
  bool too_long = false;
};

size_t append(char* p, size_t size, size_t n, void* user) {
  auto* x = static_cast<Exchange*>(user);
  if (x->body.size() + size * n > kMaxText) {
    x->too_long = true;
    return 0;
  }
  x->body.append(p, size * n);
  return size * n;
}

size_t supply(char* p, size_t size, size_t n, void* user) {
  auto* x = static_cast<Exchange*>(user);
  const std::size_t bytes = std::min(size * n, x->upload->size() - x->sent);
  std::copy_n(x->upload->data() + x->sent, bytes, p);
  x->sent += bytes;
  return bytes;
}

// The answer of one request: libcurl's outcome, the HTTP status and the body.
struct Answer {
  CURLcode code = CURLE_OK;
  long status = 0;
  std::string body;
  bool too_long = false;
};

// `method` on `url` (with `upload` as the body of a PUT), tried again while the failure may pass.
Answer perform(const s3::Config& cfg, const char* method, const std::string& url,
               const std::string* upload = nullptr) {
  curl_global_init(CURL_GLOBAL_DEFAULT);
  Answer a;
  for (int attempt = 1;; ++attempt) {
    const std::unique_ptr<CURL, void (*)(CURL*)> h(curl_easy_init(), curl_easy_cleanup);
    const std::unique_ptr<curl_slist, void (*)(curl_slist*)> headers(s3::setup_handle(h.get(), cfg),
                                                                     curl_slist_free_all);
    Exchange x;
    x.upload = upload;
    curl_easy_setopt(h.get(), CURLOPT_URL, url.c_str());
    curl_easy_setopt(h.get(), CURLOPT_HTTPHEADER, headers.get());
    curl_easy_setopt(h.get(), CURLOPT_WRITEFUNCTION, append);
    curl_easy_setopt(h.get(), CURLOPT_WRITEDATA, &x);
    if (upload) {
      curl_easy_setopt(h.get(), CURLOPT_UPLOAD, 1L);
      curl_easy_setopt(h.get(), CURLOPT_READFUNCTION, supply);
      curl_easy_setopt(h.get(), CURLOPT_READDATA, &x);
      curl_easy_setopt(h.get(), CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(upload->size()));
    } else if (std::string_view(method) != "GET") {
      curl_easy_setopt(h.get(), CURLOPT_CUSTOMREQUEST, method);
    }
    a.code = curl_easy_perform(h.get());
    curl_easy_getinfo(h.get(), CURLINFO_RESPONSE_CODE, &a.status);
    a.body = std::move(x.body);
    a.too_long = x.too_long;
    if (!s3::retryable(a.status, a.code) || attempt >= kMaxAttempts) return a;
    std::this_thread::sleep_for(kFirstBackoff * (1 << (attempt - 1)));
  }
}

// What went wrong, as "s3://B/K: LIST: HTTP 404 NoSuchBucket [endpoint]"; "" when the answer is
// one of `fine` (2xx always).
std::string failure(const s3::Config& cfg, const Answer& a, const std::string& shown,
                    const char* what, long fine = 0) {
  if (a.code != CURLE_OK)
    return shown + ": " + what + ": " +
           (a.too_long ? std::string("more than 16 MiB") : curl_easy_strerror(a.code)) + " [" +
           cfg.endpoint + "]";
  if ((a.status >= 200 && a.status < 300) || a.status == fine) return "";
  std::string code = s3::xml_field(a.body, "Code");
  if (a.status == 403 && code.empty()) code = "(check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)";
  return shown + ": " + what + ": HTTP " + std::to_string(a.status) + " " + code + " [" +
         cfg.endpoint + "]";
}

// XML's five escapes, as a LIST writes keys.
std::string xml_text(std::string s) {
  static constexpr std::pair<std::string_view, char> kEscapes[] = {
      {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
  for (std::size_t at = 0; (at = s.find('&', at)) != std::string::npos; ++at)
    for (const auto& [from, to] : kEscapes)
      if (s.compare(at, from.size(), from) == 0) {
        s.replace(at, from.size(), 1, to);
        break;
      }
  return s;
}

std::string shown(const std::string& bucket, const std::string& key) {
  return "s3://" + bucket + "/" + key;
}

}  // namespace

Result<std::vector<std::string>> s3_list(const std::string& bucket, const std::string& prefix,
                                         std::uint32_t max_keys) {
  Result<s3::Config> cfg = s3::config_from_env();
  if (!cfg) return cfg.error();
  // Sorted and %-encoded: libcurl 7.88 signs the query as written.
  const std::string query = "list-type=2&max-keys=" + std::to_string(max_keys) +
                            "&prefix=" + s3::uri_encode(prefix, false);
  const Answer a = perform(*cfg, "GET", s3::object_url(*cfg, bucket, "", query));
  if (std::string why = failure(*cfg, a, shown(bucket, prefix), "list"); !why.empty())
    return runtime_error(why);
  std::vector<std::string> keys;
  for (std::size_t at = 0; (at = a.body.find("<Key>", at)) != std::string::npos;) {
    const std::size_t end = a.body.find("</Key>", at);
    if (end == std::string::npos) break;
    keys.push_back(xml_text(a.body.substr(at + 5, end - at - 5)));
    at = end;
  }
  return keys;
}

Result<std::vector<S3Object>> s3_list_objects(const std::string& bucket,
                                              const std::string& prefix) {
  Result<s3::Config> cfg = s3::config_from_env();
  if (!cfg) return cfg.error();
  std::vector<S3Object> out;
  std::string token;
  for (;;) {
    // Parameters in sorted order: continuation-token < list-type < max-keys < prefix.
    const std::string query =
        (token.empty() ? "" : "continuation-token=" + s3::uri_encode(token, false) + "&") +
        "list-type=2&max-keys=1000&prefix=" + s3::uri_encode(prefix, false);
    const Answer a = perform(*cfg, "GET", s3::object_url(*cfg, bucket, "", query));
    if (std::string why = failure(*cfg, a, shown(bucket, prefix), "list"); !why.empty())
      return runtime_error(why);
    for (std::size_t at = 0; (at = a.body.find("<Contents>", at)) != std::string::npos;) {
      const std::size_t end = a.body.find("</Contents>", at);
      if (end == std::string::npos) break;
      const std::string_view entry = std::string_view(a.body).substr(at, end - at);
      out.push_back({xml_text(s3::xml_field(entry, "Key")),
                     std::strtoull(s3::xml_field(entry, "Size").c_str(), nullptr, 10)});
      at = end;
    }
    token = s3::xml_field(a.body, "NextContinuationToken");
    if (s3::xml_field(a.body, "IsTruncated") != "true" || token.empty()) return out;
  }
}

Result<std::optional<std::string>> s3_get_text(const std::string& bucket, const std::string& key) {
  Result<s3::Config> cfg = s3::config_from_env();
  if (!cfg) return cfg.error();
  Answer a = perform(*cfg, "GET", s3::object_url(*cfg, bucket, key));
  if (a.code == CURLE_OK && a.status == 404) return std::optional<std::string>();
  if (std::string why = failure(*cfg, a, shown(bucket, key), "GET"); !why.empty())
    return runtime_error(why);
  return std::optional<std::string>(std::move(a.body));
}

Result<void> s3_put_text(const std::string& bucket, const std::string& key,
                         const std::string& text) {
  Result<s3::Config> cfg = s3::config_from_env();
  if (!cfg) return cfg.error();
  const Answer a = perform(*cfg, "PUT", s3::object_url(*cfg, bucket, key), &text);
  if (std::string why = failure(*cfg, a, shown(bucket, key), "PUT"); !why.empty())
    return runtime_error(why);
  return ok();
}

Result<void> s3_delete(const std::string& bucket, const std::string& key) {
  Result<s3::Config> cfg = s3::config_from_env();
  if (!cfg) return cfg.error();
  const Answer a = perform(*cfg, "DELETE", s3::object_url(*cfg, bucket, key));
  if (std::string why = failure(*cfg, a, shown(bucket, key), "DELETE", 404); !why.empty())
    return runtime_error(why);
  return ok();
}

}  // namespace dlgen::engine
