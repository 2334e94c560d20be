// The steady state compare judges timing on (docs/fidelity.md, "steady state"): with two or more
// epochs, all but the first, which carries warm-up that the replay does not model and storage does
// not cause (DataLoader workers importing, first batches, cold caches, a GPU's CUDA context and
// cuDNN autotuning). The per-epoch table still shows the first.
#pragma once

#include <cstddef>
#include <vector>

#include "dlgen/compare/profile.hpp"

namespace dlgen::compare {

// The index of the first steady-state epoch of `epochs`.
std::size_t first_steady(std::size_t epochs);

// The values of the steady-state training steps (Profile::step_steady; all when it is empty).
std::vector<double> steady(const Profile& p, const std::vector<double>& per_step);

// Seconds spent reading in steady-state epochs: gaps between epochs (worker start-up,
// checkpoints) are not counted; checkpoints have their own metrics. No epochs: first to last read.
double steady_duration(const Profile& p);

// Data bytes read in steady-state epochs (no epochs: all of them).
double steady_bytes(const Profile& p);

}  // namespace dlgen::compare
