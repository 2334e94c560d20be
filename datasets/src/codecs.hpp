#pragma once
// Per-format entry points behind encode_file / write_file (codec.cpp dispatches).
#include <filesystem>

#include "dlgen/datasets/codec.hpp"

namespace dlgen::datasets::detail {

Result<void> encode_jpeg(const Layout& layout, std::uint64_t file, Sink& sink);
Result<void> write_hdf5(const Layout& layout, std::uint64_t file, const std::filesystem::path& path,
                        std::size_t buffer_bytes);
std::string errno_text(int err);

}  // namespace dlgen::datasets::detail
