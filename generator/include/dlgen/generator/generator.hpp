#pragma once
// Materialises a job's datasets (training and validation) on disk, in parallel, valid in their
// format, with a manifest (.dlgen-manifest.json in the dataset root) recording what dlgen wrote.
// A matching dataset is reused; a stale one (different fingerprint) that dlgen wrote is
// regenerated; a directory holding files dlgen did not write is never touched (error).
#include <cstdint>
#include <filesystem>
#include <string>

#include "dlgen/core/job.hpp"
#include "dlgen/core/result.hpp"

namespace dlgen::generator {

struct GenerateOptions {
  std::uint32_t threads = 0;  // 0: hardware concurrency
  bool force = false;         // regenerate even when the manifest matches (own files only)
  bool progress = true;       // draw progress when stderr is a terminal
};

struct GenerateReport {
  bool reused = false;  // the dataset was already there and matched
  std::uint64_t files_written = 0;
  std::uint64_t bytes_written = 0;
  double seconds = 0;
};

// The one the replay needs: generate if missing or stale, reuse if matching.
Result<GenerateReport> ensure_dataset(const DatasetSpec& spec, const GenerateOptions& options = {});
// True when `spec.dir` holds a complete dataset matching `spec` (manifest fingerprint and files).
bool dataset_ready(const DatasetSpec& spec);

// The manifest's file name, in the dataset root.
inline constexpr const char* kManifestName = ".dlgen-manifest.json";
// Hex hash of every DatasetSpec field that affects the files' names, sizes or bytes (not `dir`),
// and of the codec version: equal fingerprints mean byte-identical datasets.
std::string fingerprint(const DatasetSpec& spec);
// Writes file `file` of the dataset to `path` exactly as ensure_dataset would (tests, tools).
Result<void> generate_file(const DatasetSpec& spec, std::uint64_t file,
                           const std::filesystem::path& path);

}  // namespace dlgen::generator
