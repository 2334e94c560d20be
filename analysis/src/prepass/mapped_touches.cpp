#include "mapped_touches.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace dlgen::analysis {
namespace {

using trace::Event;
using trace::Op;

constexpr std::uint64_t kBlock = 2 << 20;  // a PMD-mapped folio: faults in it show no tracepoint

// A worker handing a batch over, from the raw trace (stages' is_handover needs the classified
// files): sendmsg on its socket, or a /dev/shm tensor file made (POSIX semaphores are locks).
bool hands_over(const trace::Trace& t, const Event& e) {
  if (e.op == Op::sendmsg) return true;
  if (e.op != Op::shm_open && e.op != Op::open) return false;
  if (e.file == trace::kNoFile || e.file >= t.files.size()) return e.op == Op::shm_open;
  const std::string& path = t.files[e.file].path;
  return path.rfind("/dev/shm/", 0) == 0 && path.rfind("/dev/shm/sem.", 0) != 0;
}

struct Group {
  std::uint64_t windows = 0, shown = 0;  // the files' windows; those in blocks a fault showed
  double touches = 0, fresh = 0;         // over the worker batches
  std::uint64_t batches = 0;
  // Windows an item spans → touches seen so, in batches where nearly every window could fault
  // (the worker's first ones): there a touch shows its item's whole span.
  std::map<std::uint64_t, std::uint64_t> spans;
  // The chance an item shows a touch when a share f of the windows could fault: it does when any
  // of its s windows could, 1 - (1 - f)^s, over the spans seen (one window when none were).
  double shows(double f) const {
    std::uint64_t n = 0;
    double p = 0;
    for (const auto& [span, count] : spans) {
      p += static_cast<double>(count) * (1 - std::pow(1 - f, static_cast<double>(span)));
      n += count;
    }
    return n ? p / static_cast<double>(n) : f;
  }
};

// The share of the shown windows a worker must not have mapped yet for its batch to count: its
// first batches. Later, a loader that draws without replacement (an epoch's permutation) rarely
// draws an item from the windows it mapped (their items were drawn already), while P(f) assumes
// it draws them as often as any: late batches would show more touches than P(f) expects and
// make B too large (16 KiB samples, 4 a window: 18 for 16). Early, few windows are mapped, and
// either way nearly every item shows; there, too, a touch shows its item's whole span.
constexpr double kEarly = 0.9;

// One process's batches on one group, and what it has mapped of the group's files.
struct Reader {
  std::uint32_t tid = 0;  // the thread that faulted
  std::uint64_t touches = 0;
  double fresh = 0;  // share of the group's windows that could still fault, at the batch's start
  std::uint32_t file = trace::kNoFile;
  std::uint64_t first = 0, last = 0;         // the latest touch's windows
  std::unordered_set<std::uint64_t> mapped;  // file << 32 | window
  std::uint64_t mapped_shown = 0;            // ... of them, in shown blocks (all: they faulted)
  // Each batch that showed touches, then the run of hand-overs after it (its own, and those of
  // the batches after it that showed none) with the share that could fault during that run.
  struct Run {
    std::uint64_t touches = 0, handovers = 0;
    double fresh = 0, fresh_after = 0;
  };
  std::vector<Run> runs;
};

// Hand-overs per batch: the commonest run of hand-overs after a batch that showed touches (a
// PyTorch worker makes one per tensor of the batch, and a sendmsg).
std::uint64_t handovers_per_batch(
    const std::map<std::pair<std::uint32_t, std::string>, Reader>& rs) {
  std::map<std::uint64_t, std::uint64_t> count;
  for (const auto& [key, r] : rs)
    for (const auto& run : r.runs)
      if (run.handovers) ++count[run.handovers];
  std::uint64_t best = 1, n = 0;
  for (const auto& [h, c] : count)
    if (c > n) best = h, n = c;
  return best;
}

// The mapped files by group (their folder), and which of their windows lie in blocks a fault
// showed.
struct Groups {
  std::unordered_map<std::uint32_t, std::size_t> row_of;  // file → row in found
  std::vector<std::string> group_of;                      // row → group
  std::vector<std::uint64_t> window;                      // row → its fault-around window
  std::map<std::string, Group> groups;

  Groups(const trace::Trace& t, const std::vector<MappedFile>& found)
      : group_of(found.size()), window(found.size()) {
    std::set<std::pair<std::uint32_t, std::uint64_t>> blocks;  // (file, block) a fault showed
    std::vector<std::uint64_t> size(found.size(), 0);
    for (std::size_t i = 0; i < found.size(); ++i) {
      row_of[found[i].file] = i;
      window[i] = found[i].window ? found[i].window : 4096;
      group_of[i] = std::filesystem::path(t.files[found[i].file].path).parent_path().string();
      size[i] = t.files[found[i].file].size_at_open;
    }
    for (const auto& e : t.events)
      if (e.op == Op::fault && row_of.count(e.file)) {
        const std::size_t row = row_of[e.file];
        size[row] = std::max(size[row], e.offset + e.size);
        blocks.insert({e.file, e.offset / kBlock});
      }
    for (std::size_t i = 0; i < found.size(); ++i) {
      const std::uint64_t w = window[i], n = (size[i] + w - 1) / w;
      Group& g = groups[group_of[i]];
      g.windows += n;
      for (std::uint64_t k = 0; k < n; ++k)
        g.shown += blocks.count({found[i].file, k * w / kBlock});
    }
  }
};

bool early(double fresh, const Group& g) {
  return fresh * static_cast<double>(g.windows) >= kEarly * static_cast<double>(g.shown);
}

double fresh_of(const Reader& r, const Group& g) {
  return static_cast<double>(g.shown - std::min(g.shown, r.mapped_shown)) /
         static_cast<double>(std::max<std::uint64_t>(1, g.windows));
}

using Readers = std::map<std::pair<std::uint32_t, std::string>, Reader>;  // (pid, group)

// A hand-over by process `e.pid` ends the batch of each of its readers (see follow_readers).
void end_batches(const Event& e, const std::set<std::uint32_t>& handing_tids, Groups& gs,
                 Readers& readers) {
  for (auto it = readers.lower_bound({e.pid, std::string()});
       it != readers.end() && it->first.first == e.pid; ++it) {
    Reader& r = it->second;
    Group& g = gs.groups[it->first.second];
    if (e.tid != r.tid && handing_tids.count(r.tid)) continue;
    if (r.file != trace::kNoFile && early(r.fresh, g)) ++g.spans[r.last - r.first + 1];
    if (r.touches) r.runs.push_back({r.touches, 0, r.fresh, 0});
    if (!r.runs.empty()) {
      ++r.runs.back().handovers;
      r.runs.back().fresh_after = fresh_of(r, g);
    }
    r.touches = 0;
    r.file = trace::kNoFile;
  }
}

// A fault on a mapped file: a new touch unless it extends the reader's latest one.
void add_fault(const Event& e, std::size_t row, Groups& gs, Readers& readers) {
  const std::string& name = gs.group_of[row];
  Group& g = gs.groups[name];
  Reader& r = readers[{e.pid, name}];
  if (r.touches == 0) {
    r.fresh = fresh_of(r, g);
    r.tid = e.tid;
  }
  const std::uint64_t w = gs.window[row];
  const std::uint64_t first = e.offset / w;
  const std::uint64_t last = (e.offset + std::max<std::uint64_t>(e.size, 1) - 1) / w;
  // A run of faults in adjacent windows of one file is one item (a value spanning windows
  // faults them in order).
  const bool same = r.file == e.file && first <= r.last + 1 && last + 1 >= r.first;
  if (!same && r.file != trace::kNoFile && early(r.fresh, g)) ++g.spans[r.last - r.first + 1];
  if (!same) ++r.touches;
  r.first = same ? std::min(r.first, first) : first;
  r.last = same ? std::max(r.last, last) : last;
  r.file = e.file;
  for (std::uint64_t k = first; k <= last; ++k)
    r.mapped_shown += r.mapped.insert(std::uint64_t{e.file} << 32 | k).second;
}

// The threads that hand over: a worker's own (the thread that reads collates and shares the
// batch's tensors) mark its batches; another thread's (a sendmsg when the consumer asks for the
// descriptors) come late and count only for a process whose reading thread makes none.
Readers follow_readers(const trace::Trace& t, Groups& gs) {
  std::set<std::uint32_t> handing_tids;
  for (const auto& e : t.events)
    if (hands_over(t, e)) handing_tids.insert(e.tid);
  Readers readers;
  for (const auto& e : t.events) {
    if (hands_over(t, e)) {
      end_batches(e, handing_tids, gs, readers);
      continue;
    }
    if (e.op != Op::fault) continue;
    const auto row = gs.row_of.find(e.file);
    if (row != gs.row_of.end()) add_fault(e, row->second, gs, readers);
  }
  return readers;
}

// Each run of hand-overs longer than a batch's holds batches whose items were all mapped
// already (or hidden): they showed no touch, but count with the share that could fault then,
// or a worker late in its mapping (few windows left to fault) would count only its lucky
// batches.
void count_batches(const Readers& readers, Groups& gs) {
  const std::uint64_t per_batch = handovers_per_batch(readers);
  for (const auto& [key, r] : readers)
    for (const auto& run : r.runs) {
      Group& g = gs.groups[key.second];
      const std::uint64_t quiet =
          std::max<std::uint64_t>(1, (run.handovers + per_batch / 2) / per_batch) - 1;
      if (early(run.fresh, g)) {
        g.touches += static_cast<double>(run.touches);
        g.fresh += g.shows(run.fresh);
        ++g.batches;
      }
      if (early(run.fresh_after, g)) {
        g.fresh += static_cast<double>(quiet) * g.shows(run.fresh_after);
        g.batches += quiet;
      }
    }
}

}  // namespace

std::map<std::string, MappedTouches> mapped_touches(const trace::Trace& t,
                                                    const std::vector<MappedFile>& found) {
  Groups gs(t, found);
  const Readers readers = follow_readers(t, gs);
  count_batches(readers, gs);
  std::map<std::string, MappedTouches> out;
  for (const auto& [name, g] : gs.groups) {
    if (g.batches == 0 || g.fresh <= 0) continue;
    MappedTouches m;
    m.per_batch = g.touches / g.fresh;
    m.batches = g.batches;
    m.touches = static_cast<std::uint64_t>(g.touches);
    m.shown =
        static_cast<double>(g.shown) / static_cast<double>(std::max<std::uint64_t>(1, g.windows));
    out[name] = m;
  }
  return out;
}

}  // namespace dlgen::analysis
