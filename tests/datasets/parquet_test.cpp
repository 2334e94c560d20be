// Parquet files (datasets/parquet.hpp): the bytes the codec writes are what the geometry says
// (size, magic, chunk offsets, the footer's own figures read back with parse_footer), values sit
// where the layout's extents say, and a Parquet reader's reads (row_group_reads) are the footer
// once and each selected chunk once.
#include "dlgen/datasets/parquet.hpp"

#include <gtest/gtest.h>
#include <snappy.h>

#include <cstring>

#include "dlgen/datasets/codec.hpp"
#include "dlgen/datasets/layout.hpp"

namespace dlgen::datasets {
namespace {

DatasetSpec parquet_spec(ParquetCompression c, std::uint64_t row_group,
                         std::uint32_t wide = 40000) {
  DatasetSpec s;
  s.dir = "unused";
  s.format = Format::parquet;
  s.num_files = 2;
  s.samples_per_file = 700;
  s.seed = 5;
  s.parquet.columns = {{"label", ParquetDtype::float32, 1},
                       {"wide", ParquetDtype::float64, wide},  // 320 KB: 3 rows a page
                       {"flags", ParquetDtype::int8, 7}};
  s.sample_size = Distribution::fixed_at(4 + 8.0 * wide + 7);
  s.parquet.row_group_size = row_group;
  s.parquet.compression = c;
  return s;
}

TEST(Parquet, FileBytesAreTheGeometryAndTheFooterSaysSo) {
  for (ParquetCompression c :
       {ParquetCompression::none, ParquetCompression::zstd, ParquetCompression::snappy}) {
    SCOPED_TRACE(to_string(c));
    DatasetSpec spec = parquet_spec(c, 0);
    spec.samples_per_file = 10;  // 4 pages per "wide" chunk (3 + 3 + 3 + 1 rows)
    spec.parquet.row_group_size = 4;
    const Layout layout(spec);
    const parquet::FileGeometry& g = *layout.parquet();
    ASSERT_EQ(g.row_groups.size(), 3u);
    EXPECT_EQ(g.row_groups[0].columns[1].pages, 2u);
    EXPECT_EQ(g.row_groups[2].rows, 2u);
    for (std::uint64_t f = 0; f < layout.num_files(); ++f) {
      auto bytes = encode_to_memory(layout, f);
      ASSERT_TRUE(bytes) << bytes.error().message;
      ASSERT_EQ(bytes->size(), layout.file_size(f));
      EXPECT_EQ(std::memcmp(bytes->data(), "PAR1", 4), 0);
      auto footer = parquet::parse_footer(*bytes, bytes->size());
      ASSERT_TRUE(footer) << footer.error().message;
      EXPECT_EQ(footer->num_rows, 10);
      EXPECT_EQ(footer->metadata_bytes, g.footer.length);
      ASSERT_EQ(footer->schema.size(), 3u);
      EXPECT_EQ(footer->schema[1].name, "wide");
      EXPECT_EQ(footer->schema[1].type, 7);  // FIXED_LEN_BYTE_ARRAY
      EXPECT_EQ(footer->schema[1].type_length, 320000);
      ASSERT_EQ(footer->row_groups.size(), g.row_groups.size());
      for (std::size_t r = 0; r < g.row_groups.size(); ++r) {
        EXPECT_EQ(footer->row_groups[r].num_rows, static_cast<std::int64_t>(g.row_groups[r].rows));
        for (std::size_t k = 0; k < 3; ++k) {
          const auto& got = footer->row_groups[r].columns[k];
          const auto& want = g.row_groups[r].columns[k];
          EXPECT_EQ(got.path, g.columns[k].name);
          EXPECT_EQ(got.codec, c == ParquetCompression::zstd     ? 6
                               : c == ParquetCompression::snappy ? 1
                                                                 : 0);
          EXPECT_EQ(got.data_page_offset, static_cast<std::int64_t>(want.bytes.offset));
          EXPECT_EQ(got.total_compressed_size, static_cast<std::int64_t>(want.bytes.length));
          EXPECT_EQ(got.num_values, static_cast<std::int64_t>(g.row_groups[r].rows));
        }
      }
    }
  }
}

// compression = "snappy": every page is a raw snappy stream (Parquet's SNAPPY codec) that libsnappy
// decodes back to the column's values, page after page, in exactly the bytes the layout gave it;
// the literal-only size law (a varint, then a 1-5 byte header per 64 KiB block) holds at the
// block and header boundaries.
TEST(Parquet, SnappyPagesDecodeToTheValuesInTheLayoutsBytes) {
  EXPECT_EQ(parquet::snappy_literal_bytes(60), 1u + 1u + 60u);
  EXPECT_EQ(parquet::snappy_literal_bytes(61), 1u + 2u + 61u);
  EXPECT_EQ(parquet::snappy_literal_bytes(257), 2u + 3u + 257u);
  EXPECT_EQ(parquet::snappy_literal_bytes(1u << 16), 3u + 3u + (1u << 16));
  EXPECT_EQ(parquet::snappy_literal_bytes((1u << 20) + 1), 3u + 16u * (3u + (1u << 16)) + 1u + 1u);
  DatasetSpec spec = parquet_spec(ParquetCompression::snappy, 0, 40000);
  spec.samples_per_file = 10;
  spec.parquet.row_group_size = 4;
  const Layout layout(spec);
  const parquet::FileGeometry& g = *layout.parquet();
  auto bytes = encode_to_memory(layout, 1);
  ASSERT_TRUE(bytes) << bytes.error().message;
  ASSERT_EQ(bytes->size(), layout.file_size(1));
  for (std::size_t c = 0; c < g.columns.size(); ++c) {
    SCOPED_TRACE(g.columns[c].name);
    const auto want = parquet::column_values(spec, 1, c);
    std::string got, page;
    const std::uint64_t vb = g.value_bytes(c);
    for (const parquet::RowGroup& rg : g.row_groups) {
      std::uint64_t at = rg.columns[c].bytes.offset;
      for (std::uint64_t done = 0; done < rg.rows;) {
        const std::uint64_t n = std::min(g.rows_per_page(c), rg.rows - done);
        const std::uint64_t stored = parquet::stored_bytes(n * vb, g.compression);
        at += parquet::page_header(n, vb, stored).size();
        ASSERT_TRUE(
            snappy::Uncompress(reinterpret_cast<const char*>(bytes->data() + at), stored, &page));
        got += page;
        at += stored;
        done += n;
      }
      EXPECT_EQ(at, rg.columns[c].bytes.offset + rg.columns[c].bytes.length);
    }
    ASSERT_EQ(got.size(), want.size());
    EXPECT_EQ(std::memcmp(got.data(), want.data(), want.size()), 0);
  }
}

TEST(Parquet, UncompressedValuesLieAtTheirExtents) {
  const DatasetSpec spec = parquet_spec(ParquetCompression::none, 256, 400);
  const Layout layout(spec);
  auto bytes = encode_to_memory(layout, 1);
  ASSERT_TRUE(bytes);
  const auto label = parquet::column_values(spec, 1, 0);
  ASSERT_EQ(label.size(), 700u * 4);
  for (std::uint32_t row : {0u, 1u, 255u, 256u, 699u}) {
    const Extent e = layout.sample_extent(1, row);
    ASSERT_EQ(e.length, 4u);
    EXPECT_EQ(std::memcmp(bytes->data() + e.offset, label.data() + row * 4, 4), 0) << row;
  }
}

TEST(Parquet, ReadsAreTheFooterOnceAndEachSelectedChunkOnce) {
  DatasetSpec spec = parquet_spec(ParquetCompression::none, 256);
  spec.parquet.read_columns = {"label", "flags"};
  const Layout layout(spec);
  const parquet::FileGeometry& g = *layout.parquet();
  ASSERT_EQ(g.row_groups.size(), 3u);
  std::vector<parquet::Range> out(parquet::max_row_group_reads(g));
  // The footer (well under 64 KiB) in the file's last 64 KiB, then the two selected chunks.
  ASSERT_LT(g.footer.length + 8, parquet::kFooterReadBytes);
  ASSERT_EQ(parquet::row_group_reads(g, 0, out.data()), 3u);
  EXPECT_EQ(out[0].offset + out[0].length, g.file_bytes);
  EXPECT_EQ(out[0].length, parquet::kFooterReadBytes);
  EXPECT_EQ(out[1], g.row_groups[0].columns[0].bytes);
  EXPECT_EQ(out[2], g.row_groups[0].columns[2].bytes);
  EXPECT_EQ(parquet::row_group_reads(g, 1, out.data()), 0u);
  EXPECT_EQ(parquet::row_group_reads(g, 255, out.data()), 0u);
  ASSERT_EQ(parquet::row_group_reads(g, 512, out.data()), 2u);
  EXPECT_EQ(out[1], g.row_groups[2].columns[2].bytes);
  const parquet::FileReads all = parquet::file_reads(g);
  std::uint64_t chunks = 0;
  for (const auto& rg : g.row_groups)
    chunks += rg.columns[0].bytes.length + rg.columns[2].bytes.length;
  EXPECT_EQ(all.bytes, parquet::kFooterReadBytes + chunks);
  EXPECT_EQ(all.requests, 1u + 3u * 2u);
}

// Selected chunks that touch are one read, as a reader that pre-buffers a row group makes it:
// every column selected, the whole group; two adjacent columns, one range; columns with an
// unselected one between them, two. The largest read is the largest such range.
TEST(Parquet, AdjacentSelectedChunksAreOneRead) {
  DatasetSpec spec = parquet_spec(ParquetCompression::none, 256, 400);
  const Layout all_layout(spec);
  const parquet::FileGeometry& all = *all_layout.parquet();
  ASSERT_EQ(all.row_groups.size(), 3u);
  std::vector<parquet::Range> out(parquet::max_row_group_reads(all));
  for (const parquet::RowGroup& rg : all.row_groups) {
    const std::size_t n = parquet::row_group_reads(all, rg.first_row, out.data());
    ASSERT_EQ(n, rg.first_row == 0 ? 2u : 1u);  // the footer first in the first group
    const std::uint64_t begin = rg.columns.front().bytes.offset;
    const parquet::Range& back = rg.columns.back().bytes;
    EXPECT_EQ(out[n - 1], (parquet::Range{begin, back.offset + back.length - begin}));
  }
  const std::uint64_t first_group = all.row_groups[0].columns[0].bytes.length +
                                    all.row_groups[0].columns[1].bytes.length +
                                    all.row_groups[0].columns[2].bytes.length;
  EXPECT_EQ(parquet::largest_row_group_read(all), first_group);
  EXPECT_EQ(parquet::file_reads(all).requests, 1u + 3u);

  spec.parquet.read_columns = {"flags", "wide"};  // adjacent, in either order
  const Layout two_layout(spec);
  const parquet::FileGeometry& two = *two_layout.parquet();
  ASSERT_EQ(parquet::row_group_reads(two, 256, out.data()), 1u);
  const parquet::RowGroup& rg = two.row_groups[1];
  EXPECT_EQ(out[0], (parquet::Range{rg.columns[1].bytes.offset,
                                    rg.columns[1].bytes.length + rg.columns[2].bytes.length}));

  spec.parquet.read_columns = {"label", "flags"};  // "wide" between them
  const Layout apart_layout(spec);
  const parquet::FileGeometry& apart = *apart_layout.parquet();
  ASSERT_EQ(parquet::row_group_reads(apart, 256, out.data()), 2u);
  EXPECT_EQ(parquet::largest_row_group_read(apart),
            std::max(parquet::kFooterReadBytes, apart.row_groups[0].columns[2].bytes.length));
}

// A footer longer than a reader's first 64 KiB read (many row groups of many columns): the rest of
// it is a second read, ending where the first began; the footer's lists of 15 elements and more
// (Thrift's long list header) read back.
TEST(Parquet, AFooterOver64KiBTakesTwoReads) {
  DatasetSpec s;
  s.dir = "unused";
  s.format = Format::parquet;
  s.num_files = 1;
  s.samples_per_file = 1000;
  for (int c = 0; c < 20; ++c)
    s.parquet.columns.push_back({"c" + std::to_string(c), ParquetDtype::int8, 1});
  s.sample_size = Distribution::fixed_at(20);
  s.parquet.row_group_size = 8;
  s.parquet.read_columns = {"c3"};
  const Layout layout(s);
  const parquet::FileGeometry& g = *layout.parquet();
  ASSERT_EQ(g.row_groups.size(), 125u);
  ASSERT_GT(g.footer.length + 8, parquet::kFooterReadBytes);
  std::vector<parquet::Range> out(parquet::max_row_group_reads(g));
  ASSERT_EQ(parquet::row_group_reads(g, 0, out.data()), 3u);
  EXPECT_EQ(out[0],
            (parquet::Range{g.file_bytes - parquet::kFooterReadBytes, parquet::kFooterReadBytes}));
  EXPECT_EQ(out[1], (parquet::Range{g.footer.offset, out[0].offset - g.footer.offset}));
  EXPECT_EQ(out[2], g.row_groups[0].columns[3].bytes);
  auto bytes = encode_to_memory(layout, 0);
  ASSERT_TRUE(bytes);
  auto footer = parquet::parse_footer(*bytes, bytes->size());
  ASSERT_TRUE(footer) << footer.error().message;
  EXPECT_EQ(footer->schema.size(), 20u);
  ASSERT_EQ(footer->row_groups.size(), 125u);
  EXPECT_EQ(footer->row_groups[124].columns[19].data_page_offset,
            static_cast<std::int64_t>(g.row_groups[124].columns[19].bytes.offset));
}

TEST(Parquet, FooterReaderRefusesWhatIsNotParquet) {
  std::vector<std::uint8_t> junk(64, 0x11);
  EXPECT_FALSE(parquet::parse_footer(junk, junk.size()));
  std::memcpy(junk.data() + 60, "PAR1", 4);
  junk[56] = 0xff, junk[57] = 0xff;  // a footer longer than the file
  EXPECT_FALSE(parquet::parse_footer(junk, junk.size()));
}

}  // namespace
}  // namespace dlgen::datasets
