#include "dlgen/replay/report.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "dlgen/core/printf_text.hpp"
#include "dlgen/core/units.hpp"
#include "dlgen/replay/metrics.hpp"

namespace dlgen::replay {

Percentiles percentiles(const LatencyHistogram& h) {
  Percentiles p;
  p.count = h.count();
  p.p50_us = static_cast<double>(h.percentile(0.50)) / 1e3;
  p.p90_us = static_cast<double>(h.percentile(0.90)) / 1e3;
  p.p99_us = static_cast<double>(h.percentile(0.99)) / 1e3;
  p.p999_us = static_cast<double>(h.percentile(0.999)) / 1e3;
  p.max_us = static_cast<double>(h.max()) / 1e3;
  p.mean_us = h.mean() / 1e3;
  return p;
}

namespace {

using nlohmann::json;

json per_accelerator_json(const Report& r) {
  json accs = json::array();
  for (const auto& a : r.per_accelerator)
    accs.push_back({{"id", a.id},
                    {"steps", a.steps},
                    {"samples", a.samples},
                    {"compute_s", a.compute_s},
                    {"wall_s", a.wall_s},
                    {"first_wait_s", a.first_wait_s},
                    {"harness_s", a.harness_s},
                    {"wait_s", a.wait_s},
                    {"epoch_start_wait_s", a.epoch_start_wait_s},
                    {"in_epoch_wait_s", a.in_epoch_wait_s},
                    {"au", a.au}});
  return accs;
}

json epochs_json(const Report& r) {
  json eps = json::array();
  for (const auto& e : r.epochs_detail)
    eps.push_back({{"epoch", e.epoch},
                   {"eval", e.eval},
                   {"seconds", e.seconds},
                   {"steps", e.steps},
                   {"samples", e.samples},
                   {"bytes", e.bytes},
                   {"requests", e.requests},
                   {"samples_per_s", e.samples_per_s()},
                   {"mib_per_s", e.mib_per_s()},
                   {"au", e.au}});
  return eps;
}

json percentiles_json(const Percentiles& p) {
  return {{"count", p.count}, {"mean", p.mean_us}, {"p50", p.p50_us},
          {"p90", p.p90_us},  {"p99", p.p99_us},   {"max", p.max_us}};
}

// HTTP requests to an object store: what they were, retries, errors by kind, TTFB and TTLB.
json s3_figures_json(const S3Figures& s) {
  return {{"requests", s.requests},
          {"gets", s.gets},
          {"puts", s.puts},
          {"parts", s.parts},
          {"control", s.control},
          {"retries", s.retries},
          {"errors",
           {{"slow_down_503", s.slow_downs},
            {"other_5xx", s.server_errors},
            {"timeouts", s.timeouts},
            {"resets", s.resets}}},
          {"ttfb_us", percentiles_json(s.ttfb)},
          {"ttlb_us", percentiles_json(s.ttlb)}};
}

// Every request of a run that used an object store, and the checkpoints' share of them.
json s3_json(const S3Result& s) {
  json j = s3_figures_json(s);
  if (s.checkpoint) j["checkpoint"] = s3_figures_json(*s.checkpoint);
  return j;
}

// The checkpoints, and how far the measured compute times are from the configured ones.
void checkpoint_and_compute_json(const Report& r, json& j) {
  const auto& c = r.checkpoint;
  j["checkpoint"] = {{"count", c.count},
                     {"files", c.files},
                     {"bytes", c.bytes},
                     {"write_s", c.write_s},
                     {"serialize_s", c.serialize_s},
                     {"write_mib_s", c.write_mib_s()},
                     {"restore_s", c.restore_s},
                     {"restore_bytes", c.restore_bytes},
                     {"restore_mib_s", c.restore_mib_s()}};
  const auto& m = r.compute;
  j["compute"] = {{"steps", m.steps},
                  {"configured_mean_s", m.configured_mean_s},
                  {"measured_mean_s", m.measured_mean_s},
                  {"mean_error_s", m.mean_error_s},
                  {"mean_abs_error_s", m.mean_abs_error_s},
                  {"max_error_s", m.max_error_s},
                  {"relative_error", m.relative_error()}};
}

// The training and evaluation passes' totals, and a dataset.load = "memory" load's.
void pass_totals_json(const Report& r, json& j) {
  j["train"] = {{"samples", r.samples},
                {"bytes", r.train_bytes},
                {"seconds", r.train_seconds},
                {"samples_per_s", r.samples_per_s},
                {"mib_per_s", r.train_mib_per_s}};
  j["eval"] = {{"samples", r.eval_samples},
               {"bytes", r.eval_bytes},
               {"seconds", r.eval_seconds},
               {"samples_per_s", r.eval_samples_per_s},
               {"mib_per_s", r.eval_mib_per_s}};
  if (r.load_files > 0)
    j["load"] = {{"bytes", r.load_bytes},
                 {"files", r.load_files},
                 {"seconds", r.load_seconds},
                 {"mib_per_s", mib_per_s(r.load_bytes, r.load_seconds)}};
}

}  // namespace

std::string to_json(const Report& r) {
  json j;
  j["job"] = r.job_name;
  j["engine"] = r.engine;
  j["accelerator"] = r.accelerator;
  j["config"] = {{"accelerators", r.accelerators},
                 {"workers", r.workers},
                 {"iodepth", r.iodepth},
                 {"epochs", r.epochs},
                 {"direct", r.direct},
                 {"cache", r.cache_mode}};
  j["elapsed_s"] = r.elapsed_s;
  // The headline figures in one place, for scripts (bench/fio reads totals.bytes_read and
  // totals.wall_seconds).
  // wall_seconds: the seconds that moved bytes_read (training and evaluation passes, and a
  // dataset.load = "memory" load before them).
  j["totals"] = {{"bytes_read", r.bytes_read},
                 {"wall_seconds", r.train_seconds + r.eval_seconds + r.load_seconds},
                 {"elapsed_seconds", r.elapsed_s},
                 {"samples", r.samples},
                 {"steps", r.steps},
                 {"requests", r.requests},
                 {"mib_per_s", r.mib_per_s},
                 {"samples_per_s", r.samples_per_s},
                 {"au", r.au}};
  pass_totals_json(r, j);
  j["cpu"] = {{"user_s", r.cpu.user_s},
              {"system_s", r.cpu.system_s},
              {"cpus", r.cpu.cpus},
              {"process_percent", r.cpu.process_percent},
              {"host_busy_percent", r.cpu.host_busy_percent},
              {"client_bound", r.client_bound}};
  j["realtime_priority"] = r.realtime;
  j["samples"] = r.samples;
  j["steps"] = r.steps;
  j["bytes_read"] = r.bytes_read;
  j["requests"] = r.requests;
  j["files_opened"] = r.files_opened;
  j["samples_per_s"] = r.samples_per_s;
  j["mib_per_s"] = r.mib_per_s;
  j["au"] = r.au;
  j["au_mean"] = r.au_mean;
  j["au_threshold"] = r.au_threshold;
  j["au_applicable"] = r.au_applicable;
  j["passed"] = r.passed;
  j["verdict"] = r.verdict;
  j["interrupted"] = r.interrupted;
  j["epochs_completed"] = r.epochs_completed;
  j["au_loss"] = {{"accelerator", r.au_loss.id},
                  {"wall_s", r.au_loss.wall_s},
                  {"compute_s", r.au_loss.compute_s},
                  {"epoch_start_wait_s", r.au_loss.epoch_start_wait_s},
                  {"in_epoch_wait_s", r.au_loss.in_epoch_wait_s},
                  {"other_s", r.au_loss.other_loss_s},
                  {"harness_s", r.au_loss.harness_s}};
  j["latency_us"] = {{"count", r.latency.count}, {"mean", r.latency.mean_us},
                     {"p50", r.latency.p50_us},  {"p90", r.latency.p90_us},
                     {"p99", r.latency.p99_us},  {"p99.9", r.latency.p999_us},
                     {"max", r.latency.max_us}};
  if (r.s3) j["s3"] = s3_json(*r.s3);
  j["per_accelerator"] = per_accelerator_json(r);
  j["epochs"] = epochs_json(r);
  checkpoint_and_compute_json(r, j);
  j["dataset"] = {{"bytes", r.dataset_bytes},
                  {"ram_bytes", r.ram_bytes},
                  {"fits_in_ram", r.dataset_fits_in_ram}};
  j["batch_signals_dropped"] = r.batch_signals_dropped;
  j["warnings"] = r.warnings;
  return j.dump(2) + "\n";
}

namespace {

// Latencies span 10 us (page cache) to seconds (a 140 MiB request): pick the unit per value.
std::string lat(double us) {
  char b[32];
  if (us < 1000)
    std::snprintf(b, sizeof b, "%.0f us", us);
  else if (us < 1e6)
    std::snprintf(b, sizeof b, "%.2f ms", us / 1e3);
  else
    std::snprintf(b, sizeof b, "%.2f s", us / 1e6);
  return std::string(b);
}

// "N HTTP requests (G GETs[, P PUTs, Q parts, C multipart control]), R retries": the write kinds
// only when some were sent.
std::string s3_requests_text(const S3Figures& s) {
  using ull = unsigned long long;
  char b[256];
  if (s.puts + s.parts + s.control == 0)
    std::snprintf(b, sizeof b, "%llu HTTP requests (%llu GETs), %llu retries", ull(s.requests),
                  ull(s.gets), ull(s.retries));
  else
    std::snprintf(b, sizeof b,
                  "%llu HTTP requests (%llu GETs, %llu PUTs, %llu parts, %llu multipart control), "
                  "%llu retries",
                  ull(s.requests), ull(s.gets), ull(s.puts), ull(s.parts), ull(s.control),
                  ull(s.retries));
  return b;
}

// The S3 engine's requests, retries, errors by kind and time to first/last byte; the checkpoints'
// share on a line of its own. `scope` opens the first line ("all ranks: " under mpirun).
void add_s3_lines(const S3Result& s, PrintfText& add, std::string_view scope = {}) {
  using ull = unsigned long long;
  add("  s3          %.*s%s; errors: %llu SlowDown (503), %llu other 5xx, %llu timeouts, %llu "
      "resets\n",
      static_cast<int>(scope.size()), scope.data(), s3_requests_text(s).c_str(), ull(s.slow_downs),
      ull(s.server_errors), ull(s.timeouts), ull(s.resets));
  add("              first byte p50 %s, p90 %s, p99 %s; last byte p50 %s, p90 %s, p99 %s\n",
      lat(s.ttfb.p50_us).c_str(), lat(s.ttfb.p90_us).c_str(), lat(s.ttfb.p99_us).c_str(),
      lat(s.ttlb.p50_us).c_str(), lat(s.ttlb.p90_us).c_str(), lat(s.ttlb.p99_us).c_str());
  if (s.checkpoint)
    add("              of which checkpoints: %s; last byte p50 %s, p99 %s\n",
        s3_requests_text(*s.checkpoint).c_str(), lat(s.checkpoint->ttlb.p50_us).c_str(),
        lat(s.checkpoint->ttlb.p99_us).c_str());
}

// Where the lowest accelerator's wall time went, and the AU verdict.
void add_au_lines(const Report& r, PrintfText& add) {
  if (!r.au_applicable) {
    add("  AU          n/a: the job configures no compute time (a pure I/O run)\n");
    return;
  }
  const AcceleratorResult& l = r.au_loss;
  add("  AU loss     %.2f s of %.2f s wall (accel %u): epoch starts %.2f s, inside passes %.2f "
      "s, other %.2f s%s\n",
      l.wall_s - l.compute_s, l.wall_s, l.id, l.epoch_start_wait_s, l.in_epoch_wait_s,
      l.other_loss_s,
      l.harness_s > 0 ? (" (dlgen's own " + format_duration(l.harness_s) + " left out)").c_str()
                      : "");
  add("  AU          %.1f%% (lowest accelerator, whole run; threshold %.0f%%): %s\n", r.au * 100,
      r.au_threshold * 100, r.verdict.c_str());
}

}  // namespace

std::string s3_summary_lines(const S3Result& s3, std::string_view scope) {
  std::string out;
  PrintfText add(out);
  add_s3_lines(s3, add, scope);
  return out;
}

std::string s3_json_text(const S3Result& s3) {
  return s3_json(s3).dump();
}

std::string format_summary(const Report& r) {
  std::string out;
  PrintfText add(out);
  using ull = unsigned long long;
  add("%s: %s engine, %u accelerator(s)%s%s, %u worker(s) each, iodepth %u, %s, cache %s\n",
      r.job_name.c_str(), r.engine.c_str(), r.accelerators, r.accelerator.empty() ? "" : " ",
      r.accelerator.c_str(), r.workers, r.iodepth, r.direct ? "O_DIRECT" : "buffered",
      r.cache_mode.c_str());
  add("  time        %s for %u epoch(s), %llu steps, %llu samples\n",
      format_duration(r.elapsed_s).c_str(), r.epochs, ull(r.steps), ull(r.samples));
  if (r.interrupted)
    add("  INTERRUPTED after %u of %u epoch(s): the figures are over what ran\n",
        r.epochs_completed, r.epochs);
  add("  throughput  %.1f samples/s, %.1f MiB/s (%s read in %llu requests, %llu files opened)\n",
      r.samples_per_s, r.mib_per_s, format_size(r.bytes_read).c_str(), ull(r.requests),
      ull(r.files_opened));
  if (r.eval_seconds > 0)
    add("              train %.1f MiB/s (%s in %.2f s), eval %.1f MiB/s (%s in %.2f s, %.1f "
        "samples/s)\n",
        r.train_mib_per_s, format_size(r.train_bytes).c_str(), r.train_seconds, r.eval_mib_per_s,
        format_size(r.eval_bytes).c_str(), r.eval_seconds, r.eval_samples_per_s);
  if (r.load_files > 0)
    add("              load %.1f MiB/s (%s of %llu files in %.2f s, before the first epoch)\n",
        mib_per_s(r.load_bytes, r.load_seconds), format_size(r.load_bytes).c_str(),
        ull(r.load_files), r.load_seconds);
  add("  latency     p50 %s, p90 %s, p99 %s, p99.9 %s, max %s (per request)\n",
      lat(r.latency.p50_us).c_str(), lat(r.latency.p90_us).c_str(), lat(r.latency.p99_us).c_str(),
      lat(r.latency.p999_us).c_str(), lat(r.latency.max_us).c_str());
  if (r.s3) add_s3_lines(*r.s3, add);
  for (const auto& e : r.epochs_detail) {
    add("  %s %-4u  %8.2f s  %9.1f samples/s  %8.1f MiB/s", e.eval ? "eval " : "epoch", e.epoch,
        e.seconds, e.samples_per_s(), e.mib_per_s());
    if (r.au_applicable) add("  AU %5.1f%%", e.au * 100);
    out += '\n';
  }
  if (r.checkpoint.count > 0 && r.checkpoint.serialize_s > 0)
    add("  checkpoint  %llu written, %s in %.2f s (%.2f s serializing): %.1f MiB/s\n",
        ull(r.checkpoint.count), format_size(r.checkpoint.bytes).c_str(), r.checkpoint.write_s,
        r.checkpoint.serialize_s, r.checkpoint.write_mib_s());
  else if (r.checkpoint.count > 0)
    add("  checkpoint  %llu written, %s in %.2f s: %.1f MiB/s\n", ull(r.checkpoint.count),
        format_size(r.checkpoint.bytes).c_str(), r.checkpoint.write_s, r.checkpoint.write_mib_s());
  if (r.checkpoint.restore_bytes > 0)
    add("  restore     %s read in %.2f s: %.1f MiB/s\n",
        format_size(r.checkpoint.restore_bytes).c_str(), r.checkpoint.restore_s,
        r.checkpoint.restore_mib_s());
  if (r.compute.steps > 0)
    add("  compute     %s configured, %s measured per step (mean error %+.1f us, %.3f%%)\n",
        format_duration(r.compute.configured_mean_s).c_str(),
        format_duration(r.compute.measured_mean_s).c_str(), r.compute.mean_error_s * 1e6,
        r.compute.relative_error() * 100);
  add("  cpu         %.2f s user, %.2f s system: %.0f%% of %u CPU(s); host %.0f%% busy%s\n",
      r.cpu.user_s, r.cpu.system_s, r.cpu.process_percent, r.cpu.cpus, r.cpu.host_busy_percent,
      r.realtime ? "" : "; accelerator threads without real-time priority (not root)");
  if (r.per_accelerator.size() > 1)
    for (const auto& a : r.per_accelerator)
      add("  accel %-4u  AU %5.1f%%, waited %.2f s for data\n", a.id, a.au * 100, a.wait_s);
  for (const auto& w : r.warnings) add("  warning: %s\n", w.c_str());
  add_au_lines(r, add);
  return out;
}

Result<void> write_json(const Report& report, const std::filesystem::path& path) {
  std::ofstream f(path);
  if (!f) return runtime_error(path.string() + ": cannot open for writing");
  f << to_json(report);
  if (!f) return runtime_error(path.string() + ": write failed");
  return ok();
}

Result<void> write_timeseries_csv(const Report& report, const std::filesystem::path& path) {
  std::ofstream f(path);
  if (!f) return runtime_error(path.string() + ": cannot open for writing");
  f << "t_s,bytes,mib_per_s,samples,samples_per_s,requests,in_flight,ready_batches\n";
  double prev = 0;
  for (const auto& p : report.series) {
    const double dt = p.t_s - prev > 0 ? p.t_s - prev : 1;
    prev = p.t_s;
    char row[256];
    std::snprintf(row, sizeof row, "%.3f,%llu,%.3f,%llu,%.3f,%llu,%u,%u\n", p.t_s,
                  static_cast<unsigned long long>(p.bytes),
                  static_cast<double>(p.bytes) / 1048576.0 / dt,
                  static_cast<unsigned long long>(p.samples), static_cast<double>(p.samples) / dt,
                  static_cast<unsigned long long>(p.requests), p.in_flight, p.ready_batches);
    f << row;
  }
  if (!f) return runtime_error(path.string() + ": write failed");
  return ok();
}

}  // namespace dlgen::replay
