// What `dlgen inspect` says about the trace's HTTP requests (/http, docs/trace-format.md).
#include "inspect_http.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <set>

#include "dlgen/core/stats.hpp"

namespace dlgen::trace {

HttpSummary summarize_http(const std::vector<HttpRequest>& http) {
  HttpSummary s;
  std::set<std::string> objects;
  std::vector<double> first, last;
  for (const HttpRequest& r : http) {
    ++s.requests;
    if (r.method == "GET") {
      ++s.gets;
      objects.insert(r.host + r.path);
    }
    if (r.range_first != HttpRequest::kNoRange) ++s.ranged;
    if (r.status == 0 || r.status >= 400) ++s.errors;
    // A HEAD's Content-Length is the object's size; no body follows it.
    if (r.status >= 200 && r.status < 300 && r.method != "HEAD") s.body_bytes += r.content_length;
    s.streamed += r.body.empty() ? 0 : 1;
    s.bursts += r.body.size();
    if (std::find(s.peers.begin(), s.peers.end(), r.peer) == s.peers.end())
      s.peers.push_back(r.peer);
    if (r.first_byte_ns >= r.request_ns && r.first_byte_ns)
      first.push_back(static_cast<double>(r.first_byte_ns - r.request_ns) * 1e-9);
    if (r.last_byte_ns >= r.request_ns && r.last_byte_ns)
      last.push_back(static_cast<double>(r.last_byte_ns - r.request_ns) * 1e-9);
  }
  s.objects = objects.size();
  s.first_byte_p50_s = percentile(first, 0.5);
  s.first_byte_p99_s = percentile(first, 0.99);
  s.last_byte_p50_s = percentile(last, 0.5);
  s.last_byte_p99_s = percentile(std::move(last), 0.99);
  return s;
}

std::string format_http(const HttpSummary& h) {
  if (h.requests == 0) return "";
  std::string peers;
  for (const auto& p : h.peers) peers += (peers.empty() ? "" : ", ") + p;
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "http:      %" PRIu64 " requests (%" PRIu64 " GET, %" PRIu64 " ranged, %" PRIu64
                " failed) to %s   %" PRIu64
                " objects   %.1f MiB\n"
                "           first byte p50 %.2f ms p99 %.2f ms   last byte p50 %.2f ms p99 %.2f "
                "ms\n",
                h.requests, h.gets, h.ranged, h.errors, peers.c_str(), h.objects,
                static_cast<double>(h.body_bytes) / (1 << 20), h.first_byte_p50_s * 1e3,
                h.first_byte_p99_s * 1e3, h.last_byte_p50_s * 1e3, h.last_byte_p99_s * 1e3);
  std::string out = buf;
  if (h.streamed)
    out += "           " + std::to_string(h.streamed) + " bodies read in " +
           std::to_string(h.bursts) + " bursts\n";
  return out;
}

nlohmann::json http_json(const HttpSummary& h) {
  return {{"requests", h.requests},
          {"gets", h.gets},
          {"ranged", h.ranged},
          {"errors", h.errors},
          {"objects", h.objects},
          {"body_bytes", h.body_bytes},
          {"streamed", h.streamed},
          {"bursts", h.bursts},
          {"peers", h.peers},
          {"first_byte_p50_s", h.first_byte_p50_s},
          {"first_byte_p99_s", h.first_byte_p99_s},
          {"last_byte_p50_s", h.last_byte_p50_s},
          {"last_byte_p99_s", h.last_byte_p99_s}};
}

}  // namespace dlgen::trace
