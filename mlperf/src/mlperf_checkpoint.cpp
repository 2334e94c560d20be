// MLPerf Storage v2.0's checkpointing rules (mlperf_checkpoint.hpp; docs/mlperf.md).
#include "dlgen/mlperf/mlperf_checkpoint.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "dlgen/core/llm.hpp"
#include "host_share_json.hpp"
#include "mlperf_html.hpp"

namespace dlgen::mlperf {
namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;

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

double mean_of(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? 0 : s / double(v.size());
}

double stdev_of(const std::vector<double>& v) {  // population, as numpy's np.std
  const double m = mean_of(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return v.empty() ? 0 : std::sqrt(s / double(v.size()));
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
  ph.duration_s = mean_of(dur);
  ph.throughput_bps = mean_of(slow);
  ph.aggregate_bps = mean_of(agg);
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

DivisionCheck check_checkpoint_division(const Job& reference, const Job& job, std::uint32_t runs) {
  DivisionCheck c;
  auto invalid = [&](const std::string& why) {
    c.division = Division::invalid;
    c.reasons.push_back(why + ": not allowed in CLOSED or OPEN");
  };
  auto open = [&](const std::string& why) {
    if (c.division == Division::closed) c.division = Division::open;
    c.reasons.push_back(why + ": allowed in OPEN only");
  };
  if (!reference.model) {
    c.division = Division::invalid;
    c.reasons.push_back("the reference has no model");
    return c;
  }
  const LlmModel& ref = *reference.model;
  if (!job.model) {
    invalid("model: none (reference " + model_text(ref) + ")");
    return c;
  }
  const LlmModel& m = *job.model;
  LlmModel shape = m, ref_shape = ref;
  shape.data = ref_shape.data = 1;
  if (!(shape == ref_shape))
    invalid("model: " + model_text(m) + " (reference " + model_text(ref) + ")");
  if (m.data != ref.data) {
    const std::string what = "model.data_parallel: " + std::to_string(m.data) + " (reference " +
                             std::to_string(ref.data) + "; " + std::to_string(m.world()) +
                             " processes)";
    if (m.data > ref.data)
      open(what + ", processes added in multiples of TP x PP");
    else
      invalid(what);
  }
  const CheckpointSpec& k = job.checkpoint;
  const CheckpointSpec& rk = reference.checkpoint;
  if (!k.fsync) invalid("checkpoint.fsync: false (the rules enforce fsync on every write)");
  // 10 written and 10 read; or one phase of a submission that runs them apart (Table 3: "10 or 0",
  // the write phase with no reads, then the read phase with no writes).
  const std::uint64_t writes = std::uint64_t{k.writes}, reads = std::uint64_t{k.reads};
  const bool both = writes == rk.writes && reads == rk.reads;
  const bool phase = (writes == rk.writes && reads == 0) || (writes == 0 && reads == rk.reads);
  if (!both && !phase)
    invalid("checkpoint.writes/reads: " + std::to_string(writes) + "/" + std::to_string(reads) +
            " over " + std::to_string(runs) + " run(s) (the rules fix " +
            std::to_string(rk.writes) + " written and " + std::to_string(rk.reads) +
            " read, or one of the two phases alone)");
  if (k.pause_s != rk.pause_s) {
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "checkpoint.pause: %gs (reference %gs, time_between_checkpoints)", k.pause_s,
                  rk.pause_s);
    invalid(buf);
  }
  if (k.write_size_bytes != rk.write_size_bytes)
    open("checkpoint.write_size: " + std::to_string(k.write_size_bytes) + " (reference " +
         std::to_string(rk.write_size_bytes) + "; dlgen's request size, DLIO has no such key)");
  const std::string workload = reference.name;
  if (k.mode == CheckpointMode::subset) {
    // v2.0 validation rule 4.3.5: a subset run has exactly 8 processes and is not the 8B model.
    if (k.ranks_per_host != 8)
      invalid("checkpoint.ranks_per_host: " + std::to_string(k.ranks_per_host) +
              " in subset mode (the rules ask for exactly 8)");
    if (workload == "llama3-8b") invalid("checkpoint.mode: subset for the 8B model");
  } else if (m.world() <= 4) {
    invalid("processes per host: " + std::to_string(m.world()) +
            " (the rules ask for more than 4)");
  }
  return c;
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
  return run;
}

CheckpointRunResult merge_rank_results(const std::vector<CheckpointRunResult>& hosts) {
  CheckpointRunResult out;
  if (hosts.empty()) return out;
  out = hosts.front();
  if (hosts.size() == 1) return out;
  out.writes.clear();
  out.reads.clear();
  out.hosts.clear();
  out.ranks = 0;
  out.checkpoint_bytes = 0;
  out.checkpoint_files = 0;
  out.ram_bytes = 0;
  out.cache_dropped = true;
  auto merge = [](std::vector<CheckpointPass>& into, const std::vector<CheckpointPass>& from) {
    for (const CheckpointPass& p : from) {
      auto at = std::find_if(into.begin(), into.end(),
                             [&](const CheckpointPass& q) { return q.index == p.index; });
      if (at == into.end()) {
        into.push_back(p);
      } else {
        at->ranks.insert(at->ranks.end(), p.ranks.begin(), p.ranks.end());
      }
    }
  };
  std::vector<std::string> kept;  // hosts that could not drop the cache
  for (const CheckpointRunResult& h : hosts) {
    merge(out.writes, h.writes);
    merge(out.reads, h.reads);
    out.ranks += h.ranks;
    out.checkpoint_bytes += h.checkpoint_bytes;
    out.checkpoint_files += h.checkpoint_files;
    out.ram_bytes += h.ram_bytes;  // the clients' RAM together
    out.cache_dropped = out.cache_dropped && h.cache_dropped;
    out.resident_fraction = std::max(out.resident_fraction, h.resident_fraction);
    if (h.cache_method != out.cache_method) out.cache_method = "mixed";
    if (!h.cache_dropped)
      kept.push_back(h.hosts.empty() ? std::to_string(kept.size()) : h.hosts.front().host);
    out.hosts.insert(out.hosts.end(), h.hosts.begin(), h.hosts.end());
  }
  auto by_index = [](const CheckpointPass& a, const CheckpointPass& b) {
    return a.index < b.index;
  };
  auto by_rank = [](const RankPass& a, const RankPass& b) { return a.rank < b.rank; };
  for (auto* phase : {&out.writes, &out.reads}) {
    std::sort(phase->begin(), phase->end(), by_index);
    for (CheckpointPass& p : *phase) std::sort(p.ranks.begin(), p.ranks.end(), by_rank);
  }
  const bool read = std::any_of(hosts.begin(), hosts.end(),
                                [](const CheckpointRunResult& h) { return !h.cache_note.empty(); });
  if (!read) {  // no reads: no rule applied
    out.cache_dropped = false;
    out.cache_note.clear();
  } else if (out.cache_dropped) {
    char resident[64];
    std::snprintf(resident, sizeof resident, "%.1f%%", 100 * out.resident_fraction);
    out.cache_note = "dropped before the reads on each of the " + std::to_string(hosts.size()) +
                     " hosts (each host's checkpoint bytes < 3 x its RAM; " + out.cache_method +
                     "; mincore: at most " + resident +
                     " of a host's files resident before the "
                     "reads)";
  } else if (kept.size() < hosts.size()) {
    std::string names;
    for (const std::string& k : kept) names += (names.empty() ? "" : ", ") + k;
    out.cache_note = "not dropped on " + names +
                     " (that host's checkpoint bytes >= 3 x its RAM, MLPerf's rule); dropped on "
                     "the others";
  } else {
    out.cache_note = "not dropped on any of the " + std::to_string(hosts.size()) +
                     " hosts (each host's checkpoint bytes >= 3 x its RAM, MLPerf's rule)";
  }
  return out;
}

Result<MlperfCheckpointResult> run_mlperf_checkpoint(const Job& job, const Job* reference,
                                                     const MlperfCheckpointRunner& run,
                                                     const MlperfCheckpointOptions& o,
                                                     const MlperfCheckpointObserver& observe) {
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
  MlperfCheckpointResult r;
  r.workload = job.name;
  r.writes_per_run = k.writes / o.runs;
  r.reads_per_run = k.reads / o.runs;
  r.fsync = k.fsync;
  // One checkpoint over every host's ranks (under mpirun, o.hosts shares of the job's ranks).
  for (std::uint32_t h = 0; h < std::max(o.hosts, 1u); ++h) {
    Result<std::vector<RankShard>> shards = cluster_host_shards(job, h, o.hosts);
    if (!shards) return shards.error();
    r.checkpoint_bytes += checkpoint_bytes(*shards);
    r.ranks += static_cast<std::uint32_t>(shards->size());
  }
  r.hosts = std::max(o.hosts, 1u);
  if (reference) {
    r.reference = reference->name;
    const DivisionCheck d = check_checkpoint_division(*reference, job, o.runs);
    r.division = d.division;
    r.reasons = d.reasons;
  } else {
    r.division = Division::invalid;
    r.reasons.push_back("no MLPerf Storage checkpointing workload named \"" + job.name +
                        "\" (llama3-8b, llama3-70b, llama3-405b, llama3-1t): results are for "
                        "information only");
  }
  Job per_run = job;
  per_run.checkpoint.writes = r.writes_per_run;
  per_run.checkpoint.reads = r.reads_per_run;
  // Each run writes (or reads) its own checkpoints, as one combined run would: run i starts at
  // 1 + i x the larger of its writes and reads.
  const std::uint32_t stride = std::max({r.writes_per_run, r.reads_per_run, 1u});
  for (std::uint32_t i = 0; i < o.runs; ++i) {
    const std::uint32_t first = 1 + i * stride;
    Result<CheckpointRunResult> res = run(per_run, first);
    if (!res) return res.error();
    if (i == 0) r.per_host = res->hosts;
    MlperfCheckpointRun m = reduce_checkpoint_run(*res, i + 1);
    r.runs.push_back(m);
    if (observe) observe(m);
  }
  auto summarise = [&](MlperfCheckpointPhase MlperfCheckpointRun::*phase, double& deviation) {
    MlperfCheckpointPhase mean;
    std::vector<double> d, t, a;
    for (const MlperfCheckpointRun& m : r.runs) {
      const MlperfCheckpointPhase& p = m.*phase;
      mean.checkpoints += p.checkpoints;
      mean.bytes += p.bytes;
      d.push_back(p.duration_s);
      t.push_back(p.throughput_bps);
      a.push_back(p.aggregate_bps);
    }
    mean.duration_s = mean_of(d);
    mean.throughput_bps = mean_of(t);
    mean.aggregate_bps = mean_of(a);
    deviation = 0;
    if (mean.throughput_bps > 0)
      for (double x : t)
        deviation = std::max(deviation, std::fabs(x - mean.throughput_bps) / mean.throughput_bps);
    return mean;
  };
  r.mean_write = summarise(&MlperfCheckpointRun::write, r.write_deviation);
  r.mean_read = summarise(&MlperfCheckpointRun::read, r.read_deviation);
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
  return r;
}

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
  j["config"] = {{"ranks", r.ranks},
                 {"hosts", r.hosts},
                 {"checkpoint_bytes", r.checkpoint_bytes},
                 {"writes_per_run", r.writes_per_run},
                 {"reads_per_run", r.reads_per_run},
                 {"fsync", r.fsync}};
  json runs = json::array();
  for (const MlperfCheckpointRun& m : r.runs)
    runs.push_back({{"run", m.index},
                    {"ranks", m.ranks},
                    {"write", phase(m.write)},
                    {"read", phase(m.read)},
                    {"cache_dropped", m.cache_dropped},
                    {"cache_note", m.cache_note}});
  j["runs"] = runs;
  if (!r.per_host.empty()) {
    j["per_host"] = host_shares_json(r.per_host);
  }
  j["mean"] = {{"write", phase(r.mean_write)}, {"read", phase(r.mean_read)}};
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
    m[p + "_checkpoint_io_mean_GB_per_second"] = mean_of(io);
    m[p + "_checkpoint_io_stdev_GB_per_second"] = stdev_of(io);
    m[p + "_checkpoint_duration_mean_seconds"] = mean_of(dur);
    m[p + "_checkpoint_duration_stdev_seconds"] = stdev_of(dur);
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
         return mean_of(v);
       }()},
      {"load_checkpoint_slowest_rank_mean_GiB_per_second",
       [&] {
         std::vector<double> v;
         for (const CheckpointPass& p : r.reads)
           v.push_back(pass_figures(p).slowest_rank_bps / kGiB);
         return mean_of(v);
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
