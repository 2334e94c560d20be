#pragma once
// One request run to its completion on an engine with nothing else in flight (the checkpoint
// writer's and the object writer's sequential requests): bytes, or -errno. Transient refusals
// (engine.hpp: transient_error) are retried.
#include <cstdint>
#include <span>

#include "dlgen/engine/engine.hpp"

namespace dlgen::engine {

inline std::int64_t run_one(IoEngine& e, const IoRequest& r) {
  for (;;) {
    const int n = e.submit(std::span(&r, 1));
    if (n == 1) break;
    if (n < 0 && !transient_error(n)) return n;
  }
  IoCompletion c;
  for (;;) {
    const int got = e.reap(std::span(&c, 1), 1);
    if (got == 1) return c.result;
    if (got < 0 && !transient_error(got)) return got;
  }
}

}  // namespace dlgen::engine
