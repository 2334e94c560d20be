// HDF5 trace files (spec: docs/trace-format.md). Layout:
//   /            attributes: format, format_version, metadata (command, times, host, ...)
//   /events/*    one extendible 1-D dataset per Event field, chunked, shuffle + deflate (chunks
//                written directly by chunk_writer.hpp, zlib's run-length strategy)
//                column), encoded as described at event_columns() (format version 2)
//   /files/*     one column per File field (paths as variable-length UTF-8 strings)
//   /processes/* one column per Process field (comm as fixed 16-byte strings, TASK_COMM_LEN)
// Crash safety: the writer touches the file only inside flush()/finish() (and when its in-memory
// buffer grows past kAutoWriteEvents, followed at once by H5Fflush), so a capture killed between
// flushes leaves the state of the last flush. The reader takes the shortest /events column as the
// event count, so a kill in the middle of an append still reads back consistently.
#include "dlgen/trace/trace_io.hpp"

#include <hdf5.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <numeric>
#include <optional>
#include <string>
#include <system_error>
#include <unordered_map>
#include <utility>
#include <vector>

#include "chunk_writer.hpp"
#include "h5.hpp"
#include "trace_read.hpp"

namespace dlgen::trace {
namespace {

constexpr std::uint32_t kFormatVersion = 2;
constexpr const char* kFormatName = "dlgen-trace";
constexpr hsize_t kChunk = 1 << 14;    // elements per chunk of an /events column
constexpr hsize_t kTableChunk = 1024;  // elements per chunk of /files and /processes
// zlib level of /files and /processes (HDF5's filter; rewritten in part at every flush, and small
// next to the path strings, which HDF5 stores uncompressed); /events: chunk_writer.hpp.
constexpr unsigned kDeflateLevel = 1;
constexpr std::size_t kAutoWriteEvents = 1 << 18;
constexpr std::size_t kCommLen = 16;  // TASK_COMM_LEN, NUL padded

Error h5_error(const std::filesystem::path& path, const std::string& what) {
  return runtime_error(path.string() + ": " + what);
}

h5::Handle vlen_string_type() {
  h5::Handle t = h5::type(H5Tcopy(H5T_C_S1));
  H5Tset_size(t, H5T_VARIABLE);
  H5Tset_cset(t, H5T_CSET_UTF8);
  return t;
}

h5::Handle comm_type() {
  h5::Handle t = h5::type(H5Tcopy(H5T_C_S1));
  H5Tset_size(t, kCommLen);
  H5Tset_strpad(t, H5T_STR_NULLPAD);
  return t;
}

// An empty, extendible, chunked, shuffled and deflated 1-D dataset.
h5::Handle create_column(hid_t group, const char* name, hid_t file_type, hsize_t chunk = kChunk,
                         bool shuffle = true) {
  hsize_t dims = 0, maxdims = H5S_UNLIMITED;
  h5::Handle sp = h5::space(H5Screate_simple(1, &dims, &maxdims));
  h5::Handle dcpl = h5::plist(H5Pcreate(H5P_DATASET_CREATE));
  H5Pset_chunk(dcpl, 1, &chunk);
  if (shuffle) H5Pset_shuffle(dcpl);
  H5Pset_deflate(dcpl, kDeflateLevel);
  return h5::dataset(H5Dcreate2(group, name, file_type, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT));
}

// Sets the column's length to `total` and writes `count` elements at `start`.
bool write_rows(hid_t group, const char* name, hid_t mem_type, const void* data, hsize_t start,
                hsize_t count, hsize_t total) {
  h5::Handle ds = h5::dataset(H5Dopen2(group, name, H5P_DEFAULT));
  if (!ds.valid()) return false;
  if (H5Dset_extent(ds, &total) < 0) return false;
  if (count == 0) return true;
  h5::Handle fs = h5::space(H5Dget_space(ds));
  if (H5Sselect_hyperslab(fs, H5S_SELECT_SET, &start, nullptr, &count, nullptr) < 0) return false;
  h5::Handle ms = h5::space(H5Screate_simple(1, &count, nullptr));
  return H5Dwrite(ds, mem_type, ms, fs, H5P_DEFAULT, data) >= 0;
}

// The rows of a 1-D column, checked against what the file can hold: a deflated chunk holds at
// most ~1032x its stored bytes (zlib's limit), so a column claiming more rows than kMaxInflate x
// the file's size is corrupt, and is refused before anything is allocated for it.
constexpr std::uint64_t kMaxInflate = 1100;

struct Rows {
  hsize_t n = 0;
  std::string error;  // "" when n is usable
};

Rows checked_rows(hid_t group, const char* group_name, const char* name, std::size_t elem_bytes,
                  std::uint64_t file_bytes) {
  Rows r;
  h5::Handle ds = h5::dataset(H5Dopen2(group, name, H5P_DEFAULT));
  if (!ds.valid()) return r;  // a missing column reads as zeros (older files)
  h5::Handle sp = h5::space(H5Dget_space(ds));
  const int nd = sp.valid() ? H5Sget_simple_extent_ndims(sp) : -1;
  if (nd != 1) {
    r.error = "/" + std::string(group_name) + "/" + name + " has " + std::to_string(nd) +
              " dimensions, expected 1";
    return r;
  }
  if (H5Sget_simple_extent_dims(sp, &r.n, nullptr) < 0) {
    r.error = "/" + std::string(group_name) + "/" + name + ": cannot read its shape";
    return r;
  }
  const long double bytes = static_cast<long double>(r.n) * elem_bytes;
  if (bytes > static_cast<long double>(file_bytes) * kMaxInflate + (1u << 20))
    r.error = "/" + std::string(group_name) + "/" + name + " claims " + std::to_string(r.n) +
              " rows (" + std::to_string(static_cast<unsigned long long>(bytes)) +
              " bytes), more than a file of " + std::to_string(file_bytes) + " bytes can hold";
  return r;
}

// The common row count of a table's columns. `tolerance` rows of disagreement are accepted (an
// unfinished capture may stop between two columns' writes; the shortest then counts); more is a
// corrupt file.
Result<hsize_t> table_rows(hid_t group, const char* group_name,
                           const std::vector<std::pair<const char*, std::size_t>>& cols,
                           std::uint64_t file_bytes, hsize_t tolerance,
                           const std::filesystem::path& path) {
  hsize_t lo = 0, hi = 0;
  const char* lo_name = nullptr;
  const char* hi_name = nullptr;
  for (const auto& [name, elem] : cols) {
    Rows r = checked_rows(group, group_name, name, elem, file_bytes);
    if (!r.error.empty()) return input_error(path.string() + ": corrupt trace: " + r.error);
    if (!lo_name || r.n < lo) lo = r.n, lo_name = name;
    if (!hi_name || r.n > hi) hi = r.n, hi_name = name;
  }
  if (hi - lo > tolerance)
    return input_error(path.string() + ": corrupt trace: /" + group_name +
                       " columns disagree: " + hi_name + " has " + std::to_string(hi) + " rows, " +
                       lo_name + " " + std::to_string(lo));
  return lo;
}

// Reads the first `n` elements of a 1-D dataset as `mem_type` into `buf`.
bool read_prefix(hid_t group, const char* name, hsize_t n, hid_t mem_type, void* buf) {
  h5::Handle ds = h5::dataset(H5Dopen2(group, name, H5P_DEFAULT));
  if (!ds.valid()) return false;
  h5::Handle fs = h5::space(H5Dget_space(ds));
  hsize_t start = 0, count = n;
  if (H5Sselect_hyperslab(fs, H5S_SELECT_SET, &start, nullptr, &count, nullptr) < 0) return false;
  h5::Handle ms = h5::space(H5Screate_simple(1, &count, nullptr));
  return H5Dread(ds, mem_type, ms, fs, H5P_DEFAULT, buf) >= 0;
}

// Reads the first `n` elements of a numeric column (missing column: zeros, so older files read).
template <class T>
bool read_column(hid_t group, const char* name, hsize_t n, std::vector<T>& out) {
  out.assign(n, T{});
  if (n == 0) return true;
  if (H5Lexists(group, name, H5P_DEFAULT) <= 0) return true;
  return read_prefix(group, name, n, h5::native<T>(), out.data());
}

bool read_vlen_strings(hid_t group, const char* name, hsize_t n, std::vector<std::string>& out) {
  out.assign(n, {});
  if (n == 0) return true;
  h5::Handle mt = vlen_string_type();
  std::vector<char*> buf(n, nullptr);
  if (!read_prefix(group, name, n, mt, buf.data())) return false;
  for (hsize_t i = 0; i < n; ++i) out[i] = buf[i] ? buf[i] : "";
  h5::Handle ms = h5::space(H5Screate_simple(1, &n, nullptr));
  H5Dvlen_reclaim(mt, ms, H5P_DEFAULT, buf.data());
  return true;
}

bool read_comm_strings(hid_t group, const char* name, hsize_t n, std::vector<std::string>& out) {
  out.assign(n, {});
  if (n == 0) return true;
  h5::Handle mt = comm_type();
  std::vector<char> buf(n * kCommLen, '\0');
  if (!read_prefix(group, name, n, mt, buf.data())) return false;
  for (hsize_t i = 0; i < n; ++i) {
    const char* p = buf.data() + i * kCommLen;
    out[i].assign(p, strnlen(p, kCommLen));
  }
  return true;
}

// ---- attributes ----

void delete_attr(hid_t obj, const char* name) {
  if (H5Aexists(obj, name) > 0) H5Adelete(obj, name);
}

template <class T>
bool set_attr(hid_t obj, const char* name, T value) {
  delete_attr(obj, name);
  h5::Handle sp = h5::space(H5Screate(H5S_SCALAR));
  h5::Handle a = h5::attr(H5Acreate2(obj, name, h5::native<T>(), sp, H5P_DEFAULT, H5P_DEFAULT));
  return a.valid() && H5Awrite(a, h5::native<T>(), &value) >= 0;
}

bool set_attr_string(hid_t obj, const char* name, const std::string& value) {
  delete_attr(obj, name);
  h5::Handle t = vlen_string_type();
  h5::Handle sp = h5::space(H5Screate(H5S_SCALAR));
  h5::Handle a = h5::attr(H5Acreate2(obj, name, t, sp, H5P_DEFAULT, H5P_DEFAULT));
  const char* p = value.c_str();
  return a.valid() && H5Awrite(a, t, &p) >= 0;
}

bool set_attr_strings(hid_t obj, const char* name, const std::vector<std::string>& values) {
  delete_attr(obj, name);
  h5::Handle t = vlen_string_type();
  hsize_t n = values.size();
  h5::Handle sp = h5::space(H5Screate_simple(1, &n, nullptr));
  h5::Handle a = h5::attr(H5Acreate2(obj, name, t, sp, H5P_DEFAULT, H5P_DEFAULT));
  std::vector<const char*> ptrs;
  for (const auto& v : values) ptrs.push_back(v.c_str());
  if (!a.valid()) return false;
  return n == 0 || H5Awrite(a, t, ptrs.data()) >= 0;
}

// An attribute that is there but cannot be read (a corrupt file) sets `*failed` to its name, if
// `failed` is given and not yet set, and reads as `fallback`.
void note_failure(std::string* failed, const char* name) {
  if (failed && failed->empty()) *failed = name;
}

template <class T>
T get_attr(hid_t obj, const char* name, T fallback, std::string* failed = nullptr) {
  if (H5Aexists(obj, name) <= 0) return fallback;
  h5::Handle a = h5::attr(H5Aopen(obj, name, H5P_DEFAULT));
  T v{};
  if (!a.valid() || H5Aread(a, h5::native<T>(), &v) < 0) {
    note_failure(failed, name);
    return fallback;
  }
  return v;
}

std::string get_attr_string(hid_t obj, const char* name, std::string* failed = nullptr) {
  if (H5Aexists(obj, name) <= 0) return {};
  h5::Handle a = h5::attr(H5Aopen(obj, name, H5P_DEFAULT));
  h5::Handle ft = h5::type(H5Aget_type(a));
  if (H5Tget_class(ft) != H5T_STRING) {
    note_failure(failed, name);
    return {};
  }
  if (H5Tis_variable_str(ft) > 0) {
    h5::Handle t = vlen_string_type();
    char* p = nullptr;
    if (H5Aread(a, t, &p) < 0 || !p) {
      note_failure(failed, name);
      return {};
    }
    std::string s = p;
    H5free_memory(p);
    return s;
  }
  const std::size_t size = H5Tget_size(ft);
  std::string s(size > 0 && size <= (1u << 20) ? size : 0, '\0');  // larger: a corrupt datatype
  if (s.empty() || H5Aread(a, ft, s.data()) < 0) {
    note_failure(failed, name);
    return {};
  }
  s.resize(strnlen(s.data(), s.size()));
  return s;
}

// nullopt: the attribute is there but unreadable, or claims more strings than the file can hold
// (each variable-length string takes at least 16 bytes of it).
std::optional<std::vector<std::string>> get_attr_strings(hid_t obj, const char* name,
                                                         std::uint64_t file_bytes) {
  std::vector<std::string> out;
  if (H5Aexists(obj, name) <= 0) return out;
  h5::Handle a = h5::attr(H5Aopen(obj, name, H5P_DEFAULT));
  h5::Handle sp = h5::space(H5Aget_space(a));
  hssize_t n = H5Sget_simple_extent_npoints(sp);
  if (n < 0 || static_cast<std::uint64_t>(n) > file_bytes / 16) return std::nullopt;
  if (n == 0) return out;
  h5::Handle t = vlen_string_type();
  std::vector<char*> buf(static_cast<std::size_t>(n), nullptr);
  if (H5Aread(a, t, buf.data()) < 0) return std::nullopt;
  for (char* p : buf) out.emplace_back(p ? p : "");
  H5Dvlen_reclaim(t, sp, H5P_DEFAULT, buf.data());
  return out;
}

// ---- event columns ----

// Format version 2 stores /events in encodings chosen for size (docs/trace-format.md, measured in
// bench/trace/README.md); version 1 (every field as is, ts delta-coded, time order) still reads.
//   * Rows are grouped by thread within each written block (stable, by tid), so each column sees
//     one thread's runs of pid, fd, file, op and sizes; the reader sorts back by entry time.
//   * ts_delta: entry time quantised to kTsUnitNs (the tracer's own jitter is hundreds of ns), as
//     the difference to the previous row's quantised time; ts_ns = cumsum(ts_delta) * unit.
//   * dur_ns: float32 ns rounded to kDurSignificantBits significant bits (relative error <= 2^-7,
//     values below 128 ns exact); integer-valued, so the C++ reader restores uint64 ns.
//   * ret_delta: ret - size (0 for complete transfers); offset_delta: offset minus where the
//     previous row left off if that row moved bytes (ret > 0: its offset + ret), else the offset
//     itself; 0 for sequential I/O and for the position-less rows after an EOF. Wraps mod 2^64.
constexpr std::uint64_t kTsUnitNs = 125;  // divides 1 us: whole microseconds stay exact
constexpr int kDurSignificantBits = 7;

struct ColumnSpec {
  const char* name;
  hid_t file_type;
};
// Every column is byte-shuffled: the run-length deflate finds only runs of one byte, and shuffled
// columns are mostly such runs (high bytes of small values, one thread's repeated fields).
std::array<ColumnSpec, 12> event_columns() {
  return {{{"ts_delta", H5T_STD_I64LE},
           {"dur_ns", H5T_IEEE_F32LE},
           {"pid", H5T_STD_U32LE},
           {"tid", H5T_STD_U32LE},
           {"op", H5T_STD_U8LE},
           {"file", H5T_STD_U32LE},
           {"fd", H5T_STD_I32LE},
           {"offset_delta", H5T_STD_I64LE},
           {"size", H5T_STD_U64LE},
           {"ret_delta", H5T_STD_I64LE},
           {"flags", H5T_STD_U32LE},
           {"arg", H5T_STD_U64LE}}};
}

std::uint64_t quantise_ts(std::uint64_t ts_ns) {
  return (ts_ns + kTsUnitNs / 2) / kTsUnitNs;
}

// dur rounded to nearest with kDurSignificantBits significant bits, as float (exactly
// representable: they fit a float's 24). Relative error <= 2^-kDurSignificantBits.
float encode_dur(std::uint64_t d) {
  int bits = 64 - std::countl_zero(d);
  if (bits <= kDurSignificantBits) return static_cast<float>(d);
  int shift = bits - kDurSignificantBits;
  std::uint64_t q = (d >> shift) + ((d >> (shift - 1)) & 1);  // round half up
  return std::ldexp(static_cast<float>(q), shift);
}

std::uint64_t decode_dur(float f) {
  if (!(f > 0)) return 0;
  if (f >= 18446744073709551615.0f) return UINT64_MAX;
  return static_cast<std::uint64_t>(f);
}

// What offset_delta of the next row is relative to: where this row left the file position if it
// moved bytes, else 0 (the next row's offset is stored as is).
std::uint64_t row_end(std::uint64_t offset, std::int64_t ret) {
  return ret > 0 ? offset + static_cast<std::uint64_t>(ret) : 0;
}

struct EventColumns {
  std::vector<std::int64_t> ts_delta, offset_delta, ret_delta;
  std::vector<float> dur;
  std::vector<std::uint64_t> size, arg;
  std::vector<std::uint32_t> pid, tid, file, flags;
  std::vector<std::uint8_t> op;
  std::vector<std::int32_t> fd;

  // Fills the columns with ev[order[i]] (i < n); `last_q` and `last_end` carry the previous row's
  // quantised ts and end position across blocks.
  void fill(const Event* ev, const std::vector<std::uint32_t>& order, std::uint64_t& last_q,
            std::uint64_t& last_end) {
    std::size_t n = order.size();
    ts_delta.resize(n);
    dur.resize(n);
    offset_delta.resize(n);
    size.resize(n);
    arg.resize(n);
    pid.resize(n);
    tid.resize(n);
    file.resize(n);
    flags.resize(n);
    op.resize(n);
    fd.resize(n);
    ret_delta.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      const Event& e = ev[order[i]];
      std::uint64_t q = quantise_ts(e.ts_ns);
      ts_delta[i] = static_cast<std::int64_t>(q - last_q);
      last_q = q;
      dur[i] = encode_dur(e.dur_ns);
      pid[i] = e.pid;
      tid[i] = e.tid;
      op[i] = static_cast<std::uint8_t>(e.op);
      file[i] = e.file;
      fd[i] = e.fd;
      size[i] = e.size;
      offset_delta[i] = static_cast<std::int64_t>(e.offset - last_end);
      last_end = row_end(e.offset, e.ret);
      ret_delta[i] = static_cast<std::int64_t>(static_cast<std::uint64_t>(e.ret) - e.size);
      flags[i] = e.flags;
      arg[i] = e.arg;
    }
  }
  // (memory type, data) per column, in event_columns() order.
  std::array<std::pair<hid_t, const void*>, 12> views() const {
    return {{{H5T_NATIVE_INT64, ts_delta.data()},
             {H5T_NATIVE_FLOAT, dur.data()},
             {H5T_NATIVE_UINT32, pid.data()},
             {H5T_NATIVE_UINT32, tid.data()},
             {H5T_NATIVE_UINT8, op.data()},
             {H5T_NATIVE_UINT32, file.data()},
             {H5T_NATIVE_INT32, fd.data()},
             {H5T_NATIVE_INT64, offset_delta.data()},
             {H5T_NATIVE_UINT64, size.data()},
             {H5T_NATIVE_INT64, ret_delta.data()},
             {H5T_NATIVE_UINT32, flags.data()},
             {H5T_NATIVE_UINT64, arg.data()}}};
  }
};

// Row order of a block: grouped by thread (threads in tid order), each thread's rows in their
// original order. A counting sort: blocks hold few threads, and this runs on every captured event.
void group_by_thread(const Event* ev, std::size_t n, std::vector<std::uint32_t>& order) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> counts;  // (tid, rows), then (tid, start)
  std::unordered_map<std::uint32_t, std::uint32_t> slot;        // tid -> index in counts
  std::vector<std::uint32_t> slot_of(n);
  std::uint32_t last_tid = 0, last_slot = UINT32_MAX;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t tid = ev[i].tid;
    if (tid != last_tid || last_slot == UINT32_MAX) {
      auto [it, added] = slot.try_emplace(tid, static_cast<std::uint32_t>(counts.size()));
      if (added) counts.emplace_back(tid, 0);
      last_tid = tid;
      last_slot = it->second;
    }
    ++counts[last_slot].second;
    slot_of[i] = last_slot;
  }
  std::vector<std::uint32_t> by_tid(counts.size());
  std::iota(by_tid.begin(), by_tid.end(), 0u);
  std::sort(by_tid.begin(), by_tid.end(),
            [&](std::uint32_t a, std::uint32_t b) { return counts[a].first < counts[b].first; });
  std::uint32_t start = 0;
  for (std::uint32_t s : by_tid) start += std::exchange(counts[s].second, start);
  order.resize(n);
  for (std::size_t i = 0; i < n; ++i)
    order[counts[slot_of[i]].second++] = static_cast<std::uint32_t>(i);
}

// ---- the writer ----

class H5TraceWriter final : public TraceWriter {
 public:
  static Result<std::unique_ptr<H5TraceWriter>> open(const std::filesystem::path& path) {
    h5::QuietErrors quiet;
    auto w = std::unique_ptr<H5TraceWriter>(new H5TraceWriter(path));
    w->file_ = h5::file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
    if (!w->file_.valid()) return h5_error(path, "cannot create trace file");
    w->events_ = h5::group(H5Gcreate2(w->file_, "events", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    w->files_ = h5::group(H5Gcreate2(w->file_, "files", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    w->procs_ = h5::group(H5Gcreate2(w->file_, "processes", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    if (!w->events_.valid() || !w->files_.valid() || !w->procs_.valid())
      return h5_error(path, "cannot create groups");
    bool ok = true;
    for (const auto& c : event_columns())
      ok &= create_column(w->events_, c.name, c.file_type, kChunk, true).valid();
    for (const auto& c : event_columns()) {
      w->columns_.push_back(h5::dataset(H5Dopen2(w->events_, c.name, H5P_DEFAULT)));
      ok &= w->columns_.back().valid();
      if (ok) w->chunks_.emplace_back(w->columns_.back(), H5Tget_size(c.file_type), true, kChunk);
    }
    ok &= set_attr<std::uint64_t>(w->events_, "ts_unit_ns", kTsUnitNs);
    ok &= set_attr<std::uint32_t>(w->events_, "dur_significant_bits", kDurSignificantBits);
    h5::Handle vs = vlen_string_type(), cs = comm_type();
    ok &= create_column(w->files_, "path", vs, kTableChunk).valid();
    for (const char* n : {"dev", "ino", "size_at_open", "magic"})
      ok &= create_column(w->files_, n, H5T_STD_U64LE, kTableChunk).valid();
    ok &= create_column(w->files_, "magic_len", H5T_STD_U8LE, kTableChunk).valid();
    for (const char* n : {"pid", "tgid", "ppid"})
      ok &= create_column(w->procs_, n, H5T_STD_U32LE, kTableChunk).valid();
    ok &= create_column(w->procs_, "comm", cs, kTableChunk).valid();
    ok &= create_column(w->procs_, "first_comm", cs, kTableChunk).valid();
    ok &= create_column(w->procs_, "start_ns", H5T_STD_U64LE, kTableChunk).valid();
    ok &= create_column(w->procs_, "end_ns", H5T_STD_U64LE, kTableChunk).valid();
    ok &= create_column(w->procs_, "exit_code", H5T_STD_I32LE, kTableChunk).valid();
    ok &= create_column(w->procs_, "is_thread", H5T_STD_U8LE, kTableChunk).valid();
    if (!ok) return h5_error(path, "cannot create datasets");
    Meta m;
    m.complete = false;
    if (!w->write_meta(m) || H5Fflush(w->file_, H5F_SCOPE_GLOBAL) < 0)
      return h5_error(path, "cannot write metadata");
    return w;
  }

  ~H5TraceWriter() override {
    if (file_.valid() && !finished_) {
      h5::QuietErrors quiet;
      Meta m = last_meta_;
      m.complete = false;
      (void)flush_all(m, last_files_, last_procs_);
    }
  }

  Result<void> append(const std::vector<Event>& events) override {
    if (finished_) return h5_error(path_, "append after finish");
    pending_.insert(pending_.end(), events.begin(), events.end());
    if (pending_.size() >= kAutoWriteEvents) {
      h5::QuietErrors quiet;
      if (!write_pending(false) || H5Fflush(file_, H5F_SCOPE_GLOBAL) < 0)
        return h5_error(path_, "cannot write events");
    }
    return ok();
  }

  Result<void> flush(const Meta& meta, const std::vector<File>& files,
                     const std::vector<Process>& processes) override {
    if (finished_) return h5_error(path_, "flush after finish");
    h5::QuietErrors quiet;
    last_meta_ = meta;
    last_files_ = files;
    last_procs_ = processes;
    Meta m = meta;
    m.complete = false;
    if (!flush_all(m, files, processes)) return h5_error(path_, "cannot flush trace");
    return ok();
  }

  Result<void> finish(const Meta& meta, const std::vector<File>& files,
                      const std::vector<Process>& processes) override {
    if (finished_) return h5_error(path_, "finish called twice");
    h5::QuietErrors quiet;
    finished_ = true;
    bool good = flush_all(meta, files, processes, true);
    chunks_.clear();
    columns_.clear();  // every object must be closed, or H5Fclose leaves the file open
    events_.reset();
    files_.reset();
    procs_.reset();
    good &= H5Fclose(file_.get()) >= 0;
    file_ = h5::Handle();
    if (!good) return h5_error(path_, "cannot finish trace");
    return ok();
  }

  // Writes events straight from the caller's storage (write_trace), no copy.
  bool write_events(const Event* ev, std::size_t n) {
    for (std::size_t done = 0; done < n;) {
      std::size_t k = std::min<std::size_t>(n - done, kChunk * 4);
      const Event* block = ev + done;
      group_by_thread(block, k, order_);
      cols_.fill(block, order_, last_q_, last_end_);
      auto vs = cols_.views();
      hsize_t total = written_ + k;
      for (std::size_t c = 0; c < vs.size(); ++c)
        if (H5Dset_extent(columns_[c], &total) < 0 ||
            !chunks_[c].append(vs[c].second, k, deflater_))
          return false;
      written_ = total;
      done += k;
    }
    return true;
  }

 private:
  explicit H5TraceWriter(std::filesystem::path p) : path_(std::move(p)) {}

  // Writes the buffered events and the columns' incomplete last chunks (compressed if `final`).
  bool write_pending(bool final) {
    bool good = write_events(pending_.data(), pending_.size());
    pending_.clear();
    for (auto& c : chunks_) good &= c.write_partial(deflater_, final);
    return good;
  }

  bool flush_all(const Meta& meta, const std::vector<File>& files,
                 const std::vector<Process>& procs, bool final = false) {
    bool good = write_pending(final);
    good &= write_files(files);
    good &= write_processes(procs);
    good &= write_meta(meta);
    good &= H5Fflush(file_, H5F_SCOPE_GLOBAL) >= 0;
    return good;
  }

  // Paths never change once interned, so only new rows are written (variable-length strings
  // rewritten in place would leak heap space on every flush). Numeric columns are written from
  // the first row that changed since the last flush (a capture with thousands of files flushes
  // every 2 s; rewriting, i.e. recompressing, all rows each time was most of its idle CPU).
  bool write_files(const std::vector<File>& files) {
    const hsize_t n = files.size();
    hsize_t first = std::min<hsize_t>(fdev_.size(), n);
    for (hsize_t i = 0; i < first; ++i) {
      const File& f = files[i];
      if (f.dev != fdev_[i] || f.ino != fino_[i] || f.size_at_open != fsz_[i] ||
          f.magic != fmagic_[i] || f.magic_len != fmlen_[i]) {
        first = i;
        break;
      }
    }
    fdev_.resize(n);
    fino_.resize(n);
    fsz_.resize(n);
    fmagic_.resize(n);
    fmlen_.resize(n);
    std::vector<const char*> paths;
    for (hsize_t i = first; i < n; ++i) {
      fdev_[i] = files[i].dev;
      fino_[i] = files[i].ino;
      fsz_[i] = files[i].size_at_open;
      fmagic_[i] = files[i].magic;
      fmlen_[i] = files[i].magic_len;
    }
    for (hsize_t i = std::min<hsize_t>(paths_written_, n); i < n; ++i)
      paths.push_back(files[i].path.c_str());
    h5::Handle vs = vlen_string_type();
    hsize_t start = std::min<hsize_t>(paths_written_, n);
    const hsize_t k = n - first;
    bool good = write_rows(files_, "path", vs, paths.data(), start, n - start, n);
    good &= write_rows(files_, "dev", H5T_NATIVE_UINT64, fdev_.data() + first, first, k, n);
    good &= write_rows(files_, "ino", H5T_NATIVE_UINT64, fino_.data() + first, first, k, n);
    good &= write_rows(files_, "size_at_open", H5T_NATIVE_UINT64, fsz_.data() + first, first, k, n);
    good &= write_rows(files_, "magic", H5T_NATIVE_UINT64, fmagic_.data() + first, first, k, n);
    good &= write_rows(files_, "magic_len", H5T_NATIVE_UINT8, fmlen_.data() + first, first, k, n);
    if (good) {
      paths_written_ = n;
    } else {
      fdev_.clear();  // unknown state on disk: rewrite everything next time
    }
    return good;
  }

  bool write_processes(const std::vector<Process>& procs) {
    hsize_t n = procs.size();
    std::vector<std::uint32_t> pid(n), tgid(n), ppid(n);
    std::vector<char> comm(n * kCommLen, '\0'), first(n * kCommLen, '\0');
    std::vector<std::uint64_t> start(n), end(n);
    std::vector<std::int32_t> code(n);
    std::vector<std::uint8_t> thread(n);
    for (hsize_t i = 0; i < n; ++i) {
      const Process& p = procs[i];
      pid[i] = p.pid;
      tgid[i] = p.tgid;
      ppid[i] = p.ppid;
      std::memcpy(&comm[i * kCommLen], p.comm.data(), std::min(p.comm.size(), kCommLen));
      std::memcpy(&first[i * kCommLen], p.first_comm.data(),
                  std::min(p.first_comm.size(), kCommLen));
      start[i] = p.start_ns;
      end[i] = p.end_ns;
      code[i] = p.exit_code;
      thread[i] = p.is_thread;
    }
    h5::Handle cs = comm_type();
    bool good = write_rows(procs_, "pid", H5T_NATIVE_UINT32, pid.data(), 0, n, n);
    good &= write_rows(procs_, "tgid", H5T_NATIVE_UINT32, tgid.data(), 0, n, n);
    good &= write_rows(procs_, "ppid", H5T_NATIVE_UINT32, ppid.data(), 0, n, n);
    good &= write_rows(procs_, "comm", cs, comm.data(), 0, n, n);
    good &= write_rows(procs_, "first_comm", cs, first.data(), 0, n, n);
    good &= write_rows(procs_, "start_ns", H5T_NATIVE_UINT64, start.data(), 0, n, n);
    good &= write_rows(procs_, "end_ns", H5T_NATIVE_UINT64, end.data(), 0, n, n);
    good &= write_rows(procs_, "exit_code", H5T_NATIVE_INT32, code.data(), 0, n, n);
    good &= write_rows(procs_, "is_thread", H5T_NATIVE_UINT8, thread.data(), 0, n, n);
    return good;
  }

  bool write_meta(const Meta& m) {
    hid_t root = file_;
    bool good = set_attr_string(root, "format", kFormatName);
    good &= set_attr<std::uint32_t>(root, "format_version", kFormatVersion);
    good &= set_attr_strings(root, "command", m.command);
    good &= set_attr<std::int64_t>(root, "start_wall_ns", m.start_wall_ns);
    good &= set_attr<std::uint64_t>(root, "start_mono_ns", m.start_mono_ns);
    good &= set_attr<std::uint64_t>(root, "duration_ns", m.duration_ns);
    good &= set_attr_string(root, "host", m.host);
    good &= set_attr<std::int32_t>(root, "rank", m.rank);
    good &= set_attr<std::int32_t>(root, "world_size", m.world_size);
    good &= set_attr_string(root, "kernel", m.kernel);
    good &= set_attr_string(root, "dlgen_version", m.dlgen_version);
    good &= set_attr<std::uint64_t>(root, "lost_events", m.lost_events);
    for (const auto& r : kLostReasons)
      good &=
          set_attr<std::uint64_t>(root, (std::string("lost_") + r.name).c_str(), m.lost.*r.count);
    good &= set_attr<std::int32_t>(root, "exit_status", m.exit_status);
    good &= set_attr<std::uint8_t>(root, "block_layer", m.block_layer ? 1 : 0);
    good &= set_attr<std::uint8_t>(root, "complete", m.complete ? 1 : 0);
    good &= set_attr_strings(root, "gpu_devices", m.gpu.devices);
    good &= set_attr_string(root, "gpu_driver", m.gpu.driver);
    good &= set_attr_string(root, "cuda_lib", m.gpu.cuda_lib);
    good &= set_attr_strings(root, "cuda_probes", m.gpu.cuda_probes);
    good &= set_attr_string(root, "gpu_note", m.gpu.note);
    good &= set_attr<std::uint64_t>(root, "event_count", written_);
    return good;
  }

  std::filesystem::path path_;
  h5::Handle file_, events_, files_, procs_;
  std::vector<Event> pending_;
  EventColumns cols_;                 // reused by write_events
  std::vector<std::uint32_t> order_;  // ...
  std::vector<h5::Handle> columns_;   // the /events datasets, in event_columns() order
  std::vector<ChunkColumn> chunks_;   // ... and their chunk writers
  Deflater deflater_;
  hsize_t written_ = 0;
  hsize_t paths_written_ = 0;
  // /files numeric columns as last written (write_files rewrites only from the first change).
  std::vector<std::uint64_t> fdev_, fino_, fsz_, fmagic_;
  std::vector<std::uint8_t> fmlen_;
  std::uint64_t last_q_ = 0;    // quantised ts of the last row written
  std::uint64_t last_end_ = 0;  // row_end() of the last row written
  bool finished_ = false;
  Meta last_meta_;
  std::vector<File> last_files_;
  std::vector<Process> last_procs_;
};

}  // namespace

Result<std::unique_ptr<TraceWriter>> TraceWriter::create(const std::filesystem::path& path) {
  auto w = H5TraceWriter::open(path);
  if (!w) return w.error();
  return std::unique_ptr<TraceWriter>(std::move(*w));
}

Result<void> write_trace(const std::filesystem::path& path, const Trace& trace) {
  auto w = H5TraceWriter::open(path);
  if (!w) return w.error();
  {
    h5::QuietErrors quiet;
    if (!(*w)->write_events(trace.events.data(), trace.events.size()))
      return h5_error(path, "cannot write events");
  }
  return (*w)->finish(trace.meta, trace.files, trace.processes);
}

namespace {

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
  if (get_attr_string(f, "format") != kFormatName)
    return input_error(path.string() + ": not a dlgen trace (no format=\"dlgen-trace\" attribute)");
  auto version = get_attr<std::uint32_t>(f, "format_version", 0);
  if (version == 0 || version > kFormatVersion)
    return input_error(path.string() + ": trace format version " + std::to_string(version) +
                       " is not supported (this dlgen reads up to " +
                       std::to_string(kFormatVersion) + ")");
  Trace t;
  Meta& m = t.meta;
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
  if (meta_only) return t;

  auto bad = [&](const char* what) { return corrupt(path, std::string("cannot read ") + what); };
  h5::Handle files = h5::group(H5Gopen2(f, "files", H5P_DEFAULT));
  h5::Handle procs = h5::group(H5Gopen2(f, "processes", H5P_DEFAULT));
  h5::Handle events = h5::group(H5Gopen2(f, "events", H5P_DEFAULT));
  if (!files.valid() || !procs.valid() || !events.valid())
    return bad("/files, /processes or /events");
  // /files and /processes are rewritten whole at each flush: their columns agree unless the
  // capture was killed inside one (complete = 0: the shortest counts).
  const hsize_t table_tolerance = m.complete ? 0 : std::numeric_limits<hsize_t>::max();

  {
    auto rows = table_rows(
        files, "files",
        {{"path", 16}, {"dev", 8}, {"ino", 8}, {"size_at_open", 8}, {"magic", 8}, {"magic_len", 1}},
        file_bytes, table_tolerance, path);
    if (!rows) return rows.error();
    const hsize_t n = *rows;
    std::vector<std::string> path_col;
    std::vector<std::uint64_t> dev, ino, sz, magic;
    std::vector<std::uint8_t> mlen;
    if (!read_vlen_strings(files, "path", n, path_col) || !read_column(files, "dev", n, dev) ||
        !read_column(files, "ino", n, ino) || !read_column(files, "size_at_open", n, sz) ||
        !read_column(files, "magic", n, magic) || !read_column(files, "magic_len", n, mlen))
      return bad("/files");
    t.files.resize(n);
    for (hsize_t i = 0; i < n; ++i) {
      if (mlen[i] > 8)
        return corrupt(path, "/files row " + std::to_string(i) + " has magic_len " +
                                 std::to_string(mlen[i]) + " (at most 8)");
      t.files[i] = File{std::move(path_col[i]), dev[i], ino[i], sz[i], magic[i], mlen[i]};
    }
  }
  {
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
                           file_bytes, table_tolerance, path);
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
      return bad("/processes");
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
  }
  {
    Result<void> r = version == 1 ? read_events_v1(events, t, path, file_bytes)
                                  : read_events_v2(events, t, path, file_bytes);
    if (!r) return r.error();
  }
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
