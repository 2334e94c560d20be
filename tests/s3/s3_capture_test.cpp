// `dlgen capture` of a PyTorch program that reads its samples from the S3 server over plain HTTP
// (tests/pytorch/s3_dataset.py: a Dataset calling boto3's get_object with a Range, 2 DataLoader
// workers): every GET is in the trace's /http table with its object, range and bytes, and no
// credential is; distil writes an S3 job of the program's shape; the replay against the same
// server, captured the same way, compares, with the latency rows of both traces' GETs. Needs BPF
// (root): skipped where capture exits 77.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include "dlgen/core/json.hpp"

#include "compare_rows.hpp"
#include "s3_server.hpp"
#include "temp_dir.hpp"

namespace {

using dlgen::testing::compare_row;
using dlgen::testing::new_bucket;
using dlgen::testing::Outcome;
using dlgen::testing::sh;
using dlgen::testing::TempDir;
using dlgen::testing::verdict_of;
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

// The program's 32 objects of 32 KiB put in bucket `b`, then its training (`options` added)
// captured into orig.h5; the capture's outcome (77: no BPF here).
Outcome capture_program(const TempDir& dir, const std::string& b, const std::string& options) {
  const Outcome put = sh("'" + kProgram + "' put " + b + " train --objects 32 --size 32768");
  EXPECT_EQ(put.code, 0) << put.out;
  return dlgen("capture -q -o orig.h5 -- '" + kProgram + "' train " + b +
                   " train --objects 32 --size 32768 --range 32768" + options,
               dir.path());
}

TEST(S3Capture, BotoRangedGetsAreRecordedDistilledToAnS3JobAndReplayed) {
  TempDir dir("dlgen-s3-capture");
  const std::string b = new_bucket();
  // 32 objects of 32 KiB, each sample one ranged GET of a whole object (Range: bytes=0-32767):
  // batch 4, 2 workers, 2 epochs, 20 ms of compute a step.
  const Outcome cap = capture_program(dir, b, "");
  if (cap.code == 77) GTEST_SKIP() << "no BPF here: " << cap.out;
  ASSERT_EQ(cap.code, 0) << cap.out;
  const nlohmann::json truth = truth_of(cap.out);
  ASSERT_EQ(truth["steps"], 16) << cap.out;

  const Outcome ins = dlgen("inspect orig.h5 --json", dir.path());
  ASSERT_EQ(ins.code, 0) << ins.out;
  const nlohmann::json http = nlohmann::json::parse(ins.out)["http"];
  EXPECT_EQ(http["gets"], 2 * 32) << http.dump();
  EXPECT_EQ(http["ranged"], 2 * 32) << http.dump();
  EXPECT_EQ(http["objects"], 32) << http.dump();
  EXPECT_EQ(http["errors"], 0) << http.dump();
  EXPECT_EQ(http["body_bytes"], 2 * 32 * 32768) << http.dump();
  // The request heads held the signature and the access key; the trace holds neither.
  const std::string bytes = slurp(dir / "orig.h5");
  EXPECT_EQ(bytes.find("AWS4-HMAC-SHA256"), std::string::npos);
  EXPECT_EQ(bytes.find("Signature="), std::string::npos);
  EXPECT_EQ(bytes.find("test:tester"), std::string::npos);

  // distil: a job of objects in the same bucket (a new prefix), the program's shape.
  const Outcome dis = dlgen("distil orig.h5 -o job.toml", dir.path());
  ASSERT_EQ(dis.code, 0) << dis.out;
  const std::string job = slurp(dir / "job.toml");
  EXPECT_NE(job.find("dir = \"s3://" + b + "/dlgen/"), std::string::npos) << job;
  EXPECT_NE(job.find("num_files = 32 "), std::string::npos) << job;
  EXPECT_NE(job.find("sample_size = \"32KiB\""), std::string::npos) << job;
  EXPECT_NE(job.find("batch_size = 4 "), std::string::npos) << job;
  EXPECT_NE(job.find("workers = 2 "), std::string::npos) << job;
  EXPECT_NE(job.find("epochs = 2 "), std::string::npos) << job;

  // The replay against the same server, captured the same way, and compared.
  const Outcome run = dlgen("run job.toml -q --capture replay.h5 -o replay.json", dir.path());
  ASSERT_EQ(run.code, 0) << run.out;
  const Outcome cmp = dlgen("compare orig.h5 replay.h5 --json", dir.path());
  const nlohmann::json j = nlohmann::json::parse(cmp.out);
  // Volume, requests and shape; the timing rows depend on this host's load and are not asserted.
  for (const char* row : {"bytes_read", "files_read", "read_ops", "request_size", "epochs", "steps",
                          "readers", "reads_per_file"})
    EXPECT_EQ(verdict_of(j, row), "PASS") << row << ": " << compare_row(j, row).dump();
  // The latency rows (docs/fidelity.md): both traces hold GETs, so both are measured (not
  // asserted to pass: host timing), and on each side the median first byte comes no later than
  // the median last byte.
  for (const char* row : {"s3_first_byte", "s3_last_byte"}) {
    EXPECT_NE(verdict_of(j, row), "SKIP") << row << ": " << compare_row(j, row).dump();
    EXPECT_GT(compare_row(j, row)["original"].get<double>(), 0.0) << row;
    EXPECT_GT(compare_row(j, row)["replay"].get<double>(), 0.0) << row;
  }
  for (const char* side : {"original", "replay"})
    EXPECT_LE(compare_row(j, "s3_first_byte")[side].get<double>(),
              compare_row(j, "s3_last_byte")[side].get<double>())
        << side;
}

// A sample fetched as 4 ranged GETs of 8 KiB of its object, one after the other (--chunks 4):
// distil sees one sample of 4 requests, not 4 samples (analysis/src/prepass/objects.hpp), so the
// job has the program's batch (4, where each GET as a sample gave 16) and its request size.
TEST(S3Capture, ASampleReadAsSeveralRangesIsOneSample) {
  TempDir dir("dlgen-s3-capture");
  const std::string b = new_bucket();
  const Outcome cap = capture_program(dir, b, " --chunks 4");
  if (cap.code == 77) GTEST_SKIP() << "no BPF here: " << cap.out;
  ASSERT_EQ(cap.code, 0) << cap.out;
  ASSERT_EQ(truth_of(cap.out)["steps"], 16) << cap.out;
  const Outcome ins = dlgen("inspect orig.h5 --json", dir.path());
  ASSERT_EQ(ins.code, 0) << ins.out;
  EXPECT_EQ(nlohmann::json::parse(ins.out)["http"]["gets"], 4 * 2 * 32) << ins.out;
  const Outcome dis = dlgen("distil orig.h5 -o job.toml", dir.path());
  ASSERT_EQ(dis.code, 0) << dis.out;
  const std::string job = slurp(dir / "job.toml");
  EXPECT_NE(job.find("num_files = 32 "), std::string::npos) << job;
  EXPECT_NE(job.find("batch_size = 4 "), std::string::npos) << job;
  EXPECT_NE(job.find("epochs = 2 "), std::string::npos) << job;
  EXPECT_NE(job.find("8KiB"), std::string::npos) << job;  // the request size
}

}  // namespace
