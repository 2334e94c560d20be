#pragma once
// The metrics compare() judges, as a table: one entry per row of its output, in output order.
// An entry is the row's definition (name, group, unit, distance kind, default tolerance, one line
// of what it is: the public MetricDef), when it cannot be measured and why, and what it extracts
// from the two profiles. compare() runs the entries and judges each row the same way, so adding a
// metric is adding one entry (docs/fidelity.md, "Adding a metric").
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "dlgen/compare/compare.hpp"
#include "dlgen/compare/profile.hpp"

namespace dlgen::compare {

// The two profiles under comparison, with the facts several entries share, worked out once.
struct Sides {
  const Profile& a;  // the original
  const Profile& b;  // the replay
  // Why the step rows cannot be measured (a side without batch handovers); empty when they can.
  std::string no_steps;
  // Neither side read a dataset (a checkpoint-only workflow): there is no data time to judge.
  bool no_data = false;
  // The fewest distinct files in one epoch of the original (0: no epochs), which bounds what a
  // rank correlation of the read order can resolve.
  double fewest_files = 0;
  std::size_t common_epochs = 0;  // epochs both sides have (epoch i is compared with epoch i)
};
Sides sides_of(const Profile& original, const Profile& replay);

// Why a row is not measured. Its values show as zero, or as the entry extracts them when
// show_values is set (what each side has, although the row cannot be judged).
struct Skip {
  std::string why;
  bool show_values = false;
};

// What an entry extracts from the two sides: the headline values and, where the entry's distance
// kind on them is not the distance, the distance itself.
struct Extracted {
  double original = 0;
  double replay = 0;
  // Set for a worst epoch, a KS statistic or a distance relative to another figure; empty: the
  // entry's DistanceKind on the two values (distance_of).
  std::optional<double> distance;
  std::string note;  // what the values are, shown with the row
  // Sampling noise the row cannot resolve: its default tolerance is raised to this (a tolerance
  // the user set is kept), and floor_note is added to the note.
  double tolerance_floor = 0;
  std::string floor_note;
};

struct Metric {
  MetricDef def;
  std::optional<Skip> (*skip)(const Sides&);  // nullptr: always measured
  Extracted (*extract)(const Sides&);
};

// Every metric, in the order of compare()'s rows (the JSON and the tables keep it).
const std::vector<Metric>& metric_table();

// The distance of `kind` between the original's value and the replay's (compare.hpp's
// DistanceKind; a relative distance from 0 to non-zero is infinite).
double distance_of(DistanceKind kind, double original, double replay);

}  // namespace dlgen::compare
