// Multi-host traces: the launcher's rank, per-rank file names, and merging one trace per host.
#include "dlgen/trace/merge.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <numeric>
#include <optional>
#include <unordered_map>

namespace dlgen::trace {
namespace {

std::int32_t parse_rank(const char* v) {
  if (!v || !*v) return -1;
  std::int32_t n = -1;
  const char* end = v + std::char_traits<char>::length(v);
  auto [p, ec] = std::from_chars(v, end, n);
  return ec == std::errc() && p == end && n >= 0 ? n : -1;
}

// Files that exist on each host apart (shared-memory tensors, sockets, pipes, kernel files) are
// never one file, whatever their names: only other paths are matched across hosts.
bool host_local(const std::string& path) {
  if (path.empty() || path[0] != '/') return true;  // socket:[N], pipe:[N], anon_inode:...
  for (const char* p : {"/dev/", "/proc/", "/sys/", "/run/"})
    if (path.rfind(p, 0) == 0) return true;
  return false;
}

constexpr std::uint64_t kMaxClockSpreadNs = 86400ull * 1'000'000'000;  // one day
constexpr std::uint32_t kMaxHosts = (1u << (32 - kHostPidShift)) - 1;  // 1023

}  // namespace

LaunchRank launch_rank(const std::function<const char*(const char*)>& env) {
  static const std::pair<const char*, const char*> kVars[] = {
      {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
      {"PMIX_RANK", "OMPI_COMM_WORLD_SIZE"},
      {"PMI_RANK", "PMI_SIZE"},
  };
  for (const auto& [rank_var, size_var] : kVars) {
    const std::int32_t rank = parse_rank(env(rank_var));
    if (rank < 0) continue;
    LaunchRank r;
    r.rank = rank;
    const std::int32_t size = parse_rank(env(size_var));
    r.world_size = size > rank ? size : 0;
    return r;
  }
  return {};
}

Result<std::string> expand_trace_path(const std::string& pattern, const LaunchRank& launch,
                                      const std::string& host) {
  std::string out;
  bool per_rank = false;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%') {
      out += pattern[i];
      continue;
    }
    const char c = i + 1 < pattern.size() ? pattern[i + 1] : '\0';
    ++i;
    if (c == '%') {
      out += '%';
    } else if (c == 'r') {
      if (launch.rank < 0)
        return input_error(pattern +
                           ": %r is the MPI rank, but this process was not started by mpirun "
                           "(no OMPI_COMM_WORLD_RANK, PMIX_RANK or PMI_RANK)");
      out += std::to_string(launch.rank);
      per_rank = true;
    } else if (c == 'h') {
      out += host;
      per_rank = true;
    } else {
      return input_error(pattern + ": unknown '%" + std::string(c ? 1 : 0, c) +
                         "' (known: %r rank, %h host, %% a percent sign)");
    }
  }
  if (launch.world_size > 1 && !per_rank)
    return input_error(pattern + ": " + std::to_string(launch.world_size) +
                       " MPI ranks would all write this one file: put %r (the rank) in the "
                       "name, e.g. trace-%r.h5");
  return out;
}

namespace {

std::string source_name(const std::vector<std::string>& sources, std::size_t i) {
  return i < sources.size() ? sources[i] : "trace " + std::to_string(i + 1);
}

// Host order: by rank when every trace has one, else as given.
std::vector<std::size_t> host_order(const std::vector<Trace>& traces) {
  std::vector<std::size_t> order(traces.size());
  std::iota(order.begin(), order.end(), 0);
  const bool ranked =
      std::all_of(traces.begin(), traces.end(), [](const Trace& t) { return t.meta.rank >= 0; });
  if (ranked)
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return traces[a].meta.rank < traces[b].meta.rank;
    });
  return order;
}

// One capture given twice (same host, rank and start) would double every host's I/O.
Result<void> check_distinct(const std::vector<Trace>& traces, const std::vector<std::size_t>& order,
                            const std::vector<std::string>& sources) {
  for (std::size_t i = 0; i < order.size(); ++i)
    for (std::size_t j = i + 1; j < order.size(); ++j) {
      const Meta& a = traces[order[i]].meta;
      const Meta& b = traces[order[j]].meta;
      if (a.host == b.host && a.rank == b.rank && a.start_wall_ns == b.start_wall_ns)
        return input_error(source_name(sources, order[i]) + " and " +
                           source_name(sources, order[j]) + " are the same capture (host " +
                           a.host + ", rank " + std::to_string(a.rank) +
                           ", same start): give each host's trace once");
    }
  return ok();
}

// One clock: the earliest start wall-clock time, when every trace has one.
std::optional<std::int64_t> first_wall_clock(const std::vector<Trace>& traces) {
  const bool walls = std::all_of(traces.begin(), traces.end(),
                                 [](const Trace& t) { return t.meta.start_wall_ns > 0; });
  if (!walls) return std::nullopt;
  std::int64_t first_wall = traces.front().meta.start_wall_ns;
  for (const auto& t : traces) first_wall = std::min(first_wall, t.meta.start_wall_ns);
  return first_wall;
}

// The merged metadata before any host is added: the first host's (`m0`) command, kernel, version,
// GPUs and clocks, on the common clock when there is one.
Meta merged_meta(const Meta& m0, std::optional<std::int64_t> first_wall) {
  Meta out;
  out.command = m0.command;
  out.kernel = m0.kernel;
  out.dlgen_version = m0.dlgen_version;
  out.gpu = m0.gpu;  // the first host's GPUs (hosts of one run have the same kind)
  out.start_wall_ns = first_wall ? *first_wall : m0.start_wall_ns;
  out.start_mono_ns = m0.start_mono_ns;
  out.world_size = m0.world_size;
  out.block_layer = true;
  out.complete = true;
  return out;
}

// Host h's place in the merged trace: its pid base and its start on the common clock.
Result<HostPart> host_part(const Meta& m, std::size_t h, std::string source,
                           std::optional<std::int64_t> first_wall) {
  HostPart part;
  part.source = std::move(source);
  part.host = m.host;
  part.rank = m.rank;
  part.pid_base = static_cast<std::uint32_t>(h) << kHostPidShift;
  if (first_wall) {
    const auto offset = static_cast<std::uint64_t>(m.start_wall_ns - *first_wall);
    if (offset > kMaxClockSpreadNs)
      return input_error(part.source + " starts " + std::to_string(offset / 1'000'000'000ull) +
                         " s after the first trace: traces of one run start together (are "
                         "the hosts' clocks set?)");
    part.offset_ns = offset;
  }
  return part;
}

// One host's metadata into the merged: its name once in the list, lost events summed, complete
// only when every host is, the first non-zero exit status.
void add_host_meta(Meta& out, const Meta& m, std::uint64_t offset_ns) {
  if (!m.host.empty() &&
      (out.host.empty() || ("," + out.host + ",").find("," + m.host + ",") == std::string::npos))
    out.host += (out.host.empty() ? "" : ",") + m.host;
  out.duration_ns = std::max(out.duration_ns, offset_ns + m.duration_ns);
  out.lost_events += m.lost_events;
  for (const auto& r : kLostReasons) out.lost.*r.count += m.lost.*r.count;
  if (out.exit_status == 0) out.exit_status = m.exit_status;
  out.block_layer = out.block_layer && m.block_layer;
  out.complete = out.complete && m.complete;
}

// A pid of host `part` moved to its place among all hosts' pids.
Result<std::uint32_t> move_pid(const HostPart& part, std::uint32_t pid) {
  if (pid == 0) return pid;  // no process (a ppid outside the traced tree)
  if (pid >> kHostPidShift)
    return input_error(part.source + ": pid " + std::to_string(pid) +
                       " does not fit in 22 bits; cannot merge it with other hosts");
  return pid + part.pid_base;
}

// Host h's files into the merged ones, matched by path (files each host has apart stay one per
// host); returns the merged index of each of the host's files.
std::vector<std::uint32_t> merge_files(std::vector<File>& files, std::size_t h,
                                       std::unordered_map<std::string, std::uint32_t>& file_of_path,
                                       std::vector<File>& out) {
  std::vector<std::uint32_t> file_map(files.size());
  for (std::size_t i = 0; i < files.size(); ++i) {
    File& f = files[i];
    const std::string key = host_local(f.path) ? std::to_string(h) + ":" + f.path : "/" + f.path;
    auto [it, added] = file_of_path.try_emplace(key, static_cast<std::uint32_t>(out.size()));
    if (added) {
      out.push_back(std::move(f));
    } else {
      File& seen = out[it->second];
      seen.size_at_open = std::max(seen.size_at_open, f.size_at_open);
      if (seen.magic_len == 0) seen.magic = f.magic, seen.magic_len = f.magic_len;
    }
    file_map[i] = it->second;
  }
  return file_map;
}

Result<void> merge_processes(const std::vector<Process>& processes, const HostPart& part,
                             std::vector<Process>& out) {
  for (Process p : processes) {
    auto pid = move_pid(part, p.pid), tgid = move_pid(part, p.tgid), ppid = move_pid(part, p.ppid);
    if (!pid) return pid.error();
    if (!tgid) return tgid.error();
    if (!ppid) return ppid.error();
    p.pid = *pid, p.tgid = *tgid, p.ppid = *ppid;
    p.start_ns += part.offset_ns;
    if (p.end_ns) p.end_ns += part.offset_ns;
    out.push_back(std::move(p));
  }
  return ok();
}

// Host `part`'s events with its pids, tids, forked children and files moved and its times on the
// common clock.
Result<void> merge_events(const std::vector<Event>& events, const HostPart& part,
                          const std::vector<std::uint32_t>& file_map, std::vector<Event>& out) {
  for (Event e : events) {
    auto pid = move_pid(part, e.pid), tid = move_pid(part, e.tid);
    if (!pid) return pid.error();
    if (!tid) return tid.error();
    e.pid = *pid, e.tid = *tid;
    if ((e.op == Op::fork || e.op == Op::thread) && e.arg) {
      auto child = move_pid(part, static_cast<std::uint32_t>(e.arg));
      if (!child) return child.error();
      e.arg = *child;
    }
    if (e.file != kNoFile) {
      if (e.file >= file_map.size())
        return input_error(part.source + ": an event names file " + std::to_string(e.file) +
                           " of " + std::to_string(file_map.size()));
      e.file = file_map[e.file];
    }
    e.ts_ns += part.offset_ns;
    out.push_back(e);
  }
  return ok();
}

// HTTP requests: their threads and times (their bodies' bursts' too) move as the events do.
Result<void> merge_http(const std::vector<HttpRequest>& requests, const HostPart& part,
                        std::vector<HttpRequest>& out) {
  for (HttpRequest r : requests) {
    auto pid = move_pid(part, r.pid), tid = move_pid(part, r.tid);
    if (!pid) return pid.error();
    if (!tid) return tid.error();
    r.pid = *pid, r.tid = *tid;
    r.request_ns += part.offset_ns;
    if (r.first_byte_ns) r.first_byte_ns += part.offset_ns;
    if (r.last_byte_ns) r.last_byte_ns += part.offset_ns;
    for (HttpBurst& b : r.body) b.start_ns += part.offset_ns, b.end_ns += part.offset_ns;
    out.push_back(std::move(r));
  }
  return ok();
}

}  // namespace

// The steps: host order and checks, the common clock, then each host's metadata, files,
// processes and events in turn, and one sort of all events by time.
Result<Trace> merge_host_traces(std::vector<Trace> traces,
                                const std::vector<std::string>& sources) {
  if (traces.empty()) return input_error("no trace to merge");
  if (traces.size() == 1) return std::move(traces.front());
  if (traces.size() > kMaxHosts)
    return input_error(std::to_string(traces.size()) + " traces: at most " +
                       std::to_string(kMaxHosts) + " hosts can be merged");
  const std::vector<std::size_t> order = host_order(traces);
  if (Result<void> distinct = check_distinct(traces, order, sources); !distinct)
    return distinct.error();
  const std::optional<std::int64_t> first_wall = first_wall_clock(traces);

  Trace out;
  out.meta = merged_meta(traces[order.front()].meta, first_wall);
  std::unordered_map<std::string, std::uint32_t> file_of_path;
  std::size_t total_events = 0;
  for (const auto& t : traces) total_events += t.events.size();
  out.events.reserve(total_events);
  for (std::size_t h = 0; h < order.size(); ++h) {
    Trace& t = traces[order[h]];
    Result<HostPart> part = host_part(t.meta, h, source_name(sources, order[h]), first_wall);
    if (!part) return part.error();
    add_host_meta(out.meta, t.meta, part->offset_ns);
    const std::vector<std::uint32_t> file_map = merge_files(t.files, h, file_of_path, out.files);
    if (Result<void> p = merge_processes(t.processes, *part, out.processes); !p) return p.error();
    if (Result<void> e = merge_events(t.events, *part, file_map, out.events); !e) return e.error();
    if (Result<void> r = merge_http(t.http, *part, out.http); !r) return r.error();
    out.hosts.push_back(std::move(*part));
  }
  // Each host's events are in time order; one stable sort puts them on the one clock (a host's
  // own order is kept for equal times).
  std::stable_sort(out.events.begin(), out.events.end(),
                   [](const Event& a, const Event& b) { return a.ts_ns < b.ts_ns; });
  std::stable_sort(out.http.begin(), out.http.end(),
                   [](const auto& a, const auto& b) { return a.request_ns < b.request_ns; });
  return out;
}

}  // namespace dlgen::trace
