// MLPerf Storage v3.0's workload configs as published, through the dlgen binary: each plans with
// the numbers the config gives (`run --dry-run -o plan.json`), converts, generates with small
// Hydra overrides and runs briefly; jobs/retinanet.toml's small scale on both accelerators; an LLM
// config without a data-parallel size plans with the one the processes give, and says so.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include "dlgen/core/json.hpp"
#include <string>

#include "shell.hpp"
#include "temp_dir.hpp"

namespace {

using dlgen::testing::Outcome;
using dlgen::testing::sh;
using dlgen::testing::TempDir;
namespace fs = std::filesystem;

const std::string kV3 = DLGEN_SOURCE_DIR "/tests/data/dlio/v3.0/";

Outcome dlgen(const std::string& args, const fs::path& cwd) {
  return sh("cd '" + cwd.string() + "' && DLGEN_NO_PROGRESS=1 timeout 300 '" DLGEN_BINARY "' " +
            args);
}

nlohmann::json plan_of(const std::string& args, const fs::path& cwd) {
  const Outcome o = dlgen("run " + args + " --dry-run -o plan.json", cwd);
  EXPECT_EQ(o.code, 0) << o.out;
  if (o.code != 0) return {};
  return nlohmann::json::parse(std::ifstream(cwd / "plan.json"));
}

TEST(V3Configs, TrainingConfigsPlanAsTheConfigSays) {
  TempDir dir;
  struct Case {
    const char* file;
    std::uint64_t files;
    std::uint32_t batch, epochs;
    double compute_s;
    const char* format;
  };
  for (const Case& c : {Case{"retinanet_b200.yaml", 1170301, 24, 8, 0.04755, "jpeg"},
                        Case{"retinanet_mi355.yaml", 1170301, 32, 8, 0.0634, "jpeg"},
                        Case{"unet3d_b200.yaml", 7200, 7, 5, 0.162, "npz"}}) {
    const nlohmann::json p = plan_of(kV3 + c.file, dir.path());
    ASSERT_FALSE(p.is_null()) << c.file;
    EXPECT_EQ(p["dataset"]["num_files"].get<std::uint64_t>(), c.files) << c.file;
    EXPECT_EQ(p["dataset"]["format"], c.format) << c.file;
    EXPECT_EQ(p["batch_size"].get<std::uint32_t>(), c.batch) << c.file;
    EXPECT_EQ(p["epochs"].get<std::uint32_t>(), c.epochs) << c.file;
    EXPECT_DOUBLE_EQ(p["compute_step_s"].get<double>(), c.compute_s) << c.file;
    // The steps of one accelerator: an epoch's batches, the last one partial (drop_last off).
    EXPECT_EQ(p["steps_per_epoch_per_accelerator"].get<std::uint64_t>(),
              (c.files + c.batch - 1) / c.batch)
        << c.file;
    EXPECT_EQ(p["checkpoint"]["count"].get<std::uint64_t>(), 0u)
        << c.file << ": v3.0 trains without checkpoints";
  }
  // retinanet: 1,170,301 files of exactly 322,957 B.
  const nlohmann::json r = plan_of(kV3 + "retinanet_b200.yaml", dir.path());
  EXPECT_EQ(r["dataset"]["bytes"].get<std::uint64_t>(), 1170301ull * 322957ull);
}

TEST(V3Configs, ConfigsConvert) {
  TempDir dir;
  for (const char* f : {"retinanet_b200.yaml", "retinanet_mi355.yaml", "unet3d_b200.yaml",
                        "unet3d_b200_release.yaml", "unet3d_b200_run.yaml", "llama3_8b.yaml",
                        "llama3_70b.yaml", "llama3_405b.yaml"}) {
    const Outcome o = dlgen("convert " + kV3 + f + " -o job.toml", dir.path());
    ASSERT_EQ(o.code, 0) << f << ": " << o.out;
    const Outcome v = dlgen("validate job.toml", dir.path());
    EXPECT_EQ(v.code, 0) << f << ": " << v.out;
  }
}

// Each training config generates and runs at a small size given by Hydra overrides, as a DLIO
// user shrinks it: real JPEG / npz files, every step computed.
TEST(V3Configs, TrainingConfigsGenerateAndRunSmall) {
  TempDir dir;
  struct Case {
    const char* file;
    const char* shrink;
  };
  for (const Case& c :
       {Case{"retinanet_b200.yaml", "++workload.dataset.num_files_train=96"},
        Case{"retinanet_mi355.yaml", "++workload.dataset.num_files_train=96"},
        Case{"unet3d_b200.yaml",
             "++workload.dataset.num_files_train=14 ++workload.dataset.record_length_bytes=65536 "
             "++workload.dataset.record_length_bytes_stdev=4096 "
             "++workload.train.computation_time=0.002"}}) {
    const std::string cfg = kV3 + c.file + " " + c.shrink +
                            " ++workload.train.epochs=1 ++workload.dataset.data_folder=" +
                            (dir.path() / "data" / c.file).string();
    const Outcome gen = dlgen("generate " + cfg + " -q", dir.path());
    ASSERT_EQ(gen.code, 0) << c.file << ": " << gen.out;
    const Outcome run = dlgen("run " + cfg + " --no-generate -q -o result.json", dir.path());
    ASSERT_EQ(run.code, 0) << c.file << ": " << run.out;
    const nlohmann::json j = nlohmann::json::parse(std::ifstream(dir.path() / "result.json"));
    // Every file once: 96 = 4 x 24 = 3 x 32, 14 = 2 x 7.
    const std::uint64_t files = std::string(c.file).rfind("unet3d", 0) == 0 ? 14 : 96;
    EXPECT_EQ(j["totals"]["samples"].get<std::uint64_t>(), files) << c.file;
  }
}

// dlrm_b200.yaml as published: 1,024 Parquet files of 4 Mi rows planned by arithmetic, each file
// its footer (over 64 KiB with 512 row groups: two reads, as Arrow's) and 512 row groups of three
// adjacent chunks (one range each); shrunk by Hydra
// overrides to two files, written with snappy pages and replayed: every row once, and the run's
// requests and bytes are the plan's.
TEST(V3Configs, DlrmConfigPlansAndRunsSmallWithSnappy) {
  TempDir dir;
  const nlohmann::json p = plan_of(kV3 + "dlrm_b200.yaml", dir.path());
  ASSERT_FALSE(p.is_null());
  EXPECT_EQ(p["dataset"]["num_files"].get<std::uint64_t>(), 1024u);
  EXPECT_EQ(p["dataset"]["parquet"]["row_groups_per_file"].get<std::uint64_t>(), 512u);
  EXPECT_EQ(p["batch_size"].get<std::uint32_t>(), 16384u);
  EXPECT_DOUBLE_EQ(p["compute_step_s"].get<double>(), 0.0005);
  EXPECT_EQ(p["parquet_reads_per_epoch"]["ranges"].get<std::uint64_t>(), 1024u * (512 + 2));

  const std::string cfg = kV3 +
                          "dlrm_b200.yaml ++workload.dataset.num_files_train=2 "
                          "++workload.dataset.num_samples_per_file=32768 "
                          "++workload.dataset.compression=snappy "
                          "++workload.dataset.data_folder=" +
                          (dir.path() / "data").string();
  const Outcome gen = dlgen("generate " + cfg + " -q", dir.path());
  ASSERT_EQ(gen.code, 0) << gen.out;
  const nlohmann::json small = plan_of(cfg, dir.path());
  ASSERT_FALSE(small.is_null());
  EXPECT_EQ(small["dataset"]["parquet"]["compression"], "snappy");
  const Outcome run = dlgen("run " + cfg + " --no-generate -q -o result.json", dir.path());
  ASSERT_EQ(run.code, 0) << run.out;
  const nlohmann::json j = nlohmann::json::parse(std::ifstream(dir.path() / "result.json"));
  EXPECT_EQ(j["totals"]["samples"].get<std::uint64_t>(), 2u * 32768);
  EXPECT_EQ(j["requests"].get<std::uint64_t>(),
            small["parquet_reads_per_epoch"]["ranges"].get<std::uint64_t>());
  EXPECT_EQ(j["bytes_read"].get<std::uint64_t>(),
            small["parquet_reads_per_epoch"]["bytes"].get<std::uint64_t>());
}

TEST(V3Configs, ShippedRetinanetSmallRunsOnBothAccelerators) {
  TempDir dir;
  for (const char* acc : {"b200", "mi355"}) {
    const nlohmann::json p = plan_of(std::string(DLGEN_SOURCE_DIR "/jobs/retinanet.toml") +
                                         " --scale small --accelerator " + acc,
                                     dir.path());
    ASSERT_FALSE(p.is_null());
    EXPECT_EQ(p["dataset"]["num_files"].get<std::uint64_t>(), 2400u);
    EXPECT_EQ(p["batch_size"].get<std::uint32_t>(), std::string(acc) == "b200" ? 24u : 32u);
  }
  // A brief real run of the small scale: a few files, one epoch, bounded by run.max_time.
  const Outcome run = dlgen(std::string("run " DLGEN_SOURCE_DIR "/jobs/retinanet.toml") +
                                " --scale small --accelerator mi355 --set dataset.num_files=128"
                                " --set run.epochs=1 --set run.max_time=20s --set dataset.dir=" +
                                (dir.path() / "retinanet").string() + " -q -o result.json",
                            dir.path());
  ASSERT_EQ(run.code, 0) << run.out;
  const nlohmann::json j = nlohmann::json::parse(std::ifstream(dir.path() / "result.json"));
  EXPECT_EQ(j["totals"]["samples"].get<std::uint64_t>(), 128u);
}

// llama3_1t.yaml gives no data-parallel size: on one host (8 processes) TP x PP = 512 does not
// divide them and the refusal says what works; given as mlpstorage passes it, it plans.
TEST(V3Configs, LlamaWithoutDataParallelSize) {
  TempDir dir;
  const Outcome one = dlgen("run " + kV3 + "llama3_1t.yaml --dry-run", dir.path());
  EXPECT_EQ(one.code, 2) << one.out;
  EXPECT_NE(one.out.find("llama3_1t.yaml:8: model.num_layers: model.parallelism.data is not given"),
            std::string::npos)
      << one.out;
  const nlohmann::json p = plan_of(kV3 +
                                       "llama3_1t.yaml ++workload.model.parallelism.data=2 "
                                       "++workload.checkpoint.mode=subset",
                                   dir.path());
  ASSERT_FALSE(p.is_null());
  EXPECT_EQ(p["model"]["world_ranks"].get<std::uint64_t>(), 1024u);
  EXPECT_EQ(p["checkpoint"]["ranks"].get<std::uint64_t>(), 8u);

  // The 8B model without DP: the host's 8 simulated ranks, DP 8, said in a note.
  const Outcome eight = dlgen("run " + kV3 +
                                  "llama3_8b.yaml '~workload.model.parallelism.data' --dry-run "
                                  "-o plan.json",
                              dir.path());
  ASSERT_EQ(eight.code, 0) << eight.out;
  EXPECT_NE(eight.out.find("note: model.parallelism.data not given: DP = 8 processes"),
            std::string::npos)
      << eight.out;
  EXPECT_NE(eight.out.find("TP 1 x PP 1 x DP 8"), std::string::npos) << eight.out;
}

// DLIO's own llama_8b_zero3.yaml as published: training on an mmap_indexed_binary file with an
// LLM checkpoint after every step, the datatypes under checkpoint:. It plans with the model's
// checkpoint (rank 0 of DP 1: the whole 8B model, fp16 weights and fp32 optimizer state), and
// runs with a small model and dataset given by overrides, writing the shard files.
const std::string kUpstreamDir = DLGEN_SOURCE_DIR "/tests/data/dlio/upstream/";

TEST(V3Configs, DlioLlama8bZero3PlansAndRuns) {
  TempDir dir;
  const nlohmann::json p = plan_of(kUpstreamDir + "llama_8b_zero3.yaml", dir.path());
  ASSERT_FALSE(p.is_null());
  EXPECT_EQ(p["dataset"]["format"], "raw");
  EXPECT_EQ(p["dataset"]["bytes"].get<std::uint64_t>(), 1048576ull * 2048ull);
  EXPECT_EQ(p["steps_per_accelerator"].get<std::uint64_t>(), 5u);  // total_training_steps
  EXPECT_EQ(p["checkpoint"]["count"].get<std::uint64_t>(), 5u);    // one every step
  EXPECT_EQ(p["checkpoint"]["files"].get<std::uint64_t>(), 2u);    // model and optimizer states
  // ~8 billion parameters: 2 bytes each of weights, 3 x 4 of optimizer state.
  const double gb = p["checkpoint"]["bytes"].get<double>() / 1e9;
  EXPECT_GT(gb, 8.0 * 14) << gb;
  EXPECT_LT(gb, 8.1 * 14) << gb;

  const std::string cfg =
      kUpstreamDir +
      "llama_8b_zero3.yaml ++workload.model.num_layers=2 "
      "++workload.model.transformer.hidden_size=64 "
      "++workload.model.transformer.ffn_hidden_size=128 "
      "++workload.model.transformer.vocab_size=1000 "
      "++workload.model.transformer.num_attention_heads=4 "
      "++workload.model.transformer.num_kv_heads=4 ++workload.dataset.num_samples_per_file=4096 "
      "++workload.train.computation_time=0.001 ++workload.dataset.data_folder=" +
      (dir.path() / "data").string() +
      " ++workload.checkpoint.checkpoint_folder=" + (dir.path() / "ckpt").string();
  const Outcome run = dlgen("run " + cfg + " -q -o result.json", dir.path());
  ASSERT_EQ(run.code, 0) << run.out;
  const nlohmann::json j = nlohmann::json::parse(std::ifstream(dir.path() / "result.json"));
  EXPECT_EQ(j["totals"]["samples"].get<std::uint64_t>(), 5u * 16u);
  EXPECT_EQ(j["checkpoint"]["count"].get<std::uint64_t>(), 5u);
  EXPECT_EQ(j["checkpoint"]["files"].get<std::uint64_t>(), 10u);
  EXPECT_TRUE(fs::exists(dir.path() / "ckpt" / "zero_pp_rank_0_mp_rank_0_model_states.pt"));
  EXPECT_TRUE(fs::exists(dir.path() / "ckpt" / "zero_pp_rank_0_mp_rank_0_optim_states.pt"));
}

}  // namespace
