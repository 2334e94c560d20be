// MLPerf Storage v2.0's LLM checkpointing configs (our copies in tests/data/dlio/llama3_*.yaml)
// read into a checkpoint-only Job: the model description, TP x PP x DP and ZeRO, the number of
// checkpoints written and read, subset mode; what cannot be honoured is refused with file:line.
#include <gtest/gtest.h>

#include <string>

#include "dlgen/core/job_io.hpp"
#include "dlgen/core/llm.hpp"
#include "dlgen/dlio/config.hpp"

namespace dlgen {
namespace {

const std::filesystem::path kDir = std::filesystem::path(DLGEN_SOURCE_DIR) / "tests/data/dlio";
constexpr double kGiB = 1024.0 * 1024 * 1024;

DlioJob must_load(const std::string& name, const std::vector<std::string>& overrides = {}) {
  Result<DlioJob> d = load_dlio(kDir / name, overrides);
  EXPECT_TRUE(d) << (d ? "" : d.error().message);
  return d ? *d : DlioJob{};
}

std::string error_of(std::string_view yaml, const std::vector<std::string>& overrides = {}) {
  Result<DlioJob> d = parse_dlio(yaml, "w.yaml", overrides);
  EXPECT_FALSE(d) << "expected an error";
  return d ? "" : d.error().message;
}

const char* kSmallLlm =
    "model:\n  name: tiny\n  type: transformer\n  num_layers: 4\n  parallelism:\n    tensor: 2\n   "
    " data: 2\n"
    "  transformer:\n    vocab_size: 1000\n    hidden_size: 256\n    ffn_hidden_size: 512\n"
    "    num_attention_heads: 4\nworkflow:\n  train: False\n  checkpoint: True\n"
    "checkpoint:\n  num_checkpoints_write: 2\n  num_checkpoints_read: 1\n";

TEST(DlioLlm, Llama8bIsACheckpointOnlyJob) {
  const Job j = must_load("llama3_8b.yaml").job;
  EXPECT_FALSE(j.run.train);
  ASSERT_TRUE(j.model);
  EXPECT_EQ(j.model->num_layers, 32u);
  EXPECT_EQ(j.model->hidden_size, 4096u);
  EXPECT_EQ(j.model->ffn_hidden_size, 14336u);
  EXPECT_EQ(j.model->vocab_size, 128256u);
  EXPECT_EQ(j.model->attention_heads, 32u);
  EXPECT_EQ(j.model->kv_heads, 8u);
  EXPECT_EQ(j.model->datatype, DataType::fp16);
  EXPECT_EQ(j.model->optimizer_datatype, DataType::fp32);
  EXPECT_EQ(j.model->world(), 8u);
  EXPECT_EQ(j.model->zero_stage, 3u);
  EXPECT_EQ(j.checkpoint.writes, 10u);
  EXPECT_EQ(j.checkpoint.reads, 10u);
  EXPECT_TRUE(j.checkpoint.fsync);
  EXPECT_FALSE(j.checkpoint.enabled);  // nothing during training: there is none
  EXPECT_EQ(j.checkpoint.dir, std::filesystem::path("checkpoints/llama_8b"));
  const auto shards = host_shards(j);
  ASSERT_EQ(shards.size(), 8u);
  EXPECT_NEAR(double(checkpoint_bytes(shards)) / kGiB, 104.7, 0.05);
}

TEST(DlioLlm, Llama70bAllRanksOrTheSubsetOfOneHost) {
  const Job all = must_load("llama3_70b.yaml").job;
  EXPECT_EQ(all.checkpoint.mode, CheckpointMode::all);
  EXPECT_DOUBLE_EQ(all.checkpoint.pause_s, 5);  // time_between_checkpoints
  EXPECT_EQ(host_shards(all).size(), 64u);
  EXPECT_NEAR(double(checkpoint_bytes(host_shards(all))) / kGiB, 911.2, 0.1);
  // MLPerf's subset: 8 processes on one host write their share (114 GB in its table).
  const Job subset = must_load("llama3_70b.yaml", {"++workload.checkpoint.mode=subset"}).job;
  EXPECT_EQ(subset.checkpoint.mode, CheckpointMode::subset);
  const auto shards = host_shards(subset);
  ASSERT_EQ(shards.size(), 8u);
  EXPECT_NEAR(double(checkpoint_bytes(shards)) / kGiB, 113.9, 0.1);
}

TEST(DlioLlm, Llama405bAnd1tSubsets) {
  for (const char* name : {"llama3_405b.yaml", "llama3_1t.yaml"}) {
    SCOPED_TRACE(name);
    const Job j = must_load(name, {"++workload.checkpoint.mode=subset"}).job;
    ASSERT_TRUE(j.model);
    EXPECT_EQ(j.model->zero_stage, 1u);
    const auto shards = host_shards(j);
    ASSERT_EQ(shards.size(), 8u);
    for (const auto& s : shards) {
      EXPECT_EQ(s.pp_rank, 0u);  // the first 8 ranks are the 8 tensor-parallel ranks of stage 0
      EXPECT_EQ(s.dp_rank, 0u);
      EXPECT_GT(s.model_bytes,
                0u);  // ZeRO 1: data-parallel rank 0 saves the weights, layer by layer
      EXPECT_EQ(s.files.size(), s.last_layer - s.first_layer + 2u);
    }
  }
  // Full size with all ranks on one host: 512 and 1024 simulated ranks.
  EXPECT_EQ(host_shards(must_load("llama3_405b.yaml").job).size(), 512u);
  EXPECT_EQ(host_shards(must_load("llama3_1t.yaml").job).size(), 1024u);
}

TEST(DlioLlm, ConvertedTomlReadsBackToTheSameJob) {
  for (const char* name : {"llama3_8b.yaml", "llama3_70b.yaml", "llama3_1t.yaml"}) {
    for (const std::vector<std::string>& o :
         {std::vector<std::string>{}, {"++workload.checkpoint.mode=subset"}}) {
      const DlioJob d = must_load(name, o);
      Result<Job> back = parse_job(to_toml(d.job, d.comments), "converted.toml");
      ASSERT_TRUE(back) << name << ": " << back.error().message << "\n"
                        << to_toml(d.job, d.comments);
      Job a = d.job, b = *back;
      a.source.clear();
      b.source.clear();
      EXPECT_EQ(a, b) << name << "\n" << to_toml(a) << "\n---\n" << to_toml(b);
    }
  }
}

TEST(DlioLlm, OverridesReachTheModel) {
  Result<DlioJob> d =
      parse_dlio(kSmallLlm, "s.yaml",
                 {"++workload.model.parallelism.zero_stage=3", "workload.model.model_datatype=bf16",
                  "++workload.checkpoint.num_checkpoints_read=2"});
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_EQ(d->job.model->zero_stage, 3u);
  EXPECT_EQ(d->job.model->datatype, DataType::bf16);
  EXPECT_EQ(d->job.model->kv_heads, 4u);  // no num_kv_heads: multi-head attention
  EXPECT_EQ(d->job.checkpoint.reads, 2u);
  EXPECT_EQ(host_shards(d->job).size(), 4u);
}

TEST(DlioLlm, WhatCannotBeHonouredIsRefusedWithFileAndLine) {
  // An LLM with checkpoints during training: the model must be whole, as checkpoint-only.
  std::string e = error_of("model:\n  name: x\n  num_layers: 4\nworkflow:\n  checkpoint: True\n");
  EXPECT_NE(e.find("w.yaml:3: model.num_layers: an LLM description needs "
                   "model.transformer.hidden_size"),
            std::string::npos)
      << e;
  // DLIO takes DP from the process count (here 8: one host's simulated ranks); processes that
  // TP x PP does not divide are refused (tests/dlio/dlio_v3_test.cpp has the rest).
  e = error_of(std::string(kSmallLlm),
               {"~workload.model.parallelism.data", "++workload.model.parallelism.pipeline=3"});
  EXPECT_NE(e.find("w.yaml:4: model.num_layers: model.parallelism.data is not given and 8 "
                   "processes"),
            std::string::npos)
      << e;
  e = error_of(std::string(kSmallLlm) + "  recovery_rank_shift: True\n");
  EXPECT_NE(e.find("w.yaml:19: checkpoint.recovery_rank_shift: not supported"), std::string::npos)
      << e;
  e = error_of(kSmallLlm, {"++workload.checkpoint.mode=some"});
  EXPECT_NE(e.find("checkpoint.mode: must be default or subset"), std::string::npos) << e;
  e = error_of(kSmallLlm, {"++workload.model.model_datatype=fp12"});
  EXPECT_NE(e.find("unknown datatype \"fp12\""), std::string::npos) << e;
  // Reading more checkpoints than were written: named by the DLIO key (here set by an override).
  e = error_of(kSmallLlm, {"++workload.checkpoint.num_checkpoints_read=3"});
  EXPECT_NE(e.find("override '++workload.checkpoint.num_checkpoints_read=3': "
                   "checkpoint.num_checkpoints_read (dlgen "
                   "checkpoint.reads): reads the checkpoints"),
            std::string::npos)
      << e;
  e = error_of(kSmallLlm, {"++workload.model.transformer.num_kv_heads=8"});
  EXPECT_NE(e.find("(dlgen model.kv_heads): must be <= attention_heads"), std::string::npos) << e;
  // workflow.train False alone runs nothing.
  e = error_of("workflow:\n  train: False\n");
  EXPECT_NE(e.find("w.yaml:2: workflow.train: False runs nothing"), std::string::npos) << e;
  // Every rank writing model_size (all_ranks) outside the LLM sizing is not mapped.
  e = error_of(
      "model:\n  model_size: 1000\nworkflow:\n  checkpoint: True\ncheckpoint:\n  type: all_ranks\n "
      " "
      "steps_between_checkpoints: 1\n");
  EXPECT_NE(e.find("w.yaml:6: checkpoint.type: all_ranks"), std::string::npos) << e;
}

TEST(DlioLlm, ANonLlmCheckpointOnlyWorkloadWritesModelSize) {
  Result<DlioJob> d = parse_dlio(
      "model:\n  model_size: 4096\nworkflow:\n  train: False\n  checkpoint: True\n"
      "checkpoint:\n  num_checkpoints_write: 3\n  type: rank_zero\n",
      "m.yaml");
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_FALSE(d->job.model);
  EXPECT_EQ(d->job.checkpoint.writes, 3u);
  EXPECT_EQ(d->job.checkpoint.size_bytes, 4096u);
  const auto shards = host_shards(d->job);
  ASSERT_EQ(shards.size(), 1u);
  EXPECT_EQ(shards[0].files.at(0).bytes, 4096u);
}

TEST(DlioLlm, BuiltInSmallScaleShrinksTheModelNotItsShape) {
  // MLPerf's config has no [scales.small]: the built-in rule keeps TP x PP x DP and ZeRO.
  for (const char* name : {"llama3_8b.yaml", "llama3_1t.yaml"}) {
    SCOPED_TRACE(name);
    const DlioJob d = must_load(name, {"++workload.checkpoint.mode=subset"});
    JobLoadOptions o;
    o.scale = "small";
    Result<Job> s = parse_job(to_toml(d.job, d.comments), name, o);
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(s->model->world(), d.job.model->world());
    EXPECT_EQ(s->model->zero_stage, d.job.model->zero_stage);
    EXPECT_EQ(s->checkpoint.writes, 2u);
    EXPECT_EQ(s->checkpoint.pause_s, 0.0);
    EXPECT_LT(double(checkpoint_bytes(host_shards(*s))), 64.0 * (1 << 20));
    EXPECT_GT(checkpoint_bytes(host_shards(*s)), 0u);
  }
}

TEST(LlmJob, TomlModelSectionAndSubset) {
  const char* toml =
      "[checkpoint]\nwrites = 2\nreads = 2\nmode = \"subset\"\nranks_per_host = 4\ndir = "
      "\"ck\"\npause = \"0.5s\"\n"
      "[run]\ntrain = false\n"
      "[model]\nnum_layers = 8\nhidden_size = 512\nffn_hidden_size = 1024\nvocab_size = 4000\n"
      "attention_heads = 8\nkv_heads = 2\ndatatype = \"bf16\"\ntensor_parallel = "
      "2\npipeline_parallel = 2\n"
      "data_parallel = 4\nzero_stage = 1\n";
  Result<Job> j = parse_job(toml, "llm.toml");
  ASSERT_TRUE(j) << j.error().message;
  EXPECT_FALSE(j->run.train);
  EXPECT_DOUBLE_EQ(j->checkpoint.pause_s, 0.5);
  ASSERT_TRUE(j->model);
  EXPECT_EQ(j->model->world(), 16u);
  const auto shards = host_shards(*j);
  ASSERT_EQ(shards.size(), 4u);  // the first 4 ranks of 16
  EXPECT_EQ(shards[3].rank, 3u);
  EXPECT_EQ(shards[3].pp_rank, 1u);
  Result<Job> back = parse_job(to_toml(*j), "llm.toml");
  ASSERT_TRUE(back) << back.error().message << "\n" << to_toml(*j);
  EXPECT_TRUE(*back == *j) << to_toml(*j);
  // Scaled by --set like any key; checkpoint.size cannot be given beside a model.
  JobLoadOptions o;
  o.overrides = {"model.num_layers=2", "checkpoint.size=1MiB"};
  Result<Job> bad = parse_job(toml, "llm.toml", o);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find(
                "checkpoint.size (from --set checkpoint.size=1MiB): is set by [model]"),
            std::string::npos)
      << bad.error().message;
}

}  // namespace
}  // namespace dlgen
