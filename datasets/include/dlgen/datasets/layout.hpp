#pragma once
// The dataset layout: a pure function of the DatasetSpec. File i's path, size and where each of its
// samples lives are computed, never listed, so generator and replay agree without talking.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "dlgen/core/job.hpp"

namespace dlgen::datasets {

namespace parquet {
struct FileGeometry;
}

// A byte range inside a file.
struct Extent {
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
};

// Per-file geometry (sample extents and file sizes) is computed once, in the constructor, and
// shared by copies of the Layout; every accessor is then O(1) and safe to call from many threads.
//
// File framing by format (exact, so file_size is what lands on disk):
//   raw       samples back to back.
//   npz       an uncompressed zip of "x_<j>.npy" members (NPY v1, uint8, shape (n,)); a sample's
//             extent is its array data, after the zip local header and the NPY header.
//   hdf5      dataset "data", uint8, shape (samples, row), contiguous; row = the largest sample of
//             the file; sample j's extent is row j's first sample_bytes(j) bytes. When sizes vary a
//             dataset "sizes" (uint64, samples) holds each sample's length.
//   jpeg      one decodable JPEG per file of exactly max(sum of its samples, kMinJpegBytes) bytes;
//             with one sample per file its extent is the whole file, with several they are
//             consecutive slices of it.
//   tfrecord  one record per sample: uint64 length, masked CRC32C(length), a tf.train.Example
//             {"x": bytes_list[payload]}, masked CRC32C(data); a sample's extent is its payload.
//   parquet   one row per sample, row groups of column chunks (parquet.hpp); a sample's extent is
//             its first column's value (uncompressed) or the page holding it (compressed).
//   tar       a POSIX (ustar) member per sample: a 512 B header, its bytes, zeros to the next 512 B;
//             then two zero blocks and zeros to a whole kTarRecordBytes record. A sample's extent
//             is its member's data.
class Layout {
 public:
  static constexpr std::uint64_t kMinJpegBytes = 2048;
  static constexpr std::uint64_t kTarRecordBytes = 10240;  // tar's record: 20 blocks of 512 B

  // How the geometry is computed. With a fixed sample size, `automatic` computes every size and
  // extent arithmetically (O(1) memory, no per-sample draws); `tables` always fills the per-sample
  // tables, the reference that the arithmetic must equal byte for byte (tests compare the two).
  enum class Geometry_mode { automatic, tables };

  explicit Layout(DatasetSpec spec, Geometry_mode mode = Geometry_mode::automatic);
  const DatasetSpec& spec() const { return spec_; }
  std::uint64_t num_files() const { return spec_.num_files; }
  std::uint64_t num_samples() const { return spec_.num_files * spec_.samples_per_file; }
  // Relative to spec().dir: "00017/file_0001234.npz" style (subdirectory when files_per_dir > 0).
  std::filesystem::path relative_path(std::uint64_t file) const;
  std::filesystem::path path(std::uint64_t file) const { return spec_.dir / relative_path(file); }
  // Payload bytes of sample j of file i (drawn from spec().sample_size, deterministic, at least 1).
  std::uint64_t sample_bytes(std::uint64_t file, std::uint32_t sample) const;
  // The whole file's size on disk, format framing included.
  std::uint64_t file_size(std::uint64_t file) const;
  // Where sample j of file i lives inside the file (its data, framing excluded where possible).
  Extent sample_extent(std::uint64_t file, std::uint32_t sample) const;
  std::uint64_t total_bytes() const;  // sum of file_size over all files
  // The longest sample_extent of any sample of any file: what one sample's read (read = "sample")
  // needs at most. O(1) with a fixed sample size; a pass over the per-sample tables otherwise.
  std::uint64_t largest_sample_extent() const;
  // Number of subdirectories (0 when flat) and the relative path of subdirectory d.
  std::uint64_t num_dirs() const;
  std::filesystem::path relative_dir(std::uint64_t dir) const;
  // format = "parquet": every file's geometry (null for other formats).
  const parquet::FileGeometry* parquet() const;
  // File name extension of the format, with the dot (".npz").
  static const char* extension(Format format);

  struct Geometry;  // private tables (layout.cpp)

 private:
  DatasetSpec spec_;
  std::shared_ptr<const Geometry> geo_;
};

}  // namespace dlgen::datasets
