#include "dlgen/datasets/layout.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>

#include "dlgen/core/set_draws.hpp"
#include "dlgen/datasets/parquet.hpp"
#include "framing.hpp"

namespace dlgen::datasets {

static_assert(framing::kTarRecord == Layout::kTarRecordBytes);
static_assert(framing::kJpegMinBytes == Layout::kMinJpegBytes);

// Sample extents and sizes. When every file has the same geometry (a fixed size distribution)
// one file's tables stand for all; otherwise there is one row of tables per file.
struct Layout::Geometry {
  // Fixed sample size, arithmetic: every sample is `bytes` long, sample j of any file starts at
  // first + j * stride, plus (npz only) the digits of the member names before it.
  bool arithmetic = false;
  std::uint64_t bytes = 0;
  std::uint64_t first = 0;
  std::uint64_t stride = 0;
  std::uint64_t file_bytes = 0;
  bool same_for_all = false;
  std::uint32_t per_file = 1;         // samples per file
  std::vector<std::uint64_t> offset;  // [file * per_file + j]
  std::vector<std::uint64_t> length;  // [file * per_file + j]
  std::vector<std::uint64_t> size;    // [file]
  std::uint64_t total = 0;
  std::shared_ptr<const parquet::FileGeometry> parquet;  // format = "parquet"
};

namespace {

// A drawn size in whole bytes, at least 1.
std::uint64_t whole_bytes(double v) {
  const double r = std::isfinite(v) ? std::llround(v) : 1.0;
  return r < 1 ? 1 : static_cast<std::uint64_t>(r);
}

unsigned digits(std::uint64_t v) {
  unsigned d = 1;
  while (v >= 10) {
    v /= 10;
    ++d;
  }
  return d;
}

// Total decimal digits of 0, 1, ..., m-1: each k has one digit plus one per power 10^d <= k.
std::uint64_t digits_below(std::uint64_t m) {
  std::uint64_t total = m;
  for (std::uint64_t p = 10; p < m; p *= 10) total += m - p;
  return total;
}

// The npz member name "x_<j>.npy" is this many bytes plus the digits of j.
constexpr std::uint64_t kNpzNameFixed = 6;

// Fills offset/length for the n samples whose payload sizes are in `len` and returns the file size.
std::uint64_t frame_file(const DatasetSpec& spec, const framing::Hdf5Frame& h5,
                         const std::uint64_t* len, std::uint64_t* off, std::uint32_t n) {
  std::uint64_t pos = 0;
  switch (spec.format) {
    case Format::raw:
      for (std::uint32_t j = 0; j < n; ++j) {
        off[j] = pos;
        pos += len[j];
      }
      return pos;
    case Format::jpeg:
      for (std::uint32_t j = 0; j < n; ++j) {
        off[j] = pos;
        pos += len[j];
      }
      return std::max<std::uint64_t>(pos, framing::kJpegMinBytes);
    case Format::npz: {
      std::uint64_t central = 0;
      for (std::uint32_t j = 0; j < n; ++j) {
        const auto name = framing::npz_member_name(j).size();
        pos += framing::kZipLocalHeader + name + framing::npy_header(len[j]).size();
        off[j] = pos;
        pos += len[j];
        central += framing::kZipCentralHeader + name;
      }
      return pos + central + framing::kZipEnd;
    }
    case Format::tfrecord:
      for (std::uint32_t j = 0; j < n; ++j) {
        pos += framing::kRecordHeader + framing::example_prefix(len[j]).size();
        off[j] = pos;
        pos += len[j] + framing::kRecordFooter;
      }
      return pos;
    case Format::tar:
      for (std::uint32_t j = 0; j < n; ++j) {
        off[j] = pos + framing::kTarBlock;
        pos = off[j] + framing::tar_padded(len[j]);
      }
      return framing::tar_size(pos);
    case Format::parquet:  // the constructor frames Parquet files (frame_parquet)
      return pos;
    case Format::hdf5: {
      std::uint64_t row = 0;
      for (std::uint32_t j = 0; j < n; ++j) row = std::max(row, len[j]);
      for (std::uint32_t j = 0; j < n; ++j) off[j] = h5.data_offset + j * row;
      return h5.overhead + n * row;
    }
  }
  return pos;
}

// The arithmetic geometry of n samples of `len` bytes each; mirrors frame_file exactly.
void frame_fixed(const DatasetSpec& spec, const framing::Hdf5Frame& h5, std::uint64_t len,
                 std::uint32_t n, Layout::Geometry& g) {
  g.arithmetic = true;
  g.bytes = len;
  switch (spec.format) {
    case Format::raw:
      g.first = 0;
      g.stride = len;
      g.file_bytes = n * len;
      break;
    case Format::jpeg:
      g.first = 0;
      g.stride = len;
      g.file_bytes = std::max<std::uint64_t>(n * len, framing::kJpegMinBytes);
      break;
    case Format::npz: {
      const std::uint64_t head =
          framing::kZipLocalHeader + kNpzNameFixed + framing::npy_header(len).size();
      g.first = head;
      g.stride = head + len;
      const std::uint64_t names = digits_below(n);
      g.file_bytes = n * g.stride + names + n * (framing::kZipCentralHeader + kNpzNameFixed) +
                     names + framing::kZipEnd;
      break;
    }
    case Format::tfrecord: {
      const std::uint64_t head = framing::kRecordHeader + framing::example_prefix(len).size();
      g.first = head;
      g.stride = head + len + framing::kRecordFooter;
      g.file_bytes = n * g.stride;
      break;
    }
    case Format::tar:
      g.first = framing::kTarBlock;
      g.stride = framing::kTarBlock + framing::tar_padded(len);
      g.file_bytes = framing::tar_size(n * g.stride);
      break;
    case Format::hdf5:
      g.first = h5.data_offset;
      g.stride = len;
      g.file_bytes = h5.overhead + n * len;
      break;
    case Format::parquet:  // frame_parquet
      break;
  }
}

// Parquet: rows of a fixed size, every file alike (parquet::geometry); extents go through it.
void frame_parquet(const DatasetSpec& spec, Layout::Geometry& g) {
  auto pq = std::make_shared<parquet::FileGeometry>(parquet::geometry(spec));
  g.arithmetic = true;
  g.bytes = columns_bytes(pq->columns);
  g.file_bytes = pq->file_bytes;
  g.total = g.file_bytes * spec.num_files;
  g.parquet = std::move(pq);
}

// Where row `row` of a Parquet file lives: its first column's value, or the page holding it.
Extent parquet_extent(const parquet::FileGeometry& pq, std::uint64_t row) {
  const std::uint64_t r =
      std::min<std::uint64_t>(row / pq.rows_per_group, pq.row_groups.size() - 1);
  const parquet::RowGroup& rg = pq.row_groups[r];
  const std::uint64_t in_group = row - rg.first_row;
  const std::uint64_t per = pq.rows_per_page(0), vb = pq.value_bytes(0);
  const std::uint64_t page = in_group / per, rows = std::min(per, rg.rows - page * per);
  const std::uint64_t full_stored = parquet::stored_bytes(per * vb, pq.compression);
  const std::uint64_t full = parquet::page_header(per, vb, full_stored).size() + full_stored;
  const std::uint64_t stored = parquet::stored_bytes(rows * vb, pq.compression);
  const std::uint64_t at =
      rg.columns[0].bytes.offset + page * full + parquet::page_header(rows, vb, stored).size();
  if (pq.compression != ParquetCompression::none) return {at, stored};
  return {at + (in_group - page * per) * vb, vb};
}

}  // namespace

const char* Layout::extension(Format format) {
  switch (format) {
    case Format::raw:
      return ".bin";
    case Format::npz:
      return ".npz";
    case Format::hdf5:
      return ".h5";
    case Format::jpeg:
      return ".jpg";
    case Format::tfrecord:
      return ".tfrecord";
    case Format::parquet:
      return ".parquet";
    case Format::tar:
      return ".tar";
  }
  return ".bin";
}

Layout::Layout(DatasetSpec spec, Geometry_mode mode) : spec_(std::move(spec)) {
  if (spec_.samples_per_file == 0) spec_.samples_per_file = 1;
  auto g = std::make_shared<Geometry>();
  const std::uint32_t n = spec_.samples_per_file;
  g->per_file = n;
  g->same_for_all = spec_.sample_size.kind == DistKind::fixed;
  framing::Hdf5Frame h5;
  if (spec_.format == Format::parquet) {
    frame_parquet(spec_, *g);
    geo_ = std::move(g);
    return;
  }
  if (spec_.format == Format::hdf5) h5 = framing::hdf5_frame(n, !g->same_for_all);
  if (g->same_for_all && mode == Geometry_mode::automatic) {
    frame_fixed(spec_, h5, whole_bytes(sample_at(spec_.sample_size, spec_.seed, 0)), n, *g);
    g->total = g->file_bytes * spec_.num_files;
    geo_ = std::move(g);
    return;
  }
  const std::uint64_t rows = g->same_for_all ? 1 : spec_.num_files;
  g->offset.resize(rows * n);
  g->length.resize(rows * n);
  g->size.resize(rows);
  // The set's sizes drawn together (set_draws: stratified for a histogram), sample j of file f
  // the (f * n + j)-th, so that a small set holds the distribution's expected bytes.
  const std::vector<double> drawn = set_draws(spec_.sample_size, spec_.seed, rows * n);
  for (std::uint64_t f = 0; f < rows; ++f) {
    std::uint64_t* len = &g->length[f * n];
    for (std::uint32_t j = 0; j < n; ++j) len[j] = whole_bytes(drawn[f * n + j]);
    g->size[f] = frame_file(spec_, h5, len, &g->offset[f * n], n);
    g->total += g->size[f];
  }
  if (g->same_for_all) g->total = g->size[0] * spec_.num_files;
  geo_ = std::move(g);
}

std::uint64_t Layout::num_dirs() const {
  if (spec_.files_per_dir == 0) return 0;
  return (spec_.num_files + spec_.files_per_dir - 1) / spec_.files_per_dir;
}

std::filesystem::path Layout::relative_dir(std::uint64_t dir) const {
  const unsigned width = std::max(5u, digits(num_dirs() > 0 ? num_dirs() - 1 : 0));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%0*llu", width, static_cast<unsigned long long>(dir));
  return buf;
}

std::filesystem::path Layout::relative_path(std::uint64_t file) const {
  const unsigned width = std::max(7u, digits(spec_.num_files > 0 ? spec_.num_files - 1 : 0));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%0*llu", width, static_cast<unsigned long long>(file));
  std::string name = spec_.file_prefix + "_" + buf + extension(spec_.format);
  if (spec_.files_per_dir == 0) return name;
  return relative_dir(file / spec_.files_per_dir) / name;
}

std::uint64_t Layout::sample_bytes(std::uint64_t file, std::uint32_t sample) const {
  assert(file < spec_.num_files && sample < geo_->per_file);
  if (geo_->arithmetic) return geo_->bytes;
  const std::uint64_t row = geo_->same_for_all ? 0 : file;
  return geo_->length[row * geo_->per_file + sample];
}

std::uint64_t Layout::file_size(std::uint64_t file) const {
  assert(file < spec_.num_files);
  if (geo_->arithmetic) return geo_->file_bytes;
  return geo_->size[geo_->same_for_all ? 0 : file];
}

Extent Layout::sample_extent(std::uint64_t file, std::uint32_t sample) const {
  assert(file < spec_.num_files && sample < geo_->per_file);
  if (geo_->parquet) return parquet_extent(*geo_->parquet, sample);
  if (geo_->arithmetic) {
    const Geometry& g = *geo_;
    if (spec_.format == Format::jpeg && g.per_file == 1) return {0, g.file_bytes};
    std::uint64_t off = g.first + sample * g.stride;
    if (spec_.format == Format::npz) off += digits_below(std::uint64_t{sample} + 1);
    return {off, g.bytes};
  }
  const std::uint64_t i = (geo_->same_for_all ? 0 : file) * geo_->per_file + sample;
  Extent e{geo_->offset[i], geo_->length[i]};
  if (spec_.format == Format::jpeg && geo_->per_file == 1) e = {0, file_size(file)};
  return e;
}

std::uint64_t Layout::largest_sample_extent() const {
  const Geometry& g = *geo_;
  if (g.parquet) return parquet_extent(*g.parquet, 0).length;  // the first page is a full one
  const bool whole_jpeg = spec_.format == Format::jpeg && g.per_file == 1;
  if (g.arithmetic) return whole_jpeg ? g.file_bytes : g.bytes;
  std::uint64_t most = 0;
  if (whole_jpeg) {
    for (std::uint64_t f = 0; f < spec_.num_files; ++f) most = std::max(most, file_size(f));
    return most;
  }
  for (std::uint64_t len : g.length) most = std::max(most, len);
  return most;
}

const parquet::FileGeometry* Layout::parquet() const {
  return geo_->parquet.get();
}

std::uint64_t Layout::total_bytes() const {
  return geo_->total;
}

}  // namespace dlgen::datasets
