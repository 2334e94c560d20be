// Runs one fuzz target's entry function over its seed corpus and every kept crash
// (tests/fuzz/regressions/<target>/) in the ordinary build, so a regression is caught without
// clang or libFuzzer. The target's LLVMFuzzerTestOneInput aborts on a broken property.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "h5_seeds.hpp"
#include "temp_dir.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

namespace fs = std::filesystem;
const fs::path kFuzz = fs::path(DLGEN_SOURCE_DIR) / "tests/fuzz";
constexpr const char* kTarget = DLGEN_FUZZ_TARGET;

int run_all(const fs::path& dir) {
  int n = 0;
  if (!fs::exists(dir)) return 0;
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().filename() != "README.md") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    SCOPED_TRACE(f.string());
    std::ifstream in(f, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), {});
    EXPECT_EQ(
        LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()),
        0);
    ++n;
  }
  return n;
}

TEST(Fuzz, SeedCorpus) {
  if (std::string(kTarget) == "trace_h5") {
    dlgen::testing::TempDir dir;
    ASSERT_GT(dlgen::fuzz::make_h5_seeds(kFuzz / "corpus/trace_text", dir / "seeds"), 3);
    EXPECT_GT(run_all(dir / "seeds"), 3);
  } else {
    EXPECT_GT(run_all(kFuzz / "corpus" / kTarget), 3);
  }
}

TEST(Fuzz, Regressions) {
  run_all(kFuzz / "regressions" / kTarget);
}

}  // namespace
