// LLM checkpoint sizing (see llm.hpp). Pure arithmetic on 64-bit integers; the order of the
// integer divisions follows DLIO so that per-rank sizes match it to the byte.
#include "dlgen/core/llm.hpp"

#include <algorithm>

#include "dlgen/core/job.hpp"
#include "dlgen/core/units.hpp"

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

std::vector<RankShard> training_shards(const Job& job, std::uint32_t host) {
  if (!job.model) return {};
  const std::uint64_t per_host = std::max<std::uint32_t>(job.run.accelerators, 1);
  const std::uint64_t first = per_host * host;
  if (first >= job.model->world()) return {};
  return rank_shards(*job.model, static_cast<std::uint32_t>(first),
                     static_cast<std::uint32_t>(per_host));
}

std::vector<RankShard> host_shards(const Job& job) {
  const CheckpointSpec& k = job.checkpoint;
  if (job.model) {
    const std::uint64_t world = job.model->world();
    const std::uint64_t n =
        k.mode == CheckpointMode::subset ? std::min<std::uint64_t>(k.ranks_per_host, world) : world;
    return rank_shards(*job.model, 0,
                       static_cast<std::uint32_t>(std::min<std::uint64_t>(n, UINT32_MAX)));
  }
  std::vector<RankShard> out;
  const std::uint32_t n = std::max<std::uint32_t>(k.files, 1);
  for (std::uint32_t i = 0; i < n; ++i) {
    RankShard s;
    s.rank = s.dp_rank = i;
    s.model_bytes = k.size_bytes / n + (i < k.size_bytes % n ? 1 : 0);
    s.files.push_back({"checkpoint-" + std::to_string(i) + "-of-" + std::to_string(n) + ".dlgen",
                       s.model_bytes, false});
    out.push_back(std::move(s));
  }
  return out;
}

namespace {

// A training job's [model] sizes the checkpoints it writes during training (training_shards):
// they must be on, and sized by nothing else.
template <class Add>
void check_training_model(const Job& job, Add& add) {
  const CheckpointSpec& k = job.checkpoint;
  if (!k.enabled) {
    add("model",
        "sizes the checkpoints: of the checkpoint-only workflow (run.train = false), or those "
        "written during training (checkpoint.enabled = true)");
    return;
  }
  if (k.size_bytes > 0)
    add("checkpoint.size", "is set by [model] (every rank's shards); leave it out");
  if (k.files != 1)
    add("checkpoint.files", "is set by [model] (the files each rank writes); leave it out");
  if (k.mode == CheckpointMode::subset)
    add("checkpoint.mode",
        "\"subset\" applies to the checkpoint-only workflow; during training each accelerator "
        "writes its own rank's shards");
  if (k.copy != CopyCall::none)
    add("checkpoint.copy", "copies a checkpoint's shards of checkpoint.size; not a [model]'s");
}

}  // namespace

void check_checkpoint_workflow(const Job& job, std::vector<Diagnostic>& out) {
  auto add = [&](std::string path, std::string message) {
    out.push_back({std::move(path), std::move(message), 0});
  };
  const CheckpointSpec& k = job.checkpoint;
  if (job.model)
    for (auto& [key, message] : model_problems(*job.model)) add("model." + key, message);
  if (job.run.train) {
    if (job.model) check_training_model(job, add);
    if (k.writes > 0 || k.reads > 0)
      add(k.writes > 0 ? "checkpoint.writes" : "checkpoint.reads",
          "applies to the checkpoint-only workflow (run.train = false); during training "
          "checkpoints follow every_epochs / every_steps");
    return;
  }
  if (k.writes == 0 && k.reads == 0)
    add("checkpoint.writes",
        "a checkpoint-only job (run.train = false) writes or reads at least one checkpoint "
        "(writes, reads)");
  if (k.writes > 0 && k.reads > k.writes)
    add("checkpoint.reads",
        "reads the checkpoints this run wrote: at most writes = " + std::to_string(k.writes));
  if (k.every_epochs > 0 || !k.after_epochs.empty() || k.every_steps > 0 || k.restore ||
      k.first_epoch > 0 || k.final_size_bytes > 0)
    add("checkpoint",
        "every_epochs, after_epochs, every_steps, first_epoch, final_size and restore apply to "
        "training; with run.train = false use writes and reads");
  if (k.dir.empty()) add("checkpoint.dir", "must name a directory");
  if (k.write_size_bytes < 4096 || k.write_size_bytes > (1ull << 30))
    add("checkpoint.write_size", "must be within [4KiB, 1GiB]");
  if (k.read_size_bytes > 0 && (k.read_size_bytes < 4096 || k.read_size_bytes > (1ull << 30)))
    add("checkpoint.read_size", "must be within [4KiB, 1GiB]");
  if (!(k.pause_s >= 0 && k.pause_s <= 86400)) add("checkpoint.pause", "must be within [0, 1 day]");
  if (k.ranks_per_host < 1) add("checkpoint.ranks_per_host", "must be >= 1");
  if (job.model) {
    if (k.size_bytes > 0)
      add("checkpoint.size", "is set by [model] (every rank's shards); leave it out");
    if (k.files != 1)
      add("checkpoint.files", "is set by [model] (the files each rank writes); leave it out");
  } else {
    if (k.size_bytes < 1)
      add("checkpoint.size",
          "a checkpoint-only job without [model] needs size (bytes of one checkpoint)");
    if (k.size_bytes > 0 && k.size_bytes < k.files)
      add("checkpoint.size", "must be at least one byte per file");
    if (k.mode == CheckpointMode::subset)
      add("checkpoint.mode",
          "\"subset\" takes a share of a [model]'s ranks; without [model] set files");
  }
  if (!out.empty()) return;
  // Each simulated rank is a thread with one write_size buffer: bounded before anything runs.
  const std::uint64_t ranks =
      job.model ? (k.mode == CheckpointMode::subset
                       ? std::min<std::uint64_t>(k.ranks_per_host, job.model->world())
                       : job.model->world())
                : k.files;
  if (ranks > 4096)
    add(job.model ? "checkpoint.mode" : "checkpoint.files",
        std::to_string(ranks) +
            " simulated ranks on one host (one thread each) is more than 4096; use mode = "
            "\"subset\"");
  else if (ranks * std::max(k.write_size_bytes, k.read_size_bytes) > (16ull << 30))
    add(k.read_size_bytes > k.write_size_bytes ? "checkpoint.read_size" : "checkpoint.write_size",
        std::to_string(ranks) + " ranks x " +
            format_size(std::max(k.write_size_bytes, k.read_size_bytes)) +
            " buffers is more than 16GiB of memory");
}

}  // namespace dlgen
