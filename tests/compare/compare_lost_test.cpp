// The lost-events rule of compare: a trace that lost events during capture fails the comparison
// whatever its metrics say, unless --allow-lost; in the table, JSON, HTML and the dlgen verb.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include "dlgen/core/json.hpp"
#include <string>

#include "dlgen/analysis/summary.hpp"
#include "dlgen/compare/compare.hpp"
#include "dlgen/trace/trace_io.hpp"
#include "run_builder.hpp"
#include "temp_dir.hpp"

namespace dlgen::compare {
namespace {

// A faithful pair of profiles: the same run on both sides.
Profile run_profile(const trace::Trace& t, const char* label) {
  Profile p = profile_of(t, analysis::summarize(t));
  p.label = label;
  return p;
}

trace::Trace run_with_lost(const trace::LostEvents& lost) {
  trace::Trace t = testing::build_run(testing::RunShape{});
  t.meta.lost = lost;
  t.meta.lost_events = lost.total();
  return t;
}

trace::LostEvents some_lost() {
  trace::LostEvents l;
  l.ring_buffer = 3;
  l.uring_map = 4;
  return l;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(CompareLost, FaithfulReplayPassesWhenNothingWasLost) {
  const auto t = run_with_lost({});
  Comparison c = compare(run_profile(t, "original"), run_profile(t, "replay"), Tolerances{});
  EXPECT_TRUE(c.pass());
  EXPECT_TRUE(c.refusals.empty());
  EXPECT_TRUE(c.verdict_notes.empty());
}

TEST(CompareLost, ReplayThatLostEventsFailsNamingTheTraceAndCounts) {
  const auto clean = run_with_lost({}), lossy = run_with_lost(some_lost());
  Comparison c =
      compare(run_profile(clean, "original"), run_profile(lossy, "replay"), Tolerances{});
  EXPECT_EQ(c.failures(), 0u);  // every metric is within tolerance ...
  EXPECT_FALSE(c.pass());       // ... and still the comparison fails
  ASSERT_EQ(c.refusals.size(), 1u);
  EXPECT_TRUE(contains(c.refusals[0], "replay: lost 7 events")) << c.refusals[0];
  EXPECT_TRUE(contains(c.refusals[0], "3 ring_buffer")) << c.refusals[0];
  EXPECT_TRUE(contains(c.refusals[0], "4 uring_map")) << c.refusals[0];
  EXPECT_TRUE(contains(c.refusals[0], "--allow-lost")) << c.refusals[0];
  EXPECT_TRUE(contains(c.refusals[0], "with a larger --ring-mib, a larger --inflight-map-entries"))
      << c.refusals[0];
}

TEST(CompareLost, OriginalThatLostEventsFailsToo) {
  const auto clean = run_with_lost({}), lossy = run_with_lost(some_lost());
  Comparison c =
      compare(run_profile(lossy, "original"), run_profile(clean, "replay"), Tolerances{});
  EXPECT_FALSE(c.pass());
  ASSERT_EQ(c.refusals.size(), 1u);
  EXPECT_TRUE(contains(c.refusals[0], "original: lost 7 events")) << c.refusals[0];
}

TEST(CompareLost, AllowLostPassesOnTheMetricsWithANote) {
  const auto lossy = run_with_lost(some_lost());
  Comparison c = compare(run_profile(lossy, "original"), run_profile(lossy, "replay"), Tolerances{},
                         LostEventsPolicy::allow);
  EXPECT_TRUE(c.pass());
  EXPECT_TRUE(c.refusals.empty());
  ASSERT_EQ(c.verdict_notes.size(), 2u);
  EXPECT_TRUE(contains(c.verdict_notes[0], "original: lost 7 events")) << c.verdict_notes[0];
  EXPECT_TRUE(contains(c.verdict_notes[1], "allowed by --allow-lost")) << c.verdict_notes[1];
  // Allowing lost events does not hide a metric that fails.
  Profile worse = run_profile(lossy, "replay");
  worse.readers += 5;
  EXPECT_FALSE(
      compare(run_profile(lossy, "original"), worse, Tolerances{}, LostEventsPolicy::allow).pass());
}

// A total without reasons (an old trace, or a summary that keeps only the total) also counts.
TEST(CompareLost, TotalWithoutReasonsCounts) {
  Profile a = run_profile(run_with_lost({}), "original"), b = a;
  b.label = "replay";
  b.lost_events = 2;
  Comparison c = compare(a, b, Tolerances{});
  EXPECT_FALSE(c.pass());
  ASSERT_EQ(c.refusals.size(), 1u);
  EXPECT_TRUE(contains(c.refusals[0], "2 unattributed")) << c.refusals[0];
  // The summary form sees the total too.
  analysis::TraceSummary sa = analysis::summarize(run_with_lost({}));
  analysis::TraceSummary sb = analysis::summarize(run_with_lost(some_lost()));
  EXPECT_FALSE(compare(sa, sb, Tolerances{}).pass());
  EXPECT_TRUE(compare(sa, sb, Tolerances{}, LostEventsPolicy::allow).pass());
}

TEST(CompareLost, RenderingsCarryTheRefusal) {
  const auto clean = run_with_lost({}), lossy = run_with_lost(some_lost());
  Comparison c =
      compare(run_profile(clean, "original"), run_profile(lossy, "replay"), Tolerances{});
  const std::string table = format_table(c);
  EXPECT_TRUE(contains(table, "FAIL: replay: lost 7 events")) << table;
  EXPECT_TRUE(contains(table, "fidelity: FAIL")) << table;
  EXPECT_TRUE(contains(table, "a trace lost events")) << table;

  auto j = nlohmann::json::parse(to_json(c));
  EXPECT_EQ(j["pass"], false);
  EXPECT_EQ(j["failures"], 0);
  ASSERT_EQ(j["refusals"].size(), 1u);
  EXPECT_EQ(j["replay"]["lost_events"], 7);
  EXPECT_EQ(j["replay"]["lost"]["ring_buffer"], 3);
  EXPECT_EQ(j["replay"]["lost"]["uring_map"], 4);
  EXPECT_EQ(j["original"]["lost_events"], 0);

  const std::string html = to_html(c, "t");
  EXPECT_TRUE(contains(html, "badge fail")) << html;
  EXPECT_TRUE(contains(html, "replay: lost 7 events")) << html;

  Comparison allowed = compare(run_profile(clean, "original"), run_profile(lossy, "replay"),
                               Tolerances{}, LostEventsPolicy::allow);
  EXPECT_TRUE(contains(format_table(allowed), "note: replay: lost 7 events"))
      << format_table(allowed);
  EXPECT_TRUE(contains(to_html(allowed, "t"), "badge pass"));
  EXPECT_EQ(nlohmann::json::parse(to_json(allowed))["verdict_notes"].size(), 1u);
}

// Every metric compare() emits has a definition (find_metric never returns null for them), so
// the report's descriptions and the tolerance lookups cannot miss one.
TEST(CompareLost, EveryMetricComparedIsDefined) {
  const auto t = run_with_lost({});
  Comparison c = compare(run_profile(t, "original"), run_profile(t, "replay"), Tolerances{});
  ASSERT_FALSE(c.metrics.empty());
  for (const auto& m : c.metrics) EXPECT_NE(find_metric(m.name), nullptr) << m.name;
  // A result with a name the table does not know (made by hand) still renders.
  c.metrics.push_back(MetricResult{"not_a_metric", "x", "count"});
  EXPECT_TRUE(contains(to_html(c, "t"), "not_a_metric"));
  EXPECT_TRUE(contains(format_table(c), "not_a_metric"));
}

struct Output {
  int status = -1;
  std::string out;
};

Output dlgen(const std::string& args) {
  Output o;
  const std::string cmd = std::string(DLGEN_BINARY) + " " + args + " 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return o;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) o.out.append(buf, n);
  const int st = ::pclose(p);
  o.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return o;
}

TEST(CompareLost, CliFailsWithExitOneUnlessAllowLost) {
  dlgen::testing::TempDir dir("compare-lost");
  const auto orig = dir / "orig.h5", replay = dir / "replay.h5";
  ASSERT_TRUE(trace::write_trace(orig, run_with_lost({})));
  ASSERT_TRUE(trace::write_trace(replay, run_with_lost(some_lost())));

  auto same = dlgen("compare " + orig.string() + " " + orig.string());
  EXPECT_EQ(same.status, 0) << same.out;

  auto r = dlgen("compare " + orig.string() + " " + replay.string());
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_TRUE(contains(r.out, "fidelity: FAIL")) << r.out;
  EXPECT_TRUE(contains(r.out, ": lost 7 events")) << r.out;
  EXPECT_TRUE(contains(r.out, replay.string())) << r.out;  // names the trace

  auto quiet = dlgen("compare -q " + orig.string() + " " + replay.string());
  EXPECT_EQ(quiet.status, 1) << quiet.out;
  EXPECT_TRUE(contains(quiet.out, ": lost 7 events")) << quiet.out;

  auto json = dlgen("compare --json " + orig.string() + " " + replay.string());
  EXPECT_EQ(json.status, 1);
  auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["pass"], false);
  EXPECT_EQ(j["refusals"].size(), 1u);

  auto allowed = dlgen("compare --allow-lost " + orig.string() + " " + replay.string());
  EXPECT_EQ(allowed.status, 0) << allowed.out;
  EXPECT_TRUE(contains(allowed.out, "fidelity: PASS")) << allowed.out;
  EXPECT_TRUE(contains(allowed.out, "allowed by --allow-lost")) << allowed.out;
}

}  // namespace
}  // namespace dlgen::compare
