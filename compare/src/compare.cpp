#include "dlgen/compare/compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>

#include "dlgen/compare/stats.hpp"

namespace dlgen::compare {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Defaults are argued in docs/fidelity.md: counts that the job fixes exactly (files, epochs,
// readers, checkpoints) get zero or near-zero slack; sizes a few percent; timings, which drift on
// a shared 2-core VM, 10% for the ones storage is sized by (epoch time, duration, throughput, step
// time: a replay 24% faster asks 24% more bandwidth; replay-vs-replay noise measured in
// docs/fidelity.md); page-cache dependent figures (checkpoint write time, in-flight) more.
const std::vector<MetricDef> kMetrics = {
    {"bytes_read", "volume", "bytes", DistanceKind::relative, 0.05, "data bytes read"},
    {"bytes_written", "volume", "bytes", DistanceKind::relative, 0.10,
     "bytes written (checkpoints, outputs)"},
    {"files_read", "volume", "count", DistanceKind::relative, 0.02, "distinct data files read"},
    {"other_bytes_read", "volume", "bytes", DistanceKind::relative, 0.05,
     "bytes read from other files (neither dataset nor code): distance relative to the "
     "original's dataset bytes"},
    {"read_ops", "volume", "count", DistanceKind::relative, 0.25, "data read requests"},
    {"opens", "volume", "count", DistanceKind::relative, 0.10, "opens of data files"},
    {"metadata_ops", "volume", "count", DistanceKind::relative, 1.00,
     "opens + stats (metadata load)"},
    {"request_size", "volume", "bytes", DistanceKind::ks, 0.15,
     "request-size distribution (KS; median shown)"},
    {"request_size_emd", "volume", "bytes", DistanceKind::relative, 0.15,
     "request-size Wasserstein distance / original mean size"},
    {"epoch_bytes_read", "volume", "bytes", DistanceKind::relative, 0.05,
     "worst epoch: data bytes read"},
    {"sequential_fraction", "access", "fraction", DistanceKind::absolute, 0.10,
     "reads continuing where the previous read of the file ended"},
    {"order_vs_path", "access", "fraction", DistanceKind::absolute, 0.30,
     "rank correlation of read order with path order (1 = unshuffled)"},
    {"reshuffle", "access", "fraction", DistanceKind::absolute, 0.30,
     "rank correlation between consecutive epochs' orders (1 = same order)"},
    {"reads_per_file", "access", "fraction", DistanceKind::absolute, 0.10,
     "bytes read per file byte per epoch"},
    {"readers", "concurrency", "count", DistanceKind::absolute, 0.0, "tasks issuing data reads"},
    {"inflight", "concurrency", "count", DistanceKind::ks, 0.40,
     "I/Os in flight while busy (time-weighted KS; mean shown)"},
    {"epochs", "timing", "count", DistanceKind::absolute, 0.0, "epochs"},
    {"steps", "timing", "count", DistanceKind::relative, 0.02, "steps (batches consumed)"},
    {"duration", "timing", "s", DistanceKind::relative, 0.10,
     "time reading in steady-state epochs (all but the first)", true},
    {"epoch_time", "timing", "s", DistanceKind::relative, 0.10,
     "worst steady-state epoch: duration", true},
    {"step_time", "timing", "s", DistanceKind::relative, 0.10, "median step time", true},
    {"compute", "timing", "s", DistanceKind::relative, 0.20, "median compute gap per step", true},
    {"data_wait", "timing", "fraction", DistanceKind::absolute, 0.15,
     "share of step time waiting for data", true},
    {"consumer", "timing", "s", DistanceKind::relative, 0.10,
     "median consumer's own cost per step (distance: share of the original's median step)", true},
    {"au", "timing", "fraction", DistanceKind::absolute, 0.05,
     "AU: compute / wall from the first batch to the run's end (lowest accelerator)", true},
    {"throughput", "timing", "MiB/s", DistanceKind::relative, 0.11,
     "data MiB/s in steady-state epochs", true},
    {"eval_passes", "evaluation", "count", DistanceKind::absolute, 0.0, "evaluation passes"},
    {"eval_files", "evaluation", "count", DistanceKind::relative, 0.02,
     "distinct validation files read"},
    {"eval_epoch_bytes_read", "evaluation", "bytes", DistanceKind::relative, 0.05,
     "worst evaluation pass: data bytes read"},
    {"eval_steps", "evaluation", "count", DistanceKind::relative, 0.02,
     "evaluation steps (batches consumed)"},
    {"eval_step_time", "evaluation", "s", DistanceKind::relative, 0.20,
     "median evaluation step time", true},
    {"checkpoints", "checkpoint", "count", DistanceKind::absolute, 0.0, "checkpoints written"},
    {"checkpoint_size", "checkpoint", "bytes", DistanceKind::relative, 0.05,
     "mean bytes per checkpoint"},
    {"checkpoint_interval", "checkpoint", "s", DistanceKind::relative, 0.50,
     "median time between checkpoints", true},
    {"checkpoint_write_time", "checkpoint", "s", DistanceKind::relative, 1.00,
     "median checkpoint write time", true},
    {"checkpoint_fsync", "checkpoint", "fraction", DistanceKind::absolute, 0.0,
     "checkpoints with an fsync"},
    {"checkpoint_copy", "checkpoint", "bytes", DistanceKind::relative, 0.05,
     "bytes copied between checkpoint files (sendfile/copy_file_range) over the run"},
    {"block_bytes", "device", "bytes", DistanceKind::relative, 0.25,
     "dataset bytes moved at the block layer (all the process's where files are not attributed)"},
    {"block_requests", "device", "count", DistanceKind::relative, 0.50,
     "block-layer requests for dataset files"},
    {"device_read_fraction", "device", "fraction", DistanceKind::absolute, 0.15,
     "dataset block bytes per dataset byte read: 0 page cache, ~1 device"},
};

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

class Builder {
 public:
  Builder(const Tolerances& tol) : tol_(tol) {}

  MetricResult& add(std::string_view name, double a, double b) {
    const MetricDef* def = find_metric(name);
    if (!def) {  // every name used below is in kMetrics (a test walks them): this is a bug
      std::fprintf(stderr, "dlgen: internal error: compare metric '%.*s' has no definition\n",
                   static_cast<int>(name.size()), name.data());
      std::abort();
    }
    MetricResult r;
    r.name = std::string(name);
    r.group = std::string(def->group);
    r.unit = std::string(def->unit);
    r.kind = def->kind;
    r.original = a;
    r.replay = b;
    r.tolerance = tol_.get(name);
    r.distance = distance_of(def->kind, a, b);
    r.verdict = r.distance <= r.tolerance + 1e-12 ? Verdict::pass : Verdict::fail;
    out.push_back(std::move(r));
    return out.back();
  }
  // A metric with an explicit distance (KS, worst epoch).
  MetricResult& add_with_distance(std::string_view name, double a, double b, double d) {
    MetricResult& r = add(name, a, b);
    r.distance = d;
    r.verdict = d <= r.tolerance + 1e-12 ? Verdict::pass : Verdict::fail;
    return r;
  }
  void skip(std::string_view name, double a, double b, std::string why) {
    MetricResult& r = add(name, a, b);
    r.distance = 0;
    r.verdict = Verdict::skipped;
    r.note = std::move(why);
  }

  std::vector<MetricResult> out;

 private:
  const Tolerances& tol_;
};

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

// The first epoch carries warm-up that the replay does not model and storage does not cause
// (DataLoader workers importing, first batches, cold caches); with two or more epochs, timing is
// judged on the others ("steady state"). The per-epoch table still shows the first.
std::size_t first_steady(std::size_t epochs) {
  return epochs >= 2 ? 1 : 0;
}

// Seconds spent reading in steady-state epochs: gaps between epochs (worker start-up,
// checkpoints) are not counted; checkpoints have their own metrics. No epochs: first to last read.
double steady_duration(const Profile& p) {
  if (p.epochs.empty()) return p.duration_s;
  double d = 0;
  for (std::size_t e = first_steady(p.epochs.size()); e < p.epochs.size(); ++e)
    d += p.epochs[e].duration_s;
  return d;
}

double steady_bytes(const Profile& p) {
  if (p.epochs.empty()) return p.bytes_read;
  double b = 0;
  for (std::size_t e = first_steady(p.epochs.size()); e < p.epochs.size(); ++e)
    b += p.epochs[e].bytes_read;
  return b;
}

double sum(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s;
}

}  // namespace

const std::vector<MetricDef>& metric_defs() {
  return kMetrics;
}

const MetricDef* find_metric(std::string_view name) {
  for (const auto& m : kMetrics)
    if (m.name == name) return &m;
  return nullptr;
}

double Tolerances::get(std::string_view metric) const {
  auto it = values.find(std::string(metric));
  if (it != values.end()) return it->second;
  const MetricDef* def = find_metric(metric);
  return def ? def->tolerance : 0;
}

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::pass:
      return "PASS";
    case Verdict::fail:
      return "FAIL";
    case Verdict::skipped:
      return "SKIP";
  }
  return "?";
}

bool Comparison::pass() const {
  return failures() == 0 && refusals.empty();
}

namespace {

// The lost-events line for one trace's profile, into c.refusals or c.verdict_notes.
void lost_events_line(Comparison& c, const Profile* p, LostEventsPolicy policy) {
  if (p->lost_events == 0 && p->lost.total() == 0) return;
  const std::uint64_t n = std::max(p->lost_events, p->lost.total());
  const std::string what = (p->label.empty() ? std::string("trace") : p->label) + ": lost " +
                           std::to_string(n) + " events during capture (" +
                           trace::describe_lost(n, p->lost) +
                           "), so its counts are lower bounds and its timing has gaps";
  const std::string remedy = trace::lost_remedies(p->lost);
  if (policy == LostEventsPolicy::allow)
    c.verdict_notes.push_back(what + "; allowed by --allow-lost");
  else
    c.refusals.push_back(what + "; capture it again" + (remedy.empty() ? "" : " with " + remedy) +
                         ", or pass --allow-lost to judge it anyway");
}

}  // namespace

void apply_lost_events_rule(Comparison& c, LostEventsPolicy policy) {
  for (const Profile* p : {&c.original, &c.replay}) lost_events_line(c, p, policy);
}

std::size_t Comparison::failures() const {
  return static_cast<std::size_t>(
      std::count_if(metrics.begin(), metrics.end(),
                    [](const MetricResult& m) { return m.verdict == Verdict::fail; }));
}

Comparison compare(const Profile& a, const Profile& b, const Tolerances& tol,
                   LostEventsPolicy lost) {
  Builder m(tol);

  // Volume.
  m.add("bytes_read", a.bytes_read, b.bytes_read);
  {
    // Relative to at least 1 MiB: a few stray bytes (a log line, a cache file) in a run that writes
    // no checkpoint are not a difference a storage benchmark can see.
    constexpr double kWriteFloor = 1 << 20;
    const double wa = static_cast<double>(a.bytes_written),
                 wb = static_cast<double>(b.bytes_written);
    m.add_with_distance("bytes_written", wa, wb, std::fabs(wa - wb) / std::max(wa, kWriteFloor));
  }
  // Data read besides the datasets (a mask per sample, an annotation): the job does not model it,
  // so a replay reads none; judged as a share of the original's dataset bytes, so a label file
  // read once does not fail a run.
  if (a.other_bytes_read == 0 && b.other_bytes_read == 0)
    m.skip("other_bytes_read", 0, 0, "no other files read in either trace");
  else
    m.add_with_distance("other_bytes_read", a.other_bytes_read, b.other_bytes_read,
                        std::fabs(a.other_bytes_read - b.other_bytes_read) /
                            std::max({a.bytes_read, a.other_bytes_read, 1.0}))
        .note = "files neither dataset nor code; distance relative to the original's data bytes";
  m.add("files_read", a.files_read, b.files_read);
  m.add("read_ops", a.read_ops, b.read_ops);
  m.add("opens", a.opens, b.opens);
  m.add("metadata_ops", a.opens + a.stats, b.opens + b.stats);
  {
    MetricResult& r = m.add_with_distance("request_size", quantile(a.request_sizes, 0.5),
                                          quantile(b.request_sizes, 0.5),
                                          ks_distance(a.request_sizes, b.request_sizes));
    r.note = "median request size; distance is KS";
    // With few requests, two draws from one distribution differ by up to the KS critical value:
    // below it a difference is sampling noise, not infidelity.
    double floor = ks_critical_value(a.request_sizes.size(), b.request_sizes.size(), 0.01);
    if (floor > r.tolerance && !tol.values.count("request_size")) {
      r.tolerance = floor;
      r.verdict = r.distance <= r.tolerance + 1e-12 ? Verdict::pass : Verdict::fail;
      r.note += "; tolerance raised to the 1% KS critical value for " +
                std::to_string(a.request_sizes.size()) + " and " +
                std::to_string(b.request_sizes.size()) + " requests";
    }
  }
  {
    double ma = mean(a.request_sizes);
    double w = wasserstein_distance(a.request_sizes, b.request_sizes);
    m.add_with_distance("request_size_emd", ma, mean(b.request_sizes),
                        ma > 0 ? w / ma : (w == 0 ? 0 : kInf))
        .note = "mean request size; distance is W1 / original mean";
  }

  // Per-epoch volume and time: the worst epoch decides.
  const std::size_t ne = std::max(a.epochs.size(), b.epochs.size());
  const std::size_t common = std::min(a.epochs.size(), b.epochs.size());
  {
    double worst_bytes = 0, worst_time = 0;
    double wa_b = 0, wb_b = 0, wa_t = 0, wb_t = 0;
    for (std::size_t e = 0; e < common; ++e) {
      const auto& ea = a.epochs[e];
      const auto& eb = b.epochs[e];
      double db = distance_of(DistanceKind::relative, ea.bytes_read, eb.bytes_read);
      if (db >= worst_bytes) worst_bytes = db, wa_b = ea.bytes_read, wb_b = eb.bytes_read;
      if (e < first_steady(common)) continue;
      double dt = distance_of(DistanceKind::relative, ea.duration_s, eb.duration_s);
      if (dt >= worst_time) worst_time = dt, wa_t = ea.duration_s, wb_t = eb.duration_s;
    }
    if (common == 0) {
      m.skip("epoch_bytes_read", 0, 0, "no epochs found on one side");
      m.skip("epoch_time", 0, 0, "no epochs found on one side");
    } else {
      m.add_with_distance("epoch_bytes_read", wa_b, wb_b, worst_bytes).note =
          "values of the worst epoch";
      m.add_with_distance("epoch_time", wa_t, wb_t, worst_time).note =
          common > 1 ? "values of the worst epoch after the first" : "the only epoch";
    }
  }

  // Access order.
  m.add("sequential_fraction", a.sequential_fraction, b.sequential_fraction);
  // A rank correlation over n files has a spread of about 1/sqrt(n-1) when the order is random:
  // with fewer than kOrderFiles files an epoch (0.23 at 20) it cannot tell a shuffled order from
  // a fixed one within the tolerance, so the order rows are not judged.
  constexpr double kOrderFiles = 20;
  double fewest = 0;
  for (const auto& e : a.epochs)
    fewest = fewest == 0 ? e.files_read : std::min(fewest, e.files_read);
  const bool few = !a.epochs.empty() && fewest < kOrderFiles;
  const std::string few_why = "only " + std::to_string(static_cast<long long>(fewest)) +
                              " files an epoch: too few to judge an order (at least 20)";
  // Two shuffled orders each have rho 0 +- 1/sqrt(n-1), so their difference has a spread of
  // sqrt(2/(n-1)): 0.145 at 96 files, where the 0.30 default is 2 spreads and one comparison in
  // 25 of two faithful shuffles would fail. The tolerance is raised to 3.5 spreads (one in
  // 2,000), unless the user set one: 0.51 at 96 files, the default from 273 on; an unshuffled
  // order (rho 1) is still 1 away from a shuffled one.
  auto order_row = [&](std::string_view name, double va, double vb) {
    MetricResult& r = m.add(name, va, vb);
    const double floor = 3.5 * std::sqrt(2.0 / std::max(1.0, fewest - 1));
    if (fewest > 1 && floor > r.tolerance && !tol.values.count(std::string(name))) {
      r.tolerance = floor;
      r.verdict = r.distance <= r.tolerance + 1e-12 ? Verdict::pass : Verdict::fail;
      r.note = "tolerance raised to the sampling noise of " +
               std::to_string(static_cast<long long>(fewest)) + " files an epoch";
    }
  };
  if (a.epochs.empty() && b.epochs.empty())
    m.skip("order_vs_path", a.order_vs_path, b.order_vs_path, "no epochs");
  else if (few)
    m.skip("order_vs_path", a.order_vs_path, b.order_vs_path, few_why);
  else
    order_row("order_vs_path", a.order_vs_path, b.order_vs_path);
  if (a.epochs.size() < 2 && b.epochs.size() < 2)
    m.skip("reshuffle", a.epoch_order_similarity, b.epoch_order_similarity, "fewer than 2 epochs");
  else if (few)
    m.skip("reshuffle", a.epoch_order_similarity, b.epoch_order_similarity, few_why);
  else
    order_row("reshuffle", a.epoch_order_similarity, b.epoch_order_similarity);
  m.add("reads_per_file", a.reads_per_file, b.reads_per_file);

  // Concurrency.
  m.add("readers", a.readers, b.readers);
  {
    auto ia = busy_only(a.inflight), ib = busy_only(b.inflight);
    if (ia.empty() && ib.empty())
      m.skip("inflight", 0, 0, "no I/O durations in either trace");
    else
      m.add_with_distance("inflight", weighted_mean(ia), weighted_mean(ib),
                          ks_distance_weighted(ia, ib))
          .note = "mean in flight while busy; distance is KS";
  }

  // Timing.
  m.add("epochs", static_cast<double>(a.epochs.size()), static_cast<double>(b.epochs.size()));
  // Steps come from batch handovers (a worker's sendmsg or /dev/shm tensors, the consumer's
  // recvmsg; dlgen's replay makes the same calls). A trace without any cannot say what a step is:
  // the step metrics are then not measurable, and epoch time, duration and throughput carry the
  // timing verdict.
  const bool steps_a = !a.step_times_s.empty(), steps_b = !b.step_times_s.empty();
  std::string no_steps;
  if (!steps_a && !steps_b)
    no_steps = "no batch handovers in either trace";
  else if (!steps_a)
    no_steps = "no batch handovers in the original trace";
  else if (!steps_b)
    no_steps = "no batch handovers in the replay trace";
  if (!no_steps.empty()) {
    m.skip("steps", static_cast<double>(a.step_times_s.size()),
           static_cast<double>(b.step_times_s.size()), no_steps);
  } else {
    m.add("steps", static_cast<double>(a.step_times_s.size()),
          static_cast<double>(b.step_times_s.size()));
  }
  // A run that reads no dataset on either side (a checkpoint-only workflow) has no data time to
  // judge: its checkpoint rows do.
  const bool no_data = a.bytes_read == 0 && b.bytes_read == 0;
  const char* no_data_why = "no dataset read in either trace (checkpoint rows judge the run)";
  if (no_data)
    m.skip("duration", 0, 0, no_data_why);
  else
    m.add("duration", steady_duration(a), steady_duration(b));
  auto dist_metric = [&](std::string_view name, const std::vector<double>& x,
                         const std::vector<double>& y) {
    if (!no_steps.empty())
      m.skip(name, quantile(x, 0.5), quantile(y, 0.5), no_steps);
    else
      m.add(name, quantile(x, 0.5), quantile(y, 0.5)).note = "median";
  };
  dist_metric("step_time", a.step_times_s, b.step_times_s);
  dist_metric("compute", a.compute_s, b.compute_s);
  {
    // The consumer's own per-batch cost (docs/metrics.md, "Step"): a few milliseconds or none, so
    // judged as a share of the original's median step rather than of itself (a replay that spends
    // 0.1 ms where the original spent 0 is not "infinitely" wrong; one that leaves out 1.8 ms of a
    // 6 ms step is 30% wrong).
    const double ca = quantile(a.consumer_s, 0.5), cb = quantile(b.consumer_s, 0.5);
    const double step = quantile(a.step_times_s, 0.5);
    if (!no_steps.empty())
      m.skip("consumer", ca, cb, no_steps);
    else
      m.add_with_distance("consumer", ca, cb, step > 0 ? std::fabs(ca - cb) / step : 0).note =
          "median; distance relative to the original's median step";
  }
  {
    double ta = sum(a.step_times_s), tb = sum(b.step_times_s);
    double fa = ta > 0 ? sum(a.data_wait_s) / ta : 0, fb = tb > 0 ? sum(b.data_wait_s) / tb : 0;
    if (!no_steps.empty())
      m.skip("data_wait", fa, fb, no_steps);
    else
      m.add("data_wait", fa, fb);
  }
  // AU with one definition on both sides (summarize's, the replay's own): what a storage benchmark
  // publishes, so the replay must keep the original's accelerators as busy as they were.
  if (!a.au_measured || !b.au_measured)
    m.skip("au", a.au, b.au,
           !a.au_measured && !b.au_measured ? "no steps in either trace"
           : !a.au_measured                 ? "no steps in the original trace"
                                            : "no steps in the replay trace");
  else
    m.add("au", a.au, b.au).note = "lowest accelerator";
  {
    auto mibs = [](const Profile& p) {
      double d = steady_duration(p);
      return d > 0 ? steady_bytes(p) / d / 1048576.0 : 0;
    };
    // Distance on the same bytes: the synthetic dataset's bytes may differ from the original's by
    // what bytes_read allows (its file sizes are drawn from a fit), and are judged there; counted
    // here too, a replay within 10% on duration would fail throughput on 1-2% more bytes.
    const double da = steady_duration(a), db = steady_duration(b);
    if (no_data)
      m.skip("throughput", 0, 0, no_data_why);
    else if (da > 0 && db > 0)
      m.add_with_distance("throughput", mibs(a), mibs(b), std::fabs(db - da) / db).note =
          "distance on the original's bytes (theirs are judged by bytes_read)";
    else
      m.add("throughput", mibs(a), mibs(b));
  }

  // Evaluation passes, on their own rows: pass i with pass i, like epochs.
  if (a.eval_passes.empty() && b.eval_passes.empty()) {
    const char* why = "no evaluation passes in either trace";
    for (auto name :
         {"eval_passes", "eval_files", "eval_epoch_bytes_read", "eval_steps", "eval_step_time"})
      m.skip(name, 0, 0, why);
  } else {
    m.add("eval_passes", static_cast<double>(a.eval_passes.size()),
          static_cast<double>(b.eval_passes.size()));
    m.add("eval_files", a.eval_files_read, b.eval_files_read);
    const std::size_t n = std::min(a.eval_passes.size(), b.eval_passes.size());
    if (n == 0) {
      m.skip("eval_epoch_bytes_read", 0, 0, "no evaluation passes on one side");
    } else {
      double worst = 0, wa = 0, wb = 0;
      for (std::size_t e = 0; e < n; ++e) {
        const double ea = a.eval_passes[e].bytes_read, eb = b.eval_passes[e].bytes_read;
        const double d = distance_of(DistanceKind::relative, ea, eb);
        if (d >= worst) worst = d, wa = ea, wb = eb;
      }
      m.add_with_distance("eval_epoch_bytes_read", wa, wb, worst).note =
          "values of the worst evaluation pass";
    }
    const bool ea = !a.eval_step_times_s.empty(), eb = !b.eval_step_times_s.empty();
    if (!no_steps.empty() || (!ea && !eb)) {
      const std::string why = !no_steps.empty() ? no_steps : "no evaluation steps in either trace";
      m.skip("eval_steps", static_cast<double>(a.eval_step_times_s.size()),
             static_cast<double>(b.eval_step_times_s.size()), why);
      m.skip("eval_step_time", quantile(a.eval_step_times_s, 0.5),
             quantile(b.eval_step_times_s, 0.5), why);
    } else {
      m.add("eval_steps", static_cast<double>(a.eval_step_times_s.size()),
            static_cast<double>(b.eval_step_times_s.size()));
      m.add("eval_step_time", quantile(a.eval_step_times_s, 0.5),
            quantile(b.eval_step_times_s, 0.5))
          .note = "median";
    }
  }

  // Checkpoints.
  m.add("checkpoints", a.checkpoints, b.checkpoints);
  if (a.checkpoints == 0 && b.checkpoints == 0) {
    m.skip("checkpoint_size", 0, 0, "no checkpoints in either trace");
    m.skip("checkpoint_interval", 0, 0, "no checkpoints in either trace");
    m.skip("checkpoint_write_time", 0, 0, "no checkpoints in either trace");
    m.skip("checkpoint_fsync", 0, 0, "no checkpoints in either trace");
    m.skip("checkpoint_copy", 0, 0, "no checkpoints in either trace");
  } else {
    m.add("checkpoint_size", a.checkpoint_bytes, b.checkpoint_bytes);
    auto ia = intervals(a.checkpoint_start_s), ib = intervals(b.checkpoint_start_s);
    if (ia.empty() && ib.empty())
      m.skip("checkpoint_interval", 0, 0, "fewer than 2 checkpoints");
    else
      m.add("checkpoint_interval", quantile(ia, 0.5), quantile(ib, 0.5)).note = "median";
    {
      // Relative to at least 50 ms: a few-millisecond write into the page cache doubles with any
      // scheduling hiccup on a shared host, which is noise, not a storage difference.
      constexpr double kWriteTimeFloorS = 0.05;
      const double wa = quantile(a.checkpoint_write_s, 0.5),
                   wb = quantile(b.checkpoint_write_s, 0.5);
      m.add_with_distance("checkpoint_write_time", wa, wb,
                          std::fabs(wa - wb) / std::max(wa, kWriteTimeFloorS))
          .note = "median; relative to at least 50 ms";
    }
    auto fs = [](const Profile& p) {
      return p.checkpoints > 0 ? std::min(1.0, p.fsyncs / p.checkpoints) : 0;
    };
    m.add("checkpoint_fsync", fs(a), fs(b));
    if (a.checkpoint_copy_bytes == 0 && b.checkpoint_copy_bytes == 0)
      m.skip("checkpoint_copy", 0, 0, "no checkpoint copied in either trace");
    else
      m.add("checkpoint_copy", a.checkpoint_copy_bytes, b.checkpoint_copy_bytes).note =
          "sendfile/copy_file_range, over the run";
  }

  // Device level.
  if (a.has_block && b.has_block) {
    m.add("block_bytes", a.block_bytes, b.block_bytes);
    m.add("block_requests", a.block_requests, b.block_requests);
    if (a.block_attributed && b.block_attributed)
      m.add("device_read_fraction", a.device_read_fraction, b.device_read_fraction);
    else
      m.skip("device_read_fraction", a.device_read_fraction, b.device_read_fraction,
             "needs block requests attributed to files (a trace from this dlgen)");
  } else {
    const char* why = "needs --block on both captures";
    m.skip("block_bytes", a.block_bytes, b.block_bytes, why);
    m.skip("block_requests", a.block_requests, b.block_requests, why);
    m.skip("device_read_fraction", a.device_read_fraction, b.device_read_fraction, why);
  }

  Comparison c;
  c.metrics = std::move(m.out);
  for (std::size_t e = 0; e < ne; ++e) {
    EpochRow row;
    row.epoch = e;
    if (e < a.epochs.size()) row.original = a.epochs[e], row.has_original = true;
    if (e < b.epochs.size()) row.replay = b.epochs[e], row.has_replay = true;
    row.original.order.clear();
    row.replay.order.clear();
    c.epochs.push_back(std::move(row));
  }
  for (std::size_t e = 0; e < std::max(a.eval_passes.size(), b.eval_passes.size()); ++e) {
    EpochRow row;
    row.epoch = e;
    if (e < a.eval_passes.size()) row.original = a.eval_passes[e], row.has_original = true;
    if (e < b.eval_passes.size()) row.replay = b.eval_passes[e], row.has_replay = true;
    c.eval_passes.push_back(std::move(row));
  }
  c.original = a;
  c.replay = b;
  for (auto* p : {&c.original, &c.replay})
    for (auto& e : p->epochs) e.order.clear();
  // The original's AU measured on the GPU, beside the AU row's (docs/metrics.md); not judged.
  if (a.au_gpu_measured) {
    char gpu[200];
    std::snprintf(gpu, sizeof gpu,
                  "original AU measured on the GPU (CUDA): %.3f; emulated AU of the original from "
                  "its compute gaps: %.3f; replay: %.3f",
                  a.au_gpu, a.au, b.au);
    c.verdict_notes.push_back(gpu);
  }
  apply_lost_events_rule(c, lost);
  return c;
}

Comparison compare(const std::vector<Profile>& originals, const Profile& replay,
                   const Tolerances& tol, LostEventsPolicy lost) {
  Comparison c = compare(originals.empty() ? Profile{} : originals.front(), replay, tol, lost);
  if (originals.size() < 2) return c;
  // Each ordered pair: relative distances divide by the first side, so "the largest distance
  // between two originals" is taken both ways. A row one pair cannot measure (no steps in either)
  // gives that pair no spread; lost events are the repeats' own refusal below, not the pair's.
  std::map<std::string, double> spread;
  for (std::size_t i = 0; i < originals.size(); ++i)
    for (std::size_t j = 0; j < originals.size(); ++j) {
      if (i == j) continue;
      const Comparison pair = compare(originals[i], originals[j], tol, LostEventsPolicy::allow);
      for (const auto& r : pair.metrics) {
        const MetricDef* def = find_metric(r.name);
        if (!def || !def->host_time || r.verdict == Verdict::skipped) continue;
        auto [it, fresh] = spread.emplace(r.name, r.distance);
        if (!fresh) it->second = std::max(it->second, r.distance);
      }
    }
  for (auto& r : c.metrics) {
    auto it = spread.find(r.name);
    if (r.verdict == Verdict::skipped || it == spread.end()) continue;
    r.has_spread = true;
    r.spread = it->second;
    r.verdict = r.distance <= r.tolerance_used() + 1e-12 ? Verdict::pass : Verdict::fail;
    if (r.spread > r.tolerance)
      r.note += std::string(r.note.empty() ? "" : "; ") +
                "tolerance widened to the originals' own spread";
  }
  for (std::size_t i = 1; i < originals.size(); ++i) {
    c.original_repeats.push_back(originals[i].label);
    lost_events_line(c, &originals[i], lost);
  }
  return c;
}

}  // namespace dlgen::compare
