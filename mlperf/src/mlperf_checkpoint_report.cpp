// The reports of the checkpointing rules (mlperf_checkpoint.hpp): results.json, results.csv and
// summary.html, and DLIO's summary.json and per_epoch_stats.json of one run.
#include <cstdio>
#include "dlgen/core/json.hpp"
#include <sstream>

#include "checkpoint_report.hpp"
#include "dlgen/mlperf/mlperf_checkpoint.hpp"
#include "host_share_json.hpp"
#include "mlperf_html.hpp"
#include "stats.hpp"

namespace dlgen::mlperf {

std::string mlperf_checkpoint_json(const MlperfCheckpointResult& r) {
  using nlohmann::json;
  auto phase = [](const MlperfCheckpointPhase& p) {
    return json{{"checkpoints", p.checkpoints},
                {"bytes", p.bytes},
                {"duration_s", p.duration_s},
                {"throughput_bytes_per_s", p.throughput_bps},
                {"aggregate_bytes_per_s", p.aggregate_bps}};
  };
  json j;
  j["workload"] = r.workload;
  j["benchmark"] = "checkpointing";
  j["reference"] = r.reference;
  j["division"] = to_string(r.division);
  j["reasons"] = r.reasons;
  if (!r.rules.empty()) {
    j["rules"] = r.rules;
    j["accelerator"] = r.accelerator;
  }
  j["config"] = {{"ranks", r.ranks},
                 {"hosts", r.hosts},
                 {"checkpoint_bytes", r.checkpoint_bytes},
                 {"writes_per_run", r.writes_per_run},
                 {"reads_per_run", r.reads_per_run},
                 {"fsync", r.fsync}};
  // On an object store, a phase's HTTP requests beside its figures (checkpoint_json's "s3").
  auto requests = [](const std::optional<engine::S3Counters>& k) {
    return k ? json::parse(s3_json(*k)) : json();
  };
  auto with_s3 = [&](json p, const std::optional<engine::S3Counters>& k) {
    if (k) p["s3"] = requests(k);
    return p;
  };
  json runs = json::array();
  for (const MlperfCheckpointRun& m : r.runs)
    runs.push_back({{"run", m.index},
                    {"ranks", m.ranks},
                    {"write", with_s3(phase(m.write), m.write_s3)},
                    {"read", with_s3(phase(m.read), m.read_s3)},
                    {"cache_dropped", m.cache_dropped},
                    {"cache_note", m.cache_note}});
  j["runs"] = runs;
  if (!r.per_host.empty()) {
    j["per_host"] = host_shares_json(r.per_host);
  }
  j["mean"] = {{"write", phase(r.mean_write)}, {"read", phase(r.mean_read)}};
  if (r.write_s3 || r.read_s3)  // every run's requests together
    j["s3"] = {{"write", requests(r.write_s3)}, {"read", requests(r.read_s3)}};
  j["write_deviation"] = r.write_deviation;
  j["read_deviation"] = r.read_deviation;
  j["replicated"] = r.replicated;
  return j.dump(2) + "\n";
}

std::string mlperf_checkpoint_csv(const MlperfCheckpointResult& r) {
  std::ostringstream out;
  out << "run,write_checkpoints,write_duration_s,write_throughput_bytes_per_s,"
         "write_aggregate_bytes_per_s,read_checkpoints,read_duration_s,"
         "read_throughput_bytes_per_s,read_aggregate_bytes_per_s,cache_dropped\n";
  char buf[400];
  auto row = [&](const std::string& name, const MlperfCheckpointPhase& w,
                 const MlperfCheckpointPhase& rd, const char* dropped) {
    std::snprintf(buf, sizeof buf, "%s,%u,%.6g,%.6g,%.6g,%u,%.6g,%.6g,%.6g,%s\n", name.c_str(),
                  w.checkpoints, w.duration_s, w.throughput_bps, w.aggregate_bps, rd.checkpoints,
                  rd.duration_s, rd.throughput_bps, rd.aggregate_bps, dropped);
    out << buf;
  };
  for (const MlperfCheckpointRun& m : r.runs)
    row(std::to_string(m.index), m.write, m.read, m.cache_dropped ? "1" : "0");
  row("mean", r.mean_write, r.mean_read, "");
  if (!r.per_host.empty()) {  // under mpirun: a second table, after a blank line
    out << "\nhost_rank,host,first_rank,ranks,checkpoint_bytes,ram_bytes,cache_dropped\n";
    for (std::size_t i = 0; i < r.per_host.size(); ++i) {
      const HostShare& h = r.per_host[i];
      out << i << ',' << h.host << ',' << h.first_rank << ',' << h.ranks << ','
          << h.checkpoint_bytes << ',' << h.ram_bytes << ',' << (h.cache_dropped ? 1 : 0) << '\n';
    }
  }
  return out.str();
}

std::string mlperf_checkpoint_html(const MlperfCheckpointResult& r) {
  using html::bars;
  using html::escape;
  std::vector<double> wt, rt, wd, rd;
  for (const MlperfCheckpointRun& m : r.runs) {
    wt.push_back(m.write.throughput_bps / kGiB);
    rt.push_back(m.read.throughput_bps / kGiB);
    wd.push_back(m.write.duration_s);
    rd.push_back(m.read.duration_s);
  }
  std::ostringstream h;
  h << html::page_start(r.workload, "MLPerf Storage checkpointing rules", r.division, r.reasons,
                        "The model, parallelism and checkpoint parameters are the reference's (or "
                        "as CLOSED allows); the runs agree within 5%.");
  char buf[700];
  std::snprintf(buf, sizeof buf,
                "<p>%zu run(s), each writing %u and reading %u checkpoint(s) of %.3f GiB by %u "
                "simulated rank(s), fsync %s. Mean write: <b>%.3f s</b> (slowest rank), <b>%.3f "
                "GiB/s</b> (slowest rank; all ranks %.3f GiB/s). Mean read: <b>%.3f s</b>, "
                "<b>%.3f GiB/s</b> (all ranks %.3f GiB/s). Runs within %.1f%% (write) and "
                "%.1f%% (read) of their mean.</p>",
                r.runs.size(), r.writes_per_run, r.reads_per_run, double(r.checkpoint_bytes) / kGiB,
                r.ranks, r.fsync ? "on" : "off", r.mean_write.duration_s,
                r.mean_write.throughput_bps / kGiB, r.mean_write.aggregate_bps / kGiB,
                r.mean_read.duration_s, r.mean_read.throughput_bps / kGiB,
                r.mean_read.aggregate_bps / kGiB, r.write_deviation * 100, r.read_deviation * 100);
  h << buf;
  if (r.writes_per_run > 0) {
    h << "<h2>Write throughput per run (GiB/s, slowest rank)</h2>"
      << bars(wt, r.mean_write.throughput_bps / kGiB, "mean", "GiB/s");
    h << "<h2>Write duration per run (s, slowest rank)</h2>"
      << bars(wd, r.mean_write.duration_s, "mean", "s");
  }
  if (r.reads_per_run > 0) {
    h << "<h2>Read throughput per run (GiB/s, slowest rank)</h2>"
      << bars(rt, r.mean_read.throughput_bps / kGiB, "mean", "GiB/s");
    h << "<h2>Read duration per run (s, slowest rank)</h2>"
      << bars(rd, r.mean_read.duration_s, "mean", "s");
  }
  h << "<h2>Runs</h2><table><tr><th>run</th><th>write (s)</th><th>write GiB/s</th><th>read "
       "(s)</th><th>read GiB/s</th><th>page cache</th></tr>";
  for (const MlperfCheckpointRun& m : r.runs) {
    std::snprintf(buf, sizeof buf,
                  "<tr><td>%u</td><td>%.3f</td><td>%.3f</td><td>%.3f</td><td>%.3f</td><td>%s</td>"
                  "</tr>",
                  m.index, m.write.duration_s, m.write.throughput_bps / kGiB, m.read.duration_s,
                  m.read.throughput_bps / kGiB, m.cache_dropped ? "dropped" : "kept");
    h << buf;
  }
  h << "</table>";
  if (!r.per_host.empty()) {
    h << "<h2>Hosts</h2><table><tr><th>host</th><th>ranks</th><th>checkpoint (GiB)</th>"
         "<th>RAM (GiB)</th><th>page cache (first run)</th></tr>";
    for (const HostShare& s : r.per_host) {
      std::snprintf(buf, sizeof buf,
                    "<tr><td>%s</td><td>%u..%u</td><td>%.3f</td><td>%.1f</td><td>%s</td></tr>",
                    escape(s.host).c_str(), s.first_rank, s.first_rank + s.ranks - 1,
                    double(s.checkpoint_bytes) / kGiB, double(s.ram_bytes) / kGiB,
                    s.cache_dropped ? "dropped" : "kept");
      h << buf;
    }
    h << "</table>";
  }
  h << "<p>Definitions: docs/metrics.md (checkpoint-only workflow), docs/mlperf.md (the "
       "rules).</p></body></html>\n";
  return h.str();
}

std::string dlio_checkpoint_summary_json(const CheckpointRunResult& r,
                                         const DlioCheckpointContext& ctx) {
  using nlohmann::json;
  json m = json::object();
  auto phase = [&](const char* prefix, const std::vector<CheckpointPass>& passes) {
    if (passes.empty()) return;
    std::vector<double> io, dur, slow;
    for (const CheckpointPass& p : passes) {
      const PassFigures f = pass_figures(p);
      io.push_back(f.throughput_bps / kGiB);
      dur.push_back(f.duration_s);
      slow.push_back(f.slowest_rank_bps / kGiB);
    }
    const std::string p = prefix;
    m[p + "_checkpoint_io_mean_GB_per_second"] = dlgen::mean(io);
    m[p + "_checkpoint_io_stdev_GB_per_second"] = dlgen::population_stdev(io);
    m[p + "_checkpoint_duration_mean_seconds"] = dlgen::mean(dur);
    m[p + "_checkpoint_duration_stdev_seconds"] = dlgen::population_stdev(dur);
  };
  phase("save", r.writes);
  phase("load", r.reads);
  m["checkpoint_size_GB"] = double(r.checkpoint_bytes) / kGiB;
  json j;
  j["num_accelerators"] = r.ranks;
  j["num_hosts"] = ctx.hosts;
  j["hostname"] = ctx.hostname;
  j["host_memory_GB"] = json::array({ctx.host_memory_gib});
  j["start"] = ctx.start;
  j["end"] = ctx.end;
  j["metric"] = m;
  const PhaseFigures w = phase_figures(r.writes), rd = phase_figures(r.reads);
  j["dlgen"] = {
      {"save_checkpoint_slowest_rank_mean_GiB_per_second",
       [&] {
         std::vector<double> v;
         for (const CheckpointPass& p : r.writes)
           v.push_back(pass_figures(p).slowest_rank_bps / kGiB);
         return dlgen::mean(v);
       }()},
      {"load_checkpoint_slowest_rank_mean_GiB_per_second",
       [&] {
         std::vector<double> v;
         for (const CheckpointPass& p : r.reads)
           v.push_back(pass_figures(p).slowest_rank_bps / kGiB);
         return dlgen::mean(v);
       }()},
      {"save_bytes", w.bytes},
      {"load_bytes", rd.bytes},
      {"fsync", r.fsync},
      {"page_cache_dropped", r.cache_dropped},
      {"page_cache_note", r.cache_note},
      {"definitions",
       "GB means GiB (2^30) as in DLIO; io = all ranks' bytes / the checkpoint's duration (its "
       "slowest rank); slowest_rank = MLPerf's per-rank minimum; docs/metrics.md"}};
  return j.dump(2) + "\n";
}

std::string dlio_checkpoint_epoch_stats_json(const CheckpointRunResult& r) {
  using nlohmann::json;
  json e = json::object();
  for (const auto& [name, passes] :
       {std::pair{"save_ckpt", &r.writes}, std::pair{"load_ckpt", &r.reads}})
    for (const CheckpointPass& p : *passes) {
      const PassFigures f = pass_figures(p);
      char d[32];
      std::snprintf(d, sizeof d, "%.2f", f.duration_s);  // DLIO writes it as text, 2 decimals
      e[std::string(name) + std::to_string(p.index)] = {
          {"duration", d}, {"throughput", f.throughput_bps / kGiB}, {"bytes", f.bytes}};
    }
  json j;
  j["1"] = e;
  return j.dump(2) + "\n";
}

}  // namespace dlgen::mlperf
