#pragma once
// Per-format entry points behind encode_file / write_file (codec.cpp dispatches).
#include <filesystem>

#include "dlgen/datasets/codec.hpp"

namespace dlgen::datasets::detail {

Result<void> encode_jpeg(const Layout& layout, std::uint64_t file, Sink& sink);
Result<void> write_hdf5(const Layout& layout, std::uint64_t file, const std::filesystem::path& path,
                        std::size_t buffer_bytes);
std::string errno_text(int err);
// This thread's reusable write buffer of `bytes` bytes (moved into a FileSink and back).
std::vector<std::uint8_t>& thread_buffer(std::size_t bytes);

}  // namespace dlgen::datasets::detail
