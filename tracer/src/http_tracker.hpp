#pragma once
// HTTP/1.x requests and their responses from the sends and receives of TCP sockets (dl_net
// records, events.h): the rows of the trace's /http table (trace::HttpRequest). One request at a
// time per connection (HTTP/1.1 keep-alive without pipelining, as boto3/urllib3 and libcurl
// use it): a send that starts with a request line begins a request; every byte received on the
// connection after it belongs to its response, which ends once its head and Content-Length
// bytes of body have arrived (for HEAD, 1xx, 204 and 304: the head), or else at the next
// request, the connection's close or the end of the capture. Of the bytes only the request line,
// Host and Range, and the status, Content-Length and Content-Range are kept (parse_request,
// parse_response): credentials in other headers or query values never reach the trace.
// The body's receives are coalesced into bursts (trace::HttpBurst): a receive that enters more
// than kHttpBurstGapNs after the previous one's exit starts a new one. A response whose body came
// in one burst keeps none (the row as before), so only a program that streams a body (tarfile
// over a GET's body, a batch at a time) adds rows, one per pause of its reading.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "dlgen/trace/trace.hpp"

struct dl_net;

namespace dlgen::capture {

// The pause between two receives of a body that ends a burst: above a Python client's time
// between its reads of one body (tens of microseconds: tarfile's 10 KiB records, decoding a
// member), below a DataLoader worker's wait for its next batch (a step's compute).
inline constexpr std::uint64_t kHttpBurstGapNs = 1'000'000;

// What a request's head says: the trace row's method, host, path, query (names only), range.
// nullopt when `head` does not start with a request line.
std::optional<trace::HttpRequest> parse_request(std::string_view head);

// What a response's head says.
struct ResponseHead {
  std::uint16_t status = 0;
  std::uint64_t content_length = 0;
  bool has_length = false;
  std::uint64_t object_size = 0;  // Content-Range's total, 0 unknown
  std::uint64_t head_bytes = 0;   // status line and headers with the blank line; 0: not all seen
};
std::optional<ResponseHead> parse_response(std::string_view head);

class HttpTracker {
 public:
  // One record; `ts_ns` and `end_ns` are its entry and exit on the trace's clock.
  void on_net(const dl_net& r, std::uint64_t ts_ns, std::uint64_t end_ns);
  // Process `pid` closed `fd`: a request in progress on it ends there.
  void on_close(std::uint32_t pid, std::int32_t fd);
  // The rows completed since the last call.
  std::vector<trace::HttpRequest> take_done();
  // Ends every request still in progress (the end of the capture) and returns the rows not taken.
  std::vector<trace::HttpRequest> take_all();

 private:
  struct Connection {
    bool active = false;       // a request is in progress
    bool response = false;     // its response has begun
    bool head_known = false;   // ... and its head was parsed whole
    std::uint64_t expect = 0;  // response bytes that complete it (head + body); 0: unknown
    // Response bytes before the body (interim heads and the head); 0: the body's place is not
    // known (head not parsed whole, or no Content-Length), so no bursts are kept.
    std::uint64_t body_start = 0;
    std::uint64_t read_ahead = 0;    // body bytes that came with the head: the first burst's
    std::uint64_t last_recv_ns = 0;  // exit of the last receive with body bytes
    trace::HttpRequest row;
  };
  void finish(Connection& c);
  void on_send(Connection& c, const dl_net& r, std::uint64_t ts_ns);
  void on_recv(Connection& c, const dl_net& r, std::uint64_t ts_ns, std::uint64_t end_ns);
  static void on_body(Connection& c, std::uint64_t before, bool with_head, std::uint64_t ts_ns,
                      std::uint64_t end_ns);

  std::unordered_map<std::uint64_t, Connection> conns_;     // by struct sock
  std::unordered_map<std::uint64_t, std::uint64_t> by_fd_;  // (pid << 32 | fd) -> struct sock
  std::vector<trace::HttpRequest> done_;
};

}  // namespace dlgen::capture
