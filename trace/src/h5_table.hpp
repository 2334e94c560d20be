#pragma once
// Columns and attributes of an HDF5 file, private to the trace module: the pieces the trace
// writer and reader build their tables from (1-D extendible datasets, one per field, and scalar or
// string attributes). Every count read from a file is checked against what the file can hold.
#include <hdf5.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dlgen/core/result.hpp"
#include "h5.hpp"

namespace dlgen::trace::h5 {

constexpr std::size_t kCommLen = 16;  // TASK_COMM_LEN, NUL padded

Handle vlen_string_type();  // variable-length UTF-8 string
Handle comm_type();         // kCommLen bytes, NUL padded

// An empty, extendible, chunked, shuffled and deflated 1-D dataset of `chunk` elements a chunk.
Handle create_column(hid_t group, const char* name, hid_t file_type, hsize_t chunk,
                     bool shuffle = true);
// Sets the column's length to `total` and writes `count` elements at `start`.
bool write_rows(hid_t group, const char* name, hid_t mem_type, const void* data, hsize_t start,
                hsize_t count, hsize_t total);

// The common row count of a table's columns (name, element bytes), each checked against what a
// file of `file_bytes` can hold. `tolerance` rows of disagreement are accepted (an unfinished
// capture may stop between two columns' writes; the shortest then counts); more is a corrupt
// file, as is a column that is not 1-D.
Result<hsize_t> table_rows(hid_t group, const char* group_name,
                           const std::vector<std::pair<const char*, std::size_t>>& cols,
                           std::uint64_t file_bytes, hsize_t tolerance,
                           const std::filesystem::path& path);

// Reads the first `n` elements of a 1-D dataset as `mem_type` into `buf`.
bool read_prefix(hid_t group, const char* name, hsize_t n, hid_t mem_type, void* buf);

// Reads the first `n` elements of a numeric column (missing column: zeros, so older files read).
template <class T>
bool read_column(hid_t group, const char* name, hsize_t n, std::vector<T>& out) {
  out.assign(n, T{});
  if (n == 0) return true;
  if (H5Lexists(group, name, H5P_DEFAULT) <= 0) return true;
  return read_prefix(group, name, n, native<T>(), out.data());
}

bool read_vlen_strings(hid_t group, const char* name, hsize_t n, std::vector<std::string>& out);
bool read_comm_strings(hid_t group, const char* name, hsize_t n, std::vector<std::string>& out);

// ---- attributes ----

void delete_attr(hid_t obj, const char* name);

// Each replaces the attribute if it is there.
template <class T>
bool set_attr(hid_t obj, const char* name, T value) {
  delete_attr(obj, name);
  Handle sp = space(H5Screate(H5S_SCALAR));
  Handle a = attr(H5Acreate2(obj, name, native<T>(), sp, H5P_DEFAULT, H5P_DEFAULT));
  return a.valid() && H5Awrite(a, native<T>(), &value) >= 0;
}
bool set_attr_string(hid_t obj, const char* name, const std::string& value);
bool set_attr_strings(hid_t obj, const char* name, const std::vector<std::string>& values);

// An attribute that is there but cannot be read (a corrupt file) sets `*failed` to its name, if
// `failed` is given and not yet set, and reads as `fallback`.
void note_failure(std::string* failed, const char* name);

template <class T>
T get_attr(hid_t obj, const char* name, T fallback, std::string* failed = nullptr) {
  if (H5Aexists(obj, name) <= 0) return fallback;
  Handle a = attr(H5Aopen(obj, name, H5P_DEFAULT));
  T v{};
  if (!a.valid() || H5Aread(a, native<T>(), &v) < 0) {
    note_failure(failed, name);
    return fallback;
  }
  return v;
}

std::string get_attr_string(hid_t obj, const char* name, std::string* failed = nullptr);

// nullopt: the attribute is there but unreadable, or claims more strings than the file can hold
// (each variable-length string takes at least 16 bytes of it).
std::optional<std::vector<std::string>> get_attr_strings(hid_t obj, const char* name,
                                                         std::uint64_t file_bytes);

}  // namespace dlgen::trace::h5
