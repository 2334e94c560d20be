#pragma once
// dataset.load = "memory": the run's main thread reads every file of a set once, before the first
// epoch, as the original's main process did (json.loads or pickle.load of each file in a
// map-style dataset's __init__), each file with the reads the job's recipe says (pickle: a
// header, the body, then the tail in pieces); the passes then read nothing
// (PhaseConfig::in_memory). Private to the replay library.
#include <cstdint>
#include <string>

#include "dlgen/core/recipe.hpp"
#include "dlgen/core/result.hpp"
#include "dlgen/replay/metrics.hpp"
#include "worker.hpp"

namespace dlgen::replay {

struct LoadOptions {
  std::string engine;                       // RunOptions::engine
  const EngineFactory* factory = nullptr;   // RunOptions::engine_factory (empty: engine::make)
  // How one file is read: reader.recipe, or the recipe of reader.probe, header_read and
  // request_size (legacy_recipe; request_size 0: the file in one request). Never null.
  const Recipe* recipe = nullptr;
  engine::TimeSource* clock = nullptr;      // stamps each request (Latency)
};

// The largest request of a load: a recipe's request larger than this takes several.
constexpr std::uint64_t kMaxLoadRequest = 64ull << 20;

// Reads every file of `files` as the recipe says, one request at a time (the main process reads
// one file after another), and adds the bytes, requests, files and latencies to `into` (its times
// are the caller's). An error names the file and offset.
Result<void> load_files(const FileTable& files, const LoadOptions& options, LoadRecord& into);

}  // namespace dlgen::replay
