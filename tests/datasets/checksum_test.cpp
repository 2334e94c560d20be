#include "dlgen/datasets/checksum.hpp"

#include <gtest/gtest.h>

#include <string>

using dlgen::datasets::crc32c;

TEST(Crc32c, KnownVectors) {
  const std::string check = "123456789";
  EXPECT_EQ(crc32c(0, check.data(), check.size()), 0xe3069283u);  // the catalogue check value
  const std::string zeros(32, '\0');
  EXPECT_EQ(crc32c(0, zeros.data(), zeros.size()), 0x8a9136aau);  // RFC 3720 B.4
}

TEST(Crc32c, ContinuesAcrossPieces) {
  std::string text;
  for (int i = 0; i < 1000; ++i) text += static_cast<char>(i * 7 + 3);
  const auto whole = crc32c(0, text.data(), text.size());
  for (std::size_t cut : {1u, 7u, 8u, 13u, 999u}) {
    const auto a = crc32c(0, text.data(), cut);
    EXPECT_EQ(crc32c(a, text.data() + cut, text.size() - cut), whole) << cut;
  }
}
