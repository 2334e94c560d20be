// The reports of the training rules (mlperf.hpp): results.json, results.csv and summary.html.
#include <cstdio>
#include "dlgen/core/json.hpp"
#include <sstream>

#include "dlgen/mlperf/mlperf.hpp"
#include "mlperf_html.hpp"

namespace dlgen::mlperf {

std::string mlperf_json(const MlperfResult& r) {
  nlohmann::json j;
  j["workload"] = r.workload;
  j["division"] = to_string(r.division);
  j["reasons"] = r.reasons;
  if (!r.rules.empty()) {
    j["rules"] = r.rules;
    j["accelerator"] = r.accelerator;
  }
  j["dataset"] = {{"files", r.dataset_files},
                  {"files_required", r.sizing.files},
                  {"samples_for_steps", r.sizing.samples_for_steps},
                  {"samples_for_memory", r.sizing.samples_for_memory}};
  j["au_threshold"] = r.au_threshold;
  j["ranks"] = r.ranks;
  j["hosts"] = r.hosts;
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& m : r.runs) {
    nlohmann::json run = {
        {"seed", m.seed},           {"warmup", m.warmup}, {"samples_per_s", m.samples_per_s},
        {"mib_per_s", m.mib_per_s}, {"au", m.au},         {"au_passed", m.au_passed},
        {"elapsed_s", m.elapsed_s}};
    if (!m.per_rank.empty()) {  // under mpirun: each rank's own figures
      nlohmann::json per = nlohmann::json::array();
      for (const MlperfRankFigures& f : m.per_rank)
        per.push_back({{"rank", f.rank},
                       {"host", f.host},
                       {"samples_per_s", f.samples_per_s},
                       {"mib_per_s", f.mib_per_s},
                       {"au", f.au},
                       {"au_passed", f.au_passed},
                       {"elapsed_s", f.elapsed_s}});
      run["per_rank"] = per;
    }
    runs.push_back(run);
  }
  j["runs"] = runs;
  j["mean"] = {
      {"samples_per_s", r.mean_samples_per_s}, {"mib_per_s", r.mean_mib_per_s}, {"au", r.mean_au}};
  j["min_au"] = r.min_au;
  j["max_deviation"] = r.max_deviation;
  j["replicated"] = r.replicated;
  j["all_runs_passed_au"] = r.all_passed;
  return j.dump(2) + "\n";
}

std::string mlperf_csv(const MlperfResult& r) {
  std::ostringstream out;
  out << "run,seed,warmup,samples_per_s,mib_per_s,au,au_passed,elapsed_s\n";
  char buf[256];
  int i = 0;
  for (const auto& m : r.runs) {
    std::snprintf(buf, sizeof buf, "%s,%llu,%d,%.6g,%.6g,%.6g,%d,%.6g\n",
                  m.warmup ? "warmup" : std::to_string(++i).c_str(),
                  static_cast<unsigned long long>(m.seed), m.warmup ? 1 : 0, m.samples_per_s,
                  m.mib_per_s, m.au, m.au_passed ? 1 : 0, m.elapsed_s);
    out << buf;
  }
  std::snprintf(buf, sizeof buf, "mean,,0,%.6g,%.6g,%.6g,%d,\n", r.mean_samples_per_s,
                r.mean_mib_per_s, r.mean_au, r.all_passed ? 1 : 0);
  out << buf;
  if (r.ranks > 1) {  // under mpirun: a second table, each rank's own figures, after a blank line
    out << "\nrun,rank,host,samples_per_s,mib_per_s,au,au_passed,elapsed_s\n";
    i = 0;
    for (const auto& m : r.runs) {
      const std::string run = m.warmup ? "warmup" : std::to_string(++i);
      for (const MlperfRankFigures& f : m.per_rank) {
        std::snprintf(buf, sizeof buf, "%s,%u,%s,%.6g,%.6g,%.6g,%d,%.6g\n", run.c_str(), f.rank,
                      f.host.c_str(), f.samples_per_s, f.mib_per_s, f.au, f.au_passed ? 1 : 0,
                      f.elapsed_s);
        out << buf;
      }
    }
  }
  return out.str();
}

std::string mlperf_html(const MlperfResult& r) {
  using html::bars;
  using html::escape;
  std::vector<double> sps, au;
  for (const auto& m : r.runs)
    if (!m.warmup) sps.push_back(m.samples_per_s), au.push_back(m.au * 100);
  std::ostringstream h;
  h << html::page_start(r.workload, "MLPerf Storage run rules", r.division, r.reasons,
                        "Every parameter is as the reference workload allows in CLOSED; every run "
                        "kept AU at or above the threshold and the runs agree.");
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "<p>Mean of %zu measured runs: <b>%.1f samples/s</b>, <b>%.1f MiB/s</b> (bytes "
                "actually read), AU "
                "%.1f%% (lowest run %.1f%%, threshold %.0f%%); runs within %.1f%% of their mean. "
                "Dataset: %llu "
                "files (the rules ask for at least %llu).</p>",
                sps.size(), r.mean_samples_per_s, r.mean_mib_per_s, r.mean_au * 100, r.min_au * 100,
                r.au_threshold * 100, r.max_deviation * 100,
                static_cast<unsigned long long>(r.dataset_files),
                static_cast<unsigned long long>(r.sizing.files));
  h << buf;
  h << "<h2>Samples/s per run</h2>" << bars(sps, r.mean_samples_per_s, "mean", "samples/s");
  h << "<h2>AU per run (%)</h2>" << bars(au, r.au_threshold * 100, "threshold", "%");
  h << "<h2>Runs</h2><table><tr><th>run</th><th>seed</th><th>samples/s</th><th>MiB/s</th><th>AU</"
       "th><th>time "
       "(s)</th></tr>";
  int i = 0;
  for (const auto& m : r.runs) {
    std::snprintf(
        buf, sizeof buf,
        "<tr><td>%s</td><td>%llu</td><td>%.1f</td><td>%.1f</td><td>%.1f%%</td><td>%.1f</td></tr>",
        m.warmup ? "warm-up" : std::to_string(++i).c_str(), static_cast<unsigned long long>(m.seed),
        m.samples_per_s, m.mib_per_s, m.au * 100, m.elapsed_s);
    h << buf;
  }
  h << "</table>";
  if (r.ranks > 1) {
    std::snprintf(buf, sizeof buf,
                  "<h2>Hosts</h2><p>%u ranks on %u host(s) (mpirun), each running the job's "
                  "accelerators: a run's samples/s and MiB/s are the sums of its ranks', its AU "
                  "the lowest rank's.</p>",
                  r.ranks, r.hosts);
    h << buf
      << "<table><tr><th>run</th><th>rank</th><th>host</th><th>samples/s</th><th>MiB/s</th>"
         "<th>AU</th><th>time (s)</th></tr>";
    i = 0;
    for (const auto& m : r.runs) {
      const std::string run = m.warmup ? "warm-up" : std::to_string(++i);
      for (const MlperfRankFigures& f : m.per_rank) {
        std::snprintf(buf, sizeof buf,
                      "<tr><td>%s</td><td>%u</td><td>%s</td><td>%.1f</td><td>%.1f</td><td>%.1f%%"
                      "</td><td>%.1f</td></tr>",
                      run.c_str(), f.rank, escape(f.host).c_str(), f.samples_per_s, f.mib_per_s,
                      f.au * 100, f.elapsed_s);
        h << buf;
      }
    }
    h << "</table>";
  }
  h << "<p>Definitions: docs/metrics.md (AU, MiB/s), docs/mlperf.md (the "
       "rules).</p></body></html>\n";
  return h.str();
}

}  // namespace dlgen::mlperf
