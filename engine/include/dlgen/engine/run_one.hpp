#pragma once
// One request run to its completion on an engine with nothing else in flight (the checkpoint
// writer's and the object writer's sequential requests, the whole-dataset load): bytes, or
// -errno. Transient refusals (engine.hpp: transient_error) are retried after a back-off.
#include <cstdint>
#include <span>

#include "dlgen/engine/backoff.hpp"
#include "dlgen/engine/engine.hpp"

namespace dlgen::engine {

// One request to its completion: 1 with `c` filled (c.result: bytes or -errno), or the engine's
// -errno when it could not be run. reap(..., 1) is the blocking wait; only a transient refusal is
// tried again, after a back-off (-EAGAIN when the refusals never end).
inline int complete_one(IoEngine& e, const IoRequest& r, IoCompletion& c) {
  Backoff backoff;
  for (;;) {
    const int n = e.submit(std::span(&r, 1));
    if (n == 1) break;
    if (n < 0 && !transient_error(n)) return n;
    if (!backoff.wait()) return n < 0 ? n : -EAGAIN;
  }
  backoff.reset();
  for (;;) {
    const int got = e.reap(std::span(&c, 1), 1);
    if (got == 1) return 1;
    if (got < 0 && !transient_error(got)) return got;
    if (!backoff.wait()) return got < 0 ? got : -EAGAIN;
  }
}

inline std::int64_t run_one(IoEngine& e, const IoRequest& r) {
  IoCompletion c;
  const int rc = complete_one(e, r, c);
  return rc == 1 ? c.result : rc;
}

}  // namespace dlgen::engine
