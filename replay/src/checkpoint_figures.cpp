// Checkpoint figures from per-rank records (checkpoint_figures.hpp).
#include "dlgen/replay/checkpoint_figures.hpp"

#include <algorithm>
#include <cmath>

namespace dlgen::replay {

PassFigures pass_figures(const CheckpointPass& pass) {
  PassFigures f;
  bool any = false;
  for (const RankPass& r : pass.ranks) {
    f.bytes += r.bytes;
    f.duration_s = std::max(f.duration_s, r.seconds);
    if (r.bytes == 0 || r.seconds <= 0) continue;  // a rank with nothing to write has no rate
    const double bps = double(r.bytes) / r.seconds;
    if (!any || bps < f.slowest_rank_bps) {
      f.slowest_rank_bps = bps;
      f.slowest_rank = r.rank;
      any = true;
    }
  }
  f.throughput_bps = f.duration_s > 0 ? double(f.bytes) / f.duration_s : 0;
  return f;
}

PhaseFigures phase_figures(const std::vector<CheckpointPass>& passes) {
  PhaseFigures ph;
  std::vector<double> rates;
  for (const CheckpointPass& p : passes) {
    const PassFigures f = pass_figures(p);
    ph.bytes += f.bytes;
    ph.duration_s += f.duration_s;
    rates.push_back(f.throughput_bps);
    if (f.slowest_rank_bps > 0 &&
        (ph.slowest_rank_bps == 0 || f.slowest_rank_bps < ph.slowest_rank_bps))
      ph.slowest_rank_bps = f.slowest_rank_bps;
  }
  ph.count = static_cast<std::uint32_t>(passes.size());
  if (passes.empty()) return ph;
  ph.throughput_bps = ph.duration_s > 0 ? double(ph.bytes) / ph.duration_s : 0;
  ph.mean_duration_s = ph.duration_s / double(passes.size());
  double sum = 0;
  for (double r : rates) sum += r;
  ph.mean_throughput_bps = sum / double(rates.size());
  double var = 0;
  for (double r : rates) var += (r - ph.mean_throughput_bps) * (r - ph.mean_throughput_bps);
  ph.stdev_throughput_bps = std::sqrt(var / double(rates.size()));
  return ph;
}

}  // namespace dlgen::replay
