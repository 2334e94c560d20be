// Accelerators that are threads of one process (thread_accelerators.hpp).
#include "thread_accelerators.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace dlgen::analysis {
namespace {

using trace::Op;

// One thread's sendmsg or recvmsg calls: which descriptor it used most, and when.
struct Channel {
  std::uint32_t pid = 0, tid = 0;
  std::map<std::int32_t, std::uint64_t> fds;  // descriptor → calls
  std::uint64_t first = UINT64_MAX, last = 0;
  // When the thread was created (its first call when the trace does not say): the replay starts
  // every thread of a phase at once, while an accelerator's first batch may come much later
  // (reader.startup_spread) and one accelerator may finish before another's first.
  std::uint64_t created = UINT64_MAX;
  std::int32_t fd() const {
    return std::max_element(fds.begin(), fds.end(),
                            [](const auto& a, const auto& b) { return a.second < b.second; })
        ->first;
  }
};

// How far apart two spans of time are: 0 when they overlap, else the gap between them.
std::uint64_t distance(std::uint64_t a0, std::uint64_t a1, std::uint64_t b0, std::uint64_t b1) {
  return a1 < b0 ? b0 - a1 : b1 < a0 ? a0 - b1 : 0;
}

std::uint64_t overlap(std::uint64_t a0, std::uint64_t a1, std::uint64_t b0, std::uint64_t b1) {
  const std::uint64_t lo = std::max(a0, b0), hi = std::min(a1, b1);
  return hi > lo ? hi - lo : 0;
}

// Thread → the pid of the accelerator process it moves to, for process `pid`; empty when its
// threads do not have the replay's shape.
std::map<std::uint32_t, std::uint32_t> plan_process(std::uint32_t pid,
                                                    std::vector<const Channel*> consumers,
                                                    const std::vector<const Channel*>& senders) {
  std::sort(consumers.begin(), consumers.end(),
            [](const Channel* a, const Channel* b) { return a->created < b->created; });
  // Phases: consumers that live at the same time.
  std::vector<std::vector<const Channel*>> phases;
  std::uint64_t phase_end = 0;
  for (const Channel* c : consumers) {
    if (phases.empty() || c->created > phase_end) phases.emplace_back(), phase_end = 0;
    phases.back().push_back(c);
    phase_end = std::max(phase_end, c->last);
  }
  if (std::none_of(phases.begin(), phases.end(), [](const auto& p) { return p.size() >= 2; }))
    return {};
  // Each sender joins the phase nearest in time (the one its calls overlap most when several do).
  // A sender may be done before its consumer's first receipt: the replay starts the readers
  // first, and a reader with a short share (a rank's share of a small epoch under mpirun, one or
  // two batches) sends all its tokens at once; phases are apart by a pass's start-up.
  std::vector<std::vector<const Channel*>> phase_senders(phases.size());
  for (const Channel* s : senders) {
    std::size_t best = 0;
    std::uint64_t best_distance = UINT64_MAX, best_overlap = 0;
    for (std::size_t p = 0; p < phases.size(); ++p) {
      std::uint64_t lo = UINT64_MAX, hi = 0;
      for (const Channel* c : phases[p]) lo = std::min(lo, c->created), hi = std::max(hi, c->last);
      const std::uint64_t d = distance(s->created, s->last, lo, hi);
      const std::uint64_t o = overlap(s->created, s->last, lo, hi);
      if (d < best_distance || (d == best_distance && o > best_overlap))
        best = p, best_distance = d, best_overlap = o;
    }
    phase_senders[best].push_back(s);
  }
  std::map<std::uint32_t, std::uint32_t> moved;
  std::vector<std::uint32_t> accelerator_pid;  // k-th accelerator → its process's pid
  for (std::size_t p = 0; p < phases.size(); ++p) {
    std::vector<const Channel*> cons = phases[p];
    std::sort(cons.begin(), cons.end(),
              [](const Channel* a, const Channel* b) { return a->fd() < b->fd(); });
    std::set<std::int32_t> send_fds;
    for (const Channel* s : phase_senders[p]) send_fds.insert(s->fd());
    std::set<std::int32_t> recv_fds;
    for (const Channel* c : cons) recv_fds.insert(c->fd());
    if (recv_fds.size() != cons.size() || send_fds.size() != cons.size()) return {};
    const std::vector<std::int32_t> sends(send_fds.begin(), send_fds.end());
    for (std::size_t k = 0; k < cons.size(); ++k) {
      if (k == accelerator_pid.size()) accelerator_pid.push_back(cons[k]->tid);
      moved[cons[k]->tid] = accelerator_pid[k];
    }
    for (const Channel* s : phase_senders[p]) {
      const auto k = static_cast<std::size_t>(
          std::lower_bound(sends.begin(), sends.end(), s->fd()) - sends.begin());
      moved[s->tid] = accelerator_pid[k];
    }
  }
  (void)pid;
  return moved;
}

}  // namespace

std::optional<trace::Trace> split_thread_accelerators(const trace::Trace& t) {
  std::map<std::uint32_t, Channel> recv, send;     // by tid
  std::set<std::uint32_t> file_readers;            // threads that read a file (not a socket)
  std::map<std::uint32_t, std::uint64_t> created;  // thread → its creation, when recorded
  for (const auto& p : t.processes)
    if (p.is_thread && p.start_ns > 0) created[p.pid] = p.start_ns;
  for (const auto& e : t.events) {
    if (e.tid == e.pid) continue;  // a main thread: PyTorch's consumer, not a replay thread
    if ((e.op == Op::uring_read || e.op == Op::read || e.op == Op::pread) &&
        e.file != trace::kNoFile)
      file_readers.insert(e.tid);
    if (e.op != Op::recvmsg && e.op != Op::sendmsg) continue;
    Channel& c = (e.op == Op::recvmsg ? recv : send)[e.tid];
    c.pid = e.pid;
    c.tid = e.tid;
    ++c.fds[e.fd];
    c.first = std::min(c.first, e.ts_ns);
    c.last = std::max(c.last, e.ts_ns);
  }
  for (auto* channels : {&recv, &send})
    for (auto& [tid, c] : *channels) {
      const auto it = created.find(tid);
      c.created = it != created.end() && it->second <= c.first ? it->second : c.first;
    }
  // The replay's consumers only receive and its readers only send, after reading files; a thread
  // that does both, or sends without reading a file, is someone else's (an MPI library's progress
  // or launcher-channel thread under mpirun) and must not split or merge the replay's phases.
  std::map<std::uint32_t, std::vector<const Channel*>> consumers, senders;  // by process
  for (const auto& [tid, c] : recv)
    if (!send.count(tid)) consumers[c.pid].push_back(&c);
  for (const auto& [tid, c] : send)
    if (!recv.count(tid) && file_readers.count(tid)) senders[c.pid].push_back(&c);
  std::map<std::uint32_t, std::uint32_t> moved;   // tid → new pid
  std::map<std::uint32_t, std::uint32_t> parent;  // new pid → the real process
  for (const auto& [pid, cons] : consumers) {
    if (cons.size() < 2) continue;
    for (const auto& [tid, to] : plan_process(pid, cons, senders[pid]))
      moved[tid] = to, parent[to] = pid;
  }
  if (moved.empty()) return std::nullopt;
  trace::Trace out = t;
  for (auto& e : out.events)
    if (auto it = moved.find(e.tid); it != moved.end()) e.pid = it->second;
  for (auto& p : out.processes) {
    auto it = moved.find(p.pid);
    if (it == moved.end()) continue;
    p.tgid = it->second;
    if (p.pid == it->second) {
      p.is_thread = false;
      p.ppid = parent[it->second];
    }
  }
  return out;
}

}  // namespace dlgen::analysis
