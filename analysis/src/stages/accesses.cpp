// accesses: the dataset file accesses (an open and the reads on that descriptor until close), in
// start order, each with its reader key and the pass it belongs to.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

#include "stages.hpp"

namespace dlgen::analysis::stages {
namespace {

using trace::Event;
using trace::Op;

constexpr std::uint32_t kODirect = 040000;  // O_DIRECT on x86-64 and arm64 generic

// Readers: threads when a process reads with several threads, else the process. A process that
// reads its own batches (self_reader_redraws: `by_process`) reads with whichever of its threads
// touches a page (a copy done in parallel): the process is the reader. So is a worker process
// that hands batches over (`workers`) and fetches a batch's samples on a pool of threads
// (a Dataset's __getitems__ on a ThreadPoolExecutor): its threads are one worker's requests in
// flight, not workers.
void assign_readers(std::vector<Access>& accesses, bool by_process,
                    const std::set<std::uint32_t>& workers) {
  std::map<std::uint32_t, std::set<std::uint32_t>> tids_of;
  for (const auto& a : accesses) tids_of[a.pid].insert(a.tid);
  for (auto& a : accesses)
    a.reader = tids_of[a.pid].size() > 1 && !by_process && !workers.count(a.pid) ? a.tid : a.pid;
}

// Generations of DataLoader workers: PyTorch forks a fresh set of worker processes for every pass
// over a DataLoader (persistent_workers=False, the default), so a parent's reader processes come
// in generations, each started after the previous one made its last access. generation_of maps
// each reading process to (parent, generation index); `fresh` is whether some parent had two
// generations or more (else the readers lived through the run: persistent workers, the main
// process or its threads reading). `dataset` >= 0: among that dataset's accesses alone.
struct Generations {
  std::map<std::uint32_t, std::pair<std::uint32_t, std::uint32_t>> generation_of;
  bool fresh = false;
};

Generations worker_generations(const trace::Trace& t, const std::vector<Access>& accesses,
                               std::int32_t dataset = -1) {
  std::map<std::uint32_t, std::uint32_t> parent;  // process → its parent
  std::map<std::uint32_t, std::uint64_t> forked;  // process → when it started (0: not seen)
  for (const auto& p : t.processes)
    if (!p.is_thread) parent[p.pid] = p.ppid, forked[p.pid] = p.start_ns;
  // Per process: when it started (its fork, else its first access: the workers of one pass are
  // forked together, though one may read only after another's last read) and its last access's
  // end.
  std::map<std::uint32_t, std::pair<std::uint64_t, std::uint64_t>> span;
  for (const auto& a : accesses) {
    if (dataset >= 0 && a.dataset != dataset) continue;
    const std::uint64_t f = forked[a.pid];
    auto [it, fresh] = span.try_emplace(a.pid, f > 0 ? std::min(f, a.ts) : a.ts, a.end);
    if (!fresh) it->second.second = std::max(it->second.second, a.end);
  }
  // Per parent, its children in order of their start.
  std::map<std::uint32_t, std::vector<std::uint32_t>> children;
  for (const auto& [pid, sp] : span) children[parent[pid]].push_back(pid);
  Generations g;
  for (auto& [ppid, kids] : children) {
    std::sort(kids.begin(), kids.end(),
              [&](std::uint32_t a, std::uint32_t b) { return span[a].first < span[b].first; });
    std::uint32_t gen = 0;
    std::uint64_t last_end = 0;
    for (std::size_t i = 0; i < kids.size(); ++i) {
      if (i > 0 && span[kids[i]].first >= last_end) ++gen;
      last_end = std::max(last_end, span[kids[i]].second);
      g.generation_of[kids[i]] = {ppid, gen};
    }
    g.fresh = g.fresh || gen > 0;
  }
  return g;
}

// Whether the loader draws with replacement: its workers come in fresh generations and at least
// 5% of a generation's accesses re-read a file that generation already read (WeightedRandomSampler,
// RandomSampler(replacement=True)). Without replacement a generation reads each file once.
bool draws_with_replacement(const Generations& g, const std::vector<Access>& accesses) {
  if (!g.fresh) return false;
  std::set<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>> read;  // parent, gen, file
  std::uint64_t again = 0;
  for (const auto& a : accesses) {
    const auto [parent, gen] = g.generation_of.at(a.pid);
    again += !read.insert({parent, gen, a.file}).second;
  }
  return again >= 2 && again * 20 >= accesses.size();
}

// The generations among each dataset's own readers (another loader's persistent workers, alive
// across epochs, would join every later generation into one), and the (dataset, parent) pairs
// whose readers of it came in two generations or more.
struct DatasetGenerations {
  std::map<std::int32_t, Generations> of;
  std::set<std::pair<std::int32_t, std::uint32_t>> reforks;
  std::pair<std::uint32_t, std::uint32_t> at(const Access& a) const {
    return of.at(a.dataset).generation_of.at(a.pid);
  }
};

DatasetGenerations dataset_generations(const trace::Trace& t, const std::vector<Access>& as) {
  DatasetGenerations d;
  for (const auto& a : as)
    if (!d.of.count(a.dataset)) d.of[a.dataset] = worker_generations(t, as, a.dataset);
  for (const auto& [ds, dg] : d.of)
    for (const auto& [pid, pg] : dg.generation_of)
      if (pg.second > 0) d.reforks.insert({ds, pg.first});
  return d;
}

// A pass being assigned: per file its first reader (parent, generation), its processes, per parent
// its oldest and newest generation in it, and its accesses (indices).
struct OpenPass {
  std::int32_t pass = -1;
  std::map<std::uint32_t, std::pair<std::uint32_t, std::uint32_t>> seen;
  std::set<std::uint32_t> pids;
  std::map<std::uint32_t, std::uint32_t> oldest, newest;
  std::vector<std::size_t> members;
  void add(std::size_t i, Access& a, std::pair<std::uint32_t, std::uint32_t> pg) {
    seen.try_emplace(a.file, pg);
    pids.insert(a.pid);
    oldest.try_emplace(pg.first, pg.second);
    newest[pg.first] = std::max(newest[pg.first], pg.second);
    members.push_back(i);
    a.pass = pass;
  }
};

// How an access continues the open pass: in it, after it (a new pass), or after it with the
// accesses its generation already made in it (`with_generation`).
enum class Continues { same, next, with_generation };

// A reforked parent's access (its readers come in generations) ends the pass only by re-reading
// a file an older generation of it read there: the pass then starts at its generation's first
// access. A repeat within a generation (a grouped batch sampler completing an epoch's last batches
// with images it gave already) does not end it, nor does a newer generation reading other files
// (k-fold validation workers reading the fold's other files after its training workers).
Continues continues(const OpenPass& cur, const Access& a,
                    std::pair<std::uint32_t, std::uint32_t> pg, bool replacement, bool reforked) {
  const auto [parent, gen] = pg;
  const auto it = cur.newest.find(parent);
  if (replacement)
    return it != cur.newest.end() && gen > it->second ? Continues::next : Continues::same;
  const auto seen = cur.seen.find(a.file);
  if (seen == cur.seen.end()) return Continues::same;
  if (!reforked || it == cur.newest.end() || seen->second.first != parent) return Continues::next;
  return seen->second.second < gen ? Continues::with_generation : Continues::same;
}

// A new pass from the open one's accesses of generation `pg` (they move to it, in order).
OpenPass split_generation(const OpenPass& cur, std::vector<Access>& accesses,
                          const DatasetGenerations& dg, std::pair<std::uint32_t, std::uint32_t> pg,
                          std::int32_t pass) {
  OpenPass n;
  n.pass = pass;
  for (const std::size_t i : cur.members)
    if (dg.at(accesses[i]) == pg) n.add(i, accesses[i], pg);
  return n;
}

// Passes (epochs and evaluation passes): a new pass starts when the dataset changes or a file
// repeats within the current pass. Accesses must be in start order. Where a parent's readers come
// in generations (PyTorch forks fresh DataLoader workers for every pass over a loader), a repeat
// ends the pass only when a newer generation makes it, and the new pass starts at that
// generation's first access (continues()). A loader that draws with replacement
// (draws_with_replacement) repeats files within a pass, so there a pass is a generation: a new one
// starts when a parent's newer generation reads (the next epoch's DataLoader workers).
//
// An evaluation in the middle of an epoch (every N optimizer steps) runs while the training
// loader's workers live on, with batches they read ahead of it; after it those same processes
// read the rest of the epoch. So a dataset read again by a process that read its latest pass
// resumes that pass (without replacement, a file that pass read already still starts a new one),
// where the dataset is read by two generations of fresh workers or more: persistent workers (one
// generation) read every epoch, and there the dataset's return is a new pass, as before.
//
// A process that reads for itself (it hands nothing over) and draws with replacement (nanoGPT's
// get_batch: random windows of one token file, self_reader_redraws) has no epochs a repeat could
// end: its passes are the runs of one dataset (training, then an evaluation, ...).
// `redraws`: self_reader_redraws. Returns whether the passes are such runs.
bool assign_passes(const trace::Trace& t, std::vector<Access>& accesses, bool redraws) {
  const Generations g = worker_generations(t, accesses);
  const bool replacement = draws_with_replacement(g, accesses);
  const bool runs_only = !g.fresh && redraws;
  const DatasetGenerations dg = dataset_generations(t, accesses);
  std::map<std::int32_t, std::set<std::pair<std::uint32_t, std::uint32_t>>> generations_of;
  for (const auto& a : accesses) generations_of[a.dataset].insert(g.generation_of.at(a.pid));
  std::set<std::int32_t> reforked;
  for (const auto& [ds, parent] : dg.reforks) reforked.insert(ds);
  const std::set<std::int32_t> by_runs = passes_are_runs(accesses, reforked);
  std::map<std::int32_t, OpenPass> latest;  // dataset → its latest pass
  std::int32_t cur_ds = -2, pass = -1;
  OpenPass* cur = nullptr;
  for (std::size_t i = 0; i < accesses.size(); ++i) {
    Access& a = accesses[i];
    const auto pg = dg.at(a);
    const bool reforked = dg.reforks.count({a.dataset, pg.first}) > 0;
    Continues how = Continues::same;
    if (cur && a.dataset == cur_ds && !runs_only && !by_runs.count(a.dataset))
      how = continues(*cur, a, pg, replacement, reforked);
    if (how == Continues::with_generation) {
      *cur = split_generation(*cur, accesses, dg, pg, ++pass);
    } else if (a.dataset != cur_ds || how == Continues::next) {
      auto resumed = latest.find(a.dataset);
      const bool resume = how == Continues::same && g.fresh &&
                          generations_of[a.dataset].size() >= 2 && resumed != latest.end() &&
                          resumed->second.pids.count(a.pid) &&
                          (replacement || reforked || !resumed->second.seen.count(a.file));
      if (resume) {
        cur = &resumed->second;
      } else {
        cur = &latest[a.dataset];
        *cur = OpenPass{};
        cur->pass = ++pass;
      }
      cur_ds = a.dataset;
    }
    cur->add(i, a, pg);
  }
  return runs_only;
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
        if (p.reads == 0) p.first_read = a.first_read, p.first_read_ts = a.first_read_ts;
        p.inner_gap_ns += a.inner_gap_ns;
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

// The trace's events on dataset files, walked in order, gathered into accesses: an open starts
// one, reads and maps on its descriptor extend it, its close ends it.
class AccessWalk {
 public:
  explicit AccessWalk(const Classified& c) : c_(c) {}

  void add(const Event& e) {
    if (e.file == trace::kNoFile || !c_.is_dataset_file(e.file)) return;
    const bool rd = trace::is_read(e.op) && e.op != Op::sendfile && e.op != Op::copy_file_range;
    if (e.op == Op::open) {
      if (e.ret >= 0) open_fd_[{e.pid, static_cast<std::int32_t>(e.ret)}] = start(e);
    } else if (e.op == Op::close) {
      on_close(e);
    } else if (e.op == Op::lseek) {
      on_seek(e);
    } else if (rd || e.op == Op::mmap) {
      on_read(e);
    }
  }

  std::vector<Access> take() { return std::move(accesses_); }

 private:
  std::size_t start(const Event& e) {
    Access a;
    a.file = e.file;
    a.dataset = c_.files[e.file].dataset;
    a.pid = e.pid;
    a.tid = e.tid;
    a.ts = e.ts_ns;
    a.end = e.ts_ns + e.dur_ns;
    a.direct = (e.flags & kODirect) != 0 && e.op == Op::open;
    accesses_.push_back(a);
    last_of_file_[{e.pid, e.file}] = accesses_.size() - 1;
    return accesses_.size() - 1;
  }

  void on_close(const Event& e) {
    const auto key = std::make_pair(e.pid, e.fd);
    if (auto it = open_fd_.find(key); it != open_fd_.end())
      accesses_[it->second].closed = e.ts_ns + e.dur_ns;
    open_fd_.erase(key);
  }

  void on_seek(const Event& e) {
    if (auto it = open_fd_.find({e.pid, e.fd});
        it != open_fd_.end() && accesses_[it->second].file == e.file)
      seeked_.insert(it->second);
  }

  // The access a read or map belongs to: its descriptor's, else the file's latest (a late
  // completion), else a new one (a descriptor opened before the trace, or not seen).
  std::size_t access_of(const Event& e) {
    const auto key = std::make_pair(e.pid, e.fd);
    if (auto it = open_fd_.find(key); it != open_fd_.end() && accesses_[it->second].file == e.file)
      return it->second;
    if (auto last = last_of_file_.find({e.pid, e.file}); last != last_of_file_.end())
      return last->second;  // a late completion on a closed (or reused) descriptor
    return open_fd_[key] = start(e);
  }

  // A read (or a map) extends its access.
  void on_read(const Event& e) {
    const std::size_t ai = access_of(e);
    auto& a = accesses_[ai];
    a.end = std::max(a.end, e.ts_ns + e.dur_ns);
    if (e.op == Op::mmap) {
      a.mmap = true;
      return;
    }
    if (e.ret <= 0) return;  // EOF probe or error: moved no data
    const std::uint64_t done = static_cast<std::uint64_t>(e.ret);
    if (a.reads == 0) a.first_read = e.size, a.first_read_ts = e.ts_ns;
    if (a.reads > 0 && e.ts_ns > a.last_read_end) a.inner_gap_ns += e.ts_ns - a.last_read_end;
    if (seeked_.erase(ai)) ++a.seek_reads;
    ++a.reads;
    a.bytes += done;
    a.sizes.push_back(e.size);
    a.moved.push_back(done);
    a.offsets.push_back(e.offset);
    a.last_read_end = e.ts_ns + e.dur_ns;
  }

  const Classified& c_;
  std::vector<Access> accesses_;
  std::map<std::pair<std::uint32_t, std::int32_t>, std::size_t> open_fd_;  // (pid, fd) → access
  // (pid, file) → its latest access. io_uring completions are stamped when they finish, which can
  // be after the descriptor was closed and its number reused for the next file (header and chunk
  // requests in flight together): such a read belongs to the file's latest access, not a new one
  // (a new one would look like the file read twice and split the pass).
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> last_of_file_;
  std::set<std::size_t> seeked_;  // accesses whose descriptor was lseek'd since their last read
};

// Ranks: each access's file's position in its dataset's path order.
void assign_ranks(const Classified& c, std::vector<Access>& accesses) {
  std::unordered_map<std::uint32_t, std::uint32_t> rank;
  for (const auto& d : c.datasets)
    for (std::size_t i = 0; i < d.files.size(); ++i)
      rank[d.files[i]] = static_cast<std::uint32_t>(i);
  for (auto& a : accesses) a.rank = rank[a.file];
}

}  // namespace

std::vector<Access> find_accesses(const trace::Trace& t, const Classified& c) {
  AccessWalk walk(c);
  for (const auto& e : t.events) walk.add(e);
  std::vector<Access> accesses = walk.take();
  assign_ranks(c, accesses);
  std::stable_sort(accesses.begin(), accesses.end(),
                   [](const Access& a, const Access& b) { return a.ts < b.ts; });
  merge_reopens(accesses);
  const bool redraws = self_reader_redraws(t, c, accesses);
  assign_readers(accesses, redraws, handing_workers(t, c.files));
  if (assign_passes(t, accesses, redraws)) evaluation_reads_of_training(c, accesses);
  return accesses;
}

}  // namespace dlgen::analysis::stages
