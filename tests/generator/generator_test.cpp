#include "dlgen/generator/generator.hpp"

#include <gtest/gtest.h>
#include <sys/mount.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include "dlgen/core/json.hpp"
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "dlgen/datasets/layout.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using dlgen::DatasetSpec;
using dlgen::DistKind;
using dlgen::ErrorKind;
using dlgen::Format;
using dlgen::datasets::Layout;
using dlgen::generator::ensure_dataset;
using dlgen::generator::GenerateOptions;
using dlgen::testing::TempDir;

namespace {

DatasetSpec spec(const TempDir& t, Format f = Format::npz) {
  DatasetSpec s;
  s.dir = t.path() / "ds";
  s.format = f;
  s.num_files = 20;
  s.samples_per_file = 2;
  s.sample_size.kind = DistKind::lognormal;
  s.sample_size.mean = 30000;
  s.sample_size.stdev = 10000;
  s.seed = 5;
  s.files_per_dir = 8;
  return s;
}

GenerateOptions quiet(std::uint32_t threads = 2) {
  GenerateOptions o;
  o.threads = threads;
  o.progress = false;
  return o;
}

nlohmann::json manifest(const DatasetSpec& s) {
  std::ifstream in(s.dir / dlgen::generator::kManifestName);
  return nlohmann::json::parse(in);
}

}  // namespace

TEST(Generator, WritesEveryFileAtItsLayoutSizeAndAManifest) {
  TempDir t;
  for (Format f : {Format::raw, Format::npz, Format::hdf5, Format::jpeg, Format::tfrecord}) {
    DatasetSpec s = spec(t, f);
    s.dir = t.path() / dlgen::to_string(f);
    if (f == Format::jpeg) s.samples_per_file = 1;
    auto r = ensure_dataset(s, quiet());
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_FALSE(r->reused);
    EXPECT_EQ(r->files_written, 20u);
    const Layout l(s);
    EXPECT_EQ(r->bytes_written, l.total_bytes());
    for (std::uint64_t i = 0; i < l.num_files(); ++i)
      EXPECT_EQ(fs::file_size(l.path(i)), l.file_size(i)) << l.path(i);
    const auto m = manifest(s);
    EXPECT_TRUE(m.at("complete").get<bool>());
    EXPECT_EQ(m.at("fingerprint"), dlgen::generator::fingerprint(s));
    EXPECT_EQ(m.at("files").size(), 20u);
    EXPECT_EQ(m.at("files")[3].at("size").get<std::uint64_t>(), l.file_size(3));
    EXPECT_TRUE(dlgen::generator::dataset_ready(s));
    for (const auto& e : fs::recursive_directory_iterator(s.dir))
      EXPECT_EQ(e.path().string().find(".dlgen-tmp"), std::string::npos) << e.path();
  }
}

TEST(Generator, SingleFileMatchesTheDatasetFile) {
  TempDir t;
  const DatasetSpec s = spec(t);
  ASSERT_TRUE(ensure_dataset(s, quiet()));
  ASSERT_TRUE(dlgen::generator::generate_file(s, 7, t.path() / "one.npz"));
  std::ifstream a(t.path() / "one.npz", std::ios::binary), b(Layout(s).path(7), std::ios::binary);
  const std::string x((std::istreambuf_iterator<char>(a)), {}),
      y((std::istreambuf_iterator<char>(b)), {});
  EXPECT_EQ(x, y);
}

TEST(Generator, ThreadCountDoesNotChangeTheBytes) {
  TempDir t1, t2;
  const DatasetSpec a = spec(t1), b = spec(t2);
  ASSERT_TRUE(ensure_dataset(a, quiet(1)));
  ASSERT_TRUE(ensure_dataset(b, quiet(4)));
  for (std::uint64_t i : {0u, 13u, 19u}) {
    std::ifstream x(Layout(a).path(i), std::ios::binary), y(Layout(b).path(i), std::ios::binary);
    EXPECT_EQ(std::string((std::istreambuf_iterator<char>(x)), {}),
              std::string((std::istreambuf_iterator<char>(y)), {}));
  }
}

TEST(Generator, ReusesAMatchingDataset) {
  TempDir t;
  const DatasetSpec s = spec(t);
  ASSERT_TRUE(ensure_dataset(s, quiet()));
  const auto before = fs::last_write_time(Layout(s).path(0));
  auto r = ensure_dataset(s, quiet());
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->reused);
  EXPECT_EQ(r->files_written, 0u);
  EXPECT_EQ(fs::last_write_time(Layout(s).path(0)), before);
  // The dataset moved elsewhere is still the same dataset (dir is not in the fingerprint).
  DatasetSpec moved = s;
  moved.dir = t.path() / "elsewhere";
  EXPECT_EQ(dlgen::generator::fingerprint(moved), dlgen::generator::fingerprint(s));
}

TEST(Generator, RewritesMissingOrDamagedFiles) {
  TempDir t;
  const DatasetSpec s = spec(t);
  ASSERT_TRUE(ensure_dataset(s, quiet()));
  const Layout l(s);
  fs::resize_file(l.path(4), 10);
  fs::remove(l.path(9));
  EXPECT_FALSE(dlgen::generator::dataset_ready(s));
  auto r = ensure_dataset(s, quiet());
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_FALSE(r->reused);
  EXPECT_EQ(r->files_written, 2u);  // the rest is kept
  EXPECT_EQ(fs::file_size(l.path(4)), l.file_size(4));
  EXPECT_TRUE(dlgen::generator::dataset_ready(s));
}

TEST(Generator, RegeneratesAStaleDatasetDeletingOnlyItsOwnFiles) {
  TempDir t;
  DatasetSpec s = spec(t);
  ASSERT_TRUE(ensure_dataset(s, quiet()));
  s.num_files = 10;
  s.seed = 6;
  s.files_per_dir = 0;
  EXPECT_FALSE(dlgen::generator::dataset_ready(s));
  auto r = ensure_dataset(s, quiet());
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->files_written, 10u);
  EXPECT_FALSE(fs::exists(spec(t).dir / Layout(spec(t)).relative_path(15)));  // old file gone
  EXPECT_EQ(manifest(s).at("fingerprint"), dlgen::generator::fingerprint(s));
  EXPECT_TRUE(dlgen::generator::dataset_ready(s));
}

TEST(Generator, RefusesADirectoryWithoutAManifest) {
  TempDir t;
  const DatasetSpec s = spec(t);
  fs::create_directories(s.dir);
  std::ofstream(s.dir / "precious.txt") << "mine";
  auto r = ensure_dataset(s, quiet());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::bad_input);
  EXPECT_NE(r.error().message.find("precious.txt"), std::string::npos) << r.error().message;
  EXPECT_EQ(std::distance(fs::directory_iterator(s.dir), fs::directory_iterator()), 1);
}

TEST(Generator, RefusesAFileWithAPlannedNameItDidNotWrite) {
  TempDir t;
  const DatasetSpec s = spec(t);
  const fs::path planned = Layout(s).path(3);
  fs::create_directories(planned.parent_path());
  std::ofstream(planned) << "user data";
  auto r = ensure_dataset(s, quiet());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::bad_input);
  std::ifstream in(planned);
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(in)), {}), "user data");
}

TEST(Generator, RefusesToRegenerateWhenForeignFilesAppeared) {
  TempDir t;
  DatasetSpec s = spec(t);
  ASSERT_TRUE(ensure_dataset(s, quiet()));
  const fs::path foreign = s.dir / "00001" / "notes.md";
  std::ofstream(foreign) << "keep me";
  s.seed = 99;  // stale now
  auto r = ensure_dataset(s, quiet());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::bad_input);
  EXPECT_TRUE(fs::exists(foreign));
  EXPECT_TRUE(fs::exists(Layout(spec(t)).path(0)));  // nothing deleted either
  // A matching dataset is still reused: extra files do not make it wrong.
  s.seed = 5;
  auto again = ensure_dataset(s, quiet());
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_TRUE(again->reused);
}

TEST(Generator, RecoversFromAnInterruptedRun) {
  TempDir t;
  const DatasetSpec s = spec(t);
  ASSERT_TRUE(ensure_dataset(s, quiet()));
  const Layout l(s);
  // Simulate a crash: manifest not complete, one half-written temporary, one file missing.
  auto m = manifest(s);
  m["complete"] = false;
  std::ofstream(s.dir / dlgen::generator::kManifestName) << m.dump();
  fs::remove(l.path(2));
  std::ofstream(l.path(2).string() + ".dlgen-tmp") << "half";
  EXPECT_FALSE(dlgen::generator::dataset_ready(s));
  auto r = ensure_dataset(s, quiet());
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->files_written, 1u);
  EXPECT_FALSE(fs::exists(l.path(2).string() + ".dlgen-tmp"));
  EXPECT_TRUE(dlgen::generator::dataset_ready(s));
}

TEST(Generator, ForceRegeneratesOwnFiles) {
  TempDir t;
  const DatasetSpec s = spec(t);
  ASSERT_TRUE(ensure_dataset(s, quiet()));
  GenerateOptions o = quiet();
  o.force = true;
  auto r = ensure_dataset(s, o);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_FALSE(r->reused);
  EXPECT_EQ(r->files_written, 20u);
}

TEST(Generator, FingerprintCoversEveryByteAffectingField) {
  TempDir t;
  const DatasetSpec base = spec(t);
  const std::string fp = dlgen::generator::fingerprint(base);
  auto changed = [&](auto edit) {
    DatasetSpec s = base;
    edit(s);
    return dlgen::generator::fingerprint(s) != fp;
  };
  EXPECT_TRUE(changed([](DatasetSpec& s) { s.format = Format::raw; }));
  EXPECT_TRUE(changed([](DatasetSpec& s) { s.num_files = 21; }));
  EXPECT_TRUE(changed([](DatasetSpec& s) { s.samples_per_file = 3; }));
  EXPECT_TRUE(changed([](DatasetSpec& s) { s.seed = 1; }));
  EXPECT_TRUE(changed([](DatasetSpec& s) { s.files_per_dir = 0; }));
  EXPECT_TRUE(changed([](DatasetSpec& s) { s.file_prefix = "img"; }));
  EXPECT_TRUE(changed([](DatasetSpec& s) { s.sample_size.stdev = 10000.5; }));
  EXPECT_TRUE(changed([](DatasetSpec& s) { s.sample_size.max = 90000; }));
  EXPECT_FALSE(changed([](DatasetSpec& s) { s.dir = "/elsewhere"; }));
}

// Dataset content must not flatter storage that compresses or deduplicates: no 4 KiB block of
// the data repeats, within a file or across files, and zlib cannot shrink the files.
TEST(Generator, ContentIsNeitherDedupableNorCompressible) {
  TempDir t;
  DatasetSpec s = spec(t, Format::raw);
  s.num_files = 12;
  s.samples_per_file = 1;
  s.sample_size = dlgen::Distribution::fixed_at(256 << 10);
  ASSERT_TRUE(ensure_dataset(s, quiet()));
  const Layout l(s);
  std::set<std::string> seen;
  std::uint64_t repeats = 0;
  for (std::uint64_t i = 0; i < l.num_files(); ++i) {
    std::ifstream in(l.path(i), std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    ASSERT_EQ(bytes.size(), l.file_size(i));
    for (std::size_t o = 0; o + 4096 <= bytes.size(); o += 4096)
      repeats += !seen.insert(bytes.substr(o, 4096)).second;
    uLongf n = compressBound(bytes.size());
    std::vector<unsigned char> out(n);
    ASSERT_EQ(
        compress2(out.data(), &n, reinterpret_cast<const Bytef*>(bytes.data()), bytes.size(), 6),
        Z_OK);
    EXPECT_GT(static_cast<double>(n) / static_cast<double>(bytes.size()), 0.99) << l.path(i);
  }
  EXPECT_EQ(repeats, 0u);
  EXPECT_GE(seen.size(), 12u * 64u);
}

// Two dlgen processes preparing the same directory take turns on a lock on it: the second waits,
// then reuses what the first wrote (before, it deleted the first one's temporaries under it:
// "rename: No such file or directory"). Threads with their own opens contend like processes.
TEST(Generator, TwoPreparingTheSameDirectoryTakeTurns) {
  TempDir t;
  DatasetSpec s = spec(t, Format::raw);
  s.num_files = 300;
  for (int round = 0; round < 3; ++round) {
    s.seed = 100 + round;  // a new fingerprint each round: the first one in regenerates
    dlgen::Result<dlgen::generator::GenerateReport> a = dlgen::input_error("not run"), b = a;
    std::thread ta([&] { a = ensure_dataset(s, quiet(1)); });
    std::thread tb([&] { b = ensure_dataset(s, quiet(1)); });
    ta.join();
    tb.join();
    ASSERT_TRUE(a) << a.error().message;
    ASSERT_TRUE(b) << b.error().message;
    EXPECT_NE(a->reused, b->reused) << "one writes, the other reuses";
    EXPECT_TRUE(dlgen::generator::dataset_ready(s));
    const Layout l(s);
    for (std::uint64_t i = 0; i < l.num_files(); ++i) ASSERT_EQ(fs::file_size(l.path(i)), l.file_size(i));
  }
}

// Several processes writing one dataset (the ranks of a multi-host run): the leader begins, each
// writes its share (file i on share i mod N), the leader finishes. The shares together write
// every file once, byte-identical to a single process's dataset, with one complete manifest; the
// dataset is not ready before the leader finishes.
TEST(Generator, SharesWrittenByThreeProcessesMakeTheSameDatasetWithOneManifest) {
  TempDir t1, t2;
  const DatasetSpec a = spec(t1), b = spec(t2);
  ASSERT_TRUE(ensure_dataset(a, quiet()));
  auto prepared = dlgen::generator::begin_dataset(b, quiet());
  ASSERT_TRUE(prepared);
  ASSERT_FALSE(prepared->reused);
  std::uint64_t files = 0;
  for (std::uint32_t r = 0; r < 3; ++r) {
    auto w = dlgen::generator::write_dataset_share(b, prepared->resume, {r, 3}, quiet());
    ASSERT_TRUE(w) << w.error().message;
    EXPECT_EQ(w->files_written, (20u - r + 2) / 3) << "share " << r;  // 7, 7, 6
    files += w->files_written;
  }
  EXPECT_EQ(files, 20u);
  EXPECT_FALSE(dlgen::generator::dataset_ready(b));  // no complete manifest yet
  ASSERT_TRUE(dlgen::generator::finish_dataset(b, *prepared));
  EXPECT_TRUE(dlgen::generator::dataset_ready(b));
  EXPECT_TRUE(manifest(b)["complete"].get<bool>());
  for (std::uint64_t i = 0; i < 20; ++i) {
    std::ifstream x(Layout(a).path(i), std::ios::binary), y(Layout(b).path(i), std::ios::binary);
    EXPECT_EQ(std::string((std::istreambuf_iterator<char>(x)), {}),
              std::string((std::istreambuf_iterator<char>(y)), {}))
        << "file " << i;
  }
  // The leader's next begin finds it complete and reuses it (what every rank is then told).
  auto again = dlgen::generator::begin_dataset(b, quiet());
  ASSERT_TRUE(again);
  EXPECT_TRUE(again->reused);
}

// Issue 17, item 1, as reproduced there: a dataset directory holding only a planted manifest
// that lists a file outside by its absolute path and another through "..". Before the fix the
// fingerprint mismatch deleted both. Now the manifest is refused (input error: exit 2) and
// nothing is touched, inside or outside.
TEST(Generator, APlantedManifestNamingFilesOutsideDeletesNothing) {
  TempDir t;
  const DatasetSpec s = spec(t);
  const fs::path victim = t.path() / "victim", victim2 = t.path() / "victim2";
  std::ofstream(victim) << "precious";
  std::ofstream(victim2) << "x";
  fs::create_directories(s.dir);
  const nlohmann::json planted = {
      {"fingerprint", "x"},
      {"complete", true},
      {"files", {{{"path", victim.string()}, {"size", 9}}, {{"path", "../victim2"}, {"size", 1}}}}};
  std::ofstream(s.dir / dlgen::generator::kManifestName) << planted.dump();
  auto r = ensure_dataset(s, quiet());
  ASSERT_FALSE(r) << "wrote " << r->files_written << " files";
  EXPECT_EQ(r.error().kind, ErrorKind::bad_input);
  EXPECT_NE(r.error().message.find("not a plain relative path"), std::string::npos)
      << r.error().message;
  EXPECT_TRUE(fs::exists(victim));
  EXPECT_TRUE(fs::exists(victim2));
  EXPECT_EQ(std::distance(fs::directory_iterator(s.dir), fs::directory_iterator()), 1);
  // Either path alone is refused as well.
  for (const nlohmann::json& f : {planted["files"][0], planted["files"][1]}) {
    nlohmann::json one = planted;
    one["files"] = nlohmann::json::array({f});
    std::ofstream(s.dir / dlgen::generator::kManifestName) << one.dump();
    auto again = ensure_dataset(s, quiet());
    ASSERT_FALSE(again);
    EXPECT_EQ(again.error().kind, ErrorKind::bad_input);
  }
  EXPECT_TRUE(fs::exists(victim));
  EXPECT_TRUE(fs::exists(victim2));
}

// A manifest naming a directory (not a file dlgen wrote) is a lie too: refused, nothing deleted.
TEST(Generator, AManifestNamingADirectoryIsRefused) {
  TempDir t;
  DatasetSpec s = spec(t);
  ASSERT_TRUE(ensure_dataset(s, quiet()));
  auto m = manifest(s);
  m["fingerprint"] = "stale";
  m["files"].push_back({{"path", "00001"}, {"size", 1}});
  std::ofstream(s.dir / dlgen::generator::kManifestName) << m.dump();
  auto r = ensure_dataset(s, quiet());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::bad_input) << r.error().message;
  EXPECT_TRUE(fs::exists(Layout(s).path(0)));  // nothing deleted
}

// Issue 17, item 2: a directory of the dataset swapped for a symbolic link to a directory
// outside, between the leader's begin and a process's write. Before the fix the files were
// created through the link, outside the dataset; now the write is refused and the outside
// directory stays empty.
TEST(Generator, ASubdirectorySwappedForALinkIsNotWrittenThrough) {
  TempDir t;
  const DatasetSpec s = spec(t);
  auto prepared = dlgen::generator::begin_dataset(s, quiet());
  ASSERT_TRUE(prepared) << prepared.error().message;
  const fs::path outside = t.path() / "outside", sub = s.dir / Layout(s).relative_dir(0);
  fs::create_directories(outside);
  fs::remove_all(sub);
  fs::create_directory_symlink(outside, sub);
  auto w = dlgen::generator::write_dataset_share(s, prepared->resume, {}, quiet());
  EXPECT_FALSE(w);
  EXPECT_TRUE(fs::is_empty(outside)) << "files were created through the link";
}

// A link planted at the path a single file is written to is refused, not written through.
TEST(Generator, ALinkAtTheOutputPathIsNotWrittenThrough) {
  TempDir t;
  const DatasetSpec s = spec(t);
  const fs::path target = t.path() / "target", link = t.path() / "one.npz";
  std::ofstream(target) << "keep";
  fs::create_symlink(target, link);
  EXPECT_FALSE(dlgen::generator::generate_file(s, 7, link));
  std::ifstream in(target);
  EXPECT_TRUE(std::string((std::istreambuf_iterator<char>(in)), {}) == "keep")
      << "the link's target was overwritten";
}

// Issue 17, item 3: a dataset larger than the free space is refused before anything is written,
// with the bytes needed and available (a 256 KiB tmpfs; root only, as mount(2) needs).
TEST(Generator, RefusesADatasetLargerThanTheFreeSpace) {
  TempDir t;
  const fs::path mnt = t.path() / "small";
  fs::create_directories(mnt);
  if (::mount("dlgen-test", mnt.c_str(), "tmpfs", 0, "size=256k") != 0)
    GTEST_SKIP() << "cannot mount a small tmpfs here (" << std::strerror(errno) << ")";
  struct Unmount {
    fs::path p;
    ~Unmount() { ::umount2(p.c_str(), MNT_DETACH); }
  } unmount{mnt};
  DatasetSpec s = spec(t);
  s.dir = mnt / "ds";  // 20 files of ~60 KB: ~1.2 MB
  auto r = ensure_dataset(s, quiet());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::runtime) << r.error().message;
  EXPECT_NE(r.error().message.find("are available"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("needs"), std::string::npos) << r.error().message;
  std::uint64_t files = 0;
  for (const auto& e : fs::recursive_directory_iterator(s.dir)) files += e.is_regular_file();
  EXPECT_EQ(files, 0u) << "nothing is written before the refusal";
}
