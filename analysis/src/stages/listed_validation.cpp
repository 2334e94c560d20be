// listed_validation: a validation set that shares its directory with the training files and is
// chosen by a list (MLPerf's KiTS19: case_*_x.npy / case_*_y.npy in one folder, and
// evaluation_cases.txt naming the validation cases). No path tells the two apart; the passes do:
// a DataLoader forks a fresh set of workers for every pass, so the readers reading at the same time
// are one pass, and a validation pass's readers read only validation files.
#include <algorithm>
#include <map>
#include <numeric>

#include "stages.hpp"

namespace dlgen::analysis::stages {
namespace {

// A reader process's span of reads of the candidate files, and the files it read.
struct ReaderSpan {
  std::uint64_t begin = UINT64_MAX, end = 0;
  std::vector<std::uint32_t> files;
};

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

}  // namespace

std::vector<std::uint32_t> listed_validation(const trace::Trace& t,
                                             const std::vector<std::uint32_t>& files) {
  std::map<std::uint32_t, std::uint32_t> pos;  // trace file → position in `files`
  for (std::size_t i = 0; i < files.size(); ++i) pos[files[i]] = static_cast<std::uint32_t>(i);
  // Readers are processes (tgid): the threads of one process read in one pass or in all of them.
  std::map<std::uint32_t, ReaderSpan> readers;
  for (const auto& e : t.events) {
    if (e.file == trace::kNoFile || e.ret <= 0 || !trace::is_read(e.op)) continue;
    auto p = pos.find(e.file);
    if (p == pos.end()) continue;
    auto& r = readers[e.pid];
    r.begin = std::min(r.begin, e.ts_ns);
    r.end = std::max(r.end, e.ts_ns + e.dur_ns);
    r.files.push_back(p->second);
  }
  // Readers whose spans overlap, one after another, are one pass (its workers, or the ranks of a
  // distributed run): their files belong together.
  std::vector<const ReaderSpan*> spans;
  for (const auto& [pid, r] : readers) spans.push_back(&r);
  std::sort(spans.begin(), spans.end(),
            [](const ReaderSpan* a, const ReaderSpan* b) { return a->begin < b->begin; });
  Components comp(files.size());
  std::uint64_t reach = 0;
  std::uint32_t anchor = 0;  // a file of the current pass
  for (const ReaderSpan* r : spans) {
    if (r->begin >= reach) anchor = r->files.front();  // a new pass
    reach = std::max(reach, r->end);
    for (auto f : r->files) comp.join(anchor, f);
  }
  // Two sets of files, each read only in passes of its own: the larger is the training set.
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
  return two[0].size() < two[1].size() ? two[0] : two[1];
}

}  // namespace dlgen::analysis::stages
