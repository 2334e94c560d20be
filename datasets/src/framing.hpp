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

// --- JPEG --------------------------------------------------------------------------------------
constexpr std::uint64_t kJpegMinBytes = 2048;  // equals Layout::kMinJpegBytes

}  // namespace dlgen::datasets::framing
