#pragma once
// Materialises a job's datasets (training and validation) on disk, in parallel, valid in their
// format, written through an I/O engine of the registry (engine/registry.hpp), with a manifest
// (.dlgen-manifest.json in the dataset root) recording what dlgen wrote. A matching dataset is
// reused; a stale one (different fingerprint) that dlgen wrote is regenerated; a directory holding
// files dlgen did not write is never touched (error).
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "dlgen/core/job.hpp"
#include "dlgen/core/result.hpp"
#include "dlgen/engine/registry.hpp"

namespace dlgen::generator {

struct GenerateOptions {
  std::uint32_t threads = 0;  // 0: hardware concurrency
  bool force = false;         // regenerate even when the manifest matches (own files only)
  bool progress = true;       // draw progress when stderr is a terminal
  // When set, grows by each file's bytes once it is written (the MPI watchdog's sign of life
  // while ranks generate a dataset together: cluster/cluster.hpp).
  std::atomic<std::uint64_t>* written = nullptr;
  // The engine that writes the files (a registry name: --engine); empty: the default engine, or
  // the next one that writes files where it cannot run here (writer_engine).
  std::string engine;
};

// Whether engine `e` can write a dataset: it takes writes and touches storage (not the null
// engine). `generate --help` lists these.
bool writes_storage(const engine::EngineOps& e);

// The engine named `name` if it can write a dataset here (it writes to storage, and runs here:
// else an `unsupported` error, exit 77); `name` empty: the first registered engine that can.
Result<const engine::EngineOps*> writer_engine(std::string_view name);

struct GenerateReport {
  bool reused = false;  // the dataset was already there and matched
  std::uint64_t files_written = 0;
  std::uint64_t bytes_written = 0;
  double seconds = 0;
};

// The one the replay needs: generate if missing or stale, reuse if matching.
Result<GenerateReport> ensure_dataset(const DatasetSpec& spec, const GenerateOptions& options = {});
// True when `spec.dir` holds a complete dataset matching `spec` (manifest fingerprint and files).
bool dataset_ready(const DatasetSpec& spec);

// Several processes writing one dataset together (the ranks of a multi-host run, on a shared
// filesystem): one of them, the leader, calls begin_dataset, which takes the directory's lock and
// decides (reuse; or regenerate, clearing a stale dataset of dlgen's; or refuse a foreign one);
// then every process writes its share with write_dataset_share; then the leader alone calls
// finish_dataset, which writes the complete manifest and releases the lock. ensure_dataset is the
// same three steps in one process.
struct PreparedDataset {
  bool reused = false;         // the dataset matched: nothing to write, no lock held
  bool resume = false;         // same fingerprint: complete files already in place are kept
  std::shared_ptr<void> lock;  // the directory's lock, held until finish_dataset or destruction
  double seconds = 0;
};
// Which files a process writes: file i when i mod count == index.
struct FileShare {
  std::uint32_t index = 0, count = 1;
};
Result<PreparedDataset> begin_dataset(const DatasetSpec& spec, const GenerateOptions& options = {});
// Writes the share's files (all but the complete ones when `resume`) and makes them durable.
Result<GenerateReport> write_dataset_share(const DatasetSpec& spec, bool resume, FileShare share,
                                           const GenerateOptions& options = {});
Result<void> finish_dataset(const DatasetSpec& spec, PreparedDataset& prepared);

// The manifest's file name, in the dataset root.
inline constexpr const char* kManifestName = ".dlgen-manifest.json";
// Hex hash of every DatasetSpec field that affects the files' names, sizes or bytes (not `dir`),
// and of the codec version: equal fingerprints mean byte-identical datasets.
std::string fingerprint(const DatasetSpec& spec);
// Writes file `file` of the dataset to `path` exactly as ensure_dataset would (tests, tools).
Result<void> generate_file(const DatasetSpec& spec, std::uint64_t file,
                           const std::filesystem::path& path);

}  // namespace dlgen::generator
