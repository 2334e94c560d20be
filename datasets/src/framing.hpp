#pragma once
// Byte-exact framing arithmetic shared by the Layout (sizes, extents) and the codecs (bytes).
#include <cstdint>
#include <string>
#include <vector>

namespace dlgen::datasets::framing {

// --- NPY v1 / NPZ (stored zip) -------------------------------------------------------------
// The NPY v1 header for a uint8 vector of n elements, padded with spaces and ending in '\n' so
// that the array data starts on a 64-byte boundary of the .npy member, as numpy itself writes.
std::string npy_header(std::uint64_t n);
std::string npz_member_name(std::uint32_t sample);  // "x_<j>.npy"
constexpr std::uint64_t kZipLocalHeader = 30;
constexpr std::uint64_t kZipCentralHeader = 46;
constexpr std::uint64_t kZipEnd = 22;

// --- TFRecord --------------------------------------------------------------------------------
// The tf.train.Example protobuf bytes that precede an n-byte payload in
// Example{features{feature{"x": Feature{bytes_list{value: [payload]}}}}}.
std::vector<std::uint8_t> example_prefix(std::uint64_t n);
constexpr std::uint64_t kRecordHeader = 12;  // uint64 length + masked CRC32C of it
constexpr std::uint64_t kRecordFooter = 4;   // masked CRC32C of the data

// --- HDF5 --------------------------------------------------------------------------------------
// Measured once per shape: with `rows` rows of `row` bytes the file is overhead + rows * row bytes
// and row j starts at data_offset + j * row (contiguous storage, metadata never depends on row).
struct Hdf5Frame {
  std::uint64_t data_offset = 0;
  std::uint64_t overhead = 0;
};
Hdf5Frame hdf5_frame(std::uint32_t rows, bool with_sizes);

// --- tar (POSIX ustar, as GNU tar and Python's tarfile write it) -------------------------------
// A member is a 512-byte header, then its bytes padded with zeros to a whole block; the archive
// ends in two zero blocks, and its size is padded with zeros to a whole record (tar's blocking
// factor 20: 10,240 B). The members' data is what a reader yields; the end is read after it.
constexpr std::uint64_t kTarBlock = 512;
constexpr std::uint64_t kTarRecord = 20 * kTarBlock;  // equals Layout::kTarRecordBytes
constexpr std::uint64_t tar_padded(std::uint64_t n) {
  return (n + kTarBlock - 1) / kTarBlock * kTarBlock;
}
// The archive's size when its members end at `members_end`: the end blocks, then the record.
constexpr std::uint64_t tar_size(std::uint64_t members_end) {
  return (members_end + 2 * kTarBlock + kTarRecord - 1) / kTarRecord * kTarRecord;
}
// The header of member `name` of `size` bytes (a regular file, mode 0644, mtime 0, owner 0).
std::vector<std::uint8_t> tar_header(const std::string& name, std::uint64_t size);

// --- JPEG --------------------------------------------------------------------------------------
constexpr std::uint64_t kJpegMinBytes = 2048;  // equals Layout::kMinJpegBytes

}  // namespace dlgen::datasets::framing
