#pragma once
// LLM checkpoints sized as DLIO (and so MLPerf Storage v2.0) sizes them: a decoder-only
// transformer (Llama shape: gated MLP, grouped-query attention, untied embedding and LM head)
// split over tensor (TP) x pipeline (PP) x data (DP) parallel ranks with a ZeRO stage. From the
// model description alone, pure functions give the parameter count and every rank's checkpoint
// files: model weights (model datatype) and optimizer state (optimizer datatype), in bytes.
// The formulas are DLIO's (dlio_benchmark/checkpointing/base_checkpointing.py, 2025), rewritten
// and checked against MLPerf's published sizes (tests/core/llm_test.cpp); docs/metrics.md.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlgen {

struct Job;
struct Diagnostic;

enum class DataType { int8, fp16, bf16, fp32, fp64 };
std::uint32_t datatype_bytes(DataType t);
const char* to_string(DataType t);
std::optional<DataType> datatype_from_string(std::string_view s);

// The model and its parallelism, as DLIO's `model:` section gives them.
struct LlmModel {
  std::uint32_t num_layers = 0;  // transformer layers
  std::uint64_t hidden_size = 0;
  std::uint64_t ffn_hidden_size = 0;
  std::uint64_t vocab_size = 0;
  std::uint32_t attention_heads = 0;
  std::uint32_t kv_heads = 0;          // grouped-query attention: K and V have kv_heads heads
  DataType datatype = DataType::fp16;  // weights
  DataType optimizer_datatype = DataType::fp32;      // optimizer state
  std::uint32_t tensor = 1, pipeline = 1, data = 1;  // TP x PP x DP ranks
  std::uint32_t zero_stage = 0;                      // 0..3
  std::uint64_t world() const { return std::uint64_t(tensor) * pipeline * data; }
  bool operator==(const LlmModel&) const = default;
};

// Problems with a model description, each as (key below `model.`, message); empty: usable.
// Limits keep every product in 64 bits (layers <= 4096, hidden <= 2^20, ffn <= 2^22,
// vocab <= 2^24, heads <= 2^16, world <= 2^20 ranks).
std::vector<std::pair<std::string, std::string>> model_problems(const LlmModel& m);

// Parameters of the whole model: embedding and LM head (vocab x hidden each), per layer the
// input norm, Q (hidden x hidden) and K, V (hidden x kv_heads*head_dim each), the attention
// output (hidden x hidden), the post-attention norm, the gated MLP (3 x hidden x ffn), and the
// final norm (hidden). head_dim = hidden / attention_heads, rounded down as DLIO does.
std::uint64_t parameter_count(const LlmModel& m);

// One file a rank writes per checkpoint (DeepSpeed's names, as DLIO writes them).
struct ShardFile {
  std::string name;  // "zero_pp_rank_0_mp_rank_0_model_states.pt"
  std::uint64_t bytes = 0;
  bool optimizer = false;  // optimizer state (else model weights)
};

// What global rank `rank` writes for one checkpoint.
struct RankShard {
  std::uint32_t rank = 0, tp_rank = 0, pp_rank = 0, dp_rank = 0;
  std::uint32_t first_layer = 0,
                last_layer = 0;  // DLIO's layer indices: 0 embedding, 1..L, L+1 head, L+2 norm
  std::uint64_t model_bytes = 0;
  std::uint64_t optimizer_bytes = 0;
  std::vector<ShardFile> files;  // empty: this rank writes nothing (ZeRO 0 beyond the first TPxPP)
  std::uint64_t bytes() const { return model_bytes + optimizer_bytes; }
};

// Every rank's shard (ranks first_rank .. first_rank+count-1 of the world), in rank order:
// - rank r: tp_rank = r % TP, pp_rank = (r / TP) % PP, dp_rank = r / (TP x PP);
// - pipeline stage p holds layers split evenly (the first L % PP stages one more); stage 0 also
//   the embedding, the last stage the LM head and final norm;
// - weights of a layer: each matrix / TP, and / DP under ZeRO 3 (norms / DP only); ZeRO 1 and 2
//   save them from data-parallel rank 0 only; ZeRO 0 and 3 from every rank that checkpoints;
// - optimizer state: 3 x (parameters / (DP x TP x PP)) + 3 x 5 x hidden values per rank (ZeRO >=
// 1),
//   or parameters / (TP x PP) on the first TP x PP ranks only (ZeRO 0);
// - ZeRO 0: ranks beyond the first TP x PP write nothing.
std::vector<RankShard> rank_shards(const LlmModel& m, std::uint32_t first_rank,
                                   std::uint32_t count);
std::vector<RankShard> rank_shards(const LlmModel& m);  // the whole world

// Bytes of one checkpoint over the given shards.
std::uint64_t checkpoint_bytes(const std::vector<RankShard>& shards);

// The ranks this host simulates in a job's checkpoint-only workflow and what each writes per
// checkpoint: with a [model], its world (mode = all) or its first checkpoint.ranks_per_host ranks
// (mode = subset); without one, checkpoint.files ranks each writing one shard of checkpoint.size
// (the remainder to the first shards), named "checkpoint-<i>-of-<n>.dlgen".
std::vector<RankShard> host_shards(const Job& job);

// The ranks whose shards a training job with a [model] writes at each of its checkpoints on host
// `host` (0-based; one MPI rank a host): the host's accelerators, one rank each, global ranks
// host x run.accelerators .. + run.accelerators - 1 as DLIO's processes are its ranks; ranks
// beyond the model's world write nothing. Without a [model]: empty.
std::vector<RankShard> training_shards(const Job& job, std::uint32_t host = 0);

// The checkpoint-only workflow's rules (run.train = false, [model], checkpoint.writes/reads...),
// appended to `out` by validate(job).
void check_checkpoint_workflow(const Job& job, std::vector<Diagnostic>& out);

}  // namespace dlgen
