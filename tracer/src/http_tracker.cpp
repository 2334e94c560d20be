#include "http_tracker.hpp"

#include <arpa/inet.h>
#include <sys/socket.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <utility>

#include "events.h"

namespace dlgen::capture {
namespace {

// The head's lines after the first, as (lower-case name, value) pairs, up to the blank line.
template <class F>
void for_each_header(std::string_view head, F&& f) {
  std::size_t at = head.find("\r\n");
  while (at != std::string_view::npos) {
    at += 2;
    const std::size_t end = head.find("\r\n", at);
    if (end == std::string_view::npos || end == at) return;  // cut off, or the blank line
    const std::string_view line = head.substr(at, end - at);
    const std::size_t colon = line.find(':');
    if (colon != std::string_view::npos) {
      std::string name(line.substr(0, colon));
      for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      std::string_view value = line.substr(colon + 1);
      while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
        value.remove_prefix(1);
      while (!value.empty() && (value.back() == ' ' || value.back() == '\t'))
        value.remove_suffix(1);
      f(name, value);
    }
    at = end;
  }
}

bool parse_u64(std::string_view s, std::uint64_t& v) {
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return r.ec == std::errc() && r.ptr == s.data() + s.size() && !s.empty();
}

// "bytes=A-B" (the first range of a list): A and B; "bytes=A-": A and kNoRange.
void parse_range(std::string_view v, trace::HttpRequest& r) {
  if (v.substr(0, 6) != "bytes=") return;
  v.remove_prefix(6);
  v = v.substr(0, v.find(','));
  const std::size_t dash = v.find('-');
  if (dash == std::string_view::npos) return;
  std::uint64_t first = 0, last = 0;
  if (!parse_u64(v.substr(0, dash), first)) return;  // suffix ranges (bytes=-N) stay unknown
  r.range_first = first;
  if (parse_u64(v.substr(dash + 1), last)) r.range_last = last;
}

// The query's parameter names ("a=1&b" -> "a&b"): values may hold credentials (presigned URLs).
std::string query_names(std::string_view q) {
  std::string names;
  while (!q.empty()) {
    const std::size_t amp = q.find('&');
    const std::string_view item = q.substr(0, amp);
    if (!item.empty()) {
      if (!names.empty()) names += '&';
      names += item.substr(0, item.find('='));
    }
    if (amp == std::string_view::npos) break;
    q.remove_prefix(amp + 1);
  }
  return names;
}

std::string peer_of(const dl_net& r) {
  char text[INET6_ADDRSTRLEN] = {};
  if (r.family == AF_INET) {
    ::inet_ntop(AF_INET, r.addr, text, sizeof text);
    return std::string(text) + ":" + std::to_string(r.port);
  }
  ::inet_ntop(AF_INET6, r.addr, text, sizeof text);
  return "[" + std::string(text) + "]:" + std::to_string(r.port);
}

bool has_body(const std::string& method, std::uint16_t status) {
  return method != "HEAD" && status >= 200 && status != 204 && status != 304;
}

}  // namespace

std::optional<trace::HttpRequest> parse_request(std::string_view head) {
  const std::size_t eol = head.find("\r\n");
  const std::string_view line = head.substr(0, eol);
  const std::size_t sp1 = line.find(' ');
  const std::size_t sp2 = line.rfind(' ');
  if (sp1 == std::string_view::npos || sp2 <= sp1 || line.substr(sp2 + 1, 5) != "HTTP/")
    return std::nullopt;
  trace::HttpRequest r;
  r.method = std::string(line.substr(0, sp1));
  std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  if (target.substr(0, 7) == "http://") {  // absolute form (through a proxy): authority is the host
    target.remove_prefix(7);
    const std::size_t slash = target.find('/');
    r.host = std::string(target.substr(0, slash));
    target = slash == std::string_view::npos ? "/" : target.substr(slash);
  }
  const std::size_t q = target.find('?');
  r.path = std::string(target.substr(0, q));
  if (q != std::string_view::npos) r.query = query_names(target.substr(q + 1));
  for_each_header(head, [&](const std::string& name, std::string_view value) {
    if (name == "host") r.host = std::string(value);
    if (name == "range") parse_range(value, r);
  });
  return r;
}

std::optional<ResponseHead> parse_response(std::string_view head) {
  if (head.substr(0, 5) != "HTTP/") return std::nullopt;
  const std::size_t sp = head.find(' ');
  if (sp == std::string_view::npos) return std::nullopt;
  ResponseHead h;
  std::uint64_t status = 0;
  const std::string_view code = head.substr(sp + 1, 3);
  if (!parse_u64(code, status) || status > 999) return std::nullopt;
  h.status = static_cast<std::uint16_t>(status);
  for_each_header(head, [&](const std::string& name, std::string_view value) {
    if (name == "content-length") h.has_length = parse_u64(value, h.content_length);
    if (name == "content-range") {  // "bytes A-B/TOTAL" ("*" when unknown)
      const std::size_t slash = value.rfind('/');
      std::uint64_t total = 0;
      if (slash != std::string_view::npos && parse_u64(value.substr(slash + 1), total))
        h.object_size = total;
    }
  });
  if (const std::size_t end = head.find("\r\n\r\n"); end != std::string_view::npos)
    h.head_bytes = end + 4;
  return h;
}

void HttpTracker::finish(Connection& c) {
  if (c.row.body.size() < 2) c.row.body.clear();  // one burst: the row says it all
  if (c.active) done_.push_back(std::move(c.row));
  c = Connection{};
}

void HttpTracker::on_send(Connection& c, const dl_net& r, std::uint64_t ts_ns) {
  std::optional<trace::HttpRequest> req;
  if (r.data_len > 0) req = parse_request(std::string_view(r.data, r.data_len));
  if (!req) {  // the body of the request in progress, or not HTTP
    if (c.active && !c.response) c.row.request_bytes += static_cast<std::uint64_t>(r.ret);
    return;
  }
  finish(c);
  c.active = true;
  c.row = std::move(*req);
  c.row.pid = r.pid;
  c.row.tid = r.tid;
  c.row.fd = r.fd;
  c.row.peer = peer_of(r);
  c.row.request_bytes = static_cast<std::uint64_t>(r.ret);
  c.row.request_ns = ts_ns;
}

// The receive's body bytes (response bytes `before` it up to response_bytes, within the body):
// those that came with the head wait for the first burst (the client's buffer read them ahead);
// a receive entered more than kHttpBurstGapNs after the last one's exit starts a burst.
void HttpTracker::on_body(Connection& c, std::uint64_t before, bool with_head, std::uint64_t ts_ns,
                          std::uint64_t end_ns) {
  const std::uint64_t body_end = c.body_start + c.row.content_length;
  const std::uint64_t from = std::max(before, c.body_start);
  const std::uint64_t to = std::min(c.row.response_bytes, body_end);
  if (to <= from) return;
  std::vector<trace::HttpBurst>& bursts = c.row.body;
  if (with_head) {
    c.read_ahead += to - from;
  } else {
    if (bursts.empty() || ts_ns > c.last_recv_ns + kHttpBurstGapNs) {
      trace::HttpBurst b;
      b.start_ns = ts_ns;
      b.offset = bursts.empty() ? 0 : bursts.back().offset + bursts.back().bytes;
      b.bytes = bursts.empty() ? c.read_ahead : 0;
      bursts.push_back(b);
    }
    bursts.back().end_ns = end_ns;
    bursts.back().bytes += to - from;
  }
  c.last_recv_ns = end_ns;
}

void HttpTracker::on_recv(Connection& c, const dl_net& r, std::uint64_t ts_ns,
                          std::uint64_t end_ns) {
  if (!c.active || (r.flags & MSG_PEEK)) return;  // not a request's response; a peek moves nothing
  const auto bytes = static_cast<std::uint64_t>(r.ret);
  const auto h =
      r.data_len > 0 ? parse_response(std::string_view(r.data, r.data_len)) : std::nullopt;
  if (h && h->status >= 200) {  // (a 1xx head, 100 Continue, is followed by the final one)
    c.response = true;
    c.row.status = h->status;
    c.row.content_length = h->content_length;
    c.row.object_size = h->object_size;
    if (!h->object_size && h->status == 200 && c.row.method == "GET" && h->has_length)
      c.row.object_size = h->content_length;
    c.head_known = h->head_bytes > 0;
    // Bytes of this response so far: those before its head belonged to an interim 1xx response.
    c.expect = 0;
    if (c.head_known && (h->has_length || !has_body(c.row.method, h->status)))
      c.expect = c.row.response_bytes + h->head_bytes +
                 (has_body(c.row.method, h->status) ? h->content_length : 0);
    c.body_start = c.head_known && h->has_length && has_body(c.row.method, h->status)
                       ? c.row.response_bytes + h->head_bytes
                       : 0;
    c.row.body.clear();
    c.read_ahead = 0;
  }
  c.response = true;
  const std::uint64_t before = c.row.response_bytes;
  c.row.response_bytes += bytes;
  if (c.body_start) on_body(c, before, h && h->status >= 200, ts_ns, end_ns);
  if (!c.row.first_byte_ns) c.row.first_byte_ns = end_ns;
  c.row.last_byte_ns = end_ns;
  if (c.expect && c.row.response_bytes >= c.expect) finish(c);
}

void HttpTracker::on_net(const dl_net& r, std::uint64_t ts_ns, std::uint64_t end_ns) {
  by_fd_[std::uint64_t(r.pid) << 32 | std::uint32_t(r.fd)] = r.sock;
  if (r.ret <= 0) {  // an error, or the peer closed: a response in progress ends there
    if (auto c = conns_.find(r.sock);
        r.ret == 0 && r.op == DL_NET_RECV && c != conns_.end() && c->second.response)
      finish(c->second);
    return;
  }
  Connection& c = conns_[r.sock];
  if (r.op == DL_NET_SEND)
    on_send(c, r, ts_ns);
  else if (r.op == DL_NET_RECV)
    on_recv(c, r, ts_ns, end_ns);
}

void HttpTracker::on_close(std::uint32_t pid, std::int32_t fd) {
  const auto it = by_fd_.find(std::uint64_t(pid) << 32 | std::uint32_t(fd));
  if (it == by_fd_.end()) return;
  if (auto c = conns_.find(it->second); c != conns_.end()) {
    finish(c->second);
    conns_.erase(c);
  }
  by_fd_.erase(it);
}

std::vector<trace::HttpRequest> HttpTracker::take_done() {
  return std::exchange(done_, {});
}

std::vector<trace::HttpRequest> HttpTracker::take_all() {
  for (auto& [sock, c] : conns_) finish(c);
  conns_.clear();
  by_fd_.clear();
  auto rows = take_done();
  std::sort(rows.begin(), rows.end(),
            [](const auto& a, const auto& b) { return a.request_ns < b.request_ns; });
  return rows;
}

}  // namespace dlgen::capture
