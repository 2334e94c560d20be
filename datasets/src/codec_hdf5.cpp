// HDF5 files: the library writes the metadata (a skeleton with the datasets allocated but not
// filled), then the rows are written with large pwrite()s at the dataset's offset, which is both
// faster than H5Dwrite and leaves the file byte-exact: contiguous storage allocated early puts the
// metadata in a size that depends only on the number of rows, measured once per shape.
#include <fcntl.h>
#include <hdf5.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <map>
#include <mutex>

#include "codecs.hpp"
#include "dlgen/datasets/content.hpp"
#include "framing.hpp"

namespace dlgen::datasets {
namespace {

// Serialises our calls into libhdf5 (Debian's serial build is not guaranteed thread-safe).
std::mutex& hdf5_mutex() {
  static std::mutex mu;
  return mu;
}

// Closes an HDF5 handle with the matching close function.
class Handle {
 public:
  Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  ~Handle() {
    if (id_ >= 0) close_(id_);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  hid_t get() const { return id_; }
  bool ok() const { return id_ >= 0; }
  herr_t close() {
    const herr_t r = id_ >= 0 ? close_(id_) : 0;
    id_ = -1;
    return r;
  }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

// Creates the skeleton at `path` (`name` in errors); returns the file offset of row 0 of "data".
// Caller holds the mutex.
Result<std::uint64_t> create_skeleton(const std::filesystem::path& path, std::uint32_t rows,
                                      std::uint64_t row, const std::uint64_t* sizes,
                                      const std::filesystem::path& name) {
  const std::string where = name.string() + ": hdf5: ";
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  H5Pset_libver_bounds(fapl.get(), H5F_LIBVER_LATEST, H5F_LIBVER_LATEST);
  Handle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()), H5Fclose);
  if (!file.ok()) return runtime_error(where + "cannot create file");
  Handle dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  H5Pset_layout(dcpl.get(), H5D_CONTIGUOUS);
  H5Pset_alloc_time(dcpl.get(), H5D_ALLOC_TIME_EARLY);
  H5Pset_fill_time(dcpl.get(), H5D_FILL_TIME_NEVER);
  if (sizes) {
    const hsize_t dims[1] = {rows};
    Handle space(H5Screate_simple(1, dims, nullptr), H5Sclose);
    Handle d(H5Dcreate2(file.get(), "sizes", H5T_STD_U64LE, space.get(), H5P_DEFAULT, dcpl.get(),
                        H5P_DEFAULT),
             H5Dclose);
    if (!d.ok() || H5Dwrite(d.get(), H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, sizes) < 0)
      return runtime_error(where + "cannot write dataset 'sizes'");
  }
  const hsize_t dims[2] = {rows, row};
  Handle space(H5Screate_simple(2, dims, nullptr), H5Sclose);
  Handle d(H5Dcreate2(file.get(), "data", H5T_STD_U8LE, space.get(), H5P_DEFAULT, dcpl.get(),
                      H5P_DEFAULT),
           H5Dclose);
  if (!d.ok()) return runtime_error(where + "cannot create dataset 'data'");
  const haddr_t offset = H5Dget_offset(d.get());
  if (offset == HADDR_UNDEF) return runtime_error(where + "dataset 'data' has no storage");
  d.close();
  if (file.close() < 0) return runtime_error(where + "cannot close file");
  return static_cast<std::uint64_t>(offset);
}

}  // namespace

namespace framing {

Hdf5Frame hdf5_frame(std::uint32_t rows, bool with_sizes) {
  static std::map<std::pair<std::uint32_t, bool>, Hdf5Frame> cache;
  std::lock_guard lock(hdf5_mutex());
  if (auto it = cache.find({rows, with_sizes}); it != cache.end()) return it->second;
  const char* base = std::getenv("TMPDIR");
  std::string tmpl = std::string(base && *base ? base : "/tmp") + "/dlgen-h5frame-XXXXXX";
  const int fd = ::mkstemp(tmpl.data());
  Hdf5Frame frame;
  if (fd >= 0) {
    ::close(fd);
    constexpr std::uint64_t kRow = 4096;
    std::vector<std::uint64_t> sizes(rows, kRow);
    auto offset = create_skeleton(tmpl, rows, kRow, with_sizes ? sizes.data() : nullptr, tmpl);
    struct stat st {};
    if (offset && ::stat(tmpl.c_str(), &st) == 0) {
      frame.data_offset = *offset;
      // The data is allocated but unwritten: the file ends at max(metadata end, data end).
      const std::uint64_t end = std::max<std::uint64_t>(st.st_size, *offset + rows * kRow);
      frame.overhead = end - rows * kRow;
    }
    ::unlink(tmpl.c_str());
  }
  cache[{rows, with_sizes}] = frame;
  return frame;
}

}  // namespace framing

Result<std::uint64_t> write_hdf5_skeleton(const Layout& layout, std::uint64_t file, int fd,
                                          const std::filesystem::path& path) {
  const std::uint32_t rows = layout.spec().samples_per_file;
  std::vector<std::uint64_t> sizes(rows);
  std::uint64_t row = 0;
  for (std::uint32_t j = 0; j < rows; ++j) {
    sizes[j] = layout.sample_bytes(file, j);
    row = std::max(row, sizes[j]);
  }
  const bool with_sizes = layout.spec().sample_size.kind != DistKind::fixed;
  // The library opens files by name; /proc/self/fd/N names the very file the caller created, so
  // a link swapped in at `path` meanwhile is not what it opens.
  const std::filesystem::path self = "/proc/self/fd/" + std::to_string(fd);
  Result<std::uint64_t> offset = std::uint64_t{0};
  {
    std::lock_guard lock(hdf5_mutex());
    offset = create_skeleton(self, rows, row, with_sizes ? sizes.data() : nullptr, path);
  }
  if (offset && *offset != layout.sample_extent(file, 0).offset)
    offset = runtime_error(path.string() + ": hdf5 data landed at " + std::to_string(*offset) +
                           ", the layout expected " +
                           std::to_string(layout.sample_extent(file, 0).offset));
  return offset;
}

Result<void> encode_hdf5_rows(const Layout& layout, std::uint64_t file, Sink& sink) {
  std::uint64_t row = 0;
  for (std::uint32_t j = 0; j < layout.spec().samples_per_file; ++j)
    row = std::max(row, layout.sample_bytes(file, j));
  ContentStream content(layout.spec().seed, file);
  for (std::uint64_t left = layout.spec().samples_per_file * row; left > 0;) {
    auto w = sink.acquire(static_cast<std::size_t>(std::min<std::uint64_t>(left, 1u << 30)));
    if (!w) return w.error();
    const std::size_t k = std::min<std::uint64_t>(w->size(), left);
    content.fill(w->data(), k);
    sink.commit(k);
    left -= k;
  }
  return ok();
}

namespace detail {

Result<void> write_hdf5(const Layout& layout, std::uint64_t file, int fd,
                        const std::filesystem::path& path, std::size_t buffer_bytes, bool* synced) {
  Result<std::uint64_t> offset = write_hdf5_skeleton(layout, file, fd, path);
  if (!offset) {
    ::close(fd);
    return offset.error();
  }
  const bool direct = layout.file_size(file) >= kDirectMinBytes;
  if (direct) try_direct(fd);
  AlignedBuffer& buffer = thread_buffer(buffer_bytes);
  FileSink sink(fd, path, *offset, std::move(buffer));
  Result<void> r = encode_hdf5_rows(layout, file, sink);
  if (r) r = sink.flush();
  // The file must end exactly where the layout says; a mismatch means the measured frame is wrong.
  struct stat st {};
  if (r && ::fstat(fd, &st) == 0 &&
      static_cast<std::uint64_t>(st.st_size) != layout.file_size(file))
    r = runtime_error(path.string() + ": hdf5 file is " + std::to_string(st.st_size) +
                      " bytes, the layout expected " + std::to_string(layout.file_size(file)));
  r = finish_output(fd, sink, path, std::move(r), direct, synced);
  buffer = sink.take_buffer();
  return r;
}

}  // namespace detail
}  // namespace dlgen::datasets
