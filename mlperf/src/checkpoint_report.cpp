// The checkpoint-only workflow's plan (--dry-run), progress lines, summary and JSON
// (checkpoint_workflow.hpp).
#include "checkpoint_report.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include "dlgen/core/json.hpp"

#include "dlgen/core/llm.hpp"
#include "dlgen/core/units.hpp"
#include "dlgen/replay/metrics.hpp"
#include "dlgen/replay/report.hpp"
#include "host_share_json.hpp"

namespace dlgen::mlperf {

std::string gib_s(double bps) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f GiB/s", bps / (1024.0 * 1024 * 1024));
  return buf;
}

std::string secs(double s) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f s", s);
  return buf;
}

void print_progress(const char* what, const CheckpointPass& p, std::uint32_t n, std::uint32_t of,
                    const char* scope) {
  const PassFigures f = pass_figures(p);
  std::fprintf(stderr, "dlgen: checkpoint %s %u/%u%s: %s in %s, %s (slowest rank %s)\n", what, n,
               of, scope, format_size(f.bytes).c_str(), secs(f.duration_s).c_str(),
               gib_s(f.throughput_bps).c_str(), gib_s(f.slowest_rank_bps).c_str());
}

std::string s3_lines(const std::optional<engine::S3Counters>& k, std::string_view phase) {
  return k ? replay::s3_summary_lines(replay::s3_result(*k, std::nullopt), phase) : "";
}

std::string s3_json(const engine::S3Counters& k) {
  return replay::s3_json_text(replay::s3_result(k, std::nullopt));
}

std::string format_checkpoint_plan(const Job& job) {
  const auto shards = host_shards(job);
  std::uint64_t files = 0;
  for (const auto& s : shards) files += s.files.size();
  const std::uint64_t bytes = checkpoint_bytes(shards);
  std::string out = job.name + ": checkpoint-only workflow (no dataset, no training)\n";
  if (job.model) {
    const LlmModel& m = *job.model;
    out += "  model        " + std::to_string(parameter_count(m)) + " parameters, TP " +
           std::to_string(m.tensor) + " x PP " + std::to_string(m.pipeline) + " x DP " +
           std::to_string(m.data) + ", ZeRO " + std::to_string(m.zero_stage) + ", " +
           to_string(m.datatype) + " weights, " + to_string(m.optimizer_datatype) +
           " optimizer state\n";
    out += "  world        " + format_size(checkpoint_bytes(rank_shards(m))) +
           " per checkpoint over " + std::to_string(m.world()) + " ranks\n";
  }
  out += "  this host    " + std::to_string(shards.size()) + " simulated ranks, " +
         format_size(bytes) + " in " + std::to_string(files) + " files per checkpoint\n";
  out += "  checkpoints  " + std::to_string(job.checkpoint.writes) + " written (" +
         format_size(bytes * job.checkpoint.writes) + "), " + std::to_string(job.checkpoint.reads) +
         " read back (" + format_size(bytes * job.checkpoint.reads) + "), fsync " +
         (job.checkpoint.fsync ? "on" : "off") + ", in " + job.checkpoint.dir.string() + "\n";
  return out;
}

std::string checkpoint_plan_json(const Job& job) {
  using nlohmann::json;
  const auto shards = host_shards(job);
  std::uint64_t files = 0;
  for (const auto& s : shards) files += s.files.size();
  json j;
  j["job"] = job.name;
  j["workflow"] = "checkpoint";
  j["checkpoint"] = {{"bytes", checkpoint_bytes(shards)},
                     {"files", files},
                     {"ranks", shards.size()},
                     {"writes", job.checkpoint.writes},
                     {"reads", job.checkpoint.reads},
                     {"fsync", job.checkpoint.fsync},
                     {"dir", job.checkpoint.dir.string()}};
  if (job.model) {
    j["model"] = {{"parameters", parameter_count(*job.model)},
                  {"world_ranks", job.model->world()},
                  {"world_bytes", checkpoint_bytes(rank_shards(*job.model))}};
  }
  json ranks = json::array();
  for (const auto& s : shards)
    ranks.push_back({{"rank", s.rank},
                     {"model_bytes", s.model_bytes},
                     {"optimizer_bytes", s.optimizer_bytes},
                     {"files", s.files.size()}});
  j["ranks"] = ranks;
  return j.dump(2) + "\n";
}

std::string format_checkpoint_summary(const CheckpointRunResult& r) {
  std::string out =
      r.job_name + ": checkpoint-only workflow, " + std::to_string(r.ranks) + " simulated rank(s)";
  if (r.parameters > 0)
    out += " of " + std::to_string(r.world_ranks) + ", " + std::to_string(r.parameters) +
           " parameters";
  if (!r.hosts.empty()) {
    out += " on " + std::to_string(r.hosts.size()) + " hosts (mpirun)";
    for (std::size_t i = 0; i < r.hosts.size(); ++i) {
      const HostShare& h = r.hosts[i];
      out += "\n  host " + std::to_string(i) + "       " + h.host + ": ranks " +
             std::to_string(h.first_rank) + ".." + std::to_string(h.first_rank + h.ranks - 1) +
             ", " + format_size(h.checkpoint_bytes) + " in " + std::to_string(h.checkpoint_files) +
             " files per checkpoint, RAM " + format_size(h.ram_bytes) + ", page cache " +
             (h.cache_dropped ? "dropped" : "kept");
    }
  }
  out += "\n  checkpoint   " + format_size(r.checkpoint_bytes) + " in " +
         std::to_string(r.checkpoint_files) + " files, fsync " + (r.fsync ? "on" : "off") +
         ", in " + r.dir.string() + "\n";
  auto phase = [&](const char* name, const std::vector<CheckpointPass>& passes) {
    if (passes.empty()) return;
    const PhaseFigures ph = phase_figures(passes);
    out += std::string("  ") + name + "        " + std::to_string(ph.count) + " x " +
           format_size(ph.count ? ph.bytes / ph.count : 0) + ": mean duration " +
           secs(ph.mean_duration_s) + " (slowest rank), mean " + gib_s(ph.mean_throughput_bps) +
           " (stdev " + gib_s(ph.stdev_throughput_bps) + "), overall " + gib_s(ph.throughput_bps) +
           ", slowest rank " + gib_s(ph.slowest_rank_bps) + "\n";
    for (const CheckpointPass& p : passes) {
      const PassFigures f = pass_figures(p);
      char line[256];
      std::snprintf(line, sizeof line, "    #%-3u %10s  %10s  slowest rank %u at %s\n", p.index,
                    secs(f.duration_s).c_str(), gib_s(f.throughput_bps).c_str(), f.slowest_rank,
                    gib_s(f.slowest_rank_bps).c_str());
      out += line;
    }
  };
  phase("write", r.writes);
  out += s3_lines(r.write_s3, "write: ");
  if (!r.reads.empty()) out += "  page cache   " + r.cache_note + "\n";
  phase("read ", r.reads);
  out += s3_lines(r.read_s3, "read: ");
  for (const auto& n : r.notes) out += "  note: " + n + "\n";
  return out;
}

std::string checkpoint_json(const CheckpointRunResult& r) {
  using nlohmann::json;
  auto phase = [](const std::vector<CheckpointPass>& passes) {
    const PhaseFigures ph = phase_figures(passes);
    json per = json::array();
    for (const CheckpointPass& p : passes) {
      const PassFigures f = pass_figures(p);
      json ranks = json::array();
      for (const RankPass& rp : p.ranks)
        ranks.push_back({{"rank", rp.rank}, {"bytes", rp.bytes}, {"seconds", rp.seconds}});
      per.push_back({{"index", p.index},
                     {"bytes", f.bytes},
                     {"duration_s", f.duration_s},
                     {"throughput_bytes_per_s", f.throughput_bps},
                     {"slowest_rank", f.slowest_rank},
                     {"slowest_rank_bytes_per_s", f.slowest_rank_bps},
                     {"ranks", ranks}});
    }
    return json{{"count", ph.count},
                {"bytes", ph.bytes},
                {"duration_s", ph.duration_s},
                {"throughput_bytes_per_s", ph.throughput_bps},
                {"mean_duration_s", ph.mean_duration_s},
                {"mean_throughput_bytes_per_s", ph.mean_throughput_bps},
                {"stdev_throughput_bytes_per_s", ph.stdev_throughput_bps},
                {"slowest_rank_bytes_per_s", ph.slowest_rank_bps},
                {"checkpoints", per}};
  };
  json j;
  j["job"] = r.job_name;
  j["workflow"] = "checkpoint";
  j["config"] = {{"ranks", r.ranks},
                 {"world_ranks", r.world_ranks},
                 {"parameters", r.parameters},
                 {"checkpoint_bytes", r.checkpoint_bytes},
                 {"checkpoint_files", r.checkpoint_files},
                 {"fsync", r.fsync},
                 {"dir", r.dir.string()},
                 {"ram_bytes", r.ram_bytes}};
  j["write"] = phase(r.writes);
  j["read"] = phase(r.reads);
  if (r.write_s3) j["write"]["s3"] = json::parse(s3_json(*r.write_s3));
  if (r.read_s3) j["read"]["s3"] = json::parse(s3_json(*r.read_s3));
  j["page_cache"] = {{"dropped", r.cache_dropped},
                     {"note", r.cache_note},
                     {"method", r.cache_method},
                     {"resident_fraction", r.resident_fraction}};
  j["notes"] = r.notes;
  if (!r.hosts.empty()) {  // under mpirun: what each host ran
    j["hosts"] = host_shares_json(r.hosts);
  }
  return j.dump(2) + "\n";
}

Result<void> write_checkpoint_json(const CheckpointRunResult& r,
                                   const std::filesystem::path& path) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f)
    return runtime_error(path.string() + ": cannot open for writing: " + std::strerror(errno));
  f << checkpoint_json(r);
  f.close();
  if (!f) return runtime_error(path.string() + ": write failed");
  return ok();
}

}  // namespace dlgen::mlperf
