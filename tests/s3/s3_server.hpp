#pragma once
// The S3 server of a test binary: the one ctest's fixture started (DLGEN_S3_ENV names its s3.env),
// or, when the binary runs on its own, one it starts itself (tests/s3/swift_server.py) and stops
// at the end. Either way the AWS_* variables are set for the engine, and `check` runs the
// independent client (tests/s3/s3_check.py, boto3).
#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>
#include <string>

#include "shell.hpp"

namespace dlgen::testing {

class S3Server : public ::testing::Environment {
 public:
  void SetUp() override {
    std::string env = std::getenv("DLGEN_S3_ENV") ? std::getenv("DLGEN_S3_ENV") : "";
    if (env.empty()) {
      char tmpl[] = "/tmp/dlgen-s3-test-XXXXXX";
      ASSERT_NE(::mkdtemp(tmpl), nullptr);
      own_dir_ = tmpl;
      const Outcome o = sh("'" DLGEN_S3_SCRIPTS "/swift_server.py' start '" + own_dir_ + "'");
      ASSERT_EQ(o.code, 0) << o.out;
      env = own_dir_ + "/s3.env";
    }
    std::ifstream in(env);
    ASSERT_TRUE(in) << env << ": no server (the ctest fixture s3_server_start did not run?)";
    for (std::string line; std::getline(in, line);)
      if (const auto eq = line.find('='); eq != std::string::npos)
        ::setenv(line.substr(0, eq).c_str(), line.substr(eq + 1).c_str(), 1);
    ::setenv("DLGEN_S3_ADDRESSING", "path", 1);
  }
  void TearDown() override {
    if (!own_dir_.empty()) sh("'" DLGEN_S3_SCRIPTS "/swift_server.py' stop '" + own_dir_ + "'");
  }

 private:
  std::string own_dir_;
};

// The independent client's answer (stdout and stderr), e.g. check("verify b k 100") == "ok\n".
inline Outcome s3_check(const std::string& args) {
  return sh("'" DLGEN_S3_SCRIPTS "/s3_check.py' " + args);
}

// A bucket of its own for each test (S3 names: lowercase, digits, '-').
inline std::string new_bucket() {
  static int n = 0;
  const std::string b = "dlgen-" + std::to_string(::getpid()) + "-" + std::to_string(++n);
  const Outcome o = s3_check("mb " + b);
  EXPECT_EQ(o.code, 0) << o.out;
  return b;
}

}  // namespace dlgen::testing
