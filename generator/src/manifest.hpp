#pragma once
// The manifest (.dlgen-manifest.json in the dataset root): what dlgen wrote there, under which
// fingerprint, and whether it is complete. It is the only proof that a file is dlgen's: files it
// lists may be deleted or rewritten, nothing else ever is (safety.hpp).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dlgen/core/job.hpp"
#include "dlgen/core/result.hpp"
#include "dlgen/datasets/layout.hpp"

namespace dlgen::generator {

// Bump when a codec changes the bytes it writes for the same spec.
// v2: xoshiro256++ x8 content; v3: a histogram's or uniform sizes drawn by strata (set_draws).
inline constexpr const char* kCodecVersion = "datasets-v3";
// A file being written is "<name>.dlgen-tmp" until it is complete and renamed into place.
inline constexpr const char* kTempSuffix = ".dlgen-tmp";

// What a manifest on disk says.
struct Manifest {
  std::string fingerprint;
  bool complete = false;
  std::vector<std::pair<std::string, std::uint64_t>> files;  // relative path, size
};

// The manifest below `root` (the dataset directory `dir`, opened by open_root), nothing when there
// is none; an input error when it is not a dlgen manifest or lists a path that is not plain
// relative (it would name someone else's file). `with_files` false: Manifest::files stays empty
// (the paths are still checked), for callers that need only the fingerprint and completeness.
Result<std::optional<Manifest>> read_manifest(int root, const std::filesystem::path& dir,
                                              bool with_files = true);
// Writes the manifest of `layout` (every planned file) with fingerprint `fp`: to a temporary name,
// flushed, then renamed, so a reader sees the old or the new manifest.
Result<void> write_manifest(int root, const datasets::Layout& layout, const std::string& fp,
                            bool complete);

}  // namespace dlgen::generator
