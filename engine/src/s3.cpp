// The S3 engine: objects of an S3 store through libcurl's multi interface, `depth` requests in
// flight on one thread, connections kept alive and reused (the multi handle's connection cache),
// requests signed with SigV4 by libcurl (s3_client.hpp: the 7.88 quirks).
//
// Targets are indexes into the engine's open objects: open_file("s3://BUCKET/KEY", flags) sends
// nothing. A read is a GET of [offset, offset + length): ranged, or whole when the engine knows
// the object's size (learned from an earlier answer) and the request covers it. Writes arrive
// front to back (an object is written whole, like a stream: offset = bytes written so far) and are
// copied into a part buffer of `part_bytes`; a small object goes as one PUT at close_file, a large
// one as a multipart upload whose parts are sent as they fill (the write that fills a part
// completes when that part is stored) and which close_file completes (or aborts on failure).
// Failures that may pass (500, 502, 503 SlowDown, 504, timeouts, resets) are retried with
// exponential backoff and counted; the rest end the request with -errno and last_error() says
// which object, which request and what the store answered.
#include "dlgen/engine/s3.hpp"

#include <curl/curl.h>
#include <fcntl.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstring>
#include <thread>
#include <unordered_map>

#include "dlgen/core/storage_location.hpp"
#include "engines.hpp"
#include "s3_client.hpp"

namespace dlgen::engine {
namespace {

using SteadyClock = std::chrono::steady_clock;
constexpr int kMaxAttempts = 5;                                  // a request and 4 retries
constexpr std::chrono::milliseconds kFirstBackoff{50};           // doubled per retry
constexpr std::uint64_t kMinPartBytes = std::uint64_t{8} << 20;  // S3: parts >= 5 MiB but the last

struct Object {
  bool open = false, writing = false;
  std::string bucket, key, shown;  // shown: "s3://BUCKET/KEY", for messages
  // Writing: bytes taken so far (the next write's offset), the part being filled, the upload.
  std::uint64_t written = 0;
  std::vector<std::byte> part;
  std::string upload_id;
  std::vector<std::string> etags;  // per part number - 1
  std::uint32_t parts_in_flight = 0;
  int error = 0;  // the first failure of a write to this object (-errno)
};

enum class Kind : std::uint8_t { get, put, part, control };

// One HTTP exchange on one easy handle (reused: its connection stays in the multi's cache).
struct Transfer {
  CURL* h = nullptr;
  Kind kind = Kind::get;
  bool has_request = false, sync = false, done = false;
  IoRequest request;
  int object = -1;
  std::string method, url, range;
  // GET: into dst (cap bytes); PUT: from src (len bytes); control: body out, answer in `answer`.
  std::byte* dst = nullptr;
  std::uint64_t cap = 0, got = 0;
  const std::byte* src = nullptr;
  std::uint64_t len = 0, sent = 0;
  std::vector<std::byte> data;  // a part's bytes (owned while it is sent)
  std::uint32_t part_number = 0;
  std::string body, answer, etag;
  std::uint64_t total_size = 0;  // from Content-Range ".../TOTAL" or a whole GET's length
  long status = 0;
  CURLcode code = CURLE_OK;
  int attempts = 0;
  SteadyClock::time_point retry_at;
  // issued_ns: the first try's send (the request's latency runs from it); sent_ns: this try's
  // send; first_byte_ns: this try's first byte of answer (TTFB and TTLB run from sent_ns).
  std::int64_t issued_ns = 0, sent_ns = 0, first_byte_ns = 0;
  TimeSource* clock = nullptr;
};

size_t on_body(char* p, size_t size, size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const std::size_t bytes = size * n;
  long status = 0;
  curl_easy_getinfo(t->h, CURLINFO_RESPONSE_CODE, &status);
  if (t->kind != Kind::get || status < 200 || status >= 300) {
    if (t->answer.size() < 64 * 1024) t->answer.append(p, bytes);  // XML: result or error
    return bytes;
  }
  if (t->got + bytes > t->cap) return 0;  // more than asked for: CURLE_WRITE_ERROR
  std::memcpy(t->dst + t->got, p, bytes);
  t->got += bytes;
  return bytes;
}

size_t on_header(char* p, size_t size, size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  if (t->first_byte_ns == 0) t->first_byte_ns = t->clock->now_ns();  // the status line
  const std::string_view line(p, size * n);
  const auto starts = [&line](std::string_view name) {
    if (line.size() < name.size()) return false;
    for (std::size_t i = 0; i < name.size(); ++i)
      if (std::tolower(static_cast<unsigned char>(line[i])) != name[i]) return false;
    return true;
  };
  if (starts("content-range:")) {
    if (const std::size_t slash = line.rfind('/'); slash != std::string_view::npos)
      t->total_size = std::strtoull(std::string(line.substr(slash + 1)).c_str(), nullptr, 10);
  } else if (starts("etag:")) {
    std::string v(line.substr(5));
    while (!v.empty() && (v.back() == '\r' || v.back() == '\n' || v.back() == ' ')) v.pop_back();
    v.erase(0, v.find_first_not_of(' '));
    t->etag = v;
  }
  return size * n;
}

size_t on_upload(char* p, size_t size, size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const std::size_t bytes = std::min<std::uint64_t>(size * n, t->len - t->sent);
  std::memcpy(p, t->src + t->sent, bytes);
  t->sent += bytes;
  return bytes;
}

class S3Engine final : public IoEngine {
 public:
  S3Engine(const EngineOptions& o, s3::Config cfg)
      : IoEngine(o), cfg_(std::move(cfg)), multi_(curl_multi_init()) {
    part_bytes_ = std::max<std::uint64_t>(kMinPartBytes, o.buffer_bytes);
    // Connections: as many as requests in flight, kept for reuse.
    curl_multi_setopt(multi_, CURLMOPT_MAXCONNECTS, static_cast<long>(std::max(1u, o.depth) + 2));
    ready_.reserve(std::max(1u, o.depth));
  }
  ~S3Engine() override {
    for (auto& t : transfers_) {
      curl_multi_remove_handle(multi_, t->h);
      curl_easy_cleanup(t->h);
    }
    curl_multi_cleanup(multi_);
    curl_slist_free_all(headers_);
  }
  const char* name() const override { return "s3"; }

  int submit(std::span<const IoRequest> requests) override {
    int taken = 0;
    for (const IoRequest& r : requests) {
      if (in_flight_ >= std::max(1u, options_.depth)) break;
      check(r);
      if (r.target < 0 || r.target >= static_cast<int>(objects_.size()) || !objects_[r.target].open)
        return taken > 0 ? taken : -EBADF;
      ++in_flight_;
      ++taken;
      if (r.op == IoOp::read)
        start_get(r);
      else
        take_write(r);
    }
    int running = 0;
    curl_multi_perform(multi_, &running);  // on the wire now, not at the next reap
    return taken;
  }

  int reap(std::span<IoCompletion> out, unsigned min_complete) override {
    const std::size_t wanted = std::min<std::size_t>(min_complete, ready_.size() + in_flight_);
    drive([&] { return ready_.size() >= wanted; });
    const std::size_t n = std::min(out.size(), ready_.size());
    std::copy_n(ready_.begin(), n, out.begin());
    ready_.erase(ready_.begin(), ready_.begin() + static_cast<std::ptrdiff_t>(n));
    return static_cast<int>(n);
  }

  int open_file(const char* path, int flags, int& target) override {
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

  int close_file(int target) override {
    if (target < 0 || target >= static_cast<int>(objects_.size()) || !objects_[target].open)
      return -EBADF;
    int rc = 0;
    if (objects_[target].writing) rc = finish_upload(target);
    objects_[target] = Object{};
    return rc;
  }

  const S3Counters& counters() const { return counters_; }
  const std::string& last_error() const { return last_error_; }

 private:
  // ---- transfers ----
  Transfer* acquire(Kind kind, int object) {
    Transfer* t;
    if (idle_.empty()) {
      transfers_.push_back(std::make_unique<Transfer>());
      t = transfers_.back().get();
      t->h = curl_easy_init();
      if (!headers_)
        headers_ = s3::setup_handle(t->h, cfg_);
      else
        curl_slist_free_all(s3::setup_handle(t->h, cfg_));
      curl_easy_setopt(t->h, CURLOPT_HTTPHEADER, headers_);
      curl_easy_setopt(t->h, CURLOPT_PRIVATE, t);
      curl_easy_setopt(t->h, CURLOPT_WRITEFUNCTION, on_body);
      curl_easy_setopt(t->h, CURLOPT_WRITEDATA, t);
      curl_easy_setopt(t->h, CURLOPT_HEADERFUNCTION, on_header);
      curl_easy_setopt(t->h, CURLOPT_HEADERDATA, t);
      curl_easy_setopt(t->h, CURLOPT_READFUNCTION, on_upload);
      curl_easy_setopt(t->h, CURLOPT_READDATA, t);
    } else {
      t = idle_.back();
      idle_.pop_back();
    }
    CURL* h = t->h;
    std::vector<std::byte> keep = std::move(t->data);  // a part buffer to reuse
    *t = Transfer{};
    t->h = h;
    t->data = std::move(keep);
    t->kind = kind;
    t->object = object;
    t->clock = &clock();
    return t;
  }

  void release(Transfer* t) {
    if (!t->data.empty() || t->data.capacity() > 0) spare_parts_.push_back(std::move(t->data));
    t->data = {};
    idle_.push_back(t);
  }

  // Sets the handle up for the transfer's method and body, and adds it to the multi handle.
  void send(Transfer* t) {
    CURL* h = t->h;
    curl_easy_setopt(h, CURLOPT_URL, t->url.c_str());
    curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);  // also clears UPLOAD, NOBODY, POST
    curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, nullptr);
    curl_easy_setopt(h, CURLOPT_RANGE, t->range.empty() ? nullptr : t->range.c_str());
    if (t->method == "PUT") {
      curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
      curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(t->len));
    } else if (t->method == "POST") {
      curl_easy_setopt(h, CURLOPT_POST, 1L);
      curl_easy_setopt(h, CURLOPT_POSTFIELDS, t->body.c_str());
      curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(t->body.size()));
    } else if (t->method != "GET") {
      curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, t->method.c_str());
    }
    t->got = t->sent = 0;
    t->answer.clear();
    t->etag.clear();
    t->first_byte_ns = 0;
    t->sent_ns = clock().now_ns();
    if (t->attempts == 0) t->issued_ns = t->sent_ns;
    ++t->attempts;
    ++counters_.http_requests;
    if (t->kind == Kind::get) ++counters_.gets;
    curl_multi_add_handle(multi_, h);
    ++active_;
  }

  std::string url_of(const Object& o, std::string_view query = {}) const {
    return s3::object_url(cfg_, o.bucket, o.key, query);
  }

  // ---- reads ----
  void start_get(const IoRequest& r) {
    Object& o = objects_[r.target];
    Transfer* t = acquire(Kind::get, r.target);
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
      release(t);
      return;
    }
    send(t);
  }

  // ---- writes ----
  void take_write(const IoRequest& r) {
    Object& o = objects_[r.target];
    const std::int64_t now = clock().now_ns();
    if (!o.writing || o.error != 0 || r.offset != o.written) {
      if (o.writing && o.error == 0) {
        last_error_ = o.shown + ": write at " + std::to_string(r.offset) +
                      ": an object is written front to back (expected offset " +
                      std::to_string(o.written) + ")";
        o.error = -EINVAL;
      }
      complete(r, o.writing ? o.error : -EBADF, now);
      return;
    }
    Transfer* part = nullptr;
    if (!o.part.empty() && o.part.size() + r.length > part_bytes_) {
      part = send_part(r.target);  // the part this write does not fit in
      if (!part) {
        complete(r, o.error, now);
        return;
      }
    }
    if (o.part.capacity() < part_bytes_) o.part.reserve(part_bytes_);
    const std::byte* src = buffer(r.buffer);
    o.part.insert(o.part.end(), src, src + r.length);
    o.written += r.length;
    if (part) {  // completes when its part is stored
      part->has_request = true;
      part->request = r;
      part->request.length = r.length;
    } else {
      complete(r, r.length, now);
    }
  }

  // Sends the object's filled part (initiating the multipart upload first); nullptr on failure.
  Transfer* send_part(int object) {
    Object& o = objects_[object];
    if (o.upload_id.empty() && !initiate(object)) return nullptr;
    Transfer* t = acquire(Kind::part, object);
    t->data.swap(o.part);
    o.part.clear();
    if (!spare_parts_.empty()) {
      o.part = std::move(spare_parts_.back());
      spare_parts_.pop_back();
      o.part.clear();
    }
    t->part_number = static_cast<std::uint32_t>(o.etags.size()) + 1;
    o.etags.emplace_back();
    t->method = "PUT";
    // Query parameters sorted and %-encoded: libcurl 7.88 signs the query as it is written.
    t->url = url_of(o, "partNumber=" + std::to_string(t->part_number) +
                           "&uploadId=" + s3::uri_encode(o.upload_id, false));
    t->src = t->data.data();
    t->len = t->data.size();
    ++o.parts_in_flight;
    send(t);
    return t;
  }

  // A control request (initiate, complete, abort, whole PUT) waited for here; the answer's status
  // (or -errno with last_error_ set).
  int run_sync(Transfer* t) {
    t->sync = true;
    send(t);
    drive([t] { return t->done; });
    const int rc = result_of(*t);
    return rc;
  }

  bool initiate(int object) {
    Object& o = objects_[object];
    Transfer* t = acquire(Kind::control, object);
    t->method = "POST";
    t->url = url_of(o, "uploads=");
    const int rc = run_sync(t);
    o.upload_id = s3::xml_field(t->answer, "UploadId");
    if (rc >= 0 && o.upload_id.empty()) {
      last_error_ = o.shown + ": POST ?uploads: no UploadId in the answer";
      o.error = -EIO;
    } else if (rc < 0) {
      o.error = rc;
    }
    release(t);
    return o.error == 0;
  }

  int finish_upload(int object) {
    Object& o = objects_[object];
    if (o.error == 0 && o.upload_id.empty()) {  // one PUT of the whole object
      Transfer* t = acquire(Kind::put, object);
      t->method = "PUT";
      t->url = url_of(o);
      t->src = o.part.data();
      t->len = o.part.size();
      const int rc = run_sync(t);
      release(t);
      return rc < 0 ? rc : 0;
    }
    if (o.error == 0 && !o.part.empty()) send_part(object);
    drive([&o] { return o.parts_in_flight == 0; });
    if (o.error == 0) {
      Transfer* t = acquire(Kind::control, object);
      t->method = "POST";
      t->url = url_of(o, "uploadId=" + s3::uri_encode(o.upload_id, false));
      t->body = "<CompleteMultipartUpload>";
      for (std::size_t i = 0; i < o.etags.size(); ++i)
        t->body += "<Part><PartNumber>" + std::to_string(i + 1) + "</PartNumber><ETag>" +
                   o.etags[i] + "</ETag></Part>";
      t->body += "</CompleteMultipartUpload>";
      int rc = run_sync(t);
      // S3 may answer 200 and put the failure in the body.
      if (rc >= 0 && t->answer.find("<Error>") != std::string::npos) {
        last_error_ = o.shown + ": POST ?uploadId: " + s3::xml_field(t->answer, "Code") + " " +
                      s3::xml_field(t->answer, "Message");
        rc = -EIO;
      }
      release(t);
      if (rc >= 0) return 0;
      o.error = rc;
    }
    if (!o.upload_id.empty()) {  // abort: leave no parts behind; the first error stands
      const std::string first = last_error_;
      Transfer* t = acquire(Kind::control, object);
      t->method = "DELETE";
      t->url = url_of(o, "uploadId=" + s3::uri_encode(o.upload_id, false));
      (void)run_sync(t);
      release(t);
      last_error_ = first;
    }
    return o.error;
  }

  // ---- completion ----
  void complete(const IoRequest& r, std::int64_t result, std::int64_t issued) {
    ready_.push_back({r.user_data, result, issued, clock().now_ns()});
    --in_flight_;
  }

  // The transfer's outcome: its status (>= 0) or -errno, with last_error_ set on failure.
  int result_of(const Transfer& t) {
    int rc = t.code != CURLE_OK ? s3::curl_errno(t.code) : s3::status_errno(t.status);
    if (t.code == CURLE_OK && t.status == 416) rc = 0;  // a read past the end: 0 bytes
    if (rc < 0 || (t.code == CURLE_OK && (t.status < 200 || t.status >= 300) && t.status != 416)) {
      const Object& o = objects_[t.object];
      std::string what = t.code != CURLE_OK ? std::string(curl_easy_strerror(t.code))
                                            : "HTTP " + std::to_string(t.status) + " " +
                                                  s3::xml_field(t.answer, "Code");
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

  void finish(Transfer* t) {
    const Object& o = objects_[t->object];
    if (t->kind == Kind::get && t->code == CURLE_OK && t->status >= 200 && t->status < 300) {
      const std::uint64_t size = t->status == 200 ? t->got : t->total_size;
      if (size > 0) sizes_[o.shown] = size;
      complete(t->request, static_cast<std::int64_t>(t->got), t->issued_ns);
      release(t);
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
      release(t);
      return;
    }
    if (t->has_request) {  // a GET that failed (or read past the end: 0 bytes)
      complete(t->request, rc >= 0 ? 0 : rc, t->issued_ns);
      release(t);
      return;
    }
    t->done = true;  // a sync transfer: its caller reads it and releases it
  }

  // Takes the transfers libcurl finished: retries what may pass, completes the rest.
  void collect() {
    int left = 0;
    while (CURLMsg* m = curl_multi_info_read(multi_, &left)) {
      if (m->msg != CURLMSG_DONE) continue;
      Transfer* t = nullptr;
      curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, &t);
      t->code = m->data.result;
      curl_easy_getinfo(t->h, CURLINFO_RESPONSE_CODE, &t->status);
      curl_multi_remove_handle(multi_, t->h);
      --active_;
      count_outcome(*t);
      if (s3::retryable(t->status, t->code) && t->attempts < kMaxAttempts) {
        ++counters_.retries;
        t->retry_at = SteadyClock::now() + kFirstBackoff * (1 << (t->attempts - 1));
        retrying_.push_back(t);
        continue;
      }
      finish(t);
    }
  }

  // The try's failure kind, and its TTFB and TTLB when it was answered in full.
  void count_outcome(const Transfer& t) {
    if (t.code == CURLE_OK) {
      const std::int64_t last = clock().now_ns();
      const std::int64_t first = t.first_byte_ns > 0 ? t.first_byte_ns : last;
      counters_.ttfb.record(
          static_cast<std::uint64_t>(std::max<std::int64_t>(0, first - t.sent_ns)));
      counters_.ttlb.record(
          static_cast<std::uint64_t>(std::max<std::int64_t>(0, last - t.sent_ns)));
      if (t.status == 503)
        ++counters_.slow_downs;
      else if (t.status >= 500)
        ++counters_.server_errors;
    } else if (t.code == CURLE_OPERATION_TIMEDOUT) {
      ++counters_.timeouts;
    } else if (t.code == CURLE_RECV_ERROR || t.code == CURLE_SEND_ERROR ||
               t.code == CURLE_GOT_NOTHING || t.code == CURLE_PARTIAL_FILE) {
      ++counters_.resets;
    }
  }

  // Runs the transfers until `enough()`, or until nothing is left that could make it so.
  template <class Pred>
  void drive(Pred enough) {
    for (;;) {
      int running = 0;
      curl_multi_perform(multi_, &running);
      collect();
      const auto now = SteadyClock::now();
      auto next = SteadyClock::time_point::max();
      for (std::size_t i = 0; i < retrying_.size();) {
        if (retrying_[i]->retry_at <= now) {
          Transfer* t = retrying_[i];
          retrying_[i] = retrying_.back();
          retrying_.pop_back();
          send(t);
        } else {
          next = std::min(next, retrying_[i]->retry_at);
          ++i;
        }
      }
      if (enough() || (active_ == 0 && retrying_.empty())) return;
      int timeout_ms = 1000;
      if (next != SteadyClock::time_point::max())
        timeout_ms = static_cast<int>(std::clamp<std::int64_t>(
            std::chrono::duration_cast<std::chrono::milliseconds>(next - now).count(), 0, 1000));
      if (active_ > 0)
        curl_multi_poll(multi_, nullptr, 0, timeout_ms, nullptr);
      else
        std::this_thread::sleep_until(next);
    }
  }

  s3::Config cfg_;
  CURLM* multi_;
  curl_slist* headers_ = nullptr;
  std::uint64_t part_bytes_;
  std::vector<std::unique_ptr<Transfer>> transfers_;
  std::vector<Transfer*> idle_, retrying_;
  std::vector<std::vector<std::byte>> spare_parts_;
  std::vector<Object> objects_;
  std::vector<IoCompletion> ready_;
  std::uint32_t in_flight_ = 0;                           // requests taken and not yet in ready_
  std::uint32_t active_ = 0;                              // handles in the multi handle
  std::unordered_map<std::string, std::uint64_t> sizes_;  // object sizes seen in answers
  S3Counters counters_;
  std::string last_error_;
};

// libcurl's global state, once per process, before any handle (not thread-safe itself).
bool curl_ready() {
  static const CURLcode init = curl_global_init(CURL_GLOBAL_DEFAULT);
  return init == CURLE_OK;
}

Result<std::unique_ptr<IoEngine>> make_s3(const EngineOptions& options) {
  if (!curl_ready()) return unsupported_error("libcurl: curl_global_init failed");
  Result<s3::Config> cfg = s3::config_from_env();
  if (!cfg) return cfg.error();
  return std::unique_ptr<IoEngine>(std::make_unique<S3Engine>(options, std::move(*cfg)));
}

Result<void> probe_s3() {
  if (!curl_ready()) return unsupported_error("libcurl: curl_global_init failed");
  Result<s3::Config> cfg = s3::config_from_env();
  if (!cfg) return cfg.error();
  return ok();
}

}  // namespace

void S3Counters::merge(const S3Counters& o) {
  http_requests += o.http_requests;
  gets += o.gets;
  retries += o.retries;
  slow_downs += o.slow_downs;
  server_errors += o.server_errors;
  timeouts += o.timeouts;
  resets += o.resets;
  ttfb.merge(o.ttfb);
  ttlb.merge(o.ttlb);
}

const S3Counters* s3_counters(const IoEngine& e) {
  const auto* s3 = dynamic_cast<const S3Engine*>(&e);
  return s3 ? &s3->counters() : nullptr;
}

std::string s3_last_error(const IoEngine& e) {
  const auto* s3 = dynamic_cast<const S3Engine*>(&e);
  return s3 ? s3->last_error() : std::string();
}

const EngineOps& s3_ops() {
  static const EngineOps ops{
      "s3",
      {},
      "objects of an S3 store (s3://BUCKET/KEY): ranged GETs, PUTs and multipart uploads, "
      "libcurl multi, SigV4 from the AWS_* environment",
      {.writes = true},
      make_s3,
      probe_s3};
  return ops;
}

}  // namespace dlgen::engine
