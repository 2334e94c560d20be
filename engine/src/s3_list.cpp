// ListObjectsV2 with one easy handle: a control request, not on any hot path.
#include <curl/curl.h>

#include <memory>

#include "dlgen/engine/s3.hpp"
#include "s3_client.hpp"

namespace dlgen::engine {
namespace {

size_t append(char* p, size_t size, size_t n, void* out) {
  static_cast<std::string*>(out)->append(p, size * n);
  return size * n;
}

}  // namespace

Result<std::vector<std::string>> s3_list(const std::string& bucket, const std::string& prefix,
                                         std::uint32_t max_keys) {
  Result<s3::Config> cfg = s3::config_from_env();
  if (!cfg) return cfg.error();
  curl_global_init(CURL_GLOBAL_DEFAULT);
  const std::unique_ptr<CURL, void (*)(CURL*)> h(curl_easy_init(), curl_easy_cleanup);
  const std::unique_ptr<curl_slist, void (*)(curl_slist*)> headers(s3::setup_handle(h.get(), *cfg),
                                                                   curl_slist_free_all);
  // Sorted and %-encoded: libcurl 7.88 signs the query as written.
  const std::string query = "list-type=2&max-keys=" + std::to_string(max_keys) +
                            "&prefix=" + s3::uri_encode(prefix, false);
  const std::string url = s3::object_url(*cfg, bucket, "", query);
  std::string body;
  curl_easy_setopt(h.get(), CURLOPT_URL, url.c_str());
  curl_easy_setopt(h.get(), CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(h.get(), CURLOPT_WRITEFUNCTION, append);
  curl_easy_setopt(h.get(), CURLOPT_WRITEDATA, &body);
  const CURLcode code = curl_easy_perform(h.get());
  long status = 0;
  curl_easy_getinfo(h.get(), CURLINFO_RESPONSE_CODE, &status);
  const std::string shown = "s3://" + bucket + "/" + prefix;
  if (code != CURLE_OK)
    return runtime_error(shown + ": list: " + curl_easy_strerror(code) + " [" + cfg->endpoint +
                         "]");
  if (status != 200)
    return runtime_error(shown + ": list: HTTP " + std::to_string(status) + " " +
                         s3::xml_field(body, "Code") + " [" + cfg->endpoint + "]");
  std::vector<std::string> keys;
  for (std::size_t at = 0; (at = body.find("<Key>", at)) != std::string::npos;) {
    const std::size_t end = body.find("</Key>", at);
    if (end == std::string::npos) break;
    keys.push_back(body.substr(at + 5, end - at - 5));
    at = end;
  }
  return keys;
}

}  // namespace dlgen::engine
