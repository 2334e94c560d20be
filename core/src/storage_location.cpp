#include "dlgen/core/storage_location.hpp"

#include <algorithm>

namespace dlgen {
namespace {

// The scheme of "scheme://...", or "" when `text` has none (RFC 3986: a letter, then letters,
// digits, '+', '-', '.').
std::string_view scheme_of(std::string_view text) {
  const std::size_t colon = text.find("://");
  if (colon == std::string_view::npos || colon == 0) return {};
  const std::string_view s = text.substr(0, colon);
  const auto ok = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '+' ||
           c == '-' || c == '.';
  };
  if (!((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z'))) return {};
  return std::ranges::all_of(s, ok) ? s : std::string_view{};
}

// S3's bucket naming rules (the strict, virtual-host-safe ones).
bool valid_bucket(std::string_view b) {
  if (b.size() < 3 || b.size() > 63) return false;
  const auto ok = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-';
  };
  const auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  return std::ranges::all_of(b, ok) && alnum(b.front()) && alnum(b.back()) &&
         b.find("..") == std::string_view::npos;
}

// "s3://BUCKET/REST" → bucket and REST (as written), or an error naming `text`.
Result<StorageLocation> split_s3(std::string_view text) {
  std::string_view rest = text.substr(5);  // after "s3://"
  const std::size_t slash = rest.find('/');
  StorageLocation loc;
  loc.kind = StorageKind::s3;
  loc.bucket = std::string(rest.substr(0, slash));
  if (!valid_bucket(loc.bucket))
    return input_error("\"" + std::string(text) + "\": \"" + loc.bucket +
                       "\" is not a bucket name (3-63 characters of a-z, 0-9, '.', '-')");
  if (slash != std::string_view::npos) loc.prefix = std::string(rest.substr(slash + 1));
  return loc;
}

}  // namespace

bool is_url(std::string_view text) {
  return !scheme_of(text).empty();
}

std::string StorageLocation::key(std::string_view name) const {
  return prefix.empty() ? std::string(name) : prefix + "/" + std::string(name);
}

std::string StorageLocation::text() const {
  if (kind == StorageKind::posix) return path.string();
  return "s3://" + bucket + (prefix.empty() ? "" : "/" + prefix);
}

Result<StorageLocation> parse_location(std::string_view text) {
  const std::string_view scheme = scheme_of(text);
  if (scheme.empty()) {
    StorageLocation loc;
    loc.path = std::filesystem::path(text);
    return loc;
  }
  if (scheme != "s3")
    return input_error("\"" + std::string(text) + "\": " + std::string(scheme) +
                       ":// locations are not supported (a directory, or s3://BUCKET/PREFIX)");
  Result<StorageLocation> loc = split_s3(text);
  if (!loc) return loc;
  // A prefix names a "directory" of keys: no empty, "." or ".." segments, no trailing '/'.
  std::string& p = loc->prefix;
  while (!p.empty() && p.back() == '/') p.pop_back();
  std::size_t start = 0;
  while (!p.empty() && start <= p.size()) {
    const std::size_t end = std::min(p.find('/', start), p.size());
    const std::string_view seg = std::string_view(p).substr(start, end - start);
    if (seg.empty() || seg == "." || seg == "..")
      return input_error("\"" + std::string(text) +
                         "\": the key prefix has an empty, \".\" or \"..\" segment");
    start = end + 1;
  }
  return loc;
}

Result<StorageLocation> parse_object_url(std::string_view text) {
  if (scheme_of(text) != "s3")
    return input_error("\"" + std::string(text) + "\": not an s3:// URL");
  Result<StorageLocation> loc = split_s3(text);
  if (!loc) return loc;
  if (loc->prefix.empty())
    return input_error("\"" + std::string(text) + "\": names a bucket, not an object");
  return loc;
}

Result<std::filesystem::path> local_dir(const std::filesystem::path& dir, std::string_view key,
                                        std::string_view what) {
  const std::string text = dir.string();
  if (!is_url(text)) return dir;
  if (scheme_of(text) == "s3")
    return input_error(std::string(key) + " = \"" + text + "\" is an object store location; " +
                       std::string(what) + " does not support object storage yet");
  return input_error(std::string(key) + " = \"" + text + "\" is a URL, not a directory; " +
                     std::string(what) + " reads and writes local directories only");
}

}  // namespace dlgen
