// LLM checkpoint sizing (see llm.hpp). Pure arithmetic on 64-bit integers; the order of the
// integer divisions follows DLIO so that per-rank sizes match it to the byte.
#include "dlgen/core/llm.hpp"

#include <algorithm>

namespace dlgen {
namespace {

std::uint64_t head_dim(const LlmModel& m) {
  return m.attention_heads ? m.hidden_size / m.attention_heads : 0;
}

// Q, K and V of one layer: hidden x (hidden + 2 x kv_heads x head_dim).
std::uint64_t qkv_params(const LlmModel& m) {
  return m.hidden_size * (m.hidden_size + 2 * head_dim(m) * m.kv_heads);
}

// Parameters of layer `index` held by one rank (DLIO's layer indices), before the datatype.
// `shard` is DP under ZeRO 3, else 1.
std::uint64_t layer_params(const LlmModel& m, std::uint32_t index, std::uint64_t shard) {
  const std::uint64_t h = m.hidden_size, tp = m.tensor;
  if (index == 0 || index == m.num_layers + 1)
    return h * m.vocab_size / tp / shard;           // embedding, LM head
  if (index == m.num_layers + 2) return h / shard;  // final norm
  return h / shard                                  // input norm
         + qkv_params(m) / tp / shard               // Q, K, V
         + h * h / tp / shard                       // attention output
         + h / shard                                // post-attention norm
         + h * 2 * m.ffn_hidden_size / tp / shard   // gate and up projections
         + h * m.ffn_hidden_size / tp / shard;      // down projection
}

// The layers of pipeline stage `stage`: [first, last] in DLIO's indices.
std::pair<std::uint32_t, std::uint32_t> stage_layers(const LlmModel& m, std::uint32_t stage) {
  const std::uint32_t per = m.num_layers / m.pipeline, extra = m.num_layers % m.pipeline;
  std::uint32_t first, last;
  if (stage < extra) {
    first = stage * (per + 1) + 1;
    last = first + per;
  } else {
    first = extra * (per + 1) + (stage - extra) * per + 1;
    last = first + per - 1;
  }
  if (stage == m.pipeline - 1) last = m.num_layers + 2;
  if (stage == 0) first = 0;
  return {first, last};
}

}  // namespace

std::uint32_t datatype_bytes(DataType t) {
  switch (t) {
    case DataType::int8:
      return 1;
    case DataType::fp16:
    case DataType::bf16:
      return 2;
    case DataType::fp32:
      return 4;
    case DataType::fp64:
      return 8;
  }
  return 0;
}

const char* to_string(DataType t) {
  switch (t) {
    case DataType::int8:
      return "int8";
    case DataType::fp16:
      return "fp16";
    case DataType::bf16:
      return "bf16";
    case DataType::fp32:
      return "fp32";
    case DataType::fp64:
      return "fp64";
  }
  return "?";
}

std::optional<DataType> datatype_from_string(std::string_view s) {
  for (DataType t :
       {DataType::int8, DataType::fp16, DataType::bf16, DataType::fp32, DataType::fp64})
    if (s == to_string(t)) return t;
  if (s == "uint8") return DataType::int8;
  return std::nullopt;
}

std::vector<std::pair<std::string, std::string>> model_problems(const LlmModel& m) {
  std::vector<std::pair<std::string, std::string>> out;
  auto range = [&](const char* key, std::uint64_t v, std::uint64_t lo, std::uint64_t hi) {
    if (v < lo || v > hi)
      out.emplace_back(key, "must be within [" + std::to_string(lo) + ", " + std::to_string(hi) +
                                "], not " + std::to_string(v));
  };
  range("num_layers", m.num_layers, 1, 4096);
  range("hidden_size", m.hidden_size, 1, 1ull << 20);
  range("ffn_hidden_size", m.ffn_hidden_size, 1, 1ull << 22);
  range("vocab_size", m.vocab_size, 1, 1ull << 24);
  range("attention_heads", m.attention_heads, 1, 1ull << 16);
  range("kv_heads", m.kv_heads, 1, 1ull << 16);
  range("tensor_parallel", m.tensor, 1, 1ull << 20);
  range("pipeline_parallel", m.pipeline, 1, 1ull << 20);
  range("data_parallel", m.data, 1, 1ull << 20);
  range("zero_stage", m.zero_stage, 0, 3);
  if (m.attention_heads > 0 && m.hidden_size > 0 && m.hidden_size < m.attention_heads)
    out.emplace_back("attention_heads",
                     "must be <= hidden_size (head_dim = hidden_size / attention_heads)");
  if (m.kv_heads > m.attention_heads && m.attention_heads > 0)
    out.emplace_back("kv_heads", "must be <= attention_heads");
  if (m.pipeline > 0 && m.num_layers > 0 && m.pipeline > m.num_layers)
    out.emplace_back("pipeline_parallel",
                     "must be <= num_layers (each pipeline stage holds a layer)");
  if (m.tensor > 0 && m.pipeline > 0 && m.data > 0 && m.world() > (1ull << 20))
    out.emplace_back("data_parallel", "tensor x pipeline x data must be <= 1048576 ranks");
  return out;
}

std::uint64_t parameter_count(const LlmModel& m) {
  const std::uint64_t h = m.hidden_size;
  const std::uint64_t per_layer = h + qkv_params(m) + h * h + h + 3 * h * m.ffn_hidden_size;
  return 2 * m.vocab_size * h + per_layer * m.num_layers + h;
}

std::vector<RankShard> rank_shards(const LlmModel& m, std::uint32_t first_rank,
                                   std::uint32_t count) {
  std::vector<RankShard> out;
  const std::uint64_t mp = std::uint64_t(m.tensor) * m.pipeline;
  if (mp == 0 || m.data == 0 || m.num_layers == 0) return out;
  const std::uint64_t world = mp * m.data;
  const std::uint64_t shard = m.zero_stage == 3 ? m.data : 1;
  const std::uint64_t params = parameter_count(m);
  const std::uint64_t opt_params = m.zero_stage > 0 ? params / (m.data * mp) : params / mp;
  const std::uint64_t opt_values = opt_params > 0 ? 3 * opt_params + 3 * 5 * m.hidden_size : 0;
  const std::uint32_t wbytes = datatype_bytes(m.datatype),
                      obytes = datatype_bytes(m.optimizer_datatype);
  for (std::uint64_t r = first_rank;
       r < std::min<std::uint64_t>(world, std::uint64_t(first_rank) + count); ++r) {
    RankShard s;
    s.rank = static_cast<std::uint32_t>(r);
    s.tp_rank = static_cast<std::uint32_t>(r % m.tensor);
    s.pp_rank = static_cast<std::uint32_t>((r / m.tensor) % m.pipeline);
    s.dp_rank = static_cast<std::uint32_t>(r / mp);
    const auto [first, last] = stage_layers(m, s.pp_rank);
    s.first_layer = first;
    s.last_layer = last;
    const std::uint32_t mp_rank = static_cast<std::uint32_t>(r % mp);
    const std::string ids =
        "_pp_rank_" + std::to_string(s.dp_rank) + "_mp_rank_" + std::to_string(mp_rank);
    if (m.zero_stage == 0 && r >= mp) {  // without ZeRO only the first model-parallel group saves
      out.push_back(std::move(s));
      continue;
    }
    const bool saves_weights = !(m.zero_stage == 1 || m.zero_stage == 2) || s.dp_rank == 0;
    if (saves_weights) {
      if ((m.zero_stage == 1 || m.zero_stage == 2) && m.pipeline > 1) {
        for (std::uint32_t l = first; l <= last; ++l) {  // layer by layer
          const std::uint64_t b = layer_params(m, l, shard) * wbytes;
          s.files.push_back({"layer_" + std::to_string(l) + "-model_" + std::to_string(mp_rank) +
                                 "_model_states.pt",
                             b, false});
          s.model_bytes += b;
        }
      } else {
        for (std::uint32_t l = first; l <= last; ++l)
          s.model_bytes += layer_params(m, l, shard) * wbytes;
        const std::string name = (m.zero_stage == 1 || m.zero_stage == 2)
                                     ? "model_" + std::to_string(mp_rank) + "_model_states.pt"
                                     : "zero" + ids + "_model_states.pt";
        s.files.push_back({name, s.model_bytes, false});
      }
    }
    if (opt_values > 0) {
      s.optimizer_bytes = opt_values * obytes;
      s.files.push_back({"zero" + ids + "_optim_states.pt", s.optimizer_bytes, true});
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<RankShard> rank_shards(const LlmModel& m) {
  return rank_shards(m, 0,
                     static_cast<std::uint32_t>(std::min<std::uint64_t>(m.world(), UINT32_MAX)));
}

std::uint64_t checkpoint_bytes(const std::vector<RankShard>& shards) {
  std::uint64_t total = 0;
  for (const RankShard& s : shards) total += s.bytes();
  return total;
}

}  // namespace dlgen
