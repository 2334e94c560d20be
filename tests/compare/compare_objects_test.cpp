// The S3 latency rows of `dlgen compare` (docs/fidelity.md: s3_first_byte, s3_last_byte): measured
// from a trace's /http rows (the GETs answered 2xx), judged on the medians, skipped unless both
// traces hold such GETs, and never a first byte after the last.
#include <gtest/gtest.h>

#include "../analysis/sim.hpp"
#include "dlgen/analysis/summary.hpp"
#include "dlgen/compare/compare.hpp"
#include "run_builder.hpp"

namespace dlgen::compare {
namespace {

using testing::RunShape;

// A run's trace with `gets` GETs of objects, GET i answered after first_ms + i % 3 ms (first
// byte) and last_ms + i % 3 ms (last byte), and a PUT and a 404 GET that the rows leave out.
trace::Trace with_gets(std::size_t gets, double first_ms, double last_ms) {
  trace::Trace t = testing::build_run(RunShape{});
  const auto ns = [](double ms) { return static_cast<std::uint64_t>(ms * 1e6); };
  for (std::size_t i = 0; i < gets; ++i) {
    trace::HttpRequest r;
    r.method = "GET";
    r.path = "/bucket/train/" + std::to_string(i);
    r.status = 206;
    r.request_ns = 1'000'000'000 + i * 10'000'000;
    r.first_byte_ns = r.request_ns + ns(first_ms + static_cast<double>(i % 3));
    r.last_byte_ns = r.request_ns + ns(last_ms + static_cast<double>(i % 3));
    t.http.push_back(r);
  }
  trace::HttpRequest put;
  put.method = "PUT";
  put.status = 200;
  put.request_ns = 1;
  put.first_byte_ns = put.last_byte_ns = 1'000'000'000;  // a second: would move every median
  t.http.push_back(put);
  trace::HttpRequest missing = t.http.front();
  missing.status = 404;
  missing.first_byte_ns = missing.last_byte_ns = missing.request_ns + 1'000'000'000;
  t.http.push_back(missing);
  return t;
}

Profile profile(const trace::Trace& t) {
  return profile_of(t, analysis::summarize(t));
}

const MetricResult& row(const Comparison& c, std::string_view name) {
  for (const auto& m : c.metrics)
    if (m.name == name) return m;
  ADD_FAILURE() << "no metric " << name;
  static MetricResult none;
  return none;
}

TEST(CompareObjects, RowsAreTheMediansOfTheAnsweredGetsAndFirstNeverExceedsLast) {
  const Profile a = profile(with_gets(30, 2.0, 5.0));
  ASSERT_EQ(a.s3_first_byte_s.size(), 30u);  // the PUT and the 404 are not a GET's latency
  ASSERT_EQ(a.s3_last_byte_s.size(), 30u);
  for (std::size_t i = 0; i < a.s3_first_byte_s.size(); ++i)
    EXPECT_LE(a.s3_first_byte_s[i], a.s3_last_byte_s[i]) << i;
  const Comparison same = compare(a, a, Tolerances{});
  // 2, 3, 4 ms in equal thirds: the median is 3 ms, to first byte; 6 ms to the last.
  EXPECT_NEAR(row(same, "s3_first_byte").original, 0.003, 1e-9);
  EXPECT_NEAR(row(same, "s3_last_byte").original, 0.006, 1e-9);
  EXPECT_LE(row(same, "s3_first_byte").original, row(same, "s3_last_byte").original);
  EXPECT_EQ(row(same, "s3_first_byte").verdict, Verdict::pass);
  EXPECT_EQ(row(same, "s3_first_byte").distance, 0.0);
  EXPECT_NE(row(same, "s3_last_byte").note.find("median of 30 / 30 GETs"), std::string::npos);

  // A replay whose GETs wait twice as long to their first byte (one request queued behind
  // another): 2x the median is a distance of 1, beyond the 50%.
  const Profile slow = profile(with_gets(30, 5.0, 8.0));
  const Comparison c = compare(a, slow, Tolerances{});
  EXPECT_NEAR(row(c, "s3_first_byte").replay, 0.006, 1e-9);
  EXPECT_NEAR(row(c, "s3_first_byte").distance, 1.0, 1e-9);
  EXPECT_EQ(row(c, "s3_first_byte").verdict, Verdict::fail);
  EXPECT_NEAR(row(c, "s3_last_byte").distance, 0.5, 1e-9);  // 9 ms vs 6 ms
}

// A GET whose body the program streamed (tarfile over the body, a batch at a time: its bursts)
// counts to its first burst's end, not to its last byte, which waited on the program's batches.
TEST(CompareObjects, AStreamedBodyCountsToItsFirstBurst) {
  trace::Trace t = with_gets(3, 2.0, 5.0);
  for (std::size_t i = 0; i < 3; ++i) {
    trace::HttpRequest& r = t.http[i];
    r.last_byte_ns = r.request_ns + 900'000'000;  // the last of many batches
    r.body = {{r.first_byte_ns, r.request_ns + 4'000'000, 0, 100},
              {r.request_ns + 500'000'000, r.last_byte_ns, 100, 100}};
  }
  const Profile p = profile(t);
  ASSERT_EQ(p.s3_last_byte_s.size(), 3u);
  for (double s : p.s3_last_byte_s) EXPECT_NEAR(s, 0.004, 1e-9);
}

TEST(CompareObjects, SkippedUnlessBothTracesHoldGets) {
  const Profile gets = profile(with_gets(10, 2.0, 5.0));
  const Profile files = profile(testing::build_run(RunShape{}));
  for (const Comparison& c :
       {compare(gets, files, Tolerances{}), compare(files, gets, Tolerances{}),
        compare(files, files, Tolerances{})})
    for (const char* name : {"s3_first_byte", "s3_last_byte"}) {
      EXPECT_EQ(row(c, name).verdict, Verdict::skipped) << name;
      EXPECT_NE(row(c, name).note.find("both traces"), std::string::npos) << name;
    }
}

}  // namespace
}  // namespace dlgen::compare
