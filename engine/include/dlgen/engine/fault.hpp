#pragma once
// A fault-injecting engine for tests: it wraps a real or null engine and, on cue, fails a request
// with -errno, shortens a read, refuses submit() or reap() with a transient error, completes a
// request late (on the engine's clock), or fails an open. It counts what it injected and what
// its callers did wrong (requests still in flight when an engine is destroyed), so a test can
// prove that the runner reports errors, retries, and never frees a buffer under the kernel.
//
// Usage: make a FaultInjection, fill its plan, pass fault_engine_factory(inner, injection) as
// RunOptions::engine_factory; after the run, read injection->counters.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>

#include "dlgen/engine/engine.hpp"

namespace dlgen::engine {

// A request as the fault plan sees it. `index` counts the requests taken by every engine of one
// FaultInjection, from 0, in the order submit() took them (over all threads: deterministic with
// one worker only); `path` is the file, as the runner opened it.
struct FaultRequest {
  std::uint64_t index = 0;
  std::string_view path;
  std::uint64_t offset = 0;
  std::uint32_t length = 0;
};

// What to inject. Every hook is optional and is called from several worker threads at once: make
// it a pure function of its arguments. Calls of submit() and reap() are counted from 0 over all
// engines of the injection.
struct FaultPlan {
  // -errno: the request completes with that result and reaches no file; 0: it runs.
  std::function<int(const FaultRequest&)> fail;
  // > 0: the request asks the wrapped engine for at most that many bytes (a short read).
  std::function<std::uint32_t(const FaultRequest&)> short_read;
  // > 0: the request completes that many ns after it was issued, on the engine's clock (a reap
  // waiting for it sleeps on that clock). Its completion is stamped with that instant.
  std::function<std::int64_t(const FaultRequest&)> delay_ns;
  // -errno: this call of submit() / reap() returns it and does nothing (e.g. -EAGAIN, -EBUSY).
  std::function<int(std::uint64_t call)> submit_error;
  std::function<int(std::uint64_t call)> reap_error;
  // A waiting reap() waits until every request in flight has completed and returns them together
  // (as a worker that was busy while they completed): stamps must still be each request's own.
  bool reap_all_together = false;
  // > 0: submit() takes at most this many requests a call.
  std::uint32_t submit_at_most = 0;
  // -errno: opening this path fails with it.
  std::function<int(std::string_view path)> open_error;
};

struct FaultCounters {
  std::atomic<std::uint64_t> engines{0};    // engines made
  std::atomic<std::uint64_t> destroyed{0};  // engines destroyed
  std::atomic<std::uint64_t> requests{0};   // requests taken by submit()
  std::atomic<std::uint64_t> submit_calls{0}, reap_calls{0};
  std::atomic<std::uint64_t> failed{0}, shortened{0}, delayed{0};
  std::atomic<std::uint64_t> submit_refused{0}, reap_refused{0}, opens_failed{0};
  // Requests taken but not reaped when their engine was destroyed: a caller freeing buffers that
  // requests still use. Must stay 0.
  std::atomic<std::uint64_t> destroyed_in_flight{0};
  std::atomic<std::uint64_t> max_in_flight{0};  // the most requests one engine held at once
};

struct FaultInjection {
  FaultPlan plan;
  FaultCounters counters;
};

// The registered engine named `inner` (registry.hpp) wrapped by the injection's faults.
Result<std::unique_ptr<IoEngine>> make_fault_engine(std::string_view inner,
                                                    const EngineOptions& options,
                                                    std::shared_ptr<FaultInjection> injection);
// The same as an EngineFactory for RunOptions::engine_factory.
EngineFactory fault_engine_factory(std::string_view inner,
                                   std::shared_ptr<FaultInjection> injection);

}  // namespace dlgen::engine
