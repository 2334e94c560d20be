// `dlgen mlperf validate DIR` (validate.hpp): the folder's structure as Rules.md 2.1 asks, each
// run folder's files and provenance, and the verdict recomputed from the runs' saved figures.
// Steps: the division folders -> each submitter -> each system's categories -> each workload
// (training or checkpointing) -> its timestamp folders.
#include "dlgen/mlperf/validate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include "dlgen/core/json.hpp"
#include <optional>
#include <regex>
#include <sstream>

#include "dlgen/core/job_io.hpp"
#include "dlgen/mlperf/mlperf.hpp"
#include "dlgen/mlperf/mlperf_checkpoint.hpp"
#include "dlgen/mlperf/provenance.hpp"
#include "dlgen/mlperf/v3_checks.hpp"

namespace dlgen::mlperf {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr std::uint32_t kTrainingFolders = 6;  // 2.1.17: the warm-up and 5 measured runs
constexpr double kReplication = 0.05;          // every run's figure within 5% of the mean

struct Checker {
  fs::path root;
  Round rules;
  ValidationResult& out;

  std::string rel(const fs::path& p) const { return fs::relative(p, root).generic_string(); }
  void problem(const fs::path& p, const std::string& rule, const std::string& message) {
    out.problems.push_back({rel(p), rule, message});
  }
  bool v3() const { return rules == Round::v3_0; }
};

std::vector<fs::path> entries(const fs::path& dir) {
  std::vector<fs::path> v;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().filename().string().front() != '.') v.push_back(e.path());
  std::sort(v.begin(), v.end());
  return v;
}

std::vector<fs::path> subdirs(const fs::path& dir) {
  std::vector<fs::path> v;
  for (const fs::path& p : entries(dir))
    if (fs::is_directory(p)) v.push_back(p);
  return v;
}

std::optional<json> read_json(Checker& c, const fs::path& p, const std::string& rule) {
  std::ifstream f(p, std::ios::binary);
  if (!f) {
    c.problem(p, rule, "missing");
    return std::nullopt;
  }
  json j = json::parse(f, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    c.problem(p, rule, "not a JSON object");
    return std::nullopt;
  }
  return j;
}

std::string read_text(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

bool is_timestamp(const std::string& name) {
  static const std::regex re("[0-9]{8}_[0-9]{6}");
  return std::regex_match(name, re);
}

std::string lower(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

double number(const json& j, const char* key) {
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : NAN;
}

// The timestamp folders of a workload (sorted, so in the order the runs ended); any other folder
// is a problem of `rule`.
std::vector<fs::path> timestamp_folders(Checker& c, const fs::path& dir, const std::string& rule) {
  std::vector<fs::path> ts;
  for (const fs::path& p : subdirs(dir)) {
    if (is_timestamp(p.filename().string()))
      ts.push_back(p);
    else
      c.problem(p, rule, "not a YYYYMMDD_HHmmss timestamp folder");
  }
  return ts;
}

// One run's provenance.json (v3.0): parses, names dlgen and the rules checked, and its job hash
// is that of the run's dlgen_job.toml.
void check_provenance(Checker& c, const fs::path& run, const std::string& workload) {
  const fs::path p = run / "provenance.json";
  if (!fs::exists(p)) {
    c.problem(p, "provenance", "missing (every run folder carries one under the v3.0 rules)");
    return;
  }
  Result<Provenance> prov = parse_provenance(read_text(p), c.rel(p));
  if (!prov) {
    c.problem(p, "provenance", prov.error().message);
    return;
  }
  if (prov->rules != to_string(c.rules))
    c.problem(p, "provenance",
              "rules " + prov->rules + ", the folder is checked as " + to_string(c.rules));
  if (prov->workload != workload)
    c.problem(p, "provenance",
              "workload \"" + prov->workload + "\", the folder is \"" + workload + "\"");
  if (!prov->has_clients)
    c.problem(p, "provenance", "clients: missing (the hosts and their RAM, rule 3.1.2)");
  const fs::path toml = run / "dlgen_job.toml";
  if (!fs::exists(toml)) return;  // a datasize or datagen step
  if (job_text_hash(read_text(toml)) != prov->job_hash)
    c.problem(p, "provenance",
              "job.hash " + prov->job_hash + " is not the hash of dlgen_job.toml (" +
                  job_text_hash(read_text(toml)) + ")");
  if (prov->job_toml != read_text(toml))
    c.problem(p, "provenance", "job.toml differs from dlgen_job.toml");
}

// The run folder's provenance.json, parsed (nullopt when missing or broken: check_provenance
// reports it).
std::optional<Provenance> provenance_of(const fs::path& run) {
  Result<Provenance> p = parse_provenance(read_text(run / "provenance.json"), "");
  return p ? std::optional<Provenance>(*p) : std::nullopt;
}

void add(Checker& c, const fs::path& p, const std::vector<RuleProblem>& problems) {
  for (const RuleProblem& x : problems) c.problem(p, x.rule, x.message);
}

// A timestamp folder's dlio_config/: exactly config.yaml, hydra.yaml, overrides.yaml.
void check_dlio_config(Checker& c, const fs::path& folder, const std::string& rule) {
  const fs::path config = folder / "dlio_config";
  std::vector<std::string> have;
  for (const fs::path& p : entries(config)) have.push_back(p.filename().string());
  const std::vector<std::string> want = {"config.yaml", "hydra.yaml", "overrides.yaml"};
  if (have != want)
    c.problem(config, rule,
              "holds " + std::to_string(have.size()) +
                  " entries; exactly config.yaml, hydra.yaml and "
                  "overrides.yaml are asked for");
}

// The files every timestamp folder holds (2.1.19 / 2.1.25) and its dlio_config (2.1.20 / 2.1.26).
void check_run_files(Checker& c, const fs::path& run, const std::string& category,
                     const std::string& workload) {
  const std::string files_rule =
      category == "training" ? "2.1.19 runFiles" : "2.1.25 checkpointingFiles";
  const std::string config_rule =
      category == "training" ? "2.1.20 runDlioConfig" : "2.1.26 checkpointingDlioConfig";
  for (const std::string& name :
       {category + "_run.stdout.log", category + "_run.stderr.log",
        std::string("dlgen_output.json"), std::string("per_epoch_stats.json"),
        std::string("summary.json"), std::string("dlio.log")})
    if (!fs::is_regular_file(run / name)) c.problem(run / name, files_rule, "missing");
  check_dlio_config(c, run, config_rule);
  if (c.v3()) check_provenance(c, run, workload);
}

// The division folder the result sits in must be the verdict results.json records.
void check_division_folder(Checker& c, const fs::path& results, const json& r,
                           const std::string& division) {
  const std::string recorded = r.value("division", "");
  if (lower(recorded) != division)
    c.problem(results, "division",
              "results.json says " + recorded + ", the result sits under " + division + "/");
}

// The training verdict again from the measured runs' own files: samples/s and AU of each
// dlgen_output.json must be results.json's; every AU at or above the threshold (v3.0: the
// workload's minimum too); all within 5% of their mean. A CLOSED, OPEN or WHATIF result that
// fails one of them is a problem naming the rule.
void recompute_training(Checker& c, const fs::path& run_dir, const std::vector<fs::path>& ts,
                        const json& r, const std::string& workload) {
  const fs::path results = run_dir / "results.json";
  const json runs = r.value("runs", json::array());
  if (runs.size() != ts.size()) {
    c.problem(results, "runs",
              "results.json lists " + std::to_string(runs.size()) + " runs, the folder holds " +
                  std::to_string(ts.size()) + " timestamp folders");
    return;
  }
  double threshold = number(r, "au_threshold");
  if (c.v3()) threshold = std::max(threshold, v3_au_threshold(workload));
  std::vector<double> rates;
  bool au_ok = true;
  for (std::size_t i = 0; i < ts.size(); ++i) {
    const std::optional<json> out = read_json(c, ts[i] / "dlgen_output.json", "2.1.19 runFiles");
    if (!out) continue;
    const double rate = number(*out, "samples_per_s"), au = number(*out, "au");
    const double saved_rate = number(runs[i], "samples_per_s"), saved_au = number(runs[i], "au");
    if (!(std::fabs(rate - saved_rate) <= 1e-9 * std::max(1.0, std::fabs(rate))) ||
        !(std::fabs(au - saved_au) <= 1e-12))
      c.problem(ts[i] / "dlgen_output.json", "runs",
                "samples/s and AU differ from results.json's run " + std::to_string(i + 1));
    if (runs[i].value("warmup", false)) continue;
    rates.push_back(rate);
    if (!(au >= threshold)) {
      au_ok = false;
      char buf[160];
      std::snprintf(buf, sizeof buf, "AU %.1f%% below %.0f%%", au * 100, threshold * 100);
      c.problem(ts[i], "3.3.2 trainingAcceleratorUtilizationCheck", buf);
    }
  }
  double mean = 0, deviation = 0;
  for (double x : rates) mean += x / double(rates.size());
  for (double x : rates) deviation = std::max(deviation, mean > 0 ? std::fabs(x - mean) / mean : 0);
  if (deviation > kReplication) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "measured runs' samples/s up to %.1f%% from their mean (5%%)",
                  deviation * 100);
    c.problem(run_dir, "replication", buf);
  }
  const std::string division = lower(r.value("division", ""));
  const bool submitted = division == "closed" || division == "open" || division == "whatif";
  if (submitted && (!au_ok || deviation > kReplication || rates.size() < kTrainingFolders - 1))
    c.problem(results, "verdict",
              "results.json says " + r.value("division", "") +
                  " but the runs above fail the rules (INVALID)");
  if (c.v3() && (division == "closed" || division == "open")) {
    const std::string accelerator = r.value("accelerator", "");
    if (!v3_closed_training(workload, accelerator))
      c.problem(results, "category",
                workload + " on " +
                    (accelerator.empty() ? "no recorded accelerator" : accelerator) +
                    ": v3.0 admits only unet3d and retinanet on b200 and mi355 in CLOSED and OPEN");
  }
}

// v3.0: the division again from the runs' own jobs. Each run folder's dlgen_job.toml is compared
// field by field with the v3.0 reference of the workload on the accelerator results.json names
// (check_division: the parameters CLOSED may change, those only OPEN may, every other one
// INVALID; Rules.md 3.6.2 / 3.6.3, mlpstorage's CLOSED_ALLOWED_PARAMS / OPEN_ALLOWED_PARAMS in
// rules/run_checkers/training.py). The run furthest from the reference decides: results.json's
// CLOSED must have changed only CLOSED parameters, its OPEN or WHATIF no parameter outside both
// lists. A workload with no v3.0 reference is left to the category check.
void recheck_division(Checker& c, const fs::path& results, const std::vector<fs::path>& ts,
                      const json& r, const std::string& workload) {
  const std::string division = lower(r.value("division", ""));
  if (!c.v3() || (division != "closed" && division != "open" && division != "whatif")) return;
  Result<Job> reference = mlperf_reference(workload, r.value("accelerator", ""), Round::v3_0);
  if (!reference) return;
  auto rank = [](Division d) { return d == Division::closed ? 0 : d == Division::open ? 1 : 2; };
  Division worst = Division::closed;
  std::vector<std::string> reasons;
  for (const fs::path& t : ts) {
    Result<Job> job = load_job(t / "dlgen_job.toml");
    if (!job) {
      c.problem(t / "dlgen_job.toml", "2.1.19 runFiles", job.error().message);
      continue;
    }
    DivisionCheck d = check_division(*reference, *job);
    apply_v3_direct(*job, d.division, d.reasons);
    if (rank(d.division) > rank(worst)) worst = d.division;
    for (const std::string& why : d.reasons)
      if (std::find(reasons.begin(), reasons.end(), why) == reasons.end()) reasons.push_back(why);
  }
  const bool closed_broken = division == "closed" && worst != Division::closed;
  if (!closed_broken && worst != Division::invalid) return;
  std::string why;
  for (const std::string& s : reasons) why += (why.empty() ? "" : "; ") + s;
  c.problem(results, closed_broken ? "3.6.2 closedParameters" : "3.6.3 openParameters",
            "results.json says " + r.value("division", "") + " but the runs' jobs are " +
                to_string(worst) + " against the v3.0 reference of " + workload + " on " +
                r.value("accelerator", "") + ": " + why);
}

// v3.0's datasize or datagen step (2.1.12 - 2.1.15): exactly one timestamp folder with its logs,
// metadata (and for datagen dlio.log and dlio_config/) and provenance; returns the files its
// metadata records (parameters.dataset.num_files_train), nullopt when it cannot be read.
std::optional<std::uint64_t> check_step(Checker& c, const fs::path& w, const std::string& command) {
  const fs::path dir = w / command;
  if (!fs::is_directory(dir)) {
    c.problem(dir, "2.1.12 trainingPhases", "missing (v3.0: datasize, datagen and run)");
    return std::nullopt;
  }
  const std::string rule =
      command == "datagen" ? "2.1.13 datagenTimestamp" : "2.1.12 trainingPhases";
  const std::vector<fs::path> ts = timestamp_folders(c, dir, rule);
  if (ts.size() != 1)
    c.problem(dir, rule, std::to_string(ts.size()) + " timestamp folders; exactly one");
  if (ts.empty()) return std::nullopt;
  const fs::path t = ts.back();
  const std::string files_rule =
      command == "datagen" ? "2.1.14 datagenFiles" : "3.3.1 trainingRunDataMatchesDatasize";
  std::vector<std::string> need = {"training_" + command + ".stdout.log",
                                   "training_" + command + ".stderr.log"};
  if (command == "datagen") need.push_back("dlio.log");
  for (const std::string& name : need)
    if (!fs::is_regular_file(t / name)) c.problem(t / name, files_rule, "missing");
  if (command == "datagen") check_dlio_config(c, t, "2.1.15 datagenDlioConfig");
  check_provenance(c, t, w.filename().string());
  fs::path meta;
  for (const fs::path& p : entries(t))
    if (p.filename().string().size() > 14 && p.filename().string().ends_with("_metadata.json"))
      meta = p;
  if (meta.empty()) {
    c.problem(t, files_rule, "no *_metadata.json (the step's parameters.dataset)");
    return std::nullopt;
  }
  const std::optional<json> m = read_json(c, meta, files_rule);
  const json files = m ? m->value("parameters", json::object())
                             .value("dataset", json::object())
                             .value("num_files_train", json())
                       : json();
  if (!files.is_number_unsigned()) {
    if (m) c.problem(meta, files_rule, "parameters.dataset.num_files_train: missing");
    return std::nullopt;
  }
  return files.get<std::uint64_t>();
}

// v3.0, each run folder: the dataset size against its clients (3.1.2) and the steps (3.3.1),
// from its dlgen_job.toml and provenance.json.
void check_run_data(Checker& c, const fs::path& t, TrainingStepFiles steps) {
  Result<Job> job = load_job(t / "dlgen_job.toml");
  if (!job) {
    c.problem(t / "dlgen_job.toml", "3.1.2 trainingRecalculateDatasetSize",
              "cannot recheck the dataset size: " + job.error().message);
    return;
  }
  const std::optional<Provenance> prov = provenance_of(t);
  if (!prov || !prov->has_clients) return;  // check_provenance reports it
  add(c, t, check_v3_dataset_size(*job, prov->clients));
  steps.run = job->dataset.num_files;
  add(c, t, check_v3_training_steps(steps));
}

void check_training(Checker& c, const fs::path& w, const std::string& division) {
  const std::string workload = w.filename().string();
  c.out.results.push_back(c.rel(w));
  const bool submitted = division == "closed" || division == "open";
  if (submitted) {
    const std::vector<std::string> known =
        c.v3() ? std::vector<std::string>{"unet3d", "retinanet"}
               : std::vector<std::string>{"unet3d", "resnet50", "cosmoflow"};
    if (std::find(known.begin(), known.end(), workload) == known.end())
      c.problem(w, "2.1.11 trainingWorkloads",
                "not a training workload of " + std::string(to_string(c.rules)));
  }
  const fs::path run = w / "run";
  if (!fs::is_directory(run)) {
    c.problem(run, "2.1.12 trainingPhases", "missing");
    return;
  }
  const std::vector<fs::path> ts = timestamp_folders(c, run, "2.1.17 runTimestamps");
  if (submitted && ts.size() != kTrainingFolders)
    c.problem(run, "2.1.17 runTimestamps",
              std::to_string(ts.size()) + " timestamp folders; exactly 6 (the warm-up and 5 runs)");
  for (const fs::path& t : ts) check_run_files(c, t, "training", workload);
  if (c.v3()) {
    for (const fs::path& p : subdirs(w))
      if (p.filename() != "run" && p.filename() != "datasize" && p.filename() != "datagen")
        c.problem(p, "2.1.12 trainingPhases", "not a step (datasize, datagen, run)");
    TrainingStepFiles steps;
    steps.datasize = check_step(c, w, "datasize");
    steps.datagen = check_step(c, w, "datagen");
    add(c, w / "datagen", check_v3_datagen_size(steps));
    for (const fs::path& t : ts) check_run_data(c, t, steps);
  }
  const std::optional<json> r = read_json(c, run / "results.json", "2.1.16 runResultsJson");
  if (!r) return;
  check_division_folder(c, run / "results.json", *r, division);
  recompute_training(c, run, ts, *r, workload);
  recheck_division(c, run / "results.json", ts, *r, workload);
}

// The checkpointing verdict again: 10 written and 10 read over the runs (or one phase alone), the
// runs' write and read throughputs within 5% of their means, the division folder.
void recompute_checkpointing(Checker& c, const fs::path& w, const std::vector<fs::path>& ts,
                             const json& r) {
  const fs::path results = w / "results.json";
  const json runs = r.value("runs", json::array());
  if (runs.size() != ts.size())
    c.problem(results, "runs",
              "results.json lists " + std::to_string(runs.size()) + " runs, the folder holds " +
                  std::to_string(ts.size()) + " timestamp folders");
  std::uint64_t writes = 0, reads = 0;
  bool agree = true;
  for (const char* phase : {"write", "read"}) {
    std::vector<double> t;
    for (const json& run : runs) {
      const json p = run.value(phase, json::object());
      (std::string(phase) == "write" ? writes : reads) += p.value("checkpoints", 0u);
      if (p.value("checkpoints", 0u) > 0) t.push_back(number(p, "throughput_bytes_per_s"));
    }
    double mean = 0;
    for (double x : t) mean += x / double(t.size());
    for (double x : t)
      if (mean > 0 && std::fabs(x - mean) / mean > kReplication) agree = false;
  }
  if (!agree)
    c.problem(w, "replication", "runs' throughputs differ by more than 5% from their mean");
  const std::string division = lower(r.value("division", ""));
  const bool totals =
      (writes == 10 && reads == 10) || (writes == 10 && reads == 0) || (writes == 0 && reads == 10);
  if (division == "closed" && !totals)
    c.problem(results, "Table 3 num_checkpoints",
              std::to_string(writes) + " written and " + std::to_string(reads) +
                  " read; CLOSED asks for 10 and 10, or one phase alone");
  if ((division == "closed" || division == "open" || division == "whatif") && !agree)
    c.problem(results, "verdict",
              "results.json says " + r.value("division", "") + " but the runs disagree (INVALID)");
}

Division division_of(const std::string& text) {
  for (Division d : {Division::closed, Division::open, Division::whatif})
    if (lower(text) == lower(to_string(d))) return d;
  return Division::invalid;
}

// v3.0's checkpointing rules (check_v3_checkpointing) on what the folder records: results.json's
// verdict, accelerator and per-run figures, each timestamp folder's provenance (when its
// invocation began and its run ended, the clients' RAM) and the runs' job.
void check_checkpoint_rules(Checker& c, const fs::path& w, const std::vector<fs::path>& ts,
                            const json& r) {
  const json runs = r.value("runs", json::array());
  if (ts.empty() || runs.size() != ts.size()) return;  // reported by recompute_checkpointing
  Result<Job> job = load_job(ts.front() / "dlgen_job.toml");
  if (!job) {
    c.problem(ts.front() / "dlgen_job.toml", "2.1.25 checkpointingFiles", job.error().message);
    return;
  }
  CheckpointRecord rec;
  rec.workload = w.filename().string();
  rec.accelerator = r.value("accelerator", "");
  rec.division = division_of(r.value("division", ""));
  rec.job = *job;
  const json config = r.value("config", json::object());
  rec.hosts = std::max(config.value("hosts", 1u), 1u);
  rec.checkpoint_bytes = config.value("checkpoint_bytes", std::uint64_t{0});
  rec.runs = static_cast<std::uint32_t>(runs.size());
  for (std::size_t i = 0; i < ts.size(); ++i) {
    CheckpointInvocation inv;
    inv.writes = runs[i].value("write", json::object()).value("checkpoints", 0u);
    inv.reads = runs[i].value("read", json::object()).value("checkpoints", 0u);
    inv.cache_dropped = runs[i].value("cache_dropped", false);
    if (const std::optional<Provenance> p = provenance_of(ts[i])) {
      inv.start_unix_s = p->invocation_start_unix_s;
      inv.end_unix_s = p->end_unix_s;
      rec.ram_bytes_per_host = std::max(p->clients.ram_bytes, p->clients.measured_ram_bytes) /
                               std::max<std::uint32_t>(p->clients.hosts, 1);
    }
    rec.invocations.push_back(inv);
  }
  const Result<Job> reference = mlperf_checkpoint_reference(rec.workload);
  add(c, w / "results.json", check_v3_checkpointing(rec, reference ? &*reference : nullptr));
}

void check_checkpointing(Checker& c, const fs::path& w, const std::string& division) {
  const std::string workload = w.filename().string();
  c.out.results.push_back(c.rel(w));
  const bool submitted = division == "closed" || division == "open";
  static const std::vector<std::string> known = {"llama3-8b", "llama3-70b", "llama3-405b",
                                                 "llama3-1t"};
  if (submitted && std::find(known.begin(), known.end(), workload) == known.end())
    c.problem(w, "2.1.21 checkpointingWorkloads", "not a checkpointing workload");
  const std::vector<fs::path> ts = timestamp_folders(c, w, "2.1.23 checkpointingTimestamps");
  if (submitted && c.v3() && (ts.empty() || ts.size() > 2))
    c.problem(w, "2.1.23 checkpointingTimestamps",
              std::to_string(ts.size()) +
                  " timestamp folders; one (a combined invocation) or two (a write phase and a "
                  "read phase)");
  if (submitted && !c.v3() && ts.size() != 10)
    c.problem(w, "2.1.23 checkpointingTimestamps",
              std::to_string(ts.size()) + " timestamp folders; v2.0 asks for 10");
  for (const fs::path& t : ts) check_run_files(c, t, "checkpointing", workload);
  const std::optional<json> r = read_json(c, w / "results.json", "2.1.22 checkpointingResultsJson");
  if (!r) return;
  check_division_folder(c, w / "results.json", *r, division);
  recompute_checkpointing(c, w, ts, *r);
  if (c.v3()) check_checkpoint_rules(c, w, ts, *r);
}

// One submitter's folder: results and systems (2.1.5), a system description per system (2.1.7),
// the categories (2.1.10) and their workloads.
void check_submitter(Checker& c, const fs::path& s, const std::string& division) {
  for (const char* need : {"results", "systems"})
    if (!fs::is_directory(s / need)) c.problem(s / need, "2.1.5 requiredSubdirectories", "missing");
  for (const fs::path& p : entries(s)) {
    const std::string n = p.filename().string();
    if (n != "results" && n != "systems" && n != "code" && n != "submission.yaml")
      c.problem(p, "2.1.5 requiredSubdirectories", "not expected here (results, systems)");
  }
  for (const fs::path& system : subdirs(s / "results")) {
    const std::string name = system.filename().string();
    if (!fs::exists(s / "systems" / (name + ".json")) &&
        !fs::exists(s / "systems" / (name + ".yaml")))
      c.problem(s / "systems" / (name + ".json"), "2.1.7 systemsDirectoryFiles",
                "no description of system " + name);
    for (const fs::path& cat : entries(system)) {
      const std::string kind = cat.filename().string();
      if (kind != "training" && kind != "checkpointing") {
        c.problem(cat, "2.1.10 workloadCategories", "not training or checkpointing");
        continue;
      }
      for (const fs::path& w : subdirs(cat)) {
        if (kind == "training")
          check_training(c, w, division);
        else
          check_checkpointing(c, w, division);
      }
    }
  }
}

}  // namespace

ValidationResult validate_results(const fs::path& dir, Round rules) {
  ValidationResult out;
  out.rules = rules;
  Checker c{dir, rules, out};
  if (!fs::is_directory(dir)) {
    out.problems.push_back({dir.string(), "folder", "not a folder"});
    return out;
  }
  bool any = false;
  for (const fs::path& d : entries(dir)) {
    const std::string n = d.filename().string();
    if (n == "closed" || n == "open") {
      any = true;
    } else if (n == "whatif" || n == "invalid") {
      any = true;
      c.problem(d, "2.1.2 topLevelSubdirectories",
                "not a division MLPerf accepts (closed, open): its results are for information "
                "only");
    } else {
      c.problem(d, "2.1.2 topLevelSubdirectories", "not expected here (closed, open)");
      continue;
    }
    for (const fs::path& s : subdirs(d)) check_submitter(c, s, n);
  }
  if (!any) c.problem(dir, "2.1.2 topLevelSubdirectories", "no closed/ or open/ folder");
  return out;
}

std::string format_validation(const ValidationResult& r) {
  std::string s;
  for (const ValidationProblem& p : r.problems)
    s += "  " + p.path + ": [" + p.rule + "] " + p.message + "\n";
  s += std::string(r.valid() ? "VALID" : "NOT VALID") + " under the MLPerf Storage " +
       to_string(r.rules) + " rules: " + std::to_string(r.results.size()) + " result(s), " +
       std::to_string(r.problems.size()) + " problem(s)\n";
  return s;
}

std::string validation_json(const ValidationResult& r) {
  nlohmann::ordered_json j;
  j["rules"] = to_string(r.rules);
  j["valid"] = r.valid();
  j["results"] = r.results;
  nlohmann::ordered_json problems = nlohmann::ordered_json::array();
  for (const ValidationProblem& p : r.problems)
    problems.push_back({{"path", p.path}, {"rule", p.rule}, {"message", p.message}});
  j["problems"] = problems;
  return j.dump(2) + "\n";
}

}  // namespace dlgen::mlperf
