#include "dlgen/trace/inspect.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <map>
#include "dlgen/core/json.hpp"
#include <unordered_map>
#include <unordered_set>

#include "dlgen/core/printf_text.hpp"
#include "inspect_http.hpp"

namespace dlgen::trace {

const char* to_string(Role role) {
  switch (role) {
    case Role::main:
      return "main";
    case Role::dataloader_worker:
      return "dataloader_worker";
    case Role::pin_memory:
      return "pin_memory";
    case Role::thread:
      return "thread";
    case Role::child:
      return "child";
  }
  return "child";
}

std::uint32_t main_pid(const Trace& t) {
  std::unordered_set<std::uint32_t> pids;
  for (const Process& p : t.processes) pids.insert(p.pid);
  const Process* best = nullptr;
  for (const Process& p : t.processes)
    if (!p.is_thread && !pids.count(p.ppid) && (!best || p.start_ns < best->start_ns)) best = &p;
  if (best) return best->pid;
  return t.events.empty() ? 0 : t.events.front().pid;
}

Role role_of(const Process& p, std::uint32_t main) {
  if (p.comm.rfind("pt_data_worker", 0) == 0) return Role::dataloader_worker;
  if (p.comm.find("pin_mem") != std::string::npos) return Role::pin_memory;
  if (p.pid == main) return Role::main;
  return p.is_thread ? Role::thread : Role::child;
}

namespace {

bool is_io(Op op) {
  return is_read(op) || is_write(op);
}

std::string dir_of(const std::string& path) {
  auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string human_bytes(std::uint64_t b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(b);
  int u = 0;
  while (v >= 1024 && u < 4) v /= 1024, ++u;
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
  return buf;
}

std::string bucket_label(const SizeBucket& b) {
  if (b.lo == 0) return "0";
  return human_bytes(b.lo) + "-" + human_bytes(b.hi);
}

// The report's rows of the trace's processes; returns each pid's row.
std::unordered_map<std::uint32_t, std::size_t> add_processes(const Trace& t, InspectReport& r) {
  const std::uint32_t mainp = main_pid(t);
  std::unordered_map<std::uint32_t, std::size_t> proc_index;
  for (const Process& p : t.processes) {
    proc_index.emplace(p.pid, r.processes.size());
    r.processes.push_back({p, role_of(p, mainp)});
  }
  return proc_index;
}

void count_cuda(const Event& e, CudaSummary& c) {
  c.errors += e.ret != 0;
  if (e.op == Op::cuda_sync) ++c.syncs, c.sync_wait_s += static_cast<double>(e.dur_ns) * 1e-9;
  if (e.op == Op::cuda_htod) ++c.htod, c.htod_bytes += e.size;
  if (e.op == Op::cuda_dtoh) ++c.dtoh, c.dtoh_bytes += e.size;
  if (e.op == Op::cuda_launch) ++c.launches;
}

// What one pass over the events counts: per op, per directory (and which files were touched),
// per request size (bucket k holds sizes in [2^(k-1), 2^k); 0 holds 0).
class EventTally {
 public:
  EventTally(const Trace& t, InspectReport& r)
      : t_(t),
        r_(r),
        proc_index_(add_processes(t, r)),
        file_dir_(t.files.size()),
        touched_(t.files.size(), false),
        ops_(kOpCount),
        sizes_(66) {
    for (std::size_t i = 0; i < t.files.size(); ++i) file_dir_[i] = dir_of(t.files[i].path);
  }

  void add(const Event& e) {
    OpSummary& o = ops_[static_cast<std::size_t>(e.op)];
    o.op = e.op;
    o.count++;
    o.busy_s += static_cast<double>(e.dur_ns) * 1e-9;
    if (e.ret < 0 && e.op != Op::block) o.errors++;
    DirSummary* d = directory(e);
    if (e.op == Op::fault && e.ret > 0) o.bytes += static_cast<std::uint64_t>(e.ret);  // mapped
    if (is_cuda(e.op))
      count_cuda(e, r_.cuda);
    else if (is_io(e.op))
      add_io(e, o, d);
  }

  // The tallies into the report: sizes ascending, ops and directories largest first.
  void finish() {
    for (std::size_t k = 0; k < sizes_.size(); ++k) {
      if (!sizes_[k].reads && !sizes_[k].writes) continue;
      sizes_[k].lo = k == 0 ? 0 : 1ull << (k - 1);
      sizes_[k].hi = k == 0 ? 1 : (k == 64 ? UINT64_MAX : 1ull << k);
      r_.sizes.push_back(sizes_[k]);
    }
    for (const OpSummary& o : ops_)
      if (o.count) r_.ops.push_back(o);
    std::stable_sort(r_.ops.begin(), r_.ops.end(),
                     [](auto& a, auto& b) { return a.count > b.count; });
    for (auto& [name, d] : dirs_) {
      d.dir = name;
      r_.dirs.push_back(d);
    }
    std::stable_sort(r_.dirs.begin(), r_.dirs.end(), [](auto& a, auto& b) {
      return a.bytes_read + a.bytes_written > b.bytes_read + b.bytes_written;
    });
    r_.files = static_cast<std::uint64_t>(std::count(touched_.begin(), touched_.end(), true));
  }

 private:
  // The event's file's directory (counting the file there once), or null for no file.
  DirSummary* directory(const Event& e) {
    if (e.file == kNoFile || e.file >= t_.files.size()) return nullptr;
    DirSummary* d = &dirs_[file_dir_[e.file]];
    if (!touched_[e.file]) touched_[e.file] = true, d->files++;
    return d;
  }

  // A read or write: its bytes in the totals, its directory's, its process's, its size bucket
  // and its second's row.
  void add_io(const Event& e, OpSummary& o, DirSummary* d) {
    std::uint64_t done = e.ret > 0 ? static_cast<std::uint64_t>(e.ret) : 0;
    bool rd = is_read(e.op);
    o.bytes += done;
    (rd ? r_.bytes_read : r_.bytes_written) += done;
    if (d) {
      (rd ? d->reads : d->writes)++;
      (rd ? d->bytes_read : d->bytes_written) += done;
    }
    auto pi = proc_index_.find(e.tid);
    if (pi == proc_index_.end()) pi = proc_index_.find(e.pid);
    if (pi != proc_index_.end()) {
      ProcessSummary& ps = r_.processes[pi->second];
      ps.ops++;
      (rd ? ps.bytes_read : ps.bytes_written) += done;
    }
    int k = e.size == 0 ? 0 : 1 + (63 - __builtin_clzll(e.size));
    SizeBucket& b = sizes_[k];
    (rd ? b.reads : b.writes)++;
    SecondRow& row =
        r_.throughput[std::min<std::size_t>(e.ts_ns / 1000000000ull, r_.throughput.size() - 1)];
    row.ops++;
    (rd ? row.bytes_read : row.bytes_written) += done;
  }

  const Trace& t_;
  InspectReport& r_;
  std::unordered_map<std::uint32_t, std::size_t> proc_index_;
  std::map<std::string, DirSummary> dirs_;
  std::vector<std::string> file_dir_;
  std::vector<bool> touched_;
  std::vector<OpSummary> ops_;
  std::vector<SizeBucket> sizes_;
};

}  // namespace

InspectReport inspect(const Trace& t) {
  InspectReport r;
  r.meta = t.meta;
  r.events = t.events.size();
  std::uint64_t end_ns = t.meta.duration_ns;
  for (const Event& e : t.events) end_ns = std::max(end_ns, e.ts_ns + e.dur_ns);
  r.duration_s = static_cast<double>(end_ns) * 1e-9;
  r.throughput.resize(static_cast<std::size_t>(end_ns / 1000000000ull) +
                      (t.events.empty() ? 0 : 1));
  for (std::size_t i = 0; i < r.throughput.size(); ++i) r.throughput[i].t_s = i;
  EventTally tally(t, r);
  for (const Event& e : t.events) tally.add(e);
  tally.finish();
  r.http = summarize_http(t.http);
  return r;
}

namespace {

// What ran, for how long, where, and how much it moved.
void add_run_lines(const InspectReport& r, std::string& out) {
  PrintfText line(out);
  std::string cmd;
  for (const auto& w : r.meta.command) cmd += (cmd.empty() ? "" : " ") + w;
  line("command:   %s\n", cmd.empty() ? "(unknown)" : cmd.c_str());
  line("duration:  %.3f s   exit status: %d   %s\n", r.duration_s, r.meta.exit_status,
       r.meta.complete ? "complete" : "INCOMPLETE (capture was killed; flushed part only)");
  if (!r.meta.host.empty() || !r.meta.kernel.empty())
    line("host:      %s   kernel: %s   dlgen %s\n", r.meta.host.c_str(), r.meta.kernel.c_str(),
         r.meta.dlgen_version.c_str());
  if (r.meta.rank >= 0) line("rank:      %d of %d (MPI)\n", r.meta.rank, r.meta.world_size);
  line("events:    %" PRIu64 "   files: %" PRIu64 "   read: %s   written: %s\n", r.events, r.files,
       human_bytes(r.bytes_read).c_str(), human_bytes(r.bytes_written).c_str());
}

// The GPUs, the CUDA calls, and why GPU events are missing where the run had a GPU to speak of
// (not on CPU-only hosts: --json has the note always).
void add_gpu_lines(const InspectReport& r, std::string& out) {
  PrintfText line(out);
  const GpuInfo& g = r.meta.gpu;
  if (!g.devices.empty()) {
    std::string names;  // "1x NVIDIA H200", or each name when they differ
    bool same = std::all_of(g.devices.begin(), g.devices.end(),
                            [&](const std::string& n) { return n == g.devices[0]; });
    if (same)
      names = std::to_string(g.devices.size()) + "x " + g.devices[0];
    else
      for (const auto& n : g.devices) names += (names.empty() ? "" : ", ") + n;
    line("gpus:      %s%s%s\n", names.c_str(), g.driver.empty() ? "" : "   driver ",
         g.driver.c_str());
  }
  const CudaSummary& c = r.cuda;
  if (c.calls() > 0 || !g.cuda_lib.empty())
    line("cuda:      %" PRIu64 " syncs (%.3f s waiting)   %" PRIu64 " HtoD copies (%s)   %" PRIu64
         " DtoH copies (%s)   %" PRIu64 " launches%s\n",
         c.syncs, c.sync_wait_s, c.htod, human_bytes(c.htod_bytes).c_str(), c.dtoh,
         human_bytes(c.dtoh_bytes).c_str(), c.launches,
         c.errors ? ("   " + std::to_string(c.errors) + " failed").c_str() : "");
  if (!g.note.empty() && (!g.devices.empty() || !g.cuda_lib.empty() || c.calls() > 0))
    out += "gpu note:  " + g.note + "\n";
}

void add_lost_lines(const InspectReport& r, std::string& out) {
  PrintfText line(out);
  line("lost events: %" PRIu64 "%s\n", r.meta.lost_events,
       r.meta.lost_events ? "   (WARNING: the trace is missing events)" : "");
  if (r.meta.lost_events)
    out += "  by reason: " + describe_lost(r.meta.lost_events, r.meta.lost) + "\n";
}

void add_process_table(const InspectReport& r, std::string& out) {
  PrintfText line(out);
  out += "\nprocesses\n";
  line("  %-8s %-8s %-8s %-16s %-18s %10s %12s %12s\n", "pid", "tgid", "ppid", "comm", "role",
       "io ops", "read", "written");
  for (const auto& p : r.processes)
    line("  %-8u %-8u %-8u %-16s %-18s %10" PRIu64 " %12s %12s\n", p.process.pid, p.process.tgid,
         p.process.ppid, p.process.comm.c_str(), to_string(p.role), p.ops,
         human_bytes(p.bytes_read).c_str(), human_bytes(p.bytes_written).c_str());
}

// The 20 busiest directories; --json has them all.
void add_directory_table(const InspectReport& r, std::string& out) {
  PrintfText line(out);
  out += "\nfiles by directory\n";
  line("  %8s %10s %10s %12s %12s  %s\n", "files", "reads", "writes", "read", "written",
       "directory");
  std::size_t shown = 0;
  for (const auto& d : r.dirs) {
    if (++shown > 20) {
      line("  ... %zu more directories (see --json)\n", r.dirs.size() - 20);
      break;
    }
    line("  %8" PRIu64 " %10" PRIu64 " %10" PRIu64 " %12s %12s  %s\n", d.files, d.reads, d.writes,
         human_bytes(d.bytes_read).c_str(), human_bytes(d.bytes_written).c_str(), d.dir.c_str());
  }
}

void add_op_table(const InspectReport& r, std::string& out) {
  PrintfText line(out);
  out += "\nops\n";
  line("  %-16s %10s %8s %12s %10s\n", "op", "count", "errors", "bytes", "busy s");
  for (const auto& o : r.ops)
    line("  %-16s %10" PRIu64 " %8" PRIu64 " %12s %10.3f\n", to_string(o.op), o.count, o.errors,
         human_bytes(o.bytes).c_str(), o.busy_s);
}

// A histogram of request sizes, bars scaled to the fullest bucket.
void add_size_histogram(const InspectReport& r, std::string& out) {
  PrintfText line(out);
  out += "\nrequest sizes (reads and writes)\n";
  std::uint64_t most = 1;
  for (const auto& b : r.sizes) most = std::max(most, b.reads + b.writes);
  for (const auto& b : r.sizes) {
    int bar = static_cast<int>(40.0 * static_cast<double>(b.reads + b.writes) /
                               static_cast<double>(most));
    line("  %-22s %10" PRIu64 " reads %10" PRIu64 " writes  %s\n", bucket_label(b).c_str(), b.reads,
         b.writes, std::string(static_cast<std::size_t>(bar), '#').c_str());
  }
}

// A row per second for short traces; longer ones get one block character per bin of seconds,
// scaled to the busiest bin.
void add_throughput(const InspectReport& r, std::string& out) {
  PrintfText line(out);
  out += "\nthroughput per second (reads + writes)\n";
  if (r.throughput.size() <= 30) {
    for (const auto& row : r.throughput)
      line("  %5" PRIu64 " s %10" PRIu64 " ops %12s/s read %12s/s written\n", row.t_s, row.ops,
           human_bytes(row.bytes_read).c_str(), human_bytes(row.bytes_written).c_str());
    return;
  }
  static const char* blocks[] = {" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
  std::size_t bins = 60, per = (r.throughput.size() + bins - 1) / bins;
  std::vector<std::uint64_t> v;
  for (std::size_t i = 0; i < r.throughput.size(); i += per) {
    std::uint64_t s = 0;
    for (std::size_t j = i; j < std::min(i + per, r.throughput.size()); ++j)
      s += r.throughput[j].bytes_read + r.throughput[j].bytes_written;
    v.push_back(s / per);
  }
  std::uint64_t peak = std::max<std::uint64_t>(1, *std::max_element(v.begin(), v.end()));
  std::string spark;
  for (auto x : v) spark += blocks[(x * 8 + peak - 1) / peak];
  line("  |%s|  %zu s per character, peak %s/s\n", spark.c_str(), per, human_bytes(peak).c_str());
}

}  // namespace

std::string format_inspect(const InspectReport& r) {
  std::string out;
  add_run_lines(r, out);
  add_gpu_lines(r, out);
  out += format_http(r.http);
  add_lost_lines(r, out);
  add_process_table(r, out);
  add_directory_table(r, out);
  add_op_table(r, out);
  add_size_histogram(r, out);
  add_throughput(r, out);
  return out;
}

std::string inspect_json(const InspectReport& r) {
  using nlohmann::json;
  json j;
  j["command"] = r.meta.command;
  j["duration_s"] = r.duration_s;
  j["exit_status"] = r.meta.exit_status;
  j["complete"] = r.meta.complete;
  j["host"] = r.meta.host;
  j["rank"] = r.meta.rank;  // -1: not launched by MPI
  j["world_size"] = r.meta.world_size;
  j["kernel"] = r.meta.kernel;
  j["dlgen_version"] = r.meta.dlgen_version;
  j["gpu"] = {{"devices", r.meta.gpu.devices},
              {"driver", r.meta.gpu.driver},
              {"cuda_lib", r.meta.gpu.cuda_lib},
              {"cuda_probes", r.meta.gpu.cuda_probes},
              {"note", r.meta.gpu.note}};
  j["cuda"] = {{"syncs", r.cuda.syncs},       {"sync_wait_s", r.cuda.sync_wait_s},
               {"htod", r.cuda.htod},         {"htod_bytes", r.cuda.htod_bytes},
               {"dtoh", r.cuda.dtoh},         {"dtoh_bytes", r.cuda.dtoh_bytes},
               {"launches", r.cuda.launches}, {"errors", r.cuda.errors}};
  if (r.http.requests) j["http"] = http_json(r.http);  // absent: no HTTP requests
  j["lost_events"] = r.meta.lost_events;
  j["lost"] = json::object();  // by reason; unattributed: counted before dlgen kept reasons
  for (const auto& reason : kLostReasons) j["lost"][reason.name] = r.meta.lost.*reason.count;
  j["lost"]["unattributed"] =
      r.meta.lost_events - std::min(r.meta.lost_events, r.meta.lost.total());
  j["events"] = r.events;
  j["files"] = r.files;
  j["bytes_read"] = r.bytes_read;
  j["bytes_written"] = r.bytes_written;
  j["processes"] = json::array();
  for (const auto& p : r.processes)
    j["processes"].push_back({{"pid", p.process.pid},
                              {"tgid", p.process.tgid},
                              {"ppid", p.process.ppid},
                              {"comm", p.process.comm},
                              {"role", to_string(p.role)},
                              {"is_thread", p.process.is_thread},
                              {"io_ops", p.ops},
                              {"bytes_read", p.bytes_read},
                              {"bytes_written", p.bytes_written}});
  j["dirs"] = json::array();
  for (const auto& d : r.dirs)
    j["dirs"].push_back({{"dir", d.dir},
                         {"files", d.files},
                         {"reads", d.reads},
                         {"writes", d.writes},
                         {"bytes_read", d.bytes_read},
                         {"bytes_written", d.bytes_written}});
  j["ops"] = json::object();
  for (const auto& o : r.ops)
    j["ops"][to_string(o.op)] = {
        {"count", o.count}, {"errors", o.errors}, {"bytes", o.bytes}, {"busy_s", o.busy_s}};
  j["request_sizes"] = json::array();
  for (const auto& b : r.sizes)
    j["request_sizes"].push_back(
        {{"lo", b.lo}, {"hi", b.hi}, {"reads", b.reads}, {"writes", b.writes}});
  j["throughput"] = json::array();
  for (const auto& row : r.throughput)
    j["throughput"].push_back({{"t_s", row.t_s},
                               {"ops", row.ops},
                               {"bytes_read", row.bytes_read},
                               {"bytes_written", row.bytes_written}});
  // Paths and names are bytes on Linux, not always UTF-8: replace what is not (U+FFFD) rather
  // than throw.
  return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace dlgen::trace
