#pragma once
// DLIO workload configs (YAML, as DLIO and MLPerf Storage ship them) read into the same Job as a
// TOML job file. Every DLIO key is either mapped to its I/O meaning or refused with file:line and a
// reason: none is ignored silently. Hydra-style overrides (`++workload.dataset.num_files_train=64`,
// `workload.reader.read_threads=8`, `~workload.checkpoint`) edit the YAML tree before it is read,
// so their errors read like the file's. Key by key mapping: docs/dlio.md. yaml-cpp stays inside
// dlio/src.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "dlgen/core/job.hpp"
#include "dlgen/core/result.hpp"

namespace dlgen {

struct DlioJob {
  Job job;
  // dotted dlgen key -> where it came from ("DLIO dataset.num_files_train, line 12"), for
  // `dlgen convert`'s commented TOML.
  std::map<std::string, std::string> comments;
  // Where dlgen does what DLIO does not (or does differently), and keys with no I/O meaning.
  std::vector<std::string> notes;
  // Where the config's object store is (storage_options of storage_type s3): AWS_ENDPOINT_URL,
  // AWS_REGION, DLGEN_S3_ADDRESSING, for the variables the environment does not set. Never
  // credentials.
  std::map<std::string, std::string> environment;
};

// True for a path that names a DLIO YAML config (.yaml / .yml).
bool is_dlio_config(const std::filesystem::path& path);
// True for a command-line word that is a Hydra-style override ("key=value", "+key=value",
// "++key=value", "~key").
bool is_hydra_override(std::string_view word);

// Where the config runs: what DLIO takes from the processes rather than from the config.
struct DlioContext {
  // MPI ranks (hosts) the job runs on; each simulates checkpoint.ranks_per_host ranks of an LLM
  // (8), so DLIO's process count is mpi_ranks x 8: an LLM config without
  // model.parallelism.data gets DP = processes / (tensor x pipeline), as DLIO computes it.
  std::uint32_t mpi_ranks = 1;
};

// Reads a DLIO config with Hydra-style overrides applied in order and validates the Job; errors
// list every problem as "configs/unet3d.yaml:14: reader.batch_size: must be >= 1".
Result<DlioJob> load_dlio(const std::filesystem::path& path,
                          const std::vector<std::string>& overrides = {},
                          const DlioContext& context = {});
Result<DlioJob> parse_dlio(std::string_view yaml_text, const std::filesystem::path& source_name,
                           const std::vector<std::string>& overrides = {},
                           const DlioContext& context = {});

// A training job as a DLIO workload config (`dlgen convert job.toml --to dlio`): the reverse of the
// mapping above, for running the same workload under DLIO. What DLIO cannot express (a library's
// probe or header reads, worker start-up or warm-up, histogram distributions, raw files, LLM
// checkpoint workloads...) is refused with the dlgen key and the reason, all at once; `notes` gets
// what DLIO will do differently.
Result<std::string> to_dlio_yaml(const Job& job, std::vector<std::string>* notes = nullptr);

}  // namespace dlgen
