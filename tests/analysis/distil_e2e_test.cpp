// End to end: generate a dataset with `dlgen generate`, capture tests/pytorch/train.py with known
// settings, distil the trace, and check the job against the ground truth the script prints. Also
// the round trip: distil(capture(run(job))) returns the job's parameters. Needs root and BPF;
// skips (with the reason) where capture cannot run.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include "dlgen/core/json.hpp"
#include <sstream>

#include "dlgen/core/job_io.hpp"
#include "dlgen/trace/trace_io.hpp"
#include "temp_dir.hpp"

namespace dlgen {
namespace {

struct Ran {
  int rc = -1;
  std::string out;  // stdout
};

Ran sh(const std::string& cmd, const std::filesystem::path& err_file) {
  Ran r;
  const std::string full = cmd + " 2>>" + err_file.string();
  FILE* p = ::popen(full.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int st = ::pclose(p);
  r.rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class DistilE2e : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "dlgen capture needs root (BPF)";
    if (sh(std::string(DLGEN_PYTHON) + " -c 'import torch'", dir_ / "err.txt").rc != 0)
      GTEST_SKIP() << "python3-torch is not installed";
  }

  // Keeps the traces and jobs of a failed test for a look (DLGEN_KEEP_FAILED=DIR).
  void TearDown() override {
    const char* keep = std::getenv("DLGEN_KEEP_FAILED");
    if (!HasFailure() || !keep || !*keep) return;
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::error_code ec;
    std::filesystem::copy(dir_.path(), std::filesystem::path(keep) / info->name(),
                          std::filesystem::copy_options::recursive, ec);
  }

  // Writes a generator job and makes its dataset; returns the data dir.
  std::filesystem::path generate(const std::string& name, int files, const std::string& size,
                                 const std::string& extra = "") {
    const auto job = dir_ / (name + "-gen.toml");
    std::ofstream(job) << "[job]\nname = \"" << name << "\"\n[dataset]\ndir = \""
                       << (dir_ / name).string() << "\"\nformat = \"npz\"\nnum_files = " << files
                       << "\nsample_size = \"" << size << "\"\n"
                       << extra;
    const auto r = sh(std::string(DLGEN_BINARY) + " generate -q " + job.string(), dir_ / "err.txt");
    EXPECT_EQ(r.rc, 0) << slurp(dir_ / "err.txt");
    return dir_ / name;
  }

  // Captures train.py; returns its ground-truth JSON (last stdout line), or null when capture
  // cannot run here.
  nlohmann::json capture(const std::string& args, const std::filesystem::path& trace) {
    const std::string cmd = std::string(DLGEN_BINARY) + " capture -q -o " + trace.string() +
                            " -- " + DLGEN_PYTHON + " " + DLGEN_SOURCE_DIR +
                            "/tests/pytorch/train.py " + args;
    const auto r = sh(cmd, dir_ / "err.txt");
    if (r.rc == 77) return nullptr;
    EXPECT_EQ(r.rc, 0) << slurp(dir_ / "err.txt");
    const auto pos = r.out.rfind('{');
    if (pos == std::string::npos) return nlohmann::json::object();
    return nlohmann::json::parse(r.out.substr(pos), nullptr, false);
  }

  Job distil(const std::filesystem::path& trace, const std::string& out_name) {
    const auto job = dir_ / out_name;
    const auto r =
        sh(std::string(DLGEN_BINARY) + " distil " + trace.string() + " -o " + job.string(),
           dir_ / "err.txt");
    EXPECT_EQ(r.rc, 0) << slurp(dir_ / "err.txt");
    auto loaded = load_job(job);  // the distilled job must be accepted as is
    EXPECT_TRUE(loaded) << (loaded ? "" : loaded.error().message) << "\n" << slurp(job);
    return loaded ? *loaded : Job{};
  }

  testing::TempDir dir_{"dlgen-distil-e2e"};
};

// A dataset read through a memory mapping (np.load(mmap_mode="r"), a row per sample in 2
// DataLoader workers): the reads are page faults. The trace must hold fault events on the file,
// and distil must write a job that validates with the workers, epochs and dataset size (within 5%)
// of the original.
// The file is dropped from the page cache first, as a dataset not just written would be: a file
// still cached from its writing sits in 2 MiB folios, which the kernel maps without a filemap
// tracepoint (distil then says so in a note).
TEST_F(DistilE2e, MemoryMappedNpyReadByPageFaults) {
  const auto npy = dir_ / "rows.npy";
  ASSERT_EQ(sh(std::string(DLGEN_PYTHON) + " -c \"import numpy as np; np.save('" + npy.string() +
                   "', np.random.default_rng(0).integers(0, 255, size=(512, 16384), "
                   "dtype=np.uint8)); import os; fd = os.open('" +
                   npy.string() +
                   "', os.O_RDONLY); os.fsync(fd); os.posix_fadvise(fd, 0, 0, "
                   "os.POSIX_FADV_DONTNEED)\"",
               dir_ / "err.txt")
                .rc,
            0)
      << slurp(dir_ / "err.txt");
  const auto trace = dir_ / "run.h5";
  const std::string cmd = std::string(DLGEN_BINARY) + " capture -q -o " + trace.string() + " -- " +
                          DLGEN_PYTHON + " " + DLGEN_SOURCE_DIR + "/tests/pytorch/mmap_loader.py " +
                          npy.string() + " --workers 2 --batch-size 16 --epochs 2 --compute-ms 5";
  const auto r = sh(cmd, dir_ / "err.txt");
  if (r.rc == 77) GTEST_SKIP() << "dlgen capture cannot run here (exit 77)";
  ASSERT_EQ(r.rc, 0) << slurp(dir_ / "err.txt");
  const auto pos = r.out.rfind('{');
  ASSERT_NE(pos, std::string::npos) << r.out;
  const auto truth = nlohmann::json::parse(r.out.substr(pos), nullptr, false);
  ASSERT_TRUE(truth.is_object() && truth.contains("file_bytes")) << r.out;

  auto t = trace::read_trace(trace);
  ASSERT_TRUE(t) << t.error().message;
  std::uint64_t faults = 0, fault_bytes = 0;
  for (const auto& e : t->events)
    if (e.op == trace::Op::fault && e.file != trace::kNoFile &&
        std::filesystem::path(t->files[e.file].path).filename() == "rows.npy")
      ++faults, fault_bytes += static_cast<std::uint64_t>(e.ret);
  EXPECT_GT(faults, 0u) << "no page faults recorded on the mapped file";
  // Each epoch's new workers map the file again: at least the file's bytes per epoch in all.
  EXPECT_GE(fault_bytes, truth["file_bytes"].get<std::uint64_t>());

  const Job job = distil(trace, "job.toml");
  EXPECT_TRUE(validate(job).empty()) << slurp(dir_ / "job.toml");
  EXPECT_EQ(job.reader.workers, 2u);
  EXPECT_EQ(job.run.epochs, 2u);
  const double bytes = double(job.dataset.num_files) * job.dataset.samples_per_file *
                       job.dataset.sample_size.expected();
  EXPECT_NEAR(bytes / truth["file_bytes"].get<double>(), 1.0, 0.05) << slurp(dir_ / "job.toml");
  EXPECT_NE(slurp(dir_ / "job.toml").find("memory-mapped"), std::string::npos)
      << slurp(dir_ / "job.toml");
}

TEST_F(DistilE2e, OneWorkerSequentialCheckpointEveryEpoch) {
  const auto data = generate("seq", 48, "32KiB");
  const auto trace = dir_ / "run.h5";
  const auto truth =
      capture("--data " + data.string() +
                  " --workers 1 --batch-size 8 --epochs 2 --no-shuffle "
                  "--compute-ms 30 --checkpoint-every-epochs 1 --checkpoint-size 2097152 "
                  "--checkpoint-dir " +
                  (dir_ / "ck").string(),
              trace);
  if (truth.is_null()) GTEST_SKIP() << "dlgen capture cannot run here (exit 77)";
  ASSERT_TRUE(truth.is_object() && truth.contains("checkpoints")) << truth.dump();
  const Job job = distil(trace, "job.toml");
  EXPECT_EQ(job.dataset.num_files, 48u);
  EXPECT_EQ(job.reader.workers, 1u);
  EXPECT_EQ(job.reader.batch_size, 8u);
  EXPECT_EQ(job.run.epochs, 2u);
  EXPECT_EQ(job.reader.shuffle, Shuffle::none);
  EXPECT_TRUE(job.checkpoint.enabled);
  EXPECT_EQ(job.checkpoint.every_epochs, 1u);
  EXPECT_EQ(job.checkpoint.size_bytes, truth["checkpoints"][0].get<std::uint64_t>());
  // Within 10% of the compute the script itself measured (a sleep overshoots on a loaded machine).
  const double measured = truth["step_time_median_s"].get<double>();
  EXPECT_NEAR(job.compute.step_time.expected(), measured, 0.1 * measured);
  EXPECT_NE(job.dataset.dir, data);  // never the traced data directory
}

TEST_F(DistilE2e, ThreeWorkersShuffledCheckpointEveryFourSteps) {
  const auto data = generate("shuf", 96, "16KiB");
  const auto trace = dir_ / "run.h5";
  const auto truth =
      capture("--data " + data.string() +
                  " --workers 3 --batch-size 16 --epochs 2 --shuffle "
                  "--compute-ms 40 --checkpoint-every-steps 4 --checkpoint-size 1048576 "
                  "--checkpoint-dir " +
                  (dir_ / "ck").string(),
              trace);
  if (truth.is_null()) GTEST_SKIP() << "dlgen capture cannot run here (exit 77)";
  ASSERT_TRUE(truth.is_object() && truth.contains("checkpoints")) << truth.dump();
  const Job job = distil(trace, "job.toml");
  EXPECT_EQ(job.dataset.num_files, 96u);
  EXPECT_EQ(job.reader.workers, 3u);
  EXPECT_EQ(job.reader.batch_size, 16u);
  EXPECT_EQ(job.run.epochs, 2u);
  EXPECT_EQ(job.reader.shuffle, Shuffle::file);
  EXPECT_EQ(job.reader.shuffle_buffer, 0u);
  EXPECT_EQ(job.checkpoint.every_steps, 4u);
  EXPECT_EQ(job.checkpoint.every_epochs, 0u);
  EXPECT_EQ(truth["checkpoints"].size(), 3u);  // 12 steps / 4
  EXPECT_EQ(job.checkpoint.size_bytes, truth["checkpoints"][0].get<std::uint64_t>());
  const double measured = truth["step_time_median_s"].get<double>();
  EXPECT_NEAR(job.compute.step_time.expected(), measured, 0.1 * measured);
}

// PyTorch's DataLoader with num_workers=0: the training process loads each batch itself (no
// handovers in the trace), then computes. distil says workers = 0, the batch from the gaps, and
// compute from the gap before each batch; the replay of that job then takes as long as the
// original (loading and compute taking turns, not overlapping).
TEST_F(DistilE2e, MainProcessLoadingItsOwnBatches) {
  const auto data = generate("inline", 48, "32KiB");
  const auto trace = dir_ / "run.h5";
  const auto truth = capture("--data " + data.string() +
                                 " --workers 0 --batch-size 8 --epochs 2 --shuffle --compute-ms 30",
                             trace);
  if (truth.is_null()) GTEST_SKIP() << "dlgen capture cannot run here (exit 77)";
  ASSERT_TRUE(truth.is_object() && truth.contains("elapsed_s")) << truth.dump();
  const Job job = distil(trace, "job.toml");
  EXPECT_EQ(job.dataset.num_files, 48u);
  EXPECT_EQ(job.reader.workers, 0u);
  EXPECT_EQ(job.reader.batch_size, 8u);
  EXPECT_EQ(job.run.epochs, 2u);
  const double measured = truth["step_time_median_s"].get<double>();
  // The gap before a batch also holds the previous batch's collate and the loop's own overhead.
  EXPECT_NEAR(job.compute.step_time.expected(), measured, 0.15 * measured);
  // Replayed, 12 steps of (load 8 samples, then compute) take the original's time, not the
  // compute alone (which a replay overlapping loading with compute would approach).
  ASSERT_EQ(sh(std::string(DLGEN_BINARY) + " generate -q " + (dir_ / "job.toml").string(),
               dir_ / "err.txt")
                .rc,
            0)
      << slurp(dir_ / "err.txt");
  const auto out = dir_ / "r.json";
  ASSERT_EQ(sh(std::string(DLGEN_BINARY) + " run -q " + (dir_ / "job.toml").string() +
                   " --output " + out.string(),
               dir_ / "err.txt")
                .rc,
            0)
      << slurp(dir_ / "err.txt");
  const auto report = nlohmann::json::parse(slurp(out), nullptr, false);
  ASSERT_TRUE(report.is_object()) << slurp(out);
  std::cerr << "original " << truth["elapsed_s"] << " s, replay " << report["elapsed_s"] << " s\n";
  const double compute_only = 12 * job.compute.step_time.expected();
  EXPECT_GT(report["elapsed_s"].get<double>(), compute_only);
  EXPECT_NEAR(report["elapsed_s"].get<double>(), truth["elapsed_s"].get<double>(),
              0.25 * truth["elapsed_s"].get<double>());
}

TEST_F(DistilE2e, RoundTripThroughTheReplay) {
  const auto job_file = dir_ / "orig.toml";
  std::ofstream(job_file) << "[job]\nname = \"rt\"\n[dataset]\ndir = \"" << (dir_ / "rt").string()
                          << "\"\nformat = \"npz\"\nnum_files = 64\nsample_size = \"48KiB\"\n"
                          << "[reader]\nbatch_size = 4\nworkers = 2\nshuffle = \"none\"\n"
                          << "[compute]\ntime = \"0.025s\"\n[run]\nepochs = 2\n";
  ASSERT_EQ(
      sh(std::string(DLGEN_BINARY) + " generate -q " + job_file.string(), dir_ / "err.txt").rc, 0)
      << slurp(dir_ / "err.txt");
  const auto trace = dir_ / "replay.h5";
  const auto r = sh("cd " + dir_.path().string() + " && " + DLGEN_BINARY + " run " +
                        job_file.string() + " --capture " + trace.string(),
                    dir_ / "err.txt");
  if (r.rc == 77) GTEST_SKIP() << "dlgen capture cannot run here (exit 77)";
  ASSERT_EQ(r.rc, 0) << slurp(dir_ / "err.txt");
  const Job job = distil(trace, "back.toml");
  EXPECT_EQ(job.dataset.num_files, 64u);
  EXPECT_EQ(job.dataset.format, Format::npz);
  EXPECT_EQ(job.reader.workers, 2u);
  EXPECT_EQ(job.reader.batch_size, 4u);
  EXPECT_EQ(job.run.epochs, 2u);
  EXPECT_EQ(job.reader.shuffle, Shuffle::none);
  EXPECT_NEAR(job.dataset.sample_size.expected(), 48.0 * 1024, 1.0);
  EXPECT_NEAR(job.compute.step_time.expected(), 0.025, 0.0025);
}

// A trace with no dataset, only checkpoints written then read back (MLPerf's LLM checkpointing, as
// dlgen's own llama3-8b job runs it: 8 ranks, 2 checkpoints of 16 files, back to back, each in
// its own global_step directory, then both read back) distils to a checkpoint-only job that
// validates and runs: it was a placeholder dataset that did not.
TEST_F(DistilE2e, CheckpointOnlyTraceIsACheckpointOnlyJob) {
  const auto trace = dir_ / "ckpt.h5";
  const auto r =
      sh("cd " + dir_.path().string() + " && " + DLGEN_BINARY + " run " + DLGEN_SOURCE_DIR +
             "/jobs/llama3-8b.toml --scale small -q --capture " + trace.string(),
         dir_ / "err.txt");
  if (r.rc == 77) GTEST_SKIP() << "dlgen capture cannot run here (exit 77)";
  ASSERT_EQ(r.rc, 0) << slurp(dir_ / "err.txt");
  const Job job = distil(trace, "ckpt.toml");
  EXPECT_FALSE(job.run.train) << slurp(dir_ / "ckpt.toml");
  EXPECT_EQ(job.checkpoint.writes, 2u);
  EXPECT_EQ(job.checkpoint.reads, 2u);
  EXPECT_EQ(job.checkpoint.files, 16u);  // 8 ranks: model and optimizer state each
  EXPECT_TRUE(job.checkpoint.fsync);
  EXPECT_NEAR(static_cast<double>(job.checkpoint.size_bytes), 38331904.0, 38331904.0 * 0.05);
  EXPECT_TRUE(validate(job).empty()) << slurp(dir_ / "ckpt.toml");
  const auto run = sh("cd " + dir_.path().string() + " && " + DLGEN_BINARY + " run -q " +
                          (dir_ / "ckpt.toml").string(),
                      dir_ / "err.txt");
  EXPECT_EQ(run.rc, 0) << slurp(dir_ / "err.txt");
}

// A segmentation-style loader reads an image and its mask per sample, from two directories. The
// job models one file per sample: distil must say that the masks (18% of the bytes here) are read
// and not replayed, rather than leave them out silently.
TEST_F(DistilE2e, FilesReadBesideTheDatasetAreSaid) {
  const auto root = dir_.path();
  std::filesystem::create_directories(root / "data/images");
  std::filesystem::create_directories(root / "data/masks");
  for (int i = 0; i < 64; ++i) {
    std::ofstream(root / "data/images" / ("s" + std::to_string(i) + ".img"))
        << std::string(40000 + 300 * i, 'i');
    std::ofstream(root / "data/masks" / ("s" + std::to_string(i) + ".msk"))
        << std::string(9000 + 50 * i, 'm');
  }
  std::ofstream(root / "seg.py") << R"(import os, sys, time, torch
from torch.utils.data import Dataset, DataLoader
root = sys.argv[1]
class DS(Dataset):
    def __init__(s): s.ids = sorted(f[:-4] for f in os.listdir(os.path.join(root, "images")))
    def __len__(s): return len(s.ids)
    def __getitem__(s, i):
        with open(os.path.join(root, "images", s.ids[i] + ".img"), "rb") as f: a = f.read()
        with open(os.path.join(root, "masks", s.ids[i] + ".msk"), "rb") as f: b = f.read()
        return torch.tensor(len(a) + len(b))
for ep in range(2):
    for x in DataLoader(DS(), batch_size=8, shuffle=True, num_workers=2):
        time.sleep(0.005)
)";
  const auto trace = dir_ / "seg.h5";
  const auto r =
      sh(std::string(DLGEN_BINARY) + " capture -q -o " + trace.string() + " -- " + DLGEN_PYTHON +
             " " + (root / "seg.py").string() + " " + (root / "data").string(),
         dir_ / "err.txt");
  if (r.rc == 77) GTEST_SKIP() << "dlgen capture cannot run here (exit 77)";
  ASSERT_EQ(r.rc, 0) << slurp(dir_ / "err.txt");
  const Job job = distil(trace, "seg.toml");
  EXPECT_EQ(job.dataset.num_files, 64u);
  EXPECT_EQ(job.reader.batch_size, 8u);
  const std::string said = slurp(dir_ / "err.txt");
  EXPECT_NE(said.find("64 files under " + (root / "data/masks").string() + " were read"),
            std::string::npos)
      << said;
  EXPECT_NE(said.find("not replayed"), std::string::npos) << said;
}

// A program reading Parquet files as pyarrow's iter_batches does (footer from the end, then each
// row group's selected column chunks), in plain Python: Debian 12 packages no pyarrow, and plain
// reads are the same system calls. distil must recognise the dataset as Parquet (by its extension
// .parquet; the magic PAR1 when a first read is captured) and write a job that validates.
TEST_F(DistilE2e, ParquetFilesAreRecognised) {
  const auto gen = dir_ / "pq-gen.toml";
  std::ofstream(gen) << "[job]\nname = \"pq\"\n[dataset]\ndir = \"" << (dir_ / "pq").string()
                     << "\"\nformat = \"parquet\"\nnum_files = 6\nsamples_per_file = 2000\n"
                        "parquet.columns = [\"label:float32\", \"x:float32[63]\"]\n"
                        "parquet.row_group_size = 500\n";
  ASSERT_EQ(sh(std::string(DLGEN_BINARY) + " generate -q " + gen.string(), dir_ / "err.txt").rc, 0)
      << slurp(dir_ / "err.txt");
  const auto trace = dir_ / "pq.h5";
  const auto r =
      sh(std::string(DLGEN_BINARY) + " capture -q -o " + trace.string() + " -- " + DLGEN_PYTHON +
             " " + DLGEN_SOURCE_DIR + "/tests/pytorch/parquet_reader.py " + (dir_ / "pq").string() +
             " --epochs 2 --columns x",
         dir_ / "err.txt");
  if (r.rc == 77) GTEST_SKIP() << "dlgen capture cannot run here (exit 77)";
  ASSERT_EQ(r.rc, 0) << slurp(dir_ / "err.txt");
  const auto truth = nlohmann::json::parse(r.out.substr(r.out.rfind('{')), nullptr, false);
  ASSERT_TRUE(truth.is_object()) << r.out;
  EXPECT_EQ(truth["row_groups"], 24);
  EXPECT_EQ(truth["chunk_reads"], 24);
  const Job job = distil(trace, "pq-job.toml");
  EXPECT_TRUE(validate(job).empty()) << slurp(dir_ / "pq-job.toml");
  EXPECT_EQ(job.dataset.format, Format::parquet) << slurp(dir_ / "pq-job.toml");
  EXPECT_EQ(job.dataset.num_files, 6u);
  // The reader never reads a file's first bytes (footer first, then the chunks): no magic is
  // captured, the extension decides.
  EXPECT_NE(slurp(dir_ / "pq-job.toml").find("extension .parquet"), std::string::npos)
      << slurp(dir_ / "pq-job.toml");
  // Its reads as a recipe: the footer's length and magic, the footer, then the chunks.
  ASSERT_FALSE(job.reader.recipe.empty()) << slurp(dir_ / "pq-job.toml");
  EXPECT_EQ(to_string(job.reader.recipe[0]), "end-8+8");
}

}  // namespace
}  // namespace dlgen
