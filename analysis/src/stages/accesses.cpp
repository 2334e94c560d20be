// accesses: the dataset file accesses (an open and the reads on that descriptor until close), in
// start order, each with its reader key and the pass it belongs to.
#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "stages.hpp"

namespace dlgen::analysis::stages {
namespace {

using trace::Event;
using trace::Op;

constexpr std::uint32_t kODirect = 040000;  // O_DIRECT on x86-64 and arm64 generic

// Readers: threads when a process reads with several threads, else the process.
void assign_readers(std::vector<Access>& accesses) {
  std::map<std::uint32_t, std::set<std::uint32_t>> tids_of;
  for (const auto& a : accesses) tids_of[a.pid].insert(a.tid);
  for (auto& a : accesses) a.reader = tids_of[a.pid].size() > 1 ? a.tid : a.pid;
}

// Passes (epochs and evaluation passes): a new pass starts when the dataset changes or a file
// repeats within the current pass. Accesses must be in start order.
void assign_passes(std::vector<Access>& accesses) {
  std::int32_t cur_ds = -2, pass = -1;
  std::set<std::uint32_t> seen;
  for (auto& a : accesses) {
    if (a.dataset != cur_ds || seen.count(a.file)) {
      ++pass;
      seen.clear();
      cur_ds = a.dataset;
    }
    seen.insert(a.file);
    a.pass = pass;
  }
}

// A thread opening the file it just closed (within kReopenNs of closing it, with no other dataset
// file in between) is still reading it: tarfile.open probes each compression
// with an open, a read and a close of its own before the open that reads the members. Such
// accesses are one, or every shard would look read four times and split the epoch into passes.
constexpr std::uint64_t kReopenNs = 1'000'000;

void merge_reopens(std::vector<Access>& accesses) {
  std::map<std::uint32_t, std::size_t> last_of_tid;  // tid → its latest kept access
  std::vector<Access> kept;
  kept.reserve(accesses.size());
  for (auto& a : accesses) {
    auto it = last_of_tid.find(a.tid);
    if (it != last_of_tid.end()) {
      Access& p = kept[it->second];
      if (p.file == a.file && p.closed && a.ts >= std::max(p.end, p.closed) &&
          a.ts - p.closed <= kReopenNs) {
        if (p.reads == 0) p.first_read = a.first_read;
        p.end = std::max(p.end, a.end);
        p.bytes += a.bytes;
        p.reads += a.reads;
        p.last_read_end = std::max(p.last_read_end, a.last_read_end);
        p.sizes.insert(p.sizes.end(), a.sizes.begin(), a.sizes.end());
        p.moved.insert(p.moved.end(), a.moved.begin(), a.moved.end());
        p.offsets.insert(p.offsets.end(), a.offsets.begin(), a.offsets.end());
        p.direct = p.direct || a.direct;
        p.mmap = p.mmap || a.mmap;
        p.seek_reads += a.seek_reads;
        p.reopens += 1 + a.reopens;
        p.closed = a.closed;
        continue;
      }
    }
    last_of_tid[a.tid] = kept.size();
    kept.push_back(std::move(a));
  }
  accesses = std::move(kept);
}

}  // namespace

std::vector<Access> find_accesses(const trace::Trace& t, const Classified& c) {
  std::vector<Access> accesses;
  std::map<std::pair<std::uint32_t, std::int32_t>, std::size_t> open_fd;  // (pid, fd) → access
  // (pid, file) → its latest access. io_uring completions are stamped when they finish, which can
  // be after the descriptor was closed and its number reused for the next file (header and chunk
  // requests in flight together): such a read belongs to the file's latest access, not a new one
  // (a new one would look like the file read twice and split the pass).
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> last_of_file;
  std::set<std::size_t> seeked;  // accesses whose descriptor was lseek'd since their last read
  auto start_access = [&](const Event& e) {
    Access a;
    a.file = e.file;
    a.dataset = c.files[e.file].dataset;
    a.pid = e.pid;
    a.tid = e.tid;
    a.ts = e.ts_ns;
    a.end = e.ts_ns + e.dur_ns;
    a.direct = (e.flags & kODirect) != 0 && e.op == Op::open;
    accesses.push_back(a);
    last_of_file[{e.pid, e.file}] = accesses.size() - 1;
    return accesses.size() - 1;
  };
  for (const auto& e : t.events) {
    if (e.file == trace::kNoFile || !c.is_dataset_file(e.file)) continue;
    const auto key = std::make_pair(e.pid, e.fd);
    if (e.op == Op::open) {
      if (e.ret < 0) continue;
      open_fd[{e.pid, static_cast<std::int32_t>(e.ret)}] = start_access(e);
      continue;
    }
    if (e.op == Op::close) {
      if (auto it = open_fd.find(key); it != open_fd.end())
        accesses[it->second].closed = e.ts_ns + e.dur_ns;
      open_fd.erase(key);
      continue;
    }
    if (e.op == Op::lseek) {
      if (auto it = open_fd.find(key); it != open_fd.end() && accesses[it->second].file == e.file)
        seeked.insert(it->second);
      continue;
    }
    const bool rd = trace::is_read(e.op) && e.op != Op::sendfile && e.op != Op::copy_file_range;
    if (!rd && e.op != Op::mmap) continue;
    auto it = open_fd.find(key);
    std::size_t ai;
    if (it == open_fd.end() || accesses[it->second].file != e.file) {
      const auto last = last_of_file.find({e.pid, e.file});
      if (last != last_of_file.end()) {
        ai = last->second;  // a late completion on a closed (or reused) descriptor
      } else {
        ai = start_access(e);  // descriptor opened before the trace, or not seen
        open_fd[key] = ai;
      }
    } else {
      ai = it->second;
    }
    auto& a = accesses[ai];
    a.end = std::max(a.end, e.ts_ns + e.dur_ns);
    if (e.op == Op::mmap) {
      a.mmap = true;
      continue;
    }
    if (e.ret <= 0) continue;  // EOF probe or error: moved no data
    const std::uint64_t done = static_cast<std::uint64_t>(e.ret);
    if (a.reads == 0) a.first_read = e.size;
    if (seeked.erase(ai)) ++a.seek_reads;
    ++a.reads;
    a.bytes += done;
    a.sizes.push_back(e.size);
    a.moved.push_back(done);
    a.offsets.push_back(e.offset);
    a.last_read_end = e.ts_ns + e.dur_ns;
  }
  // Ranks: position in the dataset's path order.
  std::unordered_map<std::uint32_t, std::uint32_t> rank;
  for (auto& d : c.datasets)
    for (std::size_t i = 0; i < d.files.size(); ++i)
      rank[d.files[i]] = static_cast<std::uint32_t>(i);
  for (auto& a : accesses) a.rank = rank[a.file];
  std::stable_sort(accesses.begin(), accesses.end(),
                   [](const Access& a, const Access& b) { return a.ts < b.ts; });
  merge_reopens(accesses);
  assign_readers(accesses);
  assign_passes(accesses);
  return accesses;
}

}  // namespace dlgen::analysis::stages
