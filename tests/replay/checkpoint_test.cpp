// Checkpoint content must not flatter storage that compresses or deduplicates: every 4 KiB block
// of a checkpoint is different, within a shard, across shards and across checkpoints, and zlib
// cannot shrink it.
#include "dlgen/replay/checkpoint.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
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

// Whether `dir`'s file system takes O_DIRECT (tmpfs does not).
bool fixture_direct_ok(const std::filesystem::path& dir) {
  const auto p = dir / "direct-probe";
  std::ofstream(p) << "x";
  const int fd = ::open(p.c_str(), O_RDONLY | O_DIRECT);
  std::filesystem::remove(p);
  if (fd < 0) return false;
  ::close(fd);
  return true;
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
  ASSERT_TRUE(write_checkpoint(c, res, "pread"));
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
  ASSERT_TRUE(write_checkpoint(c, res, "pread"));
  std::set<std::string> seen;
  for (const auto& p : checkpoint_paths(c)) add_blocks(slurp(p), seen);
  ASSERT_TRUE(write_checkpoint(c, res, "pread"));  // overwrites the same shards
  EXPECT_EQ(res.count, 2u);
  for (const auto& p : checkpoint_paths(c)) EXPECT_EQ(add_blocks(slurp(p), seen), 0u) << p;
}

// checkpoint.serialize: 0.2 s a checkpoint, spent between the write requests of its 3 shards (3
// writer threads) one writer at a time, so the checkpoint takes at least that long; the write rate
// is the storage's, the serializing left out: bytes / (write_s - serialize_s).
TEST(Checkpoint, SerializeTimeIsSpentBetweenWritesOneWriterAtATime) {
  TempDir tmp("dlgen-ckpt-serialize");
  CheckpointSpec c = spec(tmp / "ck");
  c.serialize_s = 0.2;
  CheckpointResult res;
  ASSERT_TRUE(write_checkpoint(c, res, "pread"));
  EXPECT_GE(res.serialize_s, 0.2);
  EXPECT_LT(res.serialize_s, 0.2 + 0.05 * 50);  // an overrun is paid back, not added up
  EXPECT_GE(res.write_s, res.serialize_s);
  EXPECT_DOUBLE_EQ(res.write_mib_s(),
                   static_cast<double>(res.bytes) / 1048576.0 / (res.write_s - res.serialize_s));
  std::uint64_t total = 0;
  for (const auto& p : checkpoint_paths(c)) total += slurp(p).size();
  EXPECT_EQ(total, c.size_bytes);
  // Without it nothing is spent and the rate is bytes / write_s.
  CheckpointResult plain;
  c.serialize_s = 0;
  ASSERT_TRUE(write_checkpoint(c, plain, "pread"));
  EXPECT_EQ(plain.serialize_s, 0);
  EXPECT_DOUBLE_EQ(plain.write_mib_s(),
                   static_cast<double>(plain.bytes) / 1048576.0 / plain.write_s);
}

// Every write call (and O_DIRECT, where the file system takes it) writes exactly the checkpoint's
// bytes, unaligned tails included, with content as fresh as pwrite's.
TEST(Checkpoint, EveryWriteCallAndDirectWriteTheSameBytes) {
  TempDir tmp("dlgen-ckpt-calls");
  for (WriteCall call : {WriteCall::pwrite, WriteCall::write, WriteCall::writev})
    for (bool direct : {false, true}) {
      SCOPED_TRACE(std::string(to_string(call)) + (direct ? " O_DIRECT" : ""));
      CheckpointSpec c = spec(tmp / (std::string(to_string(call)) + (direct ? "-direct" : "")));
      c.write_call = call;
      c.direct = direct;
      c.write_size_bytes = (64 << 10) + 100;  // O_DIRECT rounds it down to 64 KiB
      std::filesystem::create_directories(c.dir);
      if (direct && !fixture_direct_ok(c.dir)) continue;  // tmpfs refuses O_DIRECT
      CheckpointResult res;
      auto r = write_checkpoint(c, res, "pread");
      ASSERT_TRUE(r) << r.error().message;
      std::set<std::string> seen;
      std::uint64_t total = 0;
      const auto paths = checkpoint_paths(c);
      for (std::uint32_t k = 0; k < paths.size(); ++k) {
        const auto bytes = slurp(paths[k]);
        EXPECT_EQ(bytes.size(), checkpoint_shard_bytes(c, k)) << paths[k];
        total += bytes.size();
        EXPECT_EQ(add_blocks(bytes, seen), 0u) << paths[k];
      }
      EXPECT_EQ(total, c.size_bytes);
    }
}

// copy: after the 1st, 3rd, 5th... checkpoint (copy_every = 2) each shard is copied whole to its
// "-best" file, with sendfile or copy_file_range; the copy is part of the checkpoint's time.
TEST(Checkpoint, CopiesEveryNthCheckpointToABestFile) {
  TempDir tmp("dlgen-ckpt-copy");
  for (CopyCall call : {CopyCall::sendfile, CopyCall::copy_file_range}) {
    SCOPED_TRACE(to_string(call));
    CheckpointSpec c = spec(tmp / to_string(call));
    c.copy = call;
    c.copy_every = 2;
    CheckpointResult res;
    auto best = [&](const std::filesystem::path& p) {
      return p.parent_path() / (p.stem().string() + "-best" + p.extension().string());
    };
    ASSERT_TRUE(write_checkpoint(c, res, "pread"));  // 1st: copied
    for (const auto& p : checkpoint_paths(c)) EXPECT_EQ(slurp(best(p)), slurp(p)) << p;
    const auto first = slurp(best(checkpoint_paths(c).front()));
    ASSERT_TRUE(write_checkpoint(c, res, "pread"));  // 2nd: not copied, the best stays the 1st
    EXPECT_EQ(slurp(best(checkpoint_paths(c).front())), first);
    EXPECT_NE(slurp(checkpoint_paths(c).front()), first);
    ASSERT_TRUE(write_checkpoint(c, res, "pread"));  // 3rd: copied
    for (const auto& p : checkpoint_paths(c)) EXPECT_EQ(slurp(best(p)), slurp(p)) << p;
    EXPECT_EQ(res.count, 3u);
  }
}

// Issue 17, item 2: a shard replaced by a symbolic link to a file outside (a job-chosen
// directory, dlgen running as root). Before the fix the shard was opened O_CREAT | O_TRUNC and
// the outside file overwritten; now the checkpoint is refused and the file keeps its bytes. The
// "-best" copy and the restore refuse a link the same way.
TEST(Checkpoint, ALinkPlantedAtAShardIsNotWrittenThrough) {
  TempDir tmp("dlgen-ckln");
  const CheckpointSpec c = spec(tmp / "ck");
  const std::filesystem::path outside = tmp / "outside";
  std::ofstream(outside) << "keep";
  std::filesystem::create_directories(c.dir);
  std::filesystem::create_symlink(outside, checkpoint_paths(c)[1]);
  CheckpointResult res;
  auto r = write_checkpoint(c, res, "pread");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("not a regular file"), std::string::npos) << r.error().message;
  std::ifstream in(outside);
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(in)), {}), "keep");
  // A regular shard from an earlier checkpoint hard-linked to someone's file: replaced, the
  // other name's bytes untouched (O_TRUNC would have truncated the shared inode).
  std::filesystem::remove(checkpoint_paths(c)[1]);
  std::filesystem::create_hard_link(outside, checkpoint_paths(c)[1]);
  ASSERT_TRUE(write_checkpoint(c, res, "pread"));
  std::ifstream again(outside);
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(again)), {}), "keep");
}

// Issue 17, item 3: a checkpoint larger than the free space is refused before a byte is written
// (a 256 KiB tmpfs; root only, as mount(2) needs).
TEST(Checkpoint, RefusesACheckpointLargerThanTheFreeSpace) {
  TempDir tmp("dlgen-ckfull");
  const std::filesystem::path mnt = tmp / "small";
  std::filesystem::create_directories(mnt);
  if (::mount("dlgen-test", mnt.c_str(), "tmpfs", 0, "size=256k") != 0)
    GTEST_SKIP() << "cannot mount a small tmpfs here (" << std::strerror(errno) << ")";
  struct Unmount {
    std::filesystem::path p;
    ~Unmount() { ::umount2(p.c_str(), MNT_DETACH); }
  } unmount{mnt};
  const CheckpointSpec c = spec(mnt / "ck");
  CheckpointResult res;
  auto r = write_checkpoint(c, res, "pread");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("are available"), std::string::npos) << r.error().message;
  EXPECT_TRUE(std::filesystem::is_empty(c.dir));
}

}  // namespace
}  // namespace dlgen::replay
