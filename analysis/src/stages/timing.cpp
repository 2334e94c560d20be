// timing: figures over the steps, passes and checkpoints found by the earlier stages: AU, the
// start-up gap of each pass, per-sample reader time, step statistics and prefetch, and the
// concurrency of dataset reads.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "dlgen/core/stats.hpp"
#include "stages.hpp"
#include "stats.hpp"

namespace dlgen::analysis::stages {

// AU per accelerator and the run's (docs/metrics.md: MLPerf Storage's definition, with the
// replay's arithmetic, dlgen::accelerator_utilisation). Each step is (its batch's arrival, its
// compute, its end); the run begins at the first dataset read and ends at the latest step end of
// any accelerator or the end of the last checkpoint write, whichever is later: the same instants
// as a replay's run (its end is taken after its last pass or checkpoint).
Utilisation utilisation(std::size_t accelerators, const Passes& p, const Batches& bt,
                        const Checkpoints& k) {
  Utilisation s;
  s.accelerators.resize(accelerators);
  std::vector<std::vector<AuStep>> per(accelerators);
  std::uint64_t end = 0;
  for (const auto* list : {&k.steps, &k.checkpoint_steps})
    for (const Step& st : *list) {
      if (st.accelerator >= per.size()) continue;
      per[st.accelerator].push_back({static_cast<std::int64_t>(st.start_ns),
                                     static_cast<std::int64_t>(st.compute_ns),
                                     static_cast<std::int64_t>(st.end_ns)});
      end = std::max(end, st.end_ns);
    }
  if (end == 0) return s;  // no step: AU is not measurable
  for (const auto& c : k.checkpoints) end = std::max(end, c.end_ns);
  std::uint64_t begin = end;
  for (const auto& e : p.epochs) begin = std::min(begin, e.start_ns);
  s.run_begin_ns = begin;
  s.run_end_ns = end;
  double lowest = 1, sum = 0;
  std::size_t n = 0;
  for (std::size_t ai = 0; ai < accelerators; ++ai) {
    bool received = !per[ai].empty();
    for (const auto& b : bt.batches) received = received || (b.accelerator == ai && b.received_ns);
    if (!received) continue;  // not a consumer as far as the trace shows
    const AuParts parts = accelerator_utilisation(per[ai], static_cast<std::int64_t>(begin),
                                                  static_cast<std::int64_t>(end));
    auto& acc = s.accelerators[ai];
    acc.measured = true;
    acc.au = std::min(1.0, parts.au());
    acc.compute_s = parts.compute_s;
    acc.wall_s = parts.wall_s;
    acc.first_wait_s = parts.first_wait_s;
    lowest = std::min(lowest, acc.au);
    sum += acc.au;
    ++n;
  }
  if (n == 0) return s;
  s.au = lowest;
  s.au_mean = sum / static_cast<double>(n);
  s.measured = true;
  return s;
}

// GPU busy per accelerator: the timeline's intervals where they span steps, the GPU's median
// step of the kind (training's for evaluation when it has none) for the rest; over the same wall
// as AU (docs/metrics.md).
GpuAu gpu_utilisation(const GpuCompute& g, const Passes& p, const Checkpoints& k,
                      const Utilisation& au) {
  GpuAu out;
  out.accelerators.resize(au.accelerators.size());
  if (!g.measured || !au.measured) return out;
  for (const auto* list : {&k.steps, &k.checkpoint_steps})
    for (const Step& st : *list)
      if (st.accelerator < out.accelerators.size()) {
        const bool eval = st.epoch >= 0 && p.epochs[st.epoch].evaluation;
        ++(eval ? out.accelerators[st.accelerator].eval_steps
                : out.accelerators[st.accelerator].steps);
      }
  const double eval_step_s = g.eval_step_s > 0 ? g.eval_step_s : g.step_s;
  double lowest = 1, sum = 0;
  std::size_t n = 0;
  for (std::size_t ai = 0; ai < out.accelerators.size() && ai < g.seen.size(); ++ai) {
    auto& acc = out.accelerators[ai];
    const auto& seen = g.seen[ai];
    const auto& wall = au.accelerators[ai];
    if (!seen.cuda || !wall.measured || wall.wall_s <= 0) continue;
    // A kind's intervals can span more steps than were found (a pass's steps miscounted):
    // the intervals' time is then the GPU's over all of them.
    auto busy = [](double seen_s, std::uint64_t seen_steps, std::uint64_t steps, double step_s) {
      return seen_s + static_cast<double>(steps - std::min(steps, seen_steps)) * step_s;
    };
    acc.seen_steps = seen.steps + seen.eval_steps;
    acc.seen_s = seen.s + seen.eval_s;
    acc.busy_s = busy(seen.s, seen.steps, acc.steps, g.step_s) +
                 busy(seen.eval_s, seen.eval_steps, acc.eval_steps, eval_step_s);
    acc.wall_s = wall.wall_s;
    acc.au = std::min(1.0, acc.busy_s / acc.wall_s);
    acc.measured = true;
    lowest = std::min(lowest, acc.au);
    sum += acc.au;
    ++n;
  }
  if (n == 0) return out;
  out.measured = true;
  out.source = "cuda";
  out.au = lowest;
  out.au_mean = sum / static_cast<double>(n);
  return out;
}

namespace {

// When the activity before pass `pi` (starting at `start`) ended: the end of the last step of
// another pass that began before it (the main process's first syscall after computing on that
// batch; a training pass that goes on after an evaluation inside it has its later steps left out,
// and the step before the evaluation, whose interval runs to the training pass's next step, ends
// with its compute) or, later, of a checkpoint written after that step; without such steps, the
// previous pass's last read end (an overestimate by the consumption of the prefetched batches).
std::uint64_t activity_end_before(const Passes& p, const Checkpoints& k, std::size_t pi,
                                  std::uint64_t start) {
  const auto& cur = p.epochs[pi];
  std::uint64_t end = 0;
  for (const auto& st : k.steps) {
    if (st.epoch == static_cast<std::int32_t>(pi) || st.start_ns >= start) continue;
    const bool around = cur.evaluation && st.epoch >= 0 && !p.evaluation(st.epoch) &&
                        p.epochs[st.epoch].end_ns > cur.end_ns && st.end_ns > start;
    end = std::max(end, around ? st.start_ns + st.compute_ns : st.end_ns);
  }
  if (end == 0) end = p.epochs[pi - 1].end_ns;
  for (const auto& c : k.checkpoints)
    if (c.end_ns > end && c.end_ns <= start) end = c.end_ns;
  return end;
}

// When pass `pi` starts for its start-up gap: its first dataset read, or for a pass from memory
// its first batch handed over (its loader's workers read nothing: the fork, the workers' own
// start-up and the first batch's collation come before it, as the reads' do on disk).
std::uint64_t startup_end(const Passes& p, const Batches& b, std::size_t pi) {
  std::uint64_t start = p.epochs[pi].start_ns;
  if (!p.from_memory) return start;
  std::uint64_t first = UINT64_MAX;
  for (const auto& bt : b.batches)
    if (bt.epoch == static_cast<std::int32_t>(pi)) first = std::min(first, bt.ready_ns);
  return first == UINT64_MAX ? start : std::max(start, first);
}

}  // namespace

// Gap before each pass after the first: from the end of the activity before it
// (activity_end_before) to its start (startup_end), 0 when they overlap. Training and evaluation
// passes apart: a program's two DataLoaders start up unlike each other.
PassStartup pass_startup(const Passes& p, const Batches& b, const Checkpoints& k) {
  PassStartup s;
  std::vector<double> train, eval;
  for (std::size_t pi = 1; pi < p.epochs.size(); ++pi) {
    const std::uint64_t start = startup_end(p, b, pi);
    const std::uint64_t end = activity_end_before(p, k, pi, start);
    const double gap = start > end ? static_cast<double>(start - end) * 1e-9 : 0.0;
    s.pass_startup_s.push_back(gap);
    (p.epochs[pi].evaluation ? eval : train).push_back(gap);
  }
  // Both kinds: the training passes' median, the evaluation passes' apart; one kind: its median.
  s.eval_apart = !train.empty() && !eval.empty();
  s.startup_s = detail::percentile(train.empty() ? eval : train, 0.5);
  s.eval_startup_s = s.eval_apart ? detail::percentile(eval, 0.5) : s.startup_s;
  return s;
}

namespace {

// Each reader's handovers (reader key → times, sorted): its process's handover events when the
// process is one reader, else its thread's; a consumer loading its own samples has a handover at
// each of its bursts' starts.
using KeysOfPid = std::map<std::uint32_t, std::set<std::uint32_t>>;  // pid → its reader keys

KeysOfPid keys_of_pids(const std::vector<Access>& accesses) {
  KeysOfPid keys;
  for (const auto& a : accesses) keys[a.pid].insert(a.reader);
  return keys;
}

std::map<std::uint32_t, std::vector<std::uint64_t>> reader_handovers(
    const trace::Trace& t, const Classified& c, const Batches& b, const KeysOfPid& keys_of_pid) {
  std::map<std::uint32_t, std::vector<std::uint64_t>> handovers;
  for (const auto& e : t.events) {
    if (!is_handover(e, c.files)) continue;
    auto it = keys_of_pid.find(e.pid);
    if (it == keys_of_pid.end()) continue;
    handovers[it->second.size() == 1 ? *it->second.begin() : e.tid].push_back(e.ts_ns);
  }
  // A consumer loading its own samples computes before each burst: that gap is not per-sample
  // work, as a handover's is not (the burst's start stands for the handover).
  for (const auto& [reader, starts] : b.burst_starts)
    for (std::uint64_t ts : starts) handovers[reader].push_back(ts > 0 ? ts - 1 : 0);
  for (auto& [key, v] : handovers) std::sort(v.begin(), v.end());
  return handovers;
}

// Per reader key of a process that is one reader: its index queue's traffic (a DataLoader
// worker's: the main process writes a batch's indices when it takes a batch, the worker reads them
// before each batch), sorted.
struct IndexQueue {
  std::vector<std::uint64_t> writes, reads;
};
std::map<std::uint32_t, IndexQueue> index_queues(const trace::Trace& t,
                                                 const KeysOfPid& keys_of_pid) {
  auto is_pipe = [&](const trace::Event& e) { return on_pipe(t, e); };
  std::map<std::uint32_t, std::uint32_t> reader_of_pipe;  // pipe file → the reader reading it
  for (const auto& e : t.events) {
    if (!trace::is_read(e.op) || !is_pipe(e)) continue;
    auto it = keys_of_pid.find(e.pid);
    if (it != keys_of_pid.end() && it->second.size() == 1)
      reader_of_pipe[e.file] = *it->second.begin();
  }
  std::map<std::uint32_t, IndexQueue> out;
  for (const auto& e : t.events) {
    if (!is_pipe(e)) continue;
    auto it = reader_of_pipe.find(e.file);
    if (it == reader_of_pipe.end()) continue;
    const auto pid_keys = keys_of_pid.find(e.pid);
    const bool own = pid_keys != keys_of_pid.end() && pid_keys->second.count(it->second) > 0;
    if (trace::is_read(e.op) && own) out[it->second].reads.push_back(e.ts_ns);
    if (trace::is_write(e.op) && !own) out[it->second].writes.push_back(e.ts_ns);
  }
  for (auto& [key, q] : out) {
    std::sort(q.writes.begin(), q.writes.end());
    std::sort(q.reads.begin(), q.reads.end());
  }
  return out;
}

// A batch's collate time, in a gap between two samples that holds one of the reader's handover
// events and its read of its next indices (a batch boundary): from the first handover event
// (PyTorch's default_collate allocates the batch's tensor in /dev/shm, then stacks the samples
// into it; the result queue's feeder thread sends it) to that read. Left out when the indices
// were written to the queue within 2 ms before the read: the worker was waiting for them.
void collate_time(const std::vector<std::uint64_t>& h, const IndexQueue& q, std::uint64_t from,
                  std::uint64_t to, std::vector<double>& out) {
  const auto lo = std::lower_bound(h.begin(), h.end(), from);
  if (lo == h.end() || *lo >= to) return;
  auto r = std::lower_bound(q.reads.begin(), q.reads.end(), to);
  if (r == q.reads.begin() || *(r - 1) <= *lo) return;
  const std::uint64_t read = *(r - 1);
  const auto w = std::lower_bound(q.writes.begin(), q.writes.end(),
                                  read > 2000000 ? read - 2000000 : 0);
  if (w != q.writes.end() && *w <= read) return;
  out.push_back(static_cast<double>(read - *lo) * 1e-9);
}

// Per reader, while walking its train accesses: the sample being summed (files_per_sample files
// a sample), and the previous access.
struct ReaderWalk {
  const Access* last = nullptr;
  std::uint64_t in_pass = 0;  // accesses of the pass so far
  double gaps_s = 0;          // the current sample's gaps so far
  double inner_s = 0;         // and the gaps between its files' own reads
  bool clean = true;          // none of them held a handover
};

}  // namespace

// Per-sample worker time (decode, augmentation): per reader, the gap between the end of a train
// sample's last data read and the open of its next sample in the same pass (with samples of
// several files, the gaps after each of its files, summed). Gaps that contain one of the reader's
// handovers (collate, waiting for the consumer) are left out, and give the batch's collate time;
// overlapping accesses (several samples read at once) count as 0.
SampleTimes sample_times(const trace::Trace& t, const Classified& c, const Batches& b,
                         const std::vector<Access>& accesses) {
  SampleTimes s;
  const KeysOfPid keys = keys_of_pids(accesses);
  auto handovers = reader_handovers(t, c, b, keys);
  auto queues = index_queues(t, keys);
  const std::uint64_t k = std::max<std::uint32_t>(b.files_per_sample, 1);
  std::map<std::uint32_t, ReaderWalk> walk;
  std::vector<double> first_later, first_all, spans;  // sample spans (open to next open)
  std::vector<ReaderSample> paces;
  std::vector<double> inner;  // per clean sample, as preprocess_gaps_s
  for (const auto& a : accesses) {
    if (a.file >= c.files.size() || c.files[a.file].cls != FileClass::train) continue;
    ReaderWalk& w = walk[a.reader];
    const bool same_pass = w.last && w.last->pass == a.pass;
    if (!same_pass) w = ReaderWalk{};
    const bool first_sample = w.in_pass < k;  // its gaps belong to the reader's warm-up
    if (same_pass && w.last->last_read_end > 0) {
      const std::uint64_t end = w.last->last_read_end;
      const auto& h = handovers[a.reader];
      auto no_handover = [&](std::uint64_t from) {
        const auto lo = std::lower_bound(h.begin(), h.end(), from);
        return lo == h.end() || *lo >= a.ts;
      };
      if (a.ts > end && !no_handover(end)) {
        w.clean = false;
        collate_time(h, queues[a.reader], end, a.ts, s.collate_s);
      }
      w.gaps_s += a.ts <= end ? 0.0 : static_cast<double>(a.ts - end) * 1e-9;
      // The reader's work between the file's own reads, unless a batch left meanwhile (a file
      // of many samples): header parsing before the rest is read is per-sample time too.
      if (w.last->inner_gap_ns > 0 && no_handover(w.last->first_read_ts))
        w.inner_s += static_cast<double>(w.last->inner_gap_ns) * 1e-9;
      if (w.in_pass % k == 0) {  // a starts a sample: the previous one's gaps are all in
        if (w.clean && w.in_pass > k) {
          s.preprocess_gaps_s.push_back(w.gaps_s);
          inner.push_back(w.inner_s);
          paces.push_back({static_cast<std::uint32_t>(a.pass), a.reader, w.gaps_s});
        }
        w.gaps_s = 0;
        w.inner_s = 0;
        w.clean = true;
      }
      if (a.ts > w.last->ts && no_handover(w.last->ts)) {
        const double span = static_cast<double>(a.ts - w.last->ts) * 1e-9;
        if (w.in_pass == 1) {
          first_all.push_back(span);
          if (a.pass > 0) first_later.push_back(span);
        } else if (!first_sample) {
          spans.push_back(span);
        }
      }
    }
    ++w.in_pass;
    w.last = &a;
  }
  // The typical time between a sample's own reads (PIL parsing a JPEG's header before it reads
  // the rest: 0.2 ms a file) is per-sample work the replay spends after the reads; the median,
  // so that a rare stall between two reads is not taken for every sample's.
  const double typical_inner = detail::percentile(inner, 0.5);
  for (double& g : s.preprocess_gaps_s) g += typical_inner;
  for (auto& r : paces) r.seconds += typical_inner;
  s.first_sample_spans_s = first_later.empty() ? first_all : first_later;
  s.sample_span_s = detail::percentile(spans, 0.5);
  s.preprocess_s = detail::percentile(s.preprocess_gaps_s, 0.5);
  s.collate_median_s = detail::percentile(s.collate_s, 0.5);
  s.worker_pace = worker_pace(paces);
  return s;
}

StepTiming step_timing(const Passes& p, const Batches& bt, const Checkpoints& k,
                       const std::vector<Access>& accesses) {
  StepTiming s;
  s.prefetch.resize(p.workers.size());
  std::vector<double> step, compute, wait, consumer;
  for (const auto& st : k.steps) {
    if (st.epoch < 0 || p.epochs[st.epoch].evaluation) continue;
    step.push_back(static_cast<double>(st.end_ns - st.start_ns) * 1e-9);
    compute.push_back(static_cast<double>(st.compute_ns) * 1e-9);
    wait.push_back(static_cast<double>(st.wait_ns) * 1e-9);
    consumer.push_back(static_cast<double>(st.consumer_ns) * 1e-9);
  }
  if (step.empty() && !bt.burst_periods_s.empty()) {
    step = compute = bt.burst_periods_s;
    if (bt.consumer_loads && !bt.burst_gaps_s.empty()) compute = bt.burst_gaps_s;
  }
  s.step_time = detail::make_stats(step);
  s.compute_time = detail::make_stats(compute);
  s.data_wait_time = detail::make_stats(wait);
  s.consumer_time = detail::make_stats(consumer);
  // A pass's first batch: per pass and accelerator, from the first dataset read of its readers to
  // its first step (the consumer's first receipt). Fresh DataLoader workers pay first-use costs
  // (imports, the library's first open, the queue's feeder thread, the consumer's connection for
  // shared-memory descriptors) that later batches do not. Passes after the first when there are
  // any (the first holds the imports of the run).
  std::map<std::uint32_t, std::uint32_t> accel_of_reader;
  for (const auto& b : bt.batches) accel_of_reader.emplace(b.worker, b.accelerator);
  std::map<std::pair<std::int32_t, std::uint32_t>, std::uint64_t> read_of, step_of;
  auto earliest = [](auto& m, auto key, std::uint64_t ts) {
    auto [it, fresh] = m.try_emplace(key, ts);
    if (!fresh) it->second = std::min(it->second, ts);
  };
  for (const auto& a : accesses) {
    auto it = accel_of_reader.find(a.reader);
    if (a.pass >= 0 && it != accel_of_reader.end())
      earliest(read_of, std::pair{a.pass, it->second}, a.ts);
  }
  for (const auto& st : k.steps)
    if (st.epoch >= 0) earliest(step_of, std::pair{st.epoch, st.accelerator}, st.start_ns);
  std::vector<double> all, later;
  for (const auto& [key, start] : step_of) {
    auto r = read_of.find(key);
    if (r == read_of.end() || r->second > start) continue;
    const double d = static_cast<double>(start - r->second) * 1e-9;
    all.push_back(d);
    if (key.first > 0) later.push_back(d);
  }
  s.first_batch_s = later.empty() ? all : later;
  // Prefetch: batches ready and not yet received when a batch is received, per worker, per
  // accelerator (each has its own loader); the run's is the largest.
  s.run_prefetch = 0;
  for (std::size_t ai = 0; ai < p.workers.size(); ++ai) {
    std::vector<double> depth;
    std::vector<std::uint64_t> ready, got;
    for (const auto& b : bt.batches)
      if (b.accelerator == ai && b.received_ns)
        ready.push_back(b.ready_ns), got.push_back(b.received_ns);
    std::sort(ready.begin(), ready.end());
    std::sort(got.begin(), got.end());
    for (std::size_t i = 0; i < got.size(); ++i) {
      const auto r = std::upper_bound(ready.begin(), ready.end(), got[i]) - ready.begin();
      depth.push_back(static_cast<double>(r) - static_cast<double>(i));
    }
    const auto w = std::max<std::uint32_t>(1, p.workers[ai]);
    if (depth.empty()) continue;
    s.prefetch[ai] = static_cast<std::uint32_t>(std::ceil(detail::percentile(depth, 0.9) / w));
    s.run_prefetch = std::max(s.run_prefetch, s.prefetch[ai]);
  }
  return s;
}

Concurrency concurrency(const trace::Trace& t, const Classified& cls) {
  Concurrency c;
  struct Edge {
    std::uint64_t ts;
    int delta;
    std::uint32_t tid;
  };
  std::vector<Edge> edges;
  for (const auto& e : t.events) {
    if (e.file == trace::kNoFile || !cls.is_dataset_file(e.file) || !trace::is_read(e.op)) continue;
    edges.push_back({e.ts_ns, +1, e.tid});
    edges.push_back({e.ts_ns + std::max<std::uint64_t>(e.dur_ns, 1), -1, e.tid});
  }
  std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) {
    return a.ts != b.ts ? a.ts < b.ts : a.delta < b.delta;
  });
  std::map<std::uint32_t, int> per_tid;
  int inflight = 0, readers = 0;
  std::uint64_t prev = 0, busy = 0;
  double weighted = 0;
  for (const auto& ed : edges) {
    if (inflight > 0 && ed.ts > prev) {
      const auto dt = ed.ts - prev;
      c.inflight_ns[static_cast<std::uint32_t>(inflight)] += dt;
      c.readers_ns[static_cast<std::uint32_t>(readers)] += dt;
      busy += dt;
      weighted += static_cast<double>(inflight) * static_cast<double>(dt);
    }
    prev = ed.ts;
    int& n = per_tid[ed.tid];
    if (ed.delta > 0 && n++ == 0) ++readers;
    if (ed.delta < 0 && --n == 0) --readers;
    inflight += ed.delta;
    c.max_inflight = std::max(c.max_inflight, static_cast<std::uint32_t>(std::max(inflight, 0)));
    c.max_readers = std::max(c.max_readers, static_cast<std::uint32_t>(std::max(readers, 0)));
  }
  c.mean_inflight = busy ? weighted / static_cast<double>(busy) : 0;
  return c;
}

}  // namespace dlgen::analysis::stages
