#include "dlgen/core/job_io.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "temp_dir.hpp"

namespace dlgen {
namespace {

namespace fs = std::filesystem;
const fs::path kSource = DLGEN_SOURCE_DIR;

constexpr std::string_view kUnet = R"(
[job]
name = "u"
[dataset]
dir = "data/u"
format = "npz"
num_files = 168
sample_size = { dist = "normal", mean = 146600628, stdev = 68341808, min = "4MiB" }
[reader]
batch_size = 7
workers = 4
[compute]
accelerator = "h100"
[compute.h100]
time = "0.323s"
[compute.a100]
time = "0.636s"
[run]
epochs = 5
[scales.small]
dataset.num_files = 16
run.epochs = 3
)";

Job parse_ok(std::string_view text, const JobLoadOptions& o = {}) {
  auto r = parse_job(text, "t.toml", o);
  EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().message);
  return r ? *r : Job{};
}

std::string parse_err(std::string_view text, const JobLoadOptions& o = {}) {
  auto r = parse_job(text, "t.toml", o);
  EXPECT_FALSE(r.has_value());
  if (r) return "";
  EXPECT_EQ(r.error().kind, ErrorKind::bad_input);
  return r.error().message;
}

TEST(JobIo, ReadsEverySection) {
  Job j = parse_ok(kUnet);
  EXPECT_EQ(j.name, "u");
  EXPECT_EQ(j.dataset.dir, "data/u");
  EXPECT_EQ(j.dataset.format, Format::npz);
  EXPECT_EQ(j.dataset.num_files, 168u);
  EXPECT_EQ(j.dataset.sample_size.kind, DistKind::normal);
  EXPECT_EQ(j.dataset.sample_size.mean, 146600628);
  EXPECT_EQ(j.dataset.sample_size.min, 4 << 20);
  EXPECT_EQ(j.reader.batch_size, 7u);
  EXPECT_EQ(j.reader.workers, 4u);
  EXPECT_EQ(j.compute.accelerator, "h100");
  EXPECT_EQ(j.compute.effective().value, 0.323);
  EXPECT_EQ(j.run.epochs, 5u);
  EXPECT_FALSE(j.checkpoint.enabled);
  ASSERT_EQ(j.scales.count("small"), 1u);
  EXPECT_EQ(j.scales.at("small").at("dataset.num_files"), "16");
}

TEST(JobIo, NameDefaultsToFileStem) {
  auto r = parse_job("[dataset]\ndir = \"d\"\nsample_size = 4096\n", "jobs/my-job.toml");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->name, "my-job");
  EXPECT_EQ(r->dataset.sample_size.value, 4096);
}

TEST(JobIo, FileSizeIsASynonymWithOneSamplePerFile) {
  Job j = parse_ok("[dataset]\ndir = \"d\"\nfile_size = \"2MiB\"\n");
  EXPECT_EQ(j.dataset.sample_size.value, 2 << 20);
  auto e = parse_err("[dataset]\ndir = \"d\"\nsamples_per_file = 4\nfile_size = \"2MiB\"\n");
  EXPECT_NE(e.find("dataset.file_size: is a synonym of sample_size only when samples_per_file = 1"),
            std::string::npos)
      << e;
}

TEST(JobIo, ReportsEveryProblemAtOnce) {
  auto e = parse_err(
      "[dataset]\ndir = \"d\"\nsample_size = \"1MiB\"\n[reader]\nbatch_size = 0\nworkerz = 2\n"
      "[run]\nepochs = 0\n");
  EXPECT_NE(e.find("t.toml:5: reader.batch_size: must be >= 1"), std::string::npos) << e;
  EXPECT_NE(e.find("t.toml:6: reader.workerz: unknown key (did you mean 'workers'?)"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("t.toml:8: run.epochs: must be >= 1"), std::string::npos) << e;
}

TEST(JobIo, OverridesApplyBeforeConversion) {
  JobLoadOptions o;
  o.overrides = {"reader.batch_size=8", "dataset.dir=/mnt/fast/u", "dataset.sample_size=12MiB",
                 "reader.direct=true",
                 "compute.a100.time={dist=\"normal\", mean=\"0.6s\", stdev=\"10ms\"}"};
  Job j = parse_ok(kUnet, o);
  EXPECT_EQ(j.reader.batch_size, 8u);
  EXPECT_EQ(j.dataset.dir, "/mnt/fast/u");
  EXPECT_EQ(j.dataset.sample_size.kind, DistKind::fixed);
  EXPECT_EQ(j.dataset.sample_size.value, 12 << 20);
  EXPECT_TRUE(j.reader.direct);
  EXPECT_EQ(j.compute.per_accelerator.at("a100").time.kind, DistKind::normal);
  EXPECT_DOUBLE_EQ(j.compute.per_accelerator.at("a100").time.stdev, 0.01);
  o.overrides = {"job.name=2024", "job.description=a=b", "dataset.dir=\"quoted dir\""};
  j = parse_ok(kUnet, o);
  EXPECT_EQ(j.name, "2024");
  EXPECT_EQ(j.description, "a=b");
  EXPECT_EQ(j.dataset.dir, "quoted dir");
}

TEST(JobIo, OverrideErrorsNameTheOverride) {
  JobLoadOptions o;
  o.overrides = {"reader.batch_siz=8"};
  auto e = parse_err(kUnet, o);
  EXPECT_NE(e.find("--set reader.batch_siz=8"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'batch_size'?"), std::string::npos) << e;
  o.overrides = {"reader.batch_size=0"};
  e = parse_err(kUnet, o);
  EXPECT_NE(e.find("t.toml: reader.batch_size (from --set reader.batch_size=0): must be >= 1"),
            std::string::npos)
      << e;
  o.overrides = {"reader.workers=many"};
  e = parse_err(kUnet, o);
  EXPECT_NE(e.find("reader.workers (from --set reader.workers=many): expected a whole number"),
            std::string::npos)
      << e;
  o.overrides = {"no_equals_sign"};
  EXPECT_NE(parse_err(kUnet, o).find("expected key=value"), std::string::npos);
}

TEST(JobIo, NamedScaleAppliesTheJobsTable) {
  JobLoadOptions o;
  o.scale = "small";
  Job j = parse_ok(kUnet, o);
  EXPECT_EQ(j.dataset.num_files, 16u);
  EXPECT_EQ(j.run.epochs, 3u);
  EXPECT_EQ(j.dataset.sample_size.mean, 146600628);  // sizes kept
  o.overrides = {"run.epochs=1"};                    // --set wins over the scale
  EXPECT_EQ(parse_ok(kUnet, o).run.epochs, 1u);
  o.scale = "huge";
  EXPECT_NE(parse_err(kUnet, o).find("unknown scale \"huge\" (known: small, built-in: small)"),
            std::string::npos);
}

TEST(JobIo, BuiltInSmallScaleShrinksTheDatasetOnly) {
  constexpr std::string_view text = R"(
[dataset]
dir = "d"
num_files = 1000
sample_size = "100MiB"
[validation]
num_files = 500
[reader]
batch_size = 4
[checkpoint]
every_epochs = 1
size = "10GiB"
[run]
epochs = 7
accelerators = 2
eval_every_epochs = 1
)";
  JobLoadOptions o;
  o.scale = "small";
  Job j = parse_ok(text, o);
  EXPECT_EQ(j.dataset.num_files, 16u);  // 2 steps x 4 x 2 accelerators; 1 GiB would allow only 10
  EXPECT_EQ(j.validation->num_files, 16u);
  EXPECT_EQ(j.dataset.sample_size.value, 100 << 20);
  EXPECT_EQ(j.run.epochs, 7u);
  EXPECT_EQ(j.checkpoint.size_bytes, 256u << 20);
  o.overrides = {"dataset.sample_size=1MiB"};
  EXPECT_EQ(parse_ok(text, o).dataset.num_files, 1000u);  // already under 1 GiB
  o.overrides = {"dataset.sample_size=10MiB"};
  EXPECT_EQ(parse_ok(text, o).dataset.num_files, 102u);
}

// An accelerator that brings its own batch (MLPerf Storage v3.0's retinanet: 24 on b200, 32 on
// mi355): the batch of the one in force is reader.batch_size; a --set that disagrees is refused,
// naming both; the job written back reads as the same job.
TEST(JobIo, AcceleratorBatchSize) {
  const std::string text =
      "[job]\nname = \"r\"\n[dataset]\ndir = \"d\"\nnum_files = 96\nfile_size = \"4KiB\"\n"
      "[reader]\nbatch_size = 4\n[compute]\naccelerator = \"b200\"\n"
      "[compute.b200]\ntime = \"0.04755s\"\nbatch_size = 24\n"
      "[compute.mi355]\ntime = \"0.0634s\"\nbatch_size = 32\n"
      "[compute.h100]\ntime = \"0.1s\"\n";
  Job b = parse_ok(text);
  EXPECT_EQ(b.reader.batch_size, 24u);
  EXPECT_EQ(b.compute.per_accelerator.at("mi355").batch_size, 32u);
  JobLoadOptions o;
  o.accelerator = "mi355";
  const Job m = parse_ok(text, o);
  EXPECT_EQ(m.reader.batch_size, 32u);
  EXPECT_EQ(m.compute.effective(), Distribution::fixed_at(0.0634));
  o.accelerator = "h100";  // no batch of its own: the reader's
  EXPECT_EQ(parse_ok(text, o).reader.batch_size, 4u);

  o.accelerator = "mi355";
  o.overrides = {"reader.batch_size=32"};
  EXPECT_EQ(parse_ok(text, o).reader.batch_size, 32u);
  o.overrides = {"reader.batch_size=16"};
  std::string e = parse_err(text, o);
  EXPECT_NE(e.find("reader.batch_size (from --set reader.batch_size=16): 16 disagrees with "
                   "compute.mi355.batch_size = 32"),
            std::string::npos)
      << e;
  o.overrides = {"compute.mi355.batch_size=16"};
  EXPECT_EQ(parse_ok(text, o).reader.batch_size, 16u);
  o.overrides = {"compute.mi355.batchsize=16"};
  e = parse_err(text, o);
  EXPECT_NE(e.find("unknown key 'batchsize' (did you mean 'batch_size'?)"), std::string::npos) << e;

  e = parse_err(text + "[compute.a100]\ntime = \"1s\"\nbatch_size = 0\n");
  EXPECT_NE(e.find("compute.a100.batch_size: must be >= 1"), std::string::npos) << e;

  for (const Job& j : {b, m}) {
    auto back = parse_job(to_toml(j), "t.toml");  // the same source: the same Job
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_TRUE(*back == j);
  }
}

TEST(JobIo, AcceleratorSelection) {
  JobLoadOptions o;
  o.accelerator = "a100";
  Job j = parse_ok(kUnet, o);
  EXPECT_EQ(j.compute.accelerator, "a100");
  EXPECT_EQ(j.compute.effective().value, 0.636);
  o.accelerator = "v100";
  auto e = parse_err(kUnet, o);
  EXPECT_NE(e.find("compute.accelerator (from --accelerator v100): unknown accelerator \"v100\" "
                   "(known: a100, h100)"),
            std::string::npos)
      << e;
}

TEST(JobIo, ValidationInheritsFromDataset) {
  Job j = parse_ok(
      "[dataset]\ndir = \"data/i\"\nformat = \"jpeg\"\nnum_files = 100\nsample_size = \"110KiB\"\n"
      "seed = 4\n[validation]\nnum_files = 10\n");
  ASSERT_TRUE(j.validation);
  EXPECT_EQ(j.validation->format, Format::jpeg);
  EXPECT_EQ(j.validation->num_files, 10u);
  EXPECT_EQ(j.validation->sample_size.value, 110 * 1024);
  EXPECT_EQ(j.validation->dir, "data/i-valid");
  EXPECT_EQ(j.validation->seed, 5u);
}

TEST(JobIo, CheckpointEnabledByCadence) {
  Job j = parse_ok(
      "[job]\nname = \"n\"\n[dataset]\ndir = \"d\"\nsample_size = 1\n[checkpoint]\nevery_steps = "
      "10\nsize = \"1GiB\"\nfiles = 8\n");
  EXPECT_TRUE(j.checkpoint.enabled);
  EXPECT_EQ(j.checkpoint.every_steps, 10u);
  EXPECT_EQ(j.checkpoint.size_bytes, 1u << 30);
  EXPECT_EQ(j.checkpoint.dir, fs::path("checkpoints/n"));
  JobLoadOptions o;
  o.overrides = {"checkpoint.enabled=false"};
  EXPECT_FALSE(
      parse_ok(
          "[dataset]\ndir = \"d\"\nsample_size = 1\n[checkpoint]\nevery_steps = 10\nsize = 1\n", o)
          .checkpoint.enabled);
}

// checkpoint.after_epochs: the epochs a program saved after, in no every-N rhythm. It turns the
// checkpoints on, round-trips, and each bad entry is named with its index and line; it is one
// cadence, every_epochs another.
TEST(JobIo, CheckpointAfterListedEpochs) {
  constexpr std::string_view head = "[dataset]\ndir = \"d\"\nsample_size = 1\n[run]\nepochs = 8\n";
  Job j = parse_ok(std::string(head) + "[checkpoint]\nafter_epochs = [1, 2, 3, 4, 6]\nsize = 9\n");
  EXPECT_TRUE(j.checkpoint.enabled);
  EXPECT_EQ(j.checkpoint.after_epochs, (std::vector<std::uint32_t>{1, 2, 3, 4, 6}));
  for (std::uint32_t e = 1; e <= 8; ++e)
    EXPECT_EQ(j.checkpoint.after_epoch(e), e <= 4 || e == 6) << e;
  const std::string text = to_toml(j);
  EXPECT_NE(text.find("after_epochs = [1, 2, 3, 4, 6]\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("\nevery_epochs"), std::string::npos) << text;
  auto back = parse_job(text, "t.toml");
  ASSERT_TRUE(back) << back.error().message << "\n" << text;
  EXPECT_TRUE(*back == j) << text;
  EXPECT_EQ(to_toml(*back), text);
  // --set takes a TOML array.
  JobLoadOptions o;
  o.overrides = {"checkpoint.after_epochs=[2, 5]"};
  EXPECT_EQ(parse_ok(text, o).checkpoint.after_epochs, (std::vector<std::uint32_t>{2, 5}));

  const std::string typed =
      parse_err(std::string(head) + "[checkpoint]\nsize = 9\nafter_epochs = [2, \"x\"]\n");
  EXPECT_NE(typed.find("checkpoint.after_epochs[1]"), std::string::npos) << typed;
  EXPECT_NE(typed.find("expected a whole number"), std::string::npos) << typed;
  EXPECT_NE(typed.find(":8"), std::string::npos) << "the line: " << typed;
  const std::string bad =
      parse_err(std::string(head) + "[checkpoint]\nsize = 9\nafter_epochs = [2, 0, 0]\n");
  EXPECT_NE(bad.find("checkpoint.after_epochs[1]: must be >= 1"), std::string::npos) << bad;
  EXPECT_NE(bad.find("checkpoint.after_epochs[2]: must be above the one before it"),
            std::string::npos)
      << bad;
  EXPECT_NE(parse_err(std::string(head) + "[checkpoint]\nsize = 9\nafter_epochs = 3\n")
                .find("checkpoint.after_epochs"),
            std::string::npos);
  EXPECT_NE(parse_err(std::string(head) +
                      "[checkpoint]\nsize = 9\nevery_epochs = 2\nafter_epochs = [3]\n")
                .find("checkpoint.after_epochs: and every_epochs are two cadences"),
            std::string::npos);
}

// checkpoint.final_size/final_files: a last save of its own size after the last epoch. It
// round-trips, is written only when set, and needs a byte a file; a checkpoint-only job refuses it.
TEST(JobIo, CheckpointFinalSave) {
  constexpr std::string_view head = "[dataset]\ndir = \"d\"\nsample_size = 1\n[run]\nepochs = 6\n";
  Job j = parse_ok(std::string(head) +
                   "[checkpoint]\nevery_epochs = 1\nsize = 9\nfinal_size = 5\nfinal_files = 2\n");
  EXPECT_EQ(j.checkpoint.final_size_bytes, 5u);
  EXPECT_EQ(j.checkpoint.final_files, 2u);
  const std::string text = to_toml(j);
  EXPECT_NE(text.find("final_size = \"5B\"\nfinal_files = 2\n"), std::string::npos) << text;
  auto back = parse_job(text, "t.toml");
  ASSERT_TRUE(back) << back.error().message << "\n" << text;
  EXPECT_TRUE(*back == j) << text;
  EXPECT_EQ(to_toml(parse_ok(std::string(head) + "[checkpoint]\nevery_epochs = 1\nsize = 9\n"))
                .find("final_"),
            std::string::npos);
  EXPECT_NE(parse_err(std::string(head) +
                      "[checkpoint]\nevery_epochs = 1\nsize = 9\nfinal_size = 1\nfinal_files = 2\n")
                .find("checkpoint.final_size: must be at least one byte per file"),
            std::string::npos);
  EXPECT_NE(parse_err("[run]\ntrain = false\n[checkpoint]\nwrites = 2\nsize = 9\nfinal_size = 5\n")
                .find("final_size"),
            std::string::npos);
}

// reader.shuffle_block: read, written only when set, round-tripped; a stream is not shuffled in
// blocks (the bad-jobs folder holds the file shuffle's error with its line).
TEST(JobIo, ShuffleBlock) {
  constexpr std::string_view head =
      "[dataset]\ndir = \"d\"\nnum_files = 4\nsamples_per_file = 160\nsample_size = 3000\n";
  Job j = parse_ok(std::string(head) + "[reader]\nread = \"sample\"\nshuffle = \"sample\"\n" +
                   "shuffle_block = 40\n");
  EXPECT_EQ(j.reader.shuffle_block, 40u);
  const std::string text = to_toml(j);
  EXPECT_NE(text.find("shuffle_block = 40"), std::string::npos) << text;
  auto back = parse_job(text, "t.toml");
  ASSERT_TRUE(back) << back.error().message << "\n" << text;
  EXPECT_TRUE(*back == j) << text;
  EXPECT_EQ(to_toml(parse_ok(head)).find("shuffle_block"), std::string::npos);
  EXPECT_NE(parse_err(std::string(head) + "[reader]\nread = \"stream\"\nshuffle = \"file\"\n" +
                      "shuffle_block = 40\n")
                .find("reader.shuffle_block: needs shuffle = \"sample\""),
            std::string::npos);
  EXPECT_NE(parse_err(std::string(head) + "[reader]\nread = \"stream\"\nshuffle = \"file\"\n" +
                      "shuffle_block = 40\n")
                .find("reader.shuffle_block: applies to read = \"sample\" or \"file\""),
            std::string::npos);
}

// A histogram's weights are written as numbers a reader of the job recognises: a whole weight
// whole (10 had come out as the shortest %g, "1e+01", in the distilled GPU imagenet job), a
// fraction as its shortest exact text; both read back to the same job.
TEST(JobIo, HistogramWeightsAreWrittenPlainly) {
  const Job j = parse_ok(
      "[dataset]\ndir = \"d\"\nnum_files = 10\nsample_size = 900\n[compute]\ntime = { dist = "
      "\"histogram\", bins = [[\"1ms\", \"1ms\", 10], [\"2ms\", \"2ms\", 2.5], [\"3ms\", "
      "\"3ms\", 1000000]] }\n");
  const std::string text = to_toml(j);
  EXPECT_NE(
      text.find(
          "[\"0.001s\", \"0.001s\", 10.0], [\"0.002s\", \"0.002s\", 2.5], [\"0.003s\", \"0.003s\", "
          "1000000.0]"),
      std::string::npos)
      << text;
  EXPECT_EQ(text.find("e+"), std::string::npos) << text;
  auto back = parse_job(text, "t.toml");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_TRUE(*back == j) << text;
}

// reader.batch_size as a distribution (batches that vary): read with batch_size its rounded
// mean, written back as the table, round-tripped; a fixed one is the integer; samples are bare
// numbers; a stream cuts its own batches (the bad-jobs folder holds it with its line).
TEST(JobIo, BatchSizeDistribution) {
  constexpr std::string_view head = "[dataset]\ndir = \"d\"\nnum_files = 1200\nsample_size = 900\n";
  Job j = parse_ok(std::string(head) +
                   "[reader]\nbatch_size = { dist = \"histogram\", bins = [[2, 3], [11, 2], "
                   "[64, 1]] }\n");
  ASSERT_TRUE(j.reader.batches_vary());
  EXPECT_EQ(j.reader.batch_sizes.bins.size(), 3u);
  EXPECT_EQ(j.reader.batch_size, 15u);  // (2x3 + 11x2 + 64) / 6 = 15.3
  const std::string text = to_toml(j);
  EXPECT_NE(text.find("batch_size = { dist = \"histogram\", bins = [[2, 2, 3.0], [11, 11, 2.0], "
                      "[64, 64, 1.0]] }"),
            std::string::npos)
      << text;
  auto back = parse_job(text, "t.toml");
  ASSERT_TRUE(back) << back.error().message << "\n" << text;
  EXPECT_TRUE(*back == j) << text;
  // One size, as a table or an integer: the same job as ever.
  const Job fixed = parse_ok(std::string(head) + "[reader]\nbatch_size = { value = 8 }\n");
  EXPECT_FALSE(fixed.reader.batches_vary());
  EXPECT_EQ(fixed.reader.batch_size, 8u);
  EXPECT_TRUE(parse_ok(std::string(head) + "[reader]\nbatch_size = 8\n") == fixed);
  EXPECT_NE(to_toml(fixed).find("batch_size = 8\n"), std::string::npos);
  EXPECT_NE(parse_err(std::string(head) + "[reader]\nbatch_size = { min = \"2KiB\", max = 9 }\n")
                .find("t.toml:6: reader.batch_size.min: expected a number of samples"),
            std::string::npos);
  EXPECT_NE(parse_err(std::string(head) + "[reader]\nread = \"stream\"\n" +
                      "batch_size = { min = 2, max = 9 }\n")
                .find("reader.batch_size: a distribution of batch sizes applies to read"),
            std::string::npos);
}

TEST(JobIo, WorkerPace) {
  constexpr std::string_view head = "[dataset]\ndir = \"d\"\nsample_size = 1\n";
  Job j = parse_ok(std::string(head) + "[reader]\nworker_pace = [0.8, 1, 1.2]\n");
  EXPECT_EQ(j.reader.worker_pace, (std::vector<double>{0.8, 1.0, 1.2}));
  const std::string text = to_toml(j);
  EXPECT_NE(text.find("worker_pace = [0.8, 1.0, 1.2]"), std::string::npos) << text;
  auto back = parse_job(text, "t.toml");
  ASSERT_TRUE(back) << back.error().message << "\n" << text;
  EXPECT_TRUE(*back == j) << text;
  EXPECT_EQ(to_toml(parse_ok(head)).find("worker_pace"), std::string::npos);
  // Each bad factor is named with its index and line; a factor of 100+ is refused.
  EXPECT_NE(parse_err(std::string(head) + "[reader]\nworker_pace = [1, 0, \"x\"]\n")
                .find("t.toml:5: reader.worker_pace[1]: expected a number > 0, got 0"),
            std::string::npos);
  EXPECT_NE(parse_err(std::string(head) + "[reader]\nworker_pace = [1, 0, \"x\"]\n")
                .find("reader.worker_pace[2]: expected a number > 0"),
            std::string::npos);
  EXPECT_NE(parse_err(std::string(head) + "[reader]\nworker_pace = [1, 150]\n")
                .find("reader.worker_pace: factor 1 must be at most 100"),
            std::string::npos);
}

Job rich_job() {
  Job j;
  j.name = "rich \"quoted\" name";
  j.description = "every field away from its default";
  j.source = "x.toml";
  j.dataset.dir = "data/rich";
  j.dataset.format = Format::hdf5;
  j.dataset.num_files = 12345;
  j.dataset.samples_per_file = 3;
  j.dataset.sample_size.kind = DistKind::histogram;
  j.dataset.sample_size.bins = {{1000, 2000.5, 3}, {4096, 4096, 0.25}};
  j.dataset.sample_size.min = 512;
  j.dataset.seed = 99;
  j.dataset.files_per_dir = 100;
  j.dataset.file_prefix = "shard";
  DatasetSpec v = j.dataset;
  v.dir = "data/rich-v";
  v.sample_size = Distribution{};
  v.sample_size.kind = DistKind::uniform;
  v.sample_size.min = 100;
  v.sample_size.max = 200;
  j.validation = v;
  j.reader = {8,  3,    4,   Shuffle::sample, 1000, 0, 17, ReadUnit::sample, 1 << 20, 4096,
              32, true, true};
  j.reader.startup_s = 0.25;
  j.reader.warmup_s = 0.08;
  j.reader.readahead_bytes = 65536;
  j.reader.startup_spread.kind = DistKind::histogram;
  j.reader.startup_spread.bins = {{0.116, 0.116, 1}, {0.134, 0.134, 1}};
  j.compute.accelerator = "h100";
  j.compute.step_time.kind = DistKind::gamma;
  j.compute.step_time.mean = 0.1234567;
  j.compute.step_time.stdev = 0.01;
  j.compute.per_accelerator["h100"].time = Distribution::fixed_at(0.00351);
  Distribution ln;
  ln.kind = DistKind::lognormal;
  ln.mean = 0.6;
  ln.stdev = 0.1;
  ln.max = 2;
  j.compute.per_accelerator["a100"].time = ln;
  j.compute.au_threshold = 0.7;
  j.checkpoint = {true, 2, 100, 3ull << 30, 8, 16 << 20, 0, false, "ck/dir", true};
  j.run = {3, 2, 50, 1, CacheMode::drop_epoch, 90.5};
  j.scales["small"] = {{"dataset.num_files", "16"}, {"run.epochs", "1"}};
  j.scales["tiny"] = {
      {"dataset.sample_size", "{ dist = \"normal\", mean = \"1MiB\", stdev = \"1KiB\" }"}};
  return j;
}

TEST(JobIo, RoundTripWritesWhatItReads) {
  const Job j = rich_job();
  ASSERT_TRUE(validate(j).empty()) << validate(j)[0].path << ": " << validate(j)[0].message;
  const std::string text =
      to_toml(j, {{"dataset.num_files", "from the trace"}, {"reader", "reader section"}});
  auto back = parse_job(text, "x.toml");
  ASSERT_TRUE(back) << back.error().message << "\n" << text;
  EXPECT_TRUE(*back == j) << text;
  EXPECT_NE(text.find("num_files = 12345  # from the trace\n"), std::string::npos) << text;
  EXPECT_NE(text.find("[reader]  # reader section\n"), std::string::npos) << text;
  EXPECT_EQ(to_toml(*back, {{"dataset.num_files", "from the trace"}, {"reader", "reader section"}}),
            text);
}

// run.eval_every_steps (an evaluation every N steps, nanoGPT's eval_interval) is read, written
// back only when set, and kept through a round trip.
TEST(JobIo, EvaluationByStepRoundTrips) {
  Job j = rich_job();
  j.run.eval_every_epochs = 0;
  j.run.eval_every_steps = 40;
  ASSERT_TRUE(validate(j).empty()) << validate(j)[0].path << ": " << validate(j)[0].message;
  const std::string text = to_toml(j);
  EXPECT_NE(text.find("eval_every_steps = 40\n"), std::string::npos) << text;
  auto back = parse_job(text, "x.toml");
  ASSERT_TRUE(back) << back.error().message << "\n" << text;
  EXPECT_EQ(back->run.eval_every_steps, 40u);
  EXPECT_TRUE(*back == j) << text;
  EXPECT_EQ(to_toml(rich_job()).find("eval_every_steps"), std::string::npos);
}

TEST(JobIo, RoundTripOfDefaultJob) {
  Job j;
  j.name = "d";
  j.dataset.dir = "x";
  j.dataset.sample_size = Distribution::fixed_at(4096);
  auto back = parse_job(to_toml(j), "");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_TRUE(*back == j) << to_toml(j);
}

// reader.startup_spread: left out when every accelerator starts together (the default), written
// and read back as a distribution of seconds otherwise; a negative spread is refused.
TEST(JobIo, ReaderStartupSpreadRoundTrips) {
  const std::string base = "[dataset]\ndir = \"d\"\nsample_size = 4096\n[reader]\n";
  auto none = parse_job(base, "t.toml");
  ASSERT_TRUE(none) << none.error().message;
  EXPECT_TRUE(none->reader.startup_spread == Distribution{});
  EXPECT_EQ(to_toml(*none).find("startup_spread"), std::string::npos) << to_toml(*none);
  auto r = parse_job(base +
                         "startup_spread = { dist = \"uniform\", min = \"0.1s\", max = "
                         "\"0.15s\" }\n",
                     "t.toml");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->reader.startup_spread.kind, DistKind::uniform);
  EXPECT_DOUBLE_EQ(r->reader.startup_spread.max, 0.15);
  const std::string text = to_toml(*r);
  auto back = parse_job(text, "t.toml");
  ASSERT_TRUE(back) << back.error().message << "\n" << text;
  EXPECT_TRUE(*back == *r) << text;
  auto bad = parse_job(base + "startup_spread = \"-1s\"\n", "t.toml");
  EXPECT_TRUE(!bad || !validate(*bad).empty());
}

TEST(JobIo, ReaderStartupRoundTrips) {
  auto r = parse_job("[dataset]\ndir = \"d\"\nsample_size = 4096\n[reader]\nstartup = \"0.25s\"\n",
                     "t.toml");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_DOUBLE_EQ(r->reader.startup_s, 0.25);
  const std::string text = to_toml(*r);
  EXPECT_NE(text.find("startup = \"0.25s\""), std::string::npos) << text;
  auto back = parse_job(text, "t.toml");
  ASSERT_TRUE(back) << back.error().message << "\n" << text;
  EXPECT_TRUE(*back == *r) << text;
}

// reader.eval_startup: written only when set, read back as set (0 included: an evaluation loader
// that starts at once while training's takes its time); unset, evaluation passes wait startup.
TEST(JobIo, ReaderEvalStartupRoundTripsOnlyWhenSet) {
  auto r = parse_job(
      "[dataset]\ndir = \"d\"\nsample_size = 4096\n[reader]\nstartup = \"0.01s\"\n"
      "eval_startup = \"0.12s\"\n",
      "t.toml");
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_TRUE(r->reader.eval_startup_s.has_value());
  EXPECT_DOUBLE_EQ(*r->reader.eval_startup_s, 0.12);
  EXPECT_DOUBLE_EQ(r->reader.startup(true), 0.12);
  EXPECT_DOUBLE_EQ(r->reader.startup(false), 0.01);
  const std::string text = to_toml(*r);
  EXPECT_NE(text.find("eval_startup = \"0.12s\""), std::string::npos) << text;
  auto back = parse_job(text, "t.toml");
  ASSERT_TRUE(back) << back.error().message << "\n" << text;
  EXPECT_TRUE(*back == *r) << text;
  r->reader.eval_startup_s = 0.0;
  auto zero = parse_job(to_toml(*r), "t.toml");
  ASSERT_TRUE(zero) << zero.error().message;
  ASSERT_TRUE(zero->reader.eval_startup_s.has_value());
  EXPECT_DOUBLE_EQ(zero->reader.startup(true), 0.0);
  r->reader.eval_startup_s.reset();
  EXPECT_EQ(to_toml(*r).find("eval_startup"), std::string::npos);
  EXPECT_DOUBLE_EQ(r->reader.startup(true), 0.01);
  auto hour = parse_job(
      "[dataset]\ndir = \"d\"\nsample_size = 4096\n[reader]\neval_startup = \"2h\"\n", "t.toml");
  EXPECT_FALSE(hour) << "longer than an hour";
}

TEST(JobIo, ReaderWarmupRoundTripsAndRejectsNegative) {
  auto r = parse_job("[dataset]\ndir = \"d\"\nsample_size = 4096\n[reader]\nwarmup = \"80ms\"\n",
                     "t.toml");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_DOUBLE_EQ(r->reader.warmup_s, 0.08);
  auto back = parse_job(to_toml(*r), "t.toml");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_TRUE(*back == *r) << to_toml(*r);
  auto bad = parse_job("[dataset]\ndir = \"d\"\nsample_size = 4096\n[reader]\nwarmup = \"-1s\"\n",
                       "t.toml");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("warmup"), std::string::npos) << bad.error().message;
}

TEST(JobIo, ReadaheadRoundTripsAndNeedsSampleReads) {
  auto r = parse_job(
      "[dataset]\ndir = \"d\"\nformat = \"hdf5\"\nsample_size = 4096\nsamples_per_file = 8\n"
      "[reader]\nread = \"sample\"\nreadahead = \"64KiB\"\n",
      "t.toml");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->reader.readahead_bytes, 65536u);
  auto back = parse_job(to_toml(*r), "t.toml");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_TRUE(*back == *r);
  auto bad = parse_job(
      "[dataset]\ndir = \"d\"\nsample_size = 4096\n[reader]\nreadahead = \"64KiB\"\n", "t.toml");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("readahead"), std::string::npos) << bad.error().message;
}

// dataset.files_per_sample: left out at 1 (jobs of one-file samples read as before), written and
// read back otherwise; [validation] inherits it; a count that does not pair up is refused.
TEST(JobIo, FilesPerSampleRoundTripsAndIsInherited) {
  const std::string base = "[dataset]\ndir = \"d\"\nsample_size = 4096\nnum_files = 40\n";
  auto one = parse_job(base, "t.toml");
  ASSERT_TRUE(one) << one.error().message;
  EXPECT_EQ(one->dataset.files_per_sample, 1u);
  EXPECT_EQ(to_toml(*one).find("files_per_sample"), std::string::npos) << to_toml(*one);
  auto r = parse_job(base + "files_per_sample = 2\n[validation]\nnum_files = 8\n", "t.toml");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->dataset.files_per_sample, 2u);
  ASSERT_TRUE(r->validation.has_value());
  EXPECT_EQ(r->validation->files_per_sample, 2u);
  const std::string text = to_toml(*r);
  EXPECT_NE(text.find("files_per_sample = 2"), std::string::npos) << text;
  auto back = parse_job(text, "t.toml");
  ASSERT_TRUE(back) << back.error().message << "\n" << text;
  EXPECT_TRUE(*back == *r) << text;
  auto eval = parse_job(base + "[reader]\neval_batch_size = 1\n", "t.toml");
  ASSERT_TRUE(eval) << eval.error().message;
  EXPECT_EQ(eval->reader.eval_batch_size, 1u);
  EXPECT_NE(to_toml(*eval).find("eval_batch_size = 1"), std::string::npos);
  EXPECT_EQ(to_toml(*one).find("eval_batch_size"), std::string::npos);
  auto odd = parse_job(base + "files_per_sample = 3\n", "t.toml");
  ASSERT_FALSE(odd);
  EXPECT_NE(odd.error().message.find("multiple of files_per_sample"), std::string::npos)
      << odd.error().message;
}

TEST(JobIo, ProbeRoundTripsAndNeedsFileReads) {
  auto r = parse_job("[dataset]\ndir = \"d\"\nsample_size = 4096\n[reader]\nprobe = \"4KiB\"\n",
                     "t.toml");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->reader.probe_bytes, 4096u);
  auto back = parse_job(to_toml(*r), "t.toml");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_TRUE(*back == *r);
  auto bad = parse_job(
      "[dataset]\ndir = \"d\"\nformat = \"hdf5\"\nsample_size = 4096\nsamples_per_file = 4\n"
      "[reader]\nread = \"sample\"\nprobe = \"4KiB\"\n",
      "t.toml");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("probe"), std::string::npos) << bad.error().message;
}

TEST(JobIo, ReaderPreprocessRoundTrips) {
  auto d = parse_job("[dataset]\ndir = \"d\"\nsample_size = 4096\n", "t.toml");
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_EQ(d->reader.preprocess, Distribution::fixed_at(0));
  auto r = parse_job("[dataset]\ndir = \"d\"\nsample_size = 4096\n[reader]\npreprocess = \"5ms\"\n",
                     "t.toml");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_DOUBLE_EQ(r->reader.preprocess.expected(), 0.005);
  std::string text = to_toml(*r);
  EXPECT_NE(text.find("preprocess = \"0.005s\""), std::string::npos) << text;
  auto back = parse_job(text, "t.toml");
  ASSERT_TRUE(back) << back.error().message << "\n" << text;
  EXPECT_TRUE(*back == *r) << text;
  auto n = parse_job(
      "[dataset]\ndir = \"d\"\nsample_size = 4096\n[reader]\n"
      "preprocess = { dist = \"normal\", mean = \"4ms\", stdev = \"1ms\" }\n",
      "t.toml");
  ASSERT_TRUE(n) << n.error().message;
  EXPECT_EQ(n->reader.preprocess.kind, DistKind::normal);
  EXPECT_DOUBLE_EQ(n->reader.preprocess.mean, 0.004);
  text = to_toml(*n);
  back = parse_job(text, "t.toml");
  ASSERT_TRUE(back) << back.error().message << "\n" << text;
  EXPECT_TRUE(*back == *n) << text;
}

// compute.batch_overhead: absent by default and then not written (old job files stay as they are);
// a duration or a distribution, written back as read; negative refused.
TEST(JobIo, BatchOverheadRoundTripsAndIsOmittedWhenAbsent) {
  auto d = parse_job("[dataset]\ndir = \"d\"\nsample_size = 4096\n", "t.toml");
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_EQ(d->compute.batch_overhead, Distribution{});
  EXPECT_EQ(to_toml(*d).find("batch_overhead"), std::string::npos);
  auto r = parse_job(
      "[dataset]\ndir = \"d\"\nsample_size = 4096\n[compute]\ntime = \"4ms\"\n"
      "batch_overhead = \"1.8ms\"\n",
      "t.toml");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_DOUBLE_EQ(r->compute.batch_overhead.expected(), 0.0018);
  std::string text = to_toml(*r);
  EXPECT_NE(text.find("batch_overhead = \"0.0018"), std::string::npos) << text;
  auto back = parse_job(text, "t.toml");
  ASSERT_TRUE(back) << back.error().message << "\n" << text;
  EXPECT_TRUE(*back == *r) << text;
  auto h = parse_job(
      "[dataset]\ndir = \"d\"\nsample_size = 4096\n[compute]\n"
      "batch_overhead = { dist = \"histogram\", bins = [[\"1ms\", \"1ms\", 3], [\"5ms\", \"5ms\", "
      "1]] }\n",
      "t.toml");
  ASSERT_TRUE(h) << h.error().message;
  EXPECT_DOUBLE_EQ(h->compute.batch_overhead.expected(), 0.002);
  text = to_toml(*h);
  back = parse_job(text, "t.toml");
  ASSERT_TRUE(back) << back.error().message << "\n" << text;
  EXPECT_TRUE(*back == *h) << text;
  auto neg = parse_job(
      "[dataset]\ndir = \"d\"\nsample_size = 4096\n[compute]\nbatch_overhead = \"-1ms\"\n",
      "t.toml");
  ASSERT_FALSE(neg);
  EXPECT_NE(neg.error().message.find("compute.batch_overhead"), std::string::npos)
      << neg.error().message;
}

// How a checkpoint is written: the defaults (pwrite, buffered, no copy) are not written out; the
// others round-trip.
TEST(JobIo, CheckpointWritePatternRoundTrips) {
  auto d = parse_job(
      "[dataset]\ndir = \"d\"\nsample_size = 4096\n[checkpoint]\nevery_epochs = 1\nsize = "
      "\"1MiB\"\n",
      "t.toml");
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_EQ(d->checkpoint.write_call, WriteCall::pwrite);
  EXPECT_EQ(d->checkpoint.copy, CopyCall::none);
  std::string text = to_toml(*d);
  EXPECT_EQ(text.find("write_call"), std::string::npos) << text;
  EXPECT_EQ(text.find("copy"), std::string::npos) << text;
  auto r = parse_job(
      "[dataset]\ndir = \"d\"\nsample_size = 4096\n[checkpoint]\nevery_epochs = 1\nsize = "
      "\"1MiB\"\n"
      "write_call = \"writev\"\ndirect = true\nfsync = false\ncopy = \"sendfile\"\n"
      "copy_every = 2\n",
      "t.toml");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->checkpoint.write_call, WriteCall::writev);
  EXPECT_TRUE(r->checkpoint.direct);
  EXPECT_EQ(r->checkpoint.copy, CopyCall::sendfile);
  EXPECT_EQ(r->checkpoint.copy_every, 2u);
  text = to_toml(*r);
  auto back = parse_job(text, "t.toml");
  ASSERT_TRUE(back) << back.error().message << "\n" << text;
  EXPECT_TRUE(*back == *r) << text;
  auto bad = parse_job(
      "[dataset]\ndir = \"d\"\nsample_size = 4096\n[checkpoint]\nevery_epochs = 1\nsize = "
      "\"1MiB\"\n"
      "write_call = \"mmap\"\n",
      "t.toml");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("checkpoint.write_call"), std::string::npos)
      << bad.error().message;
}

TEST(JobIo, LoadJobReportsMissingFile) {
  auto r = load_job("/nonexistent/job.toml");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::bad_input);
  EXPECT_NE(r.error().message.find("/nonexistent/job.toml: cannot open job file"),
            std::string::npos);
}

// Every shipped job parses and validates, at full size and small, on each accelerator it defines,
// and survives a round trip through to_toml.
TEST(ShippedJobs, ParseValidateAndRoundTrip) {
  int seen = 0;
  for (const auto& e : fs::directory_iterator(kSource / "jobs")) {
    if (e.path().extension() != ".toml") continue;
    ++seen;
    SCOPED_TRACE(e.path().string());
    auto full = load_job(e.path());
    ASSERT_TRUE(full) << full.error().message;
    if (!full->run
             .train) {  // checkpoint-only (LLM) jobs: no dataset, no compute; small writes little
      JobLoadOptions small;
      small.scale = "small";
      auto s = load_job(e.path(), small);
      ASSERT_TRUE(s) << s.error().message;
      const double bytes =
          double(checkpoint_bytes(host_shards(*s))) * std::max(s->checkpoint.writes, 1u);
      EXPECT_LT(bytes, 1.0 * (1ull << 30)) << "small scale must stay small";
      EXPECT_EQ(s->checkpoint.dir.string().rfind("data/checkpoints/" + full->name, 0), 0u);
      auto back = parse_job(to_toml(*full), e.path());
      ASSERT_TRUE(back) << back.error().message;
      EXPECT_TRUE(*back == *full);
      continue;
    }
    // MLPerf's v2.0 workloads default to h100; v3.0's (retinanet, flux, dlrm) to b200 (the
    // accelerator its CLOSED division names; they define no h100 step time).
    const bool v3 = full->name == "retinanet" || full->name == "flux" || full->name == "dlrm";
    EXPECT_EQ(full->compute.accelerator, v3 ? "b200" : "h100") << full->name;
    EXPECT_GT(full->compute.effective().expected(), 0);
    EXPECT_EQ(full->dataset.dir.string().rfind("data/" + full->name, 0), 0u)
        << "dataset dirs live under data/<name>";
    JobLoadOptions small;
    small.scale = "small";
    auto s = load_job(e.path(), small);
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_LE(s->dataset.num_files, full->dataset.num_files);
    // A small scale keeps the sample sizes, or shrinks sizes and compute time together and keeps
    // the steps an epoch (unet3d: the demand per accelerator and the epoch shape stay the full
    // job's).
    if (!(s->dataset.sample_size == full->dataset.sample_size)) {
      EXPECT_EQ(s->dataset.num_files, full->dataset.num_files);
      EXPECT_NEAR((s->dataset.sample_size.expected() / s->compute.effective().expected()) /
                      (full->dataset.sample_size.expected() / full->compute.effective().expected()),
                  1.0, 1e-3);
    }
    const double small_bytes = s->dataset.sample_size.expected() *
                               double(s->dataset.samples_per_file) * double(s->dataset.num_files);
    EXPECT_LT(small_bytes, 3.0 * (1ull << 30)) << "small scale must stay small";
    for (const auto& [name, _] : full->compute.per_accelerator) {
      JobLoadOptions o;
      o.accelerator = name;
      EXPECT_TRUE(load_job(e.path(), o)) << name;
    }
    auto back = parse_job(to_toml(*full), e.path());
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_TRUE(*back == *full);
  }
  EXPECT_GE(seen, 6);
}

// Golden errors: each tests/data/jobs/bad/*.toml starts with "# expect: <message part>"; the line
// carrying "# <-" (if any) must be the line the message names.
TEST(BadJobs, GoldenMessages) {
  int seen = 0;
  for (const auto& e : fs::directory_iterator(kSource / "tests/data/jobs/bad")) {
    if (e.path().extension() != ".toml") continue;
    ++seen;
    SCOPED_TRACE(e.path().filename().string());
    std::ifstream in(e.path());
    std::string line, expect;
    std::getline(in, line);
    ASSERT_EQ(line.rfind("# expect: ", 0), 0u) << "first line must be '# expect: <message part>'";
    expect = line.substr(10);
    int n = 1, marked = 0;
    while (std::getline(in, line)) {
      ++n;
      if (line.find("# <-") != std::string::npos) marked = n;
    }
    auto r = load_job(e.path());
    ASSERT_FALSE(r) << "a bad job parsed";
    EXPECT_EQ(r.error().kind, ErrorKind::bad_input);
    const std::string& msg = r.error().message;
    EXPECT_NE(msg.find(expect), std::string::npos) << msg;
    if (marked) {
      EXPECT_NE(msg.find(e.path().string() + ":" + std::to_string(marked) + ":"), std::string::npos)
          << msg;
    }
  }
  EXPECT_GE(seen, 20);
}

}  // namespace
}  // namespace dlgen

namespace dlgen {
namespace {

// The demo (`dlgen run jobs/unet3d.toml --scale small`) must measure what the full job would: the
// same steps per epoch (the wait for each epoch's first batch weighs as at full size) and the same
// bandwidth each accelerator demands (batch x file size / compute time), on every accelerator.
TEST(JobIo, ShippedUnet3dSmallScaleKeepsStepsPerEpochAndDemand) {
  const auto path = std::filesystem::path(DLGEN_SOURCE_DIR) / "jobs/unet3d.toml";
  for (const char* acc : {"h100", "a100", "b200"}) {
    JobLoadOptions full_o, small_o;
    full_o.accelerator = small_o.accelerator = acc;
    small_o.scale = "small";
    Result<Job> full = load_job(path, full_o), small = load_job(path, small_o);
    ASSERT_TRUE(full) << full.error().message;
    ASSERT_TRUE(small) << small.error().message;
    EXPECT_EQ(small->dataset.num_files, full->dataset.num_files) << acc;
    EXPECT_EQ(small->reader.batch_size, full->reader.batch_size) << acc;
    const double demand_full =
        full->dataset.sample_size.expected() / full->compute.effective().expected();
    const double demand_small =
        small->dataset.sample_size.expected() / small->compute.effective().expected();
    EXPECT_NEAR(demand_small / demand_full, 1.0, 1e-3) << acc;
    EXPECT_LT(small->dataset.sample_size.expected() * double(small->dataset.num_files),
              2.0 * double(1ull << 30))
        << "the demo stays small";
  }
}

// jobs/retinanet.toml's demo (`--scale small`) keeps each accelerator's batch, compute time and
// file size (the demand per accelerator) and stays under a GiB.
TEST(JobIo, ShippedRetinanetSmallScaleKeepsEachAcceleratorsBatch) {
  const auto path = std::filesystem::path(DLGEN_SOURCE_DIR) / "jobs/retinanet.toml";
  for (const auto& [acc, batch] : {std::pair<const char*, std::uint32_t>{"b200", 24},
                                   std::pair<const char*, std::uint32_t>{"mi355", 32}}) {
    JobLoadOptions full_o, small_o;
    full_o.accelerator = small_o.accelerator = acc;
    small_o.scale = "small";
    Result<Job> full = load_job(path, full_o), small = load_job(path, small_o);
    ASSERT_TRUE(full) << full.error().message;
    ASSERT_TRUE(small) << small.error().message;
    EXPECT_EQ(full->reader.batch_size, batch) << acc;
    EXPECT_EQ(small->reader.batch_size, batch) << acc;
    EXPECT_EQ(full->dataset.num_files, 1170301u);
    EXPECT_EQ(small->dataset.num_files, 2400u);
    EXPECT_EQ(small->dataset.sample_size, full->dataset.sample_size);
    EXPECT_EQ(small->compute.effective(), full->compute.effective());
    EXPECT_EQ(small->dataset.num_files % batch, 0u) << "whole batches";
    EXPECT_LT(small->dataset.sample_size.expected() * double(small->dataset.num_files),
              double(1ull << 30));
  }
}

// reader.stream_granule and stream_tail: read as sizes, written back only when set (a job
// without them reads and writes as before, 0: today's bursts), and the same job again.
TEST(JobIo, StreamGranuleAndTailRoundTrip) {
  const std::string text =
      "[dataset]\ndir = \"d\"\nnum_files = 8\nsamples_per_file = 24\nsample_size = 6000\n"
      "[reader]\nread = \"stream\"\nstream_granule = \"8KiB\"\nstream_tail = 4509\n"
      "stream_head = 413\n";
  auto j = parse_job(text, "t.toml");
  ASSERT_TRUE(j) << j.error().message;
  EXPECT_EQ(j->reader.stream_granule_bytes, 8192u);
  EXPECT_EQ(j->reader.stream_tail_bytes, 4509u);
  EXPECT_EQ(j->reader.stream_head_bytes, 413u);
  const std::string written = to_toml(*j);
  EXPECT_NE(written.find("stream_granule = \"8KiB\""), std::string::npos) << written;
  auto back = parse_job(written, "t.toml");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_TRUE(*back == *j);
  j->reader.stream_granule_bytes = 0;  // a head is where the granule's grid starts: none without it
  bool refused = false;
  for (const auto& d : validate(*j)) refused |= d.path == "reader.stream_head";
  EXPECT_TRUE(refused);
  j->reader.stream_head_bytes = j->reader.stream_tail_bytes = 0;
  EXPECT_EQ(to_toml(*j).find("stream_"), std::string::npos);
}

// checkpoint.read_size: a size, written back only when set; unset, checkpoints are read back in
// the write size.
TEST(JobIo, CheckpointReadSizeRoundTrip) {
  const std::string text =
      "[dataset]\ndir = \"d\"\nnum_files = 8\nsample_size = 6000\n"
      "[checkpoint]\nrestore = true\nsize = \"8MiB\"\nwrite_size = \"5MiB\"\n"
      "read_size = \"2MiB\"\n";
  auto j = parse_job(text, "t.toml");
  ASSERT_TRUE(j) << j.error().message;
  EXPECT_EQ(j->checkpoint.read_size_bytes, 2u << 20);
  EXPECT_EQ(j->checkpoint.read_request_bytes(), 2u << 20);
  const std::string written = to_toml(*j);
  EXPECT_NE(written.find("read_size = \"2MiB\""), std::string::npos) << written;
  auto back = parse_job(written, "t.toml");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_TRUE(*back == *j);
  j->checkpoint.read_size_bytes = 0;
  EXPECT_EQ(j->checkpoint.read_request_bytes(), 5u << 20);
  EXPECT_EQ(to_toml(*j).find("read_size"), std::string::npos);
}

}  // namespace
}  // namespace dlgen
