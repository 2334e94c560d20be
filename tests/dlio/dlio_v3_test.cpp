// MLPerf Storage v3.0's workload configs as published (copies with their source and commit in
// tests/data/dlio/v3.0, DLIO's own llama_8b_zero3.yaml in tests/data/dlio/upstream) read into a
// Job with every number the config gives; the keys v3.0's release and mlpstorage add; an LLM's
// data-parallel size taken from the processes when the config leaves it out, as DLIO does.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "dlgen/core/job_io.hpp"
#include "dlgen/core/llm.hpp"
#include "dlgen/dlio/config.hpp"

namespace dlgen {
namespace {

const std::filesystem::path kV3 = std::filesystem::path(DLGEN_SOURCE_DIR) / "tests/data/dlio/v3.0";
const std::filesystem::path kUpstream =
    std::filesystem::path(DLGEN_SOURCE_DIR) / "tests/data/dlio/upstream";

DlioJob must_load(const std::filesystem::path& path, const std::vector<std::string>& overrides = {},
                  const DlioContext& context = {}) {
  Result<DlioJob> d = load_dlio(path, overrides, context);
  EXPECT_TRUE(d) << (d ? "" : d.error().message);
  return d ? *d : DlioJob{};
}

bool has_note(const DlioJob& d, const std::string& part) {
  return std::any_of(d.notes.begin(), d.notes.end(),
                     [&](const std::string& n) { return n.find(part) != std::string::npos; });
}

TEST(DlioV3, RetinanetOnB200AndMi355AsPublished) {
  struct Case {
    const char* file;
    std::uint32_t batch;
    double compute_s;
  };
  for (const Case& c :
       {Case{"retinanet_b200.yaml", 24, 0.04755}, Case{"retinanet_mi355.yaml", 32, 0.0634}}) {
    const Job j = must_load(kV3 / c.file).job;
    EXPECT_EQ(j.name, "retinanet") << c.file;
    EXPECT_EQ(j.dataset.dir, std::filesystem::path("data/retinanet/train"));
    EXPECT_EQ(j.dataset.format, Format::jpeg);
    EXPECT_EQ(j.dataset.num_files, 1170301u);
    EXPECT_EQ(j.dataset.samples_per_file, 1u);
    EXPECT_EQ(j.dataset.sample_size, Distribution::fixed_at(322957));
    EXPECT_EQ(j.reader.batch_size, c.batch) << c.file;
    EXPECT_EQ(j.reader.workers, 8u);
    EXPECT_EQ(j.reader.shuffle, Shuffle::sample);
    EXPECT_EQ(j.run.epochs, 8u);
    EXPECT_EQ(j.compute.effective(), Distribution::fixed_at(c.compute_s)) << c.file;
    EXPECT_DOUBLE_EQ(j.compute.au_threshold, 0.85);
    EXPECT_FALSE(j.checkpoint.enabled);
    EXPECT_TRUE(j.run.train);
  }
}

TEST(DlioV3, Unet3dOnB200WritesNoCheckpoint) {
  const DlioJob d = must_load(kV3 / "unet3d_b200.yaml");
  const Job& j = d.job;
  EXPECT_EQ(j.name, "unet3d");
  EXPECT_EQ(j.dataset.format, Format::npz);
  EXPECT_EQ(j.dataset.num_files, 7200u);
  EXPECT_EQ(j.dataset.sample_size.kind, DistKind::normal);
  EXPECT_EQ(j.dataset.sample_size.mean, 146600628);
  EXPECT_EQ(j.dataset.sample_size.stdev, 68341808);
  EXPECT_EQ(j.reader.batch_size, 7u);
  EXPECT_EQ(j.reader.workers, 4u);
  EXPECT_EQ(j.run.epochs, 5u);
  EXPECT_EQ(j.compute.effective(), Distribution::fixed_at(0.162));
  EXPECT_DOUBLE_EQ(j.compute.au_threshold, 0.90);
  // workflow.checkpoint: False: the checkpoint section is there but not in force, as in DLIO.
  EXPECT_FALSE(j.checkpoint.enabled);
  EXPECT_TRUE(has_note(d, "the checkpoint section is not in force")) << "note";
}

// The round's own copy (code images of mlcommons/storage_results_v3.0) and a run's merged config
// as mlpstorage leaves it: the keys they add load, each with a note.
TEST(DlioV3, ReleaseAndRunConfigsLoad) {
  const DlioJob release = must_load(kV3 / "unet3d_b200_release.yaml");
  EXPECT_EQ(release.job.reader.workers, 32u);
  EXPECT_TRUE(has_note(release, "reader.multiprocessing_context fork"));

  const DlioJob run = must_load(kV3 / "unet3d_b200_run.yaml");
  EXPECT_EQ(run.job.dataset.dir, std::filesystem::path("/mnt/alluxio/mlperf/unet3d/train"));
  EXPECT_EQ(run.job.dataset.num_files, 55500u);
  EXPECT_EQ(run.job.dataset.files_per_dir, 0u);
  EXPECT_EQ(run.job.reader.workers, 24u);
  EXPECT_TRUE(has_note(run, "dataset.skip_listing"));
  EXPECT_TRUE(has_note(run, "dataset.listing_validation_interval"));

  Result<DlioJob> bad = load_dlio(kV3 / "unet3d_b200_release.yaml",
                                  {"++workload.reader.multiprocessing_context=thread"});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("reader.multiprocessing_context: must be fork, spawn or "
                                     "forkserver"),
            std::string::npos)
      << bad.error().message;
}

// v3.0's llama3 configs: 8B and 70B say DP 1, 405B DP 2 (used as given); 1T gives none.
TEST(DlioV3, LlamaConfigsTakeTheDataParallelSizeTheyGive) {
  struct Case {
    const char* file;
    std::uint32_t tp, pp, dp, zero;
  };
  for (const Case& c : {Case{"llama3_8b.yaml", 1, 1, 1, 3}, Case{"llama3_70b.yaml", 8, 1, 1, 3},
                        Case{"llama3_405b.yaml", 8, 32, 2, 1}}) {
    const DlioJob d = must_load(kV3 / c.file);
    ASSERT_TRUE(d.job.model) << c.file;
    EXPECT_EQ(d.job.model->tensor, c.tp) << c.file;
    EXPECT_EQ(d.job.model->pipeline, c.pp) << c.file;
    EXPECT_EQ(d.job.model->data, c.dp) << c.file;
    EXPECT_EQ(d.job.model->zero_stage, c.zero) << c.file;
    EXPECT_FALSE(has_note(d, "model.parallelism.data not given")) << c.file;
    EXPECT_FALSE(d.job.run.train);
    EXPECT_EQ(d.job.checkpoint.writes, 10u);
    EXPECT_EQ(d.job.checkpoint.reads, 10u);
    EXPECT_DOUBLE_EQ(d.job.checkpoint.pause_s, 5.0);
    EXPECT_TRUE(d.job.checkpoint.fsync);
  }
}

// Without model.parallelism.data, DP = the processes / (TP x PP), the processes being the MPI
// ranks x the 8 ranks each host simulates, as DLIO takes it from its comm size; said in a note.
TEST(DlioV3, DataParallelSizeFromTheProcessesWhenNotGiven) {
  // 1T: TP 8 x PP 64 = 512 ranks a data-parallel replica; 128 hosts x 8 = 1024 processes: DP 2,
  // MLPerf's table (8 x 64 x 2).
  DlioContext hosts;
  hosts.mpi_ranks = 128;
  const DlioJob t = must_load(kV3 / "llama3_1t.yaml", {}, hosts);
  ASSERT_TRUE(t.job.model);
  EXPECT_EQ(t.job.model->data, 2u);
  EXPECT_EQ(t.job.model->world(), 1024u);
  EXPECT_TRUE(has_note(t,
                       "DP = 1024 processes (128 MPI rank(s) x 8 simulated ranks a host) / "
                       "(TP 8 x PP 64) = 2"));

  // One host's 8 processes are fewer than one replica of 512: refused with what works.
  Result<DlioJob> one = load_dlio(kV3 / "llama3_1t.yaml");
  ASSERT_FALSE(one);
  const std::string e = one.error().message;
  EXPECT_NE(e.find("llama3_1t.yaml:8: model.num_layers: model.parallelism.data is not given and 8 "
                   "processes (1 MPI rank(s) x 8 simulated ranks a host) are not a multiple of "
                   "tensor x pipeline = 512"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("mpirun -np 64"), std::string::npos) << e;
  // As mlpstorage runs 1T on one client: DP given, one host's subset.
  const DlioJob subset = must_load(kV3 / "llama3_1t.yaml", {"++workload.model.parallelism.data=2",
                                                            "++workload.checkpoint.mode=subset"});
  ASSERT_TRUE(subset.job.model);
  EXPECT_EQ(subset.job.model->world(), 1024u);
  EXPECT_EQ(subset.job.checkpoint.mode, CheckpointMode::subset);

  // An 8B-shaped model without DP on one host: DLIO's 8 processes, DP 8 (MLPerf's 1 x 1 x 8).
  const DlioJob eight = must_load(kV3 / "llama3_8b.yaml", {"~workload.model.parallelism.data"});
  ASSERT_TRUE(eight.job.model);
  EXPECT_EQ(eight.job.model->data, 8u);
  EXPECT_TRUE(has_note(eight, "DP = 8 processes (1 MPI rank(s) x 8 simulated ranks a host)"));
}

// DLIO's own llama_8b_zero3.yaml gives no DP either, trains with an LLM checkpoint every step,
// reads mmap_indexed_binary files and gives its datatypes under checkpoint:. It loads as
// published; what dlgen cannot honour (here a key added by override) is still refused by name.
TEST(DlioV3, DlioLlama8bZero3IsRefusedOnlyForWhatDlgenCannotRun) {
  const DlioJob d = must_load(kUpstream / "llama_8b_zero3.yaml");
  const Job& j = d.job;
  EXPECT_TRUE(j.run.train);
  ASSERT_TRUE(j.model);
  EXPECT_EQ(j.model->data, 1u);  // 1 process (one MPI rank x 1 accelerator) / (TP 1 x PP 1)
  EXPECT_EQ(j.model->zero_stage, 3u);
  EXPECT_EQ(j.model->datatype, DataType::fp16);            // checkpoint.model_datatype
  EXPECT_EQ(j.model->optimizer_datatype, DataType::fp32);  // checkpoint.optimizer_datatype
  EXPECT_TRUE(j.checkpoint.enabled);
  EXPECT_EQ(j.checkpoint.every_steps, 1u);
  EXPECT_EQ(j.checkpoint.size_bytes, 0u);  // the model sizes it
  EXPECT_EQ(j.run.max_steps, 5u);
  // mmap_indexed_binary: 1 file of 1,048,576 samples of 2,048 B, each read as its byte range.
  EXPECT_EQ(j.dataset.format, Format::raw);
  EXPECT_EQ(j.dataset.num_files, 1u);
  EXPECT_EQ(j.dataset.samples_per_file, 1048576u);
  EXPECT_EQ(j.dataset.sample_size, Distribution::fixed_at(2048));
  EXPECT_EQ(j.reader.read_unit, ReadUnit::sample);
  EXPECT_TRUE(has_note(d, "dataset.format mmap_indexed_binary"));
  EXPECT_TRUE(has_note(d, "DP = 1 processes (1 MPI rank(s) x 1 accelerator(s) a host)"));
  EXPECT_TRUE(has_note(d, "LLM checkpoints during training"));
  EXPECT_TRUE(validate(j).empty());
  // Each checkpoint: rank 0's weights (fp16) and optimizer state (fp32), ZeRO 3 over DP 1.
  const std::vector<RankShard> shards = training_shards(j);
  ASSERT_EQ(shards.size(), 1u);
  EXPECT_EQ(shards[0].model_bytes, parameter_count(*j.model) * 2);
  EXPECT_EQ(shards[0].files.size(), 2u);

  // The datatypes under model: and checkpoint: must agree.
  Result<DlioJob> both =
      load_dlio(kUpstream / "llama_8b_zero3.yaml", {"++workload.model.model_datatype=bf16"});
  ASSERT_FALSE(both);
  EXPECT_NE(both.error().message.find("llama_8b_zero3.yaml:49: checkpoint.model_datatype: differs "
                                      "from model.model_datatype"),
            std::string::npos)
      << both.error().message;
  // What dlgen cannot run is refused with its key.
  Result<DlioJob> shift = load_dlio(kUpstream / "llama_8b_zero3.yaml",
                                    {"++workload.checkpoint.recovery_rank_shift=True"});
  ASSERT_FALSE(shift);
  EXPECT_NE(shift.error().message.find("checkpoint.recovery_rank_shift"), std::string::npos);
  // The converted TOML reads back to the same Job.
  Result<Job> back = parse_job(to_toml(j, d.comments), "back.toml");
  ASSERT_TRUE(back) << back.error().message;
  Job a = j, b = *back;
  a.source.clear();
  b.source.clear();
  EXPECT_EQ(a, b);
}

// The converted TOML of every v3.0 config reads back to the same Job.
TEST(DlioV3, ConvertedTomlReadsBackToTheSameJob) {
  for (const char* f : {"retinanet_b200.yaml", "retinanet_mi355.yaml", "unet3d_b200.yaml",
                        "unet3d_b200_release.yaml", "unet3d_b200_run.yaml", "llama3_8b.yaml",
                        "llama3_70b.yaml", "llama3_405b.yaml"}) {
    const DlioJob d = must_load(kV3 / f);
    Result<Job> back = parse_job(to_toml(d.job, d.comments), std::string(f) + ".toml");
    ASSERT_TRUE(back) << f << ": " << back.error().message;
    Job a = d.job, b = *back;
    a.source.clear();  // where each was read from
    b.source.clear();
    EXPECT_EQ(a, b) << f << "\n" << to_toml(a) << "\n---\n" << to_toml(b);
  }
}

}  // namespace
}  // namespace dlgen
