// The three renderings of a comparison (terminal table, JSON, HTML) over Profiles built as structs.
#include <gtest/gtest.h>

#include "dlgen/core/json.hpp"
#include <regex>
#include <string>

#include "dlgen/compare/compare.hpp"
#include "profiles.hpp"

namespace dlgen::compare {
namespace {

using namespace dlgen::compare::profiles;

TEST(Report, JsonHasEveryMetricAndProfile) {
  Profile b = baseline();
  b.readers = 1;
  Comparison c = compare(baseline(), b, Tolerances{});
  auto j = nlohmann::json::parse(to_json(c));
  EXPECT_EQ(j["pass"], false);
  EXPECT_EQ(j["failures"], c.failures());
  ASSERT_EQ(j["metrics"].size(), c.metrics.size());
  bool saw_readers = false;
  for (const auto& m : j["metrics"]) {
    for (const char* key : {"name", "group", "unit", "distance_kind", "original", "replay",
                            "distance", "tolerance", "verdict"})
      EXPECT_TRUE(m.contains(key)) << key;
    if (m["name"] == "readers") {
      saw_readers = true;
      EXPECT_EQ(m["original"], 3);
      EXPECT_EQ(m["replay"], 1);
      EXPECT_EQ(m["verdict"], "FAIL");
    }
  }
  EXPECT_TRUE(saw_readers);
  EXPECT_EQ(j["epochs"].size(), 2u);
  EXPECT_EQ(j["original"]["readers"], 3);
  EXPECT_EQ(j["replay"]["throughput"]["mib_s"].size(), 62u);
}

TEST(Report, JsonWritesInfinityAsNull) {
  Profile a = baseline();
  a.bytes_read = 0;
  auto j = nlohmann::json::parse(to_json(compare(a, baseline(), Tolerances{})));
  bool seen = false;
  for (const auto& m : j["metrics"]) {
    if (m["name"] == "bytes_read") {
      EXPECT_TRUE(m["distance"].is_null());
      seen = true;
    }
  }
  EXPECT_TRUE(seen);
}

// Checks that every non-void element is closed in order (a small well-formedness check).
bool balanced(const std::string& html, std::string* why) {
  static const std::regex tag(R"(<(/?)([a-zA-Z][a-zA-Z0-9]*)[^>]*?(/?)>)");
  const std::set<std::string> void_tags = {"meta", "br", "hr", "img", "input", "link"};
  std::vector<std::string> stack;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), tag); it != std::sregex_iterator();
       ++it) {
    std::string name = (*it)[2];
    bool closing = (*it)[1] == "/", self = (*it)[3] == "/";
    if (void_tags.count(name) || self) continue;
    if (!closing) {
      stack.push_back(name);
    } else if (stack.empty() || stack.back() != name) {
      *why = "unexpected </" + name + "> (open: " + (stack.empty() ? "none" : stack.back()) + ")";
      return false;
    } else {
      stack.pop_back();
    }
  }
  if (!stack.empty()) *why = "unclosed <" + stack.back() + ">";
  return stack.empty();
}

TEST(Report, HtmlIsSelfContainedWithCharts) {
  Profile b = baseline();
  b.readers = 1;
  Comparison c = compare(baseline(), b, Tolerances{});
  std::string html = to_html(c, "Fidelity <test> & more");
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  std::string why;
  EXPECT_TRUE(balanced(html, &why)) << why;
  // Throughput, request sizes, in flight, step time, compute.
  std::size_t svgs = 0;
  for (std::size_t pos = 0; (pos = html.find("<svg", pos)) != std::string::npos; ++pos) ++svgs;
  EXPECT_EQ(svgs, 5u);
  EXPECT_NE(html.find("<polyline"), std::string::npos);
  EXPECT_NE(html.find("Request sizes"), std::string::npos);
  EXPECT_NE(html.find("Data throughput over time"), std::string::npos);
  EXPECT_NE(html.find("I/Os in flight"), std::string::npos);
  EXPECT_NE(html.find("Step time distribution"), std::string::npos);
  EXPECT_NE(html.find("Fidelity &lt;test&gt; &amp; more"), std::string::npos);
  EXPECT_NE(html.find("badge fail"), std::string::npos);
  EXPECT_EQ(html.find("http"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("nan"), std::string::npos);
}

TEST(Report, EvaluationPassesHaveTheirOwnRowsInEveryRendering) {
  Comparison c = compare(with_eval(), with_eval(30), Tolerances{});
  const std::string html = to_html(c, "eval");
  std::string why;
  EXPECT_TRUE(balanced(html, &why)) << why;
  EXPECT_NE(html.find("<h2>Per evaluation pass</h2>"), std::string::npos);
  EXPECT_NE(html.find("<th>eval pass</th>"), std::string::npos);
  EXPECT_NE(html.find("Evaluation step time"), std::string::npos);
  for (const char* name :
       {"eval_passes", "eval_files", "eval_epoch_bytes_read", "eval_steps", "eval_step_time"})
    EXPECT_NE(html.find(std::string("<td class=\"l\">") + name + "</td>"), std::string::npos)
        << name;
  const std::string text = format_table(c);
  EXPECT_NE(text.find("per evaluation pass (original / replay)"), std::string::npos);
  EXPECT_NE(text.find("20 / 30"), std::string::npos) << text;
  const auto j = nlohmann::json::parse(to_json(c));
  ASSERT_EQ(j["eval_passes"].size(), 2u);
  EXPECT_EQ(j["eval_passes"][0]["original"]["files_read"], 20);
  EXPECT_EQ(j["eval_passes"][0]["replay"]["files_read"], 30);
  EXPECT_EQ(j["original"]["eval_passes"].size(), 2u);
  EXPECT_EQ(j["epochs"].size(), 2u);
  // Without evaluation passes, no evaluation table.
  EXPECT_EQ(to_html(compare(baseline(), baseline(), Tolerances{}), "t").find("Per evaluation"),
            std::string::npos);
}

TEST(Report, TableShowsVerdicts) {
  Profile b = baseline();
  b.checkpoints = 1;
  std::string t = format_table(compare(baseline(), b, Tolerances{}));
  EXPECT_NE(t.find("checkpoints"), std::string::npos);
  EXPECT_NE(t.find("FAIL"), std::string::npos);
  EXPECT_NE(t.find("fidelity: FAIL"), std::string::npos);
  EXPECT_NE(format_table(compare(baseline(), baseline(), Tolerances{})).find("fidelity: PASS"),
            std::string::npos);
}

TEST(Report, SpreadAndToleranceUsedInEveryRendering) {
  const Comparison c =
      compare({stretched(1.0), stretched(1.4, "second")}, stretched(1.25), Tolerances{});
  const auto j = nlohmann::json::parse(to_json(c));
  EXPECT_EQ(j["original_repeats"], nlohmann::json::array({"second"}));
  for (const auto& m : j["metrics"]) {
    ASSERT_TRUE(m.contains("spread")) << m["name"];
    ASSERT_TRUE(m.contains("tolerance_used")) << m["name"];
    if (m["name"] == "epoch_time") {
      EXPECT_DOUBLE_EQ(m["tolerance"].get<double>(), 0.10);
      EXPECT_NEAR(m["spread"].get<double>(), 0.4, 1e-9);
      EXPECT_NEAR(m["tolerance_used"].get<double>(), 0.4, 1e-9);
      EXPECT_EQ(m["verdict"], "PASS");
    }
    if (m["name"] == "steps") {
      EXPECT_TRUE(m["spread"].is_null());
      EXPECT_EQ(m["tolerance_used"], m["tolerance"]);
    }
  }
  const std::string text = format_table(c);
  EXPECT_NE(text.find("spread  verdict"), std::string::npos) << text;
  EXPECT_NE(text.find("40.0%"), std::string::npos) << text;
  EXPECT_NE(text.find("spread: the largest distance between 2 captures of the original"),
            std::string::npos)
      << text;
  const std::string html = to_html(c, "spread");
  std::string why;
  EXPECT_TRUE(balanced(html, &why)) << why;
  EXPECT_NE(html.find("<th>spread</th>"), std::string::npos);
  EXPECT_NE(html.find("<td>40.0%</td>"), std::string::npos);
  // One original: no spread column, spread null, the tolerance used is the tolerance.
  const Comparison one = compare(baseline(), baseline(), Tolerances{});
  EXPECT_EQ(format_table(one).find("spread"), std::string::npos);
  EXPECT_EQ(to_html(one, "t").find("<th>spread</th>"), std::string::npos);
  const auto j1 = nlohmann::json::parse(to_json(one));
  EXPECT_TRUE(j1["original_repeats"].empty());
  for (const auto& m : j1["metrics"]) {
    EXPECT_TRUE(m["spread"].is_null()) << m["name"];
    EXPECT_EQ(m["tolerance_used"], m["tolerance"]) << m["name"];
  }
}

}  // namespace
}  // namespace dlgen::compare
