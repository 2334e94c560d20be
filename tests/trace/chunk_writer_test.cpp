// The direct chunk writer (trace/src/chunk_writer.hpp) must produce chunks that HDF5's own filter
// pipeline decodes exactly: with every encoding (shuffled or not per chunk, run-length or plain
// deflate), across partial chunks rewritten as they fill, as a capture does on each flush.
#include "chunk_writer.hpp"

#include <gtest/gtest.h>
#include <hdf5.h>

#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "temp_dir.hpp"

namespace dlgen::trace {
namespace {

constexpr hsize_t kChunk = 1024;

hid_t create_u64_column(hid_t file) {
  hsize_t dims = 0, maxdims = H5S_UNLIMITED, chunk = kChunk;
  hid_t sp = H5Screate_simple(1, &dims, &maxdims);
  hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(dcpl, 1, &chunk);
  H5Pset_shuffle(dcpl);
  H5Pset_deflate(dcpl, 6);
  hid_t ds = H5Dcreate2(file, "col", H5T_STD_U64LE, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  H5Pclose(dcpl);
  H5Sclose(sp);
  return ds;
}

// Values mixing what each encoding is good at: runs, small counters, random words, and a few
// repeated 64-bit patterns.
std::vector<std::uint64_t> mixed_values(std::size_t n) {
  std::mt19937_64 rng(7);
  std::vector<std::uint64_t> v(n);
  const std::uint64_t words[3] = {0x0123456789abcdefull, 0xfedcba9876543210ull,
                                  0x00000000ffffffffull};
  for (std::size_t i = 0; i < n; ++i) {
    switch ((i / 700) % 4) {
      case 0:
        v[i] = 42;
        break;
      case 1:
        v[i] = i;
        break;
      case 2:
        v[i] = rng();
        break;
      default:
        v[i] = words[rng() % 3];
        break;
    }
  }
  return v;
}

// Appends `values` in uneven pieces with a partial-chunk write after each (a capture's flushes),
// using `encoding` for every chunk (or trials when it is -1); returns the chunk filter masks seen.
std::set<unsigned> write_and_check(const std::vector<std::uint64_t>& values, int encoding) {
  testing::TempDir dir;
  const auto path = (dir / "c.h5").string();
  hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  EXPECT_GE(file, 0);
  hid_t ds = create_u64_column(file);
  Deflater z;
  ChunkColumn col(ds, 8, true, kChunk);
  if (encoding >= 0) col.force_encoding(static_cast<std::size_t>(encoding));
  std::size_t done = 0, piece = 333;
  while (done < values.size()) {
    std::size_t k = std::min(piece, values.size() - done);
    hsize_t total = done + k;
    EXPECT_GE(H5Dset_extent(ds, &total), 0);
    EXPECT_TRUE(col.append(values.data() + done, k, z));
    EXPECT_TRUE(col.write_partial(z));
    done += k;
    piece = piece * 3 % 2500 + 1;
  }
  H5Dclose(ds);
  EXPECT_GE(H5Fclose(file), 0);

  file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ds = H5Dopen2(file, "col", H5P_DEFAULT);
  std::vector<std::uint64_t> back(values.size());
  EXPECT_GE(H5Dread(ds, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, back.data()), 0);
  EXPECT_EQ(back, values);
  std::set<unsigned> masks;
  hsize_t nchunks = 0;
  hid_t sp = H5Dget_space(ds);
  H5Dget_num_chunks(ds, sp, &nchunks);
  for (hsize_t i = 0; i < nchunks; ++i) {
    hsize_t offset = 0, size = 0;
    haddr_t addr = 0;
    unsigned mask = 0;
    H5Dget_chunk_info(ds, sp, i, &offset, &mask, &addr, &size);
    masks.insert(mask);
  }
  H5Sclose(sp);
  H5Dclose(ds);
  H5Fclose(file);
  return masks;
}

TEST(ChunkWriter, ByteShuffleIsHdf5sLayout) {
  std::vector<std::uint8_t> in(4 * 5), out(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<std::uint8_t>(i);
  byte_shuffle(in.data(), 5, 4, out.data());
  // byte j of element i goes to j * n + i
  EXPECT_EQ(out, (std::vector<std::uint8_t>{0, 4, 8,  12, 16, 1, 5, 9,  13, 17,
                                            2, 6, 10, 14, 18, 3, 7, 11, 15, 19}));
  std::vector<std::uint8_t> in8(8 * 3), out8(in8.size());
  for (std::size_t i = 0; i < in8.size(); ++i) in8[i] = static_cast<std::uint8_t>(i);
  byte_shuffle(in8.data(), 3, 8, out8.data());
  EXPECT_EQ(out8[0], 0);
  EXPECT_EQ(out8[1], 8);
  EXPECT_EQ(out8[2], 16);
  EXPECT_EQ(out8[3], 1);
  EXPECT_EQ(out8[23], 23);
}

TEST(ChunkWriter, ByteShuffleVectorPathEqualsDefinition) {
  // The 4- and 8-byte widths take a vector path 8 elements at a time, then a scalar tail.
  std::mt19937 rng(11);
  for (std::size_t size : {2u, 4u, 8u}) {
    for (std::size_t n : {8u, 37u, 1000u}) {
      std::vector<std::uint8_t> in(n * size), out(in.size()), want(in.size());
      for (auto& b : in) b = static_cast<std::uint8_t>(rng());
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < size; ++j) want[j * n + i] = in[i * size + j];
      byte_shuffle(in.data(), n, size, out.data());
      EXPECT_EQ(out, want) << "size " << size << " n " << n;
    }
  }
}

TEST(ChunkWriter, EveryEncodingReadsBackExactlyThroughHdf5) {
  auto values = mixed_values(20 * kChunk + 77);
  for (std::size_t e = 0; e < ChunkColumn::encodings(); ++e) {
    SCOPED_TRACE("encoding " + std::to_string(e));
    auto masks = write_and_check(values, static_cast<int>(e));
    // Encodings 0 and 1 store shuffled chunks (mask 0); the others skip the shuffle (mask 1).
    EXPECT_EQ(masks, (std::set<unsigned>{e < 2 ? 0u : 1u}));
  }
}

TEST(ChunkWriter, TrialsPickPerChunkAndStillReadBack) {
  // Chunk 0 (trial) sees a counter; chunk 16 (next trial) sees random words: both decode.
  std::vector<std::uint64_t> values(40 * kChunk + 5);
  std::mt19937_64 rng(3);
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = i < 16 * kChunk ? i : rng() % 5 * 0x0101010101010101ull;
  auto masks = write_and_check(values, -1);
  EXPECT_FALSE(masks.empty());
}

TEST(ChunkWriter, DeflaterOutputIsAZlibStream) {
  Deflater z;
  std::vector<std::uint8_t> in(10000, 7);
  for (auto mode : {Deflater::kFast, Deflater::kRle, Deflater::kThorough}) {
    const auto& out = z.compress(in.data(), in.size(), mode);
    ASSERT_FALSE(out.empty());
    std::vector<std::uint8_t> back(in.size());
    uLongf n = back.size();
    ASSERT_EQ(uncompress(back.data(), &n, out.data(), out.size()), Z_OK);
    EXPECT_EQ(n, in.size());
    EXPECT_EQ(back, in);
  }
}

}  // namespace
}  // namespace dlgen::trace
