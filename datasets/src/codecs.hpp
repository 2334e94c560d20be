#pragma once
// Per-format entry points behind encode_file / write_file (codec.cpp dispatches).
#include <filesystem>

#include "dlgen/datasets/codec.hpp"

namespace dlgen::datasets::detail {

Result<void> encode_jpeg(const Layout& layout, std::uint64_t file, Sink& sink);
Result<void> write_hdf5(const Layout& layout, std::uint64_t file, const std::filesystem::path& path,
                        std::size_t buffer_bytes, bool* synced);
std::string errno_text(int err);
// This thread's reusable write buffer of `bytes` bytes (moved into a FileSink and back).
AlignedBuffer& thread_buffer(std::size_t bytes);
// Opens `path` for writing with `flags`, with O_DIRECT when `direct` and the filesystem takes it.
Result<int> open_output(const std::filesystem::path& path, int flags, bool direct);
// Flushes `sink` (when `r` is ok), fsync()s when `sync`, closes `fd`; sets *synced (when given).
Result<void> finish_output(int fd, FileSink& sink, const std::filesystem::path& path,
                           Result<void> r, bool sync, bool* synced);

}  // namespace dlgen::datasets::detail
