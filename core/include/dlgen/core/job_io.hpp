#pragma once
// Reading and writing job files (TOML). Errors name the file, line and key; an unknown key is an
// error with a "did you mean" suggestion. Overrides (`--set key=value`) and named scales apply to
// the TOML tree before it becomes a Job, so their errors read the same as the file's.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "dlgen/core/job.hpp"
#include "dlgen/core/result.hpp"

namespace dlgen {

struct JobLoadOptions {
  std::vector<std::string> overrides;  // "reader.batch_size=8", applied in order
  std::string scale;        // "" or a name: "small" applies [scales.small] (built-in fallback)
  std::string accelerator;  // "" or "h100": selects compute.<accelerator>
};

// Parses and validates; the error message lists every problem, one per line,
// as "jobs/x.toml:12: reader.batch_size: must be ≥ 1".
Result<Job> load_job(const std::filesystem::path& path, const JobLoadOptions& options = {});
Result<Job> parse_job(std::string_view toml_text, const std::filesystem::path& source_name,
                      const JobLoadOptions& options = {});

// Writes a job as commented TOML. `comments` maps a dotted key to a comment placed after it.
std::string to_toml(const Job& job, const std::map<std::string, std::string>& comments = {});

}  // namespace dlgen
