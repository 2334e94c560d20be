#pragma once
// Multi-host captures: `mpirun -np N dlgen capture -o trace-%r.h5 -- CMD` writes one trace per
// rank (one per client host), each naming its host and MPI rank. This header finds a rank in the
// environment, names a rank's trace file, and merges the traces of one run into one Trace that
// summarize, distil and compare read as they read one capture (docs/trace-format.md, "Traces of
// several hosts").
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "dlgen/core/result.hpp"
#include "dlgen/trace/trace.hpp"

namespace dlgen::trace {

// This process's place in an MPI launch. rank -1: not launched by MPI.
struct LaunchRank {
  std::int32_t rank = -1;
  std::int32_t world_size = 0;  // 0: unknown
};

// Reads the rank the MPI launcher gives every process it starts: Open MPI's
// OMPI_COMM_WORLD_RANK/SIZE, else PMIx's PMIX_RANK, else MPICH/Hydra's PMI_RANK/PMI_SIZE. `env`
// looks a variable up (std::getenv in the capture; a map in tests); a value that is not a number
// is ignored.
LaunchRank launch_rank(const std::function<const char*(const char*)>& env);

// The trace file of one rank: `pattern` with %r the rank, %h the host name and %% a '%'.
// Errors (bad input): %r when not launched by MPI; another %-letter; several ranks
// (world_size > 1) and neither %r nor %h in the pattern, since they would all write one file.
Result<std::string> expand_trace_path(const std::string& pattern, const LaunchRank& launch,
                                      const std::string& host);

// Merges the traces of one run, one per host (or per rank), into one trace:
// - host h (in rank order when every trace has a rank, else in the given order) keeps its pids
//   and tids moved to (h << kHostPidShift) + pid, so accelerators and workers of different hosts
//   stay apart (host 0's ids are unchanged);
// - times are laid on one clock by the traces' start wall-clock times (start_wall_ns): host h's
//   events move by its start minus the earliest start (hosts' clocks must agree, as NTP or PTP
//   keeps them; a trace without a wall-clock start is taken to start with the others);
// - files are matched by path: a dataset on a shared filesystem is one set of files; files that
//   each host has apart (/dev/, /proc/, /sys/, /run/: shared-memory tensors; sockets and pipes)
//   stay one per host;
// - metadata: the first host's command, kernel and version, hosts joined by ',' in `host`, lost
//   events summed, complete only when every trace is, the first non-zero exit status.
// One trace is returned as it is (no HostPart). Errors (bad input): no trace; two traces of the
// same host, rank and start (one file given twice); starts more than a day apart; a pid beyond
// 22 bits; more than 1023 traces. `sources` names each trace in messages (file names).
Result<Trace> merge_host_traces(std::vector<Trace> traces, const std::vector<std::string>& sources);

}  // namespace dlgen::trace
