// summarize's stages on their own (analysis/src/stages/stages.hpp): each is a function of the
// previous stages' outputs, so each can be checked on a small hand-built trace without the rest.
#include "stages/stages.hpp"
#include "stages/path_names.hpp"

#include <gtest/gtest.h>

#include "trace_builder.hpp"

namespace dlgen::analysis::stages {
namespace {

using trace::Op;

// A trace built call by call: two processes, files, and their events.
class Built : public testing::TraceBuilder {
 public:
  Built() {
    proc(100, 1, "python3", false, 100);
    proc(101, 100, "pt_data_worker", false, 101);
  }
  std::uint32_t add_file(const std::string& path, std::uint64_t size = 8192) {
    return file(path, size);
  }
  // An open of `f` as `fd` by `pid`, one read of its whole size, and the close.
  void read_whole(std::uint32_t pid, std::uint32_t f, std::int32_t fd, std::uint64_t size = 8192) {
    ev(now_, 1000, pid, pid, Op::open, f, fd, 0, 0, fd);
    ev(now_ + 2000, 5000, pid, pid, Op::read, f, fd, 0, size, static_cast<std::int64_t>(size));
    ev(now_ + 8000, 500, pid, pid, Op::close, f, fd, 0, 0, 0);
    now_ += 10'000;
  }
  void at(std::uint64_t ns) { now_ = ns; }
  using testing::TraceBuilder::ev;
  const trace::Trace& get() const { return t_; }
};

TEST(Stages, ClassifyKeepsASplitWordTreeApartFromItsSibling) {
  Built b;
  for (int c = 0; c < 2; ++c)
    for (int i = 0; i < 3; ++i) {
      const auto f = b.add_file("/d/x/c" + std::to_string(c) + "/" + std::to_string(i) + ".jpg");
      b.read_whole(101, f, 5);
    }
  for (int c = 0; c < 2; ++c)
    for (int i = 0; i < 2; ++i) {
      const auto f =
          b.add_file("/d/x-val/c" + std::to_string(c) + "/" + std::to_string(i) + ".jpg");
      b.read_whole(101, f, 5);
    }
  const Classified c = classify(b.get());
  ASSERT_EQ(c.datasets.size(), 2u);
  EXPECT_EQ(c.datasets[0].dir, "/d/x");
  EXPECT_EQ(c.datasets[0].cls, FileClass::train);
  EXPECT_EQ(c.datasets[0].files.size(), 6u);
  EXPECT_EQ(c.datasets[0].dirs, 2u);
  EXPECT_EQ(c.datasets[1].dir, "/d/x-val");
  EXPECT_EQ(c.datasets[1].cls, FileClass::validation);
  EXPECT_EQ(c.datasets[1].files.size(), 4u);
  for (const auto& f : c.files) EXPECT_GE(f.dataset, 0) << f.path;
}

// A pass ends when the dataset changes or a file repeats; an io_uring completion that arrives after
// its descriptor was closed and reused for the next file stays with its own file's access.
TEST(Stages, AccessesAreNumberedIntoPassesAndLateCompletionsStayWithTheirFile) {
  Built b;
  const auto t0 = b.add_file("/d/train/a.npz"), t1 = b.add_file("/d/train/b.npz");
  const auto v0 = b.add_file("/d/val/a.npz"), v1 = b.add_file("/d/val/b.npz");
  b.read_whole(101, t0, 5);
  // t1 opened as fd 6, closed, fd 6 reused for v0 while a read of t1 completes late.
  b.at(2'000'000);
  b.ev(2'000'000, 1000, 101, 101, Op::open, t1, 6, 0, 0, 6);
  b.ev(2'001'000, 1000, 101, 101, Op::uring_read, t1, 6, 0, 4096, 4096);
  b.ev(2'003'000, 500, 101, 101, Op::close, t1, 6, 0, 0, 0);
  b.ev(2'004'000, 1000, 101, 101, Op::open, v0, 6, 0, 0, 6);
  b.ev(2'004'500, 3000, 101, 101, Op::uring_read, t1, 6, 4096, 4096, 4096);  // late, for t1
  b.ev(2'006'000, 3000, 101, 101, Op::uring_read, v0, 6, 0, 8192, 8192);
  b.ev(2'010'000, 500, 101, 101, Op::close, v0, 6, 0, 0, 0);
  b.at(3'000'000);
  b.read_whole(101, v1, 7);
  b.read_whole(101, t0, 5);  // training again: a new pass
  b.read_whole(101, t1, 5);
  b.read_whole(101, t0, 5);  // t0 repeats: another pass

  const Classified c = classify(b.get());
  const std::vector<Access> as = find_accesses(b.get(), c);
  ASSERT_EQ(as.size(), 7u);
  EXPECT_EQ(as[1].file, t1);
  EXPECT_EQ(as[1].reads, 2u);  // the late completion joined it
  EXPECT_EQ(as[1].bytes, 8192u);
  EXPECT_EQ(as[2].file, v0);
  EXPECT_EQ(as[2].reads, 1u);
  const std::vector<std::int32_t> pass = {0, 0, 1, 1, 2, 2, 3};
  for (std::size_t i = 0; i < as.size(); ++i) {
    EXPECT_EQ(as[i].pass, pass[i]) << i;
    EXPECT_EQ(as[i].reader, 101u) << i;
  }

  const Readers r = find_readers(b.get(), c, as);
  ASSERT_EQ(r.accelerators.size(), 1u);
  const Passes p = find_passes(c, as, r);
  ASSERT_EQ(p.epochs.size(), 4u);
  EXPECT_FALSE(p.epochs[0].evaluation);
  EXPECT_TRUE(p.epochs[1].evaluation);
  EXPECT_EQ(p.epochs[1].index, 0u);
  EXPECT_EQ(p.epochs[2].index, 1u);
  EXPECT_EQ(p.epochs[3].index, 2u);
  EXPECT_EQ(p.epochs[3].unique_files, 1u);
  EXPECT_EQ(p.epochs[0].bytes_read, 8192u * 2);
}

// A checkpoint is named by its extension or a word of its path; an object's path is its key, so a
// bucket named "ckpt-lab" does not make its dataset checkpoints.
TEST(PathNames, CheckpointNamesOfFilesAndObjects) {
  EXPECT_TRUE(names::is_checkpoint_name("/runs/model_3.pth"));
  EXPECT_TRUE(names::is_checkpoint_name("/runs/checkpoints/step-10/weights.bin"));
  EXPECT_TRUE(names::is_checkpoint_name("s3://lab/ckpt/model.bin"));
  EXPECT_TRUE(names::is_checkpoint_name("s3://lab/run/epoch_2.pt"));
  EXPECT_FALSE(names::is_checkpoint_name("s3://ckpt-lab/imagenet/train/n01/img_1.jpg"));
  EXPECT_FALSE(names::is_checkpoint_name("s3://ckpt-lab"));
  EXPECT_FALSE(names::is_checkpoint_name("/data/imagenet/train/img_1.jpg"));
}

}  // namespace
}  // namespace dlgen::analysis::stages
