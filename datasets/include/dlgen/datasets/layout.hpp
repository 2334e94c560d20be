#pragma once
// The dataset layout: a pure function of the DatasetSpec. File i's path, size and where each of its
// samples lives are computed, never listed, so generator and replay agree without talking.
#include <cstdint>
#include <filesystem>
#include <string>

#include "dlgen/core/job.hpp"

namespace dlgen::datasets {

// A byte range inside a file.
struct Extent {
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
};

class Layout {
 public:
  explicit Layout(DatasetSpec spec);
  const DatasetSpec& spec() const { return spec_; }
  std::uint64_t num_files() const { return spec_.num_files; }
  std::uint64_t num_samples() const { return spec_.num_files * spec_.samples_per_file; }
  // Relative to spec().dir: "00017/file_0001234.npz" style (subdirectory when files_per_dir > 0).
  std::filesystem::path relative_path(std::uint64_t file) const;
  std::filesystem::path path(std::uint64_t file) const { return spec_.dir / relative_path(file); }
  // Payload bytes of sample j of file i (drawn from spec().sample_size, deterministic).
  std::uint64_t sample_bytes(std::uint64_t file, std::uint32_t sample) const;
  // The whole file's size on disk, format framing included.
  std::uint64_t file_size(std::uint64_t file) const;
  // Where sample j of file i lives inside the file (its data, framing excluded where possible).
  Extent sample_extent(std::uint64_t file, std::uint32_t sample) const;
  std::uint64_t total_bytes() const;  // sum of file_size over all files

 private:
  DatasetSpec spec_;
};

}  // namespace dlgen::datasets
