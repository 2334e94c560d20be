// Columns and attributes of an HDF5 file (h5_table.hpp).
#include "h5_table.hpp"

#include <cstring>

namespace dlgen::trace::h5 {
namespace {

// zlib level of the columns HDF5 compresses itself, /files and /processes (rewritten in part at
// every flush, and small next to the path strings, which HDF5 stores uncompressed); /events
// bypasses this filter (chunk_writer.hpp).
constexpr unsigned kDeflateLevel = 1;

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
  Handle ds = dataset(H5Dopen2(group, name, H5P_DEFAULT));
  if (!ds.valid()) return r;  // a missing column reads as zeros (older files)
  Handle sp = space(H5Dget_space(ds));
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

}  // namespace

Handle vlen_string_type() {
  Handle t = type(H5Tcopy(H5T_C_S1));
  H5Tset_size(t, H5T_VARIABLE);
  H5Tset_cset(t, H5T_CSET_UTF8);
  return t;
}

Handle comm_type() {
  Handle t = type(H5Tcopy(H5T_C_S1));
  H5Tset_size(t, kCommLen);
  H5Tset_strpad(t, H5T_STR_NULLPAD);
  return t;
}

Handle create_column(hid_t group, const char* name, hid_t file_type, hsize_t chunk, bool shuffle) {
  hsize_t dims = 0, maxdims = H5S_UNLIMITED;
  Handle sp = space(H5Screate_simple(1, &dims, &maxdims));
  Handle dcpl = plist(H5Pcreate(H5P_DATASET_CREATE));
  H5Pset_chunk(dcpl, 1, &chunk);
  if (shuffle) H5Pset_shuffle(dcpl);
  H5Pset_deflate(dcpl, kDeflateLevel);
  return dataset(H5Dcreate2(group, name, file_type, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT));
}

// Sets the column's length to `total` and writes `count` elements at `start`.
bool write_rows(hid_t group, const char* name, hid_t mem_type, const void* data, hsize_t start,
                hsize_t count, hsize_t total) {
  Handle ds = dataset(H5Dopen2(group, name, H5P_DEFAULT));
  if (!ds.valid()) return false;
  if (H5Dset_extent(ds, &total) < 0) return false;
  if (count == 0) return true;
  Handle fs = space(H5Dget_space(ds));
  if (H5Sselect_hyperslab(fs, H5S_SELECT_SET, &start, nullptr, &count, nullptr) < 0) return false;
  Handle ms = space(H5Screate_simple(1, &count, nullptr));
  return H5Dwrite(ds, mem_type, ms, fs, H5P_DEFAULT, data) >= 0;
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
  Handle ds = dataset(H5Dopen2(group, name, H5P_DEFAULT));
  if (!ds.valid()) return false;
  Handle fs = space(H5Dget_space(ds));
  hsize_t start = 0, count = n;
  if (H5Sselect_hyperslab(fs, H5S_SELECT_SET, &start, nullptr, &count, nullptr) < 0) return false;
  Handle ms = space(H5Screate_simple(1, &count, nullptr));
  return H5Dread(ds, mem_type, ms, fs, H5P_DEFAULT, buf) >= 0;
}

bool read_vlen_strings(hid_t group, const char* name, hsize_t n, std::vector<std::string>& out) {
  out.assign(n, {});
  if (n == 0) return true;
  Handle mt = vlen_string_type();
  std::vector<char*> buf(n, nullptr);
  if (!read_prefix(group, name, n, mt, buf.data())) return false;
  for (hsize_t i = 0; i < n; ++i) out[i] = buf[i] ? buf[i] : "";
  Handle ms = space(H5Screate_simple(1, &n, nullptr));
  H5Dvlen_reclaim(mt, ms, H5P_DEFAULT, buf.data());
  return true;
}

bool read_comm_strings(hid_t group, const char* name, hsize_t n, std::vector<std::string>& out) {
  out.assign(n, {});
  if (n == 0) return true;
  Handle mt = comm_type();
  std::vector<char> buf(n * kCommLen, '\0');
  if (!read_prefix(group, name, n, mt, buf.data())) return false;
  for (hsize_t i = 0; i < n; ++i) {
    const char* p = buf.data() + i * kCommLen;
    out[i].assign(p, strnlen(p, kCommLen));
  }
  return true;
}

void delete_attr(hid_t obj, const char* name) {
  if (H5Aexists(obj, name) > 0) H5Adelete(obj, name);
}

bool set_attr_string(hid_t obj, const char* name, const std::string& value) {
  delete_attr(obj, name);
  Handle t = vlen_string_type();
  Handle sp = space(H5Screate(H5S_SCALAR));
  Handle a = attr(H5Acreate2(obj, name, t, sp, H5P_DEFAULT, H5P_DEFAULT));
  const char* p = value.c_str();
  return a.valid() && H5Awrite(a, t, &p) >= 0;
}

bool set_attr_strings(hid_t obj, const char* name, const std::vector<std::string>& values) {
  delete_attr(obj, name);
  Handle t = vlen_string_type();
  hsize_t n = values.size();
  Handle sp = space(H5Screate_simple(1, &n, nullptr));
  Handle a = attr(H5Acreate2(obj, name, t, sp, H5P_DEFAULT, H5P_DEFAULT));
  std::vector<const char*> ptrs;
  for (const auto& v : values) ptrs.push_back(v.c_str());
  if (!a.valid()) return false;
  return n == 0 || H5Awrite(a, t, ptrs.data()) >= 0;
}

void note_failure(std::string* failed, const char* name) {
  if (failed && failed->empty()) *failed = name;
}

std::string get_attr_string(hid_t obj, const char* name, std::string* failed) {
  if (H5Aexists(obj, name) <= 0) return {};
  Handle a = attr(H5Aopen(obj, name, H5P_DEFAULT));
  Handle ft = type(H5Aget_type(a));
  if (H5Tget_class(ft) != H5T_STRING) {
    note_failure(failed, name);
    return {};
  }
  if (H5Tis_variable_str(ft) > 0) {
    Handle t = vlen_string_type();
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
  Handle a = attr(H5Aopen(obj, name, H5P_DEFAULT));
  Handle sp = space(H5Aget_space(a));
  hssize_t n = H5Sget_simple_extent_npoints(sp);
  if (n < 0 || static_cast<std::uint64_t>(n) > file_bytes / 16) return std::nullopt;
  if (n == 0) return out;
  Handle t = vlen_string_type();
  std::vector<char*> buf(static_cast<std::size_t>(n), nullptr);
  if (H5Aread(a, t, buf.data()) < 0) return std::nullopt;
  for (char* p : buf) out.emplace_back(p ? p : "");
  H5Dvlen_reclaim(t, sp, H5P_DEFAULT, buf.data());
  return out;
}

}  // namespace dlgen::trace::h5
