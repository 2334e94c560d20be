// memory_training: a dataset the main process read whole before training (a map-style dataset
// that json.loads or pickle.loads its files in __init__), then epochs from memory: its DataLoader
// workers read no file and only hand batches over. The training's passes, batches and workers
// come from those workers' hand-overs instead of from reads (stages.hpp, MemoryTraining).
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "path_names.hpp"
#include "stages.hpp"
#include "stats.hpp"

namespace dlgen::analysis::stages {
namespace {

using trace::Op;

struct Handover {
  std::uint64_t ts = 0;
  std::uint64_t bytes = 0;  // the /dev/shm tensor's size (ftruncate), 0: unknown
};

struct MemWorker {
  std::uint32_t pid = 0;
  std::uint64_t start_ns = 0;
  std::vector<Handover> handovers;  // time order
};

// The workers of `main` that read no dataset file, with their hand-overs: its child processes
// (DataLoader workers) or, in dlgen's own replay, its threads that send batch tokens and receive
// none. Their hand-overs: /dev/shm tensors when the worker made any (each with its ftruncate
// size), else its sendmsg calls.
std::vector<MemWorker> memory_workers(const trace::Trace& t, const std::vector<FileSummary>& files,
                                      std::uint32_t main, const std::set<std::uint32_t>& reading) {
  std::map<std::uint32_t, MemWorker> by_pid;
  for (const auto& p : t.processes)
    if (!reading.count(p.pid) && ((!p.is_thread && p.ppid == main) ||
                                  (p.is_thread && p.tgid == main && p.pid != main)))
      by_pid[p.pid] = {p.pid, p.start_ns, {}};
  auto key = [&](const trace::Event& e) -> std::uint32_t {
    if (by_pid.count(e.pid)) return e.pid;
    return e.pid == main && by_pid.count(e.tid) ? e.tid : 0;
  };
  const std::map<std::uint32_t, std::uint64_t> size_of = shm_tensor_bytes(t, files);
  std::map<std::uint32_t, std::vector<Handover>> shm, sends;
  for (const auto& e : t.events) {
    const std::uint32_t k = key(e);
    if (k == 0) continue;
    if (e.op == Op::recvmsg && k != e.pid) by_pid.erase(k);  // a consumer thread
    if (!is_handover(e, files)) continue;
    if (e.op == Op::sendmsg) {
      sends[k].push_back({e.ts_ns, 0});
    } else {
      const auto it = size_of.find(e.file);
      shm[k].push_back({e.ts_ns, it == size_of.end() ? 0 : it->second});
    }
  }
  std::vector<MemWorker> out;
  for (auto& [pid, w] : by_pid) {
    w.handovers = shm.count(pid) ? shm[pid] : sends[pid];
    if (w.handovers.empty()) continue;
    std::sort(w.handovers.begin(), w.handovers.end(),
              [](const Handover& a, const Handover& b) { return a.ts < b.ts; });
    out.push_back(std::move(w));
  }
  std::sort(out.begin(), out.end(),
            [](const MemWorker& a, const MemWorker& b) { return a.start_ns < b.start_ns; });
  return out;
}

// Hand-overs per batch (data, mask and labels tensors: 3): the largest k of 2..8 that divides
// every worker's hand-overs and splits them into groups whose gaps between (every k-th, from the
// worker's first) have a median at least 4 times the 90th percentile of the gaps inside (a
// batch's tensors are pickled back to back; its samples' work or a wait for indices comes
// between two batches); else 1.
std::size_t handovers_per_batch(const std::vector<MemWorker>& workers) {
  for (std::size_t k = 8; k >= 2; --k) {
    std::vector<double> inside, between;
    bool divides = true;
    for (const auto& w : workers) {
      divides = divides && w.handovers.size() % k == 0;
      for (std::size_t i = 1; i < w.handovers.size(); ++i)
        (i % k == 0 ? between : inside)
            .push_back(static_cast<double>(w.handovers[i].ts - w.handovers[i - 1].ts));
    }
    if (divides && !inside.empty() && !between.empty() &&
        detail::percentile(between, 0.5) >= 4 * detail::percentile(inside, 0.9))
      return k;
  }
  return 1;
}

// Samples in a batch of tensors: its smallest tensor is the labels, one int64 a sample (0: the
// sizes are unknown or not whole int64s).
std::uint32_t samples_of(const std::vector<Handover>& h, std::size_t from, std::size_t k) {
  std::uint64_t least = ~std::uint64_t{0};
  for (std::size_t i = from; i < from + k && i < h.size(); ++i) least = std::min(least, h[i].bytes);
  if (least == 0 || least == ~std::uint64_t{0} || least % 8 != 0) return 0;
  return static_cast<std::uint32_t>(least / 8);
}

// One DataLoader: the workers forked together (a worker forked before the loader's first batch
// is one of them: PyTorch hands out indices only once all its workers run).
struct Loader {
  std::vector<const MemWorker*> workers;
  std::uint64_t start_ns = 0, first_handover = ~std::uint64_t{0}, end_ns = 0;
  std::vector<Batch> batches;
  bool evaluation = false;
};

std::vector<Loader> loaders(const std::vector<MemWorker>& workers, std::size_t k) {
  std::vector<Loader> out;
  for (const auto& w : workers) {
    if (out.empty() || w.start_ns > out.back().first_handover) out.push_back({{}, w.start_ns});
    Loader& l = out.back();
    l.workers.push_back(&w);
    l.first_handover = std::min(l.first_handover, w.handovers.front().ts);
    for (std::size_t i = 0; i < w.handovers.size(); i += k) {
      Batch b;
      b.ready_ns = w.handovers[i].ts;
      b.worker = w.pid;
      b.samples = samples_of(w.handovers, i, k);
      l.batches.push_back(b);
      l.end_ns = std::max(l.end_ns, w.handovers[std::min(i + k, w.handovers.size()) - 1].ts);
    }
  }
  // Evaluation loaders: those living inside another loader's span (an evaluation every N steps
  // while the epoch's workers wait), or with at most half the batches of the largest.
  std::size_t most = 0;
  for (const auto& l : out) most = std::max(most, l.batches.size());
  for (auto& l : out) {
    l.evaluation = 2 * l.batches.size() <= most;
    for (const auto& o : out)
      if (&o != &l && o.start_ns < l.start_ns && l.end_ns < o.end_ns) l.evaluation = true;
  }
  return out;
}

// The mode of the batches' known sample counts (0: none known).
std::uint32_t batch_mode(const std::vector<Loader>& ls, bool evaluation) {
  std::vector<std::uint64_t> known;
  for (const auto& l : ls)
    if (l.evaluation == evaluation)
      for (const auto& b : l.batches)
        if (b.samples > 0) known.push_back(b.samples);
  return static_cast<std::uint32_t>(detail::mode(known));
}

// A pass's read figures from the load's accesses it owns (the first training pass the training
// set's, the first evaluation pass the validation set's); a training pass begins with them (the
// load is its first batch's wait), an evaluation pass when its loader started.
void add_reads(EpochSummary& e, std::vector<Access>& as, std::int32_t dataset, std::int32_t pass) {
  const std::uint64_t start = e.start_ns;
  std::set<std::uint32_t> uniq;
  for (auto& a : as) {
    if (a.dataset != dataset) continue;
    a.pass = pass;
    e.start_ns = std::min(e.start_ns, a.ts);
    ++e.accesses;
    e.bytes_read += a.bytes;
    e.read_ops += a.reads;
    if (uniq.insert(a.file).second) e.order.push_back(a.rank);
    ++e.read_counts[a.rank];
  }
  e.unique_files = uniq.size();
  if (e.evaluation) e.start_ns = start;
}

// The passes in loader order, their batches (ready order) and the accesses renumbered.
void passes_and_batches(std::vector<Loader>& ls, const Classified& c, MemoryTraining& m) {
  const std::int32_t train = c.datasets.empty() ? -1 : 0;
  std::int32_t val = -1;
  for (std::size_t d = 0; d < c.datasets.size(); ++d)
    if (c.datasets[d].cls == FileClass::validation) val = static_cast<std::int32_t>(d);
  bool first_train = true, first_eval = true;
  std::vector<std::uint32_t> train_workers;
  for (auto& l : ls) {
    EpochSummary e;
    e.index = static_cast<std::uint32_t>(m.passes.epochs.size());
    e.evaluation = l.evaluation;
    e.dataset = l.evaluation && val >= 0 ? val : train;
    e.start_ns = l.start_ns;
    e.end_ns = l.end_ns;
    e.reader_count = static_cast<std::uint32_t>(l.workers.size());
    const auto pass = static_cast<std::int32_t>(e.index);
    if (!l.evaluation && first_train) add_reads(e, m.accesses, train, pass), first_train = false;
    if (l.evaluation && first_eval && val >= 0) add_reads(e, m.accesses, val, pass);
    if (l.evaluation) first_eval = false;
    if (!l.evaluation) train_workers.push_back(e.reader_count);
    for (auto& b : l.batches) b.epoch = pass, m.batches.batches.push_back(b);
    m.passes.epochs.push_back(std::move(e));
  }
  std::sort(train_workers.begin(), train_workers.end());
  m.passes.from_memory = true;
  m.passes.workers = {train_workers.empty() ? 0 : train_workers[train_workers.size() / 2]};
  std::stable_sort(m.batches.batches.begin(), m.batches.batches.end(),
                   [](const Batch& a, const Batch& b) { return a.ready_ns < b.ready_ns; });
  m.batches.steps_per_pass.assign(m.passes.epochs.size(), 0);
  for (const auto& b : m.batches.batches) ++m.batches.steps_per_pass[b.epoch];
}

// Receipts: the main process's recvmsg calls, k per batch (a DataLoader unpickles each batch,
// receiving its descriptors, as it takes it from its queue). Each goes to a batch handed over
// before it, of the loader started last among those with one waiting (`started`: per pass, its
// loader's start), the earliest handed over: a loop that evaluates every N steps takes only the
// evaluation loader's batches while the training loader's workers, a prefetch ahead, wait with
// theirs (matched in hand-over order alone, the evaluation's receipts went to the training
// batches, whose count before a save ran ahead of the loop's steps).
void receipts(const trace::Trace& t, std::uint32_t main, std::size_t k,
              const std::vector<std::uint64_t>& started, Batches& b) {
  std::vector<std::uint64_t> got;
  for (const auto& e : t.events)
    if (e.op == Op::recvmsg && e.pid == main) got.push_back(e.ts_ns);
  std::sort(got.begin(), got.end());
  if (got.size() != k * b.batches.size()) k = got.size() / std::max<std::size_t>(b.batches.size(), 1);
  if (k == 0) return;
  std::vector<bool> taken(b.batches.size(), false);
  for (std::size_t r = 0; r * k < got.size() && r < b.batches.size(); ++r) {
    const std::uint64_t ts = got[r * k];
    std::size_t pick = b.batches.size();
    for (std::size_t i = 0; i < b.batches.size(); ++i) {
      if (taken[i]) continue;
      if (pick == b.batches.size()) pick = i;  // none handed over yet: the first waiting
      const Batch& c = b.batches[i];
      const Batch& p = b.batches[pick];
      if (c.ready_ns > ts) break;  // ready order: none after this was handed over
      if (p.ready_ns > ts || started[c.epoch] > started[p.epoch]) pick = i;
    }
    taken[pick] = true;
    b.batches[pick].received_ns = ts;
  }
}

}  // namespace

MemoryTraining memory_training(const trace::Trace& t, const Classified& c,
                               const std::vector<Access>& as, const Readers& r) {
  MemoryTraining m;
  if (r.accelerators.size() != 1 || !r.accelerators[0].reads_itself || as.empty()) return m;
  const std::uint32_t main = r.accelerators[0].pid;
  std::set<std::uint32_t> reading;
  std::uint64_t load_end = 0;
  for (const auto& a : as) reading.insert(a.pid), load_end = std::max(load_end, a.end);
  const std::vector<MemWorker> workers = memory_workers(t, c.files, main, reading);
  if (workers.empty() || reading.size() != 1 || *reading.begin() != main) return m;
  for (const auto& w : workers)
    if (w.handovers.front().ts < load_end) return m;  // reads after training began: not a load
  const std::size_t k = handovers_per_batch(workers);
  std::vector<Loader> ls = loaders(workers, k);
  m.accesses = as;
  passes_and_batches(ls, c, m);
  m.batches.batch_size = batch_mode(ls, false);
  m.eval_batch_size = batch_mode(ls, true);
  std::vector<std::uint64_t> started;
  for (const auto& l : ls) started.push_back(l.start_ns);
  receipts(t, main, k, started, m.batches);
  m.readers = r;
  Accelerator& acc = m.readers.accelerators[0];
  acc.reads_itself = false;
  acc.readers.clear();
  for (const auto& w : workers) acc.readers.push_back(w.pid);
  for (auto& p : m.readers.processes)
    if (std::find(acc.readers.begin(), acc.readers.end(), p.pid) != acc.readers.end())
      p.role = ProcessRole::reader_worker;
  m.handovers_per_batch = static_cast<std::uint32_t>(k);
  m.load_end_ns = load_end;
  m.found = true;
  return m;
}

std::vector<std::uint32_t> loaded_validation(const trace::Trace& t, const Classified& c,
                                             const std::vector<std::uint32_t>& files) {
  std::set<std::uint32_t> set(files.begin(), files.end()), readers;
  std::uint64_t load_end = 0;
  for (const auto& e : t.events)
    if (set.count(e.file) && (e.op == Op::read || e.op == Op::pread))
      readers.insert(e.pid), load_end = std::max(load_end, e.ts_ns + e.dur_ns);
  if (readers.size() != 1) return {};
  std::set<std::uint32_t> children;
  for (const auto& p : t.processes)
    if (!p.is_thread && p.ppid == *readers.begin()) children.insert(p.pid);
  bool handed = false;
  for (const auto& e : t.events)
    if (children.count(e.pid) && is_handover(e, c.files)) {
      if (e.ts_ns < load_end) return {};
      handed = true;
    }
  std::vector<std::uint32_t> val;
  bool train = false;
  for (auto f : files) {
    // A split's name in the file's stem, as classify judges directories ("validation.jsonl",
    // "test_batch"; trailing digits dropped).
    bool named_val = false;
    const bool v =
        names::is_split_name(std::filesystem::path(c.files[f].path).stem().string(), &named_val) &&
        named_val;
    if (v) val.push_back(f);
    train = train || !v;
  }
  return handed && train ? val : std::vector<std::uint32_t>{};
}

}  // namespace dlgen::analysis::stages
