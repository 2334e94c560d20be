#pragma once
// The consumer's own per-batch cost (docs/metrics.md, "Step"): the part of a step's interval that
// is neither compute nor waiting for data. PyTorch's main process pays it on every batch: it
// receives the tensors' descriptors, maps the /dev/shm files, unpickles, collates, and only then
// computes. A trace shows it as the main thread's busy time between two compute gaps.
#include <cstdint>
#include <functional>
#include <vector>

#include "dlgen/analysis/summary.hpp"

namespace dlgen::analysis::detail {

// Splits every step's interval (end_ns - start_ns) into compute_ns + consumer_ns + wait_ns, given
// compute_ns as steps() found it. A step whose compute was measured (the next batch was ready
// before its compute gap ended) did not wait: the rest of its interval is the consumer's cost.
// Any other step is charged the typical cost (the median over measured steps of the same kind,
// training or evaluation; 0 when none was measured), at most what its interval leaves after
// compute, and waited for the remainder. Pure; the law interval = compute + consumer + wait holds
// for every step on return (tests/analysis/consumer_cost_test.cpp).
void split_step_time(std::vector<Step>& steps, const std::function<bool(std::int32_t)>& is_eval);

// A training loop fed through an in-process queue (PyTorch's pin-memory thread) that spends c ns
// on every batch takes batch i at take_0 = arrivals[0], take_i = max(take_{i-1} + c, arrivals[i])
// (the later of its previous step's end and the batch's arrival, ns) and finishes at
// take_{n-1} + c. loop_finish is that end; fitted_compute the largest c whose end is at most
// `end` (the end is non-decreasing and continuous in c, so it is found by bisection), 0 when even
// c = 0 ends later. arrivals: ascending, not empty.
std::uint64_t loop_finish(const std::vector<std::uint64_t>& arrivals, std::uint64_t c);
std::uint64_t fitted_compute(const std::vector<std::uint64_t>& arrivals, std::uint64_t end);

}  // namespace dlgen::analysis::detail
