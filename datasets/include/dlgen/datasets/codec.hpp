#pragma once
// One codec per on-disk format: writes file i of a Layout so that it is valid in its format
// (numpy.load, h5py, PIL and TFRecord readers open it) and exactly Layout::file_size bytes long.
// Content is a fast seeded PRNG stream, a pure function of (spec.seed, file index): never zeros,
// so compressing or deduplicating storage is not flattered.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "dlgen/core/result.hpp"
#include "dlgen/datasets/layout.hpp"

namespace dlgen::datasets {

// Where a codec's bytes go: appended in order, with `patch` for a few bytes already written
// (a zip local header's CRC, known only after its member's data).
class Sink {
 public:
  virtual ~Sink() = default;
  // A writable window at the current position of at least 1 and at most `max` bytes; the codec
  // fills a prefix of it and calls commit with the count. Lets content be generated in place.
  virtual Result<std::span<std::uint8_t>> acquire(std::size_t max) = 0;
  virtual void commit(std::size_t n) = 0;
  virtual Result<void> patch(std::uint64_t offset, std::span<const std::uint8_t> bytes) = 0;
  // Says that [offset, offset + n), written moments ago (within the last kHoldWindow bytes), will
  // be patched: a sink that sends bytes on before the file ends (the generator's engine sink,
  // whose requests may be in flight or, on an object store, uploaded parts) keeps them in memory
  // until the patch. Sinks that can rewrite what they wrote ignore it.
  virtual void hold(std::uint64_t offset, std::size_t n) {
    (void)offset;
    (void)n;
  }
  virtual std::uint64_t position() const = 0;
  Result<void> write(std::span<const std::uint8_t> bytes);
};
// How far back a hold() may reach: codecs hold bytes they wrote at most this long ago.
inline constexpr std::size_t kHoldWindow = 4096;

// A growing in-memory file.
class MemorySink final : public Sink {
 public:
  Result<std::span<std::uint8_t>> acquire(std::size_t max) override;
  void commit(std::size_t n) override;
  Result<void> patch(std::uint64_t offset, std::span<const std::uint8_t> bytes) override;
  std::uint64_t position() const override { return size_; }
  std::vector<std::uint8_t> take();

 private:
  std::vector<std::uint8_t> bytes_;
  std::size_t size_ = 0;
};

// A page-aligned heap buffer (O_DIRECT needs the memory aligned as well as the file offsets).
class AlignedBuffer {
 public:
  static constexpr std::size_t kAlign = 4096;
  AlignedBuffer() = default;
  explicit AlignedBuffer(std::size_t bytes);  // rounded up to a multiple of kAlign, uninitialised
  AlignedBuffer(AlignedBuffer&& o) noexcept : p_(o.p_), n_(o.n_) { o.p_ = nullptr, o.n_ = 0; }
  AlignedBuffer& operator=(AlignedBuffer&& o) noexcept;
  ~AlignedBuffer();
  std::uint8_t* data() { return p_; }
  std::size_t size() const { return n_; }

 private:
  std::uint8_t* p_ = nullptr;
  std::size_t n_ = 0;
};

// Large pwrite()s to an open descriptor from `start_offset`; flush() before closing. When the
// descriptor has O_DIRECT, every 4 KiB-aligned stretch of a full buffer goes straight to the
// device (no copy into the page cache, no dirty pages to write back later) and only an unaligned
// head, the file's tail and patches of already-written bytes go through the page cache (the
// descriptor's O_DIRECT is switched off around those writes; Linux keeps both views coherent).
// A filesystem refusing an aligned direct write (EINVAL) gets buffered writes from then on.
class FileSink final : public Sink {
 public:
  FileSink(int fd, std::filesystem::path name, std::uint64_t start_offset = 0,
           std::size_t buffer_bytes = 4u << 20);
  // Uses `buffer` (replaced by a 4 KiB one when smaller) and hands it back with take_buffer(),
  // so a writer thread reuses one buffer instead of faulting in a fresh one per file.
  FileSink(int fd, std::filesystem::path name, std::uint64_t start_offset, AlignedBuffer buffer);
  AlignedBuffer take_buffer() { return std::move(buffer_); }
  Result<std::span<std::uint8_t>> acquire(std::size_t max) override;
  void commit(std::size_t n) override;
  Result<void> patch(std::uint64_t offset, std::span<const std::uint8_t> bytes) override;
  std::uint64_t position() const override { return base_ + used_; }
  Result<void> flush();
  bool direct() const { return direct_; }  // still writing with O_DIRECT

 private:
  void start_at(std::uint64_t offset);
  Result<void> write_range(const std::uint8_t* p, std::size_t n, std::uint64_t off);
  Result<void> write_buffered(const std::uint8_t* p, std::size_t n, std::uint64_t off);

  int fd_;
  std::filesystem::path name_;
  AlignedBuffer buffer_;
  std::uint64_t base_ = 0;  // file offset of buffer_[0]; 4 KiB-aligned, so buffer index and file
                            // offset agree modulo 4 KiB and aligned stretches sit on aligned memory
  std::size_t begin_ = 0;   // buffer_[begin_, used_) holds bytes not yet written
  std::size_t used_ = 0;
  bool direct_ = false;
};

// Streams file `file` into `sink` (raw, npz, jpeg, tfrecord; hdf5 needs a path: write_file, or
// write_hdf5_skeleton then encode_hdf5_rows).
Result<void> encode_file(const Layout& layout, std::uint64_t file, Sink& sink);
// HDF5 in two steps, for writers that send the rows themselves: the library writes the file's
// metadata into `fd` (an empty file the caller created; `path` names it in errors) and returns the
// offset of row 0; then encode_hdf5_rows streams the rows into a sink positioned at that offset.
Result<std::uint64_t> write_hdf5_skeleton(const Layout& layout, std::uint64_t file, int fd,
                                          const std::filesystem::path& path);
Result<void> encode_hdf5_rows(const Layout& layout, std::uint64_t file, Sink& sink);
// Files of at least this many bytes are written with O_DIRECT where the filesystem allows it, and
// fsync()ed before write_file returns (their data went to the device already, so the fsync only
// commits metadata). Smaller files go through the page cache: one syncfs() at the end is cheaper
// than a direct write's device round trip and an fsync per file.
inline constexpr std::uint64_t kDirectMinBytes = 1u << 20;
// Writes file `file` at `path` (created or truncated; a symbolic link there is refused, never
// written through), every format. `buffer_bytes`: write size. `synced`, when given, is set to
// whether the file was fsync()ed (on disk when this returns).
Result<void> write_file(const Layout& layout, std::uint64_t file, const std::filesystem::path& path,
                        std::size_t buffer_bytes = 4u << 20, bool* synced = nullptr);
// The same into `fd`: an empty file the caller created and opened for writing (the generator
// creates its files with openat(O_CREAT | O_EXCL | O_NOFOLLOW) below a directory it opened without
// following links). Takes `fd` over: it is closed when this returns. `path` names it in errors.
Result<void> write_file(const Layout& layout, std::uint64_t file, int fd,
                        const std::filesystem::path& path, std::size_t buffer_bytes = 4u << 20,
                        bool* synced = nullptr);
// The whole file in memory, every format (hdf5 goes through a temporary file); for tests and tools.
Result<std::vector<std::uint8_t>> encode_to_memory(const Layout& layout, std::uint64_t file);

}  // namespace dlgen::datasets
