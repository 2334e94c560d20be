// The S3 objects pre-pass (analysis/src/prepass/objects.hpp): GETs of the trace's /http table
// become reads of files named by their URL, which summarize takes for a dataset of objects.
#include "prepass/objects.hpp"

#include <gtest/gtest.h>

#include "dlgen/analysis/distil.hpp"
#include "dlgen/analysis/summary.hpp"
#include "dlgen/trace/trace_text.hpp"

namespace dlgen::analysis {
namespace {

using trace::Op;

TEST(Objects, UrlsOfPathAndVirtualHostStyle) {
  EXPECT_EQ(object_url("127.0.0.1:8080", "/bkt/train/00001.bin"), "s3://bkt/train/00001.bin");
  EXPECT_EQ(object_url("[::1]:8080", "/bkt/a%20b"), "s3://bkt/a b");
  EXPECT_EQ(object_url("bkt.s3.us-east-1.amazonaws.com", "/train/x"), "s3://bkt/train/x");
  EXPECT_EQ(object_url("localhost:9000", "/bkt"), "");  // a bucket, not an object
}

// Two workers, each GETting a 16 KiB range of an object: one open/pread/close each, by the
// sending thread, from the send to the last byte; LIST requests and failures are not reads.
TEST(Objects, GetsBecomeReadsOfTheirObjects) {
  auto t = trace::parse_trace_text(
      "proc pid=100 comm=python3\n"
      "proc pid=101 ppid=100 comm=pt_data_worker\n"
      "proc pid=102 ppid=100 comm=pt_data_worker\n"
      "http pid=101 fd=5 peer=127.0.0.1:8080 method=GET host=127.0.0.1:8080 path=/b/ds/0.bin "
      "range=0-16383 status=206 length=16KiB object=64KiB ts=1ms first=2ms last=3ms\n"
      "http pid=102 fd=5 peer=127.0.0.1:8080 method=GET host=127.0.0.1:8080 path=/b/ds/1.bin "
      "range=16384-32767 status=206 length=16KiB object=64KiB ts=1.5ms first=2ms last=4ms\n"
      "http pid=101 fd=5 method=GET host=h path=/b query=list-type&prefix status=200 ts=5ms\n"
      "http pid=101 fd=5 method=GET host=h path=/b/ds/2.bin status=404 ts=6ms\n");
  ASSERT_TRUE(t) << t.error().message;
  const auto out = objects_as_reads(*t);
  ASSERT_TRUE(out);
  ASSERT_EQ(out->files.size(), 2u);
  EXPECT_EQ(out->files[0].path, "s3://b/ds/0.bin");
  EXPECT_EQ(out->files[0].size_at_open, 65536u);
  std::vector<trace::Event> reads;
  for (const auto& e : out->events)
    if (e.op == Op::pread) reads.push_back(e);
  ASSERT_EQ(reads.size(), 2u);
  EXPECT_EQ(reads[0].pid, 101u);
  EXPECT_EQ(reads[0].ts_ns, 1'000'000u);
  EXPECT_EQ(reads[0].dur_ns, 2'000'000u);
  EXPECT_EQ(reads[1].offset, 16384u);
  EXPECT_EQ(reads[1].ret, 16384);
  // The dataset summarize finds is the objects' prefix.
  const TraceSummary s = summarize(*t);
  const int ti = train_dataset(s);
  ASSERT_GE(ti, 0);
  EXPECT_EQ(s.datasets[ti].dir, "s3://b/ds");
  EXPECT_FALSE(objects_as_reads(trace::Trace{}));
}

// A sample read as several ranged GETs of one object (a reader fetching it in pieces): the GETs
// one thread sends to one object, with no other object's between them, are one access of the
// file (one open, a pread per GET, one close at the last byte), as a file opened once and read
// in several requests; a GET of another object, or by another thread, opens anew.
TEST(Objects, OneThreadsConsecutiveGetsOfAnObjectAreOneAccess) {
  auto t = trace::parse_trace_text(
      "proc pid=101 comm=pt_data_worker\n"
      "proc pid=102 comm=pt_data_worker\n"
      "http pid=101 fd=5 method=GET host=h path=/b/ds/0.bin range=0-4095 status=206 length=4KiB "
      "object=64KiB ts=1ms first=2ms last=3ms\n"
      "http pid=102 fd=5 method=GET host=h path=/b/ds/0.bin range=0-4095 status=206 length=4KiB "
      "object=64KiB ts=1ms first=2ms last=3ms\n"
      "http pid=101 fd=5 method=GET host=h path=/b/ds/0.bin range=4096-8191 status=206 "
      "length=4KiB object=64KiB ts=4ms first=5ms last=6ms\n"
      "http pid=101 fd=5 method=GET host=h path=/b/ds/1.bin range=0-4095 status=206 length=4KiB "
      "object=64KiB ts=7ms first=8ms last=9ms\n"
      "http pid=101 fd=5 method=GET host=h path=/b/ds/0.bin range=8192-12287 status=206 "
      "length=4KiB object=64KiB ts=10ms first=11ms last=12ms\n");
  ASSERT_TRUE(t) << t.error().message;
  const auto out = objects_as_reads(*t);
  ASSERT_TRUE(out);
  std::vector<trace::Event> of101;
  for (const auto& e : out->events)
    if (e.pid == 101) of101.push_back(e);
  // pid 101: [open 0, pread 0, pread 4096, close] [open 1, pread, close] [open 0, pread, close].
  ASSERT_EQ(of101.size(), 10u);
  EXPECT_EQ(of101[0].op, Op::open);
  EXPECT_EQ(of101[1].op, Op::pread);
  EXPECT_EQ(of101[2].op, Op::pread);
  EXPECT_EQ(of101[2].offset, 4096u);
  EXPECT_EQ(of101[2].fd, of101[1].fd);
  EXPECT_EQ(of101[3].op, Op::close);
  EXPECT_EQ(of101[3].ts_ns, 6'000'000u);  // the second GET's last byte
  EXPECT_EQ(of101[4].op, Op::open);
  EXPECT_NE(of101[4].fd, of101[0].fd);
  EXPECT_EQ(of101[7].op, Op::open);  // object 0 again, after another: a new access
  EXPECT_EQ(of101[9].op, Op::close);
  std::size_t opens = 0;
  for (const auto& e : out->events) opens += e.op == Op::open;
  EXPECT_EQ(opens, 4u);  // pid 102's GET of object 0 is an access of its own
}

}  // namespace
}  // namespace dlgen::analysis
