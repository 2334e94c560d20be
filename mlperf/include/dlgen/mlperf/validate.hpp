#pragma once
// `dlgen mlperf validate DIR`: a results folder (what `dlgen mlperf --results-dir DIR` writes)
// checked as MLPerf Storage's submission checker checks one (Rules.md 2.1: the division,
// submitter, results and systems folders, the workloads, the run count, the files of every
// timestamp folder and their dlio_config), each run's provenance.json (v3.0: present, parsed,
// its job hash that of the run's dlgen_job.toml, its rules edition the one checked), and the
// verdict recomputed from the saved results: each measured run's samples/s and AU from its
// dlgen_output.json, their agreement within 5%, the AU threshold, and the division folder the
// result sits in. Every problem is listed, with the file and the rule; what differs from
// MLPerf's checker: docs/mlperf-v3.md ("dlgen mlperf validate").
#include <filesystem>
#include <string>
#include <vector>

#include "dlgen/mlperf/rules.hpp"

namespace dlgen::mlperf {

struct ValidationProblem {
  std::string path;  // relative to the folder validated
  std::string rule;  // "2.1.17 runTimestamps", "3.3.2 AU", "provenance", ...
  std::string message;
};

struct ValidationResult {
  Round rules = kDefaultRules;
  std::vector<std::string> results;  // each workload folder checked, relative to the folder
  std::vector<ValidationProblem> problems;
  bool valid() const { return problems.empty() && !results.empty(); }
};

ValidationResult validate_results(const std::filesystem::path& dir, Round rules);

// Text for people (one line per problem, then the verdict) and JSON for scripts.
std::string format_validation(const ValidationResult& r);
std::string validation_json(const ValidationResult& r);

}  // namespace dlgen::mlperf
