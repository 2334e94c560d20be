// The /http table: every field survives the HDF5 file (through read_trace's child too) and the
// text form; a trace without requests has no /http group and reads back with none.
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
      "http pid=100 fd=6 peer=[::1]:9000 method=PUT host=h path=/b/k query=uploadId&partNumber "
      "status=200 sent=9000 received=300 ts=1.5ms first=5ms last=5ms\n");
  EXPECT_TRUE(t) << t.error().message;
  return *t;
}

TEST(TraceHttp, RowsRoundTripThroughTheFileAndTheText) {
  const Trace t = with_requests();
  ASSERT_EQ(t.http.size(), 2u);
  EXPECT_EQ(t.http[0].method, "PUT");  // sorted by request time
  EXPECT_EQ(t.http[1].range_first, 4096u);
  EXPECT_EQ(t.http[0].range_first, HttpRequest::kNoRange);
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
