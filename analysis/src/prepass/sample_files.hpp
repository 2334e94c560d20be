#pragma once
// Multi-sample files: a training set stored as one (or a few) big files that the loader reads a
// sample at a time at scattered offsets (h5py `f["x"][i]`, np.load(mmap) slices, TFRecord with an
// index). The rest of summarize reasons about one access (open, reads, close) per sample, so such
// files are rewritten into one virtual file per sample first: each read is moved to the virtual
// file of the sample at its offset (a read elsewhere — metadata, a label array — to the reader's
// current sample), with an open before the first read of each sample.
#include <optional>
#include <string>
#include <vector>

#include "dlgen/analysis/summary.hpp"
#include "dlgen/trace/trace.hpp"

namespace dlgen::analysis {

// The path of sample k's virtual file of a multi-sample file: "DIR/STEM#NNNNNNN.EXT" (k in 7 or
// more digits); virtual_sample parses one back into the real file's path and k (false: not one).
std::string virtual_path(const std::string& path, std::uint64_t k);
bool virtual_sample(const std::string& path, std::string* real, std::uint64_t* k);

// The rewritten trace when some file reads like a multi-sample file, else nullopt. `found` gets one
// row per such file; `virtual_of` maps each virtual file's index to its row.
std::optional<trace::Trace> split_sample_files(const trace::Trace& t,
                                               std::vector<SampleFile>& found,
                                               std::map<std::uint32_t, std::uint32_t>& virtual_of);

}  // namespace dlgen::analysis
