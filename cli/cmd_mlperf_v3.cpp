// MLPerf Storage v3.0's pieces of `dlgen mlperf` (mlperf_cli.hpp): rule 4.7.1 between a write
// phase and a read phase run as separate invocations, and `dlgen mlperf validate DIR`.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>

#include "commands.hpp"
#include "dlgen/core/job_io.hpp"
#include "dlgen/core/storage_location.hpp"
#include "dlgen/engine/registry.hpp"
#include "dlgen/engine/s3.hpp"
#include "dlgen/mlperf/provenance.hpp"
#include "dlgen/mlperf/rules.hpp"
#include "dlgen/mlperf/validate.hpp"
#include "mlperf_cli.hpp"

namespace dlgen::cli {

namespace {

// The phase record in the checkpoint folder: a file, or an object below the prefix the write
// phase claimed (s3://).
Result<void> put_record(const std::filesystem::path& path, const std::string& text) {
  if (!is_url(path.string())) return write_text_file(path, text);
  Result<StorageLocation> loc = parse_object_url(path.string());
  if (!loc) return loc.error();
  return engine::s3_put_text(loc->bucket, loc->prefix, text);
}

// Its text; nullopt when there is none (an unreadable one is an error).
Result<std::optional<std::string>> get_record(const std::filesystem::path& path) {
  if (is_url(path.string())) {
    Result<StorageLocation> loc = parse_object_url(path.string());
    if (!loc) return loc.error();
    return engine::s3_get_text(loc->bucket, loc->prefix);
  }
  std::ifstream f(path, std::ios::binary);
  if (!f) return std::optional<std::string>();
  std::ostringstream text;
  text << f.rdbuf();
  return std::optional<std::string>(text.str());
}

}  // namespace

double now_unix_s() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// MLPerf Storage v3.0's rule 4.7.1 across invocations: a write phase (10 written, none read)
// leaves its end time in the checkpoint folder (mlperf::PhaseRecord); a read phase (none written)
// judges the time since, from when this invocation began. Rank 0 only.
void judge_checkpoint_phases(const Job& job, const MlperfOutputs& o, const std::string& workload,
                             mlperf::MlperfCheckpointResult& r) {
  const CheckpointSpec& k = job.checkpoint;
  const std::filesystem::path path = k.dir / mlperf::phase_record_name();
  const bool phase = (k.writes > 0) != (k.reads > 0);
  // A diskless engine (null) touches no storage, an object store's included: no record either.
  if (const engine::EngineOps* e = engine::find(o.engine); phase && e && e->caps.diskless) {
    r.reasons.push_back("note: engine " + o.engine +
                        " stores nothing, so no phase record is kept (rule 4.7.1 not judged)");
    return;
  }
  if (k.writes > 0 && k.reads == 0) {
    mlperf::PhaseRecord rec;
    rec.workload = workload.empty() ? job.name : workload;
    rec.job_hash = mlperf::job_text_hash(to_toml(job));
    rec.host = mlperf::this_host().name;
    rec.writes = k.writes;
    rec.end_text = dlio_time_text();
    rec.end_unix_s = now_unix_s();
    if (Result<void> w = put_record(path, mlperf::phase_record_json(rec)); !w)
      r.reasons.push_back("note: " + w.error().message +
                          " (the read phase cannot judge rule 4.7.1 without it)");
    else
      r.reasons.push_back("note: write phase: its end is in " + path.string() +
                          "; start the read phase (num_checkpoints_write=0) within 30 s");
    return;
  }
  if (k.writes != 0 || k.reads == 0) return;
  std::optional<mlperf::PhaseRecord> rec;
  Result<std::optional<std::string>> text = get_record(path);
  if (!text) {
    r.reasons.push_back(text.error().message);
  } else if (*text) {
    Result<mlperf::PhaseRecord> p = mlperf::parse_phase_record(**text, path.string());
    if (p)
      rec = *p;
    else
      r.reasons.push_back(p.error().message);
  }
  const double gap = mlperf::judge_phase_gap(rec ? &*rec : nullptr, o.invocation_start_unix_s,
                                             path.string(), r.division, r.reasons);
  if (rec && gap >= 0 && gap <= mlperf::kV3PhaseGapLimitS) {
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "note: read phase started %.1f s after the write phase ended (rule 4.7.1: "
                  "within %.0f s)",
                  gap, mlperf::kV3PhaseGapLimitS);
    r.reasons.push_back(buf);
  }
}

namespace {

struct ValidateArgs {
  std::string dir;
  std::string rules = mlperf::to_string(mlperf::kDefaultRules);
  bool json = false;
};

int do_validate(const ValidateArgs& a) {
  Result<mlperf::Round> rules = mlperf::parse_rules_version(a.rules);
  if (!rules) return report_error(rules.error());
  const mlperf::ValidationResult r = mlperf::validate_results(a.dir, *rules);
  std::fputs(a.json ? mlperf::validation_json(r).c_str() : mlperf::format_validation(r).c_str(),
             stdout);
  return r.valid() ? 0 : 1;
}

}  // namespace

CLI::App* add_mlperf_validate(CLI::App* mlperf, Action& action) {
  auto va = std::make_shared<ValidateArgs>();
  CLI::App* v = mlperf->add_subcommand(
      "validate",
      "Check a results folder (--results-dir) as MLPerf Storage's submission checker does: "
      "structure, files, run count, provenance, verdicts recomputed; exit 0 when valid, 1 "
      "with every problem listed");
  v->add_option("dir", va->dir, "The results folder (what --results-dir wrote)")->required();
  v->add_option("--rules", va->rules, "MLPerf Storage rules: v3.0 (default) or v2.0");
  v->add_flag("--json", va->json, "The problems as JSON");
  v->callback([&action, va] { action = [va] { return do_validate(*va); }; });
  return v;
}

}  // namespace dlgen::cli
