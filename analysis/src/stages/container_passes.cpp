// container_passes: where a dataset's passes are its runs. A container file read a sample at a
// time (an HDF5 file's /train and /val groups, split into virtual sample files by
// prepass/sample_files.cpp) can hold several samples in one region the loader reads whole: h5py
// reads a sample's whole chunk (8 samples) for each sample it is asked for, so a chunk is read 8
// times an epoch, and a repeated region does not end a pass. There the pass is the stretch in
// which the program reads the set of regions of the training (or validation) set, found from
// when each set is read: an evaluation pass runs between two training epochs, in workers of its
// own, so the training set's reads come in runs with the validation set's between them.
#include <map>
#include <set>

#include "stages.hpp"

namespace dlgen::analysis::stages {

std::set<std::int32_t> passes_are_runs(const std::vector<Access>& accesses,
                                       const std::set<std::int32_t>& reforked) {
  // Per dataset: its runs (maximal stretches of its accesses, in start order, with no other
  // dataset's access between), the distinct files of each, and its accesses.
  struct Runs {
    std::uint64_t runs = 0, accesses = 0, distinct = 0;
    std::set<std::uint32_t> current;
  };
  std::map<std::int32_t, Runs> of;
  std::int32_t last = -2;
  for (const auto& a : accesses) {
    Runs& r = of[a.dataset];
    if (a.dataset != last) {
      r.distinct += r.current.size();
      r.current.clear();
      ++r.runs;
    }
    last = a.dataset;
    r.current.insert(a.file);
    ++r.accesses;
  }
  std::set<std::int32_t> out;
  if (of.size() < 2) return out;  // no other set's reads to delimit the runs
  for (auto& [ds, r] : of) {
    r.distinct += r.current.size();
    // Readers forked afresh for every pass delimit the passes themselves (worker generations).
    if (reforked.count(ds) || r.runs < 2 || r.distinct == 0) continue;
    if (r.accesses >= 2 * r.distinct) out.insert(ds);
  }
  return out;
}

}  // namespace dlgen::analysis::stages
