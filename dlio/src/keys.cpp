// The DLIO key schema (keys.hpp): every key of a workload config dlgen knows, and why it refuses
// the ones it cannot honour. The mapping itself (key by key) is in mapping.cpp; docs/dlio.md.
#include "keys.hpp"

#include "dlgen/core/closest_key.hpp"

namespace dlgen::dlio {

// Keys dlgen maps to their I/O meaning (or accepts as having none, with a note).
const std::set<std::string, std::less<>> kMapped = {
    "model", "model.name", "model.type", "model.model_size", "framework", "workflow.generate_data",
    "workflow.train", "workflow.evaluation", "workflow.checkpoint", "dataset.data_folder",
    "dataset.format", "dataset.num_files_train", "dataset.num_files_eval",
    "dataset.num_samples_per_file", "dataset.record_length_bytes",
    "dataset.record_length_bytes_stdev", "dataset.record_length_bytes_resize",
    "dataset.num_subfolders_train", "dataset.num_subfolders_eval", "reader.data_loader",
    "reader.batch_size", "reader.batch_size_eval", "reader.read_threads",
    "reader.computation_threads", "reader.prefetch_size", "reader.file_shuffle",
    "reader.sample_shuffle", "reader.shuffle_size", "reader.transfer_size",
    "reader.preprocess_time", "reader.preprocess_time_stdev", "reader.odirect",
    "reader.dont_use_mmap", "train.epochs", "train.computation_time",
    "train.computation_time_stdev", "train.total_training_steps", "evaluation.eval_time",
    "evaluation.eval_time_stdev", "evaluation.epochs_between_evals", "checkpoint.checkpoint_folder",
    "checkpoint.checkpoint_after_epoch", "checkpoint.epochs_between_checkpoints",
    "checkpoint.steps_between_checkpoints", "checkpoint.fsync", "metric.au",
    // LLM checkpointing (MLPerf Storage v2.0): the model sizes every rank's shards (core/llm.hpp)
    "model.num_layers", "model.model_datatype", "model.optimizer_datatype",
    "model.parallelism.tensor", "model.parallelism.pipeline", "model.parallelism.data",
    "model.parallelism.zero_stage", "model.transformer.vocab_size", "model.transformer.hidden_size",
    "model.transformer.ffn_hidden_size", "model.transformer.num_attention_heads",
    "model.transformer.num_kv_heads", "checkpoint.num_checkpoints_write",
    "checkpoint.num_checkpoints_read", "checkpoint.time_between_checkpoints", "checkpoint.type",
    "checkpoint.mode", "checkpoint.model_datatype", "checkpoint.optimizer_datatype",
    // MLPerf Storage v3.0's configs and the ones mlpstorage writes into a run's dlio_config/
    "reader.multiprocessing_context", "dataset.skip_listing", "dataset.listing_validation_interval",
    // Parquet (MLPerf Storage v3.0 flux and dlrm; mapping_parquet.cpp)
    "dataset.compression", "dataset.record_length", "dataset.parquet.columns",
    "dataset.parquet.row_group_size", "dataset.parquet.read_mode",
    "dataset.parquet.generation_batch_size"};

// The keys that describe an LLM; any of them makes the config an LLM checkpoint workload.
const std::vector<const char*> kLlmKeys = {"model.num_layers",
                                           "model.model_datatype",
                                           "model.optimizer_datatype",
                                           "model.parallelism.tensor",
                                           "model.parallelism.pipeline",
                                           "model.parallelism.data",
                                           "model.parallelism.zero_stage",
                                           "model.transformer.vocab_size",
                                           "model.transformer.hidden_size",
                                           "model.transformer.ffn_hidden_size",
                                           "model.transformer.num_attention_heads",
                                           "model.transformer.num_kv_heads"};

// Keys DLIO has that dlgen cannot honour yet: refused with the reason, never ignored.
const std::map<std::string, std::string, std::less<>> kRefused = {
    {"checkpoint.recovery_rank_shift",
     "reading back the shards another host wrote (recovery_rank_shift) needs multi-host runs, not "
     "built yet"},
    {"dataset.parquet.partition_by",
     "Hive-partitioned Parquet datasets (partition_by) are not generated or replayed yet"},
};

// Distribution parameters DLIO accepts under a time key given as a map.
const std::set<std::string, std::less<>> kDistParams = {"mean", "stdev", "type",  "min",
                                                        "max",  "shape", "scale", "lam"};

bool is_dist_key(std::string_view key) {
  return key == "train.computation_time" || key == "reader.preprocess_time" ||
         key == "evaluation.eval_time";
}

bool is_dist_param_key(std::string_view key) {
  for (const char* k :
       {"train.computation_time.", "reader.preprocess_time.", "evaluation.eval_time."})
    if (key.rfind(k, 0) == 0) return true;
  return false;
}

std::string did_you_mean(std::string_view key) {
  const std::string_view best = closest_key(key, kMapped);
  return best.empty() ? "" : " (did you mean '" + std::string(best) + "'?)";
}

}  // namespace dlgen::dlio
