#include "dlgen/replay/mlperf.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>

#include "dlgen/replay/dlio_summary.hpp"
#include "mlperf_html.hpp"

namespace dlgen::replay {
namespace {

std::string describe(const Distribution& d) {
  char buf[160];
  switch (d.kind) {
    case DistKind::fixed:
      std::snprintf(buf, sizeof buf, "%g", d.value);
      break;
    case DistKind::uniform:
      std::snprintf(buf, sizeof buf, "uniform %g..%g", d.min, d.max);
      break;
    case DistKind::histogram:
      std::snprintf(buf, sizeof buf, "histogram of %zu bins", d.bins.size());
      break;
    default:
      std::snprintf(buf, sizeof buf, "%s mean %g stdev %g", to_string(d.kind), d.mean, d.stdev);
  }
  return buf;
}

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// What a job parameter may do between the reference and a submission.
enum class Freedom { closed, open, fixed };

struct Param {
  const char* key;
  Freedom freedom;
  std::function<std::string(const Job&)> value;
};

const std::vector<Param>& params() {
  static const std::vector<Param> p = {
      // CLOSED may change these (the submitter's system, not the workload).
      {"dataset.num_files", Freedom::closed,
       [](const Job& j) { return std::to_string(j.dataset.num_files); }},
      {"dataset.files_per_dir", Freedom::closed,
       [](const Job& j) { return std::to_string(j.dataset.files_per_dir); }},
      {"dataset.dir", Freedom::closed, [](const Job& j) { return j.dataset.dir.string(); }},
      {"reader.workers", Freedom::closed,
       [](const Job& j) { return std::to_string(j.reader.workers); }},
      {"reader.request_size", Freedom::closed,
       [](const Job& j) { return std::to_string(j.reader.request_size_bytes); }},
      {"reader.prefetch", Freedom::closed,
       [](const Job& j) { return std::to_string(j.reader.prefetch); }},
      {"checkpoint.dir", Freedom::closed, [](const Job& j) { return j.checkpoint.dir.string(); }},
      {"run.accelerators", Freedom::closed,
       [](const Job& j) { return std::to_string(j.run.accelerators); }},
      // OPEN may also change the format and how a loader reads it.
      {"dataset.format", Freedom::open,
       [](const Job& j) { return std::string(to_string(j.dataset.format)); }},
      {"dataset.samples_per_file", Freedom::open,
       [](const Job& j) { return std::to_string(j.dataset.samples_per_file); }},
      {"reader.read", Freedom::open,
       [](const Job& j) { return std::string(to_string(j.reader.read_unit)); }},
      {"reader.iodepth", Freedom::open,
       [](const Job& j) { return std::to_string(j.reader.iodepth); }},
      {"reader.header_read", Freedom::open,
       [](const Job& j) { return std::to_string(j.reader.header_read_bytes); }},
      {"reader.probe", Freedom::open,
       [](const Job& j) { return std::to_string(j.reader.probe_bytes); }},
      {"reader.readahead", Freedom::open,
       [](const Job& j) { return std::to_string(j.reader.readahead_bytes); }},
      // The workload itself.
      {"dataset.sample_size", Freedom::fixed,
       [](const Job& j) { return describe(j.dataset.sample_size); }},
      {"reader.batch_size", Freedom::fixed,
       [](const Job& j) { return std::to_string(j.reader.batch_size); }},
      {"reader.shuffle", Freedom::fixed,
       [](const Job& j) { return std::string(to_string(j.reader.shuffle)); }},
      {"reader.shuffle_buffer", Freedom::fixed,
       [](const Job& j) { return std::to_string(j.reader.shuffle_buffer); }},
      {"reader.drop_last", Freedom::fixed,
       [](const Job& j) { return std::string(j.reader.drop_last ? "true" : "false"); }},
      {"reader.startup", Freedom::fixed, [](const Job& j) { return num(j.reader.startup_s); }},
      {"reader.warmup", Freedom::fixed, [](const Job& j) { return num(j.reader.warmup_s); }},
      {"reader.preprocess", Freedom::fixed,
       [](const Job& j) { return describe(j.reader.preprocess); }},
      {"compute.time", Freedom::fixed,
       [](const Job& j) { return describe(j.compute.effective()); }},
      {"compute.au_threshold", Freedom::fixed,
       [](const Job& j) { return num(j.compute.au_threshold); }},
      {"checkpoint.enabled", Freedom::fixed,
       [](const Job& j) { return std::string(j.checkpoint.enabled ? "true" : "false"); }},
      {"checkpoint.size", Freedom::fixed,
       [](const Job& j) {
         return std::to_string(j.checkpoint.enabled ? j.checkpoint.size_bytes : 0);
       }},
      {"checkpoint.every_epochs", Freedom::fixed,
       [](const Job& j) {
         return std::to_string(j.checkpoint.enabled ? j.checkpoint.every_epochs : 0);
       }},
      {"checkpoint.every_steps", Freedom::fixed,
       [](const Job& j) {
         return std::to_string(j.checkpoint.enabled ? j.checkpoint.every_steps : 0);
       }},
      {"run.epochs", Freedom::fixed, [](const Job& j) { return std::to_string(j.run.epochs); }},
      {"run.max_steps", Freedom::fixed,
       [](const Job& j) { return std::to_string(j.run.max_steps); }},
      {"run.max_time", Freedom::fixed, [](const Job& j) { return num(j.run.max_seconds); }},
      {"run.eval_every_epochs", Freedom::fixed,
       [](const Job& j) { return std::to_string(j.run.eval_every_epochs); }},
  };
  return p;
}

}  // namespace

const char* to_string(Division d) {
  switch (d) {
    case Division::closed:
      return "CLOSED";
    case Division::open:
      return "OPEN";
    case Division::invalid:
      return "INVALID";
  }
  return "?";
}

MlperfSizing mlperf_dataset_size(const Job& job, std::uint64_t ram_bytes_per_host,
                                 std::uint32_t hosts) {
  return mlperf_cluster_dataset_size(job, hosts,
                                     ram_bytes_per_host * std::max<std::uint32_t>(hosts, 1));
}

MlperfSizing mlperf_cluster_dataset_size(const Job& job, std::uint32_t ranks,
                                         std::uint64_t ram_bytes_all_hosts) {
  MlperfSizing s;
  const std::uint64_t accelerators =
      std::uint64_t{job.run.accelerators} * std::max<std::uint32_t>(ranks, 1);
  s.samples_for_steps = 500 * std::uint64_t{job.reader.batch_size} * accelerators;
  const double record = std::max(1.0, nominal_record_bytes(job.dataset.sample_size));
  s.samples_for_memory = static_cast<std::uint64_t>(
      std::ceil(5.0 * static_cast<double>(ram_bytes_all_hosts) / record));
  const std::uint64_t samples = std::max(s.samples_for_steps, s.samples_for_memory);
  const std::uint64_t per_file = std::max<std::uint32_t>(job.dataset.samples_per_file, 1);
  s.files = (samples + per_file - 1) / per_file;
  return s;
}

double mlperf_au_threshold(const std::string& w) {
  if (w == "unet3d" || w == "resnet50") return 0.90;
  if (w == "cosmoflow") return 0.70;
  return 0;
}

DivisionCheck check_division(const Job& reference, const Job& job) {
  DivisionCheck c;
  const bool unet3d = reference.name == "unet3d";
  if (reference.reader.direct != job.reader.direct) {
    if (unet3d) {
      // reader.odirect may change in CLOSED for unet3d only.
    } else {
      c.division = Division::open;
      c.reasons.push_back(std::string("reader.direct: ") + (job.reader.direct ? "true" : "false") +
                          " (reference " + (reference.reader.direct ? "true" : "false") +
                          "): O_DIRECT is a CLOSED parameter for unet3d only; OPEN here");
    }
  }
  for (const Param& p : params()) {
    const std::string a = p.value(reference), b = p.value(job);
    if (a == b || p.freedom == Freedom::closed) continue;
    if (p.freedom == Freedom::open) {
      if (c.division == Division::closed) c.division = Division::open;
      c.reasons.push_back(std::string(p.key) + ": " + b + " (reference " + a +
                          "): allowed in OPEN only");
    } else {
      c.division = Division::invalid;
      c.reasons.push_back(std::string(p.key) + ": " + b + " (reference " + a +
                          "): not allowed in CLOSED or OPEN");
    }
  }
  return c;
}

MlperfRun mlperf_run_of(const Report& rep, std::uint64_t seed, bool warmup) {
  MlperfRun m;
  m.seed = seed;
  m.warmup = warmup;
  m.samples_per_s = rep.samples_per_s;
  m.mib_per_s = rep.train_mib_per_s;
  m.au = rep.au;
  m.elapsed_s = rep.elapsed_s;
  m.au_passed = rep.passed;
  return m;
}

MlperfRun reduce_mlperf_ranks(const ClusterResult& c, std::uint64_t seed, bool warmup) {
  MlperfRun m;
  m.seed = seed;
  m.warmup = warmup;
  m.samples_per_s = c.samples_per_s;
  m.mib_per_s = c.train_mib_per_s;
  m.au = c.au;
  m.elapsed_s = c.elapsed_s;
  m.au_passed = c.passed;
  for (const RankResult& r : c.per_rank)
    m.per_rank.push_back({r.rank, r.host, r.samples_per_s, r.train_mib_per_s, r.au, r.elapsed_s,
                          !r.au_applicable || r.au >= r.au_threshold});
  return m;
}

Result<MlperfResult> run_mlperf(const Job& job, const Job* reference, const MlperfRunner& run,
                                const MlperfOptions& o, const MlperfObserver& observe) {
  if (o.runs < 1) return input_error("mlperf: at least one measured run");
  if (!job.run.train)
    return input_error("mlperf: checkpoint-only workloads are not built into the run rules yet");
  MlperfResult r;
  r.workload = job.name;
  r.sizing = o.sizing;
  r.dataset_files = job.dataset.num_files;
  r.au_threshold = job.compute.au_threshold;
  if (reference) {
    const DivisionCheck d = check_division(*reference, job);
    r.division = d.division;
    r.reasons = d.reasons;
  } else {
    r.division = Division::invalid;
    r.reasons.push_back("no MLPerf Storage reference workload named \"" + job.name +
                        "\" (unet3d, resnet50, cosmoflow): results are for information only");
  }
  if (job.dataset.num_files < o.sizing.files) {
    r.division = Division::invalid;
    r.reasons.push_back("the dataset has " + std::to_string(job.dataset.num_files) +
                        " files; the rules ask for " + std::to_string(o.sizing.files) +
                        " (500 steps of every accelerator and 5x the clients' RAM)");
  }
  const std::uint32_t total = o.runs + (o.warmup ? 1 : 0);
  for (std::uint32_t i = 0; i < total; ++i) {
    Job j = job;
    j.reader.seed = job.reader.seed + i;  // a new shuffle order every run
    Result<Report> rep = run(j);
    if (!rep) return rep.error();
    MlperfRun m = mlperf_run_of(*rep, j.reader.seed, o.warmup && i == 0);
    if (o.gather) {  // under mpirun: every rank's result, reduced
      m = reduce_mlperf_ranks(o.gather(*rep), m.seed, m.warmup);
      r.ranks = static_cast<std::uint32_t>(m.per_rank.size());
      std::vector<std::string> hosts;
      for (const MlperfRankFigures& f : m.per_rank)
        if (std::find(hosts.begin(), hosts.end(), f.host) == hosts.end()) hosts.push_back(f.host);
      r.hosts = static_cast<std::uint32_t>(hosts.size());
    }
    r.runs.push_back(m);
    if (observe) observe(m);
  }
  std::vector<const MlperfRun*> measured;
  for (const auto& m : r.runs)
    if (!m.warmup) measured.push_back(&m);
  r.min_au = 1e300;
  r.all_passed = true;
  for (const MlperfRun* m : measured) {
    r.mean_samples_per_s += m->samples_per_s / static_cast<double>(measured.size());
    r.mean_mib_per_s += m->mib_per_s / static_cast<double>(measured.size());
    r.mean_au += m->au / static_cast<double>(measured.size());
    r.min_au = std::min(r.min_au, m->au);
    r.all_passed = r.all_passed && m->au_passed;
  }
  for (const MlperfRun* m : measured)
    if (r.mean_samples_per_s > 0)
      r.max_deviation =
          std::max(r.max_deviation,
                   std::fabs(m->samples_per_s - r.mean_samples_per_s) / r.mean_samples_per_s);
  r.replicated = r.max_deviation <= o.replication_limit;
  char buf[200];
  if (!r.all_passed) {
    std::snprintf(buf, sizeof buf, "a measured run kept AU below %.0f%% (lowest %.1f%%)",
                  r.au_threshold * 100, r.min_au * 100);
    r.reasons.push_back(buf);
    r.division = Division::invalid;
  }
  if (!r.replicated) {
    std::snprintf(buf, sizeof buf,
                  "runs disagree: samples/s up to %.1f%% from their mean (limit %.0f%%)",
                  r.max_deviation * 100, o.replication_limit * 100);
    r.reasons.push_back(buf);
    r.division = Division::invalid;
  }
  return r;
}

std::string mlperf_json(const MlperfResult& r) {
  nlohmann::json j;
  j["workload"] = r.workload;
  j["division"] = to_string(r.division);
  j["reasons"] = r.reasons;
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

}  // namespace dlgen::replay
