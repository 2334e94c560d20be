// LLM checkpoint sizing: parameter counts and per-rank shards against MLPerf Storage v2.0's
// published checkpoint sizes (DLIO prints GiB and calls them "GB"; units are stated per check),
// and the laws that hold whatever the model: every layer on exactly one pipeline stage, the
// shards sum to the whole model, ZeRO decides who writes.
#include "dlgen/core/llm.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

namespace dlgen {
namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;

// MLPerf Storage v2.0's configs (configs/dlio/workload/llama3_*.yaml) with the TP x PP x DP of its
// table.
LlmModel llama(std::uint32_t layers, std::uint64_t hidden, std::uint64_t ffn, std::uint32_t heads,
               std::uint32_t kv, std::uint32_t tp, std::uint32_t pp, std::uint32_t dp,
               std::uint32_t zero) {
  LlmModel m;
  m.num_layers = layers;
  m.hidden_size = hidden;
  m.ffn_hidden_size = ffn;
  m.vocab_size = 128256;
  m.attention_heads = heads;
  m.kv_heads = kv;
  m.tensor = tp;
  m.pipeline = pp;
  m.data = dp;
  m.zero_stage = zero;
  return m;
}
LlmModel llama8b() {
  return llama(32, 4096, 14336, 32, 8, 1, 1, 8, 3);
}
LlmModel llama70b() {
  return llama(80, 8192, 28672, 128, 8, 8, 1, 8, 3);
}
LlmModel llama405b() {
  return llama(126, 16384, 53248, 128, 8, 8, 32, 2, 1);
}
LlmModel llama1t() {
  return llama(128, 25872, 98304, 192, 32, 8, 64, 2, 1);
}

double within(double got, double want) {
  return std::fabs(got - want) / want;
}

TEST(Llm, Llama8bIs105GiB) {
  const LlmModel m = llama8b();
  EXPECT_EQ(parameter_count(m), 8030261248u);  // Llama 3 8B: 8.03 B parameters
  const auto shards = rank_shards(m);
  ASSERT_EQ(shards.size(), 8u);
  const double gib = double(checkpoint_bytes(shards)) / kGiB;
  EXPECT_LT(within(gib, 105), 0.02) << gib;  // MLPerf: ~105 GB (GiB); here 104.70 GiB
  // ZeRO 3, DP 8: every rank holds 1/8 of the weights and of the optimizer state, in two files.
  for (const auto& s : shards) {
    ASSERT_EQ(s.files.size(), 2u);
    EXPECT_EQ(s.files[0].name,
              "zero_pp_rank_" + std::to_string(s.dp_rank) + "_mp_rank_0_model_states.pt");
    EXPECT_EQ(s.files[1].name,
              "zero_pp_rank_" + std::to_string(s.dp_rank) + "_mp_rank_0_optim_states.pt");
    EXPECT_TRUE(s.files[1].optimizer);
    EXPECT_EQ(s.model_bytes, shards[0].model_bytes);
    // fp32 Adam-like state: 3 x (parameters / 8) + 3 x 5 x hidden values of 4 bytes.
    EXPECT_EQ(s.optimizer_bytes, (3 * (8030261248u / 8) + 15 * 4096) * 4);
  }
}

TEST(Llm, Llama70bIs912GiB) {
  const auto shards = rank_shards(llama70b());
  ASSERT_EQ(shards.size(), 64u);
  const double gib = double(checkpoint_bytes(shards)) / kGiB;
  EXPECT_LT(within(gib, 912), 0.02) << gib;  // MLPerf: 912 GB (GiB); here 911.2 GiB
  // MLPerf's 8-process subset of 70B: 114 GB (GiB); here the first 8 ranks hold 113.9 GiB.
  const double subset = double(checkpoint_bytes(rank_shards(llama70b(), 0, 8))) / kGiB;
  EXPECT_LT(within(subset, 114), 0.02) << subset;
}

TEST(Llm, Llama405bIs5290GiB) {
  const auto shards = rank_shards(llama405b());
  ASSERT_EQ(shards.size(), 512u);
  const double gib = double(checkpoint_bytes(shards)) / kGiB;
  // MLPerf: 5.29 TB, in DLIO's units (1000 x its "GB" of 2^30 bytes); here 5292 GiB.
  EXPECT_LT(within(gib, 5290), 0.02) << gib;
}

TEST(Llm, Llama1tAgainstMlperfsTable) {
  // MLPerf's v2.0 config (192 attention heads, 32 KV heads) gives 15,427 GiB (16.56 TB). The
  // published 18 TB, and the 161 GB of its 8-process subset, are those of DLIO's earlier llama_1t
  // with full multi-head attention (KV heads = attention heads, 32): 17,289 GiB = 18.56e12 bytes,
  // 3.1% above 18 TB decimal, and a subset of 160.4 GiB. Both are checked; the job ships MLPerf's
  // config.
  const double v2 = double(checkpoint_bytes(rank_shards(llama1t())));
  EXPECT_LT(within(v2 / kGiB, 15426.6), 0.001) << v2 / kGiB;
  LlmModel mha = llama1t();
  mha.attention_heads = mha.kv_heads = 32;
  const auto shards = rank_shards(mha);
  ASSERT_EQ(shards.size(), 1024u);
  const double full = double(checkpoint_bytes(shards));
  EXPECT_LT(within(full / 1e12, 18), 0.035) << full / 1e12;
  const double subset = double(checkpoint_bytes(rank_shards(mha, 0, 8))) / kGiB;
  EXPECT_LT(within(subset, 161), 0.02) << subset;
}

TEST(Llm, EveryLayerOnExactlyOneStageAndShardsSumToTheModel) {
  for (std::uint32_t pp : {1u, 3u, 7u, 32u}) {
    LlmModel m = llama(126, 512, 1536, 8, 2, 2, pp, 3, 1);
    const auto shards = rank_shards(m);
    ASSERT_EQ(shards.size(), 2u * pp * 3);
    std::multiset<std::uint32_t> layers;
    std::uint64_t weights = 0;
    for (const auto& s : shards) {
      EXPECT_EQ(s.rank % 2, s.tp_rank);
      EXPECT_EQ((s.rank / 2) % pp, s.pp_rank);
      EXPECT_EQ(s.rank / (2 * pp), s.dp_rank);
      if (s.dp_rank == 0 && s.tp_rank == 0)
        for (std::uint32_t l = s.first_layer; l <= s.last_layer; ++l) layers.insert(l);
      weights += s.model_bytes;
      // ZeRO 1 saves weights from data-parallel rank 0 only; with PP > 1, one file per layer.
      if (s.dp_rank > 0) {
        EXPECT_EQ(s.model_bytes, 0u);
      } else if (pp > 1) {
        EXPECT_EQ(s.files.size(), s.last_layer - s.first_layer + 2u);
      }
    }
    ASSERT_EQ(layers.size(), 126u + 3);  // embedding, 126 layers, head, final norm: once each
    for (std::uint32_t l = 0; l < 129; ++l) EXPECT_EQ(layers.count(l), 1u) << l;
    // The shards of all stages hold the whole model in fp16 (dimensions divide evenly here), the
    // norms once per TP rank (DLIO replicates them; they are not split): (2L + 1) x hidden each.
    EXPECT_EQ(weights, 2 * (parameter_count(m) + (2 - 1) * (2 * 126 + 1) * 512)) << pp;
  }
}

TEST(Llm, ZeroStageDecidesWhoWrites) {
  LlmModel m = llama(4, 256, 512, 4, 4, 2, 1, 4, 0);
  auto shards = rank_shards(m);
  for (const auto& s : shards) {
    if (s.rank < 2) {  // ZeRO 0: the first TP x PP ranks write weights and the full optimizer state
      EXPECT_EQ(s.files.size(), 2u);
      EXPECT_EQ(s.optimizer_bytes, (3 * (parameter_count(m) / 2) + 15 * 256) * 4);
    } else {
      EXPECT_TRUE(s.files.empty());
      EXPECT_EQ(s.bytes(), 0u);
    }
  }
  m.zero_stage = 3;  // ZeRO 3: weights sharded over DP too, everyone writes
  shards = rank_shards(m);
  std::uint64_t weights = 0;
  for (const auto& s : shards) {
    EXPECT_EQ(s.files.size(), 2u);
    weights += s.model_bytes;
  }
  EXPECT_EQ(weights,
            2 * (parameter_count(m) + (2 - 1) * (2 * 4 + 1) * 256));  // norms on both TP ranks
  m.datatype = DataType::fp32;  // the model datatype scales the weights only
  std::uint64_t w32 = 0;
  for (const auto& s : rank_shards(m)) w32 += s.model_bytes;
  EXPECT_EQ(w32, 2 * weights);
}

TEST(Llm, ASubsetIsTheFirstRanks) {
  const auto all = rank_shards(llama405b());
  const auto some = rank_shards(llama405b(), 8, 8);
  ASSERT_EQ(some.size(), 8u);
  for (std::size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(some[i].rank, 8 + i);
    EXPECT_EQ(some[i].bytes(), all[8 + i].bytes());
  }
  EXPECT_TRUE(rank_shards(llama405b(), 600, 8).empty());  // beyond the world
}

TEST(Llm, ProblemsAreNamedAndAbsurdValuesRefused) {
  EXPECT_TRUE(model_problems(llama1t()).empty());
  LlmModel m = llama8b();
  m.kv_heads = 64;
  m.zero_stage = 4;
  m.hidden_size = 1ull << 40;
  auto p = model_problems(m);
  std::set<std::string> keys;
  for (const auto& [k, _] : p) keys.insert(k);
  EXPECT_TRUE(keys.count("kv_heads"));
  EXPECT_TRUE(keys.count("zero_stage"));
  EXPECT_TRUE(keys.count("hidden_size"));
  EXPECT_TRUE(model_problems(LlmModel{}).size() >= 5);  // nothing given
  EXPECT_EQ(datatype_bytes(*datatype_from_string("bf16")), 2u);
  EXPECT_EQ(datatype_bytes(*datatype_from_string("fp32")), 4u);
  EXPECT_FALSE(datatype_from_string("fp12"));
}

}  // namespace
}  // namespace dlgen
