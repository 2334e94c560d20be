// Parquet geometry, metadata (FileMetaData and page headers in the Thrift compact protocol), the
// reads of a Parquet reader and a footer reader. Field ids are parquet-format's parquet.thrift.
#include "dlgen/datasets/parquet.hpp"

#include <zstd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "dlgen/datasets/content.hpp"
#include "thrift.hpp"

namespace dlgen::datasets::parquet {
namespace {

// parquet.thrift's enums.
constexpr std::int32_t kFixedLenByteArray = 7;  // Type
constexpr std::int32_t kRequired = 0;           // FieldRepetitionType
constexpr std::int32_t kPlain = 0;              // Encoding
constexpr std::int32_t kRle = 3;
constexpr std::int32_t kDataPage = 0;      // PageType
constexpr std::int32_t kUncompressed = 0;  // CompressionCodec
constexpr std::int32_t kSnappy = 1;
constexpr std::int32_t kZstd = 6;

// created_by: a reader keys its workarounds for known writers' bugs on it.
constexpr std::string_view kCreatedBy = "dlgen";

std::int32_t codec_id(ParquetCompression c) {
  switch (c) {
    case ParquetCompression::zstd:
      return kZstd;
    case ParquetCompression::snappy:
      return kSnappy;
    case ParquetCompression::none:
      break;
  }
  return kUncompressed;
}

std::uint64_t varint_bytes(std::uint64_t v) {
  std::uint64_t n = 1;
  for (; v >= 0x80; v >>= 7) ++n;
  return n;
}

std::string schema_text(const std::vector<ParquetColumn>& columns) {
  std::string s;
  for (const ParquetColumn& c : columns) s += (s.empty() ? "" : ",") + to_string(c);
  return s;
}

void write_column_meta(thrift::Writer& w, const FileGeometry& g, const RowGroup& rg,
                       std::size_t c) {
  const ColumnChunk& ch = rg.columns[c];
  w.begin(3);  // ColumnChunk.meta_data
  w.i32(1, kFixedLenByteArray);
  w.list(2, thrift::kI32, 1);  // encodings
  w.element_i32(kPlain);
  w.list(3, thrift::kBinary, 1);  // path_in_schema
  w.element_binary(g.columns[c].name);
  w.i32(4, codec_id(g.compression));
  w.i64(5, static_cast<std::int64_t>(rg.rows));
  w.i64(6, static_cast<std::int64_t>(ch.uncompressed));
  w.i64(7, static_cast<std::int64_t>(ch.bytes.length));
  w.i64(9, static_cast<std::int64_t>(ch.bytes.offset));  // data_page_offset
  w.end();
}

// The FileMetaData of every file of the dataset.
std::vector<std::uint8_t> file_metadata(const FileGeometry& g) {
  std::vector<std::uint8_t> out;
  thrift::Writer w(out);
  w.i32(1, 1);  // version
  w.list(2, thrift::kStruct, g.columns.size() + 1);
  w.element();  // the root
  w.binary(4, "schema");
  w.i32(5, static_cast<std::int32_t>(g.columns.size()));
  w.end();
  for (std::size_t c = 0; c < g.columns.size(); ++c) {
    w.element();
    w.i32(1, kFixedLenByteArray);
    w.i32(2, static_cast<std::int32_t>(g.value_bytes(c)));
    w.i32(3, kRequired);
    w.binary(4, g.columns[c].name);
    w.end();
  }
  w.i64(3, static_cast<std::int64_t>(g.rows));
  w.list(4, thrift::kStruct, g.row_groups.size());
  for (std::size_t r = 0; r < g.row_groups.size(); ++r) {
    const RowGroup& rg = g.row_groups[r];
    w.element();
    w.list(1, thrift::kStruct, rg.columns.size());
    std::uint64_t uncompressed = 0, stored = 0;
    for (std::size_t c = 0; c < rg.columns.size(); ++c) {
      w.element();
      w.i64(2, static_cast<std::int64_t>(rg.columns[c].bytes.offset));  // file_offset
      write_column_meta(w, g, rg, c);
      w.end();
      uncompressed += rg.columns[c].uncompressed;
      stored += rg.columns[c].bytes.length;
    }
    w.i64(2, static_cast<std::int64_t>(uncompressed));  // total_byte_size
    w.i64(3, static_cast<std::int64_t>(rg.rows));
    w.i64(5, static_cast<std::int64_t>(rg.columns.empty() ? 0 : rg.columns[0].bytes.offset));
    w.i64(6, static_cast<std::int64_t>(stored));
    w.i16(7, static_cast<std::int16_t>(std::min<std::size_t>(r, INT16_MAX)));  // ordinal
    w.end();
  }
  // The schema with dtypes and list sizes, which FIXED_LEN_BYTE_ARRAY alone does not say.
  w.list(5, thrift::kStruct, 1);
  w.element();
  w.binary(1, "dlgen.columns");
  w.binary(2, schema_text(g.columns));
  w.end();
  w.binary(6, kCreatedBy);
  w.end();
  return out;
}

// The chunk of `rows` rows of column c: its pages, headers included, before and after compression.
ColumnChunk chunk(const FileGeometry& g, std::size_t c, std::uint64_t rows) {
  ColumnChunk ch;
  const std::uint64_t vb = g.value_bytes(c), per = g.rows_per_page(c);
  const std::uint64_t full = rows / per, rest = rows % per;
  const auto add = [&](std::uint64_t n, std::uint64_t pages) {
    if (pages == 0) return;
    const std::uint64_t stored = stored_bytes(n * vb, g.compression);
    const std::uint64_t header = page_header(n, vb, stored).size();
    ch.bytes.length += pages * (header + stored);
    ch.uncompressed += pages * (header + n * vb);
    ch.pages += static_cast<std::uint32_t>(pages);
  };
  add(per, full);
  add(rest, rest > 0 ? 1 : 0);
  return ch;
}

}  // namespace

std::uint64_t FileGeometry::value_bytes(std::size_t c) const {
  return std::uint64_t{columns[c].size} * dtype_bytes(columns[c].dtype);
}

std::uint64_t FileGeometry::rows_per_page(std::size_t c) const {
  return std::max<std::uint64_t>(1, kPageBytes / value_bytes(c));
}

std::uint64_t snappy_literal_header(std::uint64_t length) {
  const std::uint64_t n = length - 1;
  return n < 60 ? 1 : n < (1u << 8) ? 2 : n < (1u << 16) ? 3 : n < (1u << 24) ? 4 : 5;
}

std::uint64_t snappy_literal_bytes(std::uint64_t bytes) {
  std::uint64_t out = varint_bytes(bytes);
  const std::uint64_t full = bytes / kSnappyBlockBytes, rest = bytes % kSnappyBlockBytes;
  out += full * (snappy_literal_header(kSnappyBlockBytes) + kSnappyBlockBytes);
  if (rest > 0) out += snappy_literal_header(rest) + rest;
  return out;
}

std::uint64_t stored_bytes(std::uint64_t bytes, ParquetCompression c) {
  switch (c) {
    case ParquetCompression::zstd:
      return ZSTD_COMPRESSBOUND(bytes) + 8;  // the frame and a skippable frame of at least 8 bytes
    case ParquetCompression::snappy:
      return snappy_literal_bytes(bytes);
    case ParquetCompression::none:
      break;
  }
  return bytes;
}

std::vector<std::uint8_t> page_header(std::uint64_t rows, std::uint64_t value_bytes,
                                      std::uint64_t stored) {
  std::vector<std::uint8_t> out;
  thrift::Writer w(out);
  w.i32(1, kDataPage);
  w.i32(2, static_cast<std::int32_t>(rows * value_bytes));  // uncompressed_page_size
  w.i32(3, static_cast<std::int32_t>(stored));              // compressed_page_size
  w.begin(5);                                               // data_page_header
  w.i32(1, static_cast<std::int32_t>(rows));                // num_values
  w.i32(2, kPlain);
  w.i32(3, kRle);  // definition levels (none: the columns are required)
  w.i32(4, kRle);  // repetition levels (none: the columns are flat)
  w.end();
  w.end();
  return out;
}

FileGeometry geometry(const DatasetSpec& spec) {
  FileGeometry g;
  const ParquetSpec& q = spec.parquet;
  g.columns = q.columns;
  if (g.columns.empty()) {
    const double v = spec.sample_size.value;
    ParquetColumn data{"data", ParquetDtype::uint8, 1};
    data.size = static_cast<std::uint32_t>(
        std::clamp<double>(std::isfinite(v) ? std::round(v) : 1, 1, double(kMaxParquetValueBytes)));
    g.columns.push_back(data);
  }
  for (std::size_t c = 0; c < g.columns.size(); ++c) {
    const bool read = q.read_columns.empty() ||
                      std::find(q.read_columns.begin(), q.read_columns.end(), g.columns[c].name) !=
                          q.read_columns.end();
    if (read) g.selected.push_back(static_cast<std::uint32_t>(c));
  }
  g.compression = q.compression;
  g.rows = std::max<std::uint32_t>(spec.samples_per_file, 1);
  g.rows_per_group =
      q.row_group_size > 0 ? std::min<std::uint64_t>(q.row_group_size, g.rows) : g.rows;
  const std::uint64_t groups = (g.rows + g.rows_per_group - 1) / g.rows_per_group;
  // Every full group has the same chunk sizes; only the last one may differ.
  std::vector<ColumnChunk> full, last;
  const std::uint64_t last_rows = g.rows - (groups - 1) * g.rows_per_group;
  for (std::size_t c = 0; c < g.columns.size(); ++c) {
    full.push_back(chunk(g, c, g.rows_per_group));
    last.push_back(chunk(g, c, last_rows));
  }
  g.row_groups.resize(groups);
  std::uint64_t at = 4;  // "PAR1"
  for (std::uint64_t r = 0; r < groups; ++r) {
    RowGroup& rg = g.row_groups[r];
    rg.first_row = r * g.rows_per_group;
    rg.rows = r + 1 < groups ? g.rows_per_group : last_rows;
    rg.columns = r + 1 < groups ? full : last;
    for (ColumnChunk& ch : rg.columns) {
      ch.bytes.offset = at;
      at += ch.bytes.length;
    }
  }
  g.footer_bytes = file_metadata(g);
  g.footer = {at, g.footer_bytes.size()};
  g.file_bytes = at + g.footer_bytes.size() + 8;
  return g;
}

std::size_t max_row_group_reads(const FileGeometry& g) {
  return 2 + g.selected.size();
}

std::size_t group_reads(const FileGeometry& g, std::uint64_t group, bool footer, Range* out) {
  if (group >= g.row_groups.size()) return 0;
  std::size_t n = 0;
  if (footer) {
    // Arrow reads the last 64 KiB, then whatever of the FileMetaData that did not hold.
    const std::uint64_t tail = std::min(kFooterReadBytes, g.file_bytes);
    out[n++] = {g.file_bytes - tail, tail};
    if (g.footer.offset < g.file_bytes - tail)
      out[n++] = {g.footer.offset, g.file_bytes - tail - g.footer.offset};
  }
  // Arrow's coalescing, over the selected chunks in file order (schema order: chunks are written
  // back to back, so the holes are the unselected columns between them).
  const std::size_t first_chunk = n;
  for (std::uint32_t c : g.selected) {
    const Range& ch = g.row_groups[group].columns[c].bytes;
    Range* last = n > first_chunk ? &out[n - 1] : nullptr;
    const std::uint64_t end = ch.offset + ch.length;
    if (last && ch.offset - (last->offset + last->length) <= kHoleSizeLimit &&
        end - last->offset <= kRangeSizeLimit)
      last->length = end - last->offset;
    else
      out[n++] = ch;
  }
  return n;
}

std::size_t row_group_reads(const FileGeometry& g, std::uint64_t row, Range* out) {
  if (row % g.rows_per_group != 0 || row >= g.rows) return 0;
  const std::uint64_t r = row / g.rows_per_group;
  return group_reads(g, r, r == 0, out);
}

std::uint64_t largest_row_group_read(const FileGeometry& g) {
  std::vector<Range> ranges(max_row_group_reads(g));
  std::uint64_t largest = 0;
  for (const RowGroup& rg : g.row_groups) {
    const std::size_t n = row_group_reads(g, rg.first_row, ranges.data());
    for (std::size_t i = 0; i < n; ++i) largest = std::max(largest, ranges[i].length);
  }
  return largest;
}

FileReads file_reads(const FileGeometry& g) {
  FileReads f;
  std::vector<Range> ranges(max_row_group_reads(g));
  for (const RowGroup& rg : g.row_groups) {
    const std::size_t n = row_group_reads(g, rg.first_row, ranges.data());
    for (std::size_t i = 0; i < n; ++i) f.bytes += ranges[i].length;
    f.requests += n;
  }
  return f;
}

namespace {

bool read_chunk_meta(thrift::Reader& rd, FooterChunk& ch) {
  rd.enter();
  std::int16_t id = 0;
  thrift::Type t{};
  while (rd.next(id, t)) {
    if (id == 3 && t == thrift::kList) {
      thrift::Type e{};
      const std::uint64_t n = rd.list(e);
      for (std::uint64_t i = 0; i < n && rd.ok(); ++i) ch.path += (i ? "." : "") + rd.binary();
    } else if (id == 4 && t == thrift::kI32) {
      ch.codec = static_cast<std::int32_t>(rd.integer());
    } else if (id == 5 && t == thrift::kI64) {
      ch.num_values = rd.integer();
    } else if (id == 6 && t == thrift::kI64) {
      ch.total_uncompressed_size = rd.integer();
    } else if (id == 7 && t == thrift::kI64) {
      ch.total_compressed_size = rd.integer();
    } else if (id == 9 && t == thrift::kI64) {
      ch.data_page_offset = rd.integer();
    } else {
      rd.skip(t);
    }
  }
  rd.leave();
  return rd.ok();
}

void read_row_group(thrift::Reader& rd, FooterRowGroup& rg) {
  rd.enter();
  std::int16_t id = 0;
  thrift::Type t{};
  while (rd.next(id, t)) {
    if (id == 1 && t == thrift::kList) {
      thrift::Type e{};
      const std::uint64_t n = rd.list(e);
      for (std::uint64_t i = 0; i < n && rd.ok(); ++i) {
        FooterChunk ch;
        rd.enter();
        std::int16_t cid = 0;
        thrift::Type ct{};
        while (rd.next(cid, ct)) {
          if (cid == 3 && ct == thrift::kStruct)
            read_chunk_meta(rd, ch);
          else
            rd.skip(ct);
        }
        rd.leave();
        rg.columns.push_back(std::move(ch));
      }
    } else if (id == 3 && t == thrift::kI64) {
      rg.num_rows = rd.integer();
    } else {
      rd.skip(t);
    }
  }
  rd.leave();
}

void read_schema(thrift::Reader& rd, Footer& f) {
  thrift::Type e{};
  const std::uint64_t n = rd.list(e);
  for (std::uint64_t i = 0; i < n && rd.ok(); ++i) {
    FooterColumn col;
    bool leaf = true;
    rd.enter();
    std::int16_t id = 0;
    thrift::Type t{};
    while (rd.next(id, t)) {
      if (id == 1 && t == thrift::kI32)
        col.type = static_cast<std::int32_t>(rd.integer());
      else if (id == 2 && t == thrift::kI32)
        col.type_length = static_cast<std::int32_t>(rd.integer());
      else if (id == 4 && t == thrift::kBinary)
        col.name = rd.binary();
      else if (id == 5 && t == thrift::kI32)
        leaf = rd.integer() == 0;
      else
        rd.skip(t);
    }
    rd.leave();
    if (leaf && i > 0) f.schema.push_back(std::move(col));
  }
}

}  // namespace

Result<Footer> parse_footer(std::span<const std::uint8_t> tail, std::uint64_t file_bytes) {
  if (tail.size() < 12 || std::memcmp(tail.data() + tail.size() - 4, "PAR1", 4) != 0)
    return input_error("not a Parquet file (no PAR1 at its end)");
  std::uint32_t len = 0;
  for (int i = 0; i < 4; ++i) len |= std::uint32_t{tail[tail.size() - 8 + i]} << (8 * i);
  if (len > tail.size() - 8 || len + 8 > file_bytes)
    return input_error("Parquet footer of " + std::to_string(len) + " bytes does not fit");
  const std::uint8_t* begin = tail.data() + tail.size() - 8 - len;
  thrift::Reader rd(begin, begin + len);
  Footer f;
  f.metadata_bytes = len;
  std::int16_t id = 0;
  thrift::Type t{};
  while (rd.next(id, t)) {
    if (id == 2 && t == thrift::kList) {
      read_schema(rd, f);
    } else if (id == 3 && t == thrift::kI64) {
      f.num_rows = rd.integer();
    } else if (id == 4 && t == thrift::kList) {
      thrift::Type e{};
      const std::uint64_t n = rd.list(e);
      for (std::uint64_t i = 0; i < n && rd.ok(); ++i) {
        FooterRowGroup rg;
        read_row_group(rd, rg);
        f.row_groups.push_back(std::move(rg));
      }
    } else {
      rd.skip(t);
    }
  }
  if (!rd.ok()) return input_error("Parquet footer: malformed Thrift compact data");
  return f;
}

std::vector<std::uint8_t> column_values(const DatasetSpec& spec, std::uint64_t file,
                                        std::size_t c) {
  const auto g = std::make_unique<FileGeometry>(geometry(spec));
  std::vector<std::uint8_t> out;
  if (c >= g->columns.size()) return out;
  ContentStream content(spec.seed, file);
  std::vector<std::uint8_t> skip;
  // The content stream runs through the values in file order: group by group, column by column.
  for (const RowGroup& rg : g->row_groups)
    for (std::size_t k = 0; k < g->columns.size(); ++k) {
      const std::uint64_t n = rg.rows * g->value_bytes(k);
      if (k == c) {
        const std::size_t at = out.size();
        out.resize(at + n);
        content.fill(out.data() + at, n);
      } else {
        skip.resize(n);
        content.fill(skip.data(), n);
      }
    }
  return out;
}

}  // namespace dlgen::datasets::parquet
