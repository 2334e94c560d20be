// The job file's key schema (job_schema.hpp).
#include "job_schema.hpp"

#include <algorithm>
#include <set>

#include "dlgen/core/closest_key.hpp"

namespace dlgen::detail {

const std::vector<std::string_view> kSections = {
    "job", "dataset", "validation", "reader", "compute", "checkpoint", "run", "model", "scales"};
const std::vector<std::string_view> kJobKeys = {"name", "description"};
const std::vector<std::string_view> kDatasetKeys = {"dir",
                                                    "format",
                                                    "num_files",
                                                    "samples_per_file",
                                                    "sample_size",
                                                    "file_size",
                                                    "seed",
                                                    "files_per_dir",
                                                    "file_prefix",
                                                    "parquet",
                                                    "files_per_sample",
                                                    "load",
                                                    "sample_range"};
const std::vector<std::string_view> kParquetKeys = {"columns", "row_group_size", "compression",
                                                    "read_columns"};
const std::vector<std::string_view> kReaderKeys = {
    "batch_size",   "workers",     "prefetch",       "shuffle",        "shuffle_buffer",
    "seed",         "read",        "request_size",   "header_read",    "iodepth",
    "direct",       "drop_last",   "startup",        "preprocess",     "warmup",
    "readahead",    "probe",       "recipe",         "startup_spread", "eval_batch_size",
    "collate",      "worker_pace", "stream_granule", "stream_tail",    "eval_startup",
    "shuffle_block", "stream_head"};
const std::vector<std::string_view> kComputeKeys = {
    "accelerator", "time", "eval_time", "batch_overhead", "eval_batch_overhead", "au_threshold"};
const std::vector<std::string_view> kAcceleratorKeys = {"time", "batch_size"};
const std::vector<std::string_view> kCheckpointKeys = {
    "enabled",      "every_epochs", "first_epoch", "every_steps", "size",
    "files",        "write_size",   "fsync",       "dir",         "restore",
    "writes",       "reads",        "pause",       "mode",        "ranks_per_host",
    "write_call",   "direct",       "copy",        "copy_every",  "keep",
    "after_epochs", "final_size",   "final_files", "part_size",   "serialize",
    "read_size"};
const std::vector<std::string_view> kRunKeys = {
    "epochs", "accelerators", "max_steps", "eval_every_epochs", "eval_every_steps",
    "cache",  "max_time",     "train",     "sync_steps"};
// [model]: an LLM as DLIO describes it (core/llm.hpp); the names are model_problems()' keys.
const std::vector<std::string_view> kModelKeys = {
    "num_layers",      "hidden_size",       "ffn_hidden_size", "vocab_size",
    "attention_heads", "kv_heads",          "datatype",        "optimizer_datatype",
    "tensor_parallel", "pipeline_parallel", "data_parallel",   "zero_stage"};
const std::vector<std::string_view> kDistKeys = {"dist", "value", "mean", "stdev",
                                                 "min",  "max",   "bins"};

const std::vector<std::string_view>* keys_of(std::string_view section) {
  if (section == "job") return &kJobKeys;
  if (section == "dataset" || section == "validation") return &kDatasetKeys;
  if (section == "reader") return &kReaderKeys;
  if (section == "compute") return &kComputeKeys;
  if (section == "checkpoint") return &kCheckpointKeys;
  if (section == "run") return &kRunKeys;
  if (section == "model") return &kModelKeys;
  return nullptr;
}

std::string suggestion(std::string_view key, const std::vector<std::string_view>& known) {
  const std::string_view best = closest_key(key, known);
  if (best.empty()) {
    std::string list;
    for (auto k : known) list += (list.empty() ? "" : ", ") + std::string(k);
    return " (known keys: " + list + ")";
  }
  return " (did you mean '" + std::string(best) + "'?)";
}

std::vector<std::string> split_dots(std::string_view s) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t dot = s.find('.', start);
    parts.emplace_back(
        s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return parts;
}

bool is_dist_key(std::string_view section, std::string_view key) {
  return ((section == "dataset" || section == "validation") &&
          (key == "sample_size" || key == "file_size")) ||
         (section == "compute" && (key == "time" || key == "eval_time" || key == "batch_overhead" ||
                                   key == "eval_batch_overhead"));
}

std::string check_key_path(std::string_view dotted) {
  const auto parts = split_dots(dotted);
  for (const auto& p : parts)
    if (p.empty()) return "is not a valid dotted key";
  const std::string& section = parts[0];
  if (std::find(kSections.begin(), kSections.end(), section) == kSections.end() ||
      section == "scales")
    return "unknown section '" + section + "'" + suggestion(section, kSections);
  if (parts.size() == 1) return "is a table; set one of its keys (e.g. " + section + ".<key>)";
  const auto* known = keys_of(section);
  const std::string& key = parts[1];
  std::size_t next = 2;
  if (section == "compute" && std::find(known->begin(), known->end(), key) == known->end()) {
    // compute.<accelerator>.time
    if (parts.size() < 3)
      return "unknown key '" + key + "'" + suggestion(key, *known) +
             "; per-accelerator step times are compute.<name>.time";
    if (std::find(kAcceleratorKeys.begin(), kAcceleratorKeys.end(), parts[2]) ==
        kAcceleratorKeys.end())
      return "unknown key '" + parts[2] + "'" + suggestion(parts[2], kAcceleratorKeys);
    if (parts.size() == 3) return "";
    if (parts[2] != "time") return "is too deep";
    if (parts.size() == 4 &&
        std::find(kDistKeys.begin(), kDistKeys.end(), parts[3]) != kDistKeys.end())
      return "";
    return parts.size() == 4 ? "unknown key '" + parts[3] + "'" + suggestion(parts[3], kDistKeys)
                             : "is too deep";
  }
  if (std::find(known->begin(), known->end(), key) == known->end())
    return "unknown key '" + key + "'" + suggestion(key, *known);
  if (parts.size() == next) return "";
  if ((section == "dataset" || section == "validation") && key == "parquet") {
    if (parts.size() != next + 1) return "is too deep";
    if (std::find(kParquetKeys.begin(), kParquetKeys.end(), parts[next]) != kParquetKeys.end())
      return "";
    return "unknown key '" + parts[next] + "'" + suggestion(parts[next], kParquetKeys);
  }
  if (is_dist_key(section, key) && parts.size() == next + 1) {
    if (std::find(kDistKeys.begin(), kDistKeys.end(), parts[next]) != kDistKeys.end()) return "";
    return "unknown key '" + parts[next] + "'" + suggestion(parts[next], kDistKeys);
  }
  return "'" + key + "' is not a table";
}

bool is_text_key(const std::string& dotted) {
  static const std::set<std::string> text_keys = {"job.name",
                                                  "job.description",
                                                  "dataset.dir",
                                                  "dataset.format",
                                                  "dataset.file_prefix",
                                                  "validation.dir",
                                                  "validation.format",
                                                  "validation.file_prefix",
                                                  "dataset.parquet.compression",
                                                  "validation.parquet.compression",
                                                  "reader.shuffle",
                                                  "reader.read",
                                                  "compute.accelerator",
                                                  "checkpoint.dir",
                                                  "run.cache",
                                                  "checkpoint.mode",
                                                  "model.datatype",
                                                  "model.optimizer_datatype"};
  return text_keys.count(dotted) > 0;
}

}  // namespace dlgen::detail
