#pragma once
// Which edition of MLPerf Storage's rules `dlgen mlperf` applies (--rules v3.0, the default, or
// v2.0), and MLPerf Storage v3.0's tables: which workload x accelerator may be CLOSED or OPEN
// (everything else runs only as `whatif`), the AU each training workload must keep, the memory of
// each simulated accelerator and the size of each LLM checkpoint. Everything here works from the
// workload's and the accelerator's names, so a reference workload added later (retinanet, flux,
// dlrm, ...) is judged by these tables as soon as it exists. The rules as dlgen applies them,
// and where MLPerf's texts disagree: docs/mlperf-v3.md ("Rules").
#include <cstdint>
#include <string>
#include <vector>

#include "dlgen/core/result.hpp"
#include "dlgen/mlperf/mlperf.hpp"

namespace dlgen::mlperf {

// The edition is mlperf::Round (mlperf.hpp): one enum names both its workloads and its rules.
// "v3.0", "3.0", "v2.0", "2.0"; an input error naming the known ones otherwise.
Result<Round> parse_rules_version(const std::string& text);
// What `dlgen mlperf` applies when --rules is not given.
constexpr Round kDefaultRules = Round::v3_0;

// MLPerf Storage v3.0 (mlpstorage_py/rules/editions.yaml, edition "3.0"; config.py's
// MODELS_CLOSED x ACCELERATORS_CLOSED): CLOSED and OPEN training are unet3d and retinanet on
// b200 and mi355; every other training workload or accelerator runs only as `whatif`.
bool v3_closed_training(const std::string& workload, const std::string& accelerator);
// v3.0's CLOSED and OPEN accelerators (b200, mi355) and every accelerator it knows (with h100,
// a100: whatif only).
const std::vector<std::string>& v3_closed_accelerators();
const std::vector<std::string>& v3_accelerators();

// The AU a v3.0 training workload must keep in every measured run (Rules.md 3.3.2, the
// workload's metric.au): unet3d 0.90, retinanet 0.85, resnet50 0.90, cosmoflow 0.70, dlrm 0.70,
// flux 0.90; 0 when the workload is none of them.
double v3_au_threshold(const std::string& workload);

// Rules.md Table 3: the memory of one simulated accelerator, GB as the table gives it (b200 180,
// mi355 288, h100 80, a100 80); 0 when unknown.
double v3_accelerator_memory_gb(const std::string& accelerator);
// Rules.md Table 2: a checkpoint of the LLM workload ("llama3-8b" ...), in the table's units (GB
// labelled, binary GiB meant: 105, 912, 5.29 x 1024, 18 x 1024); 0 when unknown.
double v3_checkpoint_size_gb(const std::string& workload);
// Rules.md Table 2 / 4.6.1: the processes of a CLOSED checkpointing run (8, 64, 512, 1024).
std::uint32_t v3_checkpoint_processes(const std::string& workload);

// The v3.0 category of a verdict: CLOSED or OPEN stay so only for a workload x accelerator
// v3.0 admits (`closed` tells whether it does); otherwise the verdict becomes WHATIF with the
// reason. INVALID stays INVALID.
void apply_v3_category(bool closed, const std::string& what, Division& division,
                       std::vector<std::string>& reasons);

// Rule 4.7.1: a read-phase invocation must start within this many seconds of the write-phase
// invocation's end.
constexpr double kV3PhaseGapLimitS = 30.0;

// The write phase's record, kept in the checkpoint folder so that the read phase (another
// invocation, maybe another host) can judge rule 4.7.1: the workload, the job's hash and when
// the write phase ended (seconds since the epoch, and as text).
struct PhaseRecord {
  std::string workload, job_hash, host, end_text;
  double end_unix_s = 0;
  std::uint32_t writes = 0;
};
// The record's file in a checkpoint folder: <dir>/dlgen-checkpoint-phase.json.
std::string phase_record_name();
std::string phase_record_json(const PhaseRecord& r);
Result<PhaseRecord> parse_phase_record(const std::string& text, const std::string& where);

// Rule 4.7.1 on a read phase that started at `read_start_unix_s`: `record` is the write phase's
// (nullptr: none found, INVALID). A gap over 30 s is INVALID; a negative one is clock skew
// between the hosts, noted, not a violation. Returns the gap (0 without a record) and adds the
// reason or the note.
double judge_phase_gap(const PhaseRecord* record, double read_start_unix_s,
                       const std::string& record_path, Division& division,
                       std::vector<std::string>& reasons);

}  // namespace dlgen::mlperf
