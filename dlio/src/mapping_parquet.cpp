// DLIO config -> Job: the Parquet keys of MLPerf Storage v3.0's flux and dlrm configs
// (dataset.parquet.*, dataset.compression, dataset.record_length). DLIO's generator writes each
// column as a list of `size` values of `dtype` (pyarrow), row groups of row_group_size rows; its
// reader reads the selected columns (read: true) of a file, whole (read_mode default) or row group
// by row group (read_mode: row_group). docs/dlio.md, "Parquet".
#include <algorithm>
#include <cmath>

#include "reader.hpp"

namespace dlgen::dlio {
namespace {

// pyarrow.parquet.write_table's row_group_size when none is given (DLIO passes it through).
constexpr std::uint64_t kPyarrowRowGroupRows = 1u << 20;

}  // namespace

// One entry of dataset.parquet.columns: {name, dtype, size (default 1), read (default true)}.
bool Reader::read_parquet_column(const Leaf& l, const YAML::Node& n, std::size_t i,
                                 ParquetColumn& c, bool& read) {
  const std::string at = "columns[" + std::to_string(i) + "]";
  if (!n.IsMap() || !n["name"]) {
    error(l, at + " must be a map with name, dtype and (optionally) size and read");
    return false;
  }
  for (const auto& kv : n) {
    const std::string k = kv.first.as<std::string>("");
    if (k != "name" && k != "dtype" && k != "size" && k != "read") {
      error(l, at + ": unknown key \"" + k + "\" (name, dtype, size, read)");
      return false;
    }
  }
  c.name = n["name"].as<std::string>("");
  const std::string dtype = n["dtype"] ? n["dtype"].as<std::string>("") : "float32";
  const auto d = parquet_dtype_from_string(dtype == "list" ? "float32" : dtype);
  if (!d) {
    error(l, at + " (" + c.name + "): dtype \"" + dtype +
                 "\" is not supported (float16, float32, float64, int8, uint8, int16, int32, "
                 "int64, list)");
    return false;
  }
  c.dtype = *d;
  if (n["size"]) {
    const std::string s = n["size"].as<std::string>("");
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0' || !(v >= 1) || v != std::floor(v) || v > 4.0e9) {
      error(l, at + " (" + c.name + "): size must be a whole number >= 1, not \"" + s + "\"");
      return false;
    }
    c.size = static_cast<std::uint32_t>(v);
  }
  read = !n["read"] || n["read"].as<std::string>("true") != "false";
  return true;
}

void Reader::read_parquet() {
  Job& job = out_.job;
  ParquetSpec& q = job.dataset.parquet;
  const bool parquet = job.dataset.format == Format::parquet;
  if (const Leaf* l = get("dataset.compression")) {
    from("dataset.parquet.compression", *l);
    if (auto w = word(*l)) {
      if (*w == "zstd" && parquet)
        q.compression = ParquetCompression::zstd;
      else if (*w == "snappy" && parquet)
        q.compression = ParquetCompression::snappy;
      else if (*w != "none")
        error(*l,
              "compression \"" + *w + "\" is not supported (" +
                  (parquet ? "none, zstd or snappy" : "none; zstd or snappy for format parquet") +
                  ")");
    }
  }
  // record_length: what the v3.0 flux config calls record_length_bytes.
  if (const Leaf* l = get("dataset.record_length")) {
    if (get("dataset.record_length_bytes"))
      error(*l, "give record_length or record_length_bytes, not both");
    else if (auto v = number(*l); v && *v >= 1)
      job.dataset.sample_size = Distribution::fixed_at(std::round(*v));
    else if (v)
      error(*l, "must be >= 1");
    from("dataset.sample_size", *l);
  }
  const char* keys[] = {"dataset.parquet.columns", "dataset.parquet.row_group_size",
                        "dataset.parquet.read_mode", "dataset.parquet.generation_batch_size"};
  if (!parquet) {
    for (const char* k : keys)
      if (const Leaf* l = get(k)) error(*l, "applies to dataset.format parquet only");
    return;
  }
  read_parquet_columns();
  q.row_group_size = kPyarrowRowGroupRows;
  if (const Leaf* l = get("dataset.parquet.row_group_size")) {
    if (auto v = count(*l); v && *v >= 1)
      q.row_group_size = *v;
    else if (v)
      error(*l, "must be >= 1");
    from("dataset.parquet.row_group_size", *l);
  } else {
    note("dataset.parquet.row_group_size not given: " + std::to_string(kPyarrowRowGroupRows) +
         " rows per row group, pyarrow's write_table default");
  }
  q.row_group_size = std::min<std::uint64_t>(q.row_group_size, job.dataset.samples_per_file);
  job.reader.read_unit = ReadUnit::row_group;
  if (const Leaf* l = get("dataset.parquet.read_mode")) {
    from("reader.read", *l);
    auto w = word(*l);
    if (w && *w != "row_group" && *w != "default")
      error(*l, "must be default or row_group");
    else if (w && *w == "default")
      note(
          "dataset.parquet.read_mode default: DLIO reads a file's selected columns when it opens "
          "it; dlgen reads the same column chunks row group by row group (read = \"row_group\")");
  }
  if (const Leaf* l = get("dataset.parquet.generation_batch_size")) {
    if (count(*l))
      note(
          "dataset.parquet.generation_batch_size: rows pyarrow builds at a time while "
          "generating; no I/O meaning");
  }
}

void Reader::read_parquet_columns() {
  Job& job = out_.job;
  ParquetSpec& q = job.dataset.parquet;
  const Leaf* l = get("dataset.parquet.columns");
  if (!l) {
    note("dataset.parquet.columns not given: one column \"data\" of record_length_bytes per row");
    return;
  }
  from("dataset.parquet.columns", *l);
  if (!l->node.IsSequence() || l->node.size() == 0) {
    error(*l, "must be a list of columns ({name, dtype, size, read})");
    return;
  }
  std::vector<std::string> read;
  bool all = true;
  for (std::size_t i = 0; i < l->node.size(); ++i) {
    ParquetColumn c;
    bool r = true;
    if (!read_parquet_column(*l, l->node[i], i, c, r)) return;
    if (r) read.push_back(c.name);
    all = all && r;
    q.columns.push_back(c);
  }
  if (!all) q.read_columns = read;
  const std::uint64_t row = columns_bytes(q.columns);
  const double given = job.dataset.sample_size.value;
  if (std::llround(given) != static_cast<long long>(row))
    note("record length " + std::to_string(std::llround(given)) + " bytes: a row of the " +
         std::to_string(q.columns.size()) + " columns holds " + std::to_string(row) +
         " bytes, which dlgen writes and reads");
  job.dataset.sample_size = Distribution::fixed_at(static_cast<double>(row));
}

}  // namespace dlgen::dlio
