#include "dlgen/core/units.hpp"

#include <gtest/gtest.h>

namespace dlgen {
namespace {

std::uint64_t size(std::string_view s) {
  auto r = parse_size(s);
  EXPECT_TRUE(r.has_value()) << s;
  return r ? *r : 0;
}

double dur(std::string_view s) {
  auto r = parse_duration_s(s);
  EXPECT_TRUE(r.has_value()) << s;
  return r ? *r : -1;
}

TEST(Units, SizesBinaryAndDecimal) {
  EXPECT_EQ(size("512"), 512u);
  EXPECT_EQ(size("512B"), 512u);
  EXPECT_EQ(size("4k"), 4096u);
  EXPECT_EQ(size("4K"), 4096u);
  EXPECT_EQ(size("4KiB"), 4096u);
  EXPECT_EQ(size("4kB"), 4000u);
  EXPECT_EQ(size("4KB"), 4000u);
  EXPECT_EQ(size("146MiB"), 146ull << 20);
  EXPECT_EQ(size("1.5GiB"), 3ull << 29);
  EXPECT_EQ(size("1.5GB"), 1500000000u);
  EXPECT_EQ(size("2TiB"), 2ull << 40);
  EXPECT_EQ(size(" 8 MiB "), 8ull << 20);
  EXPECT_EQ(size("1_000"), 1000u);
}

TEST(Units, SizeErrorsSayWhatWasExpected) {
  auto bad_unit = parse_size("12 parsecs");
  ASSERT_FALSE(bad_unit);
  EXPECT_NE(bad_unit.error().message.find("unknown size unit"), std::string::npos);
  EXPECT_EQ(bad_unit.error().kind, ErrorKind::bad_input);
  EXPECT_FALSE(parse_size(""));
  EXPECT_FALSE(parse_size("MiB"));
  EXPECT_FALSE(parse_size("-4k"));
}

TEST(Units, Durations) {
  EXPECT_DOUBLE_EQ(dur("0.323s"), 0.323);
  EXPECT_EQ(dur("0.323s"), 0.323);  // exact: the writer relies on it
  EXPECT_DOUBLE_EQ(dur("350us"), 350e-6);
  EXPECT_DOUBLE_EQ(dur("2ms"), 0.002);
  EXPECT_DOUBLE_EQ(dur("10ns"), 1e-8);
  EXPECT_DOUBLE_EQ(dur("1m"), 60);
  EXPECT_DOUBLE_EQ(dur("2h"), 7200);
  EXPECT_DOUBLE_EQ(dur("1.5"), 1.5);
  EXPECT_FALSE(parse_duration_s("3 fortnights"));
  EXPECT_FALSE(parse_duration_s("fast"));
}

TEST(Units, FormatSize) {
  EXPECT_EQ(format_size(0), "0B");
  EXPECT_EQ(format_size(512), "512B");
  EXPECT_EQ(format_size(4096), "4KiB");
  EXPECT_EQ(format_size(146ull << 20), "146MiB");
  EXPECT_EQ(format_size(3ull << 29), "1.5GiB");
  EXPECT_EQ(format_size(146600628), "139.809MiB");
}

TEST(Units, FormatDuration) {
  EXPECT_EQ(format_duration(0.323), "0.323s");
  EXPECT_EQ(format_duration(350e-6), "350us");
  EXPECT_EQ(format_duration(0), "0s");
  auto back = parse_duration_s(format_duration(0.00551));
  ASSERT_TRUE(back);
  EXPECT_DOUBLE_EQ(*back, 0.00551);
}

}  // namespace
}  // namespace dlgen
