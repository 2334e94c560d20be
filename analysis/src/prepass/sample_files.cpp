#include "sample_files.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>
#include <unordered_map>

#include "archive_members.hpp"

namespace dlgen::analysis {
namespace {

using trace::Event;
using trace::Op;

bool data_read(const Event& e) {
  return trace::is_read(e.op) && e.op != Op::sendfile && e.op != Op::copy_file_range && e.ret > 0;
}

template <class T>
T mode_of(const std::vector<T>& v, std::size_t* count = nullptr) {
  std::unordered_map<T, std::size_t> n;
  for (const T& x : v) ++n[x];
  T best{};
  std::size_t best_n = 0;
  for (const auto& [x, c] : n)
    if (c > best_n || (c == best_n && x < best)) best = x, best_n = c;
  if (count) *count = best_n;
  return best;
}

// The grid's slots less those at its end that hold another array read for every sample (h5py
// reading `images[i]` and `labels[i]` of one file: the label array lies after the images, and
// each sample reads it through HDF5's sieve buffer). Such a slot is read far more often than a
// sample is (over 4x the median read slot's reads and at least 8): it is not a sample. Slots never
// read are kept (a run that stopped early: the file still holds them).
std::uint64_t without_trailing_arrays(const SampleFile& sf,
                                      const std::vector<const Event*>& reads) {
  if (sf.samples == 0) return 0;
  std::vector<std::uint64_t> per_slot(sf.samples, 0);
  for (const Event* e : reads)
    if (e->offset >= sf.base && (e->offset - sf.base) / sf.stride < sf.samples)
      ++per_slot[(e->offset - sf.base) / sf.stride];
  std::vector<std::uint64_t> sorted;  // the slots read
  for (auto n : per_slot)
    if (n > 0) sorted.push_back(n);
  if (sorted.empty()) return sf.samples;
  std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
  const std::uint64_t typical = sorted[sorted.size() / 2];
  std::uint64_t n = sf.samples;
  while (n > 0 && per_slot[n - 1] >= 8 && per_slot[n - 1] > 4 * typical) --n;
  return n;
}

// Whether mostly sequential reads are still records read one by one: each a pread, or an io_uring
// read with no other of its thread in flight (dlgen's replay of such a job; a whole file read in
// requests kept in flight together is no record reader) (the program chose its offset: a map-style dataset's __getitem__ computing it from the index), of one size,
// in runs of consecutive records that begin at kRunStarts different offsets or more (a batch
// sampler handing out blocks of consecutive records, or an unshuffled loader dealing consecutive
// batches to its workers: each worker's next batch starts where another's ended). A stream read
// front to back (a shard through a buffer, np.load of a whole array) begins its runs at the file's
// start only, or after one header; its reads use the descriptor's position (read), not their own.
// Runs are per thread, in the order it made its reads, so the answer does not depend on timing.
bool positional_runs(const std::vector<const Event*>& reads) {
  constexpr std::size_t kRunStarts = 3;
  std::unordered_map<std::uint32_t, std::uint64_t> end_of;  // tid → where its last read ended
  std::unordered_map<std::uint64_t, std::size_t> sizes;
  std::unordered_map<std::uint32_t, std::uint64_t> done_at;  // tid → when its last read completed
  std::set<std::uint64_t> starts;
  for (const Event* e : reads) {
    if (e->op != Op::pread && e->op != Op::preadv && e->op != Op::uring_read) return false;
    if (e->op == Op::uring_read && done_at.count(e->tid) && e->ts_ns < done_at[e->tid])
      return false;
    done_at[e->tid] = e->ts_ns + e->dur_ns;
    ++sizes[e->size];
    auto it = end_of.find(e->tid);
    if (it == end_of.end() || it->second != e->offset) starts.insert(e->offset);
    end_of[e->tid] = e->offset + static_cast<std::uint64_t>(e->ret);
  }
  std::size_t common = 0;
  for (const auto& [size, n] : sizes) common = std::max(common, n);
  return starts.size() >= kRunStarts && common * 10 >= reads.size() * 9;
}

// Whether the offsets read off the commonest grid hold a second array of samples: at least 8 of
// them on a grid of their own (one residue), as an HDF5 file's /val group's chunks lie after its
// /train group's. Slots of the main grid would mix that array's samples with the arrays between
// (the training labels), so the samples are the offsets read.
bool second_region(const std::vector<std::uint64_t>& offs, std::uint64_t stride,
                   std::uint64_t residue) {
  std::vector<std::uint64_t> off_grid;
  for (auto o : offs)
    if (o % stride != residue) off_grid.push_back(o % stride);
  std::size_t n = 0;
  if (off_grid.size() >= 8) mode_of(off_grid, &n);
  return n >= 8;
}

// The sample layout of file `f` if its reads look like sample-at-a-time reads of a multi-sample
// file: many reads per open, mostly not sequential (or records read by position,
// positional_runs), a common request size whose offsets step by a common stride on a common grid.
std::optional<SampleFile> layout_of(const trace::Trace& t, std::uint32_t f,
                                    const std::vector<const Event*>& reads, std::uint64_t opens) {
  constexpr std::size_t kMinReads = 64;
  if (reads.size() < kMinReads || opens * 16 > reads.size()) return std::nullopt;
  // Sequential readers (a big file streamed, np.load of a whole array) are not sample reads,
  // unless they read records by position in runs that begin at many places (positional_runs).
  std::unordered_map<std::uint32_t, std::uint64_t> end_of;  // tid → where its last read ended
  std::size_t sequential = 0;
  for (const Event* e : reads) {
    auto it = end_of.find(e->tid);
    if (it != end_of.end() && it->second == e->offset) ++sequential;
    end_of[e->tid] = e->offset + static_cast<std::uint64_t>(e->ret);
  }
  if (sequential * 2 >= reads.size() && !positional_runs(reads)) return std::nullopt;
  // The sample request: the size that moves the most bytes (a small metadata or label read per
  // sample is as frequent but is not the sample).
  std::unordered_map<std::uint64_t, std::uint64_t> bytes_by_size;
  for (const Event* e : reads) bytes_by_size[e->size] += static_cast<std::uint64_t>(e->ret);
  std::uint64_t request = 0, most = 0;
  for (const auto& [size, bytes] : bytes_by_size)
    if (bytes > most || (bytes == most && size < request)) request = size, most = bytes;
  std::vector<std::uint64_t> offs;
  for (const Event* e : reads)
    if (e->size == request) offs.push_back(e->offset);
  std::sort(offs.begin(), offs.end());
  offs.erase(std::unique(offs.begin(), offs.end()), offs.end());
  if (offs.size() < 16) return std::nullopt;
  std::vector<std::uint64_t> steps;
  for (std::size_t i = 1; i < offs.size(); ++i) steps.push_back(offs[i] - offs[i - 1]);
  std::size_t n_stride = 0;
  const std::uint64_t stride = mode_of(steps, &n_stride);
  if (stride < 512 || n_stride * 10 < steps.size() * 3) return std::nullopt;
  std::vector<std::uint64_t> residues;
  for (auto o : offs) residues.push_back(o % stride);
  std::size_t n_grid = 0;
  const std::uint64_t residue = mode_of(residues, &n_grid);
  SampleFile sf;
  sf.path = t.files[f].path;
  sf.size = t.files[f].size_at_open;
  for (const Event* e : reads)
    sf.size = std::max(sf.size, e->offset + static_cast<std::uint64_t>(e->ret));
  sf.stride = stride;
  sf.request = request;
  sf.reads = reads.size();
  if (n_grid * 2 < offs.size() || second_region(offs, stride, residue)) {
    // Off the grid: chunks of one size with metadata allocated between some of them (an HDF5
    // dataset chunked by row: B-tree nodes every few chunks), or a second array on a grid of its
    // own (an HDF5 file's /val group after its /train group). Still one sample per offset when
    // the sample request moves most of the file's bytes; the samples are the offsets read
    // (every one is read each epoch).
    std::uint64_t all = 0;
    for (const auto& [size, bytes] : bytes_by_size) all += bytes;
    if (most * 2 <= all) return std::nullopt;
    sf.base = offs.front();
    sf.samples = offs.size();
    sf.offsets = std::move(offs);
    return sf;
  }
  sf.base = residue;
  for (auto o : offs)
    if (o % stride == residue) {
      sf.base = o;  // the first sample read on the grid (before it: header, metadata)
      break;
    }
  sf.samples = sf.size > sf.base ? (sf.size - sf.base) / stride : 0;
  sf.samples = without_trailing_arrays(sf, reads);
  if (sf.samples < 16) return std::nullopt;
  return sf;
}

// The sample file layouts found (into `found`), and each real file's row in it.
std::unordered_map<std::uint32_t, std::uint32_t> find_sample_files(const trace::Trace& t,
                                                                   std::vector<SampleFile>& found) {
  std::unordered_map<std::uint32_t, std::vector<const Event*>> reads;
  std::unordered_map<std::uint32_t, std::uint64_t> opens;
  for (const auto& e : t.events) {
    if (e.file == trace::kNoFile) continue;
    if (e.op == Op::open && e.ret >= 0)
      ++opens[e.file];
    else if (data_read(e))
      reads[e.file].push_back(&e);
  }
  std::unordered_map<std::uint32_t, std::uint32_t> row_of;  // real file → row in found
  for (const auto& [f, rs] : reads)
    if (auto sf = archive_member_layout(t, f, rs, opens[f]);
        sf || (sf = layout_of(t, f, rs, opens[f]))) {
      row_of[f] = static_cast<std::uint32_t>(found.size());
      found.push_back(*sf);
    }
  return row_of;
}

// The bytes of sample k: an archive member's extent, else the request read at its offset (or the
// stride, when that is less).
std::uint64_t sample_bytes(const SampleFile& sf, std::uint64_t k) {
  return sf.extents.empty() ? std::min(sf.request, sf.stride) : sf.extents[k];
}

// The sample a read at `offset` starts in (into *k): on the grid, or (irregular layout) the last
// sample offset at or before it, when the read starts within that sample's request. False when it
// starts in no sample.
bool sample_at(const SampleFile& sf, std::uint64_t offset, std::uint64_t* k) {
  if (!sf.offsets.empty()) {
    auto it = std::upper_bound(sf.offsets.begin(), sf.offsets.end(), offset);
    const std::size_t i = static_cast<std::size_t>(it - sf.offsets.begin());
    if (it != sf.offsets.begin() && offset < *std::prev(it) + sample_bytes(sf, i - 1)) {
      *k = static_cast<std::uint64_t>(std::prev(it) - sf.offsets.begin());
      return true;
    }
  } else if (offset >= sf.base && offset < sf.base + sf.samples * sf.stride) {
    *k = (offset - sf.base) / sf.stride;
    return true;
  }
  return false;
}

// Rewrites the trace, event by event, with the reads of sample files as reads of their virtual
// sample files.
struct Splitter {
  const trace::Trace& t;
  std::vector<SampleFile>& found;
  std::map<std::uint32_t, std::uint32_t>& virtual_of;
  trace::Trace out;
  std::map<std::pair<std::uint32_t, std::uint64_t>, std::uint32_t> vfile;  // (real, sample) → index
  std::unordered_map<std::uint32_t, std::uint64_t> current;       // tid → its current sample
  std::unordered_map<std::uint32_t, std::uint32_t> open_virtual;  // tid → virtual file it reads
  std::unordered_map<std::uint32_t, std::uint32_t> pid_of;        // tid → its process
  std::vector<std::vector<std::uint64_t>> aux_sizes;              // per row: other reads' sizes

  // The virtual file of sample k of row `row`'s file, added on first use.
  std::uint32_t virtual_file(const Event& e, std::uint32_t row, std::uint64_t k) {
    const SampleFile& sf = found[row];
    auto [it, added] = vfile.try_emplace({e.file, k}, static_cast<std::uint32_t>(out.files.size()));
    if (added) {
      trace::File vf = t.files[e.file];
      vf.path = virtual_path(sf.path, k);
      vf.ino = 0;
      vf.size_at_open = sf.extents.empty() ? sf.stride : sf.extents[k];
      out.files.push_back(vf);
      virtual_of[it->second] = row;
    }
    return it->second;
  }

  // A data read of row `row`'s file: a read of the sample it starts in, or a metadata or label
  // read of the thread's current sample, or (before any sample) none.
  void sample_read(const Event& e, std::uint32_t row) {
    const SampleFile& sf = found[row];
    std::uint64_t k = 0;
    if (sample_at(sf, e.offset, &k)) {
      current[e.tid] = k;
      ++found[row].sample_reads;
    } else if (auto c = current.find(e.tid); c != current.end()) {
      k = c->second;  // metadata or a label array read for the current sample
      aux_sizes[row].push_back(e.size);
    } else {
      return;  // metadata before any sample: not a sample's read
    }
    const std::uint32_t v = virtual_file(e, row, k);
    if (auto o = open_virtual.find(e.tid); o == open_virtual.end() || o->second != v) {
      Event op = e;
      op.op = Op::open;
      op.file = v;
      op.dur_ns = 0;
      op.offset = op.size = 0;
      op.ret = e.fd;
      op.flags = 0;
      op.arg = static_cast<std::uint64_t>(-100);
      out.events.push_back(op);
      open_virtual[e.tid] = v;
      pid_of[e.tid] = e.pid;
    }
    Event r = e;
    r.file = v;
    const std::uint64_t start = sf.offsets.empty() ? sf.base + k * sf.stride : sf.offsets[k];
    const std::uint64_t extent = sf.extents.empty() ? sf.stride : sf.extents[k];
    r.offset = e.offset >= start && e.offset < start + extent ? e.offset - start : 0;
    out.events.push_back(r);
  }

  // Each row's other reads: how many, and their median size (a label array read through a
  // read-ahead buffer comes in all sizes).
  void aux_requests() {
    for (std::size_t i = 0; i < found.size(); ++i) {
      found[i].aux_reads = aux_sizes[i].size();
      if (aux_sizes[i].empty()) continue;
      std::nth_element(aux_sizes[i].begin(), aux_sizes[i].begin() + aux_sizes[i].size() / 2,
                       aux_sizes[i].end());
      found[i].aux_request = aux_sizes[i][aux_sizes[i].size() / 2];
    }
  }
};

}  // namespace

std::string virtual_path(const std::string& path, std::uint64_t k) {
  std::filesystem::path p(path);
  char idx[32];
  std::snprintf(idx, sizeof(idx), "#%07llu", static_cast<unsigned long long>(k));
  return (p.parent_path() / (p.stem().string() + idx + p.extension().string())).string();
}

bool virtual_sample(const std::string& path, std::string* real, std::uint64_t* k) {
  const std::filesystem::path p(path);
  const std::string stem = p.stem().string();
  const std::size_t hash = stem.rfind('#');
  if (hash == std::string::npos || stem.size() - hash - 1 < 7) return false;
  std::uint64_t n = 0;
  for (std::size_t i = hash + 1; i < stem.size(); ++i) {
    if (stem[i] < '0' || stem[i] > '9') return false;
    n = n * 10 + static_cast<std::uint64_t>(stem[i] - '0');
  }
  *real = (p.parent_path() / (stem.substr(0, hash) + p.extension().string())).string();
  *k = n;
  return true;
}

std::optional<trace::Trace> split_sample_files(const trace::Trace& t,
                                               std::vector<SampleFile>& found,
                                               std::map<std::uint32_t, std::uint32_t>& virtual_of) {
  const auto row_of = find_sample_files(t, found);
  if (found.empty()) return std::nullopt;
  Splitter sp{t,  found, virtual_of, {}, {},
              {}, {},    {},         std::vector<std::vector<std::uint64_t>>(found.size())};
  sp.out.meta = t.meta;
  sp.out.files = t.files;
  sp.out.processes = t.processes;
  sp.out.events.reserve(t.events.size() + t.events.size() / 4);
  for (const auto& e : t.events) {
    auto row = e.file == trace::kNoFile ? row_of.end() : row_of.find(e.file);
    if (row == row_of.end()) {
      // The thread did something else (handed a batch over, took the next index): a metadata read
      // after this belongs to its next sample, not to the one it read before (an HDF5 B-tree
      // node read before a chunk), so it is not attributed to that one.
      sp.current.erase(e.tid);
      sp.out.events.push_back(e);
      continue;
    }
    // Opens, closes, seeks and stats of the real file are dropped: the virtual samples are opened
    // where they are first read. Zero-byte reads (EOF probes) likewise. A process that maps the
    // file afresh (nanoGPT's get_batch, every call) starts anew: a window it reads next is opened
    // again, even the one it read last through the previous mapping.
    if (e.op == Op::mmap)
      std::erase_if(sp.open_virtual, [&](const auto& kv) { return sp.pid_of[kv.first] == e.pid; });
    if (data_read(e)) sp.sample_read(e, row->second);
  }
  sp.aux_requests();
  return std::move(sp.out);
}

}  // namespace dlgen::analysis
