// The access-recipe learner (analysis/recipe.hpp) on hand-written read sequences, copied from
// traces of tests/pytorch/recipe_reader.py: each library's accesses of files of different sizes
// give one template, and the template gives back the traced requests (the learner and the
// applier agree).
#include "dlgen/analysis/recipe.hpp"

#include <gtest/gtest.h>

namespace dlgen::analysis {
namespace {

AccessReads access(std::uint64_t size, std::vector<AccessRead> reads) {
  return {size, std::move(reads)};
}

// The requests the replay would make (core/recipe.hpp), as (offset, moved) pairs of the access.
void expect_replays(const Recipe& r, const AccessReads& a) {
  const auto reqs = recipe_requests(r, a.file_size);
  ASSERT_EQ(reqs.size(), a.reads.size()) << recipe_text(r);
  for (std::size_t i = 0; i < reqs.size(); ++i) {
    EXPECT_EQ(reqs[i].offset, a.reads[i].offset) << i;
    EXPECT_EQ(reqs[i].length, a.reads[i].moved) << i;
  }
}

struct Case {
  const char* library;
  std::vector<AccessReads> accesses;
  const char* recipe;
};

std::vector<Case> cases() {
  return {
      {"PIL Image.open + convert",
       {access(41557, {{0, 4096, 4096}, {4096, 61440, 37461}}),
        access(35248, {{0, 4096, 4096}, {4096, 61440, 31152}}),
        access(150000, {{0, 4096, 4096},
                        {4096, 61440, 61440},
                        {65536, 61440, 61440},
                        {126976, 61440, 23024}})},
       "0+4KiB, 4KiB+rest/60KiB"},
      {"numpy.load .npy",
       {access(158848, {{0, 4096, 4096},
                        {0, 128, 128},
                        {0, 4096, 4096},
                        {4096, 151552, 151552},
                        {155648, 4096, 3200}}),
        access(136320, {{0, 4096, 4096},
                        {0, 128, 128},
                        {0, 4096, 4096},
                        {4096, 131072, 131072},
                        {135168, 4096, 1152}})},
       "0+4KiB, 0+128, 0+4KiB, 4KiB+rest~4KiB"},
      {"numpy.load .npz",
       {access(122354, {{0, 4096, 4096},
                        {122332, 23, 22},
                        {122312, 4096, 42},
                        {122230, 4096, 124},
                        {0, 4096, 4096},
                        {4096, 4096, 4096},
                        {0, 4096, 4096},
                        {4096, 4096, 4096},
                        {8192, 110592, 110592},
                        {118784, 4096, 3570}}),
        access(58866, {{0, 4096, 4096},
                       {58844, 23, 22},
                       {58824, 4096, 42},
                       {58742, 4096, 124},
                       {0, 4096, 4096},
                       {4096, 4096, 4096},
                       {0, 4096, 4096},
                       {4096, 4096, 4096},
                       {8192, 49152, 49152},
                       {57344, 4096, 1522}})},
       "0+4KiB, end-22+22, end-42+42, end-124+124, 0+8KiB/4KiB, 0+8KiB/4KiB, 8KiB+rest~4KiB"},
      {"h5py rows",
       {access(111616, {{0, 8, 8},
                        {0, 16, 16},
                        {16, 80, 80},
                        {96, 512, 512},
                        {680, 512, 512},
                        {136, 544, 544},
                        {1072, 328, 328},
                        {800, 512, 512},
                        {2048, 109568, 109568}}),
        access(60416, {{0, 8, 8},
                       {0, 16, 16},
                       {16, 80, 80},
                       {96, 512, 512},
                       {680, 512, 512},
                       {136, 544, 544},
                       {1072, 328, 328},
                       {800, 512, 512},
                       {2048, 58368, 58368}})},
       "0+8, 0+16, 16+80, 96+512, 680+512, 136+544, 1072+328, 800+512, 2KiB+rest"},
      {"torch.load .pt",
       {access(159397, {{0, 4096, 4096},
                        {0, 4096, 4096},
                        {155301, 4096, 4096},
                        {159375, 4096, 22},
                        {159355, 4096, 42},
                        {159299, 4096, 98},
                        {159122, 4096, 275},
                        {159056, 4096, 341},
                        {0, 4096, 4096},
                        {4096, 154944, 154944}}),
        access(63141, {{0, 4096, 4096},
                       {0, 4096, 4096},
                       {59045, 4096, 4096},
                       {63119, 4096, 22},
                       {63099, 4096, 42},
                       {63043, 4096, 98},
                       {62866, 4096, 275},
                       {62800, 4096, 341},
                       {0, 4096, 4096},
                       {4096, 58688, 58688}})},
       "0+4KiB, 0+4KiB, end-4KiB+4KiB, end-22+22, end-42+42, end-98+98, end-275+275, "
       "end-341+341, 0+4KiB, 4KiB+rest-357"},
      {"open().read()",
       {access(62464, {{0, 62465, 62464}}), access(158720, {{0, 158721, 158720}})},
       "0+rest"},
  };
}

TEST(RecipeLearner, EachLibraryGivesOneTemplateThatReplaysItsReads) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.library);
    const LearnedRecipe l = learn_recipe(c.accesses);
    EXPECT_EQ(recipe_text(l.recipe), c.recipe);
    EXPECT_EQ(l.accesses, c.accesses.size());
    EXPECT_EQ(l.explained, c.accesses.size());
    EXPECT_EQ(l.templates, 1u);
    for (const AccessReads& a : c.accesses) expect_replays(l.recipe, a);
  }
}

// The commonest template wins and its share is what it explains; accesses with no reads count
// for nothing.
TEST(RecipeLearner, TheCommonestTemplateWinsWithItsShare) {
  std::vector<AccessReads> in;
  for (int i = 0; i < 3; ++i)
    in.push_back(access(10000 + i, {{0, 4096, 4096}, {4096, 8192, 5904 + std::uint64_t(i)}}));
  in.push_back(access(5000, {{0, 5001, 5000}}));
  in.push_back(access(5000, {}));
  const LearnedRecipe l = learn_recipe(in);
  EXPECT_EQ(recipe_text(l.recipe), "0+4KiB, 4KiB+rest/8KiB");
  EXPECT_EQ(l.accesses, 4u);
  EXPECT_EQ(l.explained, 3u);
  EXPECT_EQ(l.templates, 2u);
  EXPECT_DOUBLE_EQ(l.share(), 0.75);
  EXPECT_TRUE(learn_recipe({}).recipe.empty());
}

// numpy.load of a large .npz member: 256 KiB reads through Python's 4 KiB buffer, i.e. a 4 KiB and
// a 252 KiB request per 256 KiB piece, then the tail (traced on dlgen's npz files); the last
// buffer fill may stop short of the end (the member ends before the central directory).
TEST(RecipeLearner, NumpyChunksThroughABufferAreOneAlignedStep) {
  auto npz = [](std::uint64_t size, bool to_end) {
    AccessReads a{size,
                  {{0, 4096, 4096}, {size - 22, 23, 22}, {0, 4096, 4096}, {8192, 253952, 253952}}};
    std::uint64_t at = 262144;
    const std::uint64_t cut = size / 4096 * 4096;
    while (at + 4096 < cut) {
      a.reads.push_back({at, 4096, 4096});
      const std::uint64_t e = std::min(at + 262144, cut);
      a.reads.push_back({at + 4096, e - at - 4096, e - at - 4096});
      at = e;
    }
    if (to_end && cut < size) a.reads.push_back({cut, 4096, size - cut});
    return a;
  };
  const std::vector<AccessReads> in = {npz(7167265, true), npz(9856575, true),
                                       npz(12591109, false)};
  const LearnedRecipe l = learn_recipe(in);
  EXPECT_EQ(recipe_text(l.recipe), "0+4KiB, end-22+22, 0+4KiB, 8KiB+rest@256KiB~4KiB");
  EXPECT_EQ(l.explained, 3u);
  expect_replays(l.recipe, in[0]);
  expect_replays(l.recipe, in[1]);
}

// The same members of 256-512 KiB (one 256 KiB boundary, so one head) learn the same step, so that
// a dataset of 250-400 KiB files is one recipe, not one pattern per size (traced: 66 patterns, the
// commonest explaining 29%); smaller members (no head) keep the buffered-read form.
TEST(RecipeLearner, OneHeadAtAPowerOfTwoIsTheSameAlignedStep) {
  auto npz = [](std::uint64_t size) {
    const std::uint64_t cut = size / 4096 * 4096;
    AccessReads a{size, {{0, 4096, 4096}, {size - 22, 23, 22}, {0, 4096, 4096}}};
    if (cut <= 262144) {
      a.reads.push_back({8192, cut - 8192, cut - 8192});
    } else {
      a.reads.push_back({8192, 253952, 253952});
      a.reads.push_back({262144, 4096, 4096});
      a.reads.push_back({266240, cut - 266240, cut - 266240});
    }
    if (cut < size) a.reads.push_back({cut, 4096, size - cut});
    return a;
  };
  const std::vector<AccessReads> in = {npz(301312 + 77), npz(402688 + 300), npz(323840 + 5),
                                       npz(259328 + 9)};
  const LearnedRecipe l = learn_recipe(in);
  EXPECT_EQ(recipe_text(l.recipe), "0+4KiB, end-22+22, 0+4KiB, 8KiB+rest@256KiB~4KiB");
  EXPECT_EQ(l.explained, 3u);
  for (std::size_t i = 0; i < 3; ++i) expect_replays(l.recipe, in[i]);
  EXPECT_EQ(recipe_text(access_template(in[3])), "0+4KiB, end-22+22, 0+4KiB, 8KiB+rest~4KiB");
  // A lone block-sized read at an offset that is not a power of two is no head.
  const Recipe other = access_template(
      AccessReads{400000, {{0, 200000, 200000}, {200000, 4096, 4096}, {204096, 195904, 195904}}});
  EXPECT_EQ(recipe_text(other).find('@'), std::string::npos) << recipe_text(other);
}

// A read that stops short of the end keeps a fixed length; a chunked run that stops short keeps
// its total and its chunk.
TEST(RecipeLearner, ReadsShortOfTheEndKeepTheirLength) {
  const Recipe r = access_template(
      access(1 << 20, {{0, 512, 512}, {4096, 65536, 65536}, {69632, 65536, 65536}}));
  EXPECT_EQ(recipe_text(r), "0+512, 4KiB+128KiB/64KiB");
}

// torch.load of .pt files of many sizes (tests/pytorch/heldout_r6/pt_buckets.py, traced): the
// same ten reads each, but the last zip directory read and the gap after the tensor's record
// differ by a few bytes from file to file, so no one template explains a quarter of them. The
// templates of that shape merge into one, each number the commonest; files too small for the
// first end-4KiB read (another shape) are left out. The merged recipe reads each file in ten
// requests, about what torch.load read.
TEST(RecipeLearner, TorchLoadOfManySizesMergesItsTemplates) {
  auto pt = [](std::uint64_t size, std::uint64_t dir, std::uint64_t gap) {
    return access(size, {{0, 4096, 4096},
                         {0, 4096, 4096},
                         {size - 4096, 4096, 4096},
                         {size - 22, 4096, 22},
                         {size - 42, 4096, 42},
                         {size - 98, 4096, 98},
                         {size - 287, 4096, 287},
                         {size - dir, 4096, dir},
                         {0, 4096, 4096},
                         {4096, size - 4096 - gap, size - 4096 - gap}});
  };
  std::vector<AccessReads> in;
  const std::uint64_t dirs[] = {405, 409, 405, 401, 397, 413, 393, 417};
  for (std::uint64_t i = 0; i < 8; ++i)
    in.push_back(pt(12000 + 2500 * i, dirs[i], dirs[i] + 16));
  in.push_back(access(6321, {{0, 4096, 4096}, {0, 4096, 4096}, {4096, 4096, 2225}}));
  const LearnedRecipe l = learn_recipe(in);
  EXPECT_EQ(l.templates, 8u);
  EXPECT_EQ(l.explained, 8u) << "the eight of the common shape";
  EXPECT_EQ(recipe_text(l.recipe),
            "0+4KiB, 0+4KiB, end-4KiB+4KiB, end-22+22, end-42+42, end-98+98, end-287+287, "
            "end-405+405, 0+4KiB, 4KiB+rest-421");
  EXPECT_EQ(recipe_requests(l.recipe, 20000).size(), 10u);
  // One template explaining a quarter or more stays the answer.
  std::vector<AccessReads> one(3, pt(20000, 405, 421));
  one.insert(one.end(), in.begin(), in.begin() + 4);
  EXPECT_EQ(learn_recipe(one).explained, 5u) << "three of its own and the two alike";
}

}  // namespace
}  // namespace dlgen::analysis
