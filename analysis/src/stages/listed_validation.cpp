// listed_validation: a validation set that shares its directory with the training files and is
// chosen by a list (MLPerf's KiTS19: case_*_x.npy / case_*_y.npy in one folder, and
// evaluation_cases.txt naming the validation cases). No path tells the two apart; the passes do:
// a DataLoader forks a fresh set of workers for every pass, so the readers reading at the same time
// are one pass, and a validation pass's readers read only validation files. Persistent workers
// (persistent_workers=True) are forked once per loader and read in every pass of it: their spans
// cover the whole run and overlap the other loader's, so there the readers forked together (one
// loader's workers) are what belongs together, and the two sets must be read in turns.
#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "stages.hpp"

namespace dlgen::analysis::stages {
namespace {

// A reader process's span of reads of the candidate files, and the files it read.
struct ReaderSpan {
  std::uint64_t begin = UINT64_MAX, end = 0;
  std::vector<std::uint32_t> files;
};

// Each reader's span of reads of the candidate files (`pos`: trace file → position), a reader
// being a process (tgid), or each thread when `threads`.
std::map<std::uint32_t, ReaderSpan> reader_spans(const trace::Trace& t,
                                                 const std::map<std::uint32_t, std::uint32_t>& pos,
                                                 bool threads) {
  std::map<std::uint32_t, ReaderSpan> readers;
  for (const auto& e : t.events) {
    if (e.file == trace::kNoFile || e.ret <= 0 || !trace::is_read(e.op)) continue;
    auto p = pos.find(e.file);
    if (p == pos.end()) continue;
    auto& r = readers[threads ? e.tid : e.pid];
    r.begin = std::min(r.begin, e.ts_ns);
    r.end = std::max(r.end, e.ts_ns + e.dur_ns);
    r.files.push_back(p->second);
  }
  return readers;
}

// Union-find over positions in the candidate list.
struct Components {
  std::vector<std::uint32_t> parent;
  explicit Components(std::size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0u); }
  std::uint32_t find(std::uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  }
  void join(std::uint32_t a, std::uint32_t b) { parent[find(a)] = find(b); }
};

// The candidate files split by the read spans: readers whose spans overlap, one after another, are
// one pass (its workers, or the ranks of a distributed run), and their files belong together.
Components by_spans(const std::map<std::uint32_t, ReaderSpan>& readers, std::size_t n) {
  std::vector<const ReaderSpan*> spans;
  for (const auto& [pid, r] : readers) spans.push_back(&r);
  std::sort(spans.begin(), spans.end(),
            [](const ReaderSpan* a, const ReaderSpan* b) { return a->begin < b->begin; });
  Components comp(n);
  std::uint64_t reach = 0;
  std::uint32_t anchor = 0;  // a file of the current pass
  for (const ReaderSpan* r : spans) {
    if (r->begin >= reach) anchor = r->files.front();  // a new pass
    reach = std::max(reach, r->end);
    for (auto f : r->files) comp.join(anchor, f);
  }
  return comp;
}

// The candidate files split by fork generations: the reader processes one parent forked before any
// of them read (a DataLoader's workers, forked together when its iterator starts) read one loader's
// files. A reader whose parent is not known is a generation of its own.
Components by_generations(const trace::Trace& t, const std::map<std::uint32_t, ReaderSpan>& readers,
                          std::size_t n) {
  std::map<std::uint32_t, const trace::Process*> procs;
  for (const auto& p : t.processes)
    if (!p.is_thread) procs[p.pid] = &p;
  std::map<std::uint32_t, std::vector<std::pair<std::uint64_t, std::uint32_t>>> children;
  for (const auto& [pid, r] : readers) {
    auto p = procs.find(pid);
    if (p != procs.end() && p->second->ppid)
      children[p->second->ppid].push_back({p->second->start_ns, pid});
  }
  Components comp(n);
  for (const auto& [pid, r] : readers)
    for (auto f : r.files) comp.join(r.files.front(), f);
  for (auto& [parent, kids] : children) {
    std::sort(kids.begin(), kids.end());
    std::uint64_t first_read = UINT64_MAX;  // the current generation's
    std::uint32_t anchor = 0;
    for (const auto& [start, pid] : kids) {
      const ReaderSpan& r = readers.at(pid);
      if (start >= first_read)
        first_read = UINT64_MAX;  // forked after its siblings read: a new one
      if (first_read == UINT64_MAX) anchor = r.files.front();
      first_read = std::min(first_read, r.begin);
      comp.join(anchor, r.files.front());
    }
  }
  return comp;
}

// Exactly two sets of files, the smaller first; empty when the components are not two of
// different sizes.
std::vector<std::vector<std::uint32_t>> two_sets(Components& comp,
                                                 const std::map<std::uint32_t, ReaderSpan>& readers,
                                                 const std::vector<std::uint32_t>& files) {
  std::map<std::uint32_t, std::vector<std::uint32_t>> sets;
  for (const auto& [pid, r] : readers)
    for (auto f : r.files) sets[comp.find(f)].push_back(files[f]);
  if (sets.size() != 2) return {};
  std::vector<std::vector<std::uint32_t>> two;
  for (auto& [root, fs] : sets) {
    std::sort(fs.begin(), fs.end());
    fs.erase(std::unique(fs.begin(), fs.end()), fs.end());
    two.push_back(std::move(fs));
  }
  if (two[0].size() == two[1].size()) return {};  // which one trains is not known
  if (two[0].size() > two[1].size()) std::swap(two[0], two[1]);
  return two;
}

// Whether the reads of `small` and the other candidates came in turns (passes of their own): in
// time order, a run of one set's reads is on average at least 20 reads long. Two loaders reading
// at the same time alternate read by read.
bool read_in_turns(const trace::Trace& t, const std::map<std::uint32_t, std::uint32_t>& pos,
                   const std::vector<std::uint32_t>& small) {
  const std::set<std::uint32_t> in_small(small.begin(), small.end());
  std::uint64_t reads = 0, runs = 0;
  int last = -1;
  for (const auto& e : t.events) {
    if (e.file == trace::kNoFile || e.ret <= 0 || !trace::is_read(e.op) || !pos.count(e.file))
      continue;
    const int which = in_small.count(e.file) ? 1 : 0;
    ++reads;
    if (which != last) ++runs;
    last = which;
  }
  return runs * 20 <= reads;
}

}  // namespace

std::vector<std::uint32_t> listed_validation(const trace::Trace& t,
                                             const std::vector<std::uint32_t>& files) {
  std::map<std::uint32_t, std::uint32_t> pos;  // trace file → position in `files`
  for (std::size_t i = 0; i < files.size(); ++i) pos[files[i]] = static_cast<std::uint32_t>(i);
  // Readers are processes (tgid): the threads of one process read in one pass or in all of them.
  // With one reading process, its threads: dlgen's replay starts its reader workers as threads of
  // its own process, afresh for every pass, as a DataLoader forks its worker processes.
  std::map<std::uint32_t, ReaderSpan> readers = reader_spans(t, pos, false);
  if (readers.size() == 1) {
    auto threads = reader_spans(t, pos, true);
    Components spans = by_spans(threads, files.size());
    if (auto two = two_sets(spans, threads, files); !two.empty()) return two[0];
  }
  Components spans = by_spans(readers, files.size());
  auto two = two_sets(spans, readers, files);
  if (!two.empty()) return two[0];
  // Every reader's span overlaps another's: persistent workers, or one reader for both sets. Two
  // loaders' worker generations then, each read in passes of its own.
  Components generations = by_generations(t, readers, files.size());
  two = two_sets(generations, readers, files);
  if (two.empty() || !read_in_turns(t, pos, two[0])) return {};
  return two[0];
}

}  // namespace dlgen::analysis::stages
