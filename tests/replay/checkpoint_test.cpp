// Checkpoint content must not flatter storage that compresses or deduplicates: every 4 KiB block
// of a checkpoint is different, within a shard, across shards and across checkpoints, and zlib
// cannot shrink it.
#include "dlgen/replay/checkpoint.hpp"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "temp_dir.hpp"

namespace dlgen::replay {
namespace {

using testing::TempDir;

std::vector<unsigned char> slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Adds every 4 KiB block of `bytes` to `seen`; returns how many were already there.
std::size_t add_blocks(const std::vector<unsigned char>& bytes, std::set<std::string>& seen) {
  std::size_t repeats = 0;
  for (std::size_t i = 0; i + 4096 <= bytes.size(); i += 4096)
    if (!seen.insert(std::string(bytes.begin() + static_cast<std::ptrdiff_t>(i),
                                 bytes.begin() + static_cast<std::ptrdiff_t>(i + 4096)))
             .second)
      ++repeats;
  return repeats;
}

double zlib_ratio(const std::vector<unsigned char>& in) {
  uLongf n = compressBound(in.size());
  std::vector<unsigned char> out(n);
  EXPECT_EQ(compress2(out.data(), &n, in.data(), in.size(), 6), Z_OK);
  return static_cast<double>(n) / static_cast<double>(in.size());
}

CheckpointSpec spec(const std::filesystem::path& dir) {
  CheckpointSpec c;
  c.enabled = true;
  c.size_bytes = (3 << 20) + 12345;  // shards of odd sizes
  c.files = 3;
  c.write_size_bytes = 64 << 10;  // many requests per shard: the old code repeated one block
  c.fsync = false;
  c.dir = dir;
  return c;
}

TEST(Checkpoint, ContentIsNeitherDedupableNorCompressible) {
  TempDir tmp("dlgen-ckpt");
  const CheckpointSpec c = spec(tmp / "ck");
  CheckpointResult res;
  ASSERT_TRUE(write_checkpoint(c, res));
  std::set<std::string> seen;
  std::uint64_t total = 0;
  for (const auto& p : checkpoint_paths(c)) {
    const auto bytes = slurp(p);
    total += bytes.size();
    EXPECT_EQ(add_blocks(bytes, seen), 0u) << p;
    EXPECT_GT(zlib_ratio(bytes), 0.99) << p;
  }
  EXPECT_EQ(total, c.size_bytes);
}

TEST(Checkpoint, EachCheckpointWritesFreshContent) {
  TempDir tmp("dlgen-ckpt2");
  const CheckpointSpec c = spec(tmp / "ck");
  CheckpointResult res;
  ASSERT_TRUE(write_checkpoint(c, res));
  std::set<std::string> seen;
  for (const auto& p : checkpoint_paths(c)) add_blocks(slurp(p), seen);
  ASSERT_TRUE(write_checkpoint(c, res));  // overwrites the same shards
  EXPECT_EQ(res.count, 2u);
  for (const auto& p : checkpoint_paths(c)) EXPECT_EQ(add_blocks(slurp(p), seen), 0u) << p;
}

}  // namespace
}  // namespace dlgen::replay
