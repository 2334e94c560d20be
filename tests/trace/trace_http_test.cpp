// The /http table and its bodies' bursts (/http_body): every field survives the HDF5 file
// (through read_trace's child too) and the text form; a trace without requests has no /http
// group and reads back with none.
#include <gtest/gtest.h>

#include "dlgen/trace/inspect.hpp"
#include "dlgen/trace/trace_io.hpp"
#include "dlgen/trace/trace_text.hpp"
#include "temp_dir.hpp"

namespace dlgen::trace {
namespace {

Trace with_requests() {
  auto t = parse_trace_text(
      "proc pid=100 comm=python3\n"
      "ts=1ms pid=100 op=read file=/data/a size=10\n"
      "http pid=100 tid=101 fd=5 peer=127.0.0.1:8080 method=GET host=127.0.0.1:8080 "
      "path=/b/train/a%20b.bin range=4096-8191 status=206 length=4KiB object=128KiB sent=700 "
      "received=4400 ts=2ms first=3ms last=4ms\n"
      "http pid=100 tid=102 fd=7 peer=127.0.0.1:8080 method=GET host=h path=/b/shard-0.tar "
      "status=200 length=30000 object=30000 sent=600 received=30200 ts=2.5ms first=2.6ms "
      "last=40ms burst=2.7ms-3ms@0+15500 burst=30ms-40ms@15500+14000\n"
      "http pid=100 fd=6 peer=[::1]:9000 method=PUT host=h path=/b/k query=uploadId&partNumber "
      "status=200 sent=9000 received=300 ts=1.5ms first=5ms last=5ms\n");
  EXPECT_TRUE(t) << t.error().message;
  return *t;
}

TEST(TraceHttp, RowsRoundTripThroughTheFileAndTheText) {
  const Trace t = with_requests();
  ASSERT_EQ(t.http.size(), 3u);
  EXPECT_EQ(t.http[0].method, "PUT");  // sorted by request time
  EXPECT_EQ(t.http[1].range_first, 4096u);
  EXPECT_EQ(t.http[0].range_first, HttpRequest::kNoRange);
  const std::vector<HttpBurst> body = {{2'700'000, 3'000'000, 0, 15500},
                                       {30'000'000, 40'000'000, 15500, 14000}};
  EXPECT_EQ(t.http[2].body, body);
  testing::TempDir dir;
  ASSERT_TRUE(write_trace(dir / "h.h5", t));
  for (auto read : {read_trace, read_trace_in_process}) {
    auto back = read(dir / "h.h5");
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(back->http, t.http);
  }
  auto text = parse_trace_text(format_trace_text(t));
  ASSERT_TRUE(text) << text.error().message;
  EXPECT_EQ(text->http, t.http);
}

// The capture appends rows as they complete and writes them at each flush: a body's bursts stay
// with their row (/http_body names it by its place in /http) across flushes; a trace whose
// bodies came whole has no /http_body, and a burst outside its body does not read back.
TEST(TraceHttp, BurstsStayWithTheirRowsAcrossFlushes) {
  const Trace t = with_requests();
  testing::TempDir dir;
  auto w = TraceWriter::create(dir / "f.h5");
  ASSERT_TRUE(w) << w.error().message;
  for (const HttpRequest& r : {t.http[2], t.http[0], t.http[2], t.http[1]}) {
    ASSERT_TRUE((*w)->append_http({r}));
    ASSERT_TRUE((*w)->flush(t.meta, t.files, t.processes));
  }
  ASSERT_TRUE((*w)->finish(t.meta, t.files, t.processes));
  auto back = read_trace(dir / "f.h5");
  ASSERT_TRUE(back) << back.error().message;
  ASSERT_EQ(back->http.size(), 4u);
  for (const HttpRequest& r : back->http)
    EXPECT_EQ(r.body.size(), r.path == "/b/shard-0.tar" ? 2u : 0u) << r.path;
  EXPECT_EQ(back->http[3].body, t.http[2].body);
  EXPECT_FALSE(parse_trace_text("http pid=1 method=GET burst=3ms-2ms@0+10\n"));
  EXPECT_FALSE(parse_trace_text("http pid=1 method=GET burst=2ms@0+10\n"));
}

TEST(TraceHttp, TracesWithoutRequestsHaveNone) {
  testing::TempDir dir;
  auto t = parse_trace_text("ts=1ms pid=100 op=read file=/data/a size=10\n");
  ASSERT_TRUE(t);
  ASSERT_TRUE(write_trace(dir / "n.h5", *t));
  auto back = read_trace(dir / "n.h5");
  ASSERT_TRUE(back);
  EXPECT_TRUE(back->http.empty());
  EXPECT_FALSE(parse_trace_text("http pid=1 path=/b/k\n"));  // no method
}

// inspect's body bytes are the bodies that came: a HEAD's Content-Length (the object's size, an
// fsspec-style reader's probe) is no body, nor is an error's.
TEST(TraceHttp, InspectBodyBytesCountNoHeadResponse) {
  std::vector<HttpRequest> http(4);
  for (auto& r : http) r.method = "GET", r.status = 200, r.content_length = 1000;
  http[1].method = "HEAD";
  http[1].content_length = 8 << 20;
  http[2].status = 206;
  http[3].status = 404;
  const HttpSummary s = summarize_http(http);
  EXPECT_EQ(s.body_bytes, 2000u);
  EXPECT_EQ(s.requests, 4u);
  EXPECT_EQ(s.gets, 3u);
  EXPECT_EQ(s.errors, 1u);
}

}  // namespace
}  // namespace dlgen::trace
