// The text form of traces that other modules' tests are built from.
#include "dlgen/trace/trace_text.hpp"

#include <gtest/gtest.h>

namespace dlgen::trace {
namespace {

TEST(TraceText, ParsesEventsFilesProcessesAndMeta) {
  auto t = parse_trace_text(R"(
# a DataLoader worker reading one sample
meta command="python3 train.py --epochs 2" host=node1 exit=0 lost=3 complete=1
file path=/data/a.npz size=1MiB dev=2049 ino=12 magic=0x04034b50 magic_len=4
proc pid=100 comm=python3 start=0 end=2s
proc pid=101 ppid=100 comm=pt_data_worker first=python3 start=5ms
proc pid=102 tgid=100 ppid=100 comm=pt_pin_memory
ts=1.000ms dur=20us pid=101 op=open file=/data/a.npz fd=3 ret=3
ts=1.5ms dur=1.25ms pid=101 op=pread file=/data/a.npz fd=3 off=64KiB size=64K
ts=3ms pid=101 tid=105 op=read file=/data/b.jpg size=4096 ret=-EIO
ts=2ms pid=100 op=sendmsg size=100
)");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->meta.command, (std::vector<std::string>{"python3", "train.py", "--epochs", "2"}));
  EXPECT_EQ(t->meta.host, "node1");
  EXPECT_EQ(t->meta.lost_events, 3u);
  EXPECT_EQ(t->meta.duration_ns, 3'000'000u);  // not given: end of the last event
  ASSERT_EQ(t->files.size(), 2u);              // b.jpg interned on first use
  EXPECT_EQ(t->files[0].size_at_open, 1u << 20);
  EXPECT_EQ(t->files[0].magic, 0x04034b50u);
  EXPECT_EQ(t->files[1].path, "/data/b.jpg");
  ASSERT_EQ(t->processes.size(), 3u);
  EXPECT_EQ(t->processes[0].end_ns, 2'000'000'000u);
  EXPECT_EQ(t->processes[1].ppid, 100u);
  EXPECT_EQ(t->processes[1].first_comm, "python3");
  EXPECT_EQ(t->processes[0].first_comm, "python3");
  EXPECT_FALSE(t->processes[1].is_thread);
  EXPECT_TRUE(t->processes[2].is_thread);
  ASSERT_EQ(t->events.size(), 4u);
  const Event& pread = t->events[1];
  EXPECT_EQ(pread.op, Op::pread);
  EXPECT_EQ(pread.ts_ns, 1'500'000u);
  EXPECT_EQ(pread.dur_ns, 1'250'000u);
  EXPECT_EQ(pread.offset, 65536u);
  EXPECT_EQ(pread.size, 65536u);
  EXPECT_EQ(pread.ret, 65536);  // defaults to size for reads
  EXPECT_EQ(pread.tid, 101u);   // defaults to pid
  EXPECT_EQ(pread.file, 0u);
  EXPECT_EQ(t->events[2].op, Op::sendmsg);  // sorted by ts
  EXPECT_EQ(t->events[2].ret, 0);
  EXPECT_EQ(t->events[2].file, kNoFile);
  EXPECT_EQ(t->events[3].ret, -5);
  EXPECT_EQ(t->events[3].tid, 105u);
  EXPECT_EQ(t->events[0].ret, 3);
}

TEST(TraceText, ErrorsNameTheLine) {
  auto t = parse_trace_text("file path=/a\nts=1ms op=preed file=/a\n");
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().exit_code(), 2);
  EXPECT_NE(t.error().message.find("line 2"), std::string::npos);
  EXPECT_NE(t.error().message.find("preed"), std::string::npos);
  EXPECT_FALSE(parse_trace_text("ts=1ms op=read sise=4\n"));
  EXPECT_FALSE(parse_trace_text("ts=1parsec op=read\n"));
  EXPECT_FALSE(parse_trace_text("op=read\n"));
  EXPECT_FALSE(parse_trace_text("proc comm=x\n"));
  EXPECT_FALSE(parse_trace_text("meta command=\"unterminated\n"));
}

TEST(TraceText, FormatThenParseIsIdentity) {
  auto t = parse_trace_text(R"(
meta command="a b" host=h kernel="6.1 x" version=0.1 start_wall=5 start_mono=7 duration=9s lost=1 exit=-2 block=1 complete=0 gpus="NVIDIA H200,NVIDIA H100" gpu_driver=580.82.07 cuda_lib=/lib/libcuda.so.1 cuda_probes=cuStreamSynchronize,cuLaunchKernel
file path="/data/with space" size=10 dev=1 ino=2
file path=/dup ino=1
file path=/dup ino=2
proc pid=7 comm=x first=y start=1 end=2 exit=3
ts=5 dur=6 pid=7 tid=8 op=pwrite file=#2 fd=4 off=9 size=10 ret=-4 flags=11 arg=12
ts=6 op=fork arg=99 pid=7
ts=7 op=write file="/data/with space" size=3 pid=7
ts=8 dur=20ms op=cuda_sync pid=7 tid=8 arg=0x5151
)");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->events[0].file, 2u);
  EXPECT_EQ(t->meta.gpu.devices, (std::vector<std::string>{"NVIDIA H200", "NVIDIA H100"}));
  EXPECT_EQ(t->meta.gpu.cuda_probes.size(), 2u);
  std::string text = format_trace_text(*t);
  auto back = parse_trace_text(text);
  ASSERT_TRUE(back) << back.error().message << "\n" << text;
  EXPECT_EQ(format_trace_text(*back), text);
  EXPECT_EQ(back->meta.kernel, "6.1 x");
  EXPECT_EQ(back->meta.exit_status, -2);
  EXPECT_TRUE(back->meta.block_layer);
  EXPECT_FALSE(back->meta.complete);
  EXPECT_EQ(back->events[0].file, 2u);
  EXPECT_EQ(back->meta.gpu, t->meta.gpu);
}

TEST(TraceText, OpNamesRoundTrip) {
  for (int i = 0; i < kOpCount; ++i) {
    auto op = static_cast<Op>(i);
    auto back = op_from_string(to_string(op));
    ASSERT_TRUE(back) << i;
    EXPECT_EQ(*back, op);
  }
  EXPECT_FALSE(op_from_string("nope"));
}

}  // namespace
}  // namespace dlgen::trace

namespace dlgen::trace {
namespace {

// Found by fuzzing (tests/fuzz): numbers that overflow, values too large for their field, and
// strings that format_trace_text could not write back.
TEST(TraceText, RefusesNumbersThatDoNotFit) {
  for (const char* line :
       {"ts=99999999999999999999 op=read\n", "ts=18446744073709551615s op=read\n",
        "ts=1 op=read size=99999999999999999TiB\n", "ts=1 op=read size=.\n",
        "ts=1 op=read size=1.5e300K\n", "ts=1 op=read pid=4294967296\n",
        "ts=1 op=read ret=-9223372036854775809\n", "ts=1 op=read fd=3000000000\n",
        "file path=/a magic_len=256\n", "ts=32d op=read\n", "ts=2700000s op=read\n",
        "meta duration=3000000s\n", "proc pid=1 start=3000000s\n"}) {
    auto t = parse_trace_text(line);
    EXPECT_FALSE(t) << line;
    if (!t) {
      EXPECT_EQ(t.error().message.rfind("line 1: ", 0), 0u) << t.error().message;
    }
  }
  auto t = parse_trace_text("ts=1 op=read ret=-9223372036854775808 pid=4294967295\n");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->events[0].ret, INT64_MIN);
  EXPECT_EQ(t->events[0].pid, 4294967295u);
}

TEST(TraceText, QuotedStringsRoundTrip) {
  Trace t;
  t.meta.host = "a \"b\" # c\\d\ne";
  t.files.push_back(File{"/data/x#1 \"q\"", 1, 2, 3, 0, 0});
  t.files.push_back(File{"/data/plain", 1, 3, 3, 0, 0});
  Event e;
  e.file = 0;
  e.op = Op::read;
  t.events.push_back(e);
  auto back = parse_trace_text(format_trace_text(t));
  ASSERT_TRUE(back) << back.error().message << "\n" << format_trace_text(t);
  EXPECT_EQ(back->meta.host, t.meta.host);
  ASSERT_EQ(back->files.size(), 2u);
  EXPECT_EQ(back->files[0].path, t.files[0].path);
  EXPECT_EQ(back->events[0].file, 0u);
  // '#' still starts a comment, and is still a file index as a value's first character.
  auto c = parse_trace_text(
      "file path=/a\nts=1 op=read file=#0 # a comment\nts=2 op=read size=10#comment\n");
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->events[0].file, 0u);
  EXPECT_EQ(c->events[1].size, 10u);
}

}  // namespace
}  // namespace dlgen::trace
