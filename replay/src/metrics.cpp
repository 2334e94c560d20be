#include "dlgen/replay/metrics.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

#include "dlgen/core/units.hpp"

namespace dlgen::replay {
namespace {

double seconds_between(std::int64_t a, std::int64_t b) {
  return static_cast<double>(b - a) * 1e-9;
}

// The host's CPUs above this busy share during a failed run make the client the suspect.
constexpr double kClientBoundBusyPercent = 90.0;

}  // namespace

std::string au_verdict(const Report& r) {
  if (!r.au_applicable) return "n/a";
  if (r.passed) return "PASS";
  const AcceleratorResult& a = r.au_loss;
  const double lost = a.epoch_start_wait_s + a.in_epoch_wait_s + a.other_loss_s;
  char buf[400];
  if (a.epoch_start_wait_s >= a.in_epoch_wait_s && a.epoch_start_wait_s >= a.other_loss_s) {
    const std::uint64_t passes = std::max<std::uint64_t>(r.epochs_detail.size(), 1);
    std::snprintf(buf, sizeof buf,
                  "FAIL, mostly at epoch starts: %.2f s of the %.2f s lost waited for a pass's "
                  "first batch (%.2f s inside passes); with %.1f steps a pass the start of each "
                  "cannot be hidden: more steps per epoch (a larger dataset) measure the storage",
                  a.epoch_start_wait_s, lost, a.in_epoch_wait_s,
                  static_cast<double>(a.steps) / static_cast<double>(passes));
  } else if (a.in_epoch_wait_s >= a.other_loss_s) {
    std::snprintf(buf, sizeof buf,
                  "FAIL: the storage could not keep the accelerators busy (%.2f s of the %.2f s "
                  "lost waited for data inside passes, %.2f s at epoch starts)",
                  a.in_epoch_wait_s, lost, a.epoch_start_wait_s);
  } else {
    std::snprintf(buf, sizeof buf,
                  "FAIL, mostly not waiting for data: %.2f s of the %.2f s lost went to the "
                  "consumer's per-batch cost, checkpoints and the run's end (data waits %.2f s "
                  "inside passes, %.2f s at epoch starts)",
                  a.other_loss_s, lost, a.in_epoch_wait_s, a.epoch_start_wait_s);
  }
  return buf;
}

CpuSample read_cpu_sample() {
  CpuSample s;
  rusage ru{};
  if (::getrusage(RUSAGE_SELF, &ru) == 0) {
    s.user_s =
        static_cast<double>(ru.ru_utime.tv_sec) + static_cast<double>(ru.ru_utime.tv_usec) * 1e-6;
    s.system_s =
        static_cast<double>(ru.ru_stime.tv_sec) + static_cast<double>(ru.ru_stime.tv_usec) * 1e-6;
  }
  // /proc/stat's first line: "cpu user nice system idle iowait irq softirq steal ..." in jiffies.
  // Idle and iowait are not busy; steal is time the hypervisor gave elsewhere (busy for us).
  std::ifstream f("/proc/stat");
  std::string cpu;
  std::uint64_t v[8] = {};
  if (f >> cpu && cpu == "cpu") {
    for (auto& x : v)
      if (!(f >> x)) break;
    std::uint64_t total = 0;
    for (auto x : v) total += x;
    s.host_total = total;
    s.host_busy = total - v[3] - v[4];
  }
  return s;
}

unsigned online_cpus() {
  const long n = ::sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<unsigned>(n) : 1;
}

AuParts accelerator_utilisation(std::span<const PhaseRecord> phases, std::size_t accelerator,
                                std::int64_t run_begin_ns, std::int64_t run_end_ns,
                                std::span<const TimeWindow> harness,
                                std::span<const TimeWindow> checkpoints) {
  std::vector<AuStep> steps;
  for (const PhaseRecord& ph : phases) {
    if (accelerator >= ph.steps.size()) continue;
    bool first = true;
    for (const StepRecord& s : ph.steps[accelerator]) {
      steps.push_back({s.ready, s.compute_ns, s.end, first});
      first = false;
    }
  }
  return dlgen::accelerator_utilisation(steps, run_begin_ns, run_end_ns, harness, checkpoints);
}

double phase_utilisation(const PhaseRecord& phase, bool first_of_run) {
  double compute = 0, wall = 0;
  for (const auto& steps : phase.steps) {
    std::int64_t from = phase.begin_ns;
    if (first_of_run && !steps.empty()) from = steps.front().ready;
    for (const StepRecord& s : steps) compute += static_cast<double>(s.compute_ns) * 1e-9;
    // Less the evaluation passes run inside it (run.eval_every_steps): their own phases count them.
    wall += std::max(0.0, seconds_between(from, std::max(phase.end_ns, from)) -
                              static_cast<double>(phase.paused_ns) * 1e-9);
  }
  return wall > 0 ? std::min(1.0, compute / wall) : 0;
}

double mib_per_s(std::uint64_t bytes, double seconds) {
  return seconds > 0 ? static_cast<double>(bytes) / 1048576.0 / seconds : 0;
}

ComputeAccuracy compute_accuracy(std::span<const PhaseRecord> phases) {
  ComputeAccuracy acc;
  double err_sum = 0, abs_sum = 0, conf_sum = 0, meas_sum = 0;
  for (const PhaseRecord& ph : phases)
    for (const auto& steps : ph.steps)
      for (const StepRecord& s : steps) {
        const double conf = static_cast<double>(s.compute_ns) * 1e-9;
        const double meas =
            static_cast<double>(s.end - s.excluded_ns - s.ready - s.overhead_ns) * 1e-9;
        conf_sum += conf;
        meas_sum += meas;
        err_sum += meas - conf;
        abs_sum += std::abs(meas - conf);
        acc.max_error_s = std::max(acc.max_error_s, std::abs(meas - conf));
        ++acc.steps;
      }
  if (acc.steps > 0) {
    const double n = static_cast<double>(acc.steps);
    acc.configured_mean_s = conf_sum / n;
    acc.measured_mean_s = meas_sum / n;
    acc.mean_error_s = err_sum / n;
    acc.mean_abs_error_s = abs_sum / n;
  }
  return acc;
}

CpuResult cpu_usage(const CpuSample& begin, const CpuSample& end, double elapsed_s, unsigned cpus) {
  CpuResult c;
  c.cpus = std::max(cpus, 1u);
  c.user_s = std::max(0.0, end.user_s - begin.user_s);
  c.system_s = std::max(0.0, end.system_s - begin.system_s);
  if (elapsed_s > 0) c.process_percent = (c.user_s + c.system_s) / (elapsed_s * c.cpus) * 100;
  if (end.host_total > begin.host_total && end.host_busy >= begin.host_busy)
    c.host_busy_percent = static_cast<double>(end.host_busy - begin.host_busy) /
                          static_cast<double>(end.host_total - begin.host_total) * 100;
  return c;
}

namespace {

// Each pass's figures, and the training and evaluation totals and rates over them.
void pass_figures(const RunRecord& rec, Report& rep) {
  LatencyHistogram latency;
  rep.epochs_detail.clear();
  bool first = true;
  for (const PhaseRecord& ph : rec.phases) {
    EpochResult er;
    er.epoch = ph.epoch;
    er.eval = ph.eval;
    er.seconds = ph.seconds();
    er.begin_ns = ph.begin_ns;
    er.end_ns = ph.end_ns;
    er.after_step = ph.after_step;
    er.samples = ph.samples;
    er.bytes = ph.bytes;
    er.requests = ph.requests;
    for (const auto& steps : ph.steps) er.steps = std::max<std::uint64_t>(er.steps, steps.size());
    er.au = phase_utilisation(ph, first);
    first = false;
    rep.epochs_detail.push_back(er);
    if (ph.eval) {
      rep.eval_samples += ph.samples;
      rep.eval_bytes += ph.bytes;
      rep.eval_seconds += er.seconds;
    } else {
      rep.samples += ph.samples;
      rep.steps += er.steps;
      rep.train_bytes += ph.bytes;
      rep.train_seconds += er.seconds;
    }
    rep.requests += ph.requests;
    rep.files_opened += ph.files;
    latency.merge(ph.latency);
  }
  // dataset.load = "memory": the load's reads count in the totals, its seconds in MiB/s's.
  rep.load_bytes = rec.load.bytes;
  rep.load_files = rec.load.files;
  rep.load_seconds = rec.load.bytes > 0 || rec.load.files > 0 ? rec.load.seconds() : 0;
  rep.requests += rec.load.requests;
  rep.files_opened += rec.load.files;
  latency.merge(rec.load.latency);
  rep.bytes_read = rep.train_bytes + rep.eval_bytes + rep.load_bytes;
  rep.latency = percentiles(latency);
  rep.latency_histogram = latency;
  rep.samples_per_s =
      rep.train_seconds > 0 ? static_cast<double>(rep.samples) / rep.train_seconds : 0;
  rep.eval_samples_per_s =
      rep.eval_seconds > 0 ? static_cast<double>(rep.eval_samples) / rep.eval_seconds : 0;
  rep.train_mib_per_s = mib_per_s(rep.train_bytes, rep.train_seconds);
  rep.eval_mib_per_s = mib_per_s(rep.eval_bytes, rep.eval_seconds);
  rep.mib_per_s =
      mib_per_s(rep.bytes_read, rep.train_seconds + rep.eval_seconds + rep.load_seconds);
}

// Each accelerator's steps, waits and AU; the run's AU is the lowest, and the verdict's
// accelerator (au_loss) the one that holds it.
void accelerator_figures(const RunRecord& rec, Report& rep) {
  rep.per_accelerator.clear();
  double au_min = 1.0, au_sum = 0;
  for (std::size_t a = 0; a < rec.accelerator_ids.size(); ++a) {
    AcceleratorResult r;
    r.id = rec.accelerator_ids[a];
    for (const PhaseRecord& ph : rec.phases) {
      if (a >= ph.steps.size()) continue;
      r.steps += ph.steps[a].size();
      for (const StepRecord& s : ph.steps[a]) {
        r.samples += s.samples;
        r.wait_s += seconds_between(s.wait_begin, s.ready);
      }
    }
    const AuParts p = accelerator_utilisation(rec.phases, a, rec.begin_ns, rec.end_ns, rec.harness,
                                              rec.checkpoints);
    r.compute_s = p.compute_s;
    r.wall_s = p.wall_s;
    r.first_wait_s = p.first_wait_s;
    r.harness_s = p.harness_s;
    r.epoch_start_wait_s = p.epoch_start_wait_s;
    r.in_epoch_wait_s = p.in_epoch_wait_s;
    r.other_loss_s = p.other_s;
    r.au = std::min(1.0, p.au());
    if (a == 0 || r.au < au_min) rep.au_loss = r;  // the verdict's accelerator
    au_min = std::min(au_min, r.au);
    au_sum += r.au;
    rep.per_accelerator.push_back(r);
  }
  rep.au = rep.per_accelerator.empty() ? 0 : au_min;
  rep.au_mean =
      rep.per_accelerator.empty() ? 0 : au_sum / static_cast<double>(rep.per_accelerator.size());
}

// The verdict, the CPU figures, and whether the client rather than the storage may have failed it.
void verdict_and_cpu(const RunRecord& rec, Report& rep) {
  rep.compute = compute_accuracy(rec.phases);
  rep.au_applicable = rep.compute.configured_mean_s > 0;
  rep.passed = !rep.au_applicable || rep.au >= rep.au_threshold;
  rep.verdict = au_verdict(rep);

  rep.cpu = cpu_usage(rec.cpu_begin, rec.cpu_end, rep.elapsed_s, rec.cpus);
  rep.client_bound =
      rep.au_applicable && !rep.passed && rep.cpu.host_busy_percent >= kClientBoundBusyPercent;
  if (rep.client_bound) {
    char msg[320];
    std::snprintf(
        msg, sizeof msg,
        "client-bound: this host's %u CPU(s) were %.0f%% busy (dlgen %.0f%%) while AU stayed under "
        "its "
        "threshold; the client may be what starved the accelerators, not the storage (fewer "
        "accelerators or workers per host, or more hosts)",
        rep.cpu.cpus, rep.cpu.host_busy_percent, rep.cpu.process_percent);
    rep.warnings.emplace_back(msg);
  }
}

S3Figures figures_of(const engine::S3Counters& k) {
  S3Figures f;
  f.requests = k.http_requests;
  f.gets = k.gets;
  f.puts = k.puts;
  f.parts = k.parts;
  f.control = k.control;
  f.retries = k.retries;
  f.slow_downs = k.slow_downs;
  f.server_errors = k.server_errors;
  f.timeouts = k.timeouts;
  f.resets = k.resets;
  f.ttfb = percentiles(k.ttfb);
  f.ttlb = percentiles(k.ttlb);
  return f;
}

}  // namespace

S3Result s3_result(const engine::S3Counters& all,
                   const std::optional<engine::S3Counters>& checkpoint) {
  S3Result r;
  static_cast<S3Figures&>(r) = figures_of(all);
  r.wire = all;
  if (checkpoint) {
    r.checkpoint = figures_of(*checkpoint);
    r.checkpoint_wire = *checkpoint;
  }
  return r;
}

std::optional<S3Result> s3_figures(std::span<const PhaseRecord> phases,
                                   const std::optional<engine::S3Counters>& checkpoint) {
  std::optional<engine::S3Counters> all = checkpoint;
  for (const PhaseRecord& ph : phases) {
    if (!ph.s3) continue;
    if (!all) all.emplace();
    all->merge(*ph.s3);
  }
  if (!all) return std::nullopt;
  return s3_result(*all, checkpoint);
}

void compute_report(const RunRecord& rec, Report& rep) {
  rep.elapsed_s = seconds_between(rec.begin_ns, rec.end_ns);
  rep.begin_ns = rec.begin_ns;
  rep.end_ns = rec.end_ns;
  rep.au_threshold = rec.au_threshold;
  rep.realtime = rec.realtime;
  rep.checkpoint = rec.checkpoint;
  pass_figures(rec, rep);
  rep.s3 = s3_figures(rec.phases, rec.checkpoint.s3);
  accelerator_figures(rec, rep);
  verdict_and_cpu(rec, rep);
}

}  // namespace dlgen::replay
