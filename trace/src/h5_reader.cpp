// The HDF5 trace reader (format: h5_schema.hpp, docs/trace-format.md), in this process: every
// index, length and count read from the file is checked, so a corrupt file is an input error with
// the reason, never a crash of dlgen's own code (HDF5 itself may still crash on corrupt metadata:
// trace_read.cpp runs this in a child first).
#include <hdf5.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "dlgen/trace/trace_io.hpp"
#include "h5.hpp"
#include "h5_schema.hpp"
#include "h5_table.hpp"
#include "trace_read.hpp"

namespace dlgen::trace {
namespace {

using h5::get_attr;
using h5::get_attr_string;
using h5::get_attr_strings;
using h5::kCommLen;
using h5::read_column;
using h5::read_comm_strings;
using h5::read_vlen_strings;
using h5::table_rows;
using namespace schema;

Error corrupt(const std::filesystem::path& path, const std::string& what) {
  return input_error(path.string() + ": corrupt trace: " + what);
}

Error bad_events(const std::filesystem::path& path) {
  return corrupt(path, "cannot read /events");
}

// Checks every event's op code, file index and times, then sorts by entry time (stable) unless
// already sorted.
Result<void> finish_events(Trace& t, const std::filesystem::path& path) {
  bool sorted = true;
  for (std::size_t i = 0; i < t.events.size(); ++i) {
    const Event& e = t.events[i];
    if (static_cast<int>(e.op) >= kOpCount)
      return corrupt(path, "unknown op code " + std::to_string(static_cast<int>(e.op)) +
                               " in event " + std::to_string(i));
    if (e.file != kNoFile && e.file >= t.files.size())
      return corrupt(path, "event " + std::to_string(i) + " names file " + std::to_string(e.file) +
                               " but /files has " + std::to_string(t.files.size()) + " rows");
    if (e.ts_ns > kMaxTraceNs || e.dur_ns > kMaxTraceNs)
      return corrupt(path, "event " + std::to_string(i) + " at " + std::to_string(e.ts_ns) +
                               " ns lasting " + std::to_string(e.dur_ns) +
                               " ns lies beyond 31 days");
    sorted &= i == 0 || t.events[i - 1].ts_ns <= e.ts_ns;
  }
  if (sorted) return ok();
  // Version 2 groups rows by thread within each block; captured events may also arrive a block
  // late. Sorting (ts, row) keys is cheaper than moving whole events twice.
  std::vector<std::pair<std::uint64_t, std::uint32_t>> keys(t.events.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
    keys[i] = {t.events[i].ts_ns, static_cast<std::uint32_t>(i)};
  std::sort(keys.begin(), keys.end());
  std::vector<Event> out(t.events.size());
  for (std::size_t i = 0; i < keys.size(); ++i) out[i] = t.events[keys[i].second];
  t.events = std::move(out);
  return ok();
}

// An unfinished capture may stop between two columns' extensions of one write block.
constexpr hsize_t kEventTolerance(bool complete) {
  return complete ? 0 : kChunk * 4;
}

Result<void> read_events_v2(hid_t events, Trace& t, const std::filesystem::path& path,
                            std::uint64_t file_bytes) {
  std::vector<std::pair<const char*, std::size_t>> cols;
  for (const auto& c : event_columns()) cols.emplace_back(c.name, H5Tget_size(c.file_type));
  auto rows =
      table_rows(events, "events", cols, file_bytes, kEventTolerance(t.meta.complete), path);
  if (!rows) return rows.error();
  const hsize_t n = *rows;
  std::string failed;
  const auto unit = get_attr<std::uint64_t>(events, "ts_unit_ns", kTsUnitNs, &failed);
  if (!failed.empty()) return corrupt(path, "cannot read /events " + failed);
  if (unit < 1 || unit > 1'000'000'000)
    return corrupt(path,
                   "/events ts_unit_ns is " + std::to_string(unit) + " (expected 1 ns to 1 s)");
  EventColumns c;
  if (!read_column(events, "ts_delta", n, c.ts_delta) || !read_column(events, "dur_ns", n, c.dur) ||
      !read_column(events, "pid", n, c.pid) || !read_column(events, "tid", n, c.tid) ||
      !read_column(events, "op", n, c.op) || !read_column(events, "file", n, c.file) ||
      !read_column(events, "fd", n, c.fd) ||
      !read_column(events, "offset_delta", n, c.offset_delta) ||
      !read_column(events, "size", n, c.size) ||
      !read_column(events, "ret_delta", n, c.ret_delta) ||
      !read_column(events, "flags", n, c.flags) || !read_column(events, "arg", n, c.arg))
    return bad_events(path);
  t.events.resize(n);
  std::uint64_t q = 0, end = 0;
  for (hsize_t i = 0; i < n; ++i) {
    Event& e = t.events[i];
    // The running sum of ts deltas and the ns time must stay within the trace's span; a corrupt
    // delta (wrapping mod 2^64) would otherwise give any time.
    q += static_cast<std::uint64_t>(c.ts_delta[i]);
    if (q > kMaxTraceNs / unit)
      return corrupt(path, "event row " + std::to_string(i) + " has ts_delta " +
                               std::to_string(c.ts_delta[i]) + ", a time beyond 31 days");
    e.ts_ns = q * unit;
    e.dur_ns = decode_dur(c.dur[i]);
    e.pid = c.pid[i];
    e.tid = c.tid[i];
    e.op = static_cast<Op>(c.op[i]);
    e.file = c.file[i];
    e.fd = c.fd[i];
    e.size = c.size[i];
    e.offset = end + static_cast<std::uint64_t>(c.offset_delta[i]);
    e.ret = static_cast<std::int64_t>(e.size + static_cast<std::uint64_t>(c.ret_delta[i]));
    end = row_end(e.offset, e.ret);
    e.flags = c.flags[i];
    e.arg = c.arg[i];
  }
  return finish_events(t, path);
}

// Version 1: every field as is, ts as ts_delta_ns (ns), rows in time order.
Result<void> read_events_v1(hid_t events, Trace& t, const std::filesystem::path& path,
                            std::uint64_t file_bytes) {
  const std::vector<std::pair<const char*, std::size_t>> cols = {
      {"ts_delta_ns", 8}, {"dur_ns", 8}, {"pid", 4},  {"tid", 4}, {"op", 1},    {"file", 4},
      {"fd", 4},          {"offset", 8}, {"size", 8}, {"ret", 8}, {"flags", 4}, {"arg", 8}};
  auto rows =
      table_rows(events, "events", cols, file_bytes, kEventTolerance(t.meta.complete), path);
  if (!rows) return rows.error();
  const hsize_t n = *rows;
  std::vector<std::int64_t> ts_delta, ret;
  std::vector<std::uint64_t> dur, offset, size, arg;
  std::vector<std::uint32_t> pid, tid, file, flags;
  std::vector<std::uint8_t> op;
  std::vector<std::int32_t> fd;
  if (!read_column(events, "ts_delta_ns", n, ts_delta) || !read_column(events, "dur_ns", n, dur) ||
      !read_column(events, "pid", n, pid) || !read_column(events, "tid", n, tid) ||
      !read_column(events, "op", n, op) || !read_column(events, "file", n, file) ||
      !read_column(events, "fd", n, fd) || !read_column(events, "offset", n, offset) ||
      !read_column(events, "size", n, size) || !read_column(events, "ret", n, ret) ||
      !read_column(events, "flags", n, flags) || !read_column(events, "arg", n, arg))
    return bad_events(path);
  t.events.resize(n);
  std::uint64_t ts = 0;
  for (hsize_t i = 0; i < n; ++i) {
    Event& e = t.events[i];
    ts += static_cast<std::uint64_t>(ts_delta[i]);
    e.ts_ns = ts;
    e.dur_ns = dur[i];
    e.pid = pid[i];
    e.tid = tid[i];
    e.op = static_cast<Op>(op[i]);
    e.file = file[i];
    e.fd = fd[i];
    e.offset = offset[i];
    e.size = size[i];
    e.ret = ret[i];
    e.flags = flags[i];
    e.arg = arg[i];
  }
  return finish_events(t, path);
}

// The file's format and version: an input error when it is not a dlgen trace this dlgen reads.
Result<std::uint32_t> check_format(hid_t f, const std::filesystem::path& path) {
  if (get_attr_string(f, "format") != kFormatName)
    return input_error(path.string() + ": not a dlgen trace (no format=\"dlgen-trace\" attribute)");
  auto version = get_attr<std::uint32_t>(f, "format_version", 0);
  if (version == 0 || version > kFormatVersion)
    return input_error(path.string() + ": trace format version " + std::to_string(version) +
                       " is not supported (this dlgen reads up to " +
                       std::to_string(kFormatVersion) + ")");
  return version;
}

// The root's attributes into `m`, and the checks across them.
Result<void> read_meta(hid_t f, Meta& m, std::uint64_t file_bytes,
                       const std::filesystem::path& path) {
  auto command = get_attr_strings(f, "command", file_bytes);
  if (!command) return corrupt(path, "cannot read the command attribute");
  m.command = std::move(*command);
  std::string failed;  // the first attribute that is there but unreadable
  m.start_wall_ns = get_attr<std::int64_t>(f, "start_wall_ns", 0, &failed);
  m.start_mono_ns = get_attr<std::uint64_t>(f, "start_mono_ns", 0, &failed);
  m.duration_ns = get_attr<std::uint64_t>(f, "duration_ns", 0, &failed);
  m.host = get_attr_string(f, "host", &failed);
  m.rank = get_attr<std::int32_t>(f, "rank", -1, &failed);  // absent (older traces): no MPI
  m.world_size = get_attr<std::int32_t>(f, "world_size", 0, &failed);
  m.kernel = get_attr_string(f, "kernel", &failed);
  m.dlgen_version = get_attr_string(f, "dlgen_version", &failed);
  m.lost_events = get_attr<std::uint64_t>(f, "lost_events", 0, &failed);
  for (const auto& r : kLostReasons)  // absent (older traces): 0
    m.lost.*r.count =
        get_attr<std::uint64_t>(f, (std::string("lost_") + r.name).c_str(), 0, &failed);
  m.lost_events = std::max(m.lost_events, m.lost.total());
  m.exit_status = get_attr<std::int32_t>(f, "exit_status", 0, &failed);
  m.block_layer = get_attr<std::uint8_t>(f, "block_layer", 0, &failed) != 0;
  m.complete = get_attr<std::uint8_t>(f, "complete", 0, &failed) != 0;
  // Absent (traces from before dlgen recorded them): empty.
  auto gpu_devices = get_attr_strings(f, "gpu_devices", file_bytes);
  auto cuda_probes = get_attr_strings(f, "cuda_probes", file_bytes);
  if (!gpu_devices) return corrupt(path, "cannot read the gpu_devices attribute");
  if (!cuda_probes) return corrupt(path, "cannot read the cuda_probes attribute");
  m.gpu.devices = std::move(*gpu_devices);
  m.gpu.cuda_probes = std::move(*cuda_probes);
  m.gpu.driver = get_attr_string(f, "gpu_driver", &failed);
  m.gpu.cuda_lib = get_attr_string(f, "cuda_lib", &failed);
  m.gpu.note = get_attr_string(f, "gpu_note", &failed);
  if (!failed.empty()) return corrupt(path, "cannot read the attribute " + failed);
  if (m.rank < -1 || m.world_size < 0 || (m.world_size > 0 && m.rank >= m.world_size))
    return corrupt(path, "rank " + std::to_string(m.rank) + " of world_size " +
                             std::to_string(m.world_size) + " is impossible");
  if (m.duration_ns > kMaxTraceNs)
    return corrupt(path, "duration_ns is " + std::to_string(m.duration_ns) + ", more than 31 days");
  return ok();
}

// /files into t.files.
Result<void> read_files(hid_t files, Trace& t, std::uint64_t file_bytes, hsize_t tolerance,
                        const std::filesystem::path& path) {
  auto rows = table_rows(
      files, "files",
      {{"path", 16}, {"dev", 8}, {"ino", 8}, {"size_at_open", 8}, {"magic", 8}, {"magic_len", 1}},
      file_bytes, tolerance, path);
  if (!rows) return rows.error();
  const hsize_t n = *rows;
  std::vector<std::string> path_col;
  std::vector<std::uint64_t> dev, ino, sz, magic;
  std::vector<std::uint8_t> mlen;
  if (!read_vlen_strings(files, "path", n, path_col) || !read_column(files, "dev", n, dev) ||
      !read_column(files, "ino", n, ino) || !read_column(files, "size_at_open", n, sz) ||
      !read_column(files, "magic", n, magic) || !read_column(files, "magic_len", n, mlen))
    return corrupt(path, "cannot read /files");
  t.files.resize(n);
  for (hsize_t i = 0; i < n; ++i) {
    if (mlen[i] > 8)
      return corrupt(path, "/files row " + std::to_string(i) + " has magic_len " +
                               std::to_string(mlen[i]) + " (at most 8)");
    t.files[i] = File{std::move(path_col[i]), dev[i], ino[i], sz[i], magic[i], mlen[i]};
  }
  return ok();
}

// /processes into t.processes.
Result<void> read_processes(hid_t procs, Trace& t, std::uint64_t file_bytes, hsize_t tolerance,
                            const std::filesystem::path& path) {
  auto rows = table_rows(procs, "processes",
                         {{"pid", 4},
                          {"tgid", 4},
                          {"ppid", 4},
                          {"comm", kCommLen},
                          {"first_comm", kCommLen},
                          {"start_ns", 8},
                          {"end_ns", 8},
                          {"exit_code", 4},
                          {"is_thread", 1}},
                         file_bytes, tolerance, path);
  if (!rows) return rows.error();
  const hsize_t n = *rows;
  std::vector<std::uint32_t> pid, tgid, ppid;
  std::vector<std::string> comm, first;
  std::vector<std::uint64_t> start, end;
  std::vector<std::int32_t> code;
  std::vector<std::uint8_t> thread;
  if (!read_column(procs, "pid", n, pid) || !read_column(procs, "tgid", n, tgid) ||
      !read_column(procs, "ppid", n, ppid) || !read_comm_strings(procs, "comm", n, comm) ||
      !read_comm_strings(procs, "first_comm", n, first) ||
      !read_column(procs, "start_ns", n, start) || !read_column(procs, "end_ns", n, end) ||
      !read_column(procs, "exit_code", n, code) || !read_column(procs, "is_thread", n, thread))
    return corrupt(path, "cannot read /processes");
  t.processes.resize(n);
  for (hsize_t i = 0; i < n; ++i) {
    Process& p = t.processes[i];
    p.pid = pid[i];
    p.tgid = tgid[i];
    p.ppid = ppid[i];
    p.comm = std::move(comm[i]);
    p.first_comm = std::move(first[i]);
    p.start_ns = start[i];
    p.end_ns = end[i];
    p.exit_code = code[i];
    p.is_thread = thread[i] != 0;
    if (p.start_ns > kMaxTraceNs || p.end_ns > kMaxTraceNs)
      return corrupt(path,
                     "/processes row " + std::to_string(i) + " starts or ends beyond 31 days");
  }
  return ok();
}

// /http_body's bursts into the rows of t.http (as written: not yet sorted). Absent in traces
// without streamed bodies and in older ones. A row's bursts must be in order and inside its body.
Result<void> read_http_body(hid_t f, Trace& t, std::uint64_t file_bytes, hsize_t tolerance,
                            const std::filesystem::path& path) {
  if (H5Lexists(f, "http_body", H5P_DEFAULT) <= 0) return ok();
  h5::Handle body = h5::group(H5Gopen2(f, "http_body", H5P_DEFAULT));
  if (!body.valid()) return corrupt(path, "cannot read /http_body");
  std::vector<std::pair<const char*, std::size_t>> cols = {{"request", 8}};
  for (const auto& c : kHttpBurstColumns) cols.emplace_back(c.name, 8);
  auto rows = table_rows(body, "http_body", cols, file_bytes, tolerance, path);
  if (!rows) return rows.error();
  const hsize_t n = *rows;
  std::vector<std::uint64_t> request;
  std::vector<std::vector<std::uint64_t>> v(std::size(kHttpBurstColumns));
  bool good = read_column(body, "request", n, request);
  for (std::size_t c = 0; good && c < v.size(); ++c)
    good = read_column(body, kHttpBurstColumns[c].name, n, v[c]);
  if (!good) return corrupt(path, "cannot read /http_body");
  for (hsize_t i = 0; i < n; ++i) {
    const std::string row = "/http_body row " + std::to_string(i);
    if (request[i] >= t.http.size()) return corrupt(path, row + " names no /http row");
    HttpBurst b;
    for (std::size_t c = 0; c < v.size(); ++c) b.*kHttpBurstColumns[c].field = v[c][i];
    std::vector<HttpBurst>& to = t.http[request[i]].body;
    const std::uint64_t at = to.empty() ? 0 : to.back().offset + to.back().bytes;
    if (b.start_ns > b.end_ns || b.end_ns > kMaxTraceNs || b.offset < at ||
        b.bytes > t.http[request[i]].content_length ||
        b.offset > t.http[request[i]].content_length - b.bytes)
      return corrupt(path, row + " is not a burst of its body in order");
    to.push_back(b);
  }
  return ok();
}

// /http into t.http (absent in traces without HTTP requests and in older ones), with its bodies'
// bursts, sorted by request time.
Result<void> read_http(hid_t f, Trace& t, std::uint64_t file_bytes, hsize_t tolerance,
                       const std::filesystem::path& path) {
  if (H5Lexists(f, "http", H5P_DEFAULT) <= 0) return ok();
  h5::Handle http = h5::group(H5Gopen2(f, "http", H5P_DEFAULT));
  if (!http.valid()) return corrupt(path, "cannot read /http");
  std::vector<std::pair<const char*, std::size_t>> cols = {
      {"pid", 4}, {"tid", 4}, {"fd", 4}, {"status", 2}};
  for (const auto& c : kHttpNumbers) cols.emplace_back(c.name, 8);
  for (const auto& c : kHttpStrings) cols.emplace_back(c.name, 16);
  auto rows = table_rows(http, "http", cols, file_bytes, tolerance, path);
  if (!rows) return rows.error();
  const hsize_t n = *rows;
  std::vector<std::uint32_t> pid, tid, status;
  std::vector<std::int32_t> fd;
  std::vector<std::vector<std::uint64_t>> nums(std::size(kHttpNumbers));
  std::vector<std::vector<std::string>> strs(std::size(kHttpStrings));
  bool good = read_column(http, "pid", n, pid) && read_column(http, "tid", n, tid) &&
              read_column(http, "fd", n, fd) && read_column(http, "status", n, status);
  for (std::size_t c = 0; good && c < nums.size(); ++c)
    good = read_column(http, kHttpNumbers[c].name, n, nums[c]);
  for (std::size_t c = 0; good && c < strs.size(); ++c)
    good = read_vlen_strings(http, kHttpStrings[c].name, n, strs[c]);
  if (!good) return corrupt(path, "cannot read /http");
  t.http.resize(n);
  for (hsize_t i = 0; i < n; ++i) {
    HttpRequest& r = t.http[i];
    r.pid = pid[i];
    r.tid = tid[i];
    r.fd = fd[i];
    if (status[i] > 999)
      return corrupt(path,
                     "/http row " + std::to_string(i) + " has status " + std::to_string(status[i]));
    r.status = static_cast<std::uint16_t>(status[i]);
    for (std::size_t c = 0; c < nums.size(); ++c) r.*kHttpNumbers[c].field = nums[c][i];
    for (std::size_t c = 0; c < strs.size(); ++c) r.*kHttpStrings[c].field = std::move(strs[c][i]);
    if (r.request_ns > kMaxTraceNs || r.first_byte_ns > kMaxTraceNs || r.last_byte_ns > kMaxTraceNs)
      return corrupt(path, "/http row " + std::to_string(i) + " has a time beyond 31 days");
  }
  if (auto r = read_http_body(f, t, file_bytes, tolerance, path); !r) return r;
  std::stable_sort(t.http.begin(), t.http.end(),
                   [](const auto& a, const auto& b) { return a.request_ns < b.request_ns; });
  return ok();
}

// `meta_only`: the format checks and the attributes, not the tables.
Result<Trace> read_checked(const std::filesystem::path& path, bool meta_only) {
  h5::QuietErrors quiet;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return input_error(path.string() + ": no such file");
  const std::uint64_t file_bytes = std::filesystem::file_size(path, ec);
  if (ec) return input_error(path.string() + ": cannot read its size: " + ec.message());
  if (H5Fis_hdf5(path.c_str()) <= 0)
    return input_error(path.string() + ": not an HDF5 file (expected a dlgen trace)");
  h5::Handle f = h5::file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  if (!f.valid()) return input_error(path.string() + ": cannot open HDF5 file");
  auto version = check_format(f, path);
  if (!version) return version.error();
  Trace t;
  if (auto r = read_meta(f, t.meta, file_bytes, path); !r) return r.error();
  if (meta_only) return t;

  h5::Handle files = h5::group(H5Gopen2(f, "files", H5P_DEFAULT));
  h5::Handle procs = h5::group(H5Gopen2(f, "processes", H5P_DEFAULT));
  h5::Handle events = h5::group(H5Gopen2(f, "events", H5P_DEFAULT));
  if (!files.valid() || !procs.valid() || !events.valid())
    return corrupt(path, "cannot read /files, /processes or /events");
  // /files and /processes are rewritten whole at each flush: their columns agree unless the
  // capture was killed inside one (complete = 0: the shortest counts).
  const hsize_t table_tolerance = t.meta.complete ? 0 : std::numeric_limits<hsize_t>::max();
  if (auto r = read_files(files, t, file_bytes, table_tolerance, path); !r) return r.error();
  if (auto r = read_processes(procs, t, file_bytes, table_tolerance, path); !r) return r.error();
  if (auto r = read_http(f, t, file_bytes, table_tolerance, path); !r) return r.error();
  Result<void> r = *version == 1 ? read_events_v1(events, t, path, file_bytes)
                                 : read_events_v2(events, t, path, file_bytes);
  if (!r) return r.error();
  return t;
}

}  // namespace

// In this process, every index and length checked; HDF5 itself may still crash on corrupt
// metadata (trace_read.cpp runs this in a child first).
Result<Trace> read_trace_in_process(const std::filesystem::path& path) {
  return read_trace_in_process(path, false);
}

Result<Trace> read_trace_in_process(const std::filesystem::path& path, bool meta_only) {
  try {
    return read_checked(path, meta_only);
  } catch (const std::bad_alloc&) {
    return input_error(path.string() +
                       ": corrupt trace: it asks for more memory than this host has");
  } catch (const std::length_error& e) {
    return input_error(path.string() + ": corrupt trace: " + e.what());
  }
}

}  // namespace dlgen::trace
