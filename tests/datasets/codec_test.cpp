#include "dlgen/datasets/codec.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <vector>

#include "dlgen/datasets/content.hpp"
#include "python_check.hpp"
#include "temp_dir.hpp"

using dlgen::DatasetSpec;
using dlgen::DistKind;
using dlgen::Format;
using dlgen::datasets::Layout;
using dlgen::testing::TempDir;

namespace {

DatasetSpec spec(const TempDir& dir, Format f, std::uint32_t per_file, double mean) {
  DatasetSpec s;
  s.dir = dir.path() / "data";
  s.format = f;
  s.num_files = 6;
  s.samples_per_file = per_file;
  s.sample_size.kind = DistKind::normal;
  s.sample_size.mean = mean;
  s.sample_size.stdev = mean / 5;
  s.sample_size.min = 1;
  s.seed = 9;
  s.files_per_dir = 4;
  return s;
}

// Writes every file of the layout and checks each one's size on disk is the layout's.
void write_all(const Layout& l) {
  for (std::uint64_t i = 0; i < l.num_files(); ++i) {
    std::filesystem::create_directories(l.path(i).parent_path());
    auto r = dlgen::datasets::write_file(l, i, l.path(i), 1 << 16);  // small buffer: many flushes
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(std::filesystem::file_size(l.path(i)), l.file_size(i)) << l.path(i);
  }
}

// "path size offset:length,offset:length..." per file, one argument each, for the Python side.
std::string describe(const Layout& l) {
  std::string args;
  for (std::uint64_t i = 0; i < l.num_files(); ++i) {
    args += " " + l.path(i).string() + ":" + std::to_string(l.file_size(i));
    for (std::uint32_t j = 0; j < l.spec().samples_per_file; ++j)
      args += ":" + std::to_string(l.sample_extent(i, j).offset) + "-" +
              std::to_string(l.sample_extent(i, j).length);
  }
  return args;
}

constexpr const char* kParse = R"(import sys
files = []
for a in sys.argv[1:]:
    p, size, *ext = a.split(':')
    files.append((p, int(size), [tuple(map(int, e.split('-'))) for e in ext]))
)";

}  // namespace

TEST(Codec, ContentIsDeterministicAndNotFlat) {
  TempDir t;
  const Layout l(spec(t, Format::raw, 1, 65536));
  auto a = dlgen::datasets::encode_to_memory(l, 3);
  auto b = dlgen::datasets::encode_to_memory(l, 3);
  auto c = dlgen::datasets::encode_to_memory(l, 4);
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(*a, *b);
  EXPECT_NE(*a, *c);
  std::set<std::uint8_t> seen(a->begin(), a->end());
  EXPECT_EQ(seen.size(), 256u);  // random bytes, not zeros
  ASSERT_GT(a->size(), 8192u);
  EXPECT_NE(std::vector<std::uint8_t>(a->begin(), a->begin() + 4096),
            std::vector<std::uint8_t>(a->begin() + 4096, a->begin() + 8192));
}

TEST(Codec, MemoryAndFileBytesAgree) {
  TempDir t;
  for (Format f : {Format::npz, Format::tfrecord, Format::jpeg}) {
    const Layout l(spec(t, f, f == Format::jpeg ? 1 : 3, 40000));
    write_all(l);
    auto mem = dlgen::datasets::encode_to_memory(l, 1);
    ASSERT_TRUE(mem);
    std::ifstream in(l.path(1), std::ios::binary);
    std::vector<std::uint8_t> disk((std::istreambuf_iterator<char>(in)),
                                   std::istreambuf_iterator<char>());
    EXPECT_EQ(*mem, disk) << dlgen::to_string(f);
  }
}

// Files of kDirectMinBytes and more go to the device with O_DIRECT (aligned stretches) and the
// page cache (unaligned heads, tails, zip CRC patches of already-written headers): the bytes must
// be exactly the in-memory encoding whatever the write size, and the file must be fsync()ed.
TEST(Codec, LargeFilesWrittenDirectlyMatchMemoryAndAreValid) {
  TempDir t;
  for (Format f : {Format::raw, Format::npz, Format::tfrecord}) {
    DatasetSpec s = spec(t, f, f == Format::raw ? 1 : 5, f == Format::raw ? 1.6e6 : 4e5);
    s.dir = t.path() / dlgen::to_string(f);
    s.num_files = 2;
    const Layout l(s);
    ASSERT_GE(l.file_size(1), dlgen::datasets::kDirectMinBytes);
    auto mem = dlgen::datasets::encode_to_memory(l, 1);
    ASSERT_TRUE(mem);
    for (std::size_t buffer : {std::size_t{1} << 16, std::size_t{10000}, std::size_t{4} << 20}) {
      std::filesystem::create_directories(l.path(1).parent_path());
      bool synced = false;
      auto r = dlgen::datasets::write_file(l, 1, l.path(1), buffer, &synced);
      ASSERT_TRUE(r) << r.error().message;
      EXPECT_TRUE(synced);
      std::ifstream in(l.path(1), std::ios::binary);
      std::vector<std::uint8_t> disk((std::istreambuf_iterator<char>(in)),
                                     std::istreambuf_iterator<char>());
      EXPECT_EQ(*mem, disk) << dlgen::to_string(f) << " buffer " << buffer;
    }
  }
  if (!dlgen::testing::python_has("h5py, numpy")) GTEST_SKIP() << "python3-h5py is not installed";
  DatasetSpec s = spec(t, Format::npz, 5, 4e5);
  s.dir = t.path() / "npz-py";
  const Layout npz(s);
  write_all(npz);
  s = spec(t, Format::hdf5, 5, 4e5);  // data starts at an unaligned offset after the metadata
  s.dir = t.path() / "h5-py";
  const Layout h5(s);
  write_all(h5);
  const std::string script = std::string(kParse) + R"(
import h5py, numpy as np, zipfile
for p, size, ext in files:
    raw = open(p, 'rb').read()
    assert len(raw) == size, (p, len(raw), size)
    if p.endswith('.npz'):
        assert zipfile.ZipFile(p).testzip() is None, p
        with np.load(p) as z:
            arrays = [z['x_%d' % j] for j in range(len(ext))]
    else:
        with h5py.File(p, 'r') as f:
            arrays = [f['data'][j, :n] for j, (_, n) in enumerate(ext)]
    for (off, n), a in zip(ext, arrays):
        assert a.tobytes() == raw[off:off + n], p
)";
  EXPECT_EQ(dlgen::testing::run_python(t.path(), script, describe(npz) + describe(h5)), 0);
}

// A raw file is its samples back to back: the extents tile the file in order (each the sample's
// drawn size), and the bytes on disk are the file's content stream, so the bytes at sample j's
// extent are that sample's and no other's. The stream is generated here apart from the codec.
TEST(Codec, RawSamplesMatchExtents) {
  TempDir t;
  const Layout l(spec(t, Format::raw, 5, 3000));
  write_all(l);
  std::set<std::uint64_t> sizes;
  for (std::uint64_t i = 0; i < l.num_files(); ++i) {
    SCOPED_TRACE(l.path(i).string());
    std::ifstream in(l.path(i), std::ios::binary);
    const std::vector<std::uint8_t> disk((std::istreambuf_iterator<char>(in)),
                                         std::istreambuf_iterator<char>());
    ASSERT_EQ(disk.size(), l.file_size(i));
    std::vector<std::uint8_t> expected(l.file_size(i));
    dlgen::datasets::ContentStream(l.spec().seed, i).fill(expected.data(), expected.size());
    EXPECT_TRUE(disk == expected) << "the file is not its content stream";
    std::uint64_t end = 0;
    for (std::uint32_t j = 0; j < l.spec().samples_per_file; ++j) {
      const dlgen::datasets::Extent e = l.sample_extent(i, j);
      EXPECT_EQ(e.offset, end) << "sample " << j << " does not follow sample " << j - 1;
      EXPECT_EQ(e.length, l.sample_bytes(i, j)) << "sample " << j;
      EXPECT_GE(e.length, 1u);
      ASSERT_LE(e.offset + e.length, disk.size()) << "sample " << j << " ends past the file";
      EXPECT_TRUE(std::equal(disk.begin() + static_cast<std::ptrdiff_t>(e.offset),
                             disk.begin() + static_cast<std::ptrdiff_t>(e.offset + e.length),
                             expected.begin() + static_cast<std::ptrdiff_t>(e.offset)))
          << "sample " << j;
      end = e.offset + e.length;
      sizes.insert(e.length);
    }
    EXPECT_EQ(end, l.file_size(i)) << "the samples do not fill the file";
  }
  EXPECT_GT(sizes.size(), l.num_files()) << "sample sizes are drawn, not one size for all";
}

TEST(Codec, NpzOpensWithNumpy) {
  if (!dlgen::testing::python_has("numpy")) GTEST_SKIP() << "python3-numpy is not installed";
  TempDir t;
  const Layout l(spec(t, Format::npz, 3, 20000));
  write_all(l);
  const std::string script = std::string(kParse) + R"(
import numpy as np, zipfile
for p, size, ext in files:
    assert zipfile.ZipFile(p).testzip() is None, p   # every member's CRC-32
    raw = open(p, 'rb').read()
    with np.load(p) as z:
        assert z.files == ['x_%d' % j for j in range(len(ext))], z.files
        for j, (off, n) in enumerate(ext):
            a = z['x_%d' % j]
            assert a.dtype == np.uint8 and a.shape == (n,), (p, j, a.shape)
            assert a.tobytes() == raw[off:off + n], (p, j)
            assert a.any()
)";
  EXPECT_EQ(dlgen::testing::run_python(t.path(), script, describe(l)), 0);
}

TEST(Codec, Hdf5OpensWithH5py) {
  if (!dlgen::testing::python_has("h5py, numpy")) GTEST_SKIP() << "python3-h5py is not installed";
  TempDir t;
  for (double mean : {10.0, 3000.0, 200000.0}) {
    DatasetSpec s = spec(t, Format::hdf5, 4, mean);
    s.dir = t.path() / ("h5-" + std::to_string(int(mean)));
    const Layout l(s);
    write_all(l);
    const std::string script = std::string(kParse) + R"(
import h5py, numpy as np
for p, size, ext in files:
    raw = open(p, 'rb').read()
    assert len(raw) == size
    with h5py.File(p, 'r') as f:
        d = f['data']
        row = max(n for _, n in ext)
        assert d.dtype == np.uint8 and d.shape == (len(ext), row), d.shape
        assert list(f['sizes'][:]) == [n for _, n in ext]
        for j, (off, n) in enumerate(ext):
            assert d[j, :n].tobytes() == raw[off:off + n], (p, j)
)";
    EXPECT_EQ(dlgen::testing::run_python(t.path(), script, describe(l)), 0) << mean;
  }
}

TEST(Codec, JpegDecodesWithPilAtTheExactSize) {
  if (!dlgen::testing::python_has("PIL.Image")) GTEST_SKIP() << "python3-pil is not installed";
  TempDir t;
  for (double mean : {3000.0, 112640.0, 600000.0}) {
    DatasetSpec s = spec(t, Format::jpeg, 1, mean);
    s.dir = t.path() / ("jpeg-" + std::to_string(int(mean)));
    const Layout l(s);
    write_all(l);
    const std::string script = std::string(kParse) + R"(
from PIL import Image
import os
for p, size, ext in files:
    assert os.path.getsize(p) == size
    with Image.open(p) as im:
        assert im.format == 'JPEG', im.format
        im.load()
        w, h = im.size
        assert w >= 16 and h >= 16
)";
    EXPECT_EQ(dlgen::testing::run_python(t.path(), script, describe(l)), 0) << mean;
  }
}

TEST(Codec, TfrecordFramingHasCorrectCrc32c) {
  TempDir t;
  const Layout l(spec(t, Format::tfrecord, 5, 5000));
  write_all(l);
  const std::string script = std::string(kParse) + R"(
import struct
T = []
for b in range(256):
    c = b
    for _ in range(8):
        c = (c >> 1) ^ (0x82f63b78 if c & 1 else 0)
    T.append(c)
def crc32c(data):
    c = 0xffffffff
    for x in data:
        c = T[(c ^ x) & 0xff] ^ (c >> 8)
    return c ^ 0xffffffff
def mask(c):
    return ((((c >> 15) | (c << 17)) & 0xffffffff) + 0xa282ead8) & 0xffffffff
assert crc32c(b'123456789') == 0xe3069283
for p, size, ext in files:
    d = open(p, 'rb').read()
    assert len(d) == size
    pos = 0
    for off, n in ext:
        (length,) = struct.unpack_from('<Q', d, pos)
        (lcrc,) = struct.unpack_from('<I', d, pos + 8)
        assert mask(crc32c(d[pos:pos + 8])) == lcrc
        data = d[pos + 12:pos + 12 + length]
        (dcrc,) = struct.unpack_from('<I', d, pos + 12 + length)
        assert mask(crc32c(data)) == dcrc, (p, pos)
        assert pos + 12 + length - n == off      # payload ends the Example
        assert data.startswith(b'\x0a') and b'\x0a\x01x\x12' in data[:16]
        pos += 12 + length + 4
    assert pos == len(d)
)";
  EXPECT_EQ(dlgen::testing::run_python(t.path(), script, describe(l)), 0);
}

TEST(Codec, Hdf5WithFixedSizesHasOnlyTheDataDataset) {
  if (!dlgen::testing::python_has("h5py")) GTEST_SKIP() << "python3-h5py is not installed";
  TempDir t;
  DatasetSpec s = spec(t, Format::hdf5, 3, 0);
  s.sample_size = dlgen::Distribution::fixed_at(131072);
  const Layout l(s);
  write_all(l);
  EXPECT_EQ(l.file_size(0), l.file_size(5));
  const std::string script = std::string(kParse) + R"(
import h5py
for p, size, ext in files:
    raw = open(p, 'rb').read()
    with h5py.File(p, 'r') as f:
        assert list(f.keys()) == ['data'], list(f.keys())
        assert f['data'].shape == (3, 131072)
        assert f['data'].id.get_offset() == ext[0][0]
        assert f['data'][2].tobytes() == raw[ext[2][0]:ext[2][0] + 131072]
)";
  EXPECT_EQ(dlgen::testing::run_python(t.path(), script, describe(l)), 0);
}

// format = "tar": a real archive that Python's tarfile opens, one member a sample whose data is
// the sample's extent, ending as GNU tar and tarfile end an archive: two zero blocks after the
// last member, padded with zeros to the 10 KiB record (the bytes a WebDataset reader reads after
// a shard's last sample). Both geometries: drawn sizes (a table) and a fixed size (arithmetic).
TEST(Codec, TarOpensWithTarfileAndEndsInTheRecordTrailer) {
  TempDir t;
  DatasetSpec fixed = spec(t, Format::tar, 5, 0);
  fixed.sample_size = dlgen::Distribution::fixed_at(17408);
  fixed.dir = t.path() / "fixed";
  for (const DatasetSpec& s : {spec(t, Format::tar, 7, 3000), fixed}) {
    const Layout l(s);
    write_all(l);
    for (std::uint64_t i = 0; i < l.num_files(); ++i) EXPECT_EQ(l.file_size(i) % 10240, 0u);
    const std::string script = std::string(kParse) + R"(
import tarfile
for p, size, ext in files:
    raw = open(p, 'rb').read()
    assert len(raw) == size, (p, len(raw), size)
    with tarfile.open(p, 'r:') as tar:
        members = tar.getmembers()
        assert len(members) == len(ext), (p, len(members))
        for m, (off, n) in zip(members, ext):
            assert m.isfile() and m.size == n and m.offset_data == off, (p, m.name, off, n)
            assert tar.extractfile(m).read() == raw[off:off + n]
    end = ext[-1][0] + (ext[-1][1] + 511) // 512 * 512
    assert size - end >= 1024 and size - end < 1024 + 10240, (p, size - end)
    assert raw[end:] == bytes(size - end), p
    with tarfile.open(p, 'r|') as tar:   # the streaming mode WebDataset uses
        assert len([m for m in tar]) == len(ext)
)";
    EXPECT_EQ(dlgen::testing::run_python(t.path(), script, describe(l)), 0);
  }
  // 5 members of 512 + 17,408 B end at 89,600 B; with the end blocks, 9 records (92,160 B).
  EXPECT_EQ(Layout(fixed).file_size(0), 92160u);
  EXPECT_EQ(Layout(fixed).sample_extent(0, 2).offset, 2 * 17920u + 512);
}
