#pragma once
// Writes dataset files through an I/O engine from the registry (engine/registry.hpp), as the
// replay reads them: each thread has its own engine and encodes files straight into the engine's
// buffers; a full buffer is sent at once, so many writes (of one large file, or of many small
// files) are in flight while the thread encodes the next bytes. A file becomes final only when all
// its writes completed (destination.hpp says how: rename into place, or the engine's close).
#include <atomic>
#include <cstdint>
#include <span>

#include "destination.hpp"
#include "dlgen/core/progress.hpp"
#include "dlgen/core/result.hpp"
#include "dlgen/datasets/layout.hpp"
#include "dlgen/engine/registry.hpp"

namespace dlgen::generator {

struct WriteConfig {
  const datasets::Layout* layout = nullptr;
  const engine::EngineOps* engine = nullptr;
  // Makes the destination of one thread (each thread has its own: it caches directories).
  DestinationFactory destination;
  std::uint32_t threads = 1;
  Progress* progress = nullptr;                   // advanced by one per file made final
  std::atomic<std::uint64_t>* written = nullptr;  // grows by each final file's bytes
};

struct WriteTotals {
  std::uint64_t files = 0, bytes = 0;
  // Every file is on the device (O_DIRECT and fsync, or the engine's close said so): only the
  // directories remain to be synced. Otherwise some went through the page cache.
  bool all_synced = true;
};

// Writes files `todo` (indices into the layout). On the first failure every thread stops, the
// writes in flight complete, the files not yet final are removed, and that failure is returned.
Result<WriteTotals> write_files(const WriteConfig& config, std::span<const std::uint64_t> todo);

// The engine options the writer uses for `layout`'s files `todo`: buffers of at most 1 MiB (the
// size of the largest file, rounded up to 4 KiB, when smaller), as many buffers as writes in
// flight.
engine::EngineOptions writer_engine_options(const datasets::Layout& layout,
                                            std::span<const std::uint64_t> todo);

}  // namespace dlgen::generator
