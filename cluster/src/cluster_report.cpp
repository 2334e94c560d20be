#include "dlgen/cluster/cluster_report.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include "dlgen/core/json.hpp"
#include <set>
#include <tuple>
#include <utility>

#include "cluster_s3.hpp"
#include "dlgen/core/job_io.hpp"
#include "dlgen/core/printf_text.hpp"
#include "dlgen/core/units.hpp"
#include "dlgen/replay/metrics.hpp"

namespace dlgen::cluster {

using replay::PassFigures;
using replay::RealClock;

namespace {

using nlohmann::json;

json to_j(const RankResult& r) {
  json accs = json::array();
  for (const auto& a : r.per_accelerator)
    accs.push_back(
        {a.id, a.steps, a.samples, a.compute_s, a.wall_s, a.first_wait_s, a.wait_s, a.au});
  json passes = json::array();
  for (const RankEpoch& p : r.passes)
    passes.push_back(
        {p.epoch, p.eval, p.begin_s, p.end_s, p.steps, p.samples, p.bytes, p.requests, p.au});
  json j = {
      {"rank", r.rank},
      {"host", r.host},
      {"accelerators", r.accelerators},
      {"samples", r.samples},
      {"eval_samples", r.eval_samples},
      {"steps", r.steps},
      {"bytes_read", r.bytes_read},
      {"train_bytes", r.train_bytes},
      {"eval_bytes", r.eval_bytes},
      {"requests", r.requests},
      {"files_opened", r.files_opened},
      {"elapsed_s", r.elapsed_s},
      {"train_seconds", r.train_seconds},
      {"eval_seconds", r.eval_seconds},
      {"begin_s", r.begin_s},
      {"end_s", r.end_s},
      {"passes", passes},
      {"samples_per_s", r.samples_per_s},
      {"eval_samples_per_s", r.eval_samples_per_s},
      {"mib_per_s", r.mib_per_s},
      {"train_mib_per_s", r.train_mib_per_s},
      {"eval_mib_per_s", r.eval_mib_per_s},
      {"au", r.au},
      {"au_mean", r.au_mean},
      {"au_applicable", r.au_applicable},
      {"au_threshold", r.au_threshold},
      {"cpu",
       {r.cpu.user_s, r.cpu.system_s, r.cpu.cpus, r.cpu.process_percent, r.cpu.host_busy_percent}},
      {"client_bound", r.client_bound},
      {"per_accelerator", accs},
      {"checkpoint_bytes", r.checkpoint_bytes},
      {"checkpoint_seconds", r.checkpoint_seconds},
      {"restore_bytes", r.restore_bytes},
      {"restore_s", r.restore_s},
      {"warnings", r.warnings}};
  j["latency"] = histogram_to_j(r.latency);
  if (r.s3) j["s3"] = s3_to_j(*r.s3);
  if (r.s3_checkpoint) j["s3_checkpoint"] = s3_to_j(*r.s3_checkpoint);
  return j;
}

RankResult from_j(const json& j) {
  RankResult r;
  r.rank = j.at("rank");
  r.host = j.at("host");
  r.accelerators = j.at("accelerators");
  r.samples = j.at("samples");
  r.eval_samples = j.at("eval_samples");
  r.steps = j.at("steps");
  r.bytes_read = j.at("bytes_read");
  r.train_bytes = j.at("train_bytes");
  r.eval_bytes = j.at("eval_bytes");
  r.requests = j.at("requests");
  r.files_opened = j.at("files_opened");
  r.elapsed_s = j.at("elapsed_s");
  r.train_seconds = j.at("train_seconds");
  r.eval_seconds = j.at("eval_seconds");
  r.begin_s = j.at("begin_s");
  r.end_s = j.at("end_s");
  for (const json& p : j.at("passes"))
    r.passes.push_back(
        {p.at(0), p.at(1), p.at(2), p.at(3), p.at(4), p.at(5), p.at(6), p.at(7), p.at(8)});
  r.samples_per_s = j.at("samples_per_s");
  r.eval_samples_per_s = j.at("eval_samples_per_s");
  r.mib_per_s = j.at("mib_per_s");
  r.train_mib_per_s = j.at("train_mib_per_s");
  r.eval_mib_per_s = j.at("eval_mib_per_s");
  r.au = j.at("au");
  r.au_mean = j.at("au_mean");
  r.au_applicable = j.at("au_applicable");
  r.au_threshold = j.at("au_threshold");
  const json& c = j.at("cpu");
  r.cpu = {c.at(0), c.at(1), c.at(2), c.at(3), c.at(4)};
  r.client_bound = j.at("client_bound");
  for (const json& a : j.at("per_accelerator"))
    r.per_accelerator.push_back(
        {a.at(0), a.at(1), a.at(2), a.at(3), a.at(4), a.at(5), a.at(6), a.at(7)});
  r.checkpoint_bytes = j.at("checkpoint_bytes").get<std::vector<std::uint64_t>>();
  r.checkpoint_seconds = j.at("checkpoint_seconds").get<std::vector<double>>();
  r.restore_bytes = j.at("restore_bytes");
  r.restore_s = j.at("restore_s");
  r.warnings = j.at("warnings").get<std::vector<std::string>>();
  if (j.contains("latency")) r.latency = histogram_from_j(j.at("latency"));
  if (j.contains("s3")) r.s3 = s3_from_j(j.at("s3"));
  if (j.contains("s3_checkpoint")) r.s3_checkpoint = s3_from_j(j.at("s3_checkpoint"));
  return r;
}

double per_s(double amount, double seconds) {
  return seconds > 0 ? amount / seconds : 0;
}

// The passes of some ranks together: pass i is every rank's i-th pass (the ranks run one job, so
// the same passes in the same order; all stop together at run.max_time), lasting from the earliest
// rank's start to the latest rank's end on the common clock.
std::vector<EpochResult> common_passes(const std::vector<const RankResult*>& ranks) {
  std::size_t count = 0;
  for (const RankResult* r : ranks) count = std::max(count, r->passes.size());
  std::vector<EpochResult> out;
  for (std::size_t i = 0; i < count; ++i) {
    EpochResult e;
    double begin = 0, end = 0, au_sum = 0;
    std::uint64_t accelerators = 0;
    bool first = true;
    for (const RankResult* r : ranks) {
      if (i >= r->passes.size()) continue;
      const RankEpoch& p = r->passes[i];
      e.epoch = p.epoch;
      e.eval = p.eval;
      begin = first ? p.begin_s : std::min(begin, p.begin_s);
      end = first ? p.end_s : std::max(end, p.end_s);
      first = false;
      e.steps = std::max(e.steps, p.steps);
      e.samples += p.samples;
      e.bytes += p.bytes;
      e.requests += p.requests;
      au_sum += p.au * r->accelerators;
      accelerators += r->accelerators;
    }
    e.seconds = std::max(0.0, end - begin);
    e.begin_ns = static_cast<std::int64_t>(begin * 1e9);
    e.end_ns = static_cast<std::int64_t>(end * 1e9);
    e.au = accelerators > 0 ? au_sum / static_cast<double>(accelerators) : 0;
    out.push_back(e);
  }
  return out;
}

// Training and evaluation seconds of common passes.
std::pair<double, double> pass_seconds(const std::vector<EpochResult>& passes) {
  double train = 0, eval = 0;
  for (const EpochResult& e : passes) (e.eval ? eval : train) += e.seconds;
  return {train, eval};
}

}  // namespace

std::string job_fingerprint(const Job& job) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const unsigned char c : to_toml(job)) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

Result<void> check_same_job(Cluster& cluster, const Job& job) {
  if (cluster.size() <= 1) return ok();
  const std::string mine = job_fingerprint(job) + " " + cluster.host();
  const std::vector<std::string> all = cluster.all_gather(mine);
  const std::string first = all[0].substr(0, 16);
  std::string differ;
  for (std::size_t r = 1; r < all.size(); ++r)
    if (all[r].substr(0, 16) != first)
      differ += (differ.empty() ? "" : ", ") + std::string("rank ") + std::to_string(r) + " (" +
                all[r].substr(std::min<std::size_t>(17, all[r].size())) + ")";
  if (differ.empty()) return ok();
  return input_error("the ranks hold different jobs: " + differ + " differ from rank 0 (" +
                     all[0].substr(std::min<std::size_t>(17, all[0].size())) +
                     ", job fingerprint " + first +
                     "); every rank must run the same job file with the same --scale and --set "
                     "options");
}

std::vector<HostRow> host_rows(const ClusterResult& c) {
  std::vector<HostRow> rows;
  std::vector<std::vector<const RankResult*>> members;
  for (const RankResult& r : c.per_rank) {
    auto it =
        std::find_if(rows.begin(), rows.end(), [&](const HostRow& h) { return h.host == r.host; });
    if (it == rows.end()) {
      rows.push_back({r.host});
      rows.back().au = 1;
      members.emplace_back();
      it = rows.end() - 1;
    }
    members[static_cast<std::size_t>(it - rows.begin())].push_back(&r);
    it->ranks += 1;
    it->accelerators += r.accelerators;
    it->samples += r.samples;
    it->bytes += r.bytes_read;
    it->au = std::min(it->au, r.au);
  }
  for (std::size_t h = 0; h < rows.size(); ++h) {
    const auto [train, eval] = pass_seconds(common_passes(members[h]));
    std::uint64_t train_samples = 0;
    for (const RankResult* r : members[h]) train_samples += r->samples;
    rows[h].samples_per_s = per_s(static_cast<double>(train_samples), train);
    rows[h].mib_per_s = per_s(static_cast<double>(rows[h].bytes) / 1048576.0, train + eval);
  }
  return rows;
}

RankResult rank_result(const Report& rep, std::uint32_t rank, std::string host,
                       std::int64_t sync_ns) {
  auto at = [sync_ns](std::int64_t ns) { return static_cast<double>(ns - sync_ns) / 1e9; };
  RankResult r;
  r.rank = rank;
  r.host = std::move(host);
  r.accelerators = rep.accelerators;
  r.samples = rep.samples;
  r.eval_samples = rep.eval_samples;
  r.steps = rep.steps;
  r.bytes_read = rep.bytes_read;
  r.train_bytes = rep.train_bytes;
  r.eval_bytes = rep.eval_bytes;
  r.requests = rep.requests;
  r.files_opened = rep.files_opened;
  r.elapsed_s = rep.elapsed_s;
  r.train_seconds = rep.train_seconds;
  r.eval_seconds = rep.eval_seconds;
  r.begin_s = at(rep.begin_ns);
  r.end_s = at(rep.end_ns);
  for (const EpochResult& e : rep.epochs_detail)
    r.passes.push_back({e.epoch, e.eval, at(e.begin_ns), at(e.end_ns), e.steps, e.samples, e.bytes,
                        e.requests, e.au});
  r.samples_per_s = rep.samples_per_s;
  r.eval_samples_per_s = rep.eval_samples_per_s;
  r.mib_per_s = rep.mib_per_s;
  r.train_mib_per_s = rep.train_mib_per_s;
  r.eval_mib_per_s = rep.eval_mib_per_s;
  r.au = rep.au;
  r.au_mean = rep.au_mean;
  r.au_applicable = rep.au_applicable;
  r.au_threshold = rep.au_threshold;
  r.cpu = rep.cpu;
  r.client_bound = rep.client_bound;
  r.per_accelerator = rep.per_accelerator;
  r.checkpoint_bytes = rep.checkpoint.write_bytes;
  r.checkpoint_seconds = rep.checkpoint.write_seconds;
  r.restore_bytes = rep.checkpoint.restore_bytes;
  r.restore_s = rep.checkpoint.restore_s;
  r.warnings = rep.warnings;
  r.latency = rep.latency_histogram;
  if (rep.s3) {
    r.s3 = rep.s3->wire;
    r.s3_checkpoint = rep.s3->checkpoint_wire;
  }
  return r;
}

ClusterResult reduce_ranks(std::vector<RankResult> ranks) {
  ClusterResult c;
  std::sort(ranks.begin(), ranks.end(),
            [](const RankResult& a, const RankResult& b) { return a.rank < b.rank; });
  c.ranks = static_cast<std::uint32_t>(ranks.size());
  std::set<std::string> hosts;
  double au_sum = 0;
  std::uint64_t accelerators = 0;
  c.au = ranks.empty() ? 0 : 1;
  for (const RankResult& r : ranks) {
    hosts.insert(r.host);
    c.samples += r.samples;
    c.eval_samples += r.eval_samples;
    c.bytes_read += r.bytes_read;
    c.train_bytes += r.train_bytes;
    c.eval_bytes += r.eval_bytes;
    c.requests += r.requests;
    c.files_opened += r.files_opened;
    c.steps = std::max(c.steps, r.steps);
    // A rank's AU is already the lowest of its accelerators (each judged over its own host's
    // run), so the lowest rank AU is the lowest accelerator anywhere.
    if (r.au < c.au) {
      c.au = r.au;
      c.au_rank = r.rank;
    }
    au_sum += r.au_mean * r.accelerators;
    accelerators += r.accelerators;
    c.au_applicable = c.au_applicable && r.au_applicable;
    c.client_bound = c.client_bound || r.client_bound;
    c.restore_bytes += r.restore_bytes;
    c.restore_s = std::max(c.restore_s, r.restore_s);
    engine::merge_into(c.s3, r.s3);
    engine::merge_into(c.s3_checkpoint, r.s3_checkpoint);
    c.latency.merge(r.latency);
  }
  c.au_mean = accelerators > 0 ? au_sum / static_cast<double>(accelerators) : 0;
  c.hosts = static_cast<std::uint32_t>(hosts.size());
  // Rates: the summed counts over the cluster's own seconds (never the sum of the ranks' rates,
  // which counts each rank's window as if it were everyone's).
  std::vector<const RankResult*> all;
  for (const RankResult& r : ranks) all.push_back(&r);
  c.epochs = common_passes(all);
  std::tie(c.train_seconds, c.eval_seconds) = pass_seconds(c.epochs);
  if (!ranks.empty()) {
    double begin = ranks.front().begin_s, end = ranks.front().end_s;
    for (const RankResult& r : ranks) {
      begin = std::min(begin, r.begin_s);
      end = std::max(end, r.end_s);
    }
    c.elapsed_s = std::max(0.0, end - begin);
  }
  c.samples_per_s = per_s(static_cast<double>(c.samples), c.train_seconds);
  c.eval_samples_per_s = per_s(static_cast<double>(c.eval_samples), c.eval_seconds);
  c.train_mib_per_s = per_s(static_cast<double>(c.train_bytes) / 1048576.0, c.train_seconds);
  c.eval_mib_per_s = per_s(static_cast<double>(c.eval_bytes) / 1048576.0, c.eval_seconds);
  c.mib_per_s =
      per_s(static_cast<double>(c.bytes_read) / 1048576.0, c.train_seconds + c.eval_seconds);
  const double threshold = ranks.empty() ? 0 : ranks.front().au_threshold;
  c.passed = !c.au_applicable || c.au >= threshold;
  // Checkpoint i is every rank's i-th write (the runner makes every rank take part in each).
  std::size_t count = 0;
  for (const RankResult& r : ranks) count = std::max(count, r.checkpoint_seconds.size());
  for (std::size_t i = 0; i < count; ++i) {
    CheckpointPass pass;
    pass.index = static_cast<std::uint32_t>(i + 1);
    for (const RankResult& r : ranks)
      if (i < r.checkpoint_seconds.size() && i < r.checkpoint_bytes.size())
        pass.ranks.push_back({r.rank, r.checkpoint_bytes[i], r.checkpoint_seconds[i]});
    c.checkpoints.push_back(std::move(pass));
  }
  c.checkpoint = phase_figures(c.checkpoints);
  c.per_rank = std::move(ranks);
  return c;
}

ClusterResult gather_ranks(Cluster& cluster, const Report& mine, Clock* clock) {
  // The common clock's zero: every rank leaves the barrier at the same instant, give or take the
  // barrier's own skew (microseconds), whatever each host's clock says.
  cluster.barrier();
  RealClock real;
  const std::int64_t sync_ns = (clock ? *clock : static_cast<Clock&>(real)).now_ns();
  const std::string text = to_j(rank_result(mine, cluster.rank(), cluster.host(), sync_ns)).dump();
  std::vector<RankResult> ranks;
  for (const std::string& part : cluster.all_gather(text)) {
    // Every rank built its part with to_j above; a part that does not parse is a bug.
    ranks.push_back(from_j(json::parse(part)));
  }
  return reduce_ranks(std::move(ranks));
}

void apply_cluster(const ClusterResult& c, Report& r) {
  r.samples = c.samples;
  r.eval_samples = c.eval_samples;
  r.bytes_read = c.bytes_read;
  r.train_bytes = c.train_bytes;
  r.eval_bytes = c.eval_bytes;
  r.requests = c.requests;
  r.files_opened = c.files_opened;
  r.samples_per_s = c.samples_per_s;
  r.eval_samples_per_s = c.eval_samples_per_s;
  r.mib_per_s = c.mib_per_s;
  r.train_mib_per_s = c.train_mib_per_s;
  r.eval_mib_per_s = c.eval_mib_per_s;
  r.steps = c.steps;
  r.elapsed_s = c.elapsed_s;
  r.train_seconds = c.train_seconds;
  r.eval_seconds = c.eval_seconds;
  r.epochs_detail = c.epochs;
  r.au = c.au;
  r.au_mean = c.au_mean;
  r.au_applicable = c.au_applicable;
  r.passed = c.passed;
  r.client_bound = c.client_bound;
  r.per_accelerator.clear();
  for (const RankResult& rr : c.per_rank)
    r.per_accelerator.insert(r.per_accelerator.end(), rr.per_accelerator.begin(),
                             rr.per_accelerator.end());
  r.checkpoint.count = c.checkpoint.count;
  r.checkpoint.bytes = c.checkpoint.bytes;
  r.checkpoint.write_s = c.checkpoint.duration_s;
  r.checkpoint.restore_bytes = c.restore_bytes;
  r.checkpoint.restore_s = c.restore_s;
  // Percentiles from the merged histograms (replay::s3_result), as one host computes its own.
  r.latency_histogram = c.latency;
  r.latency = replay::percentiles(c.latency);
  r.s3.reset();
  if (c.s3) r.s3 = replay::s3_result(*c.s3, c.s3_checkpoint);
}

std::string format_cluster_summary(const Report& r, const ClusterResult& c) {
  std::string out;
  PrintfText add(out);
  using ull = unsigned long long;
  add("%s: %u ranks on %u host(s), %s engine, %u accelerator(s)%s%s per rank, %u worker(s) each, "
      "iodepth %u, %s, cache %s\n",
      r.job_name.c_str(), c.ranks, c.hosts, r.engine.c_str(), r.accelerators,
      r.accelerator.empty() ? "" : " ", r.accelerator.c_str(), r.workers, r.iodepth,
      r.direct ? "O_DIRECT" : "buffered", r.cache_mode.c_str());
  add("  %-4s %-20s %5s %10s %10s %11s %9s %7s %6s\n", "rank", "host", "accel", "samples", "read",
      "samples/s", "MiB/s", "AU", "cpu");
  for (const RankResult& rr : c.per_rank) {
    char au[16] = "n/a";
    if (rr.au_applicable) std::snprintf(au, sizeof au, "%.1f%%", rr.au * 100);
    add("  %-4u %-20s %5u %10llu %10s %11.1f %9.1f %7s %5.0f%%\n", rr.rank, rr.host.c_str(),
        rr.accelerators, ull(rr.samples), format_size(rr.bytes_read).c_str(), rr.samples_per_s,
        rr.mib_per_s, au, rr.cpu.host_busy_percent);
  }
  add("  %-4s %-20s %5u %10llu %10s %11.1f %9.1f\n", "all", "(cluster)",
      c.per_rank.empty() ? 0u : r.accelerators * c.ranks, ull(c.samples),
      format_size(c.bytes_read).c_str(), c.samples_per_s, c.mib_per_s);
  // Several ranks on one host (tests, or a host given several slots): one row per host too.
  if (c.hosts < c.ranks)
    for (const HostRow& h : host_rows(c))
      add("  host %-20s %u rank(s), %u accelerator(s), %llu samples, %s, %.1f samples/s, %.1f "
          "MiB/s, lowest AU %.1f%%\n",
          h.host.c_str(), h.ranks, h.accelerators, ull(h.samples), format_size(h.bytes).c_str(),
          h.samples_per_s, h.mib_per_s, h.au * 100);
  add("  time        %s (first rank's start to last rank's end) for %u epoch(s), %llu steps per "
      "accelerator; rates: all ranks' samples and bytes / %.2f s of passes (each from the first "
      "rank's start to the last rank's end)\n",
      format_duration(c.elapsed_s).c_str(), r.epochs, ull(c.steps),
      c.train_seconds + c.eval_seconds);
  if (c.eval_samples > 0)
    add("  eval        %llu samples, %.1f samples/s, %.1f MiB/s (all ranks over %.2f s)\n",
        ull(c.eval_samples), c.eval_samples_per_s, c.eval_mib_per_s, c.eval_seconds);
  if (c.checkpoint.count > 0)
    add("  checkpoint  %u written by all ranks, %s: %.2f s (slowest rank, summed), %.1f MiB/s "
        "(all ranks' bytes / that); slowest rank %.1f MiB/s\n",
        c.checkpoint.count, format_size(c.checkpoint.bytes).c_str(), c.checkpoint.duration_s,
        c.checkpoint.throughput_bps / 1048576.0, c.checkpoint.slowest_rank_bps / 1048576.0);
  if (c.restore_bytes > 0)
    add("  restore     %s read, %.2f s (slowest rank)\n", format_size(c.restore_bytes).c_str(),
        c.restore_s);
  add("  latency     all ranks: p50 %.0f us, p99 %.0f us, max %.0f us (per request)\n",
      r.latency.p50_us, r.latency.p99_us, r.latency.max_us);
  if (c.s3)
    out += replay::s3_summary_lines(replay::s3_result(*c.s3, c.s3_checkpoint), "all ranks: ");
  // Rank 0's warnings as they are; another rank's only when rank 0 did not say the same.
  std::set<std::string> said;
  for (const RankResult& rr : c.per_rank)
    for (const auto& w : rr.warnings)
      if (said.insert(w).second) {
        if (rr.rank == 0)
          add("  warning: %s\n", w.c_str());
        else
          add("  warning: rank %u (%s): %s\n", rr.rank, rr.host.c_str(), w.c_str());
      }
  if (!c.au_applicable)
    add("  AU          n/a: the job configures no compute time (a pure I/O run)\n");
  else
    add("  AU          %.1f%% (lowest accelerator on any rank: rank %u; whole run; threshold "
        "%.0f%%): %s\n",
        c.au * 100, c.au_rank, r.au_threshold * 100,
        // The report is rank 0's: its loss split is the verdict's when rank 0 holds the lowest
        // accelerator (au_verdict reads r.passed, which apply_cluster set to the cluster's).
        c.passed         ? "PASS"
        : c.au_rank == 0 ? au_verdict(r).c_str()
                         : "FAIL: see that rank's row for where its time went");
  return out;
}

std::string cluster_json(const Report& r, const ClusterResult& c) {
  json j = json::parse(to_json(r));
  j["ranks"] = c.ranks;
  j["hosts"] = c.hosts;
  json per = json::array();
  for (const RankResult& rr : c.per_rank)
    per.push_back({{"rank", rr.rank},
                   {"host", rr.host},
                   {"accelerators", rr.accelerators},
                   {"samples", rr.samples},
                   {"bytes_read", rr.bytes_read},
                   {"samples_per_s", rr.samples_per_s},
                   {"mib_per_s", rr.mib_per_s},
                   {"au", rr.au},
                   {"au_mean", rr.au_mean},
                   {"elapsed_s", rr.elapsed_s},
                   {"train_seconds", rr.train_seconds},
                   {"eval_seconds", rr.eval_seconds},
                   {"begin_s", rr.begin_s},
                   {"end_s", rr.end_s},
                   {"cpu",
                    {{"user_s", rr.cpu.user_s},
                     {"system_s", rr.cpu.system_s},
                     {"cpus", rr.cpu.cpus},
                     {"process_percent", rr.cpu.process_percent},
                     {"host_busy_percent", rr.cpu.host_busy_percent}}},
                   {"checkpoint_bytes", rr.checkpoint_bytes},
                   {"checkpoint_seconds", rr.checkpoint_seconds}});
  // A rank's own S3 requests (only in a run on an object store: a run on files keeps its keys).
  for (std::size_t i = 0; i < c.per_rank.size(); ++i) {
    const replay::Percentiles own = replay::percentiles(c.per_rank[i].latency);
    per[i]["latency_us"] = {{"p50", own.p50_us}, {"p99", own.p99_us}, {"max", own.max_us}};
    if (c.per_rank[i].s3) per[i]["s3"] = s3_rank_json(*c.per_rank[i].s3);
  }
  j["per_rank"] = per;
  json hosts = json::array();
  for (const HostRow& h : host_rows(c))
    hosts.push_back({{"host", h.host},
                     {"ranks", h.ranks},
                     {"accelerators", h.accelerators},
                     {"samples", h.samples},
                     {"bytes_read", h.bytes},
                     {"samples_per_s", h.samples_per_s},
                     {"mib_per_s", h.mib_per_s},
                     {"au", h.au}});
  j["per_host"] = hosts;
  json cks = json::array();
  for (const CheckpointPass& p : c.checkpoints) {
    const PassFigures f = pass_figures(p);
    cks.push_back({{"index", p.index},
                   {"bytes", f.bytes},
                   {"duration_s", f.duration_s},
                   {"throughput_bps", f.throughput_bps},
                   {"slowest_rank_bps", f.slowest_rank_bps},
                   {"slowest_rank", f.slowest_rank}});
  }
  j["cluster"] = {
      {"au_rank", c.au_rank},
      {"sums",
       "samples, bytes_read and requests are sums over ranks; train.seconds, eval.seconds and "
       "epochs[].seconds are the cluster's passes (each from the first rank's start to the last "
       "rank's end, on the clock the ranks agreed at a barrier), totals.wall_seconds their sum, "
       "elapsed_s the first rank's start to the last rank's end; samples_per_s and mib_per_s are "
       "the sums over those seconds; au is the lowest accelerator on any rank; per_rank rows are "
       "each rank's own (its own seconds, begin_s/end_s on the common clock); s3's counts are sums "
       "over ranks and its ttfb_us/ttlb_us percentiles those of every rank's requests together "
       "(the ranks' histograms merged), per_rank[].s3 each rank's own; latency_us is every rank's "
       "data reads together (histograms merged), per_rank[].latency_us each rank's own; compute "
       "and cpu are rank 0's"},
      {"checkpoints", cks},
      {"checkpoint",
       {{"count", c.checkpoint.count},
        {"bytes", c.checkpoint.bytes},
        {"duration_s", c.checkpoint.duration_s},
        {"throughput_bps", c.checkpoint.throughput_bps},
        {"mean_duration_s", c.checkpoint.mean_duration_s},
        {"mean_throughput_bps", c.checkpoint.mean_throughput_bps},
        {"slowest_rank_bps", c.checkpoint.slowest_rank_bps}}}};
  return j.dump(2) + "\n";
}

Result<void> write_cluster_json(const Report& report, const ClusterResult& cluster,
                                const std::filesystem::path& path) {
  std::ofstream f(path);
  if (!f) return runtime_error(path.string() + ": cannot open for writing");
  f << cluster_json(report, cluster);
  if (!f) return runtime_error(path.string() + ": write failed");
  return ok();
}

}  // namespace dlgen::cluster
