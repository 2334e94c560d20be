// Runs one fuzz target's entry function over its seed corpus and every kept crash
// (tests/fuzz/regressions/<target>/) in the ordinary build, so a regression is caught without
// clang or libFuzzer. The target's LLVMFuzzerTestOneInput aborts on a broken property.
#include <gtest/gtest.h>

#include <algorithm>
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

// The inputs kept in `dir` (every regular file below it but a README), sorted; none when `dir` is
// missing.
std::vector<fs::path> inputs(const fs::path& dir) {
  std::vector<fs::path> files;
  if (!fs::exists(dir)) return files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().filename() != "README.md") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

// Runs the entry function over every input of `dir`; returns how many calls returned.
int run_all(const fs::path& dir) {
  int n = 0;
  for (const auto& f : inputs(dir)) {
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

// Every kept input runs: a folder that moved, or a target whose inputs are never found, fails
// here instead of passing with nothing run. The HDF5 target keeps no binary files: its regressions
// are the text target's, written as HDF5 traces (each of them parses), so the same traces reach
// inspect through the HDF5 reader.
TEST(Fuzz, Regressions) {
  if (std::string(kTarget) == "trace_h5") {
    const std::size_t kept = inputs(kFuzz / "regressions/trace_text").size();
    ASSERT_GT(kept, 0u) << "no regressions in " << (kFuzz / "regressions/trace_text");
    dlgen::testing::TempDir dir;
    ASSERT_EQ(dlgen::fuzz::make_h5_seeds(kFuzz / "regressions/trace_text", dir / "h5"),
              static_cast<int>(kept));
    EXPECT_EQ(run_all(dir / "h5"), static_cast<int>(kept));
    return;
  }
  const fs::path dir = kFuzz / "regressions" / kTarget;
  const std::size_t kept = inputs(dir).size();
  ASSERT_GT(kept, 0u) << "no regressions in " << dir;
  EXPECT_EQ(run_all(dir), static_cast<int>(kept));
}

}  // namespace
