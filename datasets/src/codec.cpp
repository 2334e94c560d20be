#include "dlgen/datasets/codec.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "codecs.hpp"
#include "dlgen/datasets/checksum.hpp"
#include "dlgen/datasets/content.hpp"
#include "framing.hpp"

namespace dlgen::datasets {

namespace detail {
std::string errno_text(int err) {
  return std::strerror(err);
}
}  // namespace detail

Result<void> Sink::write(std::span<const std::uint8_t> bytes) {
  while (!bytes.empty()) {
    auto w = acquire(bytes.size());
    if (!w) return w.error();
    const std::size_t n = std::min(w->size(), bytes.size());
    std::memcpy(w->data(), bytes.data(), n);
    commit(n);
    bytes = bytes.subspan(n);
  }
  return ok();
}

Result<std::span<std::uint8_t>> MemorySink::acquire(std::size_t max) {
  const std::size_t n = std::min<std::size_t>(std::max<std::size_t>(max, 1), 4u << 20);
  if (bytes_.size() < size_ + n) bytes_.resize(std::max(size_ + n, bytes_.size() * 2));
  return std::span<std::uint8_t>(bytes_.data() + size_, n);
}

void MemorySink::commit(std::size_t n) {
  size_ += n;
}

Result<void> MemorySink::patch(std::uint64_t offset, std::span<const std::uint8_t> bytes) {
  if (offset + bytes.size() > size_) return runtime_error("patch beyond the end of a memory file");
  std::memcpy(bytes_.data() + offset, bytes.data(), bytes.size());
  return ok();
}

std::vector<std::uint8_t> MemorySink::take() {
  bytes_.resize(size_);
  size_ = 0;
  return std::move(bytes_);
}

AlignedBuffer::AlignedBuffer(std::size_t bytes)
    : p_(static_cast<std::uint8_t*>(
          ::operator new((bytes + kAlign - 1) / kAlign * kAlign, std::align_val_t(kAlign)))),
      n_((bytes + kAlign - 1) / kAlign * kAlign) {}

AlignedBuffer& AlignedBuffer::operator=(AlignedBuffer&& o) noexcept {
  if (this != &o) {
    this->~AlignedBuffer();
    p_ = o.p_, n_ = o.n_;
    o.p_ = nullptr, o.n_ = 0;
  }
  return *this;
}

AlignedBuffer::~AlignedBuffer() {
  if (p_) ::operator delete(p_, std::align_val_t(kAlign));
}

FileSink::FileSink(int fd, std::filesystem::path name, std::uint64_t start_offset,
                   std::size_t buffer_bytes)
    : FileSink(fd, std::move(name), start_offset, AlignedBuffer(buffer_bytes)) {}

FileSink::FileSink(int fd, std::filesystem::path name, std::uint64_t start_offset,
                   AlignedBuffer buffer)
    : fd_(fd), name_(std::move(name)), buffer_(std::move(buffer)) {
  if (buffer_.size() < AlignedBuffer::kAlign) buffer_ = AlignedBuffer(AlignedBuffer::kAlign);
  const int flags = ::fcntl(fd_, F_GETFL);
  direct_ = flags >= 0 && (flags & O_DIRECT) != 0;
  start_at(start_offset);
}

void FileSink::start_at(std::uint64_t offset) {
  base_ = offset / AlignedBuffer::kAlign * AlignedBuffer::kAlign;
  begin_ = used_ = static_cast<std::size_t>(offset - base_);
}

namespace detail {
AlignedBuffer& thread_buffer(std::size_t bytes) {
  thread_local AlignedBuffer buffer;
  const std::size_t want = std::max<std::size_t>(bytes, AlignedBuffer::kAlign);
  if (buffer.size() < want || buffer.size() >= 2 * want) buffer = AlignedBuffer(want);
  return buffer;
}
}  // namespace detail

namespace {
// `err`, when given, receives the errno of a failed write.
Result<void> pwrite_all(int fd, const std::filesystem::path& name, const std::uint8_t* p,
                        std::size_t n, std::uint64_t off, int* err = nullptr) {
  while (n > 0) {
    const ssize_t w = ::pwrite(fd, p, n, static_cast<off_t>(off));
    if (w < 0) {
      if (errno == EINTR) continue;
      if (err) *err = errno;
      return runtime_error(name.string() + ": write at " + std::to_string(off) + ": " +
                           detail::errno_text(errno));
    }
    p += w;
    n -= static_cast<std::size_t>(w);
    off += static_cast<std::uint64_t>(w);
  }
  return ok();
}
}  // namespace

Result<void> FileSink::write_buffered(const std::uint8_t* p, std::size_t n, std::uint64_t off) {
  if (n == 0) return ok();
  if (!direct_) return pwrite_all(fd_, name_, p, n, off);
  const int flags = ::fcntl(fd_, F_GETFL);
  if (flags < 0 || ::fcntl(fd_, F_SETFL, flags & ~O_DIRECT) != 0)
    return runtime_error(name_.string() + ": fcntl: " + detail::errno_text(errno));
  Result<void> r = pwrite_all(fd_, name_, p, n, off);
  if (::fcntl(fd_, F_SETFL, flags) != 0 && r)
    r = runtime_error(name_.string() + ": fcntl: " + detail::errno_text(errno));
  return r;
}

Result<void> FileSink::write_range(const std::uint8_t* p, std::size_t n, std::uint64_t off) {
  if (!direct_) return pwrite_all(fd_, name_, p, n, off);
  constexpr std::size_t A = AlignedBuffer::kAlign;
  const std::size_t head = std::min<std::size_t>(n, (A - off % A) % A);
  const std::size_t body = (n - head) / A * A;
  if (auto r = write_buffered(p, head, off); !r) return r;
  if (body > 0) {
    int err = 0;
    auto r = pwrite_all(fd_, name_, p + head, body, off + head, &err);
    if (!r && err == EINVAL) {
      // The filesystem takes O_DIRECT at open but not these writes: buffered from now on.
      const int flags = ::fcntl(fd_, F_GETFL);
      if (flags >= 0) ::fcntl(fd_, F_SETFL, flags & ~O_DIRECT);
      direct_ = false;
      r = pwrite_all(fd_, name_, p + head, body, off + head);
    }
    if (!r) return r;
  }
  return write_buffered(p + head + body, n - head - body, off + head + body);
}

Result<std::span<std::uint8_t>> FileSink::acquire(std::size_t max) {
  if (used_ == buffer_.size()) {
    if (auto r = flush(); !r) return r.error();
  }
  const std::size_t n = std::min(std::max<std::size_t>(max, 1), buffer_.size() - used_);
  return std::span<std::uint8_t>(buffer_.data() + used_, n);
}

void FileSink::commit(std::size_t n) {
  used_ += n;
}

Result<void> FileSink::patch(std::uint64_t offset, std::span<const std::uint8_t> bytes) {
  // Bytes still in the buffer are patched there; older ones are rewritten in place.
  const std::uint64_t pending = base_ + begin_;
  while (!bytes.empty() && offset < pending) {
    const std::size_t n = std::min<std::uint64_t>(bytes.size(), pending - offset);
    if (auto r = write_buffered(bytes.data(), n, offset); !r) return r;
    bytes = bytes.subspan(n);
    offset += n;
  }
  if (bytes.empty()) return ok();
  if (offset + bytes.size() > position())
    return runtime_error("patch beyond the end of " + name_.string());
  std::memcpy(buffer_.data() + (offset - base_), bytes.data(), bytes.size());
  return ok();
}

Result<void> FileSink::flush() {
  if (used_ == begin_) return ok();
  if (auto r = write_range(buffer_.data() + begin_, used_ - begin_, base_ + begin_); !r) return r;
  start_at(base_ + used_);
  return ok();
}

namespace {

// Streams n content bytes into the sink; `crc32`/`crc32c`, when given, are continued over them.
Result<void> put_content(Sink& sink, ContentStream& content, std::uint64_t n,
                         std::uint32_t* crc32_out = nullptr, std::uint32_t* crc32c_out = nullptr) {
  while (n > 0) {
    auto w = sink.acquire(static_cast<std::size_t>(std::min<std::uint64_t>(n, 1u << 30)));
    if (!w) return w.error();
    const std::size_t k = std::min<std::uint64_t>(w->size(), n);
    // Checksummed in L2-sized slices right after generating them, so the CRC reads from cache.
    constexpr std::size_t kSlice = 128u << 10;
    const std::size_t slice = (crc32_out || crc32c_out) ? kSlice : k;
    for (std::size_t at = 0; at < k; at += slice) {
      std::uint8_t* p = w->data() + at;
      const std::size_t m = std::min(slice, k - at);
      content.fill(p, m);
      if (crc32_out) *crc32_out = static_cast<std::uint32_t>(::crc32_z(*crc32_out, p, m));
      if (crc32c_out) *crc32c_out = crc32c(*crc32c_out, p, m);
    }
    sink.commit(k);
    n -= k;
  }
  return ok();
}

Result<void> put_zeros(Sink& sink, std::uint64_t n) {
  static const std::vector<std::uint8_t> zeros(framing::kTarRecord, 0);
  for (; n > 0; n -= std::min<std::uint64_t>(n, zeros.size()))
    if (auto r = sink.write({zeros.data(), std::min<std::uint64_t>(n, zeros.size())}); !r)
      return r;
  return ok();
}

void le(std::vector<std::uint8_t>& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

std::span<const std::uint8_t> as_bytes(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

Result<void> encode_raw(const Layout& layout, std::uint64_t file, Sink& sink) {
  ContentStream content(layout.spec().seed, file);
  return put_content(sink, content, layout.file_size(file));
}

// A stored (uncompressed) zip, one NPY member per sample. Fixed DOS time 1980-01-01 00:00.
Result<void> encode_npz(const Layout& layout, std::uint64_t file, Sink& sink) {
  const std::uint32_t n = layout.spec().samples_per_file;
  if (layout.file_size(file) >= 0xffffffffull || n >= 0xffff)
    return input_error(layout.relative_path(file).string() +
                       ": npz files of 4 GiB or 65535 samples and more need zip64, not supported");
  ContentStream content(layout.spec().seed, file);
  struct Member {
    std::string name;
    std::uint32_t crc = 0;
    std::uint32_t size = 0;
    std::uint32_t offset = 0;
  };
  std::vector<Member> members(n);
  const std::uint64_t base = sink.position();
  std::vector<std::uint8_t> h;
  for (std::uint32_t j = 0; j < n; ++j) {
    Member& m = members[j];
    m.name = framing::npz_member_name(j);
    const std::string npy = framing::npy_header(layout.sample_bytes(file, j));
    m.size = static_cast<std::uint32_t>(npy.size() + layout.sample_bytes(file, j));
    m.offset = static_cast<std::uint32_t>(sink.position() - base);
    h.clear();
    le(h, 0x04034b50, 4);  // local file header signature
    le(h, 20, 2);          // version needed: 2.0
    le(h, 0, 2);           // flags
    le(h, 0, 2);           // method: stored
    le(h, 0, 2);           // time
    le(h, 0x21, 2);        // date: 1980-01-01
    le(h, 0, 4);           // CRC-32, patched below
    le(h, m.size, 4);      // compressed size
    le(h, m.size, 4);      // uncompressed size
    le(h, m.name.size(), 2);
    le(h, 0, 2);  // extra length
    h.insert(h.end(), m.name.begin(), m.name.end());
    if (auto r = sink.write(h); !r) return r;
    sink.hold(base + m.offset + 14, 4);  // the CRC, patched after the member's data
    m.crc = static_cast<std::uint32_t>(
        ::crc32_z(0, reinterpret_cast<const Bytef*>(npy.data()), npy.size()));
    if (auto r = sink.write(as_bytes(npy)); !r) return r;
    if (auto r = put_content(sink, content, layout.sample_bytes(file, j), &m.crc); !r) return r;
    std::uint8_t crc[4];
    for (int i = 0; i < 4; ++i) crc[i] = static_cast<std::uint8_t>(m.crc >> (8 * i));
    if (auto r = sink.patch(base + m.offset + 14, crc); !r) return r;
  }
  const std::uint64_t central_start = sink.position() - base;
  h.clear();
  for (const Member& m : members) {
    le(h, 0x02014b50, 4);  // central directory header signature
    le(h, 20, 2);          // version made by
    le(h, 20, 2);          // version needed
    le(h, 0, 2);
    le(h, 0, 2);
    le(h, 0, 2);
    le(h, 0x21, 2);
    le(h, m.crc, 4);
    le(h, m.size, 4);
    le(h, m.size, 4);
    le(h, m.name.size(), 2);
    le(h, 0, 2);  // extra
    le(h, 0, 2);  // comment
    le(h, 0, 2);  // disk number
    le(h, 0, 2);  // internal attributes
    le(h, 0, 4);  // external attributes
    le(h, m.offset, 4);
    h.insert(h.end(), m.name.begin(), m.name.end());
  }
  const std::uint64_t central_size = h.size();
  le(h, 0x06054b50, 4);  // end of central directory
  le(h, 0, 2);
  le(h, 0, 2);
  le(h, n, 2);
  le(h, n, 2);
  le(h, central_size, 4);
  le(h, central_start, 4);
  le(h, 0, 2);  // comment length
  return sink.write(h);
}

Result<void> encode_tfrecord(const Layout& layout, std::uint64_t file, Sink& sink) {
  ContentStream content(layout.spec().seed, file);
  std::vector<std::uint8_t> head;
  for (std::uint32_t j = 0; j < layout.spec().samples_per_file; ++j) {
    const std::uint64_t n = layout.sample_bytes(file, j);
    const std::vector<std::uint8_t> prefix = framing::example_prefix(n);
    const std::uint64_t length = prefix.size() + n;
    head.clear();
    le(head, length, 8);
    le(head, mask_crc32c(crc32c(0, head.data(), 8)), 4);
    head.insert(head.end(), prefix.begin(), prefix.end());
    std::uint32_t crc = crc32c(0, prefix.data(), prefix.size());
    if (auto r = sink.write(head); !r) return r;
    if (auto r = put_content(sink, content, n, nullptr, &crc); !r) return r;
    head.clear();
    le(head, mask_crc32c(crc), 4);
    if (auto r = sink.write(head); !r) return r;
  }
  return ok();
}

// A tar archive (framing.hpp): a member a sample, "<prefix>_<file>/<sample>.bin" (WebDataset's
// key and extension), then the end-of-archive blocks and the record's padding, all zeros.
Result<void> encode_tar(const Layout& layout, std::uint64_t file, Sink& sink) {
  ContentStream content(layout.spec().seed, file);
  const std::string stem = layout.relative_path(file).stem().string() + "/";
  const std::uint64_t base = sink.position();
  for (std::uint32_t j = 0; j < layout.spec().samples_per_file; ++j) {
    const std::uint64_t n = layout.sample_bytes(file, j);
    const std::string name = stem + std::to_string(j) + ".bin";
    if (auto r = sink.write(framing::tar_header(name, n)); !r) return r;
    if (auto r = put_content(sink, content, n); !r) return r;
    if (auto r = put_zeros(sink, framing::tar_padded(n) - n); !r) return r;
  }
  return put_zeros(sink, layout.file_size(file) - (sink.position() - base));
}

}  // namespace

Result<void> encode_file(const Layout& layout, std::uint64_t file, Sink& sink) {
  if (file >= layout.num_files())
    return input_error("file index " + std::to_string(file) + " out of range");
  switch (layout.spec().format) {
    case Format::raw:
      return encode_raw(layout, file, sink);
    case Format::npz:
      return encode_npz(layout, file, sink);
    case Format::tfrecord:
      return encode_tfrecord(layout, file, sink);
    case Format::jpeg:
      return detail::encode_jpeg(layout, file, sink);
    case Format::parquet:
      return detail::encode_parquet(layout, file, sink);
    case Format::tar:
      return encode_tar(layout, file, sink);
    case Format::hdf5:
      return input_error("hdf5 files are written through a path (write_file), not a stream");
  }
  return input_error("unknown format");
}

namespace detail {

void try_direct(int fd) {
  // Linux takes O_DIRECT through F_SETFL; a filesystem without direct I/O (tmpfs) answers EINVAL
  // and the file stays buffered, which is what the generator wants there.
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) (void)::fcntl(fd, F_SETFL, flags | O_DIRECT);
}

Result<void> finish_output(int fd, FileSink& sink, const std::filesystem::path& path,
                           Result<void> r, bool sync, bool* synced) {
  if (r) r = sink.flush();
  if (r && sync && ::fsync(fd) != 0)
    r = runtime_error(path.string() + ": fsync: " + errno_text(errno));
  if (::close(fd) != 0 && r) r = runtime_error(path.string() + ": close: " + errno_text(errno));
  if (synced) *synced = r && sync;
  return r;
}

}  // namespace detail

Result<void> write_file(const Layout& layout, std::uint64_t file, int fd,
                        const std::filesystem::path& path, std::size_t buffer_bytes, bool* synced) {
  if (synced) *synced = false;
  if (layout.spec().format == Format::hdf5)
    return detail::write_hdf5(layout, file, fd, path, buffer_bytes, synced);
  const bool direct = layout.file_size(file) >= kDirectMinBytes;
  if (direct) detail::try_direct(fd);
  AlignedBuffer& buffer = detail::thread_buffer(buffer_bytes);
  FileSink sink(fd, path, 0, std::move(buffer));
  Result<void> r = encode_file(layout, file, sink);
  r = detail::finish_output(fd, sink, path, std::move(r), direct, synced);
  buffer = sink.take_buffer();
  return r;
}

Result<void> write_file(const Layout& layout, std::uint64_t file, const std::filesystem::path& path,
                        std::size_t buffer_bytes, bool* synced) {
  if (synced) *synced = false;
  // O_NOFOLLOW: a symbolic link planted at `path` is refused (ELOOP), never written through.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return runtime_error(path.string() + ": open: " + detail::errno_text(errno));
  return write_file(layout, file, fd, path, buffer_bytes, synced);
}

Result<std::vector<std::uint8_t>> encode_to_memory(const Layout& layout, std::uint64_t file) {
  if (layout.spec().format != Format::hdf5) {
    MemorySink sink;
    if (auto r = encode_file(layout, file, sink); !r) return r.error();
    return sink.take();
  }
  char tmpl[] = "/tmp/dlgen-h5-XXXXXX";
  const int fd = ::mkstemp(tmpl);
  if (fd < 0) return runtime_error(std::string("mkstemp: ") + detail::errno_text(errno));
  ::close(fd);
  const std::filesystem::path tmp = tmpl;
  auto r = write_file(layout, file, tmp);
  std::vector<std::uint8_t> bytes;
  if (r) {
    std::ifstream in(tmp, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::error_code ec;
  std::filesystem::remove(tmp, ec);
  if (!r) return r.error();
  return bytes;
}

}  // namespace dlgen::datasets
