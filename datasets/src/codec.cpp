#include "dlgen/datasets/codec.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "codecs.hpp"
#include "content.hpp"
#include "dlgen/datasets/checksum.hpp"
#include "framing.hpp"

namespace dlgen::datasets {

namespace detail {
std::string errno_text(int err) { return std::strerror(err); }
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

void MemorySink::commit(std::size_t n) { size_ += n; }

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

FileSink::FileSink(int fd, std::filesystem::path name, std::uint64_t start_offset,
                   std::size_t buffer_bytes)
    : fd_(fd), name_(std::move(name)), buffer_(std::max<std::size_t>(buffer_bytes, 4096)),
      flushed_(start_offset) {}

FileSink::FileSink(int fd, std::filesystem::path name, std::uint64_t start_offset,
                   std::vector<std::uint8_t> buffer)
    : fd_(fd), name_(std::move(name)), buffer_(std::move(buffer)), flushed_(start_offset) {
  if (buffer_.size() < 4096) buffer_.resize(4096);
}

namespace detail {
std::vector<std::uint8_t>& thread_buffer(std::size_t bytes) {
  thread_local std::vector<std::uint8_t> buffer;
  if (buffer.size() != std::max<std::size_t>(bytes, 4096)) buffer.assign(std::max<std::size_t>(bytes, 4096), 0);
  return buffer;
}
}  // namespace detail

namespace {
Result<void> pwrite_all(int fd, const std::filesystem::path& name, const std::uint8_t* p,
                        std::size_t n, std::uint64_t off) {
  while (n > 0) {
    const ssize_t w = ::pwrite(fd, p, n, static_cast<off_t>(off));
    if (w < 0) {
      if (errno == EINTR) continue;
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

Result<std::span<std::uint8_t>> FileSink::acquire(std::size_t max) {
  if (used_ == buffer_.size()) {
    if (auto r = flush(); !r) return r.error();
  }
  const std::size_t n = std::min(std::max<std::size_t>(max, 1), buffer_.size() - used_);
  return std::span<std::uint8_t>(buffer_.data() + used_, n);
}

void FileSink::commit(std::size_t n) { used_ += n; }

Result<void> FileSink::patch(std::uint64_t offset, std::span<const std::uint8_t> bytes) {
  // Bytes still in the buffer are patched there; older ones are rewritten in place.
  while (!bytes.empty() && offset < flushed_) {
    const std::size_t n = std::min<std::uint64_t>(bytes.size(), flushed_ - offset);
    if (auto r = pwrite_all(fd_, name_, bytes.data(), n, offset); !r) return r;
    bytes = bytes.subspan(n);
    offset += n;
  }
  if (bytes.empty()) return ok();
  if (offset + bytes.size() > flushed_ + used_) return runtime_error("patch beyond the end of " + name_.string());
  std::memcpy(buffer_.data() + (offset - flushed_), bytes.data(), bytes.size());
  return ok();
}

Result<void> FileSink::flush() {
  if (used_ == 0) return ok();
  if (auto r = pwrite_all(fd_, name_, buffer_.data(), used_, flushed_); !r) return r;
  flushed_ += used_;
  used_ = 0;
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
    content.fill(w->data(), k);
    if (crc32_out) *crc32_out = static_cast<std::uint32_t>(::crc32_z(*crc32_out, w->data(), k));
    if (crc32c_out) *crc32c_out = crc32c(*crc32c_out, w->data(), k);
    sink.commit(k);
    n -= k;
  }
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
    m.crc = static_cast<std::uint32_t>(::crc32_z(0, reinterpret_cast<const Bytef*>(npy.data()), npy.size()));
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

}  // namespace

Result<void> encode_file(const Layout& layout, std::uint64_t file, Sink& sink) {
  if (file >= layout.num_files())
    return input_error("file index " + std::to_string(file) + " out of range");
  switch (layout.spec().format) {
    case Format::raw: return encode_raw(layout, file, sink);
    case Format::npz: return encode_npz(layout, file, sink);
    case Format::tfrecord: return encode_tfrecord(layout, file, sink);
    case Format::jpeg: return detail::encode_jpeg(layout, file, sink);
    case Format::hdf5:
      return input_error("hdf5 files are written through a path (write_file), not a stream");
  }
  return input_error("unknown format");
}

Result<void> write_file(const Layout& layout, std::uint64_t file, const std::filesystem::path& path,
                        std::size_t buffer_bytes) {
  if (layout.spec().format == Format::hdf5) return detail::write_hdf5(layout, file, path, buffer_bytes);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return runtime_error(path.string() + ": " + detail::errno_text(errno));
  std::vector<std::uint8_t>& buffer = detail::thread_buffer(buffer_bytes);
  FileSink sink(fd, path, 0, std::move(buffer));
  Result<void> r = encode_file(layout, file, sink);
  if (r) r = sink.flush();
  buffer = sink.take_buffer();
  if (::close(fd) != 0 && r) r = runtime_error(path.string() + ": close: " + detail::errno_text(errno));
  return r;
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
