#pragma once
// How the reader workers of one pass work (PhaseConfig, worker.hpp), decided once per pass from
// the job's reader section and the run's options. Private to the replay library.
#include "dlgen/core/job.hpp"
#include "dlgen/replay/plan.hpp"
#include "dlgen/replay/runner.hpp"
#include "worker.hpp"

namespace dlgen::replay {

// reader.workers = 0: the training process loads its own batches (PyTorch's num_workers=0): one
// loader per accelerator that starts a batch only once the previous step's compute is done.
inline bool synchronous_loading(const ReaderSpec& rd) {
  return rd.workers == 0;
}

// The requests in flight per worker: reader.iodepth, else one for a synchronous loader and
// kDefaultIodepth for a worker.
inline std::uint32_t reader_iodepth(const ReaderSpec& rd) {
  return rd.iodepth > 0 ? rd.iodepth : synchronous_loading(rd) ? 1 : kDefaultIodepth;
}

// The configuration of `plan`'s workers over `files`. `legacy` is what reader.probe, header and
// request_size stand for (legacy_recipe) and must outlive the configuration, which may point to it.
PhaseConfig phase_config(const ReaderSpec& rd, const RunOptions& options, const EpochPlan& plan,
                         const FileTable& files, const Recipe& legacy);

}  // namespace dlgen::replay
