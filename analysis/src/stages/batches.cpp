// batches: the batches handed from reader workers to accelerators (from handovers, or else from
// bursts of reads), and when each accelerator received them.
#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "stages.hpp"
#include "stats.hpp"

namespace dlgen::analysis::stages {
namespace {

using trace::Op;

// A reader's access (an open of a sample file) or handover, in time order.
struct Ev {
  std::uint64_t ts;
  bool handover;
  std::int32_t pass;
  std::uint32_t file = trace::kNoFile;  // the /dev/shm tensor file of a handover
  std::size_t seq = 0;                  // a handover's place among its reader's (own) handovers
};
using ReaderEvents = std::map<std::uint32_t, std::vector<Ev>>;  // reader key → events
// Reader key → the /dev/shm tensors its process's other threads made, in time order (only for
// readers whose reading thread makes its own).
using ForeignTensors = std::map<std::uint32_t, std::vector<std::uint32_t>>;

// Each reader's accesses, then its handovers (unsorted); `foreign` gets the tensors other threads
// shared for readers that make their own.
ReaderEvents reader_events(const trace::Trace& t, const Classified& c,
                           const std::vector<Access>& accesses, ForeignTensors& foreign_tensors) {
  ReaderEvents per_reader;
  std::map<std::uint32_t, std::set<std::uint32_t>> keys_of_pid;
  for (const auto& a : accesses) keys_of_pid[a.pid].insert(a.reader);
  for (const auto& a : accesses) per_reader[a.reader].push_back({a.ts, false, a.pass});
  // When a reader has shm opens, they mark the batch (collate time); sendmsg may come later,
  // when the consumer asks for the descriptors, and would split the next batch.
  std::set<std::uint32_t> shm_readers;
  for (const auto& e : t.events) {
    const bool shm = e.op != Op::sendmsg && is_handover(e, c.files);
    if (!shm) continue;
    auto it = keys_of_pid.find(e.pid);
    if (it != keys_of_pid.end())
      shm_readers.insert(it->second.size() == 1 ? *it->second.begin() : e.tid);
  }
  // A handover by a process belongs to its reader when it has one reader (a worker process),
  // by a thread to that thread. The reading thread's own handovers (PyTorch collates into a
  // /dev/shm tensor right after the reads) mark batches exactly; other threads' (the queue
  // feeder sharing a label tensor, the resource sharer's sendmsg when the consumer asks) come
  // late and would split the next batch, so they count only when the reading thread has none.
  // A worker process that is one reader for many threads (its batch fetched on a thread pool)
  // collates on its main thread: that thread's handovers are the worker's own too.
  std::set<std::uint32_t> reading_tids;
  std::map<std::uint32_t, std::set<std::uint32_t>> tids_of;  // reader key → its reading threads
  for (const auto& a : accesses) reading_tids.insert(a.tid), tids_of[a.reader].insert(a.tid);
  std::map<std::uint32_t, std::vector<Ev>> own, foreign;
  for (const auto& e : t.events) {
    if (!is_handover(e, c.files)) continue;
    auto it = keys_of_pid.find(e.pid);
    if (it == keys_of_pid.end()) continue;
    std::uint32_t key = it->second.size() == 1 ? *it->second.begin() : e.tid;
    if (!per_reader.count(key)) continue;
    if (e.op == Op::sendmsg && shm_readers.count(key)) continue;
    const bool collating = reading_tids.count(e.tid) || (key == e.pid && e.tid == e.pid);
    auto& list = (collating ? own : foreign)[key];
    list.push_back({e.ts_ns, true, -1, e.file, list.size()});
  }
  const auto index_reads = pipe_reads(t, reading_tids);
  for (auto& [key, evs] : per_reader) {
    if (own.count(key))
      for (const auto& ev : foreign[key])
        if (ev.file != trace::kNoFile) foreign_tensors[key].push_back(ev.file);
    auto src = own.count(key) ? own[key] : foreign[key];
    if (!own.count(key) && !src.empty()) {  // shared by another thread: index_queue.cpp
      std::vector<std::uint64_t> starts, at, queue;
      for (const auto& ev : evs) starts.push_back(ev.ts);
      for (const auto& ev : src) at.push_back(ev.ts);
      for (auto tid : tids_of[key])
        if (index_reads.count(tid)) queue = index_reads.at(tid);
      at = handovers_at_index_reads(starts, tids_of[key].size() == 1 ? queue : decltype(queue){},
                                    at);
      for (std::size_t i = 0; i < src.size(); ++i) src[i].ts = at[i];
    }
    evs.insert(evs.end(), src.begin(), src.end());
  }
  return per_reader;
}

// Evidence that a reader streams shards: its handovers, those inside one of its accesses (a batch
// handed over while a shard is open), and those of samples it had read ahead (no access began
// since its previous handover, at least kCollateNs before: a shuffle buffer's batches come out
// after the shard is closed, while the k tensors of one collated batch come together).
struct StreamEvidence {
  std::size_t handovers = 0, inside = 0, buffered = 0;
  bool streams() const { return handovers >= 4 && 2 * (inside + buffered) > handovers; }
};
constexpr std::uint64_t kCollateNs = 1'000'000;

// One reader's evidence from its time-ordered events and its accesses' spans (in start order).
StreamEvidence stream_evidence(const std::vector<Ev>& evs,
                               const std::vector<std::pair<std::uint64_t, std::uint64_t>>& sp) {
  StreamEvidence s;
  std::size_t began = 0;   // accesses begun since the previous handover
  std::uint64_t last = 0;  // the previous handover (0: none yet)
  for (const auto& ev : evs) {
    if (!ev.handover) {
      ++began;
      continue;
    }
    ++s.handovers;
    auto it = std::upper_bound(sp.begin(), sp.end(), std::make_pair(ev.ts, ~std::uint64_t{0}));
    if (it != sp.begin() && std::prev(it)->second > ev.ts)
      ++s.inside;
    else if (began == 0 && last != 0 && ev.ts >= last + kCollateNs)
      ++s.buffered;
    began = 0;
    last = ev.ts;
  }
  return s;
}

// A reader streaming shards (tar/WebDataset, record files through a buffer) hands batches over
// while a file is still open, or after it, from samples it read ahead: most of its handovers fall
// inside one of its accesses or follow its previous one with no access between (StreamEvidence).
// Then every handover is a batch, of samples the syscalls cannot count (1 each). A reader with
// 4 handovers or more is judged on its own; the others (fresh workers each pass, a few batches
// each) on their evidence pooled. Mapped-file readers (`mapped`) are never streams: their batches
// may show no reads. Events per reader in time order.
std::set<std::uint32_t> streaming_readers(const std::vector<Access>& accesses,
                                          const ReaderEvents& per_reader,
                                          const std::set<std::uint32_t>& mapped) {
  std::map<std::uint32_t, std::vector<std::pair<std::uint64_t, std::uint64_t>>> spans;
  for (const auto& a : accesses) spans[a.reader].push_back({a.ts, a.end});
  std::set<std::uint32_t> streaming, small;
  StreamEvidence pooled;
  for (const auto& [reader, evs] : per_reader) {
    if (mapped.count(reader)) continue;
    const StreamEvidence e = stream_evidence(evs, spans[reader]);
    if (e.handovers >= 4) {
      if (e.streams()) streaming.insert(reader);
    } else if (e.handovers > 0) {
      small.insert(reader);
      pooled.handovers += e.handovers, pooled.inside += e.inside, pooled.buffered += e.buffered;
    }
  }
  if (pooled.streams()) streaming.insert(small.begin(), small.end());
  return streaming;
}

// A mapped-file reader's handovers per batch: the commonest run of handovers after reads.
std::uint64_t handovers_per_batch(const std::vector<Ev>& evs) {
  std::vector<std::uint64_t> runs;
  std::uint64_t run = 0;
  bool after_reads = false;
  for (const auto& ev : evs) {
    if (!ev.handover) {
      if (after_reads && run) runs.push_back(run);
      run = 0;
      after_reads = true;
    } else {
      ++run;
    }
  }
  if (after_reads && run) runs.push_back(run);
  return detail::mode(runs);
}

// A batch made (its index in Batches::batches) and the handover that made it.
using Made = std::vector<std::pair<std::size_t, const Ev*>>;

// One reader's batches from its time-ordered events: the accesses since the previous handover.
// per_batch (a mapped-file reader): every per_batch-th handover of a run without reads is a batch
// of unseen samples too. A stream's handovers are a batch each (1 sample until counted).
Made reader_batches(std::uint32_t reader, const std::vector<Ev>& evs, bool stream,
                    std::uint64_t per_batch, const Readers& r, Batches& s,
                    std::map<std::uint32_t, std::size_t>& batch_shm) {
  Made made;
  std::uint32_t count = 0;
  std::uint64_t run = 0;  // handovers since the last read
  std::int32_t pass = -1;
  for (const auto& ev : evs) {
    if (!ev.handover) {
      ++count;
      pass = ev.pass;
      run = 0;
      continue;
    }
    ++run;
    if (stream && pass >= 0) count = 1;
    if (count == 0 && (per_batch == 0 || pass < 0 || (run - 1) % per_batch != 0)) continue;
    Batch b;
    b.ready_ns = ev.ts;
    if (ev.file != trace::kNoFile) batch_shm[ev.file] = s.batches.size();
    b.worker = reader;
    b.accelerator = r.accel_of_reader(reader);
    b.samples = count;
    b.epoch = pass;
    made.push_back({s.batches.size(), &ev});
    s.batches.push_back(b);
    count = 0;
  }
  return made;
}

// The tensors of each of a stream reader's batches (`made`): its handover's, and when the
// worker's other threads shared k tensors for each handover of its reading thread (k whole), the
// seq-th k of them: the queue's feeder sends the batches in order, often after the reading thread
// collated the next one, so their times do not pair them.
void stream_tensors(const std::vector<Ev>& evs, const Made& made,
                    const std::vector<std::uint32_t>& foreign, std::vector<StreamBatch>& out) {
  std::size_t handovers = 0;
  for (const auto& ev : evs) handovers += ev.handover;
  const std::size_t k =
      handovers > 0 && foreign.size() % handovers == 0 ? foreign.size() / handovers : 0;
  for (const auto& [index, ev] : made) {
    StreamBatch& b = out.emplace_back();
    b.batch = index;
    b.tensors.push_back(ev->file);
    for (std::size_t i = ev->seq * k; i < (ev->seq + 1) * k; ++i) b.tensors.push_back(foreign[i]);
  }
}

// The batches in ready order (stable), batch_shm's indices following them.
void sort_by_ready(Batches& s, std::map<std::uint32_t, std::size_t>& batch_shm) {
  std::vector<std::size_t> order(s.batches.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return s.batches[a].ready_ns < s.batches[b].ready_ns;
  });
  std::vector<Batch> sorted;
  std::vector<std::size_t> new_index(order.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    sorted.push_back(s.batches[order[i]]), new_index[order[i]] = i;
  s.batches = std::move(sorted);
  for (auto& [f, i] : batch_shm) i = new_index[i];
}

// Batches: each reader's accesses between its handovers (sendmsg, /dev/shm tensors).
// A reader of a memory-mapped file (`mapped`: its virtual sample files) reads only the windows it
// has not mapped yet, so a batch whose samples all lay in mapped windows shows no reads: its
// handovers follow the previous batch's. Such a reader's handovers per batch are the commonest
// run of handovers after reads; each further run of as many is a batch of unseen samples.
void handover_batches(const trace::Trace& t, const Classified& c,
                      const std::vector<Access>& accesses, const Readers& r, Batches& s,
                      std::map<std::uint32_t, std::size_t>& batch_shm,
                      const std::set<std::uint32_t>& mapped) {
  std::set<std::uint32_t> mapped_readers;
  for (const auto& a : accesses)
    if (mapped.count(a.file)) mapped_readers.insert(a.reader);
  ForeignTensors foreign;
  ReaderEvents per_reader = reader_events(t, c, accesses, foreign);
  for (auto& [reader, evs] : per_reader)
    std::stable_sort(evs.begin(), evs.end(), [](const Ev& a, const Ev& b) { return a.ts < b.ts; });
  const std::set<std::uint32_t> streaming = streaming_readers(accesses, per_reader, mapped_readers);
  s.stream = !streaming.empty();
  std::vector<StreamBatch> streamed;
  for (auto& [reader, evs] : per_reader) {
    const std::uint64_t per_batch = mapped_readers.count(reader) ? handovers_per_batch(evs) : 0;
    const bool stream = streaming.count(reader) > 0;
    const Made made = reader_batches(reader, evs, stream, per_batch, r, s, batch_shm);
    if (stream) stream_tensors(evs, made, foreign[reader], streamed);
  }
  if (s.stream) count_stream_samples(streamed, shm_tensor_bytes(t, c.files), s);
  sort_by_ready(s, batch_shm);
  std::vector<std::uint64_t> sizes;
  for (const auto& b : s.batches) sizes.push_back(b.samples);
  s.batch_size = static_cast<std::uint32_t>(detail::mode(sizes));
}

// The batch size of a consumer that loads its own samples, from the gaps before each of its
// accesses: with batch B, the gap before every B-th sample of a pass (counted from the pass's
// start) is the step's compute and the others are per-sample work. B is the smallest size whose
// boundary gaps are clearly longer than the rest (their 20th percentile over twice the others'
// 80th); 1 when none is (a per-sample loop, or gaps that only scatter with the host's noise).
std::uint32_t consumer_batch(const std::vector<const Access*>& as,
                             const std::vector<double>& gaps) {
  std::vector<std::size_t> pos(as.size(), 0);  // position of each access in its pass
  std::size_t longest = 0;
  for (std::size_t i = 1; i < as.size(); ++i) {
    pos[i] = as[i]->pass == as[i - 1]->pass ? pos[i - 1] + 1 : 0;
    longest = std::max(longest, pos[i] + 1);
  }
  for (std::size_t b = 2; b <= std::min<std::size_t>(4096, longest / 2); ++b) {
    std::vector<double> boundary, inner;
    for (std::size_t i = 1; i < as.size(); ++i) {
      if (pos[i] == 0) continue;
      (pos[i] % b == 0 ? boundary : inner).push_back(gaps[i - 1]);
    }
    if (boundary.size() < 2 || inner.empty()) continue;
    if (detail::percentile(boundary, 0.2) > 2 * std::max(detail::percentile(inner, 0.8), 1000.0))
      return static_cast<std::uint32_t>(b);
  }
  return 1;
}

// Without handovers, a reader's batches show as bursts of reads separated by idle gaps (it
// waits for a free prefetch slot); a gap longer than 4× the median gap, and over 0.5 ms, ends a
// burst. In steady state each of W workers reads one batch per W steps, so the step time is
// the burst period divided by W (an upper bound of compute: waiting cannot be told apart).
// A consumer that loads its own samples (PyTorch num_workers=0, a plain loop) loads a batch and
// then computes: its batches are its bursts when they stand clear of its compute
// (clear_gap_bursts: nanoGPT's get_batch, whose batches of windows vary in size), else every
// consumer_batch() samples of a pass; the gap before each is its compute.
void read_bursts(const std::vector<Access>& accesses, const Readers& r, const Passes& p,
                 Batches& s) {
  if (!s.batches.empty()) return;
  std::map<std::uint32_t, std::vector<const Access*>> per_reader;
  for (const auto& a : accesses)
    if (a.dataset >= 0) per_reader[a.reader].push_back(&a);
  std::vector<double> periods;
  for (auto& [reader, as] : per_reader) {
    if (as.size() < 4) continue;
    const std::vector<double> gaps = access_gaps(as);
    const auto accel = r.accel_of_reader(reader);
    const double w = std::max<std::uint32_t>(1, r.accelerators.empty() ? 1 : p.workers[accel]);
    const bool consumer = !r.accelerators.empty() && r.accelerators[accel].reads_itself &&
                          r.accelerators[accel].pid == reader;
    const double threshold = consumer ? consumer_burst_threshold(gaps) : burst_threshold(gaps);
    // A consumer whose bursts stand clear of its compute: its bursts, as for readers without a
    // consumer (batches that vary in size show no batch every B samples); else every B samples.
    const bool by_gaps = consumer && clear_gap_bursts(as, gaps, threshold);
    const std::uint32_t every = consumer && !by_gaps ? consumer_batch(as, gaps) : 0;
    if (consumer) s.consumer_loads = true;
    std::vector<std::size_t> pos(as.size(), 0);  // position of each access in its pass
    for (std::size_t i = 1; i < as.size(); ++i)
      pos[i] = as[i]->pass == as[i - 1]->pass ? pos[i - 1] + 1 : 0;
    // Whether access i starts a new batch (i == size: the end).
    auto ends_burst = [&](std::size_t i) {
      if (i == as.size() || pos[i] == 0) return true;
      return consumer && !by_gaps ? pos[i] % every == 0 : gaps[i - 1] > threshold;
    };
    std::size_t first = 0;
    std::uint64_t prev_start = 0;
    std::int32_t prev_pass = -1;
    for (std::size_t i = 1; i <= as.size(); ++i) {
      if (!ends_burst(i)) continue;
      if (consumer) {
        s.burst_starts[reader].push_back(as[first]->ts);
        if (first > 0 && as[first - 1]->pass == as[first]->pass)
          s.burst_gaps_s.push_back(gaps[first - 1] * 1e-9);
      }
      Batch b;
      b.ready_ns = as[i - 1]->end;
      b.worker = reader;
      b.accelerator = accel;
      b.samples = static_cast<std::uint32_t>(i - first);
      b.epoch = as[first]->pass;
      s.batches.push_back(b);
      if (prev_pass == as[first]->pass && prev_start)
        periods.push_back(static_cast<double>(as[first]->ts - prev_start) / w);
      prev_start = as[first]->ts;
      prev_pass = as[first]->pass;
      first = i;
    }
  }
  if (s.batches.empty()) return;
  s.from_read_bursts = true;
  std::sort(s.batches.begin(), s.batches.end(),
            [](const Batch& a, const Batch& b) { return a.ready_ns < b.ready_ns; });
  std::vector<std::uint64_t> sizes;
  for (const auto& b : s.batches) sizes.push_back(b.samples);
  s.batch_size = static_cast<std::uint32_t>(detail::mode(sizes));
  s.burst_periods_s.clear();
  for (double period : periods) s.burst_periods_s.push_back(period * 1e-9);
  if (s.consumer_loads)
    s.notes.push_back(
        "no batch handovers: the consuming process reads its own samples; batches inferred from "
        "bursts of its reads (each sample a step when they show no regular batch), compute from "
        "the idle gap before each burst");
  else
    s.notes.push_back(
        "no batch handovers (sendmsg or /dev/shm): batches inferred from bursts of reads per "
        "reader, step time from their cadence (an upper bound of compute)");
}

// The commonest samples per batch of the training passes (an evaluation at another batch, as
// torchvision's detection reference at batch 1, may have more batches than training has);
// `all`, the commonest over every batch, when no batch is in a training pass.
std::uint32_t training_batch(const std::vector<Batch>& batches, const Passes& p,
                             std::uint32_t all) {
  std::vector<std::uint64_t> sizes;
  for (const auto& b : batches)
    if (b.epoch >= 0 && !p.evaluation(b.epoch)) sizes.push_back(b.samples);
  return sizes.empty() ? all : static_cast<std::uint32_t>(detail::mode(sizes));
}

// Receipts: the accelerator process's recvmsg calls, grouped k per batch (k: descriptors per
// batch, e.g. data and label tensors), matched to batches in ready order.
void receipts(const trace::Trace& t, const Readers& r,
              const std::map<std::uint32_t, std::size_t>& batch_shm, Batches& s) {
  // Exact: the accelerator process maps the very /dev/shm file the worker created for the
  // batch (PyTorch passes its descriptor); the first event on it by that process is the receipt.
  std::set<std::uint32_t> main_pids;
  for (const auto& a : r.accelerators) main_pids.insert(a.pid);
  std::size_t matched = 0;
  for (const auto& e : t.events) {
    if (e.file == trace::kNoFile || !main_pids.count(e.pid)) continue;
    auto it = batch_shm.find(e.file);
    if (it == batch_shm.end()) continue;
    auto& b = s.batches[it->second];
    if (b.received_ns == 0 && e.ts_ns >= b.ready_ns && r.accelerators[b.accelerator].pid == e.pid) {
      b.received_ns = e.ts_ns + e.dur_ns;
      ++matched;
    }
  }
  if (matched * 2 >= s.batches.size() && matched > 0) return;
  for (auto& b : s.batches) b.received_ns = 0;
  for (std::size_t ai = 0; ai < r.accelerators.size(); ++ai) {
    const auto pid = r.accelerators[ai].pid;
    std::vector<std::uint64_t> recvs;
    for (const auto& e : t.events)
      if (e.op == Op::recvmsg && e.pid == pid) recvs.push_back(e.ts_ns + e.dur_ns);
    std::vector<Batch*> mine;
    for (auto& b : s.batches)
      if (b.accelerator == ai) mine.push_back(&b);
    if (recvs.empty() || mine.empty()) continue;
    const std::size_t k = std::max<std::size_t>(
        1, static_cast<std::size_t>(
               std::lround(static_cast<double>(recvs.size()) / static_cast<double>(mine.size()))));
    for (std::size_t i = 0; i < mine.size() && (i + 1) * k <= recvs.size(); ++i)
      mine[i]->received_ns = recvs[(i + 1) * k - 1];
  }
}

}  // namespace

Batches find_batches(const trace::Trace& t, const Classified& c, const std::vector<Access>& as,
                     const Readers& r, const Passes& p, const std::set<std::uint32_t>& mapped) {
  Batches out;
  std::map<std::uint32_t, std::size_t>& batch_shm = out.tensor_batch;
  handover_batches(t, c, as, r, out, batch_shm, mapped);
  out.batch_size = training_batch(out.batches, p, out.batch_size);
  if (!out.batches.empty() && !out.stream) {
    out.files_per_sample = files_per_sample(c, as, out.batches, out.batch_size);
    out.batch_size /= out.files_per_sample;
  }
  read_bursts(as, r, p, out);
  receipts(t, r, batch_shm, out);
  out.steps_per_pass.assign(p.epochs.size(), 0);
  for (const auto& b : out.batches)
    if (b.epoch >= 0) ++out.steps_per_pass[b.epoch];
  return out;
}

}  // namespace dlgen::analysis::stages
