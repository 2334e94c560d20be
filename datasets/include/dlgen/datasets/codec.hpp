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
  virtual std::uint64_t position() const = 0;
  Result<void> write(std::span<const std::uint8_t> bytes);
};

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

// Large buffered pwrite()s to an open descriptor from `start_offset`; flush() before closing.
class FileSink final : public Sink {
 public:
  FileSink(int fd, std::filesystem::path name, std::uint64_t start_offset = 0,
           std::size_t buffer_bytes = 4u << 20);
  // Uses `buffer` (resized to at least 4 KiB when smaller) and hands it back with take_buffer(),
  // so a writer thread reuses one buffer instead of faulting in a fresh one per file.
  FileSink(int fd, std::filesystem::path name, std::uint64_t start_offset,
           std::vector<std::uint8_t> buffer);
  std::vector<std::uint8_t> take_buffer() { return std::move(buffer_); }
  Result<std::span<std::uint8_t>> acquire(std::size_t max) override;
  void commit(std::size_t n) override;
  Result<void> patch(std::uint64_t offset, std::span<const std::uint8_t> bytes) override;
  std::uint64_t position() const override { return flushed_ + used_; }
  Result<void> flush();

 private:
  int fd_;
  std::filesystem::path name_;
  std::vector<std::uint8_t> buffer_;
  std::uint64_t flushed_;  // file offset of buffer_[0]
  std::size_t used_ = 0;
};

// Streams file `file` into `sink` (raw, npz, jpeg, tfrecord; hdf5 needs a path: write_file).
Result<void> encode_file(const Layout& layout, std::uint64_t file, Sink& sink);
// Writes file `file` at `path` (created or truncated), every format. `buffer_bytes`: write size.
Result<void> write_file(const Layout& layout, std::uint64_t file, const std::filesystem::path& path,
                        std::size_t buffer_bytes = 4u << 20);
// The whole file in memory, every format (hdf5 goes through a temporary file); for tests and tools.
Result<std::vector<std::uint8_t>> encode_to_memory(const Layout& layout, std::uint64_t file);

}  // namespace dlgen::datasets
