// MLPerf Storage's run rules for training (mlperf.hpp): the dataset sizing, the runs and the
// verdict. The division check is mlperf_division.cpp; the reports mlperf_report.cpp.
#include "dlgen/mlperf/mlperf.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "dlgen/core/units.hpp"
#include "dlgen/dlio/summary.hpp"
#include "dlgen/mlperf/rules.hpp"
#include "dlgen/mlperf/v3_checks.hpp"

namespace dlgen::mlperf {

using cluster::ClusterResult;
using dlio::nominal_record_bytes;
using cluster::RankResult;
using replay::Report;

const char* to_string(Division d) {
  switch (d) {
    case Division::closed:
      return "CLOSED";
    case Division::open:
      return "OPEN";
    case Division::invalid:
      return "INVALID";
    case Division::whatif:
      return "WHATIF";
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

namespace {

// The division before any run: the reference's verdict, then what the options already make
// INVALID (a dataset smaller than the rules ask, sized for less RAM than the clients have, too
// few runs or no warm-up).
void judge_setup(const Job& job, const Job* reference, const MlperfOptions& o, MlperfResult& r) {
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
  if (o.measured_ram_bytes > 0 && o.ram_bytes < o.measured_ram_bytes) {
    r.division = Division::invalid;
    r.reasons.push_back("the dataset is sized for " + format_size(o.ram_bytes) +
                        " of client RAM (--ram); the clients have " +
                        format_size(o.measured_ram_bytes) + ": the rules ask for 5x the real RAM");
  }
  if (o.runs < kMlperfTrainingRuns || !o.warmup) {
    r.division = Division::invalid;
    r.reasons.push_back(std::to_string(o.runs) + " measured run(s) " +
                        (o.warmup ? "after a warm-up" : "without a warm-up") +
                        ": CLOSED and OPEN need a warm-up and " +
                        std::to_string(kMlperfTrainingRuns) + " measured runs");
  }
}

// The warm-up (when asked) and the measured runs, each with a new shuffle seed; under mpirun
// each run's figures are every rank's, reduced.
Result<void> run_all(const Job& job, const MlperfRunner& run, const MlperfOptions& o,
                     const MlperfObserver& observe, MlperfResult& r) {
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
    // v3.0: the edition's minimum holds whatever the job's own threshold says (Rules.md 3.3.2).
    if (o.v3 && m.au < v3_au_threshold(job.name)) m.au_passed = false;
    r.runs.push_back(m);
    if (observe) observe(m);
  }
  return ok();
}

// The measured runs' means, lowest AU and largest deviation, and what they make INVALID.
void judge_runs(const MlperfOptions& o, MlperfResult& r) {
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
}

}  // namespace

Result<MlperfResult> run_mlperf(const Job& job, const Job* reference, const MlperfRunner& run,
                                const MlperfOptions& o, const MlperfObserver& observe) {
  if (o.runs < 1) return input_error("mlperf: at least one measured run");
  if (!job.run.train)
    return input_error("mlperf: checkpoint-only workloads are not built into the run rules yet");
  MlperfResult r;
  r.workload = job.name;
  if (o.v3) {
    r.rules = to_string(Round::v3_0);
    r.accelerator = o.accelerator;
  }
  r.sizing = o.sizing;
  r.dataset_files = job.dataset.num_files;
  // v3.0: the edition's AU minimum of the workload when it is higher than the job's.
  r.au_threshold = o.v3 ? std::max(job.compute.au_threshold, v3_au_threshold(job.name))
                        : job.compute.au_threshold;
  judge_setup(job, reference, o, r);
  if (o.v3) apply_v3_direct(job, r.division, r.reasons);
  if (Result<void> ran = run_all(job, run, o, observe, r); !ran) return ran.error();
  judge_runs(o, r);
  if (o.v3)
    apply_v3_category(
        v3_closed_training(job.name, o.accelerator),
        job.name + " on " + (o.accelerator.empty() ? "no named accelerator" : o.accelerator),
        r.division, r.reasons);
  return r;
}

}  // namespace dlgen::mlperf
