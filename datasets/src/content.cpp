#include "dlgen/datasets/content.hpp"

#include <cstring>

#include "dlgen/core/distribution.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace dlgen::datasets {
namespace {

constexpr std::uint64_t rotl(std::uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}

void blocks_scalar(std::uint64_t (&s)[4][ContentStream::kLanes], std::uint8_t* p, std::size_t n) {
  constexpr std::size_t L = ContentStream::kLanes;
  for (; n > 0; --n, p += ContentStream::kBlock) {
    std::uint64_t out[L];
    for (std::size_t l = 0; l < L; ++l) {
      out[l] = rotl(s[0][l] + s[3][l], 23) + s[0][l];
      const std::uint64_t t = s[1][l] << 17;
      s[2][l] ^= s[0][l];
      s[3][l] ^= s[1][l];
      s[1][l] ^= s[2][l];
      s[0][l] ^= s[3][l];
      s[2][l] ^= t;
      s[3][l] = rotl(s[3][l], 45);
    }
    std::memcpy(p, out, sizeof out);  // little-endian host assumed (x86-64, aarch64)
  }
}

#if defined(__x86_64__)
// The same recurrence on lanes 0-3 and 4-7 as two independent vectors (their latency overlaps).
__attribute__((target("avx2"))) void blocks_avx2(std::uint64_t (&s)[4][ContentStream::kLanes],
                                                 std::uint8_t* p, std::size_t n) {
  __m256i* v = reinterpret_cast<__m256i*>(&s[0][0]);  // v[2k + h]: word k of lanes 4h..4h+3
  __m256i a0 = _mm256_load_si256(v + 0), a1 = _mm256_load_si256(v + 2),
          a2 = _mm256_load_si256(v + 4), a3 = _mm256_load_si256(v + 6);
  __m256i b0 = _mm256_load_si256(v + 1), b1 = _mm256_load_si256(v + 3),
          b2 = _mm256_load_si256(v + 5), b3 = _mm256_load_si256(v + 7);
  for (; n > 0; --n, p += ContentStream::kBlock) {
    __m256i sa = _mm256_add_epi64(a0, a3), sb = _mm256_add_epi64(b0, b3);
    const __m256i ra =
        _mm256_add_epi64(_mm256_or_si256(_mm256_slli_epi64(sa, 23), _mm256_srli_epi64(sa, 41)), a0);
    const __m256i rb =
        _mm256_add_epi64(_mm256_or_si256(_mm256_slli_epi64(sb, 23), _mm256_srli_epi64(sb, 41)), b0);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), ra);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p + 32), rb);
    const __m256i ta = _mm256_slli_epi64(a1, 17), tb = _mm256_slli_epi64(b1, 17);
    a2 = _mm256_xor_si256(a2, a0);
    b2 = _mm256_xor_si256(b2, b0);
    a3 = _mm256_xor_si256(a3, a1);
    b3 = _mm256_xor_si256(b3, b1);
    a1 = _mm256_xor_si256(a1, a2);
    b1 = _mm256_xor_si256(b1, b2);
    a0 = _mm256_xor_si256(a0, a3);
    b0 = _mm256_xor_si256(b0, b3);
    a2 = _mm256_xor_si256(a2, ta);
    b2 = _mm256_xor_si256(b2, tb);
    a3 = _mm256_or_si256(_mm256_slli_epi64(a3, 45), _mm256_srli_epi64(a3, 19));
    b3 = _mm256_or_si256(_mm256_slli_epi64(b3, 45), _mm256_srli_epi64(b3, 19));
  }
  _mm256_store_si256(v + 0, a0), _mm256_store_si256(v + 2, a1), _mm256_store_si256(v + 4, a2);
  _mm256_store_si256(v + 6, a3), _mm256_store_si256(v + 1, b0), _mm256_store_si256(v + 3, b1);
  _mm256_store_si256(v + 5, b2), _mm256_store_si256(v + 7, b3);
}
#endif

}  // namespace

ContentStream::ContentStream(std::uint64_t seed, std::uint64_t file) {
  // splitmix64 from the mixed (seed, file) fills the 32 state words; never all zero.
  std::uint64_t x = mix_seed(seed ^ 0x636f6e74656e7473ull, file);
  for (std::size_t l = 0; l < kLanes; ++l)
    for (int k = 0; k < 4; ++k) {
      std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      s_[k][l] = z ^ (z >> 31);
    }
}

void ContentStream::blocks(std::uint8_t* p, std::size_t n) {
#if defined(__x86_64__)
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2) return blocks_avx2(s_, p, n);
#endif
  blocks_scalar(s_, p, n);
}

void ContentStream::fill(std::uint8_t* p, std::size_t n) {
  const std::size_t head = n < left_ ? n : left_;
  std::memcpy(p, spare_ + (kBlock - left_), head);
  left_ -= head;
  p += head;
  n -= head;
  if (n == 0) return;
  const std::size_t whole = n / kBlock;
  if (whole > 0) blocks(p, whole);
  p += whole * kBlock;
  n -= whole * kBlock;
  if (n > 0) {
    blocks(spare_, 1);
    std::memcpy(p, spare_, n);
    left_ = kBlock - n;
  }
}

std::uint64_t ContentStream::next() {
  std::uint8_t b[8];
  fill(b, 8);
  std::uint64_t w;
  std::memcpy(&w, b, 8);
  return w;
}

}  // namespace dlgen::datasets
