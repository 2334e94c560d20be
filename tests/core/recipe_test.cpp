// Access recipes (core/recipe.hpp): the text form round-trips, bad steps are refused with the
// step's text, and the applier's requests follow the recipe on files of any size.
#include "dlgen/core/recipe.hpp"

#include <gtest/gtest.h>

#include "dlgen/core/job_io.hpp"

namespace dlgen {
namespace {

Recipe parse(std::initializer_list<const char*> steps) {
  Recipe r;
  for (const char* s : steps) {
    auto st = parse_recipe_step(s);
    EXPECT_TRUE(st) << s << ": " << st.error().message;
    if (st) r.push_back(*st);
  }
  return r;
}

using Reqs = std::vector<RecipeRequest>;

TEST(Recipe, TextRoundTrips) {
  for (const char* s : {"0+4KiB", "end-22+22", "4KiB+rest/60KiB", "8KiB+rest~4KiB", "0+rest",
                        "30+1000/256", "end-64KiB+64KiB", "1MiB+3MiB/1MiB", "4KiB+rest-357",
                        "8KiB+rest@256KiB~4KiB", "0+1MiB/64KiB@256KiB"}) {
    auto st = parse_recipe_step(s);
    ASSERT_TRUE(st) << s << ": " << st.error().message;
    EXPECT_EQ(to_string(*st), s);
  }
  auto st = parse_recipe_step("end-22+22");
  ASSERT_TRUE(st);
  EXPECT_TRUE(st->from_end);
  EXPECT_EQ(st->offset, 22u);
  EXPECT_EQ(st->length, 22u);
}

TEST(Recipe, BadStepsAreRefusedWithTheirText) {
  for (const char* s : {"", "4KiB", "+4KiB", "0+", "0+0", "x+4KiB", "0+4KiB/0", "0+rest~", "end-+4",
                        "0+4KiB/lots", "0+rest+4", "0+rest-x"}) {
    auto st = parse_recipe_step(s);
    ASSERT_FALSE(st) << s;
    EXPECT_NE(st.error().message.find("\"" + std::string(s) + "\""), std::string::npos)
        << st.error().message;
  }
}

// numpy.load of an .npz as traced (tests/pytorch/recipe_reader.py): the recipe gives the same
// requests on the traced file size, and follows another size (offsets from the end move with it).
TEST(Recipe, NpzRecipeGivesTheTracedRequests) {
  const Recipe r = parse({"0+4KiB", "end-22+22", "end-42+42", "end-124+124", "0+8KiB/4KiB",
                          "0+8KiB/4KiB", "8KiB+rest~4KiB"});
  const Reqs traced = {{0, 4096},    {122332, 22}, {122312, 42}, {122230, 124},  {0, 4096},
                       {4096, 4096}, {0, 4096},    {4096, 4096}, {8192, 110592}, {118784, 3570}};
  EXPECT_EQ(recipe_requests(r, 122354), traced);
  const Reqs other = recipe_requests(r, 58866);
  ASSERT_EQ(other.size(), 10u);
  EXPECT_EQ(other[1], (RecipeRequest{58844, 22}));
  EXPECT_EQ(other[8], (RecipeRequest{8192, 49152}));
  EXPECT_EQ(other[9], (RecipeRequest{57344, 1522}));
}

TEST(Recipe, ChunksSplitTheRestAndTheBufferLimitsEveryRequest) {
  const Recipe jpeg = parse({"0+4KiB", "4KiB+rest/60KiB"});
  EXPECT_EQ(recipe_requests(jpeg, 41557), (Reqs{{0, 4096}, {4096, 37461}}));
  EXPECT_EQ(recipe_requests(jpeg, 200000),
            (Reqs{{0, 4096}, {4096, 61440}, {65536, 61440}, {126976, 61440}, {188416, 11584}}));
  // A buffer smaller than a chunk splits it further.
  EXPECT_EQ(recipe_requests(parse({"0+rest"}), 10000, 4096),
            (Reqs{{0, 4096}, {4096, 4096}, {8192, 1808}}));
}

// Generated files of any size: offsets past the end read nothing, lengths stop at the end, an
// offset back past the start starts at 0; no request is empty or leaves the file.
TEST(Recipe, StepsClampToTheFile) {
  const Recipe r = parse({"0+4KiB", "end-64KiB+64KiB", "100KiB+8KiB", "30+rest~4KiB"});
  for (std::uint64_t size : {0ull, 1ull, 22ull, 4095ull, 4096ull, 70000ull, 1ull << 20}) {
    SCOPED_TRACE(size);
    for (const RecipeRequest& q : recipe_requests(r, size)) {
      EXPECT_GT(q.length, 0u);
      EXPECT_LE(q.offset + q.length, size);
    }
  }
  EXPECT_EQ(recipe_requests(r, 1000), (Reqs{{0, 1000}, {0, 1000}, {30, 970}}));
  // rest-N: up to N bytes before the end; nothing when the file ends before the step begins.
  EXPECT_EQ(recipe_requests(parse({"4KiB+rest-357"}), 159397), (Reqs{{4096, 154944}}));
  EXPECT_TRUE(recipe_requests(parse({"4KiB+rest-357"}), 4200).empty());
  // ~4KiB: the whole blocks in one request, then the tail.
  EXPECT_EQ(recipe_requests(parse({"30+rest~4KiB"}), 10000), (Reqs{{30, 8162}, {8192, 1808}}));
}

// @ALIGN~BLOCK: pieces between multiples of 256 KiB, each begun on a multiple with a 4 KiB head,
// the last piece's tail past the last 4 KiB boundary apart (numpy's reads of an npz member).
TEST(Recipe, AlignedPiecesWithAHead) {
  EXPECT_EQ(recipe_requests(parse({"8KiB+rest@256KiB~4KiB"}), 600000), (Reqs{{8192, 253952},
                                                                             {262144, 4096},
                                                                             {266240, 258048},
                                                                             {524288, 4096},
                                                                             {528384, 69632},
                                                                             {598016, 1984}}));
  // Without ~BLOCK: pieces only.
  EXPECT_EQ(recipe_requests(parse({"100+rest@256KiB"}), 600000),
            (Reqs{{100, 262044}, {262144, 262144}, {524288, 75712}}));
}

// The per-library keys are special cases: probe, header and request size as steps.
TEST(Recipe, LegacyKeysAreARecipe) {
  EXPECT_EQ(recipe_requests(legacy_recipe(4096, 128, 0), 10000),
            (Reqs{{0, 4096}, {0, 128}, {128, 9872}}));
  EXPECT_EQ(recipe_requests(legacy_recipe(0, 0, 4096), 9000),
            (Reqs{{0, 4096}, {4096, 4096}, {8192, 808}}));
  EXPECT_EQ(recipe_requests(legacy_recipe(0, 0, 0), 9000), (Reqs{{0, 9000}}));
}

const char* kJob = R"([dataset]
dir = "d"
sample_size = "1MiB"

[reader]
recipe = ["0+4KiB", "end-22+22",
          "4KiB+rest/64KiB"]
)";

TEST(Recipe, JobFilesReadAndWriteIt) {
  auto job = parse_job(kJob, "x.toml");
  ASSERT_TRUE(job) << job.error().message;
  EXPECT_EQ(job->reader.recipe, parse({"0+4KiB", "end-22+22", "4KiB+rest/64KiB"}));
  auto back = parse_job(to_toml(*job), "y.toml");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->reader.recipe, job->reader.recipe);
  // Old jobs have none.
  auto old = parse_job("[dataset]\ndir = \"d\"\nsample_size = \"1MiB\"\n", "z.toml");
  ASSERT_TRUE(old);
  EXPECT_TRUE(old->reader.recipe.empty());
}

TEST(Recipe, JobFileErrorsNameFileLineAndStep) {
  std::string bad = kJob;
  bad.replace(bad.find("end-22+22"), 9, "end-22+x");
  auto job = parse_job(bad, "x.toml");
  ASSERT_FALSE(job);
  EXPECT_NE(job.error().message.find("x.toml:6: reader.recipe[1]: \"end-22+x\""), std::string::npos)
      << job.error().message;
  auto both = parse_job(std::string(kJob) + "request_size = \"1MiB\"\n", "x.toml");
  ASSERT_FALSE(both);
  EXPECT_NE(both.error().message.find("replaces probe, header_read and request_size"),
            std::string::npos)
      << both.error().message;
}

}  // namespace
}  // namespace dlgen
