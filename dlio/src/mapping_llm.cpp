// DLIO config -> Job, pass 2 for an LLM: the model description (MLPerf Storage's checkpointing
// workloads, DLIO's LLM training configs) and the checkpoint-only workflow (workflow.train:
// False). The model sizes every rank's checkpoint shards (core/llm.hpp); docs/dlio.md.
#include <algorithm>
#include <limits>
#include <type_traits>

#include "dlgen/core/llm.hpp"
#include "keys.hpp"
#include "reader.hpp"

namespace dlgen::dlio {

// The LLM description (model.num_layers, parallelism.*, transformer.*, datatypes) -> Job::model.
// Returns whether the config describes an LLM. The model sizes the checkpoints: those of the
// checkpoint-only workflow, or (workflow.train True) those written during training, each
// accelerator writing its rank's shards.
bool Reader::read_llm(bool train, bool checkpoint) {
  const Leaf* first = nullptr;
  for (const char* key : kLlmKeys)
    if (const Leaf* l = get(key); l && (!first || (l->line && l->line < first->line))) first = l;
  if (!first) {
    for (const char* key : {"checkpoint.model_datatype", "checkpoint.optimizer_datatype"})
      if (get(key))
        note(std::string(key) +
             ": sizes an LLM's checkpoint shards; this config describes no LLM "
             "(model.model_size gives the checkpoint's bytes), so it has no I/O meaning here");
    return false;
  }
  if (!checkpoint) {
    if (train)
      note(
          "the LLM description (model.*) sizes checkpoints; workflow.checkpoint is not True, so "
          "none is written (as in DLIO)");
    return true;  // checkpoint-only without a checkpoint: reported at workflow.train
  }
  LlmModel m;
  auto whole = [&](const char* key, auto& field, bool required, const char* dk) {
    const Leaf* l = get(key);
    if (!l) {
      if (required) error(*first, std::string("an LLM description needs ") + key);
      return;
    }
    from(std::string("model.") + dk, *l);
    if (auto v = count(*l)) {
      using F = std::remove_reference_t<decltype(field)>;
      if (*v > std::numeric_limits<F>::max()) return error(*l, "is too large");
      field = static_cast<F>(*v);
    }
  };
  whole("model.num_layers", m.num_layers, true, "num_layers");
  whole("model.transformer.hidden_size", m.hidden_size, true, "hidden_size");
  whole("model.transformer.ffn_hidden_size", m.ffn_hidden_size, true, "ffn_hidden_size");
  whole("model.transformer.vocab_size", m.vocab_size, true, "vocab_size");
  whole("model.transformer.num_attention_heads", m.attention_heads, true, "attention_heads");
  m.kv_heads = m.attention_heads;
  whole("model.transformer.num_kv_heads", m.kv_heads, false, "kv_heads");
  whole("model.parallelism.tensor", m.tensor, false, "tensor_parallel");
  whole("model.parallelism.pipeline", m.pipeline, false, "pipeline_parallel");
  whole("model.parallelism.zero_stage", m.zero_stage, false, "zero_stage");
  whole("model.parallelism.data", m.data, false, "data_parallel");
  if (!get("model.parallelism.data")) read_data_parallel(*first, m, train);
  // The datatypes are under model: (DLIO now, MLPerf's configs) or checkpoint: (DLIO's older
  // schema, its own llama_8b_zero3.yaml); both given, they must agree.
  auto type = [&](const char* key, const char* older, DataType& field, const char* dk) {
    const Leaf* l = get(key);
    if (const Leaf* o = get(older)) {
      if (l && word(*l) != word(*o))
        return error(*o, std::string("differs from ") + key + " (both give the datatype)");
      if (!l) l = o;
    }
    if (!l) return;
    from(std::string("model.") + dk, *l);
    if (auto w = word(*l)) {
      if (auto t = datatype_from_string(*w))
        field = *t;
      else
        error(*l, "unknown datatype \"" + *w + "\" (int8, uint8, fp16, bf16, fp32, fp64)");
    }
  };
  type("model.model_datatype", "checkpoint.model_datatype", m.datatype, "datatype");
  type("model.optimizer_datatype", "checkpoint.optimizer_datatype", m.optimizer_datatype,
       "optimizer_datatype");
  if (train)
    note(
        "LLM checkpoints during training: each accelerator of each host (run.accelerators, one "
        "rank each) writes its rank's shards of the TP x PP x DP world at every checkpoint "
        "(DeepSpeed's file names under checkpoint.dir; each checkpoint replaces the last)");
  out_.job.model = m;
  origin_["model"] = *first;
  return true;
}

// No model.parallelism.data: DLIO's data-parallel size is its process count over TP x PP. dlgen's
// processes are the MPI ranks, each simulating checkpoint.ranks_per_host ranks (8) in the
// checkpoint-only workflow, or run.accelerators ranks (one an accelerator) during training, so
// DP = mpi_ranks x that / (TP x PP), said in a note; processes that TP x PP does not divide are
// refused.
void Reader::read_data_parallel(const Leaf& first, LlmModel& m, bool train) {
  const std::uint64_t per_host = train ? std::max<std::uint32_t>(out_.job.run.accelerators, 1)
                                       : out_.job.checkpoint.ranks_per_host;
  const std::uint64_t processes = std::uint64_t(context_.mpi_ranks) * per_host;
  const std::uint64_t tp_pp = std::uint64_t(m.tensor) * m.pipeline;
  const std::string procs = std::to_string(processes) + " processes (" +
                            std::to_string(context_.mpi_ranks) + " MPI rank(s) x " +
                            std::to_string(per_host) +
                            (train ? " accelerator(s) a host)" : " simulated ranks a host)");
  if (tp_pp == 0) return;  // model_problems names the zero
  if (processes % tp_pp != 0) {
    error(first, "model.parallelism.data is not given and " + procs +
                     " are not a multiple of tensor x pipeline = " + std::to_string(tp_pp) +
                     " (DLIO's DP = processes / (TP x PP)); give it, e.g. "
                     "++workload.model.parallelism.data=N, or run under mpirun -np " +
                     std::to_string((tp_pp + per_host - 1) / per_host) + " or a multiple");
    return;
  }
  m.data = static_cast<std::uint32_t>(processes / tp_pp);
  note("model.parallelism.data not given: DP = " + procs + " / (TP " + std::to_string(m.tensor) +
       " x PP " + std::to_string(m.pipeline) + ") = " + std::to_string(m.data) +
       ", as DLIO takes it from the processes (++workload.model.parallelism.data=N to give it)");
}

// workflow.train False: num_checkpoints_write/read, time_between_checkpoints, mode, type.
void Reader::read_checkpoint_workflow(bool train, bool checkpoint, bool llm) {
  CheckpointSpec& k = out_.job.checkpoint;
  const Leaf* w = get("checkpoint.num_checkpoints_write");
  const Leaf* r = get("checkpoint.num_checkpoints_read");
  if (train || !checkpoint) {
    for (const Leaf* l : {w, r, get("checkpoint.time_between_checkpoints"), get("checkpoint.mode")})
      if (l && checkpoint)
        error(*l,
              "applies to the checkpoint-only workflow (workflow.train: False); during training "
              "checkpoints "
              "follow steps_between_checkpoints / epochs_between_checkpoints");
    if (const Leaf* l = get("checkpoint.type")) check_type(*l, llm, checkpoint);
    return;
  }
  out_.job.run.train = false;
  k.enabled = false;  // no training to interleave with: writes and reads below
  k.every_epochs = k.every_steps = 0;
  k.first_epoch = 0;
  if (w) {
    if (auto v = count32(*w)) k.writes = *v;
    from("checkpoint.writes", *w);
  }
  if (r) {
    if (auto v = count32(*r)) k.reads = *v;
    from("checkpoint.reads", *r);
  }
  if (const Leaf* l = get("checkpoint.time_between_checkpoints")) {
    auto v = number(*l);
    if (v && *v > 0) k.pause_s = *v;
    from("checkpoint.pause", *l);
  }
  if (const Leaf* l = get("checkpoint.mode")) {
    from("checkpoint.mode", *l);
    if (auto m = word(*l)) {
      if (*m == "subset") {
        k.mode = CheckpointMode::subset;
        note("checkpoint.mode subset: this host simulates ranks 0.." +
             std::to_string(k.ranks_per_host - 1) +
             " of the TP x PP x DP world, each writing its own share (--set "
             "checkpoint.ranks_per_host=N for another count)");
      } else if (*m != "default") {
        error(*l, "must be default or subset");
      }
    }
  }
  if (const Leaf* l = get("checkpoint.type")) check_type(*l, llm, checkpoint);
  if (llm && k.mode == CheckpointMode::all && out_.job.model && out_.job.model->world() > 8)
    note("checkpoint.mode default: this host simulates all " +
         std::to_string(out_.job.model->world()) +
         " ranks of the model (one thread each); MLPerf Storage runs one host's share with "
         "checkpoint.mode: subset");
  note("checkpoint-only workflow: " + std::to_string(k.writes) + " checkpoint(s) written, then " +
       std::to_string(k.reads) +
       " read back, the page cache dropped between when the data is under 3x this host's RAM");
}

void Reader::check_type(const Leaf& l, bool llm, bool checkpoint) {
  auto t = word(l);
  if (!t) return;
  if (*t != "rank_zero" && *t != "all_ranks") return error(l, "must be rank_zero or all_ranks");
  if (!checkpoint) return;
  if (llm)
    note(
        "checkpoint.type: DLIO's LLM checkpointing writes the shards ZeRO and TP x PP give each "
        "rank whatever the "
        "type; so does dlgen");
  else if (*t == "all_ranks")
    error(l,
          "all_ranks (every rank writing its own model_size checkpoint) is not mapped; give "
          "checkpoint.size and "
          "checkpoint.files in the converted TOML job");
}

}  // namespace dlgen::dlio
