// The engine registry: lookup by name and alias, the CLI's lists, the error for an unknown name,
// capabilities, and every registered engine reading (and writing) a real file through its own
// open_file, so that an engine added to the table is exercised without a test of its own.
#include "dlgen/engine/registry.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <string>

#include "dlgen/engine/engine.hpp"
#include "temp_dir.hpp"

namespace dlgen::engine {
namespace {

TEST(Registry, ListsUringPreadAndNullWithUringTheDefault) {
  std::vector<std::string> names;
  for (const EngineOps& e : registry()) names.push_back(e.name);
  EXPECT_EQ(names, (std::vector<std::string>{"uring", "pread", "null", "s3"}));
  EXPECT_EQ(default_name(), "uring");
  for (const EngineOps& e : registry()) {
    EXPECT_FALSE(e.description.empty()) << e.name;
    EXPECT_NE(e.make, nullptr) << e.name;
  }
}

// The words of --help and of the bad --engine error, produced from the table (the golden --help
// output holds them).
TEST(Registry, ListsNamesInTheCliWords) {
  EXPECT_EQ(help_names(), "uring (default), pread, null, s3");
  EXPECT_EQ(expected_names(), "uring, pread, null or s3");
  // A verb that needs engines that write lists those only (generate: not null).
  EXPECT_EQ(help_names([](const EngineOps& e) { return e.caps.writes && !e.caps.diskless; }),
            "uring (default), pread, s3");
}

TEST(Registry, AliasesFindTheirEngine) {
  EXPECT_EQ(find("io_uring"), find("uring"));
  EXPECT_EQ(find("sync"), find("pread"));
  EXPECT_EQ(find("psync"), find("pread"));
  EXPECT_EQ(find(""), nullptr);
  EXPECT_EQ(find("URING"), nullptr);  // names are exact, as fio's
}

TEST(Registry, UnknownNameIsAnInputErrorThatListsTheNames) {
  EngineOptions o;
  o.buffers = 1;
  o.buffer_bytes = 4096;
  for (const Error& e : {make("aio", o).error(), probe("aio").error(), lookup("libaio").error()}) {
    EXPECT_EQ(e.kind, ErrorKind::bad_input);
    EXPECT_NE(e.message.find("expected uring, pread, null or s3"), std::string::npos) << e.message;
  }
  EXPECT_NE(make("aio", o).error().message.find("\"aio\""), std::string::npos);
}

TEST(Registry, CapabilitiesSayWhatEachEngineIs) {
  for (const char* posix : {"uring", "pread"}) {
    const Capabilities& c = find(posix)->caps;
    EXPECT_TRUE(c.posix_fd && c.direct_io && c.writes) << posix;
    EXPECT_FALSE(c.diskless) << posix;
  }
  const Capabilities& null = find("null")->caps;
  EXPECT_TRUE(null.diskless);
  EXPECT_TRUE(null.writes);
  EXPECT_FALSE(null.posix_fd);
  EXPECT_FALSE(null.direct_io);
  // An object store: reached through its open_file only, writes objects, needs a server.
  const Capabilities& s3 = find("s3")->caps;
  EXPECT_FALSE(s3.posix_fd || s3.direct_io || s3.diskless);
  EXPECT_TRUE(s3.writes);
}

// Runs one request to completion on `e`: its result.
std::int64_t run_one(IoEngine& e, const IoRequest& r) {
  if (e.submit(std::span(&r, 1)) != 1) return -EAGAIN;
  IoCompletion c;
  for (;;) {
    const int n = e.reap(std::span(&c, 1), 1);
    if (n == 1) return c.result;
    if (n < 0 && !transient_error(n)) return n;
  }
}

// Every registered engine of files (or of none) opens a real file by path, reads it, writes it and
// reads the write back; a diskless engine completes each request whole and leaves the file alone.
class EveryEngine : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryEngine, RoundTripsAReadAndAWriteOnARealFile) {
  const EngineOps& ops = *find(GetParam());
  if (ops.probe)
    if (Result<void> p = ops.probe(); !p) GTEST_SKIP() << p.error().message;
  dlgen::testing::TempDir tmp("dlgen-registry");
  const auto path = tmp / "f";
  std::string content(6000, '\0');
  for (std::size_t i = 0; i < content.size(); ++i) content[i] = static_cast<char>('A' + i % 23);
  std::ofstream(path, std::ios::binary) << content;
  EngineOptions o;
  o.depth = 2;
  o.buffers = 2;
  o.buffer_bytes = 8192;
  Result<std::unique_ptr<IoEngine>> made = make(ops.name, o);
  ASSERT_TRUE(made) << made.error().message;
  IoEngine& e = **made;

  int target = -1;
  ASSERT_EQ(e.open_file(path.c_str(), O_RDWR, target), 0);
  const std::int64_t n = run_one(e, {target, IoOp::read, 0, 8192, 0, 1});
  if (ops.caps.diskless) {
    EXPECT_EQ(n, 8192) << "a diskless engine completes every request whole";
  } else {
    ASSERT_EQ(n, 6000) << "a short read at the end of the file";
    EXPECT_EQ(std::memcmp(e.buffer(0), content.data(), content.size()), 0);
  }

  std::memset(e.buffer(1), 'z', 100);
  EXPECT_EQ(run_one(e, {target, IoOp::write, 1, 100, 50, 2}), 100);
  EXPECT_EQ(e.close_file(target), 0);
  std::ifstream in(path, std::ios::binary);
  const std::string after((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string expected = content;
  if (!ops.caps.diskless) expected.replace(50, 100, std::string(100, 'z'));
  EXPECT_EQ(after, expected);
}

INSTANTIATE_TEST_SUITE_P(Registered, EveryEngine, ::testing::ValuesIn([] {
                           std::vector<std::string> names;
                           for (const EngineOps& e : registry())
                             if (e.caps.posix_fd || e.caps.diskless) names.push_back(e.name);
                           return names;
                         }()),
                         [](const auto& info) { return info.param; });

TEST(NullEngine, OpensNothingAndClosesNothing) {
  EngineOptions o;
  o.buffers = 1;
  o.buffer_bytes = 4096;
  o.record = true;
  Result<std::unique_ptr<IoEngine>> e = make("null", o);
  ASSERT_TRUE(e);
  int target = 7;
  EXPECT_EQ((*e)->open_file("/no/such/file", O_RDONLY, target), 0);
  EXPECT_EQ(target, -1);
  EXPECT_EQ(run_one(**e, {target, IoOp::write, 0, 4096, 1 << 30, 3}), 4096);
  ASSERT_EQ((*e)->recorded().size(), 1u);
  EXPECT_EQ((*e)->recorded()[0].op, IoOp::write);
  EXPECT_EQ((*e)->close_file(target), 0);
}

}  // namespace
}  // namespace dlgen::engine
