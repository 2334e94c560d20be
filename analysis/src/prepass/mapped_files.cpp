#include "mapped_files.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "stats.hpp"

namespace dlgen::analysis {
namespace {

using trace::Event;
using trace::Op;

constexpr std::uint32_t kMapShared = 0x01;  // mmap flags
constexpr std::uint64_t kProtExec = 0x4;    // mmap prot (Event::arg)
constexpr std::uint64_t kPage = 4096;       // the filemap tracepoints' page (x86_64)

bool data_mapping(const Event& e) {
  return e.op == Op::mmap && e.ret >= 0 && e.file != trace::kNoFile && (e.flags & kMapShared) &&
         !(e.arg & kProtExec);
}

// The candidates: files mapped shared for data, not shared-memory tensors, and faulted on; into
// `found` by file, with each one's fault count and fault-around window. Returns the fd each mapped
// file was mapped through.
std::unordered_map<std::uint32_t, std::int32_t> find_mapped_files(const trace::Trace& t,
                                                                  std::vector<MappedFile>& found) {
  std::unordered_set<std::uint32_t> shm;
  std::unordered_map<std::uint32_t, std::int32_t> fd_of;  // file → an fd it was mapped through
  std::unordered_map<std::uint32_t, std::uint64_t> faults;
  std::unordered_map<std::uint32_t, std::vector<std::uint64_t>> extents;  // fault-around sizes
  for (const auto& e : t.events) {
    if (e.file == trace::kNoFile) continue;
    if (e.op == Op::shm_open) shm.insert(e.file);
    if (data_mapping(e) && e.fd >= 0) fd_of.try_emplace(e.file, e.fd);
    if (e.op == Op::fault) {
      ++faults[e.file];
      if (e.flags == 1) extents[e.file].push_back(e.size);
    }
  }
  for (const auto& [f, fd] : fd_of) {
    if (shm.count(f) || t.files[f].path.rfind("/dev/shm/", 0) == 0 || !faults.count(f)) continue;
    MappedFile m;
    m.file = f;
    m.faults = faults[f];
    m.window = detail::mode(extents[f]);
    found.push_back(m);
  }
  std::sort(found.begin(), found.end(),
            [](const MappedFile& a, const MappedFile& b) { return a.file < b.file; });
  return fd_of;
}

// When each process (tgid) ended; absent or 0: alive to the end.
class ProcessEnds {
 public:
  explicit ProcessEnds(const trace::Trace& t) {
    for (const auto& p : t.processes)
      if (!p.is_thread) end_of_[p.pid] = p.end_ns;
  }
  bool alive(std::uint32_t pid, std::uint64_t ts) const {
    auto it = end_of_.find(pid);
    return it == end_of_.end() || it->second == 0 || it->second > ts;
  }

 private:
  std::unordered_map<std::uint32_t, std::uint64_t> end_of_;
};

// Processes whose faults on a mapped file were a look-up before the loader read it, not sample
// reads, per file: LMDB's "ImageNet as LMDB" Dataset opens the environment in the main process
// only to read its `__len__` key and closes it before the DataLoader forks its workers (a few
// windows: the meta page, the root and one leaf). Kept, that process (alive to the end) would own
// those windows for the whole run, so no worker ever read them, and they made a set of their own:
// a validation pass. Such a process faulted on the file only before any other process did, and
// made under 1% of the run's faults on it; a lone reader (num_workers=0) is never
// one.
std::unordered_set<std::uint64_t> lookup_processes(const trace::Trace& t,
                                                   const std::vector<MappedFile>& found) {
  struct Span {
    std::uint64_t first = UINT64_MAX, last = 0, faults = 0;
  };
  std::unordered_map<std::uint32_t, std::unordered_map<std::uint32_t, Span>> spans;  // file, pid
  for (const auto& e : t.events) {
    if (e.op != Op::fault || e.file == trace::kNoFile) continue;
    Span& s = spans[e.file][e.pid];
    s.first = std::min(s.first, e.ts_ns);
    s.last = std::max(s.last, e.ts_ns);
    ++s.faults;
  }
  std::unordered_set<std::uint64_t> out;  // file << 32 | pid
  for (const auto& m : found) {
    const auto& per_pid = spans[m.file];
    if (per_pid.size() < 2) continue;
    for (const auto& [pid, s] : per_pid) {
      bool before_all = s.faults * 100 < m.faults;
      for (const auto& [other, o] : per_pid)
        if (other != pid && o.first <= s.last) before_all = false;
      if (before_all) out.insert(std::uint64_t{m.file} << 32 | pid);
    }
  }
  return out;
}

// The mappings of the mapped files, each from its mmap to the munmap of its address by the same
// process. A process that unmaps the file and maps it again (nanoGPT's get_batch maps train.bin
// afresh every call) faults its pages again: they are reads again. A fault belongs to the
// faulting process's latest live mapping of the file; 0 is "none seen" (inherited over fork, or
// mapped before the trace), live while the process is.
class Mappings {
 public:
  // Follows mmap (of a mapped file: `mapped`) and munmap events, in time order.
  void add(const Event& e, bool mapped) {
    if (e.op == Op::mmap && mapped && data_mapping(e)) {
      const std::uint64_t id = ++last_;
      latest_[key(e.pid, e.file)] = id;
      at_[key(e.pid, static_cast<std::uint64_t>(e.ret))] = id;
    } else if (e.op == Op::munmap) {
      auto it = at_.find(key(e.pid, e.offset));
      if (it == at_.end()) return;
      ended_.insert(it->second);
      at_.erase(it);
    }
  }
  std::uint64_t current(std::uint32_t pid, std::uint32_t file) const {
    auto it = latest_.find(key(pid, file));
    return it == latest_.end() || ended_.count(it->second) ? 0 : it->second;
  }
  bool live(std::uint64_t id) const { return id == 0 || !ended_.count(id); }

 private:
  using Key = std::pair<std::uint32_t, std::uint64_t>;
  static Key key(std::uint32_t pid, std::uint64_t x) { return {pid, x}; }
  std::uint64_t last_ = 0;
  std::map<Key, std::uint64_t> latest_, at_;  // (pid, file), (pid, address) → mapping id
  std::unordered_set<std::uint64_t> ended_;
};

// Who read a window: the process and the mapping it faulted through.
struct Owner {
  std::uint32_t pid = 0;
  std::uint64_t mapping = 0;
};

// A page fault on mapped file `m` as a pread (through `fd`) of each window it touches that no
// live mapping of a live process has read yet: `owner` maps a window to the process that read it
// (its first toucher while it lives and keeps that mapping).
void add_fault_reads(const trace::Trace& t, const Event& e, std::int32_t fd, MappedFile& m,
                     std::unordered_map<std::uint64_t, Owner>& owner, const ProcessEnds& ends,
                     const Mappings& maps, std::vector<Event>& out) {
  const std::uint64_t w = m.window ? m.window : kPage;
  const std::uint64_t end = std::max(t.files[e.file].size_at_open, e.offset + e.size);
  const Owner me{e.pid, maps.current(e.pid, e.file)};
  for (std::uint64_t k = e.offset / w; k * w < e.offset + e.size; ++k) {
    auto [it, added] = owner.try_emplace(k, me);
    if (!added && ends.alive(it->second.pid, e.ts_ns) && maps.live(it->second.mapping))
      continue;  // read already this epoch
    it->second = me;
    Event r = e;
    r.op = Op::pread;
    r.fd = fd;
    r.offset = k * w;
    r.size = std::min(w, (end + kPage - 1) / kPage * kPage - r.offset);
    r.ret = static_cast<std::int64_t>(r.size);
    r.flags = 0;
    r.arg = 0;
    ++m.reads;
    m.bytes += r.size;
    out.push_back(r);
  }
}

}  // namespace

std::optional<trace::Trace> faults_as_reads(const trace::Trace& t, std::vector<MappedFile>& found) {
  std::unordered_map<std::uint32_t, std::int32_t> fd_of = find_mapped_files(t, found);
  if (found.empty()) return std::nullopt;
  std::unordered_map<std::uint32_t, std::size_t> row_of;  // file → row in found
  for (std::size_t i = 0; i < found.size(); ++i) row_of[found[i].file] = i;
  const ProcessEnds ends(t);
  const std::unordered_set<std::uint64_t> lookups = lookup_processes(t, found);

  trace::Trace out;
  out.meta = t.meta;
  out.files = t.files;
  out.processes = t.processes;
  out.events.reserve(t.events.size());
  // Per mapped file: window → the process that read it.
  std::vector<std::unordered_map<std::uint64_t, Owner>> owner(found.size());
  Mappings maps;
  for (const auto& e : t.events) {
    auto row = e.file != trace::kNoFile ? row_of.find(e.file) : row_of.end();
    maps.add(e, row != row_of.end());
    const bool np_load = e.op == Op::open || e.op == Op::close || e.op == Op::lseek;
    if (row == row_of.end() || (e.op != Op::fault && !trace::is_read(e.op) && !np_load)) {
      out.events.push_back(e);
      continue;
    }
    MappedFile& m = found[row->second];
    if (e.op == Op::fault && lookups.count(std::uint64_t{e.file} << 32 | e.pid)) {
      ++m.lookup_faults;
      continue;
    }
    if (e.op != Op::fault) {
      // np.load's opens and header read before mapping, once per call, not per sample: dropped,
      // since kept the header would read as sample 0 read again by every worker (a new epoch
      // each time), and the opens as a file opened per few samples.
      m.header_reads += !np_load;
      continue;
    }
    add_fault_reads(t, e, fd_of[e.file], m, owner[row->second], ends, maps, out.events);
  }
  return out;
}

}  // namespace dlgen::analysis
