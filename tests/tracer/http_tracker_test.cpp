// HTTP requests from socket records (tracer/src/http_tracker.cpp): what boto3 and libcurl send
// and receive, fed as the kernel side sends it (dl_net records), paired into /http rows.
#include "http_tracker.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <sys/socket.h>

#include <cstring>
#include <string>
#include <vector>

#include "dlgen/trace/trace_text.hpp"
#include "events.h"
#include "interpreter.hpp"

namespace dlgen::capture {
namespace {

// A GET as botocore sends it (header order and the credential-bearing headers included).
const std::string kGet =
    "GET /bucket/train/00007.bin HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n"
    "Accept-Encoding: identity\r\nRange: bytes=4096-8191\r\n"
    "User-Agent: Boto3/1.26.27 Python/3.11.2 Linux/6.1 Botocore/1.29.27\r\n"
    "X-Amz-Date: 20261126T200000Z\r\n"
    "X-Amz-Content-SHA256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\r\n"
    "Authorization: AWS4-HMAC-SHA256 Credential=test:tester/20261126/us-east-1/s3/aws4_request, "
    "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=SECRETSIGNATURE\r\n"
    "amz-sdk-invocation-id: 1f9e\r\namz-sdk-request: attempt=1\r\n\r\n";
const std::string kHead206 =
    "HTTP/1.1 206 Partial Content\r\nContent-Length: 4096\r\nAccept-Ranges: bytes\r\n"
    "Content-Range: bytes 4096-8191/131072\r\nEtag: \"abc\"\r\n\r\n";

dl_net record(std::uint8_t op, std::uint64_t ts, std::int64_t ret, const std::string& data = {},
              std::uint64_t sock = 0xffff888001, std::int32_t fd = 5) {
  dl_net r{};
  r.kind = DL_K_NET;
  r.op = op;
  r.family = AF_INET;
  r.port = 8080;
  ::inet_pton(AF_INET, "127.0.0.1", r.addr);
  r.fd = fd;
  r.pid = 40;
  r.tid = 41;
  r.ts_ns = ts;
  r.dur_ns = 1000;
  r.ret = ret;
  r.sock = sock;
  r.data_len = static_cast<std::uint16_t>(std::min<std::size_t>(data.size(), DL_NET_DATA - 1));
  std::memcpy(r.data, data.data(), r.data_len);
  return r;
}

TEST(HttpTracker, ParsesTheRequestLineHostAndRangeAndNothingElse) {
  const auto r = parse_request(kGet + "");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->method, "GET");
  EXPECT_EQ(r->path, "/bucket/train/00007.bin");
  EXPECT_EQ(r->host, "127.0.0.1:8080");
  EXPECT_EQ(r->range_first, 4096u);
  EXPECT_EQ(r->range_last, 8191u);
  EXPECT_EQ(parse_request("GET /b/k?X-Amz-Signature=abc&partNumber=2 HTTP/1.1\r\n\r\n")->query,
            "X-Amz-Signature&partNumber");
  EXPECT_FALSE(parse_request("\x16\x03\x01 TLS hello"));
  const auto whole = parse_request("GET /b/k HTTP/1.1\r\nHost: h\r\n\r\n");
  EXPECT_EQ(whole->range_first, trace::HttpRequest::kNoRange);
}

TEST(HttpTracker, ParsesTheStatusLengthsAndObjectSize) {
  const auto h = parse_response(kHead206 + "body bytes");
  ASSERT_TRUE(h);
  EXPECT_EQ(h->status, 206);
  EXPECT_EQ(h->content_length, 4096u);
  EXPECT_EQ(h->object_size, 131072u);
  EXPECT_EQ(h->head_bytes, kHead206.size());
  EXPECT_EQ(parse_response("HTTP/1.1 200 OK\r\nContent-Le")->head_bytes, 0u);  // cut off
}

// A ranged GET whose response arrives in three receives: one row, with the times of the first
// and the completing receive, the bytes both ways, and no trace of the Authorization header.
TEST(HttpTracker, PairsARequestWithTheBytesOfItsResponse) {
  Interpreter in(0, false);
  dl_net send = record(DL_NET_SEND, 1000, static_cast<std::int64_t>(kGet.size()), kGet);
  ASSERT_TRUE(in.on_record(&send, sizeof send));
  dl_net head = record(DL_NET_RECV, 5000, static_cast<std::int64_t>(kHead206.size()) + 1000,
                       kHead206 + std::string(1000, 'x'));
  ASSERT_TRUE(in.on_record(&head, sizeof head));
  dl_net more = record(DL_NET_RECV, 7000, 2000);
  ASSERT_TRUE(in.on_record(&more, DL_NET_HEAD));  // a record without data is shorter
  EXPECT_TRUE(in.take_http(false).empty());       // 1096 bytes of body still to come
  dl_net rest = record(DL_NET_RECV, 9000, 1096);
  ASSERT_TRUE(in.on_record(&rest, DL_NET_HEAD));
  const auto rows = in.take_http(false);
  ASSERT_EQ(rows.size(), 1u);
  const trace::HttpRequest& r = rows[0];
  EXPECT_EQ(r.pid, 40u);
  EXPECT_EQ(r.tid, 41u);
  EXPECT_EQ(r.fd, 5);
  EXPECT_EQ(r.peer, "127.0.0.1:8080");
  EXPECT_EQ(r.status, 206);
  EXPECT_EQ(r.object_size, 131072u);
  EXPECT_EQ(r.request_bytes, kGet.size());
  EXPECT_EQ(r.response_bytes, kHead206.size() + 4096);
  EXPECT_EQ(r.request_ns, 1000u);
  EXPECT_EQ(r.first_byte_ns, 6000u);  // the receives' exits
  EXPECT_EQ(r.last_byte_ns, 10000u);
  const std::string text = trace::format_trace_text([&] {
    trace::Trace t;
    t.http = rows;
    return t;
  }());
  EXPECT_EQ(text.find("SECRET"), std::string::npos) << text;
  EXPECT_EQ(text.find("Credential"), std::string::npos) << text;
  EXPECT_EQ(text.find("tester"), std::string::npos) << text;
}

// Keep-alive: the next request on the connection ends one whose length was unknown; a connection
// closed by its fd ends its request too; a whole-object 200 gives the object's size.
TEST(HttpTracker, TheNextRequestOrTheCloseEndsAResponse) {
  HttpTracker t;
  const std::string get = "GET /b/whole HTTP/1.1\r\nHost: h\r\n\r\n";
  t.on_net(record(DL_NET_SEND, 0, 40, get), 0, 10);
  t.on_net(record(DL_NET_RECV, 20, 100, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"),
           20, 30);
  t.on_net(record(DL_NET_SEND, 50, 40, get), 50, 60);
  ASSERT_EQ(t.take_done().size(), 1u);
  t.on_net(record(DL_NET_RECV, 70, 60, "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n"), 70, 80);
  t.on_close(40, 5);
  const auto rows = t.take_done();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].object_size, 1000u);
  EXPECT_EQ(rows[0].response_bytes, 60u);
  EXPECT_EQ(rows[0].last_byte_ns, 80u);
  EXPECT_TRUE(t.take_all().empty());
}

// A whole-object GET whose body the program streams (tarfile over boto3's body, a batch at a
// time): the receives that follow each other closely are one burst, a pause longer than
// kHttpBurstGapNs starts the next; the body bytes that came with the head (the client's buffer
// read them ahead) are the first burst's. Offsets count body bytes, not the head's.
TEST(HttpTracker, AStreamedBodyIsRecordedAsItsBursts) {
  HttpTracker t;
  const std::string head = "HTTP/1.1 200 OK\r\nContent-Length: 30000\r\n\r\n";
  t.on_net(record(DL_NET_SEND, 0, 40, "GET /b/shard-0.tar HTTP/1.1\r\nHost: h\r\n\r\n"), 0, 10);
  t.on_net(record(DL_NET_RECV, 100, static_cast<std::int64_t>(head.size()) + 500, head), 100,
           2'000);
  // botocore's work after the head (3 ms), then two receives 1 us apart: burst 1
  t.on_net(record(DL_NET_RECV, 0, 10'000), 5'002'000, 5'003'000);
  t.on_net(record(DL_NET_RECV, 0, 5'000), 5'004'000, 5'005'000);
  // the worker hands its batch over and waits 20 ms: burst 2, in three receives
  const std::uint64_t later = 25'005'000;
  t.on_net(record(DL_NET_RECV, 0, 10'000), later, later + 500);
  t.on_net(record(DL_NET_RECV, 0, 4'000), later + 900'000, later + 901'000);  // 0.9 ms: same
  t.on_net(record(DL_NET_RECV, 0, 500), later + 1'000'000, later + 1'002'000);
  const auto rows = t.take_done();
  ASSERT_EQ(rows.size(), 1u);
  const std::vector<trace::HttpBurst> want = {{5'002'000, 5'005'000, 0, 15'500},
                                              {later, later + 1'002'000, 15'500, 14'500}};
  EXPECT_EQ(rows[0].body, want);
  EXPECT_EQ(rows[0].last_byte_ns, later + 1'002'000);
  EXPECT_EQ(rows[0].response_bytes, head.size() + 30'000);
}

// A body read at once stays one row without bursts (as before them): the pause between the head
// and the body's read (botocore parsing the head) ends no burst, nor does a body that came
// whole with its head; a response without Content-Length has no offsets to place bursts at.
TEST(HttpTracker, ABodyReadAtOnceHasNoBursts) {
  HttpTracker t;
  const std::string get = "GET /b/k HTTP/1.1\r\nHost: h\r\n\r\n";
  const std::string head = "HTTP/1.1 200 OK\r\nContent-Length: 9000\r\n\r\n";
  t.on_net(record(DL_NET_SEND, 0, 40, get), 0, 10);
  t.on_net(record(DL_NET_RECV, 20, static_cast<std::int64_t>(head.size()) + 1000, head), 20, 30);
  t.on_net(record(DL_NET_RECV, 0, 8000), 9'000'000, 9'001'000);
  t.on_net(record(DL_NET_SEND, 0, 40, get), 10'000'000, 10'000'010);
  t.on_net(record(DL_NET_RECV, 0, static_cast<std::int64_t>(head.size()) + 9000, head), 10'000'020,
           10'000'030);
  t.on_net(record(DL_NET_SEND, 0, 40, get), 20'000'000, 20'000'010);
  const std::string chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
  t.on_net(record(DL_NET_RECV, 0, 100, chunked), 20'000'020, 20'000'030);
  t.on_net(record(DL_NET_RECV, 0, 100), 20'000'040, 20'000'050);
  t.on_net(record(DL_NET_RECV, 0, 100), 40'000'000, 40'000'050);
  const auto rows = t.take_all();
  ASSERT_EQ(rows.size(), 3u);
  for (const auto& r : rows) EXPECT_TRUE(r.body.empty()) << r.request_ns;
  EXPECT_EQ(rows[0].response_bytes, head.size() + 9000);
}

// Bytes that are not HTTP (a database's protocol, DDP's gloo) make no rows.
TEST(HttpTracker, OtherTrafficMakesNoRows) {
  HttpTracker t;
  t.on_net(record(DL_NET_SEND, 0, 64), 0, 1);
  t.on_net(record(DL_NET_RECV, 2, 64), 2, 3);
  EXPECT_TRUE(t.take_all().empty());
}

}  // namespace
}  // namespace dlgen::capture
