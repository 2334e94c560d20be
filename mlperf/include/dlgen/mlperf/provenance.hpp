#pragma once
// provenance.json: what produced a `dlgen mlperf` result, written beside it (the output folder,
// and each run's timestamp folder of the submission): the tool (dlgen's version and the git
// commit it was built from, "unknown" outside a git checkout), the rules edition, the host (name,
// kernel, CPUs, RAM), the job (its hash, its canonical TOML and every parameter as
// `dlgen mlperf` compares them), the command line and when the run started and ended. MLPerf
// Storage v3.0 stamps each run leaf the same way (Rules.md 2.1.6, "Provenance stamps"); the
// fields: docs/mlperf-v3.md ("provenance.json").
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dlgen/core/job.hpp"
#include "dlgen/core/result.hpp"

namespace dlgen::mlperf {

struct HostInfo {
  std::string name, kernel;  // gethostname, uname's release
  std::uint32_t cpus = 0;    // online CPUs
  std::uint64_t ram_bytes = 0;
};
HostInfo this_host();

// The git commit dlgen was built from (baked in when CMake configured), or "unknown".
const char* build_commit();

// The job's hash: FNV-1a (64 bits, 16 hex digits) of its canonical TOML text (to_toml), the same
// figure as the cluster's job fingerprint (docs/cluster.md), so the hash of a submission's
// dlgen_job.toml can be recomputed from the file alone.
std::string job_text_hash(std::string_view toml_text);

// Every parameter of a job that shapes its I/O, as (TOML path, exact value): the fields the
// division check compares (mlperf_division.cpp).
std::vector<std::pair<std::string, std::string>> job_parameters(const Job& job);

// The clients of a run, as the dataset-size rule (Rules.md 3.1.2) needs them: how many hosts and
// ranks (mpirun -np; 1 without it), the simulated accelerators of all of them, and their RAM: what
// the dataset was sized for (--ram, summed over the hosts) and what the hosts measured (summed).
struct ClientInfo {
  std::uint32_t hosts = 1, ranks = 1;
  std::uint64_t accelerators = 0;  // training: run.accelerators x ranks; checkpointing: 0
  std::uint64_t ram_bytes = 0, measured_ram_bytes = 0;
};

struct Provenance {
  std::string tool = "dlgen", version, commit;
  std::string rules;  // "v3.0", "v2.0"
  HostInfo host;
  std::string job_name, job_hash, job_toml;
  std::vector<std::pair<std::string, std::string>> parameters;
  std::string workload, accelerator;  // what the rules judged it as ("" when none)
  std::string command_line;
  std::string start, end;  // local time, "%Y-%m-%dT%H:%M:%S.%f" as DLIO writes it
  std::uint32_t run = 0;   // 1-based run index; 0: the whole invocation
  bool warmup = false;
  ClientInfo clients;
  bool has_clients = false;  // parse_provenance: a file written before `clients` existed has none
  // When this invocation of dlgen began and when the run ended, seconds since the epoch (rule
  // 4.7.1 between a checkpoint write phase and a read phase run as two invocations).
  double invocation_start_unix_s = 0, end_unix_s = 0;
};

// A Provenance for `job` on this host, built now: tool, commit, host, job hash, TOML, parameters.
Provenance make_provenance(const Job& job, const std::string& rules,
                           const std::string& command_line);

std::string provenance_json(const Provenance& p);
// The fields validate checks (an input error naming `where` and the key when one is missing).
Result<Provenance> parse_provenance(const std::string& text, const std::string& where);

}  // namespace dlgen::mlperf
