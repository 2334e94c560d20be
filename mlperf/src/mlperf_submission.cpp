// The MLPerf Storage submission folder (mlperf_submission.hpp).
#include "dlgen/mlperf/mlperf_submission.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include "dlgen/core/json.hpp"
#include <set>
#include <system_error>

#include "dlgen/dlio/summary.hpp"

namespace dlgen::mlperf {

using replay::EpochResult;
using replay::Report;
namespace {

std::string yaml_quote(const std::string& s) {
  std::string o = "'";
  for (char c : s) {
    if (c == '\'') o += '\'';
    o += c;
  }
  return o + "'";
}

}  // namespace

std::string submission_name(const std::string& s) {
  std::string o;
  for (char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '-';
    o += ok ? c : '-';
  }
  if (o.empty() || o == "." || o == "..") return "unnamed";
  return o;
}

std::string submission_timestamp(std::time_t t) {
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d_%H%M%S", &tm);
  return buf;
}

const char* submission_division_folder(Division d) {
  switch (d) {
    case Division::closed:
      return "closed";
    case Division::open:
      return "open";
    case Division::invalid:
      return "invalid";
    case Division::whatif:
      return "whatif";
  }
  return "invalid";
}

Result<std::vector<SubmissionFile>> submission_files(const SubmissionSpec& s) {
  const std::string submitter = submission_name(s.submitter), system = submission_name(s.system);
  const std::filesystem::path top =
      std::filesystem::path(submission_division_folder(s.division)) / submitter;
  const char* category = s.checkpointing ? "checkpointing" : "training";
  std::filesystem::path results = top / "results" / system / category / submission_name(s.workload);
  if (!s.checkpointing) results /= "run";
  std::vector<SubmissionFile> out;
  out.push_back({top / "code" / "README.md",
                 "# Benchmark code\n\nThese results were produced by " + s.tool_version +
                     " (`dlgen mlperf`), not by MLPerf Storage's DLIO-based tool. Put the "
                     "source tree of that dlgen version here (the rules ask for the exact code "
                     "that ran).\n\nCommand: `" +
                     s.command_line + "`\n"});
  out.push_back({top / "systems" / (system + ".json"),
                 "{\n  \"system_name\": \"" + system + "\",\n  \"submitter\": \"" + submitter +
                     "\",\n  \"status\": \"TODO: available | RDI\",\n"
                     "  \"storage_system\": {\"solution_type\": \"TODO: Local | Remote Block | "
                     "NAS | Proprietary | Object | Other\", \"software_defined\": null, "
                     "\"hyperconverged\": null, \"description\": \"TODO\"},\n"
                     "  \"host_nodes\": {\"count\": null, \"cpu\": \"TODO\", \"memory_GiB\": "
                     "null, \"os\": \"TODO\"},\n"
                     "  \"networks\": {\"protocols\": \"TODO\", \"description\": \"TODO\"},\n"
                     "  \"notes\": \"A stub written by dlgen: fill it in as MLPerf Storage's "
                     "system description schema asks, and add " +
                     system + ".pdf beside it.\"\n}\n",
                 true});
  out.push_back({results / "results.json", s.results_json});
  const std::string hydra =
      "# dlgen does not use Hydra; the command that ran:\nhydra:\n  job:\n    "
      "name: dlgen_mlperf\n  runtime:\n    command: " +
      yaml_quote(s.command_line) + "\n";
  std::string overrides;
  for (const auto& o : s.overrides) overrides += "- " + yaml_quote(o) + "\n";
  if (overrides.empty()) overrides = "[]\n";
  for (const SubmissionStep& st : s.steps) {
    const std::filesystem::path d = results.parent_path() / st.command / st.timestamp;
    const std::string head =
        "# " + s.tool_version + ", " + st.command + ": " + s.command_line + "\n";
    out.push_back({d / ("training_" + st.command + ".stdout.log"), head + st.log});
    out.push_back({d / ("training_" + st.command + ".stderr.log"), ""});
    out.push_back({d / ("training_" + st.timestamp + "_metadata.json"), st.metadata_json});
    if (!st.provenance_json.empty()) out.push_back({d / "provenance.json", st.provenance_json});
    if (st.command != "datagen") continue;
    out.push_back({d / "dlio.log",
                   "# written by " + s.tool_version + " in DLIO's place (no DLIO ran)\n" + st.log});
    out.push_back({d / "dlio_config" / "config.yaml", s.config_yaml});
    out.push_back({d / "dlio_config" / "hydra.yaml", hydra});
    out.push_back({d / "dlio_config" / "overrides.yaml", overrides});
  }
  std::set<std::string> seen;
  for (const SubmissionRun& r : s.runs) {
    if (!seen.insert(r.timestamp).second)
      return input_error("two runs end at " + r.timestamp +
                         ": their submission folders would be the same");
    const std::filesystem::path d = results / r.timestamp;
    const std::string head =
        "# " + s.tool_version + (r.warmup ? ", warm-up run" : "") + ": " + s.command_line + "\n";
    out.push_back({d / (std::string(category) + "_run.stdout.log"), head + r.log});
    out.push_back({d / (std::string(category) + "_run.stderr.log"), ""});
    out.push_back({d / "summary.json", r.summary_json});
    out.push_back({d / "per_epoch_stats.json", r.per_epoch_stats_json});
    out.push_back({d / "dlgen_output.json", r.output_json});
    out.push_back({d / "dlio.log",
                   "# written by " + s.tool_version + " in DLIO's place (no DLIO ran)\n" + r.log});
    out.push_back({d / "dlgen_job.toml", s.job_toml});
    if (!r.provenance_json.empty()) out.push_back({d / "provenance.json", r.provenance_json});
    out.push_back({d / "dlio_config" / "config.yaml", s.config_yaml});
    out.push_back({d / "dlio_config" / "hydra.yaml", hydra});
    out.push_back({d / "dlio_config" / "overrides.yaml", overrides});
  }
  return out;
}

std::string training_step_metadata_json(const Job& job, const StepInputs& in) {
  const DatasetSpec& d = job.dataset;
  const double record = dlio::nominal_record_bytes(d.sample_size);
  const std::uint64_t per_file = std::max<std::uint32_t>(d.samples_per_file, 1);
  const std::uint64_t subfolders =
      d.files_per_dir > 0 ? (in.files + d.files_per_dir - 1) / d.files_per_dir : 0;
  nlohmann::ordered_json j;
  j["benchmark_type"] = "training";
  j["command"] = in.command;
  j["model"] = job.name;
  j["args"] = {{"model", job.name},
               {"accelerator_type", in.accelerator},
               {"num_accelerators", in.accelerators},
               {"num_client_hosts", in.hosts},
               {"client_host_memory_in_gb", in.client_host_memory_gib},
               {"data_dir", d.dir.string()}};
  nlohmann::ordered_json dataset = {
      {"num_files_train", in.files},
      {"num_subfolders_train", subfolders},
      {"num_samples_per_file", per_file},
      {"record_length_bytes", record},
      {"total_disk_bytes",
       static_cast<std::uint64_t>(double(in.files) * double(per_file) * record)}};
  j["parameters"] = {{"dataset", dataset}, {"reader", {{"batch_size", job.reader.batch_size}}}};
  if (in.command == "datasize")
    j["sizing"] = {{"samples_for_steps", in.sizing.samples_for_steps},
                   {"samples_for_memory", in.sizing.samples_for_memory},
                   {"files", in.sizing.files}};
  return j.dump(2) + "\n";
}

std::string dlio_training_epoch_stats_json(const Report& report) {
  nlohmann::json j = nlohmann::json::object();
  for (const EpochResult& e : report.epochs_detail) {
    char d[32];
    std::snprintf(d, sizeof d, "%.2f", e.seconds);
    nlohmann::json x = {{"duration", d},
                        {"steps", e.steps},
                        {"samples", e.samples},
                        {"bytes", e.bytes},
                        {"au_percentage", e.au * 100},
                        {"throughput_samples_per_second", e.samples_per_s()},
                        {"io_MiB_per_second", e.mib_per_s()}};
    const std::string key = std::to_string(e.epoch);
    if (e.eval)
      j[key]["eval"] = x;
    else
      j[key].update(x);
  }
  return j.dump(2) + "\n";
}

Result<void> check_submission_free(const std::filesystem::path& dir, const SubmissionSpec& spec) {
  for (Division d : {Division::closed, Division::open, Division::invalid, Division::whatif}) {
    SubmissionSpec s = spec;
    s.division = d;
    s.runs.clear();
    Result<std::vector<SubmissionFile>> files = submission_files(s);
    if (!files) return files.error();
    for (const SubmissionFile& f : *files)
      if (f.path.filename() == "results.json" && std::filesystem::exists(dir / f.path))
        return input_error((dir / f.path).string() +
                           ": already there (an earlier submission's runs); give another "
                           "--results-dir or move it away");
  }
  return ok();
}

Result<void> write_submission(const std::filesystem::path& dir,
                              const std::vector<SubmissionFile>& files) {
  for (const SubmissionFile& f : files)
    if (f.path.filename() == "results.json" && std::filesystem::exists(dir / f.path))
      return input_error((dir / f.path).string() +
                         ": already there (an earlier submission's runs); give another "
                         "--results-dir or move it away");
  for (const SubmissionFile& f : files) {
    const std::filesystem::path p = dir / f.path;
    std::error_code ec;
    std::filesystem::create_directories(p.parent_path(), ec);
    if (ec) return runtime_error(p.parent_path().string() + ": " + ec.message());
    if (f.keep_existing && std::filesystem::exists(p)) continue;
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out << f.text;
    out.close();
    if (!out) return runtime_error(p.string() + ": cannot write: " + std::strerror(errno));
  }
  return ok();
}

}  // namespace dlgen::mlperf
