// MLPerf Storage v2.0's checkpointing rules (mlperf_checkpoint.hpp; docs/mlperf.md): the
// references, the division, and the runs. Hosts' records are joined in checkpoint_hosts.cpp; the
// reports are mlperf_checkpoint_report.cpp.
#include "dlgen/mlperf/mlperf_checkpoint.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <tuple>

#include "dlgen/core/llm.hpp"
#include "dlgen/mlperf/rules.hpp"
#include "stats.hpp"

namespace dlgen::mlperf {
namespace {

// MLPerf Storage v2.0, Table 2 (and configs/dlio/workload/llama3_*.yaml): the model, its
// parallelism and ZeRO stage. MLPerf's configs leave DP to the process count; here it is the
// count the rules fix (8, 64, 512, 1024 processes).
struct Reference {
  const char* workload;
  LlmModel model;
};

LlmModel llama(std::uint32_t layers, std::uint64_t hidden, std::uint64_t ffn, std::uint32_t heads,
               std::uint32_t kv, std::uint32_t tp, std::uint32_t pp, std::uint32_t dp,
               std::uint32_t zero) {
  LlmModel m;
  m.num_layers = layers;
  m.hidden_size = hidden;
  m.ffn_hidden_size = ffn;
  m.vocab_size = 128256;
  m.attention_heads = heads;
  m.kv_heads = kv;
  m.datatype = DataType::fp16;
  m.optimizer_datatype = DataType::fp32;
  m.tensor = tp;
  m.pipeline = pp;
  m.data = dp;
  m.zero_stage = zero;
  return m;
}

const std::vector<Reference>& references() {
  static const std::vector<Reference> r = {
      {"llama3-8b", llama(32, 4096, 14336, 32, 8, 1, 1, 8, 3)},
      {"llama3-70b", llama(80, 8192, 28672, 128, 8, 8, 1, 8, 3)},
      {"llama3-405b", llama(126, 16384, 53248, 128, 8, 8, 32, 2, 1)},
      {"llama3-1t", llama(128, 25872, 98304, 192, 32, 8, 64, 2, 1)},
  };
  return r;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The figures of one phase of a run from its checkpoints' per-rank records.
MlperfCheckpointPhase phase_of(const std::vector<CheckpointPass>& passes) {
  MlperfCheckpointPhase ph;
  std::vector<double> dur, slow, agg;
  for (const CheckpointPass& p : passes) {
    const PassFigures f = pass_figures(p);
    ph.bytes += f.bytes;
    dur.push_back(f.duration_s);
    slow.push_back(f.slowest_rank_bps);
    agg.push_back(f.throughput_bps);
  }
  ph.checkpoints = static_cast<std::uint32_t>(passes.size());
  ph.duration_s = dlgen::mean(dur);
  ph.throughput_bps = dlgen::mean(slow);
  ph.aggregate_bps = dlgen::mean(agg);
  return ph;
}

std::string model_text(const LlmModel& m) {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "%u layers, hidden %llu, ffn %llu, vocab %llu, %u heads, %u kv heads, %s/%s, "
                "TP %u x PP %u, ZeRO %u",
                m.num_layers, static_cast<unsigned long long>(m.hidden_size),
                static_cast<unsigned long long>(m.ffn_hidden_size),
                static_cast<unsigned long long>(m.vocab_size), m.attention_heads, m.kv_heads,
                to_string(m.datatype), to_string(m.optimizer_datatype), m.tensor, m.pipeline,
                m.zero_stage);
  return buf;
}

}  // namespace

std::string mlperf_checkpoint_workload(const Job& job) {
  const std::string n = lower(job.name);
  if (n.find("llama") == std::string::npos) return "";
  // The size after the last separator: "llama3-70b", "llama_70b", "llama3_70b".
  const std::size_t cut = n.find_last_of("-_");
  const std::string size = cut == std::string::npos ? n : n.substr(cut + 1);
  for (const Reference& r : references())
    if (std::string(r.workload).substr(std::string("llama3-").size()) == size) return r.workload;
  return "";
}

Result<Job> mlperf_checkpoint_reference(const std::string& workload) {
  std::string known;
  for (const Reference& r : references()) {
    known += std::string(known.empty() ? "" : ", ") + r.workload;
    if (workload != r.workload) continue;
    Job j;
    j.name = r.workload;
    j.description = "MLPerf Storage v2.0 checkpointing reference";
    j.model = r.model;
    j.run.train = false;
    j.checkpoint.writes = 10;
    j.checkpoint.reads = 10;
    j.checkpoint.pause_s = 5;  // time_between_checkpoints
    j.checkpoint.fsync = true;
    j.checkpoint.mode = CheckpointMode::all;
    j.checkpoint.dir = std::string("checkpoints/") + r.workload;
    return j;
  }
  return input_error("no MLPerf Storage checkpointing reference named \"" + workload +
                     "\" (known: " + known + ")");
}

namespace {

// A division check as it goes: `invalid` for what neither CLOSED nor OPEN allows, `open` for what
// OPEN alone allows; every reason kept.
struct Verdict {
  DivisionCheck c;
  void invalid(const std::string& why) {
    c.division = Division::invalid;
    c.reasons.push_back(why + ": not allowed in CLOSED or OPEN");
  }
  void open(const std::string& why) {
    if (c.division == Division::closed) c.division = Division::open;
    c.reasons.push_back(why + ": allowed in OPEN only");
  }
};

// The job's model against the reference's, DP aside (`note` ends the reason); false when either
// has none, so nothing further can be compared.
bool judge_model(const Job& reference, const Job& job, const std::string& note, Verdict& v) {
  if (!reference.model) {
    v.c.division = Division::invalid;
    v.c.reasons.push_back("the reference has no model");
    return false;
  }
  const LlmModel& ref = *reference.model;
  if (!job.model) {
    v.invalid("model: none (reference " + model_text(ref) + ")");
    return false;
  }
  LlmModel shape = *job.model, ref_shape = ref;
  shape.data = ref_shape.data = 1;
  if (!(shape == ref_shape))
    v.invalid("model: " + model_text(*job.model) + " (reference " + model_text(ref) + note + ")");
  return true;
}

// The pause between checkpoints (time_between_checkpoints: fixed) and dlgen's request size (OPEN).
void judge_pause_and_request(const CheckpointSpec& k, const CheckpointSpec& rk, Verdict& v) {
  if (k.pause_s != rk.pause_s) {
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "checkpoint.pause: %gs (reference %gs, time_between_checkpoints)", k.pause_s,
                  rk.pause_s);
    v.invalid(buf);
  }
  if (k.write_size_bytes != rk.write_size_bytes)
    v.open("checkpoint.write_size: " + std::to_string(k.write_size_bytes) + " (reference " +
           std::to_string(rk.write_size_bytes) + "; dlgen's request size, DLIO has no such key)");
  if (k.read_size_bytes != rk.read_size_bytes)
    v.open("checkpoint.read_size: " + std::to_string(k.read_size_bytes) + " (reference " +
           std::to_string(rk.read_size_bytes) + "; dlgen's request size, DLIO has no such key)");
}

// v3.0's process count (4.3.5, 4.6.1, 4.6.2, 4.6.4): returns the processes the run simulates.
std::uint64_t judge_v3_processes(const std::string& workload, const Job& job, std::uint32_t hosts,
                                 Verdict& v) {
  const LlmModel& m = *job.model;
  const CheckpointSpec& k = job.checkpoint;
  if (k.mode == CheckpointMode::subset) {
    if (workload != "llama3-8b")
      v.invalid("checkpoint.mode: subset for " + workload +
                " (rule 4.3.5: subset mode is defined for llama3-8b only)");
    if (k.ranks_per_host != 8)
      v.invalid("checkpoint.ranks_per_host: " + std::to_string(k.ranks_per_host) +
                " in subset mode (rule 4.3.5: exactly 8 processes)");
    return k.ranks_per_host;
  }
  const std::uint64_t world = m.world(), closed = v3_checkpoint_processes(workload);
  const std::uint64_t tp_pp = std::uint64_t{m.tensor} * m.pipeline;
  if (world != closed) {
    const std::string what = "processes: " + std::to_string(world) + " (TP " +
                             std::to_string(m.tensor) + " x PP " + std::to_string(m.pipeline) +
                             " x DP " + std::to_string(m.data) + "; CLOSED runs exactly " +
                             std::to_string(closed) + ", rule 4.6.1)";
    if (tp_pp > 0 && world % tp_pp == 0)
      v.open(what + ", a multiple of TP x PP (rule 4.6.4)");
    else
      v.invalid(what);
  }
  const std::uint64_t per_host = world / std::max<std::uint32_t>(hosts, 1);
  if (per_host <= 4)
    v.invalid("processes per host: " + std::to_string(per_host) +
              " (rule 4.6.2: more than 4 simulated accelerators on each host)");
  return world;
}

// v3.0's rule 4.3.4: the accelerator declared, known, and its memory x the processes at least
// the workload's checkpoint (Tables 2 and 3, both in the tables' GB).
void judge_v3_memory(const std::string& workload, const std::string& accelerator,
                     std::uint64_t processes, Verdict& v) {
  if (accelerator.empty()) {
    v.invalid(
        "no simulated accelerator declared (--accelerator b200|mi355, or h100|a100 as "
        "whatif): rule 4.3.4 needs one");
    return;
  }
  const double memory = v3_accelerator_memory_gb(accelerator);
  if (memory <= 0) {
    v.invalid("--accelerator " + accelerator +
              ": not in Rules.md Table 3 (b200, mi355, h100, a100): rule 4.3.4 cannot be checked");
    return;
  }
  const double size = v3_checkpoint_size_gb(workload);
  if (double(processes) * memory < size) {
    char buf[240];
    std::snprintf(buf, sizeof buf,
                  "accelerator memory: %llu x %s at %.0f GB = %.0f GB, below the %s checkpoint "
                  "of %.0f GB (rule 4.3.4)",
                  static_cast<unsigned long long>(processes), accelerator.c_str(), memory,
                  double(processes) * memory, workload.c_str(), size);
    v.invalid(buf);
  }
}

}  // namespace

DivisionCheck check_checkpoint_division(const Job& reference, const Job& job, std::uint32_t runs) {
  Verdict v;
  if (!judge_model(reference, job, "", v)) return v.c;
  const LlmModel& ref = *reference.model;
  const LlmModel& m = *job.model;
  if (m.data != ref.data) {
    const std::string what = "model.data_parallel: " + std::to_string(m.data) + " (reference " +
                             std::to_string(ref.data) + "; " + std::to_string(m.world()) +
                             " processes)";
    if (m.data > ref.data)
      v.open(what + ", processes added in multiples of TP x PP");
    else
      v.invalid(what);
  }
  const CheckpointSpec& k = job.checkpoint;
  const CheckpointSpec& rk = reference.checkpoint;
  if (!k.fsync) v.invalid("checkpoint.fsync: false (the rules enforce fsync on every write)");
  // 10 written and 10 read; or one phase of a submission that runs them apart (Table 3: "10 or 0",
  // the write phase with no reads, then the read phase with no writes).
  const std::uint64_t writes = std::uint64_t{k.writes}, reads = std::uint64_t{k.reads};
  const bool both = writes == rk.writes && reads == rk.reads;
  const bool phase = (writes == rk.writes && reads == 0) || (writes == 0 && reads == rk.reads);
  if (!both && !phase)
    v.invalid("checkpoint.writes/reads: " + std::to_string(writes) + "/" + std::to_string(reads) +
              " over " + std::to_string(runs) + " run(s) (the rules fix " +
              std::to_string(rk.writes) + " written and " + std::to_string(rk.reads) +
              " read, or one of the two phases alone)");
  judge_pause_and_request(k, rk, v);
  const std::string workload = reference.name;
  if (k.mode == CheckpointMode::subset) {
    // v2.0 validation rule 4.3.5: a subset run has exactly 8 processes and is not the 8B model.
    if (k.ranks_per_host != 8)
      v.invalid("checkpoint.ranks_per_host: " + std::to_string(k.ranks_per_host) +
                " in subset mode (the rules ask for exactly 8)");
    if (workload == "llama3-8b") v.invalid("checkpoint.mode: subset for the 8B model");
  } else if (m.world() <= 4) {
    v.invalid("processes per host: " + std::to_string(m.world()) +
              " (the rules ask for more than 4)");
  }
  return v.c;
}

DivisionCheck check_checkpoint_division_v3(const Job& reference, const Job& job, std::uint32_t runs,
                                           const std::string& accelerator, std::uint32_t hosts) {
  Verdict v;
  if (!judge_model(reference, job, "; rule 4.3.3", v)) return v.c;
  const std::string workload = reference.name;
  judge_v3_memory(workload, accelerator, judge_v3_processes(workload, job, hosts, v), v);
  const CheckpointSpec& k = job.checkpoint;
  const CheckpointSpec& rk = reference.checkpoint;
  if (!k.fsync) v.invalid("checkpoint.fsync: false (rule 4.3.2: fsync on every checkpoint write)");
  // 10 written then 10 read, in one invocation or a write phase and a read phase (2.1.23, 4.7.1,
  // Table 3: "10 or 0" in CLOSED, any count in OPEN).
  const bool both = k.writes == rk.writes && k.reads == rk.reads;
  const bool phase =
      (k.writes == rk.writes && k.reads == 0) || (k.writes == 0 && k.reads == rk.reads);
  if (!both && !phase)
    v.open("checkpoint.writes/reads: " + std::to_string(k.writes) + "/" + std::to_string(k.reads) +
           " (CLOSED writes " + std::to_string(rk.writes) + " and reads " +
           std::to_string(rk.reads) + ", or one of the two phases alone: Table 3)");
  if (runs > 1)
    v.open(std::to_string(runs) +
           " invocations (rules 2.1.23 and 4.7.1: one combined invocation, or a write phase and "
           "a read phase; --runs 1)");
  judge_pause_and_request(k, rk, v);
  return v.c;
}

MlperfCheckpointRun reduce_checkpoint_run(const CheckpointRunResult& r, std::uint32_t index) {
  MlperfCheckpointRun run;
  run.index = index;
  std::size_t ranks = 0;
  for (const auto* phase : {&r.writes, &r.reads})
    for (const CheckpointPass& p : *phase) ranks = std::max(ranks, p.ranks.size());
  run.ranks = static_cast<std::uint32_t>(ranks);
  run.write = phase_of(r.writes);
  run.read = phase_of(r.reads);
  run.cache_dropped = r.cache_dropped;
  run.cache_note = r.cache_note;
  run.write_s3 = r.write_s3;
  run.read_s3 = r.read_s3;
  return run;
}

namespace {

// The job's totals must split evenly over the runs (MLPerf counts all runs' checkpoints together).
Result<void> check_split(const Job& job, const MlperfCheckpointOptions& o) {
  if (job.run.train)
    return input_error("mlperf: the checkpointing rules take a checkpoint-only job");
  if (o.runs < 1) return input_error("mlperf: at least one measured run");
  const CheckpointSpec& k = job.checkpoint;
  if (k.writes == 0 && k.reads == 0)
    return input_error(job.name + ": checkpoint.writes and checkpoint.reads are both 0");
  if (k.writes % o.runs != 0 || k.reads % o.runs != 0)
    return input_error(job.name + ": " + std::to_string(k.writes) + " checkpoints written and " +
                       std::to_string(k.reads) + " read do not split evenly over " +
                       std::to_string(o.runs) +
                       " runs; MLPerf counts the checkpoints of all runs together (give --runs "
                       "1, or a divisor of both)");
  return ok();
}

// The result before any run: what each run writes and reads, one checkpoint over every host's
// ranks (under mpirun, o.hosts shares of the job's ranks), and the division.
Result<MlperfCheckpointResult> describe(const Job& job, const Job* reference,
                                        const MlperfCheckpointOptions& o) {
  const CheckpointSpec& k = job.checkpoint;
  MlperfCheckpointResult r;
  r.workload = job.name;
  if (o.v3) {
    r.rules = to_string(Round::v3_0);
    r.accelerator = o.accelerator;
  }
  r.writes_per_run = k.writes / o.runs;
  r.reads_per_run = k.reads / o.runs;
  r.fsync = k.fsync;
  for (std::uint32_t h = 0; h < std::max(o.hosts, 1u); ++h) {
    Result<std::vector<RankShard>> shards = cluster_host_shards(job, h, o.hosts);
    if (!shards) return shards.error();
    r.checkpoint_bytes += checkpoint_bytes(*shards);
    r.ranks += static_cast<std::uint32_t>(shards->size());
  }
  r.hosts = std::max(o.hosts, 1u);
  if (reference) {
    r.reference = reference->name;
    const DivisionCheck d =
        o.v3 ? check_checkpoint_division_v3(*reference, job, o.runs, o.accelerator, r.hosts)
             : check_checkpoint_division(*reference, job, o.runs);
    r.division = d.division;
    r.reasons = d.reasons;
  } else {
    r.division = Division::invalid;
    r.reasons.push_back("no MLPerf Storage checkpointing workload named \"" + job.name +
                        "\" (llama3-8b, llama3-70b, llama3-405b, llama3-1t): results are for "
                        "information only");
  }
  return r;
}

// The measured runs, each writing (or reading) its own checkpoints, as one combined run would:
// run i starts at 1 + i x the larger of its writes and reads.
Result<void> run_all(const Job& job, const MlperfCheckpointRunner& run,
                     const MlperfCheckpointOptions& o, const MlperfCheckpointObserver& observe,
                     MlperfCheckpointResult& r) {
  Job per_run = job;
  per_run.checkpoint.writes = r.writes_per_run;
  per_run.checkpoint.reads = r.reads_per_run;
  const std::uint32_t stride = std::max({r.writes_per_run, r.reads_per_run, 1u});
  for (std::uint32_t i = 0; i < o.runs; ++i) {
    const std::uint32_t first = 1 + i * stride;
    Result<CheckpointRunResult> res = run(per_run, first);
    if (!res) return res.error();
    if (i == 0) r.per_host = res->hosts;
    MlperfCheckpointRun m = reduce_checkpoint_run(*res, i + 1);
    engine::merge_into(r.write_s3, m.write_s3);
    engine::merge_into(r.read_s3, m.read_s3);
    r.runs.push_back(m);
    if (observe) observe(m);
  }
  return ok();
}

// One phase's means over the runs (checkpoints and bytes: all runs'), and the largest deviation
// of a run's throughput from their mean.
MlperfCheckpointPhase summarise(const std::vector<MlperfCheckpointRun>& runs,
                                MlperfCheckpointPhase MlperfCheckpointRun::*phase,
                                double& deviation) {
  MlperfCheckpointPhase mean;
  std::vector<double> d, t, a;
  for (const MlperfCheckpointRun& m : runs) {
    const MlperfCheckpointPhase& p = m.*phase;
    mean.checkpoints += p.checkpoints;
    mean.bytes += p.bytes;
    d.push_back(p.duration_s);
    t.push_back(p.throughput_bps);
    a.push_back(p.aggregate_bps);
  }
  mean.duration_s = dlgen::mean(d);
  mean.throughput_bps = dlgen::mean(t);
  mean.aggregate_bps = dlgen::mean(a);
  deviation = 0;
  if (mean.throughput_bps > 0)
    for (double x : t)
      deviation = std::max(deviation, std::fabs(x - mean.throughput_bps) / mean.throughput_bps);
  return mean;
}

// The means, and runs that disagree by more than the limit make the result INVALID.
void judge_runs(const MlperfCheckpointOptions& o, MlperfCheckpointResult& r) {
  r.mean_write = summarise(r.runs, &MlperfCheckpointRun::write, r.write_deviation);
  r.mean_read = summarise(r.runs, &MlperfCheckpointRun::read, r.read_deviation);
  r.replicated =
      r.write_deviation <= o.replication_limit && r.read_deviation <= o.replication_limit;
  char buf[240];
  for (const auto& [name, dev, count] :
       {std::tuple{"write", r.write_deviation, r.mean_write.checkpoints},
        std::tuple{"read", r.read_deviation, r.mean_read.checkpoints}}) {
    if (count == 0 || dev <= o.replication_limit) continue;
    std::snprintf(buf, sizeof buf,
                  "runs disagree: %s throughput (slowest rank) up to %.1f%% from their mean "
                  "(limit %.0f%%)",
                  name, dev * 100, o.replication_limit * 100);
    r.reasons.push_back(buf);
    r.division = Division::invalid;
  }
}

}  // namespace

Result<MlperfCheckpointResult> run_mlperf_checkpoint(const Job& job, const Job* reference,
                                                     const MlperfCheckpointRunner& run,
                                                     const MlperfCheckpointOptions& o,
                                                     const MlperfCheckpointObserver& observe) {
  if (Result<void> split = check_split(job, o); !split) return split.error();
  Result<MlperfCheckpointResult> r = describe(job, reference, o);
  if (!r) return r.error();
  if (Result<void> ran = run_all(job, run, o, observe, *r); !ran) return ran.error();
  judge_runs(o, *r);
  if (o.v3) {
    const auto& closed = v3_closed_accelerators();
    apply_v3_category(std::find(closed.begin(), closed.end(), o.accelerator) != closed.end(),
                      r->workload + " on " + o.accelerator, r->division, r->reasons);
  }
  return r;
}

}  // namespace dlgen::mlperf
