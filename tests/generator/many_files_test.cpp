// Datasets of many small files (MLPerf v3.0 retinanet has 1,170,301): the directory layout is the
// layout's (files_per_dir files a subdirectory, every file in its place, nothing else left), the
// manifest lists every file once at its size, a current dataset is reused and a damaged one
// resumed. Counts are small enough for a unit test; bench/generator/many_files.sh measures the
// full count.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include "dlgen/core/json.hpp"
#include <set>
#include <string>

#include "dlgen/datasets/layout.hpp"
#include "dlgen/generator/generator.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using dlgen::DatasetSpec;
using dlgen::Distribution;
using dlgen::Format;
using dlgen::datasets::Layout;
using dlgen::generator::ensure_dataset;
using dlgen::generator::GenerateOptions;
using dlgen::testing::TempDir;

TEST(GeneratorManyFiles, TwentyThousandTinyFilesMakeTheLayoutsTreeAndAFullManifest) {
  TempDir t;
  DatasetSpec s;
  s.dir = t.path() / "retina";
  s.format = Format::raw;
  s.num_files = 20000;
  s.sample_size = Distribution::fixed_at(64);
  s.seed = 3;
  s.files_per_dir = 1000;
  GenerateOptions o;
  o.threads = 2;
  o.progress = false;
  auto r = ensure_dataset(s, o);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->files_written, 20000u);
  EXPECT_EQ(r->bytes_written, 20000u * 64u);

  // The tree: 20 subdirectories of 1000 files each, every file the layout's, nothing else but
  // the manifest (no temporaries).
  const Layout l(s);
  std::map<std::string, std::uint64_t> per_dir;
  std::set<std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(s.dir)) {
    const std::string rel = e.path().lexically_relative(s.dir).string();
    if (e.is_directory()) {
      EXPECT_EQ(e.path().parent_path(), s.dir) << "one level of subdirectories: " << rel;
      continue;
    }
    if (rel == dlgen::generator::kManifestName) continue;
    ASSERT_TRUE(e.is_regular_file()) << rel;
    EXPECT_EQ(e.file_size(), 64u) << rel;
    ++per_dir[e.path().parent_path().filename().string()];
    files.insert(rel);
  }
  EXPECT_EQ(files.size(), 20000u);
  ASSERT_EQ(per_dir.size(), 20u);
  for (const auto& [dir, n] : per_dir) EXPECT_EQ(n, 1000u) << dir;
  for (std::uint64_t i = 0; i < l.num_files(); i += 997)
    EXPECT_TRUE(files.count(l.relative_path(i).string())) << i;

  // The manifest: complete, every file once, at its size.
  std::ifstream in(s.dir / dlgen::generator::kManifestName);
  const nlohmann::json m = nlohmann::json::parse(in);
  EXPECT_TRUE(m.at("complete").get<bool>());
  ASSERT_EQ(m.at("files").size(), 20000u);
  std::set<std::string> listed;
  for (const auto& f : m.at("files")) {
    EXPECT_EQ(f.at("size").get<std::uint64_t>(), 64u);
    listed.insert(f.at("path").get<std::string>());
  }
  EXPECT_EQ(listed, files);
  EXPECT_EQ(m.at("total_bytes").get<std::uint64_t>(), l.total_bytes());

  // Current: reused, nothing written. One file lost: only it is written again.
  EXPECT_TRUE(dlgen::generator::dataset_ready(s));
  auto again = ensure_dataset(s, o);
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_TRUE(again->reused);
  fs::remove(l.path(12345));
  auto resumed = ensure_dataset(s, o);
  ASSERT_TRUE(resumed) << resumed.error().message;
  EXPECT_EQ(resumed->files_written, 1u);
  EXPECT_TRUE(dlgen::generator::dataset_ready(s));
}
