#include "chunk_writer.hpp"

#include <bit>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace dlgen::trace {

static_assert(std::endian::native == std::endian::little,
              "chunks are written as raw bytes: the trace's columns are little-endian");

Deflater::Deflater() {
  // Z_RLE looks for matches at distance 1 only; the level sizes tables and picks the match finder.
  ready_[kFast] = deflateInit2(&z_[kFast], 1, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY) == Z_OK;
  ready_[kRle] = deflateInit2(&z_[kRle], 1, Z_DEFLATED, 15, 8, Z_RLE) == Z_OK;
  ready_[kThorough] =
      deflateInit2(&z_[kThorough], 6, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY) == Z_OK;
}

Deflater::~Deflater() {
  for (int i = 0; i < 3; ++i)
    if (ready_[i]) deflateEnd(&z_[i]);
}

const std::vector<std::uint8_t>& Deflater::compress(const void* in, std::size_t n, Mode mode) {
  z_stream& z = z_[mode];
  out_.clear();
  if (!ready_[mode] || deflateReset(&z) != Z_OK) return out_;
  out_.resize(deflateBound(&z, static_cast<uLong>(n)));
  z.next_in = static_cast<Bytef*>(const_cast<void*>(in));
  z.avail_in = static_cast<uInt>(n);
  z.next_out = out_.data();
  z.avail_out = static_cast<uInt>(out_.size());
  if (deflate(&z, Z_FINISH) != Z_STREAM_END) {
    out_.clear();
    return out_;
  }
  out_.resize(out_.size() - z.avail_out);
  return out_;
}

namespace {

#if defined(__SSE2__)
// 8 elements of 4 bytes (32 bytes in) -> 4 lanes of 8 bytes, by three rounds of byte interleaving.
inline void shuffle8x4(const std::uint8_t* in, std::size_t n, std::uint8_t* out) {
  __m128i a0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in));
  __m128i a1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 16));
  __m128i b0 = _mm_unpacklo_epi8(a0, a1), b1 = _mm_unpackhi_epi8(a0, a1);
  __m128i c0 = _mm_unpacklo_epi8(b0, b1), c1 = _mm_unpackhi_epi8(b0, b1);
  __m128i d0 = _mm_unpacklo_epi8(c0, c1), d1 = _mm_unpackhi_epi8(c0, c1);
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out), d0);
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out + n), _mm_srli_si128(d0, 8));
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out + 2 * n), d1);
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out + 3 * n), _mm_srli_si128(d1, 8));
}

// 8 elements of 8 bytes (64 bytes in) -> 8 lanes of 8 bytes (an 8x8 byte transpose).
inline void shuffle8x8(const std::uint8_t* in, std::size_t n, std::uint8_t* out) {
  auto row = [in](int i) { return _mm_loadl_epi64(reinterpret_cast<const __m128i*>(in + 8 * i)); };
  __m128i t0 = _mm_unpacklo_epi8(row(0), row(1)), t1 = _mm_unpacklo_epi8(row(2), row(3));
  __m128i t2 = _mm_unpacklo_epi8(row(4), row(5)), t3 = _mm_unpacklo_epi8(row(6), row(7));
  __m128i u0 = _mm_unpacklo_epi16(t0, t1), u1 = _mm_unpackhi_epi16(t0, t1);
  __m128i u2 = _mm_unpacklo_epi16(t2, t3), u3 = _mm_unpackhi_epi16(t2, t3);
  __m128i v[4] = {_mm_unpacklo_epi32(u0, u2), _mm_unpackhi_epi32(u0, u2),
                  _mm_unpacklo_epi32(u1, u3), _mm_unpackhi_epi32(u1, u3)};
  for (int k = 0; k < 4; ++k) {  // v[k] holds lanes 2k and 2k+1
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out + 2 * k * n), v[k]);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out + (2 * k + 1) * n), _mm_srli_si128(v[k], 8));
  }
}
#endif

void shuffle_scalar(const std::uint8_t* in, std::size_t first, std::size_t n, std::size_t size,
                    std::uint8_t* out) {
  for (std::size_t i = first; i < n; ++i)
    for (std::size_t j = 0; j < size; ++j) out[j * n + i] = in[i * size + j];
}

}  // namespace

void byte_shuffle(const std::uint8_t* in, std::size_t n, std::size_t elem_size, std::uint8_t* out) {
  if (elem_size == 1) {
    std::memcpy(out, in, n);
    return;
  }
  std::size_t done = 0;
#if defined(__SSE2__)
  // The trace's column widths, 8 elements per step (~10x the scalar loop).
  if (elem_size == 4)
    for (; done + 8 <= n; done += 8) shuffle8x4(in + 4 * done, n, out + done);
  else if (elem_size == 8)
    for (; done + 8 <= n; done += 8) shuffle8x8(in + 8 * done, n, out + done);
#endif
  shuffle_scalar(in, done, n, elem_size, out);
}

ChunkColumn::ChunkColumn(hid_t dataset, std::size_t elem_size, bool shuffle, hsize_t chunk_elems,
                         hsize_t start)
    : dataset_(dataset),
      elem_size_(elem_size),
      shuffle_(shuffle),
      chunk_elems_(chunk_elems),
      chunk_index_(start / chunk_elems) {
  part_.reserve(chunk_elems_ * elem_size_);
}

bool ChunkColumn::append(const void* data, std::size_t n, Deflater& z) {
  const auto* p = static_cast<const std::uint8_t*>(data);
  const std::size_t chunk_bytes = chunk_elems_ * elem_size_;
  std::size_t bytes = n * elem_size_;
  while (bytes > 0) {
    std::size_t take = std::min(bytes, chunk_bytes - part_.size());
    part_.insert(part_.end(), p, p + take);
    partial_written_ = false;
    p += take;
    bytes -= take;
    if (part_.size() == chunk_bytes) {
      if (!write_chunk(z, true)) return false;
      part_.clear();
      partial_written_ = true;
      ++chunk_index_;
    }
  }
  return true;
}

bool ChunkColumn::write_partial(Deflater& z, bool final) {
  if ((partial_written_ && (!final || partial_final_)) || part_.empty()) return true;
  if (!write_chunk(z, false, !final)) return false;
  partial_written_ = true;
  partial_final_ = final;
  return true;
}

const std::vector<std::uint8_t>& ChunkColumn::encode(const std::uint8_t* raw, Encoding e,
                                                     Deflater& z) {
  const std::size_t chunk_bytes = chunk_elems_ * elem_size_;
  if (e.shuffle && elem_size_ > 1) {
    if (shuffled_of_ != raw) {  // a trial encodes the same chunk shuffled twice: shuffle once
      scratch_.resize(chunk_bytes);
      byte_shuffle(raw, chunk_elems_, elem_size_, scratch_.data());
      shuffled_of_ = raw;
    }
    raw = scratch_.data();
  }
  return z.compress(raw, chunk_bytes, e.mode);
}

bool ChunkColumn::write_chunk(Deflater& z, bool complete, bool interim) {
  const std::size_t chunk_bytes = chunk_elems_ * elem_size_;
  shuffled_of_ = nullptr;
  const std::uint8_t* raw = part_.data();
  std::vector<std::uint8_t> padded;
  if (part_.size() < chunk_bytes) {  // HDF5 stores whole chunks: pad the tail with zeros
    padded.assign(chunk_bytes, 0);
    std::memcpy(padded.data(), part_.data(), part_.size());
    raw = padded.data();
  }
  if (interim) {  // shuffled run-length: the cheapest encoding that is still small on disk
    const Encoding e = shuffle_ ? kEncodings[0] : Encoding{false, Deflater::kRle};
    const auto& packed = encode(raw, e, z);
    if (packed.empty()) return false;
    hsize_t offset = chunk_index_ * chunk_elems_;
    return H5Dwrite_chunk(dataset_, H5P_DEFAULT, 0, &offset, packed.size(), packed.data()) >= 0;
  }
  const std::size_t n_encodings = shuffle_ ? std::size(kEncodings) : 1;
  if (!shuffle_ && !forced_) encoding_ = 2;  // unshuffled only, level 1
  const std::uint8_t* out = nullptr;
  std::size_t out_size = 0;
  // Trials: on the first complete chunk and every kRetrial-th after, and on the first write of a
  // partial chunk if none was made yet (short traces). A partial chunk is re-encoded at every
  // flush (every 2 s): repeating the trial there was ~2% of a core in a quiet capture.
  const bool trial = complete ? complete_chunks_++ % kRetrial == 0 : !tried_;
  tried_ |= trial;
  if (shuffle_ && trial && !forced_) {
    // Keep the smallest cheap encoding of this chunk (or the thorough one if it saves more than
    // a fifth of a sizeable result), and use it for the next ones.
    for (std::size_t i = 0; i < n_encodings; ++i) {
      // The thorough encoding (unshuffled level 6) is worth its CPU only for columns whose best
      // cheap encoding was unshuffled (offset and return deltas) and whose result is sizeable.
      if (i >= kCheap &&
          ((kEncodings[encoding_].shuffle && elem_size_ > 1) || best_.size() * 64 <= chunk_bytes))
        break;
      const auto& packed = encode(raw, kEncodings[i], z);
      if (packed.empty()) return false;
      // (Thorough: only where bytes matter, i.e. the cheap result is over 1/64 of the raw chunk.)
      const bool better =
          i < kCheap ? packed.size() < best_.size()
                     : packed.size() * 5 < best_.size() * 4 && best_.size() * 64 > chunk_bytes;
      if (out == nullptr || better) {
        best_ = packed;
        encoding_ = i;
        out = best_.data();
      }
    }
    out_size = best_.size();
  } else {
    const auto& packed = encode(raw, kEncodings[encoding_], z);
    if (packed.empty()) return false;
    out = packed.data();
    out_size = packed.size();
  }
  // Filter mask: bit 0 set = the first filter of the pipeline (shuffle) was not applied.
  const std::uint32_t mask = shuffle_ && !kEncodings[encoding_].shuffle ? 1u : 0u;
  hsize_t offset = chunk_index_ * chunk_elems_;
  return H5Dwrite_chunk(dataset_, H5P_DEFAULT, mask, &offset, out_size, out) >= 0;
}

}  // namespace dlgen::trace
