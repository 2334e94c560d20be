#pragma once
// CRC-32C (Castagnoli), as TFRecord framing uses it, and TFRecord's "masked" form of it.
#include <cstddef>
#include <cstdint>

namespace dlgen::datasets {

// Continues a CRC-32C over `n` bytes (start with crc = 0). Uses SSE4.2 when the CPU has it.
std::uint32_t crc32c(std::uint32_t crc, const void* data, std::size_t n);
// TFRecord's mask: rotate right by 15 and add a constant, so CRCs of CRCs stay well spread.
inline std::uint32_t mask_crc32c(std::uint32_t crc) {
  return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

}  // namespace dlgen::datasets
