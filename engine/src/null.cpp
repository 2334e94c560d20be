// The null engine: completes every request and touches no storage (tests, and the runner's own
// cost).
#include <algorithm>
#include <vector>

#include "engines.hpp"

namespace dlgen::engine {
namespace {

// Completes every request with its full length and touches no file (it opens none: target = -1).
// With options.record it keeps the requests, so tests can check what the runner asked for.
// Its stamps: issue = the submit call's time; completion = issue + options.null_latency_ns (a
// device that takes that long per request, however many are in flight). A reap that must wait
// sleeps on the engine's clock until enough requests are due, so on a FakeClock the workers'
// requests overlap in fake time rather than serialise; with latency 0 nothing ever waits.
class NullEngine final : public IoEngine {
 public:
  explicit NullEngine(const EngineOptions& o) : IoEngine(o) {
    in_flight_.reserve(std::max<std::uint32_t>(1, o.depth));
  }
  const char* name() const override { return "null"; }

  int submit(std::span<const IoRequest> requests) override {
    int taken = 0;
    const std::int64_t now = requests.empty() ? 0 : clock().now_ns();
    const std::int64_t due = now + std::max<std::int64_t>(0, options_.null_latency_ns);
    for (const IoRequest& r : requests) {
      if (in_flight_.size() >= in_flight_.capacity()) break;
      check(r);
      if (options_.record) recorded_.push_back(r);
      // One latency for all: completion order is submission order, so the vector stays sorted.
      in_flight_.push_back({r.user_data, static_cast<std::int64_t>(r.length), now, due});
      ++taken;
    }
    return taken;
  }

  int reap(std::span<IoCompletion> out, unsigned min_complete) override {
    if (in_flight_.empty()) return 0;
    const std::size_t wanted = std::min<std::size_t>(min_complete, in_flight_.size());
    if (wanted > 0 && options_.null_latency_ns > 0)
      clock().sleep_until(in_flight_[wanted - 1].completed_ns);
    const std::int64_t now = clock().now_ns();
    std::size_t n = 0;
    while (n < out.size() && n < in_flight_.size() && in_flight_[n].completed_ns <= now) ++n;
    std::copy_n(in_flight_.begin(), n, out.begin());
    in_flight_.erase(in_flight_.begin(), in_flight_.begin() + static_cast<std::ptrdiff_t>(n));
    return static_cast<int>(n);
  }

  int open_file(const char*, int, int& target) override {
    target = -1;
    return 0;
  }
  int close_file(int) override { return 0; }

  const std::vector<IoRequest>& recorded() const override { return recorded_; }

 private:
  std::vector<IoCompletion> in_flight_;  // in completion order
  std::vector<IoRequest> recorded_;
};

Result<std::unique_ptr<IoEngine>> make_null(const EngineOptions& options) {
  return std::unique_ptr<IoEngine>(std::make_unique<NullEngine>(options));
}

}  // namespace

const EngineOps& null_ops() {
  static const EngineOps ops{"null",
                             {},
                             "completes every request whole after null_latency; touches no storage",
                             {.writes = true, .diskless = true},
                             make_null,
                             nullptr};
  return ops;
}

}  // namespace dlgen::engine
