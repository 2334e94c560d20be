#pragma once
// Per-format entry points behind encode_file / write_file (codec.cpp dispatches).
#include <filesystem>

#include "dlgen/datasets/codec.hpp"

namespace dlgen::datasets::detail {

Result<void> encode_jpeg(const Layout& layout, std::uint64_t file, Sink& sink);
Result<void> encode_parquet(const Layout& layout, std::uint64_t file, Sink& sink);
// Takes `fd` over (closed on return); `path` names the file in errors.
Result<void> write_hdf5(const Layout& layout, std::uint64_t file, int fd,
                        const std::filesystem::path& path, std::size_t buffer_bytes, bool* synced);
std::string errno_text(int err);
// This thread's reusable write buffer of `bytes` bytes (moved into a FileSink and back).
AlignedBuffer& thread_buffer(std::size_t bytes);
// Sets O_DIRECT on `fd` where the filesystem takes it; elsewhere the file stays buffered.
void try_direct(int fd);
// Flushes `sink` (when `r` is ok), fsync()s when `sync`, closes `fd`; sets *synced (when given).
Result<void> finish_output(int fd, FileSink& sink, const std::filesystem::path& path,
                           Result<void> r, bool sync, bool* synced);

}  // namespace dlgen::datasets::detail
