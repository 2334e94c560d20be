#pragma once
// The idle gaps of a consumer's syscall timeline that find_steps reads its steps from
// (docs/distil.md, "Compute"): which calls end a gap, when a batch was being received or taken,
// and the gaps of a pass that are its steps. Private to the stages.
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "stages.hpp"

namespace dlgen::analysis::stages::gaps {

using Gap = std::pair<std::uint64_t, std::uint64_t>;  // [start, end] of an idle gap, ns

// Idle gaps of each timeline thread: [end of one call that leaves compute, start of the next].
std::map<std::uint32_t, std::vector<Gap>> idle_gaps(const trace::Trace& t,
                                                    const std::vector<std::uint32_t>& timelines);

// The end of the first idle gap of at least 0.5 ms after `got_ns`, 0 when none: the compute of a
// pass of one batch.
std::uint64_t single_gap_end(const std::vector<Gap>& gaps, std::uint64_t got_ns);

// When the timeline thread began to receive each batch of `bs` (receipt order), from its pipe
// reads (`queue_reads`, time order).
std::vector<std::uint64_t> receipt_starts(const std::vector<std::uint64_t>& queue_reads,
                                          const std::vector<const Batch*>& bs);

// A batch let go by the loop: when, and when the batch had been received.
struct Release {
  std::uint64_t ts_ns = 0;
  std::uint64_t received_ns = 0;
  auto operator<=>(const Release&) const = default;
};
// Per thread of `timelines`, the releases of the batches it held, in time order.
std::map<std::uint32_t, std::vector<Release>> tensor_releases(
    const trace::Trace& t, const Batches& bt, const std::vector<std::uint32_t>& timelines);

// The step intervals of a pass of n >= 2 batches `bs` (receipt order), in time order.
std::vector<Gap> pass_step_gaps(const std::vector<Gap>& gaps, const std::vector<const Batch*>& bs,
                                const std::vector<std::uint64_t>& starts,
                                const std::vector<Release>& releases, bool stashes);

}  // namespace dlgen::analysis::stages::gaps
