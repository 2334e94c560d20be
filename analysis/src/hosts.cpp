// The hosts stage of summarize (hosts.hpp).
#include "hosts.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace dlgen::analysis {

void assign_hosts(const trace::Trace& t, TraceSummary& s) {
  s.hosts.clear();
  if (t.hosts.empty()) {
    s.hosts.push_back({t.meta.host, t.meta.rank, "", 0});
  } else {
    for (const auto& part : t.hosts) s.hosts.push_back({part.host, part.rank, part.source, 0});
  }
  for (auto& acc : s.accelerators) {
    const std::uint32_t h = acc.pid >> trace::kHostPidShift;
    acc.host = h < s.hosts.size() ? h : 0;
    ++s.hosts[acc.host].accelerators;
  }
  // Checkpoint writers: the accelerator whose main process (any of its threads) wrote a
  // checkpoint file during the checkpoint.
  std::map<std::uint32_t, std::uint32_t> accel_of_pid;
  for (std::size_t i = 0; i < s.accelerators.size(); ++i)
    accel_of_pid[s.accelerators[i].pid] = static_cast<std::uint32_t>(i);
  for (auto& c : s.checkpoints) {
    const std::set<std::string> paths(c.paths.begin(), c.paths.end());
    std::set<std::uint32_t> writers;
    for (const auto& e : t.events) {
      if (e.ts_ns < c.start_ns || e.ts_ns > c.end_ns || !trace::is_write(e.op)) continue;
      if (e.file >= t.files.size() || !paths.count(t.files[e.file].path)) continue;
      if (auto it = accel_of_pid.find(e.pid); it != accel_of_pid.end()) writers.insert(it->second);
    }
    c.writers.assign(writers.begin(), writers.end());
  }
}

}  // namespace dlgen::analysis
