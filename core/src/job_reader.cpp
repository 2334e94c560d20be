// Job files: the TOML tree -> Job, section by section, collecting every problem with its line:
// the sections of the job format (docs/job-format.md), each read with a Section (toml_section.hpp).
// The tree comes from job_io.cpp after [scales.*] and --set have edited it (job_overrides.cpp).
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <sstream>

#include "dlgen/core/units.hpp"
#include "job_schema.hpp"
#include "toml_reader.hpp"
#include "toml_section.hpp"
#include "toml_text.hpp"
#include "units_internal.hpp"

namespace dlgen::detail {
namespace {

const toml::table* subtable(Ctx& ctx, const toml::table& root, std::string_view name) {
  const toml::node* n = root.get(name);
  if (!n) return nullptr;
  ctx.lines[std::string(name)] = line_of(*n);
  if (!n->is_table()) {
    ctx.error(std::string(name), line_of(*n), "expected a table ([" + std::string(name) + "])");
    return nullptr;
  }
  return n->as_table();
}

// [dataset.parquet]: columns as "name:dtype[size]" strings, row groups, compression, the columns
// read. Without sample_size, a row's bytes are the columns' (set by read_dataset).
void read_parquet(Ctx& ctx, const toml::node* n, const std::string& prefix, ParquetSpec& q) {
  if (!n) return;
  if (!n->is_table()) {
    ctx.error(prefix, line_of(*n), "expected a table ([" + prefix + "])");
    return;
  }
  Section s(ctx, n->as_table(), prefix);
  std::vector<std::string> columns;
  const bool has_columns = s.has("columns");
  s.strings("columns", columns);
  if (has_columns) q.columns.clear();
  for (std::size_t i = 0; i < columns.size(); ++i) {
    auto c = parse_parquet_column(columns[i]);
    if (c)
      q.columns.push_back(*c);
    else
      ctx.error(prefix + ".columns[" + std::to_string(i) + "]", ctx.lines[prefix + ".columns"],
                c.error().message);
  }
  s.integer("row_group_size", q.row_group_size);
  s.choice("compression", q.compression,
           {{"none", ParquetCompression::none},
            {"zstd", ParquetCompression::zstd},
            {"snappy", ParquetCompression::snappy}});
  s.strings("read_columns", q.read_columns);
  s.check_unknown(kParquetKeys);
}

// sample_range = [begin, end]: two integers (the bounds are validate's).
void read_sample_range(Ctx& ctx, Section& s, const std::string& prefix, DatasetSpec& d) {
  if (!s.has("sample_range")) return;
  std::vector<std::uint32_t> range;
  const std::size_t before = ctx.diags.size();
  s.integers("sample_range", range);
  if (ctx.diags.size() > before) return;  // not whole numbers: said already
  if (range.size() == 2)
    d.sample_begin = range[0], d.sample_end = range[1];
  else
    ctx.error(prefix + ".sample_range", ctx.lines[prefix + ".sample_range"],
              "must be [begin, end]: two sample indices");
}

void read_dataset(Ctx& ctx, const toml::table* t, const std::string& prefix, DatasetSpec& d) {
  Section s(ctx, t, prefix);
  s.path_value("dir", d.dir);
  if (const toml::node* n = s.get("format")) {
    if (auto v = n->value<std::string>(); n->is_string() && format_from_string(*v))
      d.format = *format_from_string(*v);
    else
      ctx.error(prefix + ".format", line_of(*n),
                "unknown format " + node_text(*n) +
                    " (expected one of \"raw\", \"npz\", \"hdf5\", \"jpeg\", \"tfrecord\", "
                    "\"parquet\")");
  }
  s.integer("num_files", d.num_files);
  s.integer("samples_per_file", d.samples_per_file);
  s.distribution("sample_size", d.sample_size, Unit::bytes);
  if (s.has("file_size")) {
    if (s.has("sample_size"))
      ctx.error(prefix + ".file_size", ctx.lines[prefix + ".sample_size"],
                "give either sample_size or file_size, not both");
    else if (d.samples_per_file != 1)
      ctx.error(prefix + ".file_size", 0,
                "is a synonym of sample_size only when samples_per_file = 1");
    s.distribution("file_size", d.sample_size, Unit::bytes);
    ctx.lines[prefix + ".sample_size"] = ctx.lines[prefix + ".file_size"];
  }
  s.integer("seed", d.seed);
  s.integer("files_per_dir", d.files_per_dir);
  s.string("file_prefix", d.file_prefix);
  read_parquet(ctx, s.get("parquet"), prefix + ".parquet", d.parquet);
  if (d.format == Format::parquet && !d.parquet.columns.empty() && !s.has("sample_size") &&
      !s.has("file_size")) {
    d.sample_size.kind = DistKind::fixed;
    d.sample_size.value = static_cast<double>(columns_bytes(d.parquet.columns));
  }
  s.integer("files_per_sample", d.files_per_sample);
  s.choice("load", d.load, {{"on_demand", Load::on_demand}, {"memory", Load::memory}});
  read_sample_range(ctx, s, prefix, d);
  s.check_unknown(kDatasetKeys);
}

void check_sections(Ctx& ctx, const toml::table& root) {
  for (auto&& [k, v] : root) {
    if (std::find(kSections.begin(), kSections.end(), k.str()) == kSections.end())
      ctx.error(std::string(k.str()), k.source().begin.line ? k.source().begin.line : line_of(v),
                "unknown section" + suggestion(k.str(), kSections));
  }
}

void read_job_table(Ctx& ctx, const toml::table& root, const std::filesystem::path& source,
                    Job& job) {
  Section s(ctx, subtable(ctx, root, "job"), "job");
  s.string("name", job.name);
  s.string("description", job.description);
  s.check_unknown(kJobKeys);
  if (job.name.empty()) job.name = source.stem().string();
}

// [dataset] (required unless the job is checkpoint-only) and [validation], whose unset keys
// follow [dataset].
void read_datasets(Ctx& ctx, const toml::table& root, Job& job) {
  const toml::table* dataset = subtable(ctx, root, "dataset");
  // A checkpoint-only job ([run] train = false) reads no dataset.
  const toml::node* train_node = root.at_path("run.train").node();
  const bool checkpoint_only = train_node && train_node->value<bool>() == false;
  if (!dataset && !checkpoint_only)
    ctx.error("dataset", 0, "is required ([dataset] with at least dir and sample_size)");
  read_dataset(ctx, dataset, "dataset", job.dataset);
  const bool schema = job.dataset.format == Format::parquet && !job.dataset.parquet.columns.empty();
  if (dataset && !dataset->contains("sample_size") && !dataset->contains("file_size") && !schema)
    ctx.error("dataset.sample_size", ctx.lines["dataset"],
              "is required (a size such as \"146MiB\" or a distribution)");

  if (const toml::table* v = subtable(ctx, root, "validation")) {
    // Unset keys follow [dataset]; the directory and seed differ so the two sets never collide.
    DatasetSpec vs = job.dataset;
    vs.dir = job.dataset.dir.empty() ? std::filesystem::path()
                                     : std::filesystem::path(job.dataset.dir.string() + "-valid");
    vs.seed = job.dataset.seed + 1;
    vs.sample_begin = vs.sample_end = 0;
    // A range of samples of the training set's own files (one container holding both sets):
    // the same files, unless it names others.
    if (v->contains("sample_range")) vs.dir = job.dataset.dir, vs.seed = job.dataset.seed;
    read_dataset(ctx, v, "validation", vs);
    job.validation = vs;
  }
}

// reader.batch_size: an integer, or a distribution of batch sizes (batches that vary: a token
// budget); then batch_size is its mean, rounded, and a fixed one is just that integer.
void read_batch_size(Ctx& ctx, Section& s, ReaderSpec& r) {
  const toml::node* n = s.get("batch_size");
  if (!n || !n->is_table()) return s.integer("batch_size", r.batch_size);
  const std::size_t errors = ctx.diags.size();
  Distribution d;
  s.distribution("batch_size", d, Unit::samples);
  if (ctx.diags.size() != errors) return;
  if (d.kind == DistKind::fixed && d.min == 0 && d.max == 0) {
    r.batch_size = static_cast<std::uint32_t>(std::llround(std::min(d.value, 4.0e9)));
    return;
  }
  r.batch_sizes = d;
  r.batch_size =
      static_cast<std::uint32_t>(std::max(1LL, std::llround(std::min(d.expected(), 4.0e9))));
}

void read_reader(Ctx& ctx, const toml::table& root, Job& job) {
  ReaderSpec& r = job.reader;
  Section s(ctx, subtable(ctx, root, "reader"), "reader");
  read_batch_size(ctx, s, r);
  s.integer("workers", r.workers);
  s.integer("prefetch", r.prefetch);
  s.choice("shuffle", r.shuffle,
           {{"none", Shuffle::none}, {"file", Shuffle::file}, {"sample", Shuffle::sample}});
  s.integer("shuffle_buffer", r.shuffle_buffer);
  s.integer("shuffle_block", r.shuffle_block);
  s.integer("seed", r.seed);
  s.choice("read", r.read_unit,
           {{"file", ReadUnit::file},
            {"sample", ReadUnit::sample},
            {"stream", ReadUnit::stream},
            {"row_group", ReadUnit::row_group}});
  s.size("request_size", r.request_size_bytes);
  s.size("header_read", r.header_read_bytes);
  s.size("readahead", r.readahead_bytes);
  s.size("probe", r.probe_bytes);
  s.recipe("recipe", r.recipe);
  s.integer("iodepth", r.iodepth);
  s.boolean("direct", r.direct);
  s.boolean("drop_last", r.drop_last);
  s.duration("startup", r.startup_s);
  if (s.has("eval_startup")) {
    double e = 0;
    s.duration("eval_startup", e);
    r.eval_startup_s = e;
  }
  s.distribution("startup_spread", r.startup_spread, Unit::seconds);
  s.integer("eval_batch_size", r.eval_batch_size);
  s.duration("warmup", r.warmup_s);
  s.distribution("preprocess", r.preprocess, Unit::seconds);
  s.distribution("collate", r.collate, Unit::seconds);
  s.numbers("worker_pace", r.worker_pace);
  s.size("stream_granule", r.stream_granule_bytes);
  s.size("stream_tail", r.stream_tail_bytes);
  s.size("stream_head", r.stream_head_bytes);
  s.check_unknown(kReaderKeys);
}

// [compute.<accelerator>] tables: a step time (and, optionally, a batch size) per accelerator
// name; each name becomes a known key of [compute].
void read_accelerators(Ctx& ctx, const toml::table& t, ComputeSpec& c,
                       std::vector<std::string_view>& known) {
  for (auto&& [k, v] : t) {
    if (std::find(kComputeKeys.begin(), kComputeKeys.end(), k.str()) != kComputeKeys.end())
      continue;
    if (!v.is_table() || v.as_table()->is_inline()) continue;  // reported as unknown below
    known.push_back(k.str());
    const std::string name(k.str());
    ctx.lines["compute." + name] = line_of(v);
    Section a(ctx, v.as_table(), "compute." + name);
    AcceleratorProfile p;
    if (!a.has("time"))
      ctx.error("compute." + name + ".time", line_of(v),
                "is required ([compute." + name + "] time = \"0.3s\")");
    a.distribution("time", p.time, Unit::seconds);
    if (a.has("batch_size")) {
      a.integer("batch_size", p.batch_size);
      if (p.batch_size == 0)
        ctx.error("compute." + name + ".batch_size", line_of(v),
                  "must be >= 1 (leave it out to use reader.batch_size)");
    }
    a.check_unknown(kAcceleratorKeys);
    c.per_accelerator[name] = p;
  }
}

// The accelerator in force brings its own batch size: it is reader.batch_size from here on. A
// reader.batch_size given on the command line that disagrees is refused (it would be lost).
void apply_accelerator_batch(Ctx& ctx, Job& job) {
  const ComputeSpec& c = job.compute;
  const auto it = c.per_accelerator.find(c.accelerator);
  if (c.accelerator.empty() || it == c.per_accelerator.end() || it->second.batch_size == 0) return;
  const std::uint32_t batch = it->second.batch_size;
  if (ctx.origins.count("reader.batch_size") && job.reader.batch_size != batch) {
    ctx.error("reader.batch_size", 0,
              std::to_string(job.reader.batch_size) + " disagrees with compute." + c.accelerator +
                  ".batch_size = " + std::to_string(batch) +
                  ", the batch of the accelerator in force; set compute." + c.accelerator +
                  ".batch_size instead");
    return;
  }
  job.reader.batch_size = batch;
  job.reader.batch_sizes = {};  // the accelerator's own batch is fixed
}

void read_compute(Ctx& ctx, const toml::table& root, Job& job) {
  ComputeSpec& c = job.compute;
  const toml::table* t = subtable(ctx, root, "compute");
  Section s(ctx, t, "compute");
  s.string("accelerator", c.accelerator);
  s.distribution("time", c.step_time, Unit::seconds);
  if (s.has("eval_time")) {
    Distribution e;
    s.distribution("eval_time", e, Unit::seconds);
    c.eval_time = e;
  }
  s.distribution("batch_overhead", c.batch_overhead, Unit::seconds);
  if (s.has("eval_batch_overhead")) {
    Distribution e;
    s.distribution("eval_batch_overhead", e, Unit::seconds);
    c.eval_batch_overhead = e;
  }
  s.number("au_threshold", c.au_threshold);
  std::vector<std::string_view> known = kComputeKeys;
  if (t) read_accelerators(ctx, *t, c, known);
  s.check_unknown(known);
}

void read_checkpoint(Ctx& ctx, const toml::table& root, Job& job) {
  CheckpointSpec& k = job.checkpoint;
  const toml::table* t = subtable(ctx, root, "checkpoint");
  Section s(ctx, t, "checkpoint");
  s.integer("every_epochs", k.every_epochs);
  s.integer("first_epoch", k.first_epoch);
  s.integers("after_epochs", k.after_epochs);
  s.integer("every_steps", k.every_steps);
  s.size("size", k.size_bytes);
  s.integer("files", k.files);
  s.size("final_size", k.final_size_bytes);
  s.integer("final_files", k.final_files);
  s.size("write_size", k.write_size_bytes);
  s.size("read_size", k.read_size_bytes);
  s.size("part_size", k.part_size_bytes);
  s.duration("serialize", k.serialize_s);
  s.choice(
      "write_call", k.write_call,
      {{"pwrite", WriteCall::pwrite}, {"write", WriteCall::write}, {"writev", WriteCall::writev}});
  s.boolean("direct", k.direct);
  s.boolean("fsync", k.fsync);
  s.choice("copy", k.copy,
           {{"none", CopyCall::none},
            {"sendfile", CopyCall::sendfile},
            {"copy_file_range", CopyCall::copy_file_range}});
  s.integer("copy_every", k.copy_every);
  s.path_value("dir", k.dir);
  s.boolean("restore", k.restore);
  s.integer("writes", k.writes);
  s.integer("reads", k.reads);
  s.duration("pause", k.pause_s);
  s.choice("mode", k.mode, {{"all", CheckpointMode::all}, {"subset", CheckpointMode::subset}});
  s.integer("ranks_per_host", k.ranks_per_host);
  std::uint32_t keep = std::numeric_limits<std::uint32_t>::max();  // not given: keep every one
  s.integer("keep", keep);
  if (keep != std::numeric_limits<std::uint32_t>::max()) k.keep = keep;
  // A [checkpoint] table is in force when it says when to write or to restore; `enabled`
  // overrides that (so `--set checkpoint.enabled=false` turns checkpoints off).
  k.enabled =
      t && (k.every_epochs > 0 || !k.after_epochs.empty() || k.every_steps > 0 || k.restore);
  s.boolean("enabled", k.enabled);
  if (t && k.dir.empty()) k.dir = std::filesystem::path("checkpoints") / job.name;
  s.check_unknown(kCheckpointKeys);
}

void read_run(Ctx& ctx, const toml::table& root, Job& job) {
  RunSpec& r = job.run;
  Section s(ctx, subtable(ctx, root, "run"), "run");
  s.integer("epochs", r.epochs);
  s.integer("accelerators", r.accelerators);
  s.integer("max_steps", r.max_steps);
  s.integer("eval_every_epochs", r.eval_every_epochs);
  s.integer("eval_every_steps", r.eval_every_steps);
  s.choice("cache", r.cache,
           {{"keep", CacheMode::keep},
            {"drop_start", CacheMode::drop_start},
            {"drop_epoch", CacheMode::drop_epoch}});
  s.duration("max_time", r.max_seconds);
  s.boolean("train", r.train);
  s.boolean("sync_steps", r.sync_steps);
  s.check_unknown(kRunKeys);
}

// [model]: an LLM as DLIO describes it (core/llm.hpp).
void read_model(Ctx& ctx, const toml::table& root, Job& job) {
  const toml::table* t = subtable(ctx, root, "model");
  if (!t) return;
  LlmModel m;
  Section s(ctx, t, "model");
  s.integer("num_layers", m.num_layers);
  s.integer("hidden_size", m.hidden_size);
  s.integer("ffn_hidden_size", m.ffn_hidden_size);
  s.integer("vocab_size", m.vocab_size);
  s.integer("attention_heads", m.attention_heads);
  m.kv_heads = m.attention_heads;  // default: multi-head attention
  s.integer("kv_heads", m.kv_heads);
  const std::initializer_list<std::pair<std::string_view, DataType>> types = {
      {"int8", DataType::int8},
      {"fp16", DataType::fp16},
      {"bf16", DataType::bf16},
      {"fp32", DataType::fp32},
      {"fp64", DataType::fp64}};
  s.choice("datatype", m.datatype, types);
  s.choice("optimizer_datatype", m.optimizer_datatype, types);
  s.integer("tensor_parallel", m.tensor);
  s.integer("pipeline_parallel", m.pipeline);
  s.integer("data_parallel", m.data);
  s.integer("zero_stage", m.zero_stage);
  s.check_unknown(kModelKeys);
  job.model = m;
}

}  // namespace

Job job_from_tree(Ctx& ctx, const toml::table& root, const std::filesystem::path& source) {
  Job job;
  job.source = source;
  check_sections(ctx, root);
  read_job_table(ctx, root, source, job);
  read_datasets(ctx, root, job);
  read_reader(ctx, root, job);
  read_compute(ctx, root, job);
  apply_accelerator_batch(ctx, job);
  read_checkpoint(ctx, root, job);
  read_run(ctx, root, job);
  read_model(ctx, root, job);
  return job;
}

}  // namespace dlgen::detail
