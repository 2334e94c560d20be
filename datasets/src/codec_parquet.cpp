// Parquet files (parquet.hpp): the magic, then every row group's column chunks page by page
// (the page header, then the values straight from the content stream, or compressed), then the
// footer the Layout computed. The content stream runs through the values in file order.
#include <snappy.h>
#include <zstd.h>

#include <cstring>
#include <memory>

#include "codecs.hpp"
#include "dlgen/datasets/content.hpp"
#include "dlgen/datasets/parquet.hpp"

namespace dlgen::datasets::detail {
namespace {

constexpr std::uint8_t kMagic[4] = {'P', 'A', 'R', '1'};
constexpr int kZstdLevel = 1;

Result<void> put_values(Sink& sink, ContentStream& content, std::uint64_t n) {
  while (n > 0) {
    auto w = sink.acquire(static_cast<std::size_t>(std::min<std::uint64_t>(n, 1u << 30)));
    if (!w) return w.error();
    const std::size_t k = std::min<std::uint64_t>(w->size(), n);
    content.fill(w->data(), k);
    sink.commit(k);
    n -= k;
  }
  return ok();
}

// One thread's zstd context and page buffers, reused from page to page.
struct Zstd {
  std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> ctx{ZSTD_createCCtx(), ZSTD_freeCCtx};
  std::vector<std::uint8_t> raw, packed;
};

// A page of `bytes` value bytes compressed into exactly `stored` bytes: the zstd frame, then a
// skippable frame (magic 0x184D2A50, uint32 length) filling the rest.
Result<void> put_zstd_page(Sink& sink, ContentStream& content, std::uint64_t bytes,
                           std::uint64_t stored) {
  thread_local Zstd z;
  if (!z.ctx) return runtime_error("zstd: cannot create a compression context");
  z.raw.resize(bytes);
  content.fill(z.raw.data(), bytes);
  z.packed.resize(stored);
  const std::size_t n =
      ZSTD_compressCCtx(z.ctx.get(), z.packed.data(), stored - 8, z.raw.data(), bytes, kZstdLevel);
  if (ZSTD_isError(n)) return runtime_error(std::string("zstd: ") + ZSTD_getErrorName(n));
  const std::uint64_t pad = stored - n - 8;
  std::uint8_t* skip = z.packed.data() + n;
  const std::uint32_t words[2] = {0x184D2A50u, static_cast<std::uint32_t>(pad)};
  for (int i = 0; i < 8; ++i) skip[i] = static_cast<std::uint8_t>(words[i / 4] >> (8 * (i % 4)));
  std::memset(skip + 8, 0, pad);
  return sink.write(z.packed);
}

// `bytes` bytes at `raw` as a raw snappy stream of literals only (the varint length, then one
// literal per 64 KiB block) at `out`; returns its length (parquet::snappy_literal_bytes).
std::size_t snappy_literals(const std::uint8_t* raw, std::uint64_t bytes, std::uint8_t* out) {
  std::uint8_t* p = out;
  std::uint64_t v = bytes;
  for (; v >= 0x80; v >>= 7) *p++ = static_cast<std::uint8_t>(v | 0x80);
  *p++ = static_cast<std::uint8_t>(v);
  for (std::uint64_t at = 0; at < bytes; at += parquet::kSnappyBlockBytes) {
    const std::uint64_t len = std::min(parquet::kSnappyBlockBytes, bytes - at);
    // Tag: literal (low bits 00); length - 1 in the tag below 60, else 60..63 for 1..4 bytes of it.
    const std::uint64_t extra = parquet::snappy_literal_header(len) - 1;
    *p++ = static_cast<std::uint8_t>((extra == 0 ? len - 1 : 59 + extra) << 2);
    for (std::uint64_t i = 0; i < extra; ++i)
      *p++ = static_cast<std::uint8_t>((len - 1) >> (8 * i));
    std::memcpy(p, raw + at, len);
    p += len;
  }
  return static_cast<std::size_t>(p - out);
}

// A page of `bytes` value bytes as Parquet's SNAPPY codec stores it (a raw snappy stream) in
// exactly `stored` (snappy_literal_bytes) bytes: libsnappy's output, which on incompressible
// content is one literal per 64 KiB block; if it found a repeat (shorter output), the same bytes
// as literals only, which every snappy decoder reads as well.
Result<void> put_snappy_page(Sink& sink, ContentStream& content, std::uint64_t bytes,
                             std::uint64_t stored) {
  thread_local std::vector<std::uint8_t> raw, packed;
  raw.resize(bytes);
  content.fill(raw.data(), bytes);
  packed.resize(std::max<std::uint64_t>(snappy::MaxCompressedLength(bytes), stored));
  std::size_t n = 0;
  snappy::RawCompress(reinterpret_cast<const char*>(raw.data()), bytes,
                      reinterpret_cast<char*>(packed.data()), &n);
  if (n != stored) n = snappy_literals(raw.data(), bytes, packed.data());
  if (n != stored)
    return runtime_error("snappy: a page of " + std::to_string(bytes) + " bytes took " +
                         std::to_string(n) + ", the layout expected " + std::to_string(stored));
  return sink.write(std::span<const std::uint8_t>(packed.data(), n));
}

Result<void> put_chunk(Sink& sink, ContentStream& content, const parquet::FileGeometry& g,
                       std::size_t c, std::uint64_t rows) {
  const std::uint64_t vb = g.value_bytes(c), per = g.rows_per_page(c);
  for (std::uint64_t done = 0; done < rows;) {
    const std::uint64_t n = std::min(per, rows - done);
    const std::uint64_t stored = parquet::stored_bytes(n * vb, g.compression);
    if (auto r = sink.write(parquet::page_header(n, vb, stored)); !r) return r;
    Result<void> r = g.compression == ParquetCompression::none ? put_values(sink, content, n * vb)
                     : g.compression == ParquetCompression::zstd
                         ? put_zstd_page(sink, content, n * vb, stored)
                         : put_snappy_page(sink, content, n * vb, stored);
    if (!r) return r;
    done += n;
  }
  return ok();
}

}  // namespace

Result<void> encode_parquet(const Layout& layout, std::uint64_t file, Sink& sink) {
  const parquet::FileGeometry& g = *layout.parquet();
  ContentStream content(layout.spec().seed, file);
  const std::uint64_t base = sink.position();
  if (auto r = sink.write(kMagic); !r) return r;
  for (const parquet::RowGroup& rg : g.row_groups)
    for (std::size_t c = 0; c < g.columns.size(); ++c)
      if (auto r = put_chunk(sink, content, g, c, rg.rows); !r) return r;
  if (sink.position() - base != g.footer.offset)
    return runtime_error(layout.relative_path(file).string() + ": parquet data ends at " +
                         std::to_string(sink.position() - base) + ", the layout expected " +
                         std::to_string(g.footer.offset));
  if (auto r = sink.write(g.footer_bytes); !r) return r;
  std::uint8_t tail[8];
  const auto len = static_cast<std::uint32_t>(g.footer_bytes.size());
  for (int i = 0; i < 4; ++i) tail[i] = static_cast<std::uint8_t>(len >> (8 * i));
  std::memcpy(tail + 4, kMagic, 4);
  return sink.write(tail);
}

}  // namespace dlgen::datasets::detail
