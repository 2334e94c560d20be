// MLPerf Storage v3.0's tables (rules.hpp): the CLOSED workload x accelerator pairs, the AU
// minima, the accelerators' memory and the LLM checkpoints' sizes, the category of a verdict, and
// rule 4.7.1's window between a write phase and a read phase. Sources: mlcommons/storage
// Rules.md (Tables 2 and 3, 3.3.2, 4.3.4, 4.3.5, 4.6.1, 4.7.1), mlpstorage_py/config.py and
// mlpstorage_py/rules/editions.yaml (edition "3.0"), the workload configs' metric.au.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include "dlgen/core/json.hpp"

#include "dlgen/mlperf/rules.hpp"

namespace dlgen::mlperf {
namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

struct TrainingAu {
  const char* workload;
  double au;
};
// metric.au of each v3.0 workload config (configs/dlio/workload/*_b200.yaml, *_h100.yaml).
constexpr TrainingAu kAu[] = {{"unet3d", 0.90},    {"retinanet", 0.85}, {"resnet50", 0.90},
                              {"cosmoflow", 0.70}, {"dlrm", 0.70},      {"flux", 0.90}};

struct AcceleratorMemory {
  const char* accelerator;
  double gb;
};
constexpr AcceleratorMemory kMemory[] = {{"b200", 180}, {"mi355", 288}, {"h100", 80}, {"a100", 80}};

struct LlmCheckpoint {
  const char* workload;
  double size_gb;  // Table 2, binary units
  std::uint32_t processes;
};
constexpr LlmCheckpoint kCheckpoints[] = {{"llama3-8b", 105, 8},
                                          {"llama3-70b", 912, 64},
                                          {"llama3-405b", 5.29 * 1024, 512},
                                          {"llama3-1t", 18 * 1024, 1024}};

}  // namespace

Result<Round> parse_rules_version(const std::string& t) {
  if (t == "v3.0" || t == "3.0" || t == "v3") return Round::v3_0;
  if (t == "v2.0" || t == "2.0" || t == "v2") return Round::v2_0;
  return input_error("--rules " + t + ": expected v3.0 or v2.0");
}

const std::vector<std::string>& v3_closed_accelerators() {
  static const std::vector<std::string> a = {"b200", "mi355"};
  return a;
}

const std::vector<std::string>& v3_accelerators() {
  static const std::vector<std::string> a = {"b200", "mi355", "h100", "a100"};
  return a;
}

bool v3_closed_training(const std::string& workload, const std::string& accelerator) {
  static const std::vector<std::string> workloads = {"unet3d", "retinanet"};
  return contains(workloads, workload) && contains(v3_closed_accelerators(), accelerator);
}

double v3_au_threshold(const std::string& workload) {
  for (const TrainingAu& a : kAu)
    if (workload == a.workload) return a.au;
  return 0;
}

double v3_accelerator_memory_gb(const std::string& accelerator) {
  for (const AcceleratorMemory& m : kMemory)
    if (accelerator == m.accelerator) return m.gb;
  return 0;
}

double v3_checkpoint_size_gb(const std::string& workload) {
  for (const LlmCheckpoint& c : kCheckpoints)
    if (workload == c.workload) return c.size_gb;
  return 0;
}

std::uint32_t v3_checkpoint_processes(const std::string& workload) {
  for (const LlmCheckpoint& c : kCheckpoints)
    if (workload == c.workload) return c.processes;
  return 0;
}

void apply_v3_category(bool closed, const std::string& what, Division& division,
                       std::vector<std::string>& reasons) {
  if (closed || division == Division::invalid) return;
  division = Division::whatif;
  reasons.push_back(what +
                    ": MLPerf Storage v3.0 runs it only as whatif (CLOSED and OPEN: unet3d and "
                    "retinanet training, llama3 checkpointing, on b200 and mi355)");
}

std::string phase_record_name() {
  return "dlgen-checkpoint-phase.json";
}

std::string phase_record_json(const PhaseRecord& r) {
  nlohmann::ordered_json j;
  j["phase"] = "write";
  j["workload"] = r.workload;
  j["job_hash"] = r.job_hash;
  j["host"] = r.host;
  j["writes"] = r.writes;
  j["end"] = r.end_text;
  j["end_unix_s"] = r.end_unix_s;
  return j.dump(2) + "\n";
}

Result<PhaseRecord> parse_phase_record(const std::string& text, const std::string& where) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return input_error(where + ": not a JSON object (dlgen's write-phase record)");
  PhaseRecord r;
  try {
    r.workload = j.value("workload", "");
    r.job_hash = j.value("job_hash", "");
    r.host = j.value("host", "");
    r.end_text = j.value("end", "");
    r.writes = j.value("writes", 0u);
    if (!j.contains("end_unix_s") || !j["end_unix_s"].is_number())
      return input_error(where + ": end_unix_s: missing or not a number");
    r.end_unix_s = j["end_unix_s"].get<double>();
  } catch (const nlohmann::json::exception& e) {
    return input_error(where + ": " + e.what());
  }
  return r;
}

double judge_phase_gap(const PhaseRecord* record, double read_start_unix_s,
                       const std::string& record_path, Division& division,
                       std::vector<std::string>& reasons) {
  if (!record) {
    division = Division::invalid;
    reasons.push_back("read phase without a write phase: no " + record_path +
                      " (rule 4.7.1: the read phase follows a write phase within " +
                      std::to_string(int(kV3PhaseGapLimitS)) + " s)");
    return 0;
  }
  const double gap = read_start_unix_s - record->end_unix_s;
  char buf[320];
  if (gap < 0) {
    std::snprintf(buf, sizeof buf,
                  "note: the read phase started %.1f s before the write phase's recorded end "
                  "(%s): the hosts' clocks disagree (rule 4.7.1 reports it, not a violation)",
                  -gap, record->end_text.c_str());
    reasons.push_back(buf);
  } else if (gap > kV3PhaseGapLimitS) {
    division = Division::invalid;
    std::snprintf(buf, sizeof buf,
                  "read phase started %.1f s after the write phase ended (%s): rule 4.7.1 asks "
                  "for %.0f s at most",
                  gap, record->end_text.c_str(), kV3PhaseGapLimitS);
    reasons.push_back(buf);
  }
  return gap;
}

}  // namespace dlgen::mlperf
