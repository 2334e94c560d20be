#pragma once
// The hosts stage of summarize: which client host each accelerator ran on (a trace merged from one
// capture per host keeps host h's pids at h << 22 + pid) and which accelerators wrote each
// checkpoint. Reads the trace and the accelerators and checkpoints found before it; writes only
// TraceSummary::hosts, Accelerator::host and CheckpointWrite::writers.
#include "dlgen/analysis/summary.hpp"
#include "dlgen/trace/trace.hpp"

namespace dlgen::analysis {

void assign_hosts(const trace::Trace& trace, TraceSummary& summary);

}  // namespace dlgen::analysis
