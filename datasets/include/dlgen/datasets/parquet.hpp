#pragma once
// Parquet files as dlgen writes them (format = "parquet"), and the parts of the format a reader
// needs: the geometry of a file (a pure function of the DatasetSpec, the same for every file),
// the byte ranges a Parquet reader reads, and a reader of the footer for tests and tools.
//
// A file: "PAR1", then row group after row group, each holding one column chunk per column in
// schema order, each chunk a sequence of data pages (v1, PLAIN, at most kPageBytes of values or
// one row), then the FileMetaData (Thrift compact protocol), its length (uint32 LE) and "PAR1".
// Every column is REQUIRED and FIXED_LEN_BYTE_ARRAY of size x dtype bytes (a row's fixed-size
// list of little-endian values), so the pages carry no levels and a value's bytes are exactly the
// content stream's. compression = "zstd": each page is compressed with libzstd (level 1) and the
// frame is followed by a zstd skippable frame up to ZSTD_COMPRESSBOUND(page) + 8 bytes, so page
// sizes, and with them the whole layout, stay a pure function of the job (on dlgen's random
// content a real frame is within 0.4% of that bound anyway). compression = "snappy": each page is
// a raw snappy stream (Parquet's SNAPPY codec) from libsnappy, which on dlgen's incompressible
// content emits one literal per 64 KiB block: snappy_literal_bytes(page). Where libsnappy finds a
// match anyway (a 4-byte repeat, vanishingly rare in random bytes) the page is written as that
// literal-only stream instead, itself valid snappy, so the layout stays a pure function of the job.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "dlgen/core/job.hpp"
#include "dlgen/core/result.hpp"

namespace dlgen::datasets::parquet {

constexpr std::uint64_t kPageBytes = 1u << 20;         // values per data page (pyarrow's default)
constexpr std::uint64_t kFooterReadBytes = 64u << 10;  // a reader's first read at the end (Arrow)

// A byte range of a file.
struct Range {
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
  bool operator==(const Range&) const = default;
};

struct ColumnChunk {
  Range bytes;                     // page headers and pages, as stored
  std::uint64_t uncompressed = 0;  // page headers and pages before compression
  std::uint32_t pages = 0;
};

struct RowGroup {
  std::uint64_t first_row = 0;
  std::uint64_t rows = 0;
  std::vector<ColumnChunk> columns;  // schema order
};

// The geometry of every file of a Parquet dataset.
struct FileGeometry {
  std::vector<ParquetColumn> columns;   // the schema (one "data" uint8 column when none given)
  std::vector<std::uint32_t> selected;  // indices of the columns a reader reads (read_columns)
  ParquetCompression compression = ParquetCompression::none;
  std::uint64_t rows = 0;
  std::uint64_t rows_per_group = 0;
  std::vector<RowGroup> row_groups;
  Range footer;  // the FileMetaData
  std::uint64_t file_bytes = 0;
  std::vector<std::uint8_t> footer_bytes;  // the FileMetaData itself (the same in every file)
  // Rows per page of column c (the last page of a chunk may hold fewer).
  std::uint64_t rows_per_page(std::size_t c) const;
  std::uint64_t value_bytes(std::size_t c) const;
};

// The geometry of the files of `spec` (validate() keeps values within kMaxValueBytes).
FileGeometry geometry(const DatasetSpec& spec);

// Arrow's pre-buffer coalescing (arrow::io::CacheOptions::Defaults(), CoalesceReadRanges): two
// column chunks become one read when the hole between them is at most kHoleSizeLimit bytes and
// the read they make together at most kRangeSizeLimit bytes; a chunk longer than that is one read
// on its own.
constexpr std::uint64_t kHoleSizeLimit = 8u << 10;
constexpr std::uint64_t kRangeSizeLimit = 32u << 20;

// The ranges a Parquet reader reads for row group `group`, in order: with `footer`, first the
// footer (the last min(kFooterReadBytes, file) bytes, then the rest of the FileMetaData when it
// is longer), then the group's selected column chunks coalesced as Arrow's pre-buffering does
// (kHoleSizeLimit, kRangeSizeLimit: chunks that touch, or leave a hole of an unselected column of
// at most 8 KiB, are one read, the hole included). Returns the count written to `out` (at most
// max_row_group_reads()).
std::size_t group_reads(const FileGeometry& g, std::uint64_t group, bool footer, Range* out);
// The reads of a reader streaming a file's rows in order (read = "row_group" without a sample
// shuffle): for row `row`, nothing unless the row starts a row group; else group_reads of that
// group, the footer with the file's first group.
std::size_t row_group_reads(const FileGeometry& g, std::uint64_t row, Range* out);
std::size_t max_row_group_reads(const FileGeometry& g);
// The longest range group_reads returns for any row group of the file (footer included): the
// largest read a reader makes at once; the replay reads it in requests of at most
// kRangeSizeLimit into buffers of that size (replay/src/phase_config.cpp).
std::uint64_t largest_row_group_read(const FileGeometry& g);
// The bytes and ranges those reads make over a whole file (every row group, footer once).
struct FileReads {
  std::uint64_t bytes = 0;
  std::uint64_t requests = 0;
};
FileReads file_reads(const FileGeometry& g);

// The page header (Thrift compact) of a data page of `rows` values of `value_bytes` each,
// `stored` bytes on disk.
std::vector<std::uint8_t> page_header(std::uint64_t rows, std::uint64_t value_bytes,
                                      std::uint64_t stored);
// Bytes a page of `bytes` value bytes takes on disk with `c`.
std::uint64_t stored_bytes(std::uint64_t bytes, ParquetCompression c);
// The raw snappy stream of `bytes` bytes as literals only, as libsnappy compresses bytes it finds
// no repeat in: the length as a varint, then each block of at most kSnappyBlockBytes as one
// literal (a tag byte, then 0 to 4 bytes of length - 1).
constexpr std::uint64_t kSnappyBlockBytes = 1u << 16;  // libsnappy's kBlockSize
std::uint64_t snappy_literal_header(std::uint64_t length);
std::uint64_t snappy_literal_bytes(std::uint64_t bytes);

// What a file's footer says (parse_footer): the parts dlgen's tests and tools look at.
struct FooterColumn {
  std::string name;
  std::int32_t type = -1;  // Parquet physical type (7: FIXED_LEN_BYTE_ARRAY)
  std::int32_t type_length = 0;
};
struct FooterChunk {
  std::string path;  // path_in_schema joined with '.'
  std::int32_t codec = 0;
  std::int64_t num_values = 0;
  std::int64_t data_page_offset = 0;
  std::int64_t total_compressed_size = 0;
  std::int64_t total_uncompressed_size = 0;
};
struct FooterRowGroup {
  std::int64_t num_rows = 0;
  std::vector<FooterChunk> columns;
};
struct Footer {
  std::int64_t num_rows = 0;
  std::vector<FooterColumn> schema;  // the leaf columns
  std::vector<FooterRowGroup> row_groups;
  std::uint64_t metadata_bytes = 0;  // the FileMetaData's length (from the file's tail)
};
// Parses a whole file's bytes (or its tail holding the whole footer, with `file_bytes` its size).
Result<Footer> parse_footer(std::span<const std::uint8_t> tail, std::uint64_t file_bytes);

// The value bytes of column `c` of file `file` over all rows, as written (tests compare readers'
// values with them).
std::vector<std::uint8_t> column_values(const DatasetSpec& spec, std::uint64_t file, std::size_t c);

}  // namespace dlgen::datasets::parquet
