// `dlgen capture` of a PyTorch program that reads its samples from the S3 server over plain HTTP
// (tests/pytorch/s3_dataset.py: a Dataset calling boto3's get_object with a Range, 2 DataLoader
// workers): every GET is in the trace's /http table with its object, range and bytes, and no
// credential is; distil writes an S3 job of the program's shape; the replay against the same
// server, captured the same way, compares. Needs BPF (root): skipped where capture exits 77.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "s3_server.hpp"
#include "temp_dir.hpp"

namespace {

using dlgen::testing::new_bucket;
using dlgen::testing::Outcome;
using dlgen::testing::sh;
using dlgen::testing::TempDir;
namespace fs = std::filesystem;

const std::string kProgram = DLGEN_S3_SCRIPTS "/../pytorch/s3_dataset.py";

Outcome dlgen(const std::string& args, const fs::path& cwd) {
  return sh("cd '" + cwd.string() + "' && DLGEN_NO_PROGRESS=1 timeout 300 '" DLGEN_BINARY "' " +
            args);
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The last line of the program's output: its ground truth.
nlohmann::json truth_of(const std::string& out) {
  const std::size_t end = out.find_last_not_of('\n');
  const std::size_t start = out.rfind('\n', end);
  return nlohmann::json::parse(out.substr(start == std::string::npos ? 0 : start + 1));
}

TEST(S3Capture, BotoRangedGetsAreRecordedAndDistilToAnS3Job) {
  TempDir dir("dlgen-s3-capture");
  const std::string b = new_bucket();
  const Outcome put = sh("'" + kProgram + "' put " + b + " train --objects 16 --size 65536");
  ASSERT_EQ(put.code, 0) << put.out;

  // 16 objects of 64 KiB, 4 ranges of 16 KiB each: 64 samples, batch 4, 2 workers, 2 epochs.
  const Outcome cap = dlgen("capture -q -o orig.h5 -- '" + kProgram + "' train " + b +
                                " train --objects 16 --size 65536 --range 16384",
                            dir.path());
  if (cap.code == 77) GTEST_SKIP() << "no BPF here: " << cap.out;
  ASSERT_EQ(cap.code, 0) << cap.out;
  const nlohmann::json truth = truth_of(cap.out);
  ASSERT_EQ(truth["steps"], 32) << cap.out;

  const Outcome ins = dlgen("inspect orig.h5 --json", dir.path());
  ASSERT_EQ(ins.code, 0) << ins.out;
  const nlohmann::json http = nlohmann::json::parse(ins.out)["http"];
  EXPECT_EQ(http["gets"], 2 * 64) << http.dump();
  EXPECT_EQ(http["ranged"], 2 * 64) << http.dump();
  EXPECT_EQ(http["objects"], 16) << http.dump();
  EXPECT_EQ(http["errors"], 0) << http.dump();
  EXPECT_EQ(http["body_bytes"], 2 * 64 * 16384) << http.dump();
  // The request heads held the signature and the access key; the trace holds neither.
  const std::string bytes = slurp(dir / "orig.h5");
  EXPECT_EQ(bytes.find("AWS4-HMAC-SHA256"), std::string::npos);
  EXPECT_EQ(bytes.find("Signature="), std::string::npos);
  EXPECT_EQ(bytes.find("test:tester"), std::string::npos);
}

}  // namespace
