// The hosts of a checkpoint-only run: how the job's simulated ranks are shared among them
// (cluster_host_shards), and how their records are joined (join_hosts, merge_rank_results).
#include "checkpoint_hosts.hpp"

#include <algorithm>
#include <cstdio>
#include "dlgen/core/json.hpp"

#include "dlgen/cluster/cluster_report.hpp"
#include "dlgen/core/llm.hpp"
#include "dlgen/mlperf/mlperf_checkpoint.hpp"
#include "dlgen/replay/rank_group.hpp"

namespace dlgen::mlperf {
namespace {

// One host's result as bytes for the all-gather that joins the hosts' records (JSON: small, and
// read back by the same build).
std::string host_result_bytes(const CheckpointRunResult& r) {
  using nlohmann::json;
  auto passes = [](const std::vector<CheckpointPass>& ps) {
    json a = json::array();
    for (const CheckpointPass& p : ps) {
      json ranks = json::array();
      for (const RankPass& rp : p.ranks) ranks.push_back({rp.rank, rp.bytes, rp.seconds});
      a.push_back({{"i", p.index}, {"r", ranks}});
    }
    return a;
  };
  json j;
  j["w"] = passes(r.writes);
  j["r"] = passes(r.reads);
  j["ranks"] = r.ranks;
  j["bytes"] = r.checkpoint_bytes;
  j["files"] = r.checkpoint_files;
  j["ram"] = r.ram_bytes;
  j["dropped"] = r.cache_dropped;
  j["note"] = r.cache_note;
  j["method"] = r.cache_method;
  j["resident"] = r.resident_fraction;
  j["notes"] = r.notes;
  if (r.write_s3) j["ws3"] = cluster::s3_counters_text(*r.write_s3);
  if (r.read_s3) j["rs3"] = cluster::s3_counters_text(*r.read_s3);
  const HostShare& h = r.hosts.front();
  j["host"] = h.host;
  j["first"] = h.first_rank;
  return j.dump();
}

CheckpointRunResult host_result_from(const std::string& bytes, const CheckpointRunResult& like) {
  using nlohmann::json;
  const json j = json::parse(bytes);
  CheckpointRunResult r = like;
  auto passes = [](const json& a) {
    std::vector<CheckpointPass> ps;
    for (const json& p : a) {
      CheckpointPass cp;
      cp.index = p["i"].get<std::uint32_t>();
      for (const json& rp : p["r"])
        cp.ranks.push_back(
            {rp[0].get<std::uint32_t>(), rp[1].get<std::uint64_t>(), rp[2].get<double>()});
      ps.push_back(std::move(cp));
    }
    return ps;
  };
  r.writes = passes(j["w"]);
  r.reads = passes(j["r"]);
  r.ranks = j["ranks"].get<std::uint32_t>();
  r.checkpoint_bytes = j["bytes"].get<std::uint64_t>();
  r.checkpoint_files = j["files"].get<std::uint64_t>();
  r.ram_bytes = j["ram"].get<std::uint64_t>();
  r.cache_dropped = j["dropped"].get<bool>();
  r.cache_note = j["note"].get<std::string>();
  r.cache_method = j["method"].get<std::string>();
  r.resident_fraction = j["resident"].get<double>();
  r.notes = j["notes"].get<std::vector<std::string>>();
  r.write_s3.reset();
  r.read_s3.reset();
  if (j.contains("ws3")) r.write_s3 = cluster::s3_counters_from_text(j["ws3"].get<std::string>());
  if (j.contains("rs3")) r.read_s3 = cluster::s3_counters_from_text(j["rs3"].get<std::string>());
  r.hosts = {HostShare{j["host"].get<std::string>(), j["first"].get<std::uint32_t>(), r.ranks,
                       r.checkpoint_bytes, r.checkpoint_files, r.ram_bytes, r.cache_dropped}};
  return r;
}

}  // namespace

Result<std::vector<RankShard>> cluster_host_shards(const Job& job, std::uint32_t host,
                                                   std::uint32_t hosts) {
  if (hosts <= 1) return host_shards(job);
  const CheckpointSpec& k = job.checkpoint;
  if (job.model && k.mode == CheckpointMode::subset) {
    const std::uint64_t world = job.model->world();
    const std::uint64_t per = std::min<std::uint64_t>(k.ranks_per_host, world);
    if (per * hosts > world)
      return input_error(job.name + ": subset mode: " + std::to_string(hosts) + " hosts x " +
                         std::to_string(per) + " ranks per host (checkpoint.ranks_per_host) is " +
                         "more than the model's " + std::to_string(world) +
                         " ranks (TP x PP x DP); run fewer hosts or mode = \"all\"");
    return rank_shards(*job.model, static_cast<std::uint32_t>(per * host),
                       static_cast<std::uint32_t>(per));
  }
  std::vector<RankShard> all = host_shards(job);
  if (all.size() % hosts != 0)
    return input_error(
        job.name + ": " + std::to_string(all.size()) +
        (job.model ? " ranks (the model's TP x PP x DP)" : " ranks (checkpoint.files)") +
        " do not split evenly over " + std::to_string(hosts) +
        " hosts (mpirun -np); every host runs the same number of ranks, so give a host count "
        "that divides them");
  const std::size_t per = all.size() / hosts;
  return std::vector<RankShard>(all.begin() + static_cast<std::ptrdiff_t>(per * host),
                                all.begin() + static_cast<std::ptrdiff_t>(per * (host + 1)));
}

CheckpointRunResult join_hosts(replay::RankGroup& cl, CheckpointRunResult out,
                               std::uint32_t first_rank) {
  out.hosts = {HostShare{cl.host(), first_rank, out.ranks, out.checkpoint_bytes,
                         out.checkpoint_files, out.ram_bytes, out.cache_dropped}};
  const std::vector<std::string> parts = cl.all_gather(host_result_bytes(out));
  std::vector<CheckpointRunResult> hosts;
  for (const std::string& part : parts) hosts.push_back(host_result_from(part, out));
  return merge_rank_results(hosts);
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
  out.write_s3.reset();
  out.read_s3.reset();
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
    engine::merge_into(out.write_s3, h.write_s3);
    engine::merge_into(out.read_s3, h.read_s3);
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
  } else if (out.cache_method == "object store") {  // every host read objects: no cache to drop
    out.cache_note = "nothing to drop on any of the " + std::to_string(hosts.size()) +
                     " hosts: the reads are GETs from the object store";
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

}  // namespace dlgen::mlperf
