#pragma once
// The engines dlgen knows, by name (fio's ioengines list): each engine lives in its own file behind
// one ops table, and every caller (the CLI's --engine, the replay's workers, the checkpoint writer)
// finds it here. Adding an engine is one file and one line in registry.cpp; nothing switches on
// engine names anywhere else, and callers decide by capabilities, not by name.
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dlgen/core/result.hpp"
#include "dlgen/engine/engine.hpp"

namespace dlgen::engine {

// What an engine can do, for callers that must choose a path (fio's FIO_* engine flags).
struct Capabilities {
  // Honours O_DIRECT: requests go past the page cache when the target was opened with it (and
  // buffers, offsets and lengths are aligned to the logical block size).
  bool direct_io = false;
  // Targets are POSIX file descriptors: a caller may open a file itself (openat with its own
  // safety checks, fsync, fadvise) and address requests to that descriptor. Engines without it
  // (the null engine, an object store) are reached only through their open_file().
  bool posix_fd = false;
  // Takes write requests (an engine of a read-only store would not).
  bool writes = false;
  // Touches no storage (fio's FIO_DISKLESSIO): every request completes whole, no target has an
  // end, and no dataset or file needs to exist.
  bool diskless = false;
};

// One engine's ops table.
struct EngineOps {
  std::string name;                  // what --engine takes
  std::vector<std::string> aliases;  // other names it answers to (fio's, older dlgen's)
  std::string description;           // one line, for listings
  Capabilities caps;
  // Builds an engine for the calling thread (an engine is used by one thread). Cannot run here
  // (io_uring refused) → an `unsupported` error (exit 77).
  Result<std::unique_ptr<IoEngine>> (*make)(const EngineOptions&) = nullptr;
  // Checks once, before threads start, that the engine can run here; nullptr: it always can.
  Result<void> (*probe)() = nullptr;
};

// Every registered engine, the default first.
std::span<const EngineOps> registry();
// The default engine's name (the first registered).
std::string_view default_name();
// The engine named `name` (or one of its aliases); nullptr when none is.
const EngineOps* find(std::string_view name);
// The names as the CLI lists them: "uring, pread or null" (for errors) and "uring (default),
// pread, null" (for --help); `keep`, when set, lists only the engines it accepts (a verb that
// needs engines that can write lists only those).
std::string expected_names();
std::string help_names(bool (*keep)(const EngineOps&) = nullptr);

// The engine named `name`, or an input error that lists the registered names.
Result<const EngineOps*> lookup(std::string_view name);
// Builds engine `name` for the calling thread (lookup, then its make, then the buffer pool check).
Result<std::unique_ptr<IoEngine>> make(std::string_view name, const EngineOptions& options);
// Checks that engine `name` can run here (lookup, then its probe).
Result<void> probe(std::string_view name);

}  // namespace dlgen::engine
