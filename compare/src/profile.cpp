#include "dlgen/compare/profile.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "dlgen/analysis/summary.hpp"
#include "dlgen/compare/compare.hpp"
#include "dlgen/core/stats.hpp"
#include "dlgen/trace/trace.hpp"

namespace dlgen::compare {
namespace {

constexpr double kNs = 1e-9;
// Request sizes are kept as samples for the KS and Wasserstein distances; a histogram with more
// requests than this is thinned proportionally (the shape is what matters).
constexpr std::uint64_t kMaxSizeSamples = 200000;

bool is_data(analysis::FileClass c) {
  return c == analysis::FileClass::train || c == analysis::FileClass::validation;
}

// A bin width near span/100, from a 1-2-5 ladder, so plots of short and long runs both read well.
double nice_bin(double span_s) {
  double target = std::max(span_s / 100.0, 1e-3);
  double base = std::pow(10.0, std::floor(std::log10(target)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (base * m >= target) return base * m;
  return base * 10;
}

// Volume: bytes and opens of the data files, what was written, other files read, and the
// request sizes (thinned to kMaxSizeSamples).
void volume_of(const analysis::TraceSummary& s, Profile& p) {
  std::unordered_set<std::uint32_t> data_files;
  // The virtual sample files of one multi-sample file (a zip's members, an HDF5 file's rows) are
  // one file read: counted once, by their real file's row.
  std::unordered_set<std::uint32_t> real_rows, eval_rows;
  for (const auto& f : s.files) {
    if (is_data(f.cls)) {
      data_files.insert(f.file);
      p.opens += static_cast<double>(f.opens);
      const auto v = s.virtual_files.find(f.file);
      const bool counted = v != s.virtual_files.end() &&
                           !(f.cls == analysis::FileClass::validation ? eval_rows : real_rows)
                                .insert(v->second)
                                .second;
      if (f.bytes_read > 0 && !counted) p.files_read += 1;
      if (f.bytes_read > 0 && !counted && f.cls == analysis::FileClass::validation)
        p.eval_files_read += 1;
    }
    if (f.cls != analysis::FileClass::shm && f.cls != analysis::FileClass::ignored)
      p.bytes_written += static_cast<double>(f.bytes_written);
    if (f.cls == analysis::FileClass::other)
      p.other_bytes_read += static_cast<double>(f.bytes_read);
  }
  p.bytes_read = static_cast<double>(s.dataset_bytes_read);
  p.read_ops = static_cast<double>(s.dataset_read_ops);

  std::uint64_t n = 0;
  for (const auto& [size, count] : s.request_sizes) n += count;
  const double keep =
      n > kMaxSizeSamples ? static_cast<double>(kMaxSizeSamples) / static_cast<double>(n) : 1.0;
  for (const auto& [size, count] : s.request_sizes) {
    auto k = static_cast<std::uint64_t>(std::llround(static_cast<double>(count) * keep));
    if (k == 0 && count > 0) k = 1;
    p.request_sizes.insert(p.request_sizes.end(), k, static_cast<double>(size));
  }
}

// Order: the training dataset's summary (the one distil writes into the job).
void order_of(const analysis::TraceSummary& s, Profile& p) {
  int train = analysis::train_dataset(s);
  if (train >= 0) {
    const auto& order = s.datasets[static_cast<std::size_t>(train)].order;
    p.order_vs_path = order.spearman;
    p.epoch_order_similarity = order.cross_epoch_spearman;
  }
}

// Epochs: training passes; evaluation passes apart, so that a validation set read between
// epochs moves no training figure.
void epochs_of(const analysis::TraceSummary& s, Profile& p) {
  double first = -1, last = 0, rpf = 0;
  for (const auto& e : s.epochs) {
    EpochProfile ep;
    ep.start_s = static_cast<double>(e.start_ns) * kNs;
    ep.duration_s = static_cast<double>(e.end_ns - std::min(e.end_ns, e.start_ns)) * kNs;
    ep.bytes_read = static_cast<double>(e.bytes_read);
    ep.read_ops = static_cast<double>(e.read_ops);
    ep.files_read = static_cast<double>(e.unique_files);
    ep.reads_per_file =
        e.unique_files ? static_cast<double>(e.accesses) / static_cast<double>(e.unique_files) : 0;
    ep.steps = static_cast<double>(e.steps);
    if (e.evaluation) {
      p.eval_passes.push_back(std::move(ep));
      continue;
    }
    ep.order = e.order;
    rpf += ep.reads_per_file;
    if (first < 0 || ep.start_s < first) first = ep.start_s;
    last = std::max(last, ep.start_s + ep.duration_s);
    p.epochs.push_back(std::move(ep));
  }
  if (!p.epochs.empty()) p.reads_per_file = rpf / static_cast<double>(p.epochs.size());
  p.duration_s = first >= 0 ? last - first : static_cast<double>(s.duration_ns) * kNs;
}

// Concurrency: reader tasks per accelerator, summed; I/Os in flight as the summary measured them.
void concurrency_of(const analysis::TraceSummary& s, Profile& p) {
  for (const auto& a : s.accelerators)
    p.readers += a.reads_itself ? 1.0 : static_cast<double>(a.workers);
  if (p.readers == 0) p.readers = s.concurrency.max_readers;
  for (const auto& [count, ns] : s.concurrency.inflight_ns)
    p.inflight.push_back({static_cast<double>(count), static_cast<double>(ns) * kNs});
}

// Where the steady state begins: the start of the second training pass (0 with fewer than two:
// the whole run is steady). The first pass holds one-time costs (worker start-up, the CUDA
// context, cuDNN's autotuning and kernel loading: 16 s in the first step of a fresh H200 run).
std::uint64_t steady_begin_ns(const analysis::TraceSummary& s) {
  std::vector<std::uint64_t> starts;
  for (const auto& e : s.epochs)
    if (!e.evaluation) starts.push_back(e.start_ns);
  if (starts.size() < 2) return 0;
  std::sort(starts.begin(), starts.end());
  return starts[1];
}

bool in_steady_state(const analysis::TraceSummary& s, const analysis::Step& st,
                     std::uint64_t begin) {
  if (begin == 0) return true;
  return st.epoch >= 0 && s.epochs[static_cast<std::size_t>(st.epoch)].start_ns >= begin;
}

// AU over the steady state, with the arithmetic of AU itself (dlgen::accelerator_utilisation):
// each accelerator's steps of the steady-state passes, from the end of its last step before them
// (so the second pass's start-up wait counts, as every pass's does in AU) to the run's end (the
// latest step or checkpoint end).
std::optional<double> steady_au(const analysis::TraceSummary& s, std::uint64_t begin) {
  if (begin == 0) return std::nullopt;
  std::vector<std::vector<AuStep>> per(s.accelerators.size());
  // Each accelerator's last step end before the steady passes (0: none; it starts at `begin`).
  std::vector<std::uint64_t> settled(s.accelerators.size(), 0);
  std::uint64_t end = 0;
  for (const auto* list : {&s.steps, &s.checkpoint_steps})
    for (const auto& st : *list) {
      end = std::max(end, st.end_ns);
      if (st.accelerator >= per.size()) continue;
      if (in_steady_state(s, st, begin)) {
        per[st.accelerator].push_back({static_cast<std::int64_t>(st.start_ns),
                                       static_cast<std::int64_t>(st.compute_ns),
                                       static_cast<std::int64_t>(st.end_ns)});
      } else {
        settled[st.accelerator] = std::max(settled[st.accelerator], st.end_ns);
      }
    }
  for (const auto& c : s.checkpoints) end = std::max(end, c.end_ns);
  double lowest = -1;
  for (std::size_t ai = 0; ai < per.size(); ++ai) {
    auto& steps = per[ai];
    if (steps.empty()) continue;
    const auto from = static_cast<std::int64_t>(settled[ai] ? settled[ai] : begin);
    // A step of no compute at that instant: the wait up to the first steady batch is wall time.
    steps.push_back({from, 0, from});
    std::sort(steps.begin(), steps.end(),
              [](const AuStep& a, const AuStep& b) { return a.ready_ns < b.ready_ns; });
    const AuParts parts = accelerator_utilisation(steps, from, static_cast<std::int64_t>(end));
    const double au = std::min(1.0, parts.au());
    lowest = lowest < 0 ? au : std::min(lowest, au);
  }
  if (lowest < 0) return std::nullopt;
  return lowest;
}

// Steps (training and evaluation apart) and AU, as the summary measured them.
void steps_of(const analysis::TraceSummary& s, Profile& p) {
  const std::uint64_t begin = steady_begin_ns(s);
  for (const auto& st : s.steps) {
    const double step = static_cast<double>(st.end_ns - std::min(st.end_ns, st.start_ns)) * kNs;
    if (st.epoch >= 0 && s.epochs[static_cast<std::size_t>(st.epoch)].evaluation) {
      p.eval_step_times_s.push_back(step);
      p.eval_compute_s.push_back(static_cast<double>(st.compute_ns) * kNs);
      continue;
    }
    const double compute = static_cast<double>(st.compute_ns) * kNs;
    const double wait = static_cast<double>(st.wait_ns) * kNs;
    const double consumer = static_cast<double>(st.consumer_ns) * kNs;
    p.step_times_s.push_back(step);
    p.compute_s.push_back(compute);
    p.data_wait_s.push_back(wait);
    p.consumer_s.push_back(consumer);
    p.step_steady.push_back(in_steady_state(s, st, begin) ? 1 : 0);
  }
  p.au_steady = steady_au(s, begin);

  p.au = s.au;
  p.au_measured = s.au_measured;
  p.au_gpu = s.au_gpu.au;
  p.au_gpu_measured = s.au_gpu.measured;
  if (s.au_measured)
    for (const auto& a : s.accelerators)
      if (a.au_wall_s > 0) p.accelerator_au.push_back(a.au);
}

// Throughput per second from the summary's buckets (refined by the trace form).
void throughput_of(const analysis::TraceSummary& s, Profile& p) {
  p.throughput_bin_s = 1;
  for (std::size_t i = 0; i < s.per_second.size(); ++i) {
    p.throughput_t_s.push_back(static_cast<double>(i));
    p.throughput_mib_s.push_back(static_cast<double>(s.per_second[i].bytes_read) / 1048576.0);
  }
}

void checkpoints_of(const analysis::TraceSummary& s, Profile& p) {
  for (const auto& c : s.checkpoints) {
    p.checkpoints += 1;
    p.checkpoint_bytes += static_cast<double>(c.bytes);
    p.checkpoint_start_s.push_back(static_cast<double>(c.start_ns) * kNs);
    p.checkpoint_write_s.push_back(static_cast<double>(c.end_ns - std::min(c.end_ns, c.start_ns)) *
                                   kNs);
    if (c.fsync) p.fsyncs += 1;
    p.checkpoint_copy_bytes += static_cast<double>(c.copied_bytes);
  }
  if (p.checkpoints > 0) p.checkpoint_bytes /= p.checkpoints;
}

}  // namespace

Profile profile_of(const analysis::TraceSummary& s) {
  Profile p;
  volume_of(s, p);
  order_of(s, p);
  epochs_of(s, p);
  concurrency_of(s, p);
  steps_of(s, p);
  throughput_of(s, p);
  checkpoints_of(s, p);
  p.has_block = s.block_requests > 0;
  p.block_bytes = static_cast<double>(s.block_bytes);
  p.block_requests = static_cast<double>(s.block_requests);
  for (const auto& note : s.notes) p.notes.push_back(note);
  p.lost_events = s.lost_events;  // the summary keeps the total only; the lost-events rule says it
  return p;
}

namespace {

// The data files of a trace (training and validation), by the trace's file index.
struct DataFiles {
  std::vector<bool> data;
  DataFiles(const trace::Trace& t, const analysis::TraceSummary& s) : data(t.files.size(), false) {
    for (const auto& f : s.files)
      if (is_data(f.cls) && f.file < data.size()) data[f.file] = true;
  }
  bool operator()(const trace::Event& e) const { return e.file < data.size() && data[e.file]; }
};

// From the start of the first data read to the end of the last, in seconds of the trace's clock
// (t0 < 0: no data read).
struct ReadSpan {
  double t0 = -1, t1 = 0;
};

// Sequential fraction: a read is sequential when it starts where the previous read of the same
// file ended (a fresh open starts at 0). io_uring reads carry explicit offsets; read() carries
// the file position, so both sides measure the same thing. Stats of data files are counted too.
ReadSpan sequential_of(const trace::Trace& t, const DataFiles& is_data_event, Profile& p) {
  std::unordered_map<std::uint32_t, std::uint64_t> next_offset;
  double reads = 0, sequential = 0, stats = 0;
  double t0 = -1, t1 = 0;
  for (const auto& e : t.events) {
    if (!is_data_event(e)) continue;
    if (e.op == trace::Op::open) {
      next_offset[e.file] = 0;
    } else if (e.op == trace::Op::stat) {
      stats += 1;
    } else if (trace::is_read(e.op) && e.size > 0) {
      reads += 1;
      auto it = next_offset.find(e.file);
      std::uint64_t expect = it == next_offset.end() ? 0 : it->second;
      if (e.offset == expect) sequential += 1;
      next_offset[e.file] = e.offset + (e.ret > 0 ? static_cast<std::uint64_t>(e.ret) : e.size);
      double ts = static_cast<double>(e.ts_ns) * kNs;
      if (t0 < 0) t0 = ts;
      t1 = std::max(t1, ts + static_cast<double>(e.dur_ns) * kNs);
    }
  }
  p.sequential_fraction = reads > 0 ? sequential / reads : 0;
  p.stats = stats;
  return {t0, t1};
}

// Device level split by file: block requests whose pages belong to a dataset file.
void block_of(const trace::Trace& t, const DataFiles& is_data_event, Profile& p) {
  double data_bytes = 0, data_requests = 0, all_bytes = 0, read_bytes = 0;
  bool attributed = false;
  for (const auto& e : t.events) {
    if (e.op == trace::Op::block) {
      all_bytes += static_cast<double>(e.size);
      if (e.file != trace::kNoFile) attributed = true;
      if (is_data_event(e)) {
        data_bytes += static_cast<double>(e.size);
        data_requests += 1;
      }
    } else if (trace::is_read(e.op) && e.ret > 0 && is_data_event(e)) {
      read_bytes += static_cast<double>(e.ret);
    }
  }
  p.block_all_bytes = all_bytes;
  if (attributed) {
    p.block_attributed = true;
    p.block_bytes = data_bytes;
    p.block_requests = data_requests;
    p.device_read_fraction = read_bytes > 0 ? data_bytes / read_bytes : 0;
  }
}

// Checkpoints: summarize splits write bursts at batch receipts, which a replay trace has none of
// (its readers hand batches over in memory), so two checkpoints to the same file less than a
// second apart merge there. An epoch starting between two checkpoint writes also means training
// went on: split there too, with the same per-checkpoint sums as the summary.
void split_checkpoints(const trace::Trace& t, const analysis::TraceSummary& s, Profile& p) {
  std::vector<std::uint64_t> epoch_starts;
  for (const auto& e : s.epochs) epoch_starts.push_back(e.start_ns);
  std::sort(epoch_starts.begin(), epoch_starts.end());
  std::vector<bool> ckpt_file(t.files.size(), false);
  for (const auto& f : s.files)
    if (f.cls == analysis::FileClass::checkpoint && f.file < ckpt_file.size())
      ckpt_file[f.file] = true;
  struct Part {
    std::uint64_t start = 0, end = 0, bytes = 0;
    bool fsync = false;
  };
  std::vector<Part> parts;
  for (const auto& c : s.checkpoints) {
    Part cur;
    bool open = false;
    std::uint64_t last_end = c.start_ns;
    for (const auto& e : t.events) {
      if (e.ts_ns < c.start_ns || e.ts_ns > c.end_ns) continue;
      if (e.file >= ckpt_file.size() || !ckpt_file[e.file]) continue;
      const bool sync = e.op == trace::Op::fsync || e.op == trace::Op::fdatasync ||
                        e.op == trace::Op::sync_file_range;
      const bool data = trace::is_write(e.op) || e.op == trace::Op::sendfile ||
                        e.op == trace::Op::copy_file_range;
      if (!sync && !data) continue;
      auto it = std::upper_bound(epoch_starts.begin(), epoch_starts.end(), last_end);
      if (open && data && it != epoch_starts.end() && *it < e.ts_ns) {
        parts.push_back(cur);
        cur = Part{};
        open = false;
      }
      if (!open) {
        if (!data) continue;
        cur.start = e.ts_ns;
        open = true;
      }
      cur.end = std::max(cur.end, e.ts_ns + e.dur_ns);
      last_end = cur.end;
      if (sync)
        cur.fsync = true;
      else if (e.ret > 0)
        cur.bytes += static_cast<std::uint64_t>(e.ret);
    }
    if (open) parts.push_back(cur);
  }
  if (parts.size() > s.checkpoints.size()) {
    p.checkpoints = static_cast<double>(parts.size());
    p.checkpoint_bytes = 0;
    p.fsyncs = 0;
    p.checkpoint_start_s.clear();
    p.checkpoint_write_s.clear();
    for (const auto& part : parts) {
      p.checkpoint_bytes += static_cast<double>(part.bytes);
      p.checkpoint_start_s.push_back(static_cast<double>(part.start) * kNs);
      p.checkpoint_write_s.push_back(static_cast<double>(part.end - part.start) * kNs);
      if (part.fsync) p.fsyncs += 1;
    }
    p.checkpoint_bytes /= p.checkpoints;
    p.notes.push_back("checkpoints split at epoch starts: " + std::to_string(s.checkpoints.size()) +
                      " write burst(s) → " + std::to_string(parts.size()) + " checkpoints");
  }
}

// Throughput over time in bins of a width fitted to the run, from the first data read.
void throughput_bins(const trace::Trace& t, const DataFiles& is_data_event, ReadSpan span,
                     Profile& p) {
  const double t0 = span.t0, t1 = span.t1;
  double bin = nice_bin(t1 - t0);
  auto bins = static_cast<std::size_t>(std::ceil((t1 - t0) / bin)) + 1;
  std::vector<double> bytes(bins, 0.0);
  for (const auto& e : t.events) {
    if (!is_data_event(e) || !trace::is_read(e.op) || e.ret <= 0) continue;
    // Bytes count at completion, when they reached the reader.
    double done = static_cast<double>(e.ts_ns + e.dur_ns) * kNs;
    auto i = static_cast<std::size_t>(std::max(0.0, (done - t0) / bin));
    bytes[std::min(i, bins - 1)] += static_cast<double>(e.ret);
  }
  p.throughput_bin_s = bin;
  p.throughput_t_s.clear();
  p.throughput_mib_s.clear();
  for (std::size_t i = 0; i < bins; ++i) {
    p.throughput_t_s.push_back(static_cast<double>(i) * bin);
    p.throughput_mib_s.push_back(bytes[i] / 1048576.0 / bin);
  }
}

// The GETs of the trace's /http rows answered 2xx in full: their times to first and last byte.
// A body the program streamed (its bursts, HttpRequest::body) counts to its first burst's end:
// the later bursts waited on the program's batches, not on the store.
void object_latency_of(const trace::Trace& t, Profile& p) {
  for (const trace::HttpRequest& r : t.http) {
    if (r.method != "GET" || r.status < 200 || r.status >= 300) continue;
    const std::uint64_t last = r.body.empty() ? r.last_byte_ns : r.body.front().end_ns;
    if (r.first_byte_ns < r.request_ns || last < r.first_byte_ns) continue;
    p.s3_first_byte_s.push_back(static_cast<double>(r.first_byte_ns - r.request_ns) * 1e-9);
    p.s3_last_byte_s.push_back(static_cast<double>(last - r.request_ns) * 1e-9);
  }
}

}  // namespace

Profile profile_of(const trace::Trace& t, const analysis::TraceSummary& s) {
  Profile p = profile_of(s);
  object_latency_of(t, p);
  p.has_block = p.has_block || t.meta.block_layer;
  p.lost_events = t.meta.lost_events;
  p.lost = t.meta.lost;
  const DataFiles is_data_event(t, s);
  const ReadSpan span = sequential_of(t, is_data_event, p);
  if (p.has_block) block_of(t, is_data_event, p);
  if (!s.checkpoints.empty()) split_checkpoints(t, s, p);
  if (span.t0 >= 0) throughput_bins(t, is_data_event, span, p);
  return p;
}

}  // namespace dlgen::compare

namespace dlgen::compare {

// Lives beside profile_of so that comparing Profiles alone does not pull in the summary code.
Comparison compare(const analysis::TraceSummary& original, const analysis::TraceSummary& replay,
                   const Tolerances& tolerances, LostEventsPolicy lost) {
  Profile a = profile_of(original);
  Profile b = profile_of(replay);
  a.label = "original";
  b.label = "replay";
  return compare(a, b, tolerances, lost);
}

}  // namespace dlgen::compare
