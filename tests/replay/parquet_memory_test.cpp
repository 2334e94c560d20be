// Issue 20: a Parquet read larger than Arrow's range_size_limit (flux's T5 encodings: one column
// chunk of 512 MiB a file at full size) is read in pieces of at most 32 MiB, each into a buffer of
// that size, so a worker's memory is iodepth x 32 MiB whatever the row group's size. Checked on
// the real binary by its peak resident set (wait4's ru_maxrss), against a dry run of the same job
// (the process without read buffers): a buffer the size of the chunk would add 100 MB.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "dlgen/core/job_io.hpp"
#include "dlgen/datasets/layout.hpp"
#include "dlgen/datasets/parquet.hpp"
#include "temp_dir.hpp"

extern char** environ;

namespace dlgen::replay {
namespace {

using dlgen::testing::TempDir;

struct Exit {
  int code = -1;
  long max_rss_kib = 0;
};

// Runs dlgen with `args` in `dir` (output discarded); its exit code and peak resident set.
Exit run_dlgen(const std::filesystem::path& dir, const std::vector<std::string>& args) {
  std::vector<char*> argv{const_cast<char*>(DLGEN_BINARY)};
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addchdir_np(&fa, dir.c_str());
  pid_t pid = -1;
  Exit e;
  if (posix_spawn(&pid, DLGEN_BINARY, &fa, nullptr, argv.data(), environ) == 0) {
    int status = 0;
    rusage ru{};
    if (::wait4(pid, &status, 0, &ru) == pid && WIFEXITED(status)) {
      e.code = WEXITSTATUS(status);
      e.max_rss_kib = ru.ru_maxrss;
    }
  }
  posix_spawn_file_actions_destroy(&fa);
  return e;
}

TEST(ParquetMemory, AFluxRowGroupOverTheRangeLimitIsReadInBoundedPieces) {
  TempDir tmp("dlgen-parquet-memory");
  // jobs/flux.toml with 48 rows in one file: its T5 chunk is 48 x 2,097,312 B = 100.7 MB.
  const std::string job = DLGEN_SOURCE_DIR "/jobs/flux.toml";
  const std::vector<std::string> sets = {"--set", "dataset.dir=\"" + (tmp / "data").string() + "\"",
                                         "--set", "dataset.num_files=1",
                                         "--set", "dataset.samples_per_file=48",
                                         "--set", "reader.batch_size=8",
                                         "--set", "reader.workers=1",
                                         "--set", "reader.iodepth=1",
                                         "--set", "compute.b200.time=\"0s\""};
  JobLoadOptions lo;
  for (std::size_t i = 1; i < sets.size(); i += 2) lo.overrides.push_back(sets[i]);
  Result<Job> loaded = load_job(job, lo);
  ASSERT_TRUE(loaded) << loaded.error().message;
  const datasets::Layout layout(loaded->dataset);
  const datasets::parquet::FileGeometry& g = *layout.parquet();
  const std::uint64_t t5 = g.row_groups[0].columns[0].bytes.length;
  ASSERT_GT(t5, 3 * datasets::parquet::kRangeSizeLimit);
  ASSERT_EQ(datasets::parquet::largest_row_group_read(g), t5);

  auto with = [&](std::vector<std::string> head) {
    head.push_back(job);
    head.insert(head.end(), sets.begin(), sets.end());
    return head;
  };
  ASSERT_EQ(run_dlgen(tmp.path(), with({"generate", "-q"})).code, 0);
  const Exit dry = run_dlgen(tmp.path(), with({"run", "--dry-run"}));
  ASSERT_EQ(dry.code, 0);
  const Exit run =
      run_dlgen(tmp.path(), with({"run", "--engine", "pread", "-q", "-o", "result.json"}));
  ASSERT_EQ(run.code, 0);
  // The requests: the footer, the T5 chunk in 32 MiB pieces, the four small chunks in one.
  const nlohmann::json r = nlohmann::json::parse(std::ifstream(tmp / "result.json"));
  const std::uint64_t pieces =
      (t5 + datasets::parquet::kRangeSizeLimit - 1) / datasets::parquet::kRangeSizeLimit;
  EXPECT_EQ(r["requests"].get<std::uint64_t>(), 1 + pieces + 1);
  EXPECT_EQ(r["bytes_read"].get<std::uint64_t>(), datasets::parquet::file_reads(g).bytes);
  // One request in flight, into one buffer of 32 MiB; 24 MiB for the threads, the plan and the
  // report. A buffer of the chunk's size would be 100.7 MB over the dry run.
  const long bound_kib = dry.max_rss_kib + long{(32 + 24) << 10};
  EXPECT_LE(run.max_rss_kib, bound_kib) << "peak RSS " << run.max_rss_kib / 1024 << " MiB, dry run "
                                        << dry.max_rss_kib / 1024 << " MiB";
  EXPECT_LT(run.max_rss_kib - dry.max_rss_kib, static_cast<long>(t5 / 1024));
}

}  // namespace
}  // namespace dlgen::replay
