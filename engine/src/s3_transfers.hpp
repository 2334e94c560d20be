#pragma once
// The S3 engine's transport (private to engine/): HTTP exchanges on libcurl easy handles driven by
// one multi handle on the engine's thread. Handles are reused, so their connections stay in the
// multi's cache (keep-alive); failures that may pass (500, 502, 503 SlowDown, 504, timeouts,
// resets) are sent again with exponential backoff; every try is counted in S3Counters with its
// failure kind and its times to first and last byte. What a finished exchange means (a read's
// bytes, a part's ETag) is the engine's: Transfers hands it back through `on_done`.
#include <curl/curl.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "dlgen/engine/engine.hpp"
#include "dlgen/engine/s3.hpp"
#include "s3_client.hpp"

namespace dlgen::engine::s3 {

using SteadyClock = std::chrono::steady_clock;

// What an exchange is, for the counters and for what its end means: a GET (a read), a PUT of a
// whole object, a PUT of one part of a multipart upload, or a control request (initiate,
// complete or abort a multipart upload).
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

class Transfers {
 public:
  // `connections`: how many kept-alive connections the multi handle caches; `on_done` gets each
  // transfer that finished for good (answered, or failed past its retries).
  Transfers(const Config& cfg, unsigned connections, TimeSource& clock,
            std::function<void(Transfer*)> on_done);
  ~Transfers();
  Transfers(const Transfers&) = delete;
  Transfers& operator=(const Transfers&) = delete;

  // A transfer for a new exchange (an idle one reset, or a new handle); `data` keeps its buffer.
  Transfer* acquire(Kind kind, int object);
  // Back to the idle ones; its part buffer goes to the spare buffers.
  void release(Transfer* t);
  // Sets the handle up for the transfer's method and body and puts it on the wire (a try).
  void send(Transfer* t);
  // Moves what can move now without waiting (after queuing sends).
  void kick();
  // Runs the transfers until `enough()`, or until nothing is left that could make it so.
  template <class Pred>
  void drive(Pred enough) {
    for (;;) {
      const SteadyClock::time_point next = pump();
      if (enough() || (active_ == 0 && retrying_.empty())) return;
      wait(next);
    }
  }

  // A part buffer given back by a finished part, to fill again (nothing allocated per part).
  bool take_spare(std::vector<std::byte>& into);
  const S3Counters& counters() const { return counters_; }
  S3Counters take_counters() { return std::exchange(counters_, S3Counters{}); }

 private:
  Transfer* make_transfer();
  // Drives libcurl once, takes what finished and re-sends the retries that are due; returns when
  // the next retry is due (time_point::max() when none waits).
  SteadyClock::time_point pump();
  void wait(SteadyClock::time_point next);
  void collect();
  void count_outcome(const Transfer& t);

  const Config& cfg_;
  CURLM* multi_;
  curl_slist* headers_ = nullptr;
  TimeSource& clock_;
  std::function<void(Transfer*)> on_done_;
  std::vector<std::unique_ptr<Transfer>> transfers_;
  std::vector<Transfer*> idle_, retrying_;
  std::vector<std::vector<std::byte>> spare_parts_;
  std::uint32_t active_ = 0;  // handles in the multi handle
  S3Counters counters_;
};

}  // namespace dlgen::engine::s3
