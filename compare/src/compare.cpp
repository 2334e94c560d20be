// compare(): every entry of the metric table (metrics.hpp) judged over two profiles, the epochs and
// evaluation passes side by side, and the rules that hold whatever the metrics say (lost events);
// with several captures of the original, its host-time rows judged against their own spread.
#include "dlgen/compare/compare.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <string>

#include "metrics.hpp"

namespace dlgen::compare {

// The public definitions, in the table's (and the rows') order.
const std::vector<MetricDef>& metric_defs() {
  static const std::vector<MetricDef> defs = [] {
    std::vector<MetricDef> out;
    for (const Metric& m : metric_table()) out.push_back(m.def);
    return out;
  }();
  return defs;
}

const MetricDef* find_metric(std::string_view name) {
  for (const auto& m : metric_defs())
    if (m.name == name) return &m;
  return nullptr;
}

double Tolerances::get(std::string_view metric) const {
  auto it = values.find(std::string(metric));
  if (it != values.end()) return it->second;
  const MetricDef* def = find_metric(metric);
  return def ? def->tolerance : 0;
}

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::pass:
      return "PASS";
    case Verdict::fail:
      return "FAIL";
    case Verdict::skipped:
      return "SKIP";
  }
  return "?";
}

bool Comparison::pass() const {
  return failures() == 0 && refusals.empty();
}

namespace {

// The lost-events line for one trace's profile, into c.refusals or c.verdict_notes.
void lost_events_line(Comparison& c, const Profile* p, LostEventsPolicy policy) {
  if (p->lost_events == 0 && p->lost.total() == 0) return;
  const std::uint64_t n = std::max(p->lost_events, p->lost.total());
  const std::string what = (p->label.empty() ? std::string("trace") : p->label) + ": lost " +
                           std::to_string(n) + " events during capture (" +
                           trace::describe_lost(n, p->lost) +
                           "), so its counts are lower bounds and its timing has gaps";
  const std::string remedy = trace::lost_remedies(p->lost);
  if (policy == LostEventsPolicy::allow)
    c.verdict_notes.push_back(what + "; allowed by --allow-lost");
  else
    c.refusals.push_back(what + "; capture it again" + (remedy.empty() ? "" : " with " + remedy) +
                         ", or pass --allow-lost to judge it anyway");
}

}  // namespace

void apply_lost_events_rule(Comparison& c, LostEventsPolicy policy) {
  for (const Profile* p : {&c.original, &c.replay}) lost_events_line(c, p, policy);
}

std::size_t Comparison::failures() const {
  return static_cast<std::size_t>(
      std::count_if(metrics.begin(), metrics.end(),
                    [](const MetricResult& m) { return m.verdict == Verdict::fail; }));
}

namespace {

// Within tolerance, with room for the rounding of values computed two ways.
Verdict verdict_of(double distance, double tolerance) {
  return distance <= tolerance + 1e-12 ? Verdict::pass : Verdict::fail;
}

// One row of the table judged: the entry's skip rule first; then its values, their distance and
// the verdict at the row's tolerance (the user's, else the default raised to the entry's
// sampling-noise floor).
MetricResult judge(const Metric& m, const Sides& sides, const Tolerances& tol) {
  MetricResult r;
  r.name = std::string(m.def.name);
  r.group = std::string(m.def.group);
  r.unit = std::string(m.def.unit);
  r.kind = m.def.kind;
  r.tolerance = tol.get(m.def.name);
  if (std::optional<Skip> skip = m.skip ? m.skip(sides) : std::nullopt) {
    if (skip->show_values) {
      const Extracted shown = m.extract(sides);
      r.original = shown.original;
      r.replay = shown.replay;
    }
    r.verdict = Verdict::skipped;
    r.note = std::move(skip->why);
    return r;
  }
  Extracted v = m.extract(sides);
  r.original = v.original;
  r.replay = v.replay;
  r.distance = v.distance ? *v.distance : distance_of(m.def.kind, v.original, v.replay);
  r.note = std::move(v.note);
  if (v.tolerance_floor > r.tolerance && !tol.values.count(r.name)) {
    r.tolerance = v.tolerance_floor;
    r.note += (r.note.empty() ? "" : "; ") + v.floor_note;
  }
  r.verdict = verdict_of(r.distance, r.tolerance);
  return r;
}

// Pass i of one side beside pass i of the other, as far as the longer side goes.
std::vector<EpochRow> side_by_side(const std::vector<EpochProfile>& a,
                                   const std::vector<EpochProfile>& b) {
  std::vector<EpochRow> rows;
  for (std::size_t e = 0; e < std::max(a.size(), b.size()); ++e) {
    EpochRow row;
    row.epoch = e;
    if (e < a.size()) row.original = a[e], row.has_original = true;
    if (e < b.size()) row.replay = b[e], row.has_replay = true;
    rows.push_back(std::move(row));
  }
  return rows;
}

// The training epochs' read orders (a file index per file read) served the order rows; the
// comparison, kept for the renderings, does not carry them.
void drop_read_orders(Comparison& c) {
  for (auto& row : c.epochs) {
    row.original.order.clear();
    row.replay.order.clear();
  }
  for (auto* p : {&c.original, &c.replay})
    for (auto& e : p->epochs) e.order.clear();
}

// The original's AU measured on the GPU, beside the AU row's (docs/metrics.md); not judged.
std::string gpu_au_note(const Profile& a, const Profile& b) {
  char gpu[200];
  std::snprintf(gpu, sizeof gpu,
                "original AU measured on the GPU (CUDA): %.3f; emulated AU of the original from "
                "its compute gaps: %.3f; replay: %.3f",
                a.au_gpu, a.au, b.au);
  return gpu;
}

// For each host-time row, the largest distance between two of the originals, each ordered pair
// (a relative distance divides by its first side). A row one pair cannot measure (no steps in
// either) gives that pair no spread; lost events are the repeats' own refusal, not the pair's.
std::map<std::string, double> originals_spread(const std::vector<Profile>& originals,
                                               const Tolerances& tol) {
  std::map<std::string, double> spread;
  for (std::size_t i = 0; i < originals.size(); ++i)
    for (std::size_t j = 0; j < originals.size(); ++j) {
      if (i == j) continue;
      const Comparison pair = compare(originals[i], originals[j], tol, LostEventsPolicy::allow);
      for (const auto& r : pair.metrics) {
        const MetricDef* def = find_metric(r.name);
        if (!def || !def->host_time || r.verdict == Verdict::skipped) continue;
        auto [it, fresh] = spread.emplace(r.name, r.distance);
        if (!fresh) it->second = std::max(it->second, r.distance);
      }
    }
  return spread;
}

// Judges the measured rows with a spread again at the larger of their tolerance and the spread.
void widen_to_spread(Comparison& c, const std::map<std::string, double>& spread) {
  for (auto& r : c.metrics) {
    auto it = spread.find(r.name);
    if (r.verdict == Verdict::skipped || it == spread.end()) continue;
    r.has_spread = true;
    r.spread = it->second;
    r.verdict = verdict_of(r.distance, r.tolerance_used());
    if (r.spread > r.tolerance)
      r.note += std::string(r.note.empty() ? "" : "; ") +
                "tolerance widened to the originals' own spread";
  }
}

}  // namespace

Comparison compare(const Profile& a, const Profile& b, const Tolerances& tol,
                   LostEventsPolicy lost) {
  Comparison c;
  const Sides sides = sides_of(a, b);
  for (const Metric& m : metric_table()) c.metrics.push_back(judge(m, sides, tol));
  c.epochs = side_by_side(a.epochs, b.epochs);
  c.eval_passes = side_by_side(a.eval_passes, b.eval_passes);
  c.original = a;
  c.replay = b;
  drop_read_orders(c);
  if (a.au_gpu_measured) c.verdict_notes.push_back(gpu_au_note(a, b));
  apply_lost_events_rule(c, lost);
  return c;
}

Comparison compare(const std::vector<Profile>& originals, const Profile& replay,
                   const Tolerances& tol, LostEventsPolicy lost) {
  Comparison c = compare(originals.empty() ? Profile{} : originals.front(), replay, tol, lost);
  if (originals.size() < 2) return c;
  widen_to_spread(c, originals_spread(originals, tol));
  for (std::size_t i = 1; i < originals.size(); ++i) {
    c.original_repeats.push_back(originals[i].label);
    lost_events_line(c, &originals[i], lost);
  }
  return c;
}

}  // namespace dlgen::compare
