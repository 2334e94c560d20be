#pragma once
// The content stream: splitmix64 output as bytes, byte-continuous across fill() calls so the
// bytes of a file never depend on how a sink cut its buffer. Several GB/s per core.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "dlgen/core/distribution.hpp"

namespace dlgen::datasets {

class ContentStream {
 public:
  // Salted so that file contents and sample sizes are independent draws of the same seed.
  ContentStream(std::uint64_t seed, std::uint64_t file)
      : state_(mix_seed(seed ^ 0x636f6e74656e7473ull, file)) {}

  void fill(std::uint8_t* p, std::size_t n) {
    while (n > 0 && left_ > 0) {  // bytes left over from the last word
      *p++ = static_cast<std::uint8_t>(word_ >> (8 * (8 - left_)));
      --left_;
      --n;
    }
    while (n >= 8) {
      const std::uint64_t w = next();
      std::memcpy(p, &w, 8);
      p += 8;
      n -= 8;
    }
    if (n > 0) {
      word_ = next();
      left_ = 8;
      while (n--) {
        *p++ = static_cast<std::uint8_t>(word_ >> (8 * (8 - left_)));
        --left_;
      }
    }
  }
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }

 private:
  std::uint64_t state_;
  std::uint64_t word_ = 0;
  unsigned left_ = 0;
};

}  // namespace dlgen::datasets
