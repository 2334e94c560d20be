// Terminal table and JSON renderings of a Comparison.
#include <cmath>
#include <cstdio>
#include "dlgen/core/json.hpp"
#include <string>

#include "dlgen/compare/compare.hpp"
#include "dlgen/core/units.hpp"
#include "format.hpp"

namespace dlgen::compare {

std::string format_value(double v, std::string_view unit) {
  char buf[64];
  if (std::isinf(v)) return "inf";
  if (unit == "bytes")
    return v < 0 ? "-" + format_size(static_cast<std::uint64_t>(-v))
                 : format_size(static_cast<std::uint64_t>(std::llround(v)));
  if (unit == "s") return format_duration(v);
  if (unit == "count") {
    if (v == std::floor(v))
      std::snprintf(buf, sizeof buf, "%.0f", v);
    else
      std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
  }
  if (unit == "MiB/s")
    std::snprintf(buf, sizeof buf, "%.1f MiB/s", v);
  else
    std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

std::string format_distance(double d, DistanceKind kind, std::string_view unit) {
  char buf[64];
  if (std::isinf(d)) return "inf";
  switch (kind) {
    case DistanceKind::relative:
      std::snprintf(buf, sizeof buf, "%.1f%%", d * 100);
      return buf;
    case DistanceKind::ks:
      std::snprintf(buf, sizeof buf, "KS %.3f", d);
      return buf;
    case DistanceKind::absolute:
      return format_value(d, unit);
  }
  return "?";
}

namespace {

// One row per pass, original / replay side by side; "" when there are none.
std::string epoch_table(const char* title, const char* head, const std::vector<EpochRow>& rows) {
  if (rows.empty()) return "";
  char line[256];
  std::string out = std::string("\n") + title + "\n";
  std::snprintf(line, sizeof line, "%-6s %23s %23s %19s %15s %15s\n", head, "duration",
                "bytes read", "files", "steps", "reads/file");
  out += line;
  for (const auto& e : rows) {
    auto pair = [&](double a, double b, std::string_view unit) {
      return (e.has_original ? format_value(a, unit) : std::string("-")) + " / " +
             (e.has_replay ? format_value(b, unit) : std::string("-"));
    };
    std::snprintf(line, sizeof line, "%-6zu %23s %23s %19s %15s %15s\n", e.epoch,
                  pair(e.original.duration_s, e.replay.duration_s, "s").c_str(),
                  pair(e.original.bytes_read, e.replay.bytes_read, "bytes").c_str(),
                  pair(e.original.files_read, e.replay.files_read, "count").c_str(),
                  pair(e.original.steps, e.replay.steps, "count").c_str(),
                  pair(e.original.reads_per_file, e.replay.reads_per_file, "count").c_str());
    out += line;
  }
  return out;
}

}  // namespace

std::string format_table(const Comparison& c) {
  std::string out;
  char line[512];
  // The spread column only when several captures of the original gave one.
  const bool spread = !c.original_repeats.empty();
  std::snprintf(line, sizeof line, "%-22s %-12s %14s %14s %12s %12s%s  %s\n", "metric", "group",
                "original", "replay", "distance", "tolerance", spread ? "       spread" : "",
                "verdict");
  out += line;
  out += std::string(spread ? 113 : 100, '-') + "\n";
  for (const auto& m : c.metrics) {
    std::string spread_cell;
    if (spread) {
      char cell[32];
      std::snprintf(cell, sizeof cell, " %12s",
                    m.has_spread ? format_distance(m.spread, m.kind, m.unit).c_str() : "-");
      spread_cell = cell;
    }
    std::snprintf(
        line, sizeof line, "%-22s %-12s %14s %14s %12s %12s%s  %s%s%s\n", m.name.c_str(),
        m.group.c_str(), format_value(m.original, m.unit).c_str(),
        format_value(m.replay, m.unit).c_str(),
        m.verdict == Verdict::skipped ? "-" : format_distance(m.distance, m.kind, m.unit).c_str(),
        format_distance(m.tolerance, m.kind, m.unit).c_str(), spread_cell.c_str(),
        to_string(m.verdict), m.verdict == Verdict::skipped ? " " : "",
        m.verdict == Verdict::skipped ? m.note.c_str() : "");
    out += line;
  }
  if (spread) {
    out += "spread: the largest distance between " + std::to_string(c.original_repeats.size() + 1) +
           " captures of the original (" + c.original.label;
    for (const auto& r : c.original_repeats) out += ", " + r;
    out += "); host-time rows are judged at the larger of tolerance and spread\n";
  }
  out += epoch_table("per epoch (original / replay)", "epoch", c.epochs);
  out += epoch_table("per evaluation pass (original / replay)", "eval", c.eval_passes);
  for (const auto* p : {&c.original, &c.replay})
    for (const auto& n : p->notes) out += "note (" + p->label + "): " + n + "\n";
  std::size_t passed = 0, skipped = 0;
  for (const auto& m : c.metrics) {
    if (m.verdict == Verdict::pass) ++passed;
    if (m.verdict == Verdict::skipped) ++skipped;
  }
  for (const auto& n : c.verdict_notes) out += "note: " + n + "\n";
  for (const auto& r : c.refusals) out += "FAIL: " + r + "\n";
  std::snprintf(line, sizeof line, "\nfidelity: %s (%zu passed, %zu failed, %zu skipped%s)\n",
                c.pass() ? "PASS" : "FAIL", passed, c.failures(), skipped,
                c.refusals.empty() ? "" : "; a trace lost events");
  out += line;
  return out;
}

namespace {

nlohmann::json number(double v) {
  if (std::isinf(v) || std::isnan(v)) return nullptr;  // JSON has no infinity: null means unbounded
  return v;
}

nlohmann::json epoch_json(const EpochProfile& e) {
  return {
      {"start_s", e.start_s},   {"duration_s", e.duration_s}, {"bytes_read", e.bytes_read},
      {"read_ops", e.read_ops}, {"files_read", e.files_read}, {"reads_per_file", e.reads_per_file},
      {"steps", e.steps}};
}

nlohmann::json lost_json(const trace::LostEvents& lost) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& r : trace::kLostReasons) j[r.name] = lost.*r.count;
  return j;
}

nlohmann::json profile_json(const Profile& p) {
  nlohmann::json inflight = nlohmann::json::array();
  for (const auto& w : p.inflight)
    inflight.push_back({{"inflight", w.value}, {"seconds", w.weight}});
  nlohmann::json epochs = nlohmann::json::array();
  for (const auto& e : p.epochs) epochs.push_back(epoch_json(e));
  nlohmann::json eval_passes = nlohmann::json::array();
  for (const auto& e : p.eval_passes) eval_passes.push_back(epoch_json(e));
  return {
      {"label", p.label},
      {"bytes_read", p.bytes_read},
      {"bytes_written", p.bytes_written},
      {"files_read", p.files_read},
      {"read_ops", p.read_ops},
      {"opens", p.opens},
      {"stats", p.stats},
      {"request_size_p50", quantile(p.request_sizes, 0.5)},
      {"request_size_mean", mean(p.request_sizes)},
      {"sequential_fraction", p.sequential_fraction},
      {"order_vs_path", p.order_vs_path},
      {"epoch_order_similarity", p.epoch_order_similarity},
      {"reads_per_file", p.reads_per_file},
      {"readers", p.readers},
      {"inflight", inflight},
      {"duration_s", p.duration_s},
      {"step_time_s",
       {{"count", p.step_times_s.size()},
        {"p50", quantile(p.step_times_s, 0.5)},
        {"p90", quantile(p.step_times_s, 0.9)},
        {"p99", quantile(p.step_times_s, 0.99)}}},
      {"compute_s", {{"p50", quantile(p.compute_s, 0.5)}, {"p90", quantile(p.compute_s, 0.9)}}},
      {"data_wait_s",
       {{"p50", quantile(p.data_wait_s, 0.5)}, {"p90", quantile(p.data_wait_s, 0.9)}}},
      {"au",
       {{"measured", p.au_measured},
        {"lowest", p.au},
        {"per_accelerator", p.accelerator_au},
        {"gpu", p.au_gpu_measured ? nlohmann::json(p.au_gpu) : nlohmann::json()}}},
      {"throughput",
       {{"bin_s", p.throughput_bin_s}, {"t_s", p.throughput_t_s}, {"mib_s", p.throughput_mib_s}}},
      {"checkpoints", p.checkpoints},
      {"checkpoint_bytes", p.checkpoint_bytes},
      {"checkpoint_start_s", p.checkpoint_start_s},
      {"checkpoint_write_s", p.checkpoint_write_s},
      {"fsyncs", p.fsyncs},
      {"has_block", p.has_block},
      {"block_bytes", p.block_bytes},
      {"block_requests", p.block_requests},
      {"epochs", epochs},
      {"eval_passes", eval_passes},
      {"eval_files_read", p.eval_files_read},
      {"eval_step_time_s",
       {{"count", p.eval_step_times_s.size()},
        {"p50", quantile(p.eval_step_times_s, 0.5)},
        {"p90", quantile(p.eval_step_times_s, 0.9)}}},
      {"eval_compute_s",
       {{"p50", quantile(p.eval_compute_s, 0.5)}, {"p90", quantile(p.eval_compute_s, 0.9)}}},
      {"lost_events", p.lost_events},
      {"lost", lost_json(p.lost)},
      {"notes", p.notes}};
}

const char* kind_name(DistanceKind k) {
  switch (k) {
    case DistanceKind::relative:
      return "relative";
    case DistanceKind::absolute:
      return "absolute";
    case DistanceKind::ks:
      return "ks";
  }
  return "?";
}

}  // namespace

std::string to_json(const Comparison& c) {
  nlohmann::json metrics = nlohmann::json::array();
  for (const auto& m : c.metrics)
    metrics.push_back({{"name", m.name},
                       {"group", m.group},
                       {"unit", m.unit},
                       {"distance_kind", kind_name(m.kind)},
                       {"original", number(m.original)},
                       {"replay", number(m.replay)},
                       {"distance", number(m.distance)},
                       {"tolerance", number(m.tolerance)},
                       {"spread", m.has_spread ? number(m.spread) : nlohmann::json(nullptr)},
                       {"tolerance_used", number(m.tolerance_used())},
                       {"verdict", to_string(m.verdict)},
                       {"note", m.note}});
  auto rows = [](const std::vector<EpochRow>& in) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& e : in)
      out.push_back(
          {{"epoch", e.epoch},
           {"original", e.has_original ? epoch_json(e.original) : nlohmann::json(nullptr)},
           {"replay", e.has_replay ? epoch_json(e.replay) : nlohmann::json(nullptr)}});
    return out;
  };
  std::size_t skipped = 0;
  for (const auto& m : c.metrics) skipped += m.verdict == Verdict::skipped;
  nlohmann::json j = {{"pass", c.pass()},
                      {"failures", c.failures()},
                      {"refusals", c.refusals},
                      {"verdict_notes", c.verdict_notes},
                      {"skipped", skipped},
                      {"original_repeats", c.original_repeats},
                      {"metrics", metrics},
                      {"epochs", rows(c.epochs)},
                      {"eval_passes", rows(c.eval_passes)},
                      {"original", profile_json(c.original)},
                      {"replay", profile_json(c.replay)}};
  return j.dump(2) + "\n";
}

}  // namespace dlgen::compare
