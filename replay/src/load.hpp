#pragma once
// dataset.load = "memory": the run's main thread reads every file of a set once, whole, before
// the first epoch, as the original's main process did (json.loads or pickle.load of each file in
// a map-style dataset's __init__); the passes then read nothing (PhaseConfig::in_memory). Private
// to the replay library.
#include <cstdint>
#include <string>

#include "dlgen/core/result.hpp"
#include "dlgen/replay/metrics.hpp"
#include "worker.hpp"

namespace dlgen::replay {

struct LoadOptions {
  std::string engine;                       // RunOptions::engine
  const EngineFactory* factory = nullptr;   // RunOptions::engine_factory (empty: engine::make)
  std::uint64_t request_bytes = 0;          // reader.request_size; 0: a file in one request
  engine::TimeSource* clock = nullptr;      // stamps each request (Latency)
};

// The largest request of a load: a file larger than this (with request_size 0) takes several.
constexpr std::uint64_t kMaxLoadRequest = 64ull << 20;

// Reads every file of `files` front to back, one request at a time (the main process reads one
// file after another), and adds the bytes, requests, files and latencies to `into` (its times
// are the caller's). An error names the file and offset.
Result<void> load_files(const FileTable& files, const LoadOptions& options, LoadRecord& into);

}  // namespace dlgen::replay
