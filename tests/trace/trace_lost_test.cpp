// Lost events by reason in the trace model: HDF5 and text round trips, old traces without the
// breakdown, and what inspect shows (text, JSON, the dlgen verb).
#include <gtest/gtest.h>
#include <hdf5.h>
#include <sys/wait.h>

#include <cstdio>
#include "dlgen/core/json.hpp"
#include <string>

#include "dlgen/trace/inspect.hpp"
#include "dlgen/trace/trace_io.hpp"
#include "dlgen/trace/trace_text.hpp"
#include "temp_dir.hpp"

namespace dlgen::trace {
namespace {

// A different count per reason, so a reason stored or read under another's name shows.
LostEvents every_reason() {
  LostEvents l;
  l.ring_buffer = 1;
  l.uring_map = 20;
  l.block_map = 300;
  l.process_map = 4000;
  l.task_storage = 50000;
  l.missed = 600000;
  l.malformed = 7000000;
  return l;
}

Trace small_trace(const LostEvents& lost) {
  auto t = parse_trace_text(R"(
meta command="python3 train.py" exit=0 duration=1s
proc pid=100 ppid=1 comm=python3
ts=1ms dur=10us pid=100 op=read file=/data/a.bin fd=3 size=4096
)");
  EXPECT_TRUE(t) << t.error().message;
  t->meta.lost = lost;
  t->meta.lost_events = lost.total();
  return *t;
}

std::string run_cmd(const std::string& cmd, int& rc) {
  std::string out;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int st = ::pclose(p);
  rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return out;
}

TEST(LostEvents, TotalIsTheSumOfEveryReason) {
  LostEvents l = every_reason();
  EXPECT_EQ(l.total(), 7654321u);
  // Each reason is listed once, with its own field.
  std::uint64_t sum = 0;
  for (const auto& r : kLostReasons) sum += l.*r.count;
  EXPECT_EQ(sum, l.total());
}

TEST(LostEvents, DescribeNamesEachReasonWithACount) {
  LostEvents l;
  l.uring_map = 3;
  l.malformed = 1;
  EXPECT_EQ(describe_lost(4, l),
            "3 uring_map (io_uring in-flight map full), 1 malformed (malformed records)");
  EXPECT_EQ(describe_lost(0, LostEvents{}), "");
  // A total larger than the reasons (an old trace): the rest is unattributed.
  EXPECT_EQ(describe_lost(6, l),
            "3 uring_map (io_uring in-flight map full), 1 malformed (malformed records), "
            "2 unattributed (no reason recorded)");
}

TEST(LostEvents, RemediesNameEachCaptureOptionOnce) {
  LostEvents l;
  EXPECT_EQ(lost_remedies(l), "");
  l.uring_map = 1;
  l.block_map = 1;  // the same option as uring_map
  l.malformed = 1;  // no option helps
  EXPECT_EQ(lost_remedies(l), "a larger --inflight-map-entries");
  l.ring_buffer = 1;
  l.process_map = 1;
  EXPECT_EQ(lost_remedies(l),
            "a larger --ring-mib, a larger --inflight-map-entries, a larger --process-map-entries");
}

TEST(TraceIo, LostEventsByReasonRoundTrip) {
  testing::TempDir dir;
  Trace t = small_trace(every_reason());
  ASSERT_TRUE(write_trace(dir / "t.h5", t));
  auto back = read_trace(dir / "t.h5");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->meta.lost, every_reason());
  EXPECT_EQ(back->meta.lost_events, every_reason().total());
}

// A trace written before the breakdown has only `lost_events`: every reason reads as 0 and the
// total is kept (inspect then calls it unattributed).
TEST(TraceIo, TraceWithoutTheBreakdownReadsAsZero) {
  testing::TempDir dir;
  Trace t = small_trace(every_reason());
  ASSERT_TRUE(write_trace(dir / "old.h5", t));
  {
    hid_t f = H5Fopen((dir / "old.h5").c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    for (const auto& r : kLostReasons) {
      const std::string name = std::string("lost_") + r.name;
      ASSERT_GT(H5Aexists(f, name.c_str()), 0) << name << " was not written";
      ASSERT_GE(H5Adelete(f, name.c_str()), 0);
    }
    H5Fclose(f);
  }
  auto back = read_trace(dir / "old.h5");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->meta.lost, LostEvents{});
  EXPECT_EQ(back->meta.lost_events, every_reason().total());
}

TEST(TraceText, LostReasonsParseFormatAndDefaultToZero) {
  auto t = parse_trace_text("meta lost_uring_map=5 lost_malformed=2\n");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->meta.lost.uring_map, 5u);
  EXPECT_EQ(t->meta.lost.malformed, 2u);
  EXPECT_EQ(t->meta.lost.ring_buffer, 0u);
  EXPECT_EQ(t->meta.lost_events, 7u);  // `lost` left out: the sum of the reasons

  auto old = parse_trace_text("meta lost=3\n");
  ASSERT_TRUE(old) << old.error().message;
  EXPECT_EQ(old->meta.lost, LostEvents{});
  EXPECT_EQ(old->meta.lost_events, 3u);

  Trace all = small_trace(every_reason());
  auto again = parse_trace_text(format_trace_text(all));
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(again->meta.lost, every_reason());
  EXPECT_EQ(again->meta.lost_events, every_reason().total());

  auto bad = parse_trace_text("meta lost_typo=1\n");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("lost_typo"), std::string::npos) << bad.error().message;
}

TEST(Inspect, ShowsLostEventsByReason) {
  LostEvents l;
  l.ring_buffer = 2;
  l.uring_map = 5;
  const std::string text = format_inspect(inspect(small_trace(l)));
  EXPECT_NE(text.find("lost events: 7"), std::string::npos) << text;
  EXPECT_NE(text.find("2 ring_buffer (ring buffer full)"), std::string::npos) << text;
  EXPECT_NE(text.find("5 uring_map (io_uring in-flight map full)"), std::string::npos) << text;

  auto j = nlohmann::json::parse(inspect_json(inspect(small_trace(l))));
  EXPECT_EQ(j["lost_events"], 7);
  EXPECT_EQ(j["lost"]["ring_buffer"], 2);
  EXPECT_EQ(j["lost"]["uring_map"], 5);
  EXPECT_EQ(j["lost"]["block_map"], 0);
  EXPECT_EQ(j["lost"]["unattributed"], 0);
  for (const auto& r : kLostReasons) EXPECT_TRUE(j["lost"].contains(r.name)) << r.name;

  const std::string none = format_inspect(inspect(small_trace(LostEvents{})));
  EXPECT_NE(none.find("lost events: 0\n"), std::string::npos) << none;
  EXPECT_EQ(none.find("by reason"), std::string::npos) << none;
}

TEST(Cli, InspectShowsLostReasonsFromAnHdf5Trace) {
  testing::TempDir dir;
  LostEvents l;
  l.process_map = 1;
  l.malformed = 4;
  ASSERT_TRUE(write_trace(dir / "lost.h5", small_trace(l)));
  int rc = -1;
  const std::string bin = DLGEN_BINARY;
  std::string out = run_cmd(bin + " inspect " + (dir / "lost.h5").string(), rc);
  EXPECT_EQ(rc, 0);
  EXPECT_NE(out.find("1 process_map"), std::string::npos) << out;
  EXPECT_NE(out.find("4 malformed"), std::string::npos) << out;
  out = run_cmd(bin + " inspect --json " + (dir / "lost.h5").string(), rc);
  EXPECT_EQ(rc, 0);
  auto j = nlohmann::json::parse(out);
  EXPECT_EQ(j["lost_events"], 5);
  EXPECT_EQ(j["lost"]["process_map"], 1);
  EXPECT_EQ(j["lost"]["malformed"], 4);
}

}  // namespace
}  // namespace dlgen::trace
