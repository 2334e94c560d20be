// The self-contained HTML fidelity report: inline CSS and inline SVG plots drawn here, no scripts
// and no external URLs, so the file can be mailed to a customer and opened anywhere.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "dlgen/compare/compare.hpp"
#include "dlgen/compare/stats.hpp"
#include "format.hpp"

namespace dlgen::compare {
namespace {

constexpr const char* kOrigColor = "#1f77b4";
constexpr const char* kReplayColor = "#ff7f0e";

std::string esc(std::string_view s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

std::string num(double v, const char* fmt = "%.1f") {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// A "nice" upper bound for an axis: 1, 2 or 5 times a power of ten at or above v.
double nice_max(double v) {
  if (!(v > 0)) return 1;
  double base = std::pow(10.0, std::floor(std::log10(v)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (base * m >= v * 0.999) return base * m;
  return base * 10;
}

std::string short_number(double v) {
  if (v == 0) return "0";
  if (std::fabs(v) >= 1e6) return num(v / 1e6, "%.3gM");
  if (std::fabs(v) >= 1e3) return num(v / 1e3, "%.3gk");
  return num(v, "%.3g");
}

std::string size_label(double bytes) {
  const char* units[] = {"B", "K", "M", "G", "T"};
  int u = 0;
  while (bytes >= 1024 && u < 4) bytes /= 1024, ++u;
  return num(bytes, "%.0f") + units[u];
}

struct Frame {
  int w = 560, h = 280, left = 60, right = 16, top = 34, bottom = 52;
  int pw() const { return w - left - right; }
  int ph() const { return h - top - bottom; }
};

std::string svg_open(const Frame& f, std::string_view title) {
  std::string s = "<svg class=\"chart\" width=\"" + std::to_string(f.w) + "\" height=\"" +
                  std::to_string(f.h) + "\" viewBox=\"0 0 " + std::to_string(f.w) + " " +
                  std::to_string(f.h) + "\" role=\"img\">";
  s += "<title>" + esc(title) + "</title>";
  s += "<text x=\"" + std::to_string(f.w / 2) + "\" y=\"18\" text-anchor=\"middle\" class=\"ct\">" +
       esc(title) + "</text>";
  return s;
}

std::string legend(const Frame& f) {
  int y = f.h - 12;
  std::string s;
  s += "<rect x=\"" + std::to_string(f.left) + "\" y=\"" + std::to_string(y - 9) +
       "\" width=\"10\" height=\"10\" fill=\"" + kOrigColor + "\"/><text x=\"" +
       std::to_string(f.left + 14) + "\" y=\"" + std::to_string(y) +
       "\" class=\"lg\">original</text>";
  s += "<rect x=\"" + std::to_string(f.left + 90) + "\" y=\"" + std::to_string(y - 9) +
       "\" width=\"10\" height=\"10\" fill=\"" + kReplayColor + "\"/><text x=\"" +
       std::to_string(f.left + 104) + "\" y=\"" + std::to_string(y) +
       "\" class=\"lg\">replay</text>";
  return s;
}

std::string y_axis(const Frame& f, double ymax, std::string_view label) {
  std::string s;
  for (int k = 0; k <= 4; ++k) {
    double v = ymax * k / 4;
    double y = f.top + f.ph() - f.ph() * k / 4.0;
    s += "<line x1=\"" + std::to_string(f.left) + "\" x2=\"" + std::to_string(f.left + f.pw()) +
         "\" y1=\"" + num(y) + "\" y2=\"" + num(y) + "\" class=\"grid\"/>";
    s += "<text x=\"" + std::to_string(f.left - 4) + "\" y=\"" + num(y + 4) +
         "\" text-anchor=\"end\" class=\"tk\">" + short_number(v) + "</text>";
  }
  s += "<text transform=\"translate(12," + std::to_string(f.top + f.ph() / 2) +
       ") rotate(-90)\" text-anchor=\"middle\" class=\"tk\">" + esc(label) + "</text>";
  return s;
}

// Paired bars: for each category, the original's and the replay's share (fractions 0..1).
std::string paired_bars(std::string_view title, const std::vector<std::string>& cats,
                        const std::vector<double>& a, const std::vector<double>& b,
                        std::string_view ylabel, std::string_view xlabel) {
  Frame f;
  std::string s = svg_open(f, title);
  double ymax = 0;
  for (double v : a) ymax = std::max(ymax, v);
  for (double v : b) ymax = std::max(ymax, v);
  ymax = nice_max(ymax);
  s += y_axis(f, ymax, ylabel);
  const std::size_t n = std::max<std::size_t>(cats.size(), 1);
  double slot = static_cast<double>(f.pw()) / static_cast<double>(n);
  double bw = std::max(1.0, slot * 0.38);
  // Label as many bars as fit without overlap (about 6.5 px per character at 11 px).
  std::size_t longest = 1;
  for (const auto& c : cats) longest = std::max(longest, c.size());
  const auto fit =
      static_cast<std::size_t>(std::max(1.0, f.pw() / (6.5 * static_cast<double>(longest) + 10)));
  std::size_t label_every = (n + fit - 1) / fit;
  for (std::size_t i = 0; i < cats.size(); ++i) {
    double x0 = f.left + slot * static_cast<double>(i) + slot * 0.1;
    auto bar = [&](double v, double x, const char* color, const char* who) {
      double h = f.ph() * v / ymax;
      s += "<rect x=\"" + num(x) + "\" y=\"" + num(f.top + f.ph() - h) + "\" width=\"" + num(bw) +
           "\" height=\"" + num(h) + "\" fill=\"" + color + "\"><title>" + esc(cats[i]) + " " +
           who + ": " + num(v * 100, "%.1f") + "%</title></rect>";
    };
    bar(i < a.size() ? a[i] : 0, x0, kOrigColor, "original");
    bar(i < b.size() ? b[i] : 0, x0 + bw, kReplayColor, "replay");
    if (i % label_every == 0)
      s += "<text x=\"" + num(x0 + bw) + "\" y=\"" + std::to_string(f.top + f.ph() + 14) +
           "\" text-anchor=\"middle\" class=\"tk\">" + esc(cats[i]) + "</text>";
  }
  s += "<text x=\"" + std::to_string(f.left + f.pw() / 2) + "\" y=\"" +
       std::to_string(f.top + f.ph() + 30) + "\" text-anchor=\"middle\" class=\"tk\">" +
       esc(xlabel) + "</text>";
  s += legend(f) + "</svg>";
  return s;
}

std::vector<double> shares(const Histogram& h) {
  std::vector<double> out;
  for (double c : h.counts) out.push_back(h.total > 0 ? c / h.total : 0);
  return out;
}

std::string request_size_chart(const Profile& a, const Profile& b) {
  double lo = 1e300, hi = 0;
  for (const auto* p : {&a, &b})
    for (double v : p->request_sizes) lo = std::min(lo, v), hi = std::max(hi, v);
  if (hi <= 0) return "<p class=\"na\">No data reads in either trace.</p>";
  int lo_exp = static_cast<int>(std::floor(std::log2(std::max(lo, 1.0))));
  int hi_exp = static_cast<int>(std::floor(std::log2(std::max(hi, 1.0)))) + 1;
  Histogram ha = log2_histogram(a.request_sizes, lo_exp, hi_exp);
  Histogram hb = log2_histogram(b.request_sizes, lo_exp, hi_exp);
  std::vector<std::string> cats;
  for (std::size_t i = 0; i + 1 < ha.edges.size(); ++i) cats.push_back(size_label(ha.edges[i]));
  return paired_bars("Request sizes", cats, shares(ha), shares(hb), "share of requests",
                     "request size (from)");
}

std::string inflight_chart(const Profile& a, const Profile& b) {
  double maxv = 0, ta = 0, tb = 0;
  for (const auto& w : a.inflight) maxv = std::max(maxv, w.value), ta += w.value > 0 ? w.weight : 0;
  for (const auto& w : b.inflight) maxv = std::max(maxv, w.value), tb += w.value > 0 ? w.weight : 0;
  if (ta <= 0 && tb <= 0)
    return "<p class=\"na\">No I/O durations recorded: in-flight distribution unavailable.</p>";
  auto n = static_cast<std::size_t>(std::min(maxv, 64.0));
  std::vector<double> sa(n, 0), sb(n, 0);
  for (const auto& w : a.inflight)
    if (w.value >= 1)
      sa[std::min(n, static_cast<std::size_t>(w.value)) - 1] += ta > 0 ? w.weight / ta : 0;
  for (const auto& w : b.inflight)
    if (w.value >= 1)
      sb[std::min(n, static_cast<std::size_t>(w.value)) - 1] += tb > 0 ? w.weight / tb : 0;
  std::vector<std::string> cats;
  for (std::size_t i = 1; i <= n; ++i) cats.push_back(std::to_string(i));
  return paired_bars("I/Os in flight (while busy)", cats, sa, sb, "share of busy time",
                     "reads in flight");
}

std::string distribution_chart(std::string_view title, const std::vector<double>& a,
                               const std::vector<double>& b, std::string_view xlabel) {
  if (a.empty() && b.empty())
    return "<p class=\"na\">" + esc(title) + ": not found in either trace.</p>";
  double hi = std::max(quantile(a, 0.99), quantile(b, 0.99));
  if (!(hi > 0)) hi = 1;
  hi *= 1.05;
  const int bins = 20;
  Histogram ha = linear_histogram(a, 0, hi, bins), hb = linear_histogram(b, 0, hi, bins);
  std::vector<std::string> cats;
  for (int i = 0; i < bins; ++i)
    cats.push_back(num(ha.edges[static_cast<std::size_t>(i)], "%.3gs"));
  return paired_bars(title, cats, shares(ha), shares(hb), "share of steps", xlabel);
}

std::string throughput_chart(const Profile& a, const Profile& b) {
  if (a.throughput_t_s.empty() && b.throughput_t_s.empty())
    return "<p class=\"na\">No data reads: throughput unavailable.</p>";
  Frame f;
  f.w = 1120;
  std::string s = svg_open(f, "Data throughput over time");
  double xmax = 0, ymax = 0;
  for (const auto* p : {&a, &b}) {
    if (!p->throughput_t_s.empty())
      xmax = std::max(xmax, p->throughput_t_s.back() + p->throughput_bin_s);
    for (double v : p->throughput_mib_s) ymax = std::max(ymax, v);
  }
  xmax = nice_max(xmax);
  ymax = nice_max(ymax);
  s += y_axis(f, ymax, "MiB/s");
  for (int k = 0; k <= 5; ++k) {
    double x = f.left + f.pw() * k / 5.0;
    s += "<text x=\"" + num(x) + "\" y=\"" + std::to_string(f.top + f.ph() + 14) +
         "\" text-anchor=\"middle\" class=\"tk\">" + short_number(xmax * k / 5) + "</text>";
  }
  s += "<text x=\"" + std::to_string(f.left + f.pw() / 2) + "\" y=\"" +
       std::to_string(f.top + f.ph() + 30) +
       "\" text-anchor=\"middle\" class=\"tk\">seconds since first data read</text>";
  for (const auto* p : {&a, &b}) {
    std::string pts;
    for (std::size_t i = 0; i < p->throughput_t_s.size(); ++i) {
      // Each bin is drawn at its middle.
      double x = f.left + f.pw() * (p->throughput_t_s[i] + p->throughput_bin_s / 2) / xmax;
      double y = f.top + f.ph() - f.ph() * p->throughput_mib_s[i] / ymax;
      pts += num(x) + "," + num(y) + " ";
    }
    s += "<polyline fill=\"none\" stroke-width=\"1.6\" stroke=\"" +
         std::string(p == &a ? kOrigColor : kReplayColor) + "\" points=\"" + pts + "\"/>";
  }
  s += legend(f) + "</svg>";
  return s;
}

std::string verdict_cell(Verdict v) {
  const char* cls = v == Verdict::pass ? "pass" : v == Verdict::fail ? "fail" : "skip";
  return std::string("<td class=\"") + cls + "\">" + to_string(v) + "</td>";
}

}  // namespace

namespace {

// One row per pass (training epoch or evaluation pass), original and replay side by side.
std::string epoch_table(const std::vector<EpochRow>& rows, const char* head) {
  std::string h = std::string("<table>\n<tr><th>") + head +
                  "</th><th>duration orig.</th><th>duration replay</th><th>bytes "
                  "orig.</th>"
                  "<th>bytes replay</th><th>files orig.</th><th>files replay</th><th>steps "
                  "orig.</th><th>steps replay</th>"
                  "<th>reads/file orig.</th><th>reads/file replay</th></tr>\n";
  for (const auto& e : rows) {
    auto cell = [](bool has, double v, std::string_view unit) {
      return "<td>" + (has ? esc(format_value(v, unit)) : std::string("-")) + "</td>";
    };
    h += "<tr><td>" + std::to_string(e.epoch) + "</td>" +
         cell(e.has_original, e.original.duration_s, "s") +
         cell(e.has_replay, e.replay.duration_s, "s") +
         cell(e.has_original, e.original.bytes_read, "bytes") +
         cell(e.has_replay, e.replay.bytes_read, "bytes") +
         cell(e.has_original, e.original.files_read, "count") +
         cell(e.has_replay, e.replay.files_read, "count") +
         cell(e.has_original, e.original.steps, "count") +
         cell(e.has_replay, e.replay.steps, "count") +
         cell(e.has_original, e.original.reads_per_file, "count") +
         cell(e.has_replay, e.replay.reads_per_file, "count") + "</tr>\n";
  }
  return h + "</table>\n";
}

constexpr const char* kStyle =
    "<style>\n"
    "body{font-family:sans-serif;margin:24px;color:#222;max-width:1160px}\n"
    "h1{font-size:22px;margin-bottom:4px}h2{font-size:17px;margin-top:28px;border-bottom:1px "
    "solid #ccc}\n"
    ".sub{color:#666;font-size:13px}\n"
    ".badge{display:inline-block;padding:6px "
    "14px;border-radius:4px;color:#fff;font-weight:bold;font-size:18px}\n"
    ".badge.pass{background:#2e7d32}.badge.fail{background:#c62828}\n"
    "table{border-collapse:collapse;font-size:13px}th,td{border:1px solid #ddd;padding:3px "
    "8px;text-align:right}\n"
    "th{background:#f3f3f3}td.l{text-align:left}td.pass{color:#2e7d32;font-weight:bold}\n"
    "td.fail{color:#c62828;font-weight:bold}td.skip{color:#888}\n"
    ".charts{display:flex;flex-wrap:wrap;gap:12px}.chart{border:1px solid #eee;background:#fff}\n"
    ".ct{font-size:14px;font-weight:bold}.tk{font-size:11px;fill:#444}.lg{font-size:12px}\n"
    ".grid{stroke:#e5e5e5;stroke-width:1}.na{color:#888;font-style:italic}\n"
    ".refusal{color:#c62828}.vnote{color:#8a6d00}\n"
    "</style>\n</head>\n<body>\n";
;

std::string html_head(std::string_view title) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
         esc(title) + "</title>\n" + kStyle;
}

// The title, what was compared with what, the spread's captures, and the overall verdict.
std::string verdict_summary(const Comparison& c, std::string_view title) {
  std::size_t passed = 0, skipped = 0;
  for (const auto& m : c.metrics) {
    passed += m.verdict == Verdict::pass;
    skipped += m.verdict == Verdict::skipped;
  }
  std::string h = "<h1>" + esc(title) + "</h1>\n";
  h += "<p class=\"sub\">original: " + esc(c.original.label) +
       " &middot; replay: " + esc(c.replay.label) + "</p>\n";
  if (!c.original_repeats.empty()) {
    std::string also;
    for (const auto& r : c.original_repeats) also += (also.empty() ? "" : ", ") + esc(r);
    h += "<p class=\"sub\">spread: the largest distance between " +
         std::to_string(c.original_repeats.size() + 1) + " captures of the original (also " + also +
         "); host-time rows are judged at the larger of tolerance and spread</p>\n";
  }
  h += std::string("<p><span class=\"badge ") + (c.pass() ? "pass\">PASS" : "fail\">FAIL") +
       "</span> &nbsp;" + std::to_string(passed) + " metrics within tolerance, " +
       std::to_string(c.failures()) + " outside, " + std::to_string(skipped) +
       " not measurable</p>\n";
  for (const auto& r : c.refusals) h += "<p class=\"refusal\"><b>FAIL:</b> " + esc(r) + "</p>\n";
  for (const auto& n : c.verdict_notes) h += "<p class=\"vnote\"><b>Note:</b> " + esc(n) + "</p>\n";
  return h;
}

// One row per metric: both values, distance, tolerance (and spread), verdict and definition.
std::string verdict_table(const Comparison& c) {
  const bool spread = !c.original_repeats.empty();
  std::string h =
      "<h2>Verdict per "
      "metric</h2>\n<table>\n<tr><th>metric</th><th>group</th><th>original</th><th>replay</th>"
      "<th>distance</th><th>tolerance</th>" +
      std::string(spread ? "<th>spread</th>" : "") + "<th>verdict</th><th>what</th></tr>\n";
  for (const auto& m : c.metrics) {
    const MetricDef* def = find_metric(m.name);
    std::string what = def ? std::string(def->what) : "";
    if (m.verdict == Verdict::skipped) what += " — " + m.note;
    h += "<tr><td class=\"l\">" + esc(m.name) + "</td><td class=\"l\">" + esc(m.group) +
         "</td><td>" + esc(format_value(m.original, m.unit)) + "</td><td>" +
         esc(format_value(m.replay, m.unit)) + "</td><td>" +
         (m.verdict == Verdict::skipped ? "-" : esc(format_distance(m.distance, m.kind, m.unit))) +
         "</td><td>" + esc(format_distance(m.tolerance, m.kind, m.unit)) + "</td>" +
         (!spread        ? std::string()
          : m.has_spread ? "<td>" + esc(format_distance(m.spread, m.kind, m.unit)) + "</td>"
                         : std::string("<td>-</td>")) +
         verdict_cell(m.verdict) + "<td class=\"l\">" + esc(what) + "</td></tr>\n";
  }
  h += "</table>\n";
  return h;
}

// The plots: throughput over time, request sizes and concurrency, step and compute times.
std::string charts(const Profile& a, const Profile& b) {
  std::string h =
      "<h2>Throughput over time</h2>\n<div class=\"charts\">" + throughput_chart(a, b) + "</div>\n";
  h += "<h2>Request sizes and concurrency</h2>\n<div class=\"charts\">" + request_size_chart(a, b) +
       inflight_chart(a, b) + "</div>\n";
  h += "<h2>Step time</h2>\n<div class=\"charts\">" +
       distribution_chart("Step time distribution", a.step_times_s, b.step_times_s,
                          "step time (from)") +
       distribution_chart("Compute per step", a.compute_s, b.compute_s, "compute time (from)") +
       (a.eval_step_times_s.empty() && b.eval_step_times_s.empty()
            ? std::string()
            : distribution_chart("Evaluation step time", a.eval_step_times_s, b.eval_step_times_s,
                                 "evaluation step time (from)")) +
       "</div>\n";
  return h;
}

// Per epoch and per evaluation pass, then what the profiles noted.
std::string passes_and_notes(const Comparison& c) {
  std::string h = "<h2>Per epoch</h2>\n";
  h += c.epochs.empty() ? "<p class=\"na\">No epochs found.</p>\n" : epoch_table(c.epochs, "epoch");
  if (!c.eval_passes.empty()) {
    h += "<h2>Per evaluation pass</h2>\n";
    h += epoch_table(c.eval_passes, "eval pass");
  }
  std::string notes;
  for (const auto* p : {&c.original, &c.replay})
    for (const auto& n : p->notes) notes += "<li>" + esc(p->label) + ": " + esc(n) + "</li>\n";
  if (!notes.empty()) h += "<h2>Notes</h2>\n<ul>\n" + notes + "</ul>\n";
  return h;
}

}  // namespace

std::string to_html(const Comparison& c, std::string_view title) {
  std::string h = html_head(title);
  h += verdict_summary(c, title);
  h += verdict_table(c);
  h += charts(c.original, c.replay);
  h += passes_and_notes(c);
  h += "<p class=\"sub\">Generated by dlgen compare. Distances: relative = |replay − original| / "
       "original; "
       "KS = Kolmogorov–Smirnov statistic; tolerances are configurable with --tolerance "
       "metric=value.</p>\n";
  h += "</body>\n</html>\n";
  return h;
}

}  // namespace dlgen::compare
