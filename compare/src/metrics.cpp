// The metric table (metrics.hpp): what each row extracts from the two profiles and when it cannot
// be measured. Defaults are argued in docs/fidelity.md.
#include "metrics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "dlgen/compare/stats.hpp"
#include "steady_state.hpp"

namespace dlgen::compare {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// ---- Shared measures ----------------------------------------------------------------------------

Extracted values(double original, double replay) {
  Extracted v;
  v.original = original;
  v.replay = replay;
  return v;
}

Extracted values(double original, double replay, double distance, std::string note = {}) {
  Extracted v = values(original, replay);
  v.distance = distance;
  v.note = std::move(note);
  return v;
}

Extracted medians(const std::vector<double>& a, const std::vector<double>& b) {
  Extracted v = values(quantile(a, 0.5), quantile(b, 0.5));
  v.note = "median";
  return v;
}

double count(const auto& items) {
  return static_cast<double>(items.size());
}

double sum(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s;
}

std::vector<double> intervals(const std::vector<double>& starts) {
  std::vector<double> out;
  for (std::size_t i = 1; i < starts.size(); ++i) out.push_back(starts[i] - starts[i - 1]);
  return out;
}

double weighted_mean(const std::vector<WeightedValue>& s) {
  double w = 0, v = 0;
  for (const auto& x : s) {
    w += x.weight;
    v += x.value * x.weight;
  }
  return w > 0 ? v / w : 0;
}

std::vector<WeightedValue> busy_only(const std::vector<WeightedValue>& s) {
  std::vector<WeightedValue> out;
  for (const auto& x : s)
    if (x.value > 0) out.push_back(x);
  return out;
}

// Epoch i against epoch i for i in [first, n): the pair with the largest relative distance of
// `field` (the last of equals), and that distance. Zero values when the range is empty.
Extracted worst_pair(const std::vector<EpochProfile>& a, const std::vector<EpochProfile>& b,
                     std::size_t first, std::size_t n, double EpochProfile::*field) {
  double worst = 0, wa = 0, wb = 0;
  for (std::size_t e = first; e < n; ++e) {
    const double ea = a[e].*field, eb = b[e].*field;
    const double d = distance_of(DistanceKind::relative, ea, eb);
    if (d >= worst) worst = d, wa = ea, wb = eb;
  }
  return values(wa, wb, worst);
}

// ---- When a row cannot be measured --------------------------------------------------------------

std::optional<Skip> without_common_epochs(const Sides& s) {
  if (s.common_epochs == 0) return Skip{"no epochs found on one side"};
  return std::nullopt;
}

// A rank correlation over n files has a spread of about 1/sqrt(n-1) when the order is random:
// with fewer than 20 files an epoch (0.23 at 20) it cannot tell a shuffled order from a fixed one
// within the tolerance, so the order rows are not judged.
constexpr double kOrderFiles = 20;

std::optional<Skip> too_few_files_for_order(const Sides& s) {
  if (s.a.epochs.empty() || s.fewest_files >= kOrderFiles) return std::nullopt;
  return Skip{"only " + std::to_string(static_cast<long long>(s.fewest_files)) +
                  " files an epoch: too few to judge an order (at least 20)",
              true};
}

std::optional<Skip> order_vs_path_unmeasured(const Sides& s) {
  if (s.a.epochs.empty() && s.b.epochs.empty()) return Skip{"no epochs", true};
  return too_few_files_for_order(s);
}

std::optional<Skip> reshuffle_unmeasured(const Sides& s) {
  if (s.a.epochs.size() < 2 && s.b.epochs.size() < 2) return Skip{"fewer than 2 epochs", true};
  return too_few_files_for_order(s);
}

std::optional<Skip> without_io_durations(const Sides& s) {
  if (busy_only(s.a.inflight).empty() && busy_only(s.b.inflight).empty())
    return Skip{"no I/O durations in either trace"};
  return std::nullopt;
}

// Steps come from batch handovers (a worker's sendmsg or /dev/shm tensors, the consumer's
// recvmsg; dlgen's replay makes the same calls). A trace without any cannot say what a step is:
// the step metrics are then not measurable, and epoch time, duration and throughput carry the
// timing verdict.
std::optional<Skip> without_steps(const Sides& s) {
  if (!s.no_steps.empty()) return Skip{s.no_steps, true};
  return std::nullopt;
}

// A run that reads no dataset on either side (a checkpoint-only workflow) has no data time to
// judge: its checkpoint rows do.
std::optional<Skip> without_data(const Sides& s) {
  if (s.no_data) return Skip{"no dataset read in either trace (checkpoint rows judge the run)"};
  return std::nullopt;
}

std::optional<Skip> au_unmeasured(const Sides& s) {
  const bool a = s.a.au_measured, b = s.b.au_measured;
  if (a && b) return std::nullopt;
  return Skip{!a && !b ? "no steps in either trace"
              : !a     ? "no steps in the original trace"
                       : "no steps in the replay trace",
              true};
}

std::optional<Skip> without_eval_passes(const Sides& s) {
  if (s.a.eval_passes.empty() && s.b.eval_passes.empty())
    return Skip{"no evaluation passes in either trace"};
  return std::nullopt;
}

std::optional<Skip> without_common_eval_passes(const Sides& s) {
  if (auto none = without_eval_passes(s)) return none;
  if (s.a.eval_passes.empty() || s.b.eval_passes.empty())
    return Skip{"no evaluation passes on one side"};
  return std::nullopt;
}

std::optional<Skip> without_eval_steps(const Sides& s) {
  if (auto none = without_eval_passes(s)) return none;
  if (!s.no_steps.empty()) return Skip{s.no_steps, true};
  if (s.a.eval_step_times_s.empty() && s.b.eval_step_times_s.empty())
    return Skip{"no evaluation steps in either trace", true};
  return std::nullopt;
}

std::optional<Skip> without_object_gets(const Sides& s) {
  if (s.a.s3_first_byte_s.empty() || s.b.s3_first_byte_s.empty())
    return Skip{"needs HTTP GETs of objects in both traces (an S3 program and its S3 replay)"};
  return std::nullopt;
}

// The medians of per-GET latencies, the 99th percentiles beside them (not judged).
Extracted object_latency(const std::vector<double>& a, const std::vector<double>& b) {
  Extracted v = medians(a, b);
  char note[160];
  std::snprintf(note, sizeof note, "median of %zu / %zu GETs; p99 %.2f / %.2f ms", a.size(),
                b.size(), quantile(a, 0.99) * 1e3, quantile(b, 0.99) * 1e3);
  v.note = note;
  return v;
}

std::optional<Skip> without_checkpoints(const Sides& s) {
  if (s.a.checkpoints == 0 && s.b.checkpoints == 0) return Skip{"no checkpoints in either trace"};
  return std::nullopt;
}

std::optional<Skip> without_checkpoint_intervals(const Sides& s) {
  if (auto none = without_checkpoints(s)) return none;
  if (intervals(s.a.checkpoint_start_s).empty() && intervals(s.b.checkpoint_start_s).empty())
    return Skip{"fewer than 2 checkpoints"};
  return std::nullopt;
}

std::optional<Skip> without_checkpoint_copy(const Sides& s) {
  if (auto none = without_checkpoints(s)) return none;
  if (s.a.checkpoint_copy_bytes == 0 && s.b.checkpoint_copy_bytes == 0)
    return Skip{"no checkpoint copied in either trace"};
  return std::nullopt;
}

std::optional<Skip> without_block(const Sides& s) {
  if (!s.a.has_block || !s.b.has_block) return Skip{"needs --block on both captures", true};
  return std::nullopt;
}

std::optional<Skip> without_block_attribution(const Sides& s) {
  if (auto none = without_block(s)) return none;
  if (!s.a.block_attributed || !s.b.block_attributed)
    return Skip{"needs block requests attributed to files (a trace from this dlgen)", true};
  return std::nullopt;
}

// ---- What a row extracts, where it takes more than a field of each side -------------------------

// Relative to at least 1 MiB: a few stray bytes (a log line, a cache file) in a run that writes
// no checkpoint are not a difference a storage benchmark can see.
Extracted bytes_written(const Sides& s) {
  constexpr double kWriteFloor = 1 << 20;
  const double wa = s.a.bytes_written, wb = s.b.bytes_written;
  return values(wa, wb, std::fabs(wa - wb) / std::max(wa, kWriteFloor));
}

// Data read besides the datasets (a mask per sample, an annotation): the job does not model it,
// so a replay reads none; judged as a share of the original's dataset bytes, so a label file
// read once does not fail a run.
Extracted other_bytes_read(const Sides& s) {
  const double oa = s.a.other_bytes_read, ob = s.b.other_bytes_read;
  return values(oa, ob, std::fabs(oa - ob) / std::max({s.a.bytes_read, oa, 1.0}),
                "files neither dataset nor code; distance relative to the original's data bytes");
}

// With few requests, two draws from one distribution differ by up to the KS critical value:
// below it a difference is sampling noise, not infidelity.
Extracted request_size(const Sides& s) {
  const auto& ra = s.a.request_sizes;
  const auto& rb = s.b.request_sizes;
  Extracted v = values(quantile(ra, 0.5), quantile(rb, 0.5), ks_distance(ra, rb),
                       "median request size; distance is KS");
  v.tolerance_floor = ks_critical_value(ra.size(), rb.size(), 0.01);
  v.floor_note = "tolerance raised to the 1% KS critical value for " + std::to_string(ra.size()) +
                 " and " + std::to_string(rb.size()) + " requests";
  return v;
}

Extracted request_size_emd(const Sides& s) {
  const double ma = mean(s.a.request_sizes);
  const double w = wasserstein_distance(s.a.request_sizes, s.b.request_sizes);
  return values(ma, mean(s.b.request_sizes), ma > 0 ? w / ma : (w == 0 ? 0 : kInf),
                "mean request size; distance is W1 / original mean");
}

// Per-epoch volume and time: the worst epoch decides.
Extracted epoch_bytes_read(const Sides& s) {
  Extracted v = worst_pair(s.a.epochs, s.b.epochs, 0, s.common_epochs, &EpochProfile::bytes_read);
  v.note = "values of the worst epoch";
  return v;
}

Extracted epoch_time(const Sides& s) {
  const std::size_t n = s.common_epochs;
  Extracted v = worst_pair(s.a.epochs, s.b.epochs, first_steady(n), n, &EpochProfile::duration_s);
  v.note = n > 1 ? "values of the worst epoch after the first" : "the only epoch";
  return v;
}

// Two shuffled orders each have rho 0 +- 1/sqrt(n-1), so their difference has a spread of
// sqrt(2/(n-1)): 0.145 at 96 files, where the 0.30 default is 2 spreads and one comparison in
// 25 of two faithful shuffles would fail. The tolerance is raised to 3.5 spreads (one in
// 2,000), unless the user set one: 0.51 at 96 files, the default from 273 on; an unshuffled
// order (rho 1) is still 1 away from a shuffled one.
Extracted order_row(const Sides& s, double original, double replay) {
  Extracted v = values(original, replay);
  const double fewest = s.fewest_files;
  if (fewest > 1) {
    v.tolerance_floor = 3.5 * std::sqrt(2.0 / std::max(1.0, fewest - 1));
    v.floor_note = "tolerance raised to the sampling noise of " +
                   std::to_string(static_cast<long long>(fewest)) + " files an epoch";
  }
  return v;
}

Extracted inflight(const Sides& s) {
  const auto ia = busy_only(s.a.inflight), ib = busy_only(s.b.inflight);
  return values(weighted_mean(ia), weighted_mean(ib), ks_distance_weighted(ia, ib),
                "mean in flight while busy; distance is KS");
}

// The consumer's own per-batch cost (docs/metrics.md, "Step"): a few milliseconds or none, so
// judged as a share of the original's median step rather than of itself (a replay that spends
// 0.1 ms where the original spent 0 is not "infinitely" wrong; one that leaves out 1.8 ms of a
// 6 ms step is 30% wrong).
Extracted consumer(const Sides& s) {
  const double ca = quantile(steady(s.a, s.a.consumer_s), 0.5),
               cb = quantile(steady(s.b, s.b.consumer_s), 0.5);
  const double step = quantile(steady(s.a, s.a.step_times_s), 0.5);
  return values(ca, cb, step > 0 ? std::fabs(ca - cb) / step : 0,
                "median; distance relative to the original's median step");
}

Extracted data_wait(const Sides& s) {
  auto share = [](const Profile& p) {
    const double t = sum(steady(p, p.step_times_s));
    return t > 0 ? sum(steady(p, p.data_wait_s)) / t : 0;
  };
  return values(share(s.a), share(s.b));
}

// AU with one definition on both sides (summarize's, the replay's own): what a storage benchmark
// publishes, so the replay must keep the original's accelerators as busy as they were.
Extracted au(const Sides& s) {
  Extracted v = values(s.a.au_steady.value_or(s.a.au), s.b.au_steady.value_or(s.b.au));
  v.note = "lowest accelerator, steady state";
  return v;
}

// Distance on the same bytes: the synthetic dataset's bytes may differ from the original's by
// what bytes_read allows (its file sizes are drawn from a fit), and are judged there; counted
// here too, a replay within 10% on duration would fail throughput on 1-2% more bytes.
Extracted throughput(const Sides& s) {
  auto mibs = [](const Profile& p) {
    const double d = steady_duration(p);
    return d > 0 ? steady_bytes(p) / d / 1048576.0 : 0;
  };
  const double da = steady_duration(s.a), db = steady_duration(s.b);
  if (da > 0 && db > 0)
    return values(mibs(s.a), mibs(s.b), std::fabs(db - da) / db,
                  "distance on the original's bytes (theirs are judged by bytes_read)");
  return values(mibs(s.a), mibs(s.b));
}

// Evaluation passes, on their own rows: pass i with pass i, like epochs.
Extracted eval_epoch_bytes_read(const Sides& s) {
  const std::size_t n = std::min(s.a.eval_passes.size(), s.b.eval_passes.size());
  Extracted v = worst_pair(s.a.eval_passes, s.b.eval_passes, 0, n, &EpochProfile::bytes_read);
  v.note = "values of the worst evaluation pass";
  return v;
}

// Relative to at least 50 ms: a few-millisecond write into the page cache doubles with any
// scheduling hiccup on a shared host, which is noise, not a storage difference.
Extracted checkpoint_write_time(const Sides& s) {
  constexpr double kWriteTimeFloorS = 0.05;
  const double wa = quantile(s.a.checkpoint_write_s, 0.5);
  const double wb = quantile(s.b.checkpoint_write_s, 0.5);
  return values(wa, wb, std::fabs(wa - wb) / std::max(wa, kWriteTimeFloorS),
                "median; relative to at least 50 ms");
}

Extracted checkpoint_fsync(const Sides& s) {
  auto share = [](const Profile& p) {
    return p.checkpoints > 0 ? std::min(1.0, p.fsyncs / p.checkpoints) : 0;
  };
  return values(share(s.a), share(s.b));
}

Extracted checkpoint_copy(const Sides& s) {
  Extracted v = values(s.a.checkpoint_copy_bytes, s.b.checkpoint_copy_bytes);
  v.note = "sendfile/copy_file_range, over the run";
  return v;
}

}  // namespace

double distance_of(DistanceKind kind, double a, double b) {
  switch (kind) {
    case DistanceKind::relative:
      if (a == 0) return b == 0 ? 0 : kInf;
      return std::fabs(b - a) / std::fabs(a);
    case DistanceKind::absolute:
    case DistanceKind::ks:
      return std::fabs(b - a);
  }
  return kInf;
}

Sides sides_of(const Profile& a, const Profile& b) {
  Sides s{a, b};
  const bool steps_a = !a.step_times_s.empty(), steps_b = !b.step_times_s.empty();
  if (!steps_a && !steps_b)
    s.no_steps = "no batch handovers in either trace";
  else if (!steps_a)
    s.no_steps = "no batch handovers in the original trace";
  else if (!steps_b)
    s.no_steps = "no batch handovers in the replay trace";
  s.no_data = a.bytes_read == 0 && b.bytes_read == 0;
  for (const auto& e : a.epochs)
    s.fewest_files = s.fewest_files == 0 ? e.files_read : std::min(s.fewest_files, e.files_read);
  s.common_epochs = std::min(a.epochs.size(), b.epochs.size());
  return s;
}

// Counts that the job fixes exactly (files, epochs, readers, checkpoints) get zero or near-zero
// slack; sizes a few percent; timings, which drift on a shared 2-core VM, 10% for the ones
// storage is sized by (epoch time, duration, throughput, step time: a replay 24% faster asks 24%
// more bandwidth; replay-vs-replay noise measured in docs/fidelity.md); page-cache dependent
// figures (checkpoint write time, in-flight) more. The last field of a definition marks host time
// (MetricDef::host_time).
const std::vector<Metric>& metric_table() {
  using K = DistanceKind;
  static const std::vector<Metric> table = {
      // Volume.
      {{"bytes_read", "volume", "bytes", K::relative, 0.05, "data bytes read"},
       nullptr,
       [](const Sides& s) { return values(s.a.bytes_read, s.b.bytes_read); }},
      {{"bytes_written", "volume", "bytes", K::relative, 0.10,
        "bytes written (checkpoints, outputs)"},
       nullptr,
       bytes_written},
      {{"other_bytes_read", "volume", "bytes", K::relative, 0.05,
        "bytes read from other files (neither dataset nor code): distance relative to the "
        "original's dataset bytes"},
       [](const Sides& s) -> std::optional<Skip> {
         if (s.a.other_bytes_read == 0 && s.b.other_bytes_read == 0)
           return Skip{"no other files read in either trace"};
         return std::nullopt;
       },
       other_bytes_read},
      {{"files_read", "volume", "count", K::relative, 0.02, "distinct data files read"},
       nullptr,
       [](const Sides& s) { return values(s.a.files_read, s.b.files_read); }},
      {{"read_ops", "volume", "count", K::relative, 0.25, "data read requests"},
       nullptr,
       [](const Sides& s) { return values(s.a.read_ops, s.b.read_ops); }},
      {{"opens", "volume", "count", K::relative, 0.10, "opens of data files"},
       nullptr,
       [](const Sides& s) { return values(s.a.opens, s.b.opens); }},
      {{"metadata_ops", "volume", "count", K::relative, 1.00, "opens + stats (metadata load)"},
       nullptr,
       [](const Sides& s) { return values(s.a.opens + s.a.stats, s.b.opens + s.b.stats); }},
      {{"request_size", "volume", "bytes", K::ks, 0.15,
        "request-size distribution (KS; median shown)"},
       nullptr,
       request_size},
      {{"request_size_emd", "volume", "bytes", K::relative, 0.15,
        "request-size Wasserstein distance / original mean size"},
       nullptr,
       request_size_emd},
      // Epoch i against epoch i, the worst epoch deciding: its volume, then its time (a timing
      // row, printed beside its twin).
      {{"epoch_bytes_read", "volume", "bytes", K::relative, 0.05, "worst epoch: data bytes read"},
       without_common_epochs,
       epoch_bytes_read},
      {{"epoch_time", "timing", "s", K::relative, 0.10, "worst steady-state epoch: duration", true},
       without_common_epochs,
       epoch_time},

      // Access order.
      {{"sequential_fraction", "access", "fraction", K::absolute, 0.10,
        "reads continuing where the previous read of the file ended"},
       nullptr,
       [](const Sides& s) { return values(s.a.sequential_fraction, s.b.sequential_fraction); }},
      {{"order_vs_path", "access", "fraction", K::absolute, 0.30,
        "rank correlation of read order with path order (1 = unshuffled)"},
       order_vs_path_unmeasured,
       [](const Sides& s) { return order_row(s, s.a.order_vs_path, s.b.order_vs_path); }},
      {{"reshuffle", "access", "fraction", K::absolute, 0.30,
        "rank correlation between consecutive epochs' orders (1 = same order)"},
       reshuffle_unmeasured,
       [](const Sides& s) {
         return order_row(s, s.a.epoch_order_similarity, s.b.epoch_order_similarity);
       }},
      {{"reads_per_file", "access", "fraction", K::absolute, 0.10,
        "bytes read per file byte per epoch"},
       nullptr,
       [](const Sides& s) { return values(s.a.reads_per_file, s.b.reads_per_file); }},

      // Concurrency.
      {{"readers", "concurrency", "count", K::absolute, 0.0, "tasks issuing data reads"},
       nullptr,
       [](const Sides& s) { return values(s.a.readers, s.b.readers); }},
      {{"inflight", "concurrency", "count", K::ks, 0.40,
        "I/Os in flight while busy (time-weighted KS; mean shown)"},
       without_io_durations,
       inflight},

      // Timing.
      {{"epochs", "timing", "count", K::absolute, 0.0, "epochs"},
       nullptr,
       [](const Sides& s) { return values(count(s.a.epochs), count(s.b.epochs)); }},
      {{"steps", "timing", "count", K::relative, 0.02, "steps (batches consumed)"},
       without_steps,
       [](const Sides& s) {
         return values(count(s.a.step_times_s) + static_cast<double>(s.a.held_steps),
                       count(s.b.step_times_s) + static_cast<double>(s.b.held_steps));
       }},
      {{"duration", "timing", "s", K::relative, 0.10,
        "time reading in steady-state epochs (all but the first)", true},
       without_data,
       [](const Sides& s) { return values(steady_duration(s.a), steady_duration(s.b)); }},
      {{"step_time", "timing", "s", K::relative, 0.10, "median step time in steady-state passes",
        true},
       without_steps,
       [](const Sides& s) {
         return medians(steady(s.a, s.a.step_times_s), steady(s.b, s.b.step_times_s));
       }},
      {{"compute", "timing", "s", K::relative, 0.20, "median compute gap per step, steady state",
        true},
       without_steps,
       [](const Sides& s) {
         return medians(steady(s.a, s.a.compute_s), steady(s.b, s.b.compute_s));
       }},
      {{"consumer", "timing", "s", K::relative, 0.10,
        "median consumer's own cost per step, steady state (distance: share of the original's "
        "median step)",
        true},
       without_steps,
       consumer},
      {{"data_wait", "timing", "fraction", K::absolute, 0.15,
        "share of step time waiting for data, steady state", true},
       without_steps,
       data_wait},
      {{"au", "timing", "fraction", K::absolute, 0.05,
        "AU: compute / wall from the second training pass to the run's end (lowest accelerator)",
        true},
       au_unmeasured,
       au},
      {{"throughput", "timing", "MiB/s", K::relative, 0.11, "data MiB/s in steady-state epochs",
        true},
       without_data,
       throughput},
      {{"s3_first_byte", "timing", "s", K::relative, 0.50,
        "median time to first byte of an object GET (HTTP), both traces'", true},
       without_object_gets,
       [](const Sides& s) { return object_latency(s.a.s3_first_byte_s, s.b.s3_first_byte_s); }},
      {{"s3_last_byte", "timing", "s", K::relative, 0.50,
        "median time to last byte of an object GET (HTTP), both traces'", true},
       without_object_gets,
       [](const Sides& s) { return object_latency(s.a.s3_last_byte_s, s.b.s3_last_byte_s); }},

      // Evaluation passes.
      {{"eval_passes", "evaluation", "count", K::absolute, 0.0, "evaluation passes"},
       without_eval_passes,
       [](const Sides& s) { return values(count(s.a.eval_passes), count(s.b.eval_passes)); }},
      {{"eval_files", "evaluation", "count", K::relative, 0.02, "distinct validation files read"},
       without_eval_passes,
       [](const Sides& s) { return values(s.a.eval_files_read, s.b.eval_files_read); }},
      {{"eval_epoch_bytes_read", "evaluation", "bytes", K::relative, 0.05,
        "worst evaluation pass: data bytes read"},
       without_common_eval_passes,
       eval_epoch_bytes_read},
      {{"eval_steps", "evaluation", "count", K::relative, 0.02,
        "evaluation steps (batches consumed)"},
       without_eval_steps,
       [](const Sides& s) {
         return values(count(s.a.eval_step_times_s) + static_cast<double>(s.a.held_eval_steps),
                       count(s.b.eval_step_times_s) + static_cast<double>(s.b.held_eval_steps));
       }},
      {{"eval_step_time", "evaluation", "s", K::relative, 0.20, "median evaluation step time",
        true},
       without_eval_steps,
       [](const Sides& s) { return medians(s.a.eval_step_times_s, s.b.eval_step_times_s); }},

      // Checkpoints.
      {{"checkpoints", "checkpoint", "count", K::absolute, 0.0, "checkpoints written"},
       nullptr,
       [](const Sides& s) { return values(s.a.checkpoints, s.b.checkpoints); }},
      {{"checkpoint_size", "checkpoint", "bytes", K::relative, 0.05, "mean bytes per checkpoint"},
       without_checkpoints,
       [](const Sides& s) { return values(s.a.checkpoint_bytes, s.b.checkpoint_bytes); }},
      {{"checkpoint_interval", "checkpoint", "s", K::relative, 0.50,
        "median time between checkpoints", true},
       without_checkpoint_intervals,
       [](const Sides& s) {
         return medians(intervals(s.a.checkpoint_start_s), intervals(s.b.checkpoint_start_s));
       }},
      {{"checkpoint_write_time", "checkpoint", "s", K::relative, 1.00,
        "median checkpoint write time", true},
       without_checkpoints,
       checkpoint_write_time},
      {{"checkpoint_fsync", "checkpoint", "fraction", K::absolute, 0.0,
        "checkpoints with an fsync"},
       without_checkpoints,
       checkpoint_fsync},
      {{"checkpoint_copy", "checkpoint", "bytes", K::relative, 0.05,
        "bytes copied between checkpoint files (sendfile/copy_file_range) over the run"},
       without_checkpoint_copy,
       checkpoint_copy},

      // Device level.
      {{"block_bytes", "device", "bytes", K::relative, 0.25,
        "dataset bytes moved at the block layer (all the process's where files are not "
        "attributed)"},
       without_block,
       [](const Sides& s) { return values(s.a.block_bytes, s.b.block_bytes); }},
      {{"block_requests", "device", "count", K::relative, 0.50,
        "block-layer requests for dataset files"},
       without_block,
       [](const Sides& s) { return values(s.a.block_requests, s.b.block_requests); }},
      {{"device_read_fraction", "device", "fraction", K::absolute, 0.15,
        "dataset block bytes per dataset byte read: 0 page cache, ~1 device"},
       without_block_attribution,
       [](const Sides& s) { return values(s.a.device_read_fraction, s.b.device_read_fraction); }},
  };
  return table;
}

}  // namespace dlgen::compare
