#include "dlgen/datasets/layout.hpp"

#include <gtest/gtest.h>

#include <set>

using dlgen::DatasetSpec;
using dlgen::DistKind;
using dlgen::Format;
using dlgen::datasets::Layout;

namespace {
DatasetSpec spec(Format f, std::uint32_t per_file, DistKind kind = DistKind::normal) {
  DatasetSpec s;
  s.dir = "/data/x";
  s.format = f;
  s.num_files = 50;
  s.samples_per_file = per_file;
  s.sample_size.kind = kind;
  s.sample_size.value = 4096;
  s.sample_size.mean = 100000;
  s.sample_size.stdev = 30000;
  s.sample_size.min = 1000;
  s.seed = 42;
  return s;
}
}  // namespace

TEST(Layout, PathsAreZeroPaddedWithOptionalClassFolders) {
  DatasetSpec s = spec(Format::npz, 1);
  EXPECT_EQ(Layout(s).relative_path(17), "file_0000017.npz");
  s.files_per_dir = 10;
  s.file_prefix = "img";
  s.format = Format::jpeg;
  const Layout l(s);
  EXPECT_EQ(l.relative_path(17), "00001/img_0000017.jpg");
  EXPECT_EQ(l.path(49), "/data/x/00004/img_0000049.jpg");
  EXPECT_EQ(l.num_dirs(), 5u);
  s.num_files = 123456789;
  s.sample_size.kind = DistKind::fixed;
  EXPECT_EQ(Layout(s).relative_path(5), "00000000/img_000000005.jpg");
}

TEST(Layout, IsAPureFunctionOfTheSpec) {
  for (Format f : {Format::raw, Format::npz, Format::hdf5, Format::jpeg, Format::tfrecord}) {
    const Layout a(spec(f, 3)), b(spec(f, 3));
    for (std::uint64_t i = 0; i < 50; ++i) {
      EXPECT_EQ(a.relative_path(i), b.relative_path(i));
      EXPECT_EQ(a.file_size(i), b.file_size(i));
      for (std::uint32_t j = 0; j < 3; ++j) {
        EXPECT_EQ(a.sample_bytes(i, j), b.sample_bytes(i, j));
        EXPECT_EQ(a.sample_extent(i, j).offset, b.sample_extent(i, j).offset);
      }
    }
    EXPECT_EQ(a.total_bytes(), b.total_bytes());
  }
}

TEST(Layout, SizesFollowTheDistributionAndSeed) {
  DatasetSpec s = spec(Format::raw, 1);
  const Layout a(s);
  s.seed = 43;
  const Layout b(s);
  int differ = 0;
  double sum = 0;
  for (std::uint64_t i = 0; i < 50; ++i) {
    EXPECT_GE(a.sample_bytes(i, 0), 1000u);
    EXPECT_EQ(a.file_size(i), a.sample_bytes(i, 0));  // raw: no framing
    differ += a.file_size(i) != b.file_size(i);
    sum += double(a.file_size(i));
  }
  EXPECT_GT(differ, 40);
  EXPECT_NEAR(sum / 50, 100000, 15000);
}

TEST(Layout, ExtentsAreInsideTheFileAndDoNotOverlap) {
  for (Format f : {Format::raw, Format::npz, Format::hdf5, Format::tfrecord}) {
    const Layout l(spec(f, 4));
    std::uint64_t total = 0;
    for (std::uint64_t i = 0; i < 50; ++i) {
      std::uint64_t end = 0;
      for (std::uint32_t j = 0; j < 4; ++j) {
        const auto e = l.sample_extent(i, j);
        EXPECT_EQ(e.length, l.sample_bytes(i, j));
        EXPECT_GE(e.offset, end) << dlgen::to_string(f);
        end = e.offset + e.length;
      }
      EXPECT_LE(end, l.file_size(i));
      total += l.file_size(i);
    }
    EXPECT_EQ(total, l.total_bytes());
  }
}

TEST(Layout, FixedSizesGiveIdenticalFiles) {
  const Layout l(spec(Format::tfrecord, 2, DistKind::fixed));
  // Two records: 12-byte header, 4-byte footer, Example framing of 4096 bytes (18 bytes here).
  EXPECT_EQ(l.file_size(0), 2 * (12 + 18 + 4096 + 4));
  EXPECT_EQ(l.file_size(49), l.file_size(0));
  EXPECT_EQ(l.sample_extent(7, 1).offset, 12 + 18 + 4096 + 4 + 12 + 18);
  EXPECT_EQ(l.total_bytes(), 50 * l.file_size(0));
}

TEST(Layout, NpzFraming) {
  const Layout l(spec(Format::npz, 1, DistKind::fixed));
  // Local header 30 + "x_0.npy" (7), NPY header padded to 128 bytes, data, central 46 + 7, end 22.
  EXPECT_EQ(l.sample_extent(0, 0).offset, 30 + 7 + 128);
  EXPECT_EQ(l.file_size(0), 30 + 7 + 128 + 4096 + 46 + 7 + 22);
}

TEST(Layout, JpegIsOneImagePerFileWithAMinimumSize) {
  DatasetSpec s = spec(Format::jpeg, 1);
  s.sample_size.min = 0;
  s.sample_size.mean = 500;
  s.sample_size.stdev = 100;
  const Layout l(s);
  for (std::uint64_t i = 0; i < 50; ++i) {
    EXPECT_EQ(l.file_size(i), Layout::kMinJpegBytes);
    EXPECT_EQ(l.sample_extent(i, 0).length, l.file_size(i));
  }
}

// A fixed sample size is computed arithmetically (no per-sample tables); the result must equal the
// table-built reference for every format, across the npz member-name digit boundaries (x_9 → x_10,
// x_99 → x_100, ...) and for sizes the bounds clamp or round.
TEST(Layout, FixedSizeArithmeticEqualsTheTables) {
  const Format formats[] = {Format::raw, Format::npz, Format::tfrecord, Format::hdf5, Format::jpeg};
  const std::uint32_t per_files[] = {1, 2, 10, 11, 101, 1001};
  const double sizes[] = {0.4, 1, 127, 128, 4096, 100003, 1 << 20};
  int compared = 0;
  for (const Format f : formats) {
    for (const std::uint32_t n : per_files) {
      for (const double v : sizes) {
        DatasetSpec s = spec(f, n, DistKind::fixed);
        s.num_files = 7;
        s.files_per_dir = 3;
        s.sample_size.value = v;
        s.sample_size.min = 0;
        const Layout fast(s);
        const Layout ref(s, Layout::Geometry_mode::tables);
        SCOPED_TRACE(testing::Message()
                     << "format " << static_cast<int>(f) << " n " << n << " size " << v);
        ASSERT_EQ(fast.total_bytes(), ref.total_bytes());
        for (std::uint64_t i = 0; i < s.num_files; ++i) {
          ASSERT_EQ(fast.relative_path(i), ref.relative_path(i));
          ASSERT_EQ(fast.file_size(i), ref.file_size(i));
          for (std::uint32_t j = 0; j < n; ++j) {
            ASSERT_EQ(fast.sample_bytes(i, j), ref.sample_bytes(i, j));
            ASSERT_EQ(fast.sample_extent(i, j).offset, ref.sample_extent(i, j).offset)
                << "sample " << j;
            ASSERT_EQ(fast.sample_extent(i, j).length, ref.sample_extent(i, j).length)
                << "sample " << j;
            ++compared;
          }
        }
      }
    }
  }
  EXPECT_GT(compared, 100000);
}

TEST(Layout, FixedSizeClampsToTheBounds) {
  DatasetSpec s = spec(Format::raw, 4, DistKind::fixed);
  s.sample_size.value = 10;
  s.sample_size.min = 1000;
  const Layout fast(s);
  const Layout ref(s, Layout::Geometry_mode::tables);
  EXPECT_EQ(fast.sample_bytes(3, 2), 1000u);
  EXPECT_EQ(fast.sample_extent(3, 2).offset, ref.sample_extent(3, 2).offset);
  EXPECT_EQ(fast.file_size(3), ref.file_size(3));
}

// A small set of files from a histogram holds the histogram's expected bytes: 16 files from the
// held-out S3 listing's 16 validation sizes (54.5 KiB) are those sizes (drawn independently they
// held 60.4 KiB).
TEST(Layout, SmallHistogramSetHoldsItsExpectedBytes) {
  DatasetSpec s = spec(Format::raw, 1, DistKind::histogram);
  s.num_files = 16;
  for (double v : {1956, 2122, 2376, 2381, 2711, 3043, 3385, 3689, 3712, 3714, 3721, 4443, 4454,
                   4592, 4737, 4757})
    s.sample_size.bins.push_back({v, v, 1});
  s.sample_size.min = 0;
  for (std::uint64_t seed : {0, 1, 7}) {
    s.seed = seed;
    const Layout l(s);
    EXPECT_EQ(l.total_bytes(), 55793u) << "seed " << seed;
    std::set<std::uint64_t> sizes;
    for (std::uint64_t f = 0; f < 16; ++f) sizes.insert(l.file_size(f));
    EXPECT_EQ(sizes.size(), 16u) << "each bin once";
  }
}
