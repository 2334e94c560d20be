// The idle gaps of a consumer's syscall timeline that find_steps reads its steps from
// (step_gaps.hpp; docs/distil.md, "Compute").
#include "step_gaps.hpp"

#include <algorithm>
#include <set>

#include "path_names.hpp"
#include "stats.hpp"

namespace dlgen::analysis::stages::gaps {
namespace {

using trace::Op;

// Per file of the trace: whether it is code a thread loads while it computes: a shared library
// the dynamic loader searches for, opens and maps on its first use (oneDNN looking for
// libJitPI.so in the first step of the held-out .pt program: 44 failed opens and 40 stats of
// library directories, which split that step in two and cost the pass its shortest step), the
// loader's cache, a module Python imports lazily. Paths under /dev, /proc, /sys and /run are
// not code (the batches' /dev/shm tensors are how a consumer receives them).
std::vector<bool> code_files(const trace::Trace& t) {
  std::vector<bool> code(t.files.size());
  for (std::size_t i = 0; i < t.files.size(); ++i) {
    const std::string& p = t.files[i].path;
    code[i] = !p.empty() && p[0] == '/' && !names::starts_with(p, "/dev/") &&
              !names::starts_with(p, "/proc/") && !names::starts_with(p, "/sys/") &&
              !names::starts_with(p, "/run/") && names::is_ignored_path(p);
  }
  return code;
}

// Whether event `e` of a thread shows it away from compute, so that it ends an idle gap of the
// thread's timeline (a step's compute is such a gap: docs/distil.md, "Compute"). A page fault
// (Op::fault) is the thread touching memory while it computes (the batch's /dev/shm tensors at
// its first use in the forward pass, the loss's touch of the labels, a library's code paged in),
// a munmap the allocator returning a freed buffer inside forward or backward, a block event the
// device's side of a request: none is the thread leaving its compute; nor is loading code
// (code_files: opening, reading, mapping or looking for it, found or not). Every other op is a
// system call (or a CUDA driver call) the thread made. On the held-out round 6 programs each
// step's forward pass faulted the batch in and its loss faulted the labels in, which cut every
// compute gap in two: compute was half the program's and the other half was taken for the
// consumer's cost.
bool leaves_compute(const trace::Event& e, const std::vector<bool>& code) {
  if (e.op == Op::fault || e.op == Op::munmap || e.op == Op::block) return false;
  const bool loads = e.op == Op::open || e.op == Op::close || e.op == Op::stat ||
                     e.op == Op::mmap || e.op == Op::lseek || e.op == Op::getdents ||
                     trace::is_read(e.op);
  return !(loads && e.file < code.size() && code[e.file]);
}

// A batch that reaches the loop before the one it waits for is received then and kept (PyTorch's
// DataLoader stashes an out-of-order batch and takes it later without a receipt): two receipts
// back to back, no compute between them, and the loop computes on both batches in the next gap
// with no syscall between the two. In an evaluation pass from memory of 3 or more steps (the
// caller's choice), a gap under a fifth of the
// pass's median followed by one of at least 1.5 times it: the short one is no step, the long one
// two steps of half its length each. `in`: time order.
void split_stashed(std::vector<Gap>& in) {
  if (in.size() < 3) return;
  std::vector<double> lens;
  for (const auto& g : in) lens.push_back(static_cast<double>(g.second - g.first));
  const double typical = detail::percentile(lens, 0.5);
  for (std::size_t i = 0; i + 1 < in.size(); ++i) {
    const auto len = [&](std::size_t k) { return static_cast<double>(in[k].second - in[k].first); };
    if (len(i) >= 0.2 * typical || len(i + 1) < 1.5 * typical) continue;
    const std::uint64_t mid = in[i + 1].first + (in[i + 1].second - in[i + 1].first) / 2;
    in[i] = {in[i + 1].first, mid};
    in[i + 1].first = mid;
    ++i;
  }
}

// Whether idle gap `g` lies between taking a batch and letting go of the one before: it starts
// after a receipt with no release (tensor_releases) since, and the release of a batch received
// before that receipt ends it. The loop has its next batch and has not begun computing on it:
// the consumer's time, never compute. When batches arrive out of order PyTorch receives two back
// to back, then frees the batch before; on a busy 2-core host the held-out .pt program idled
// 4 ms there, which was taken for a step and laid the pass's steps one off. (The release of the
// batch received last is the loop done computing on it: the pass's first batch, followed by a
// stashed one taken without a receipt.)
bool taking(const Gap& g, const std::vector<std::uint64_t>& receipts,
            const std::vector<Release>& releases) {
  const auto by_time = [](const Release& r, std::uint64_t ts) { return r.ts_ns < ts; };
  const auto end = std::lower_bound(releases.begin(), releases.end(), g.second, by_time);
  if (end == releases.end() || end->ts_ns != g.second) return false;
  const auto r = std::upper_bound(receipts.begin(), receipts.end(), g.first);
  if (r == receipts.begin()) return false;
  const std::uint64_t got = *std::prev(r);
  const auto since = std::lower_bound(releases.begin(), releases.end(), got, by_time);
  return (since == releases.end() || since->ts_ns >= g.second) && end->received_ns < got;
}

// Whether idle gap `g` lies in a batch's receiving, from its receipt_starts to its receipt: the
// consumer waiting for the worker to pass the batch's descriptors, never compute. `receipts` and
// `starts`: the pass's, in receipt order.
bool receiving(const Gap& g, const std::vector<std::uint64_t>& receipts,
               const std::vector<std::uint64_t>& starts) {
  const auto i = std::lower_bound(receipts.begin(), receipts.end(), g.second) - receipts.begin();
  return i < static_cast<std::ptrdiff_t>(receipts.size()) && g.first >= starts[i];
}

}  // namespace

// Idle gaps of each timeline thread: [end of one call that leaves compute, start of the next].
std::map<std::uint32_t, std::vector<Gap>> idle_gaps(const trace::Trace& t,
                                                    const std::vector<std::uint32_t>& timelines) {
  std::map<std::uint32_t, std::vector<Gap>> gaps_of;
  std::map<std::uint32_t, std::uint64_t> busy_until;
  const std::set<std::uint32_t> wanted(timelines.begin(), timelines.end());
  const std::vector<bool> code = code_files(t);
  for (const auto& e : t.events) {
    if (!wanted.count(e.tid) || !leaves_compute(e, code)) continue;
    auto [it, first] = busy_until.try_emplace(e.tid, 0);
    if (!first && e.ts_ns > it->second) gaps_of[e.tid].push_back({it->second, e.ts_ns});
    it->second = std::max(it->second, e.ts_ns + e.dur_ns);
  }
  return gaps_of;
}

// A pass of one batch: its compute is the main thread's first idle gap after the receipt (shorter
// gaps are the spacing of its syscalls); that gap also holds any wait that follows the compute.
// Returns the gap's end, 0 when there is none.
std::uint64_t single_gap_end(const std::vector<Gap>& gaps, std::uint64_t got_ns) {
  for (const auto& g : gaps)
    if (g.first >= got_ns && g.second - g.first >= 500000) return g.second;
  return 0;
}

// When the timeline thread began to receive each batch of `bs` (receipt order): PyTorch's
// DataLoader reads a batch's message from its result queue (a pipe) and only then fetches each
// tensor's descriptor from the worker over a socket (waiting, in calls the trace does not see,
// for the worker's resource-sharer thread) and maps it; the receipt is the end of that. So a
// batch's receipt began at the last pipe read after the previous batch's receipt, or at the
// receipt itself when there is none (other loaders, dlgen's replay). `queue_reads`: the thread's
// pipe reads, in time order.
std::vector<std::uint64_t> receipt_starts(const std::vector<std::uint64_t>& queue_reads,
                                          const std::vector<const Batch*>& bs) {
  std::vector<std::uint64_t> starts;
  std::uint64_t prev = 0;
  for (const Batch* b : bs) {
    const std::uint64_t r = b->received_ns;
    auto it = std::lower_bound(queue_reads.begin(), queue_reads.end(), r);
    starts.push_back(it != queue_reads.begin() && *std::prev(it) > prev ? *std::prev(it) : r);
    prev = r;
  }
  return starts;
}

// When each thread of `timelines` let go of a batch's tensors (PyTorch: the loop rebinds its
// batch variable and the batch before is freed: a close of each /dev/shm tensor's descriptor,
// kept open since the receipt, and its munmap), in time order: the last close of each tensor file
// (Batches::tensor_batch) the thread closed twice (the first close was the receipt's, of the
// received duplicate), with the receipt of the batch it held (Release).
std::map<std::uint32_t, std::vector<Release>> tensor_releases(
    const trace::Trace& t, const Batches& bt, const std::vector<std::uint32_t>& timelines) {
  const std::set<std::uint32_t> wanted(timelines.begin(), timelines.end());
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::pair<int, std::uint64_t>> closes;
  for (const auto& e : t.events)
    if (e.op == Op::close && wanted.count(e.tid) && bt.tensor_batch.count(e.file)) {
      auto& [n, last] = closes[{e.tid, e.file}];
      ++n;
      last = e.ts_ns;
    }
  std::map<std::uint32_t, std::vector<Release>> out;
  for (const auto& [key, c] : closes)
    if (c.first >= 2)
      out[key.first].push_back({c.second, bt.batches[bt.tensor_batch.at(key.second)].received_ns});
  for (auto& [tid, v] : out) std::sort(v.begin(), v.end());
  return out;
}

// The step intervals of a pass of n ≥ 2 batches, in time order: the n−1 longest idle gaps between
// its first and last receipt that are not a batch's receiving, and one after the last; receipt to
// receipt without a timeline. (On the held-out .pt program on a busy host the receivings' gaps,
// 6-15 ms, outlasted its shortest computes, 3-5 ms: 4 of its 32 steps were such waits.) The gaps
// are chosen over the whole pass, not one between each two receipts: a loop that takes batches
// out of order receives several back to back and computes on them later, each compute ended by
// the release of the batch before it.
std::vector<Gap> pass_step_gaps(const std::vector<Gap>& gaps, const std::vector<const Batch*>& bs,
                                const std::vector<std::uint64_t>& starts,
                                const std::vector<Release>& releases, bool stashes) {
  const std::uint64_t w0 = bs.front()->received_ns, w1 = bs.back()->received_ns;
  std::vector<std::uint64_t> receipts;
  for (const Batch* b : bs) receipts.push_back(b->received_ns);
  std::vector<Gap> in;
  for (const auto& g : gaps)
    if (g.first >= w0 && g.second <= w1 && !receiving(g, receipts, starts) &&
        !taking(g, receipts, releases))
      in.push_back(g);
  std::sort(in.begin(), in.end(),
            [](const auto& a, const auto& b) { return a.second - a.first > b.second - b.first; });
  if (in.size() > bs.size() - 1) in.resize(bs.size() - 1);
  if (in.empty()) {  // no main-thread timeline: receipt to receipt
    std::vector<double> lens;
    for (std::size_t i = 0; i + 1 < bs.size(); ++i) {
      in.push_back({bs[i]->received_ns, bs[i + 1]->received_ns});
      lens.push_back(static_cast<double>(bs[i + 1]->received_ns - bs[i]->received_ns));
    }
    // The last batch is computed on too, after the last receipt: one more step of the
    // typical length (n batches are n steps).
    in.push_back({w1, w1 + static_cast<std::uint64_t>(detail::percentile(lens, 0.5))});
  } else {
    // The last step computes after the last receipt: the first gap after it of a typical
    // length (not the wait for the next pass's workers, which is longer).
    std::vector<double> lens;
    for (const auto& g : in) lens.push_back(static_cast<double>(g.second - g.first));
    const double typical_gap = detail::percentile(lens, 0.5);
    bool found = false;
    for (const auto& g : gaps) {
      if (g.first < w1) continue;
      const double len = static_cast<double>(g.second - g.first);
      if (len > 1.5 * typical_gap) break;
      if (len >= 0.5 * typical_gap) {
        in.push_back(g);
        found = true;
        break;
      }
    }
    // None (the last step runs into the checkpoint or the next pass's start-up): still one
    // step of the typical length, as with receipts only, so that n batches are n steps
    // on both sides of a comparison.
    if (!found && !lens.empty()) in.push_back({w1, w1 + static_cast<std::uint64_t>(typical_gap)});
  }
  std::sort(in.begin(), in.end());
  if (stashes) split_stashed(in);
  return in;
}

}  // namespace dlgen::analysis::stages::gaps
