#pragma once
// Members of a zip archive read one at a time (images in one .zip: CelebA/FFHQ zips, StyleGAN's
// dataset_tool; each DataLoader worker opens its own zipfile.ZipFile and calls ZipFile.read(name)
// per sample). The members are of all sizes, so their reads lie on no grid (sample_files.cpp's
// layout_of): each member is a run of reads instead, a seek to its local header and the reads
// that follow on from there through Python's buffer. The member offsets are the starts of those
// runs, less the archive's index (end record and central directory) that every process opening
// the archive reads first.
#include <cstdint>
#include <optional>
#include <vector>

#include "dlgen/analysis/summary.hpp"
#include "dlgen/trace/trace.hpp"

namespace dlgen::analysis {

// The layout of zip file `f` as samples (SampleFile with offsets and extents: one member each),
// from its data-moving reads in trace order and its opens; nullopt when `f` is not a zip archive
// read member by member (at least 16 members, 16 reads per open, most bytes in member runs).
std::optional<SampleFile> archive_member_layout(const trace::Trace& t, std::uint32_t f,
                                                const std::vector<const trace::Event*>& reads,
                                                std::uint64_t opens);

}  // namespace dlgen::analysis
