#include "s3_client.hpp"

#include <cerrno>
#include <cstdlib>

namespace dlgen::engine::s3 {
namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

}  // namespace

Result<Config> config_from_env() {
  Config c;
  c.region = env("AWS_REGION");
  if (c.region.empty()) c.region = env("AWS_DEFAULT_REGION");
  if (c.region.empty()) c.region = "us-east-1";
  c.endpoint = env("AWS_ENDPOINT_URL");
  const bool custom = !c.endpoint.empty();
  if (!custom) c.endpoint = "https://s3." + c.region + ".amazonaws.com";
  while (!c.endpoint.empty() && c.endpoint.back() == '/') c.endpoint.pop_back();
  if (c.endpoint.rfind("http://", 0) != 0 && c.endpoint.rfind("https://", 0) != 0)
    return input_error("AWS_ENDPOINT_URL = \"" + c.endpoint +
                       "\": expected http://HOST[:PORT] or https://HOST[:PORT]");
  c.access_key = env("AWS_ACCESS_KEY_ID");
  c.secret_key = env("AWS_SECRET_ACCESS_KEY");
  if (c.access_key.empty() || c.secret_key.empty())
    return input_error(
        "S3 needs credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and "
        "AWS_ENDPOINT_URL, AWS_REGION for a store other than AWS's)");
  const std::string style = env("DLGEN_S3_ADDRESSING");
  if (style.empty())
    c.virtual_host = !custom;
  else if (style == "path" || style == "virtual")
    c.virtual_host = style == "virtual";
  else
    return input_error("DLGEN_S3_ADDRESSING = \"" + style + "\": expected path or virtual");
  return c;
}

std::string uri_encode(std::string_view s, bool keep_slash) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
        c == '_' || c == '.' || c == '~' || (keep_slash && c == '/')) {
      out += ch;
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::string object_url(const Config& c, std::string_view bucket, std::string_view key,
                       std::string_view query) {
  std::string url;
  if (c.virtual_host) {
    const std::size_t host = c.endpoint.find("://") + 3;
    url = c.endpoint.substr(0, host) + std::string(bucket) + "." + c.endpoint.substr(host) + "/";
  } else {
    url = c.endpoint + "/" + std::string(bucket) + "/";
  }
  url += uri_encode(key, true);
  if (!query.empty()) url += "?" + std::string(query);
  return url;
}

curl_slist* setup_handle(CURL* h, const Config& c) {
  const std::string sigv4 = "aws:amz:" + c.region + ":s3";
  curl_easy_setopt(h, CURLOPT_AWS_SIGV4, sigv4.c_str());  // libcurl copies strings
  // USERNAME and PASSWORD apart: "user:pass" would split an access key holding ':' (test:tester).
  curl_easy_setopt(h, CURLOPT_USERNAME, c.access_key.c_str());
  curl_easy_setopt(h, CURLOPT_PASSWORD, c.secret_key.c_str());
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_TCP_NODELAY, 1L);
  curl_easy_setopt(h, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
  // A transfer that moves less than 1 byte/s for 60 s is dead (a hung server).
  curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME, 60L);
  // Only this one: libcurl 7.88 signs every header of the list, even an empty "Expect:" that only
  // removes a header, and the server then misses it in the signature.
  return curl_slist_append(nullptr, "x-amz-content-sha256: UNSIGNED-PAYLOAD");
}

int status_errno(long s) {
  if (s >= 200 && s < 300) return 0;
  if (s == 404) return -ENOENT;
  if (s == 403 || s == 401) return -EACCES;
  if (s == 416) return 0;
  if (s == 400 || s == 411 || s == 501) return -EINVAL;
  return -EIO;
}

int curl_errno(CURLcode code) {
  switch (code) {
    case CURLE_OK:
      return 0;
    case CURLE_OPERATION_TIMEDOUT:
      return -ETIMEDOUT;
    case CURLE_COULDNT_CONNECT:
      return -ECONNREFUSED;
    case CURLE_COULDNT_RESOLVE_HOST:
      return -EHOSTUNREACH;
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
      return -ECONNRESET;
    case CURLE_WRITE_ERROR:
      return -EOVERFLOW;
    case CURLE_OUT_OF_MEMORY:
      return -ENOMEM;
    default:
      return -EIO;
  }
}

bool retryable(long s, CURLcode code) {
  if (code != CURLE_OK)
    return code == CURLE_OPERATION_TIMEDOUT || code == CURLE_RECV_ERROR ||
           code == CURLE_SEND_ERROR || code == CURLE_GOT_NOTHING || code == CURLE_PARTIAL_FILE;
  return s == 500 || s == 502 || s == 503 || s == 504;
}

std::string xml_field(std::string_view xml, std::string_view tag) {
  const std::string open = "<" + std::string(tag) + ">", close = "</" + std::string(tag) + ">";
  const std::size_t a = xml.find(open);
  if (a == std::string_view::npos) return {};
  const std::size_t b = xml.find(close, a + open.size());
  if (b == std::string_view::npos) return {};
  return std::string(xml.substr(a + open.size(), b - a - open.size()));
}

}  // namespace dlgen::engine::s3
