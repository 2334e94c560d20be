#pragma once
// The HDF5 trace format (spec: docs/trace-format.md), private to the trace module: what the writer
// (h5_writer.cpp) and the reader (h5_reader.cpp) must agree on. Layout:
//   /            attributes: format, format_version, metadata (command, times, host, ...)
//   /events/*    one extendible 1-D dataset per Event field, chunked, shuffle + deflate (chunks
//                written directly by chunk_writer.hpp, zlib's run-length strategy), encoded as
//                described at event_columns() (format version 2)
//   /files/*     one column per File field (paths as variable-length UTF-8 strings)
//   /processes/* one column per Process field (comm as fixed 16-byte strings, TASK_COMM_LEN)
//   /http/*      one column per HttpRequest field, present only when the trace has requests
//   /http_body/* one row per burst of the response bodies that came in more than one
//                (HttpRequest::body): `request`, the /http row it belongs to, and
//                kHttpBurstColumns; present only when some body did
#include <hdf5.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "dlgen/trace/trace.hpp"

namespace dlgen::trace::schema {

constexpr std::uint32_t kFormatVersion = 2;
constexpr const char* kFormatName = "dlgen-trace";
constexpr hsize_t kChunk = 1 << 14;    // elements per chunk of an /events column
constexpr hsize_t kTableChunk = 1024;  // elements per chunk of /files and /processes

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

// A uint64 column of a table whose rows are `Row`s: its name and the field it holds.
template <class Row>
struct U64Column {
  const char* name;
  std::uint64_t Row::*field;
};

// The /http table's uint64 and string columns (pid, tid, fd and status are written apart).
inline constexpr U64Column<HttpRequest> kHttpNumbers[] = {
    {"range_first", &HttpRequest::range_first},
    {"range_last", &HttpRequest::range_last},
    {"content_length", &HttpRequest::content_length},
    {"object_size", &HttpRequest::object_size},
    {"request_bytes", &HttpRequest::request_bytes},
    {"response_bytes", &HttpRequest::response_bytes},
    {"request_ns", &HttpRequest::request_ns},
    {"first_byte_ns", &HttpRequest::first_byte_ns},
    {"last_byte_ns", &HttpRequest::last_byte_ns},
};
struct HttpString {
  const char* name;
  std::string HttpRequest::*field;
};
inline constexpr HttpString kHttpStrings[] = {
    {"peer", &HttpRequest::peer}, {"method", &HttpRequest::method}, {"host", &HttpRequest::host},
    {"path", &HttpRequest::path}, {"query", &HttpRequest::query},
};

// The /http_body table's columns after `request` (uint64 each).
inline constexpr U64Column<HttpBurst> kHttpBurstColumns[] = {
    {"start_ns", &HttpBurst::start_ns},
    {"end_ns", &HttpBurst::end_ns},
    {"offset", &HttpBurst::offset},
    {"bytes", &HttpBurst::bytes},
};

struct ColumnSpec {
  const char* name;
  hid_t file_type;
};
// Every column is byte-shuffled: the run-length deflate finds only runs of one byte, and shuffled
// columns are mostly such runs (high bytes of small values, one thread's repeated fields).
std::array<ColumnSpec, 12> event_columns();

// Entry time in units of kTsUnitNs, rounded to nearest.
inline std::uint64_t quantise_ts(std::uint64_t ts_ns) {
  return (ts_ns + kTsUnitNs / 2) / kTsUnitNs;
}

// dur rounded to nearest with kDurSignificantBits significant bits, as float (exactly
// representable: they fit a float's 24). Relative error <= 2^-kDurSignificantBits.
float encode_dur(std::uint64_t d);
inline std::uint64_t decode_dur(float f) {
  if (!(f > 0)) return 0;
  if (f >= 18446744073709551615.0f) return UINT64_MAX;
  return static_cast<std::uint64_t>(f);
}

// What offset_delta of the next row is relative to: where this row left the file position if it
// moved bytes, else 0 (the next row's offset is stored as is).
inline std::uint64_t row_end(std::uint64_t offset, std::int64_t ret) {
  return ret > 0 ? offset + static_cast<std::uint64_t>(ret) : 0;
}

// One block of /events rows in the stored encoding.
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
            std::uint64_t& last_end);
  // (memory type, data) per column, in event_columns() order.
  std::array<std::pair<hid_t, const void*>, 12> views() const;
};

// Row order of a block: grouped by thread (threads in tid order), each thread's rows in their
// original order. A counting sort: blocks hold few threads, and this runs on every captured event.
void group_by_thread(const Event* ev, std::size_t n, std::vector<std::uint32_t>& order);

}  // namespace dlgen::trace::schema
