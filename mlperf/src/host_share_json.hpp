#pragma once
// The per-host rows of a checkpointing run under mpirun, as both JSON reports write them
// (`dlgen run` of a checkpoint-only job: "hosts"; `dlgen mlperf`: "per_host").
#include "dlgen/core/json.hpp"
#include <vector>

#include "dlgen/mlperf/checkpoint_workflow.hpp"

namespace dlgen::mlperf {

inline nlohmann::json host_shares_json(const std::vector<HostShare>& hosts) {
  nlohmann::json out = nlohmann::json::array();
  for (const HostShare& h : hosts)
    out.push_back({{"host", h.host},
                   {"first_rank", h.first_rank},
                   {"ranks", h.ranks},
                   {"checkpoint_bytes", h.checkpoint_bytes},
                   {"checkpoint_files", h.checkpoint_files},
                   {"ram_bytes", h.ram_bytes},
                   {"cache_dropped", h.cache_dropped}});
  return out;
}

}  // namespace dlgen::mlperf
