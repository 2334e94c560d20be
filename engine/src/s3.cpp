// The S3 engine's requests and completions (s3_engine.hpp): submit, reap, open and close, the
// reads (ranged or whole GETs), what a finished transfer means, and the engine's registry entry.
#include "dlgen/engine/s3.hpp"

#include <curl/curl.h>
#include <fcntl.h>

#include <algorithm>

#include "dlgen/core/storage_location.hpp"
#include "engines.hpp"
#include "s3_engine.hpp"

namespace dlgen::engine {
namespace s3 {
namespace {

constexpr std::uint64_t kMinPartBytes = std::uint64_t{8} << 20;  // S3: parts >= 5 MiB but the last

}  // namespace

S3Engine::S3Engine(const EngineOptions& o, Config cfg)
    : IoEngine(o),
      cfg_(std::move(cfg)),
      part_bytes_(o.part_bytes > 0 ? o.part_bytes
                                   : std::max<std::uint64_t>(kMinPartBytes, o.buffer_bytes)),
      // Connections: as many as requests in flight, kept for reuse.
      transfers_(cfg_, std::max(1u, o.depth) + 2, clock(), [this](Transfer* t) { finish(t); }) {
  ready_.reserve(std::max(1u, o.depth));
}

int S3Engine::submit(std::span<const IoRequest> requests) {
  int taken = 0;
  for (const IoRequest& r : requests) {
    if (in_flight_ >= std::max(1u, options_.depth)) break;
    check(r);
    if (!is_open(r.target)) return taken > 0 ? taken : -EBADF;
    ++in_flight_;
    ++taken;
    if (r.op == IoOp::read)
      start_get(r);
    else
      take_write(r);
  }
  transfers_.kick();  // on the wire now, not at the next reap
  return taken;
}

int S3Engine::reap(std::span<IoCompletion> out, unsigned min_complete) {
  const std::size_t wanted = std::min<std::size_t>(min_complete, ready_.size() + in_flight_);
  transfers_.drive([&] { return ready_.size() >= wanted; });
  const std::size_t n = std::min(out.size(), ready_.size());
  std::copy_n(ready_.begin(), n, out.begin());
  ready_.erase(ready_.begin(), ready_.begin() + static_cast<std::ptrdiff_t>(n));
  return static_cast<int>(n);
}

int S3Engine::open_file(const char* path, int flags, int& target) {
  Result<StorageLocation> loc = parse_object_url(path);
  if (!loc) {
    last_error_ = loc.error().message;
    return -EINVAL;
  }
  int i = 0;
  while (i < static_cast<int>(objects_.size()) && objects_[i].open) ++i;
  if (i == static_cast<int>(objects_.size())) objects_.emplace_back();
  Object& o = objects_[i];
  o = Object{};
  o.open = true;
  o.writing = (flags & O_ACCMODE) != O_RDONLY;
  o.bucket = loc->bucket;
  o.key = loc->prefix;
  o.shown = path;
  target = i;
  return 0;
}

int S3Engine::close_file(int target) {
  if (!is_open(target)) return -EBADF;
  int rc = 0;
  if (objects_[target].writing) rc = finish_upload(target);
  objects_[target] = Object{};
  return rc;
}

void S3Engine::start_get(const IoRequest& r) {
  Object& o = objects_[r.target];
  Transfer* t = transfers_.acquire(Kind::get, r.target);
  t->has_request = true;
  t->request = r;
  t->method = "GET";
  t->url = url_of(o);
  t->dst = buffer(r.buffer);
  t->cap = r.length;
  // Whole when the request covers the object as far as we know its size; ranged otherwise.
  const auto known = sizes_.find(o.shown);
  if (!(r.offset == 0 && known != sizes_.end() && r.length >= known->second))
    t->range = std::to_string(r.offset) + "-" + std::to_string(r.offset + r.length - 1);
  if (r.length == 0) {
    complete(r, 0, clock().now_ns());
    transfers_.release(t);
    return;
  }
  transfers_.send(t);
}

void S3Engine::complete(const IoRequest& r, std::int64_t result, std::int64_t issued) {
  ready_.push_back({r.user_data, result, issued, clock().now_ns()});
  --in_flight_;
}

// The transfer's outcome: its status (>= 0) or -errno, with last_error_ set on failure.
int S3Engine::result_of(const Transfer& t) {
  int rc = t.code != CURLE_OK ? curl_errno(t.code) : status_errno(t.status);
  if (t.code == CURLE_OK && t.status == 416) rc = 0;  // a read past the end: 0 bytes
  if (rc < 0 || (t.code == CURLE_OK && (t.status < 200 || t.status >= 300) && t.status != 416)) {
    const Object& o = objects_[t.object];
    std::string what = t.code != CURLE_OK
                           ? std::string(curl_easy_strerror(t.code))
                           : "HTTP " + std::to_string(t.status) + " " + xml_field(t.answer, "Code");
    if (t.code == CURLE_OK && t.status == 403 && what.find("Signature") == std::string::npos &&
        what.find("AccessDenied") == std::string::npos &&
        what.find("InvalidAccessKey") == std::string::npos)
      what += " (check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)";
    last_error_ =
        o.shown + ": " + t.method + (t.range.empty() ? std::string() : " bytes=" + t.range) +
        (t.part_number ? " part " + std::to_string(t.part_number) : std::string()) + ": " + what +
        (t.attempts > 1 ? " (after " + std::to_string(t.attempts) + " tries)" : "") + " [" +
        cfg_.endpoint + "]";
    if (rc == 0) rc = -EIO;
  }
  return rc < 0 ? rc : static_cast<int>(t.status);
}

// A transfer that finished for good: a read's bytes, a part's ETag, or a sync transfer's answer
// for its caller.
void S3Engine::finish(Transfer* t) {
  const Object& o = objects_[t->object];
  if (t->kind == Kind::get && t->code == CURLE_OK && t->status >= 200 && t->status < 300) {
    const std::uint64_t size = t->status == 200 ? t->got : t->total_size;
    if (size > 0) sizes_[o.shown] = size;
    complete(t->request, static_cast<std::int64_t>(t->got), t->issued_ns);
    transfers_.release(t);
    return;
  }
  const int rc = result_of(*t);
  if (t->kind == Kind::part) {
    Object& w = objects_[t->object];
    --w.parts_in_flight;
    if (rc >= 0)
      w.etags[t->part_number - 1] = t->etag;
    else if (w.error == 0)
      w.error = rc;
    if (t->has_request) complete(t->request, rc >= 0 ? t->request.length : rc, t->issued_ns);
    transfers_.release(t);
    return;
  }
  if (t->has_request) {  // a GET that failed (or read past the end: 0 bytes)
    complete(t->request, rc >= 0 ? 0 : rc, t->issued_ns);
    transfers_.release(t);
    return;
  }
  t->done = true;  // a sync transfer: its caller reads it and releases it
}

namespace {

// libcurl's global state, once per process, before any handle (not thread-safe itself).
bool curl_ready() {
  static const CURLcode init = curl_global_init(CURL_GLOBAL_DEFAULT);
  return init == CURLE_OK;
}

Result<std::unique_ptr<IoEngine>> make_s3(const EngineOptions& options) {
  if (!curl_ready()) return unsupported_error("libcurl: curl_global_init failed");
  Result<Config> cfg = config_from_env();
  if (!cfg) return cfg.error();
  return std::unique_ptr<IoEngine>(std::make_unique<S3Engine>(options, std::move(*cfg)));
}

Result<void> probe_s3() {
  if (!curl_ready()) return unsupported_error("libcurl: curl_global_init failed");
  Result<Config> cfg = config_from_env();
  if (!cfg) return cfg.error();
  return ok();
}

}  // namespace
}  // namespace s3

void S3Counters::merge(const S3Counters& o) {
  http_requests += o.http_requests;
  gets += o.gets;
  puts += o.puts;
  parts += o.parts;
  control += o.control;
  retries += o.retries;
  slow_downs += o.slow_downs;
  server_errors += o.server_errors;
  timeouts += o.timeouts;
  resets += o.resets;
  ttfb.merge(o.ttfb);
  ttlb.merge(o.ttlb);
}

void merge_into(std::optional<S3Counters>& into, const std::optional<S3Counters>& k) {
  if (!k) return;
  if (!into) into.emplace();
  into->merge(*k);
}

const S3Counters* s3_counters(const IoEngine& e) {
  const auto* engine = dynamic_cast<const s3::S3Engine*>(&e);
  return engine ? &engine->counters() : nullptr;
}

std::optional<S3Counters> take_s3_counters(IoEngine& e) {
  auto* engine = dynamic_cast<s3::S3Engine*>(&e);
  if (!engine) return std::nullopt;
  return engine->take_counters();
}

std::string s3_last_error(const IoEngine& e) {
  const auto* engine = dynamic_cast<const s3::S3Engine*>(&e);
  return engine ? engine->last_error() : std::string();
}

const EngineOps& s3_ops() {
  static const EngineOps ops{
      "s3",
      {},
      "objects of an S3 store (s3://BUCKET/KEY): ranged GETs, PUTs and multipart uploads, "
      "libcurl multi, SigV4 from the AWS_* environment",
      {.writes = true},
      s3::make_s3,
      s3::probe_s3};
  return ops;
}

}  // namespace dlgen::engine
