#pragma once
// Fidelity comparison of two traces (original run and its replay): one verdict per metric and an
// overall verdict. Pure functions over Profiles; files appear only in the CLI.
#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "dlgen/compare/profile.hpp"
#include "dlgen/core/result.hpp"

namespace dlgen::analysis {
struct TraceSummary;
}

namespace dlgen::compare {

// How a metric's distance is computed from the two sides.
enum class DistanceKind {
  relative,  // |replay - original| / |original|  (original 0: 0 if both 0, else infinity)
  absolute,  // |replay - original|, in the metric's unit
  ks,        // two-sample Kolmogorov–Smirnov statistic, 0..1
};

// A metric dlgen knows how to compare, with its default tolerance (justified in docs/fidelity.md).
struct MetricDef {
  std::string_view name;   // "bytes_read", key for --tolerance
  std::string_view group;  // volume, access, concurrency, timing, evaluation, checkpoint, device
  std::string_view unit;   // bytes, count, fraction, s, MiB/s
  DistanceKind kind;
  double tolerance;       // pass when distance <= tolerance
  std::string_view what;  // one line for the report
  // Host time (seconds, MiB/s and the shares and AU made of them): a real program's figure moves
  // with whatever else runs on the host, so with several captures of the original the row is
  // judged at the larger of its tolerance and the originals' own spread. Counts, bytes and order
  // are never widened.
  bool host_time = false;
};
const std::vector<MetricDef>& metric_defs();
const MetricDef* find_metric(std::string_view name);

// Tolerance per metric name; metrics absent here use their default.
struct Tolerances {
  std::map<std::string, double> values;
  double get(std::string_view metric) const;
};
// Applies "metric=value" (value: "0.1", "10%", or for absolute metrics a plain number). Unknown
// metric names are input errors naming the closest known one.
Result<void> apply_tolerance(Tolerances& tol, std::string_view assignment);
// Reads a TOML file of `metric = value` (top level or under a [tolerance] table).
Result<void> load_tolerances(Tolerances& tol, const std::filesystem::path& path);

enum class Verdict { pass, fail, skipped };
const char* to_string(Verdict v);

struct MetricResult {
  std::string name;
  std::string group;
  std::string unit;
  DistanceKind kind = DistanceKind::relative;
  double original = 0;  // the headline value on each side (a distribution's median)
  double replay = 0;
  double distance = 0;
  double tolerance = 0;  // the row's own: its default, a --tolerance, or a sampling floor
  // With several captures of the original, on host-time rows: the largest distance between two of
  // them (the same distance function, either order). The verdict uses tolerance_used().
  bool has_spread = false;
  double spread = 0;
  Verdict verdict = Verdict::pass;
  std::string note;  // why skipped, or what the headline value is

  double tolerance_used() const { return has_spread ? std::max(tolerance, spread) : tolerance; }
};

struct EpochRow {
  std::size_t epoch = 0;
  EpochProfile original;  // order vectors are cleared
  EpochProfile replay;
  bool has_original = false;
  bool has_replay = false;
};

// What a trace that lost events during capture does to the verdict. Its counts are lower bounds
// and its timing has holes, so a comparison with it proves nothing: by default it fails whatever
// the metrics say; `allow` (--allow-lost) passes it on the metrics, with a note giving the counts.
enum class LostEventsPolicy { refuse, allow };

struct Comparison {
  std::vector<MetricResult> metrics;
  std::vector<EpochRow> epochs;       // training epochs
  std::vector<EpochRow> eval_passes;  // evaluation passes (EpochRow::epoch: the pass's index)
  Profile original;                   // kept for the plots
  Profile replay;
  // Labels of the further captures of the original whose spread widened the host-time rows
  // (empty: one original, every row at its own tolerance).
  std::vector<std::string> original_repeats;
  // Why the comparison fails whatever the metrics say (a trace lost events), one line each.
  std::vector<std::string> refusals;
  // Said with the verdict: lost events let through by LostEventsPolicy::allow, one line each.
  std::vector<std::string> verdict_notes;
  bool pass() const;             // no metric failed and nothing refused
  std::size_t failures() const;  // metrics that failed
};

Comparison compare(const Profile& original, const Profile& replay, const Tolerances& tolerances,
                   LostEventsPolicy lost = LostEventsPolicy::refuse);

// Several captures of the same original run: originals[0] is judged against the replay, and each
// host-time row's tolerance is widened to the originals' own spread (the largest distance between
// any two of them) when that is larger. A capture among them that lost events is refused as
// compare() refuses the original. One original: the same as compare(originals[0], replay, ...).
// `originals` must not be empty.
Comparison compare(const std::vector<Profile>& originals, const Profile& replay,
                   const Tolerances& tolerances, LostEventsPolicy lost = LostEventsPolicy::refuse);

// The shared-summary form: compares what the summaries alone say (no event-level metrics such as
// in-flight I/O or throughput over time; those need profile_of with the trace).
Comparison compare(const analysis::TraceSummary& original, const analysis::TraceSummary& replay,
                   const Tolerances& tolerances, LostEventsPolicy lost = LostEventsPolicy::refuse);

// The lost-events rule (compare() applies it): for each side of `c` whose trace lost events, one
// line naming the trace and its counts by reason, into c.refusals (refuse) or c.verdict_notes
// (allow).
void apply_lost_events_rule(Comparison& c, LostEventsPolicy policy);

// Renderings of a comparison.
std::string format_table(const Comparison& c);  // terminal table + per-epoch table + verdict
std::string to_json(const Comparison& c);       // every value, machine readable
std::string to_html(const Comparison& c, std::string_view title);  // self-contained, inline SVG

}  // namespace dlgen::compare
