#include "s3_transfers.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <string_view>
#include <thread>

namespace dlgen::engine::s3 {
namespace {

constexpr int kMaxAttempts = 5;                         // a request and 4 retries
constexpr std::chrono::milliseconds kFirstBackoff{50};  // doubled per retry

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

}  // namespace

Transfers::Transfers(const Config& cfg, unsigned connections, TimeSource& clock,
                     std::function<void(Transfer*)> on_done)
    : cfg_(cfg), multi_(curl_multi_init()), clock_(clock), on_done_(std::move(on_done)) {
  curl_multi_setopt(multi_, CURLMOPT_MAXCONNECTS, static_cast<long>(connections));
}

Transfers::~Transfers() {
  for (auto& t : transfers_) {
    curl_multi_remove_handle(multi_, t->h);
    curl_easy_cleanup(t->h);
  }
  curl_multi_cleanup(multi_);
  curl_slist_free_all(headers_);
}

// A new easy handle with the signing set-up and the callbacks, pointing at its Transfer.
Transfer* Transfers::make_transfer() {
  transfers_.push_back(std::make_unique<Transfer>());
  Transfer* t = transfers_.back().get();
  t->h = curl_easy_init();
  // Every handle sends the same header list: the first handle's, kept until the end.
  if (!headers_)
    headers_ = setup_handle(t->h, cfg_);
  else
    curl_slist_free_all(setup_handle(t->h, cfg_));
  curl_easy_setopt(t->h, CURLOPT_HTTPHEADER, headers_);
  curl_easy_setopt(t->h, CURLOPT_PRIVATE, t);
  curl_easy_setopt(t->h, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(t->h, CURLOPT_WRITEDATA, t);
  curl_easy_setopt(t->h, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(t->h, CURLOPT_HEADERDATA, t);
  curl_easy_setopt(t->h, CURLOPT_READFUNCTION, on_upload);
  curl_easy_setopt(t->h, CURLOPT_READDATA, t);
  return t;
}

Transfer* Transfers::acquire(Kind kind, int object) {
  Transfer* t;
  if (idle_.empty()) {
    t = make_transfer();
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
  t->clock = &clock_;
  return t;
}

void Transfers::release(Transfer* t) {
  if (!t->data.empty() || t->data.capacity() > 0) spare_parts_.push_back(std::move(t->data));
  t->data = {};
  idle_.push_back(t);
}

bool Transfers::take_spare(std::vector<std::byte>& into) {
  if (spare_parts_.empty()) return false;
  into = std::move(spare_parts_.back());
  spare_parts_.pop_back();
  into.clear();
  return true;
}

void Transfers::send(Transfer* t) {
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
  t->sent_ns = clock_.now_ns();
  if (t->attempts == 0) t->issued_ns = t->sent_ns;
  ++t->attempts;
  ++counters_.http_requests;
  switch (t->kind) {
    case Kind::get:
      ++counters_.gets;
      break;
    case Kind::put:
      ++counters_.puts;
      break;
    case Kind::part:
      ++counters_.parts;
      break;
    case Kind::control:
      ++counters_.control;
      break;
  }
  curl_multi_add_handle(multi_, h);
  ++active_;
}

void Transfers::kick() {
  int running = 0;
  curl_multi_perform(multi_, &running);
}

// Takes the transfers libcurl finished: retries what may pass, hands the rest to on_done_.
void Transfers::collect() {
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
    if (retryable(t->status, t->code) && t->attempts < kMaxAttempts) {
      ++counters_.retries;
      t->retry_at = SteadyClock::now() + kFirstBackoff * (1 << (t->attempts - 1));
      retrying_.push_back(t);
      continue;
    }
    on_done_(t);
  }
}

// The try's failure kind, and its TTFB and TTLB when it was answered in full.
void Transfers::count_outcome(const Transfer& t) {
  if (t.code == CURLE_OK) {
    const std::int64_t last = clock_.now_ns();
    const std::int64_t first = t.first_byte_ns > 0 ? t.first_byte_ns : last;
    counters_.ttfb.record(static_cast<std::uint64_t>(std::max<std::int64_t>(0, first - t.sent_ns)));
    counters_.ttlb.record(static_cast<std::uint64_t>(std::max<std::int64_t>(0, last - t.sent_ns)));
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

SteadyClock::time_point Transfers::pump() {
  kick();
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
  return next;
}

// Waits for libcurl's sockets (at most a second, or until the next retry is due); with nothing on
// the wire, sleeps until that retry.
void Transfers::wait(SteadyClock::time_point next) {
  const auto now = SteadyClock::now();
  int timeout_ms = 1000;
  if (next != SteadyClock::time_point::max())
    timeout_ms = static_cast<int>(std::clamp<std::int64_t>(
        std::chrono::duration_cast<std::chrono::milliseconds>(next - now).count(), 0, 1000));
  if (active_ > 0)
    curl_multi_poll(multi_, nullptr, 0, timeout_ms, nullptr);
  else
    std::this_thread::sleep_until(next);
}

}  // namespace dlgen::engine::s3
