#pragma once
// The figures of checkpoints written or read by several ranks at once, from per-rank records:
// bytes moved and seconds from the checkpoint's common start to each rank's last byte (and
// fsync). The replay's cluster report (cluster_report.hpp) reduces the training checkpoints with
// them, and MLPerf's checkpoint-only workflow (mlperf/checkpoint_workflow.hpp) its passes
// (definitions: docs/metrics.md, "Checkpoint-only workflow").
#include <cstdint>
#include <vector>

namespace dlgen::replay {

// One rank's part of one checkpoint written or read.
struct RankPass {
  std::uint32_t rank = 0;
  std::uint64_t bytes = 0;
  double seconds =
      0;  // from the checkpoint's common start to this rank's last byte (fsync included)
};

// One checkpoint written or read by every simulated rank.
struct CheckpointPass {
  std::uint32_t index = 0;  // 1-based: global_epoch1_step<index>
  std::vector<RankPass> ranks;
};

// The figures of one checkpoint.
struct PassFigures {
  std::uint64_t bytes = 0;         // all ranks
  double duration_s = 0;           // the slowest rank's seconds (max over ranks)
  double throughput_bps = 0;       // bytes / duration_s (bytes per second)
  double slowest_rank_bps = 0;     // min over ranks that moved bytes of their bytes / seconds
  std::uint32_t slowest_rank = 0;  // that rank
};
PassFigures pass_figures(const CheckpointPass& pass);

// The figures of N checkpoints written (or read) one after another.
struct PhaseFigures {
  std::uint32_t count = 0;
  std::uint64_t bytes = 0;
  double duration_s = 0;            // sum of the checkpoints' durations
  double throughput_bps = 0;        // bytes / duration_s
  double mean_duration_s = 0;       // mean over checkpoints
  double mean_throughput_bps = 0;   // mean of the checkpoints' throughputs (MLPerf's figure)
  double stdev_throughput_bps = 0;  // their population standard deviation
  double slowest_rank_bps = 0;      // min over checkpoints of their slowest rank
};
PhaseFigures phase_figures(const std::vector<CheckpointPass>& passes);

}  // namespace dlgen::replay
