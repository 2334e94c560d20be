// Job -> commented TOML (to_toml): every key the reader knows, in the format's order, each with
// the comment the caller gives for its dotted key (`dlgen convert` says which DLIO key it came
// from). Keys at their "not in use" defaults are left out where the reader derives them.
#include <algorithm>

#include "dlgen/core/job_io.hpp"
#include "job_schema.hpp"
#include "toml_text.hpp"

namespace dlgen {
namespace {

using namespace detail;

class Writer {
 public:
  explicit Writer(const std::map<std::string, std::string>& comments) : comments_(comments) {}
  void section(const std::string& name) {
    if (!out_.empty()) out_ += "\n";
    section_ = name;
    out_ += "[" + name + "]";
    comment(name);
  }
  void kv(const std::string& key, const std::string& value) {
    out_ += key + " = " + value;
    comment(section_.empty() ? key : section_ + "." + key);
  }
  std::string str() && { return std::move(out_); }

 private:
  void comment(const std::string& path) {
    auto it = comments_.find(path);
    if (it != comments_.end() && !it->second.empty()) {
      std::string text = it->second;
      std::replace(text.begin(), text.end(), '\n', ' ');
      out_ += "  # " + text;
    }
    out_ += "\n";
  }
  const std::map<std::string, std::string>& comments_;
  std::string out_, section_;
};

void write_dataset(Writer& w, const DatasetSpec& d, Load inherited_load = Load::on_demand) {
  w.kv("dir", quote(d.dir.string()));
  w.kv("format", quote(to_string(d.format)));
  w.kv("num_files", std::to_string(d.num_files));
  w.kv("samples_per_file", std::to_string(d.samples_per_file));
  w.kv("sample_size", dist_text(d.sample_size, Unit::bytes));
  w.kv("seed", std::to_string(d.seed));
  w.kv("files_per_dir", std::to_string(d.files_per_dir));
  w.kv("file_prefix", quote(d.file_prefix));
  // Written only for samples of several files, so a job of one-file samples reads as before.
  if (d.files_per_sample != 1) w.kv("files_per_sample", std::to_string(d.files_per_sample));
  // Written only for a dataset loaded into memory (or a validation set that differs from its
  // [dataset], whose unset keys follow it), so an on-demand job reads as before.
  if (d.load != inherited_load) w.kv("load", quote(to_string(d.load)));
  // Written only for a range of the files' samples, so a job that reads them all reads as before.
  if (reads_sample_range(d))
    w.kv("sample_range",
         "[" + std::to_string(d.sample_begin) + ", " + std::to_string(d.sample_end) + "]");
  if (d.format != Format::parquet) return;
  const auto list = [](const auto& items, auto text) {
    std::string out;
    for (const auto& x : items) out += (out.empty() ? "" : ", ") + quote(text(x));
    return "[" + out + "]";
  };
  const ParquetSpec& q = d.parquet;
  if (!q.columns.empty())
    w.kv("parquet.columns", list(q.columns, [](const ParquetColumn& c) { return to_string(c); }));
  w.kv("parquet.row_group_size", std::to_string(q.row_group_size));
  w.kv("parquet.compression", quote(to_string(q.compression)));
  if (!q.read_columns.empty())
    w.kv("parquet.read_columns", list(q.read_columns, [](const std::string& c) { return c; }));
}

void write_reader(Writer& w, const ReaderSpec& r) {
  w.section("reader");
  w.kv("batch_size",
       r.batches_vary() ? dist_text(r.batch_sizes, Unit::samples) : std::to_string(r.batch_size));
  w.kv("workers", std::to_string(r.workers));
  w.kv("prefetch", std::to_string(r.prefetch));
  w.kv("shuffle", quote(to_string(r.shuffle)));
  w.kv("shuffle_buffer", std::to_string(r.shuffle_buffer));
  if (r.shuffle_block > 0) w.kv("shuffle_block", std::to_string(r.shuffle_block));
  w.kv("seed", std::to_string(r.seed));
  w.kv("read", quote(to_string(r.read_unit)));
  w.kv("request_size", size_text(double(r.request_size_bytes)));
  w.kv("header_read", size_text(double(r.header_read_bytes)));
  w.kv("readahead", size_text(double(r.readahead_bytes)));
  w.kv("probe", size_text(double(r.probe_bytes)));
  if (r.stream_granule_bytes) w.kv("stream_granule", size_text(double(r.stream_granule_bytes)));
  if (r.stream_tail_bytes) w.kv("stream_tail", size_text(double(r.stream_tail_bytes)));
  if (r.stream_head_bytes) w.kv("stream_head", size_text(double(r.stream_head_bytes)));
  if (!r.recipe.empty()) {
    std::string steps;
    for (const RecipeStep& st : r.recipe)
      steps += (steps.empty() ? "" : ", ") + quote(to_string(st));
    w.kv("recipe", "[" + steps + "]");
  }
  w.kv("iodepth", std::to_string(r.iodepth));
  w.kv("direct", r.direct ? "true" : "false");
  w.kv("drop_last", r.drop_last ? "true" : "false");
  w.kv("startup", time_text(r.startup_s));
  if (r.eval_startup_s) w.kv("eval_startup", time_text(*r.eval_startup_s));
  if (!(r.startup_spread == Distribution{}))
    w.kv("startup_spread", dist_text(r.startup_spread, Unit::seconds));
  if (r.eval_batch_size != 0) w.kv("eval_batch_size", std::to_string(r.eval_batch_size));
  w.kv("warmup", time_text(r.warmup_s));
  w.kv("preprocess", dist_text(r.preprocess, Unit::seconds));
  if (!(r.collate == Distribution{})) w.kv("collate", dist_text(r.collate, Unit::seconds));
  if (!r.worker_pace.empty()) {
    std::string factors;
    for (double f : r.worker_pace) factors += (factors.empty() ? "" : ", ") + float_text(f);
    w.kv("worker_pace", "[" + factors + "]");
  }
}

void write_compute(Writer& w, const ComputeSpec& c) {
  w.section("compute");
  if (!c.accelerator.empty()) w.kv("accelerator", quote(c.accelerator));
  w.kv("time", dist_text(c.step_time, Unit::seconds));
  if (c.eval_time) w.kv("eval_time", dist_text(*c.eval_time, Unit::seconds));
  if (!(c.batch_overhead == Distribution{}))
    w.kv("batch_overhead", dist_text(c.batch_overhead, Unit::seconds));
  if (c.eval_batch_overhead)
    w.kv("eval_batch_overhead", dist_text(*c.eval_batch_overhead, Unit::seconds));
  w.kv("au_threshold", float_text(c.au_threshold));
  for (const auto& [name, p] : c.per_accelerator) {
    w.section("compute." + bare_or_quoted_key(name));
    w.kv("time", dist_text(p.time, Unit::seconds));
    if (p.batch_size > 0) w.kv("batch_size", std::to_string(p.batch_size));
  }
}

// Only a checkpoint section that differs from the defaults is written.
void write_checkpoint(Writer& w, const CheckpointSpec& k) {
  w.section("checkpoint");
  const bool derived =
      k.every_epochs > 0 || !k.after_epochs.empty() || k.every_steps > 0 || k.restore;
  if (k.enabled != derived) w.kv("enabled", k.enabled ? "true" : "false");
  if (k.after_epochs.empty()) {
    w.kv("every_epochs", std::to_string(k.every_epochs));
  } else {
    std::string list;
    for (auto e : k.after_epochs) list += (list.empty() ? "" : ", ") + std::to_string(e);
    w.kv("after_epochs", "[" + list + "]");
  }
  if (k.first_epoch > 0) w.kv("first_epoch", std::to_string(k.first_epoch));
  w.kv("every_steps", std::to_string(k.every_steps));
  w.kv("size", size_text(double(k.size_bytes)));
  w.kv("files", std::to_string(k.files));
  if (k.final_size_bytes > 0) {
    w.kv("final_size", size_text(double(k.final_size_bytes)));
    w.kv("final_files", std::to_string(k.final_files));
  }
  w.kv("write_size", size_text(double(k.write_size_bytes)));
  if (k.read_size_bytes > 0) w.kv("read_size", size_text(double(k.read_size_bytes)));
  if (k.part_size_bytes > 0) w.kv("part_size", size_text(double(k.part_size_bytes)));
  if (k.serialize_s > 0) w.kv("serialize", time_text(k.serialize_s));
  if (k.write_call != WriteCall::pwrite) w.kv("write_call", quote(to_string(k.write_call)));
  if (k.direct) w.kv("direct", "true");
  w.kv("fsync", k.fsync ? "true" : "false");
  if (k.copy != CopyCall::none) {
    w.kv("copy", quote(to_string(k.copy)));
    w.kv("copy_every", std::to_string(k.copy_every));
  }
  if (!k.dir.empty()) w.kv("dir", quote(k.dir.string()));
  w.kv("restore", k.restore ? "true" : "false");
  if (k.writes > 0) w.kv("writes", std::to_string(k.writes));
  if (k.reads > 0) w.kv("reads", std::to_string(k.reads));
  if (k.pause_s > 0) w.kv("pause", time_text(k.pause_s));
  if (k.mode != CheckpointMode::all) w.kv("mode", quote(to_string(k.mode)));
  if (k.ranks_per_host != CheckpointSpec{}.ranks_per_host)
    w.kv("ranks_per_host", std::to_string(k.ranks_per_host));
  if (k.keep) w.kv("keep", std::to_string(*k.keep));
}

void write_run(Writer& w, const RunSpec& run) {
  w.section("run");
  w.kv("epochs", std::to_string(run.epochs));
  w.kv("accelerators", std::to_string(run.accelerators));
  w.kv("max_steps", std::to_string(run.max_steps));
  w.kv("eval_every_epochs", std::to_string(run.eval_every_epochs));
  if (run.eval_every_steps > 0) w.kv("eval_every_steps", std::to_string(run.eval_every_steps));
  w.kv("cache", quote(to_string(run.cache)));
  w.kv("max_time", time_text(run.max_seconds));
  if (!run.train) w.kv("train", "false");
  if (run.sync_steps) w.kv("sync_steps", "true");
}

void write_model(Writer& w, const LlmModel& m) {
  w.section("model");
  w.kv("num_layers", std::to_string(m.num_layers));
  w.kv("hidden_size", std::to_string(m.hidden_size));
  w.kv("ffn_hidden_size", std::to_string(m.ffn_hidden_size));
  w.kv("vocab_size", std::to_string(m.vocab_size));
  w.kv("attention_heads", std::to_string(m.attention_heads));
  w.kv("kv_heads", std::to_string(m.kv_heads));
  w.kv("datatype", quote(to_string(m.datatype)));
  w.kv("optimizer_datatype", quote(to_string(m.optimizer_datatype)));
  w.kv("tensor_parallel", std::to_string(m.tensor));
  w.kv("pipeline_parallel", std::to_string(m.pipeline));
  w.kv("data_parallel", std::to_string(m.data));
  w.kv("zero_stage", std::to_string(m.zero_stage));
}

// [scales.NAME] tables as read: dotted keys and their value text.
void write_scales(Writer& w, const Job& job) {
  for (const auto& [name, entries] : job.scales) {
    w.section("scales." + bare_or_quoted_key(name));
    for (const auto& [key, text] : entries) {
      std::string k2;
      for (const auto& part : split_dots(key))
        k2 += (k2.empty() ? "" : ".") + bare_or_quoted_key(part);
      w.kv(k2, text);
    }
  }
}

}  // namespace

std::string to_toml(const Job& job, const std::map<std::string, std::string>& comments) {
  Writer w(comments);
  w.section("job");
  w.kv("name", quote(job.name));
  if (!job.description.empty()) w.kv("description", quote(job.description));

  if (job.run.train || !(job.dataset == DatasetSpec{})) {  // a checkpoint-only job may have none
    w.section("dataset");
    write_dataset(w, job.dataset);
  }
  if (job.validation) {
    w.section("validation");
    write_dataset(w, *job.validation, job.dataset.load);
  }
  write_reader(w, job.reader);
  write_compute(w, job.compute);
  if (!(job.checkpoint == CheckpointSpec{})) write_checkpoint(w, job.checkpoint);
  write_run(w, job.run);
  if (job.model) write_model(w, *job.model);
  write_scales(w, job);
  return std::move(w).str();
}

}  // namespace dlgen
