#pragma once
// Seeds of the HDF5 trace target, made from the text traces of corpus/trace_text (no binary
// files are committed): each text trace that parses is written as an HDF5 trace file.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "dlgen/trace/trace_io.hpp"
#include "dlgen/trace/trace_text.hpp"

namespace dlgen::fuzz {

// Returns how many seeds were written to `out_dir` (created if missing).
inline int make_h5_seeds(const std::filesystem::path& text_dir,
                         const std::filesystem::path& out_dir) {
  std::filesystem::create_directories(out_dir);
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(text_dir)) {
    std::ifstream in(e.path(), std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    auto t = trace::parse_trace_text(text);
    if (!t) continue;
    if (write_trace(out_dir / (e.path().stem().string() + ".h5"), *t)) ++n;
  }
  return n;
}

}  // namespace dlgen::fuzz
