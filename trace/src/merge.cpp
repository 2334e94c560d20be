// Multi-host traces: the launcher's rank, per-rank file names, and merging one trace per host.
#include "dlgen/trace/merge.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <numeric>
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

Result<Trace> merge_host_traces(std::vector<Trace> traces,
                                const std::vector<std::string>& sources) {
  if (traces.empty()) return input_error("no trace to merge");
  if (traces.size() == 1) return std::move(traces.front());
  if (traces.size() > kMaxHosts)
    return input_error(std::to_string(traces.size()) + " traces: at most " +
                       std::to_string(kMaxHosts) + " hosts can be merged");
  auto name = [&](std::size_t i) {
    return i < sources.size() ? sources[i] : "trace " + std::to_string(i + 1);
  };
  // Host order: by rank when every trace has one, else as given.
  std::vector<std::size_t> order(traces.size());
  std::iota(order.begin(), order.end(), 0);
  const bool ranked =
      std::all_of(traces.begin(), traces.end(), [](const Trace& t) { return t.meta.rank >= 0; });
  if (ranked)
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return traces[a].meta.rank < traces[b].meta.rank;
    });
  for (std::size_t i = 0; i < order.size(); ++i)
    for (std::size_t j = i + 1; j < order.size(); ++j) {
      const Meta& a = traces[order[i]].meta;
      const Meta& b = traces[order[j]].meta;
      if (a.host == b.host && a.rank == b.rank && a.start_wall_ns == b.start_wall_ns)
        return input_error(name(order[i]) + " and " + name(order[j]) +
                           " are the same capture (host " + a.host + ", rank " +
                           std::to_string(a.rank) + ", same start): give each host's trace once");
    }
  // One clock: the start wall-clock times, when every trace has one.
  const bool walls = std::all_of(traces.begin(), traces.end(),
                                 [](const Trace& t) { return t.meta.start_wall_ns > 0; });
  std::int64_t first_wall = 0;
  if (walls) {
    first_wall = traces.front().meta.start_wall_ns;
    for (const auto& t : traces) first_wall = std::min(first_wall, t.meta.start_wall_ns);
  }

  Trace out;
  const Meta& m0 = traces[order.front()].meta;
  out.meta.command = m0.command;
  out.meta.kernel = m0.kernel;
  out.meta.dlgen_version = m0.dlgen_version;
  out.meta.gpu = m0.gpu;  // the first host's GPUs (hosts of one run have the same kind)
  out.meta.start_wall_ns = walls ? first_wall : m0.start_wall_ns;
  out.meta.start_mono_ns = m0.start_mono_ns;
  out.meta.world_size = m0.world_size;
  out.meta.block_layer = true;
  out.meta.complete = true;
  std::unordered_map<std::string, std::uint32_t> file_of_path;
  std::size_t total_events = 0;
  for (const auto& t : traces) total_events += t.events.size();
  out.events.reserve(total_events);

  for (std::size_t h = 0; h < order.size(); ++h) {
    Trace& t = traces[order[h]];
    const Meta& m = t.meta;
    HostPart part;
    part.source = name(order[h]);
    part.host = m.host;
    part.rank = m.rank;
    part.pid_base = static_cast<std::uint32_t>(h) << kHostPidShift;
    if (walls) {
      const auto offset = static_cast<std::uint64_t>(m.start_wall_ns - first_wall);
      if (offset > kMaxClockSpreadNs)
        return input_error(part.source + " starts " + std::to_string(offset / 1'000'000'000ull) +
                           " s after the first trace: traces of one run start together (are "
                           "the hosts' clocks set?)");
      part.offset_ns = offset;
    }
    // Metadata.
    if (!m.host.empty() &&
        (out.meta.host.empty() ||
         ("," + out.meta.host + ",").find("," + m.host + ",") == std::string::npos))
      out.meta.host += (out.meta.host.empty() ? "" : ",") + m.host;
    out.meta.duration_ns = std::max(out.meta.duration_ns, part.offset_ns + m.duration_ns);
    out.meta.lost_events += m.lost_events;
    for (const auto& r : kLostReasons) out.meta.lost.*r.count += m.lost.*r.count;
    if (out.meta.exit_status == 0) out.meta.exit_status = m.exit_status;
    out.meta.block_layer = out.meta.block_layer && m.block_layer;
    out.meta.complete = out.meta.complete && m.complete;

    auto move_pid = [&](std::uint32_t pid) -> Result<std::uint32_t> {
      if (pid == 0) return pid;  // no process (a ppid outside the traced tree)
      if (pid >> kHostPidShift)
        return input_error(part.source + ": pid " + std::to_string(pid) +
                           " does not fit in 22 bits; cannot merge it with other hosts");
      return pid + part.pid_base;
    };
    // Files, matched by path.
    std::vector<std::uint32_t> file_map(t.files.size());
    for (std::size_t i = 0; i < t.files.size(); ++i) {
      File& f = t.files[i];
      const std::string key = host_local(f.path) ? std::to_string(h) + ":" + f.path : "/" + f.path;
      auto [it, added] =
          file_of_path.try_emplace(key, static_cast<std::uint32_t>(out.files.size()));
      if (added) {
        out.files.push_back(std::move(f));
      } else {
        File& seen = out.files[it->second];
        seen.size_at_open = std::max(seen.size_at_open, f.size_at_open);
        if (seen.magic_len == 0) seen.magic = f.magic, seen.magic_len = f.magic_len;
      }
      file_map[i] = it->second;
    }
    // Processes.
    for (Process p : t.processes) {
      auto pid = move_pid(p.pid), tgid = move_pid(p.tgid), ppid = move_pid(p.ppid);
      if (!pid) return pid.error();
      if (!tgid) return tgid.error();
      if (!ppid) return ppid.error();
      p.pid = *pid, p.tgid = *tgid, p.ppid = *ppid;
      p.start_ns += part.offset_ns;
      if (p.end_ns) p.end_ns += part.offset_ns;
      out.processes.push_back(std::move(p));
    }
    // Events.
    for (Event e : t.events) {
      auto pid = move_pid(e.pid), tid = move_pid(e.tid);
      if (!pid) return pid.error();
      if (!tid) return tid.error();
      e.pid = *pid, e.tid = *tid;
      if ((e.op == Op::fork || e.op == Op::thread) && e.arg) {
        auto child = move_pid(static_cast<std::uint32_t>(e.arg));
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
      out.events.push_back(e);
    }
    // HTTP requests: their threads and times move as the events do.
    for (HttpRequest r : t.http) {
      auto pid = move_pid(r.pid), tid = move_pid(r.tid);
      if (!pid) return pid.error();
      if (!tid) return tid.error();
      r.pid = *pid, r.tid = *tid;
      r.request_ns += part.offset_ns;
      if (r.first_byte_ns) r.first_byte_ns += part.offset_ns;
      if (r.last_byte_ns) r.last_byte_ns += part.offset_ns;
      out.http.push_back(std::move(r));
    }
    out.hosts.push_back(std::move(part));
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
