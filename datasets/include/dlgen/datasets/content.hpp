#pragma once
// The content stream of a file: eight interleaved xoshiro256++ generators, each step yielding one
// 64-byte block (word l of the block from lane l, little-endian). xoshiro256++ uses only adds,
// xors, shifts and rotates, so the eight lanes run as two 4-lane AVX2 vectors (~15-20 GB/s per
// core) with a scalar path giving the same bytes on CPUs without AVX2. The output is full-entropy
// pseudo-random data: no 4 KiB block of a dataset repeats and nothing compresses, so storage
// with compression or deduplication is not flattered. Byte-continuous across fill() calls, so the
// bytes of a file never depend on how a sink cut its buffer.
#include <cstddef>
#include <cstdint>

namespace dlgen::datasets {

class ContentStream {
 public:
  static constexpr std::size_t kLanes = 8;
  static constexpr std::size_t kBlock = kLanes * 8;  // bytes per step

  // Salted so that file contents and sample sizes are independent draws of the same seed.
  ContentStream(std::uint64_t seed, std::uint64_t file);

  void fill(std::uint8_t* p, std::size_t n);
  // The next 8 bytes of the stream as a little-endian word.
  std::uint64_t next();

 private:
  // Writes `blocks` 64-byte blocks at p and advances the state.
  void blocks(std::uint8_t* p, std::size_t blocks);

  alignas(32) std::uint64_t s_[4][kLanes];  // s_[k][l]: state word k of lane l
  alignas(32) std::uint8_t spare_[kBlock];  // the current block, partly handed out
  std::size_t left_ = 0;                    // bytes of spare_ not yet handed out (at its end)
};

}  // namespace dlgen::datasets
