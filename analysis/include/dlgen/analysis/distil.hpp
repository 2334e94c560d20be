#pragma once
// distil: a TraceSummary → a replayable Job, with per-key evidence. Pure: files appear only in the
// CLI. The job's dataset directory is never the traced run's data directory, so replaying a
// distilled job can never overwrite the user's real data.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "dlgen/analysis/summary.hpp"
#include "dlgen/core/job.hpp"

namespace dlgen::analysis {

struct DistilOptions {
  std::string name;  // job name; "" → derived from the traced command or dataset dir
  std::filesystem::path dataset_dir;  // "" → data/<name> (a new directory for the synthetic copy)
};

struct Distilled {
  Job job;
  std::map<std::string, std::string> comments;  // dotted TOML key → evidence and confidence
  std::vector<std::string> notes;               // what could not be inferred (said, not guessed)
  std::vector<std::string> reasoning;           // longer explanation, for --explain
};

Distilled distil(const TraceSummary& summary, const DistilOptions& options = {});

// The summary as JSON text (for `dlgen distil --json` and for scripts).
std::string to_json(const TraceSummary& summary);

}  // namespace dlgen::analysis
