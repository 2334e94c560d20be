#pragma once
// Appends to a chunked, shuffled and deflated 1-D HDF5 dataset by writing whole chunks directly
// (H5Dwrite_chunk): the byte shuffle and the deflate stream are produced here instead of by
// HDF5's filter pipeline. The file is what HDF5 itself could write: the dataset declares HDF5's
// own shuffle + deflate filters, every chunk is an ordinary zlib stream, and a chunk stored
// unshuffled says so in its filter mask (HDF5 skips that filter when reading it). So any HDF5
// reader, h5py included, decodes it.
// Why: the capture writes the trace while the traced program runs, and zlib level 6 through the
// pipeline cost ~0.9 us per event. Each column instead picks, by trial on its first chunk and
// every kRetrial-th after, the smallest of three cheap encodings: shuffled + run-length deflate
// (Z_RLE: byte runs, ideal for high bytes and repeated fields), shuffled + deflate level 1, or
// unshuffled + deflate level 1 (multi-byte patterns such as offset deltas). Within ~5% of level 6
// in size at about a quarter of the CPU (bench/trace/README.md).
#include <hdf5.h>
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

namespace dlgen::trace {

// zlib streams: level 1 with the default or the run-length strategy, or level 6.
class Deflater {
 public:
  enum Mode { kFast = 0, kRle = 1, kThorough = 2 };
  Deflater();
  ~Deflater();
  Deflater(const Deflater&) = delete;
  Deflater& operator=(const Deflater&) = delete;
  // A zlib stream of `in` (what HDF5's deflate filter stores); empty on failure.
  const std::vector<std::uint8_t>& compress(const void* in, std::size_t n, Mode mode);

 private:
  z_stream z_[3]{};
  bool ready_[3]{};
  std::vector<std::uint8_t> out_;
};

// HDF5's shuffle filter: byte j of element i goes to out[j * n + i] (n = whole elements).
void byte_shuffle(const std::uint8_t* in, std::size_t n, std::size_t elem_size, std::uint8_t* out);

class ChunkColumn {
 public:
  // `dataset` stays owned by the caller and must outlive this column; it must have been created
  // with chunks of `chunk_elems`, then (if `shuffle`) H5Pset_shuffle, then H5Pset_deflate.
  // `start` elements are already in the dataset (a multiple of chunk_elems).
  ChunkColumn(hid_t dataset, std::size_t elem_size, bool shuffle, hsize_t chunk_elems,
              hsize_t start = 0);

  // Appends `n` elements of elem_size little-endian bytes each; writes every chunk they complete.
  // The dataset's extent must already cover them.
  bool append(const void* data, std::size_t n, Deflater& z);
  // Writes the incomplete last chunk (zero padded; rewritten when more data completes it), so
  // the dataset holds every element appended so far. Unless `final`, with the cheapest encoding
  // (shuffled run-length) and no trial: a capture rewrites it at every flush until it fills.
  // (Stored uncompressed was cheaper still, but HDF5 does not reuse the freed space of a chunk
  // rewritten smaller: +1 MB of dead space per trace.)
  bool write_partial(Deflater& z, bool final = true);

  // Tests: use encoding `i` (index into kEncodings) for every chunk from now on, no trials.
  void force_encoding(std::size_t i) {
    forced_ = true;
    encoding_ = i;
  }
  static constexpr std::size_t encodings() { return std::size(kEncodings); }

 private:
  struct Encoding {
    bool shuffle;
    Deflater::Mode mode;
  };
  // Cheap encodings first; the thorough one (level 6, ~3x the CPU) is kept only when it saves
  // more than a fifth of the best cheap one's bytes, and those are over 1/64 of the raw chunk.
  static constexpr Encoding kEncodings[] = {{true, Deflater::kRle},
                                            {true, Deflater::kFast},
                                            {false, Deflater::kFast},
                                            {false, Deflater::kThorough}};
  static constexpr std::size_t kCheap = 3;
  static constexpr std::uint64_t kRetrial = 16;  // chunks between trials of all encodings

  bool write_chunk(Deflater& z, bool complete, bool interim = false);
  const std::vector<std::uint8_t>& encode(const std::uint8_t* raw, Encoding e, Deflater& z);

  hid_t dataset_;
  std::size_t elem_size_;
  bool shuffle_;  // the dataset declares the shuffle filter
  hsize_t chunk_elems_;
  hsize_t chunk_index_;             // chunk being filled
  std::vector<std::uint8_t> part_;  // its elements so far
  std::vector<std::uint8_t> scratch_, best_;
  const std::uint8_t* shuffled_of_ = nullptr;  // the chunk data scratch_ holds shuffled, if any
  bool partial_written_ = true;                // part_ (if any) already on disk as it is
  bool partial_final_ = false;                 // ... with its final encoding
  std::size_t encoding_ = 0;                   // index into kEncodings, last chosen by trial
  std::uint64_t complete_chunks_ = 0;
  bool tried_ = false;  // a trial was made (encoding_ is a measured choice)
  bool forced_ = false;
};

}  // namespace dlgen::trace
