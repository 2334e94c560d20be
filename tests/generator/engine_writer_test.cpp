// The generator writes through the engines of the registry (generator/src/writer.hpp): every
// engine that writes files produces, for every format, exactly the bytes of the codec (the
// datasets' checksums and manifests do not depend on the engine), with large files (O_DIRECT,
// whole-block requests, a zip CRC patched after its member spans buffers, an hdf5 skeleton ahead
// of unaligned rows) and small ones; an engine that writes nothing is refused before any I/O.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "dlgen/datasets/codec.hpp"
#include "dlgen/datasets/layout.hpp"
#include "dlgen/engine/registry.hpp"
#include "dlgen/generator/generator.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using dlgen::DatasetSpec;
using dlgen::DistKind;
using dlgen::Distribution;
using dlgen::ErrorKind;
using dlgen::Format;
using dlgen::datasets::Layout;
using dlgen::generator::ensure_dataset;
using dlgen::generator::GenerateOptions;
using dlgen::testing::TempDir;

namespace {

std::vector<std::uint8_t> read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The engines of the registry that write local files (uring, pread today), by capability. An
// object store's engine (s3: posix_fd = false) writes datasets as objects, tested against a real
// server in tests/s3 (S3Run.*).
std::vector<std::string> writing_engines() {
  std::vector<std::string> names;
  for (const dlgen::engine::EngineOps& e : dlgen::engine::registry())
    if (e.caps.writes && !e.caps.diskless && e.caps.posix_fd) names.push_back(e.name);
  return names;
}

// HDF5 object headers carry their creation times (seconds since 1970) and checksums over them: two
// files written in different seconds differ there. Such a file's metadata (before the rows) may
// differ in a few bytes; its rows must be identical.
std::size_t metadata_differences(const std::vector<std::uint8_t>& a,
                                 const std::vector<std::uint8_t>& b, std::uint64_t rows_at) {
  std::size_t n = 0;
  for (std::uint64_t k = 0; k < rows_at && k < a.size() && k < b.size(); ++k) n += a[k] != b[k];
  return n;
}

struct Shape {
  const char* name;
  Format format;
  std::uint32_t samples;
  Distribution size;
};

std::vector<Shape> shapes() {
  Distribution varied;
  varied.kind = DistKind::lognormal;
  varied.mean = 600e3;
  varied.stdev = 200e3;
  return {
      {"raw-large", Format::raw, 1, Distribution::fixed_at(2.5 * (1 << 20) + 123)},
      {"raw-small", Format::raw, 1, Distribution::fixed_at(3000)},
      {"npz-large", Format::npz, 3, Distribution::fixed_at(700e3)},
      {"npz-varied", Format::npz, 3, varied},
      {"hdf5-large", Format::hdf5, 3, Distribution::fixed_at(700e3)},
      {"hdf5-varied", Format::hdf5, 3, varied},
      {"jpeg", Format::jpeg, 1, Distribution::fixed_at(1.5 * (1 << 20))},
      {"tfrecord", Format::tfrecord, 4, Distribution::fixed_at(400e3)},
  };
}

}  // namespace

TEST(GeneratorEngines, EveryWritingEngineWritesTheCodecsBytesInEveryFormat) {
  TempDir t;
  for (const std::string& engine : writing_engines()) {
    if (dlgen::Result<void> p = dlgen::engine::probe(engine); !p)
      GTEST_SKIP() << engine << ": " << p.error().message;
    for (const Shape& shape : shapes()) {
      DatasetSpec s;
      s.dir = t.path() / (engine + "-" + shape.name);
      s.format = shape.format;
      s.num_files = 5;
      s.samples_per_file = shape.samples;
      s.sample_size = shape.size;
      s.seed = 11;
      s.files_per_dir = 2;
      GenerateOptions o;
      o.threads = 2;
      o.progress = false;
      o.engine = engine;
      auto r = ensure_dataset(s, o);
      ASSERT_TRUE(r) << engine << " " << shape.name << ": " << r.error().message;
      EXPECT_EQ(r->files_written, 5u);
      const Layout l(s);
      EXPECT_EQ(r->bytes_written, l.total_bytes());
      for (std::uint64_t i = 0; i < l.num_files(); ++i) {
        dlgen::Result<std::vector<std::uint8_t>> want = dlgen::datasets::encode_to_memory(l, i);
        ASSERT_TRUE(want) << want.error().message;
        std::vector<std::uint8_t> got = read_all(l.path(i));
        ASSERT_EQ(got.size(), want->size()) << engine << " " << l.path(i);
        if (shape.format == Format::hdf5) {
          const std::uint64_t rows = l.sample_extent(i, 0).offset;
          EXPECT_LE(metadata_differences(got, *want, rows), 48u) << engine << " " << l.path(i);
          std::copy_n(want->begin(), rows, got.begin());
        }
        const auto diff = std::mismatch(got.begin(), got.end(), want->begin());
        EXPECT_TRUE(diff.first == got.end())
            << engine << " " << l.path(i) << ": bytes differ from " << (diff.first - got.begin());
      }
      EXPECT_TRUE(dlgen::generator::dataset_ready(s)) << engine << " " << shape.name;
    }
  }
}

TEST(GeneratorEngines, TheDefaultIsTheFirstWritingEngineThatRunsHere) {
  auto e = dlgen::generator::writer_engine("");
  ASSERT_TRUE(e) << e.error().message;
  EXPECT_TRUE((*e)->caps.writes);
  EXPECT_FALSE((*e)->caps.diskless);
  if (dlgen::engine::probe(dlgen::engine::default_name())) {
    EXPECT_EQ((*e)->name, dlgen::engine::default_name());
  }
}

// The null engine writes nothing: a dataset "generated" through it would be a manifest of files
// that are not there. Refused (input error) before the directory is even created.
TEST(GeneratorEngines, AnEngineThatWritesNothingOrAnUnknownOneIsRefusedBeforeAnyIo) {
  TempDir t;
  DatasetSpec s;
  s.dir = t.path() / "ds";
  s.num_files = 3;
  s.sample_size = Distribution::fixed_at(1000);
  for (const char* engine : {"null", "nosuch"}) {
    GenerateOptions o;
    o.progress = false;
    o.engine = engine;
    auto r = ensure_dataset(s, o);
    ASSERT_FALSE(r) << engine;
    EXPECT_EQ(r.error().kind, ErrorKind::bad_input) << r.error().message;
    EXPECT_FALSE(fs::exists(s.dir)) << engine;
  }
  EXPECT_NE(dlgen::generator::writer_engine("null").error().message.find("writes nothing"),
            std::string::npos);
}
