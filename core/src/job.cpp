#include "dlgen/core/job.hpp"

#include <cmath>
#include <string>

#include "dlgen/core/limits.hpp"
#include "dlgen/core/llm.hpp"
#include "dlgen/core/storage_location.hpp"
#include "dlgen/core/units.hpp"

namespace dlgen {
namespace {

void add(std::vector<Diagnostic>& out, std::string path, std::string message) {
  out.push_back({std::move(path), std::move(message), 0});
}

// Checks a distribution's own parameters; `what` is "size" or "time" for the messages.
void check_distribution(const Distribution& d, const std::string& path,
                        std::vector<Diagnostic>& out) {
  if (d.min < 0) add(out, path + ".min", "must be >= 0");
  if (d.max < 0) add(out, path + ".max", "must be >= 0");
  if (d.kind != DistKind::uniform && d.max > 0 && d.min > d.max)
    add(out, path + ".min", "must be <= max");
  switch (d.kind) {
    case DistKind::fixed:
      if (d.value < 0) add(out, path, "must be >= 0");  // non-finite: limits::check_limits
      break;
    case DistKind::normal:
    case DistKind::lognormal:
    case DistKind::gamma:
      if (!(d.mean > 0)) add(out, path + ".mean", "must be > 0");
      if (d.stdev < 0) add(out, path + ".stdev", "must be >= 0");
      if (d.max > 0 && d.mean > 0 && d.mean > d.max) add(out, path + ".mean", "must be <= max");
      break;
    case DistKind::uniform:
      if (d.max <= 0)
        add(out, path + ".max", "must be > 0 for a uniform distribution");
      else if (d.min > d.max)
        add(out, path + ".min", "must be <= max");
      break;
    case DistKind::histogram: {
      if (d.bins.empty()) {
        add(out, path + ".bins", "must hold at least one [lo, hi, weight] bin");
        break;
      }
      double total = 0;
      for (std::size_t i = 0; i < d.bins.size(); ++i) {
        const auto& b = d.bins[i];
        const std::string bp = path + ".bins[" + std::to_string(i) + "]";
        if (b.lo < 0 || b.hi < b.lo) add(out, bp, "needs 0 <= lo <= hi");
        if (b.weight < 0) add(out, bp, "weight must be >= 0");
        if (!std::isfinite(b.weight)) add(out, bp, "weight must be a finite number");
        total += b.weight > 0 ? b.weight : 0;
      }
      if (total <= 0) add(out, path + ".bins", "weights must sum to more than 0");
      break;
    }
  }
}

// [dataset.parquet]: a schema every row fills exactly, row groups and the columns read.
void check_parquet(const DatasetSpec& d, const std::string& p, std::vector<Diagnostic>& out) {
  const ParquetSpec& q = d.parquet;
  if (d.format != Format::parquet) {
    if (!(q == ParquetSpec{})) add(out, p + ".parquet", "applies to format = \"parquet\" only");
    return;
  }
  if (d.sample_size.kind != DistKind::fixed)
    add(out, p + ".sample_size",
        "must be a fixed size with format = \"parquet\" (rows of a schema)");
  else if (q.columns.empty() && d.sample_size.value > double(kMaxParquetValueBytes))
    add(out, p + ".sample_size", "is over 1GiB: one Parquet value (a page's size is 32-bit)");
  const std::uint64_t row = columns_bytes(q.columns);
  if (!q.columns.empty() && d.sample_size.kind == DistKind::fixed &&
      std::llround(d.sample_size.value) != static_cast<long long>(row))
    add(out, p + ".sample_size",
        "is " + std::to_string(std::llround(d.sample_size.value)) +
            " bytes but a row of parquet.columns holds " + std::to_string(row));
  for (std::size_t i = 0; i < q.columns.size(); ++i) {
    const std::string cp = p + ".parquet.columns[" + std::to_string(i) + "]";
    if (q.columns[i].name.empty()) add(out, cp, "needs a name");
    if (q.columns[i].size < 1) add(out, cp, "needs a size >= 1");
    if (std::uint64_t{q.columns[i].size} * dtype_bytes(q.columns[i].dtype) > kMaxParquetValueBytes)
      add(out, cp, "holds more than 1GiB per row (a Parquet page's size is a 32-bit number)");
    for (std::size_t j = 0; j < i; ++j)
      if (q.columns[j].name == q.columns[i].name)
        add(out, cp, "repeats the column name \"" + q.columns[i].name + "\"");
  }
  for (const std::string& name : q.read_columns) {
    bool known = q.columns.empty() && name == "data";
    for (const ParquetColumn& c : q.columns) known = known || c.name == name;
    if (!known) add(out, p + ".parquet.read_columns", "names no column \"" + name + "\"");
  }
}

// A URL must be one dlgen knows (s3://BUCKET/PREFIX with a valid bucket); it is never a path.
void check_location(const std::filesystem::path& dir, const std::string& path,
                    std::vector<Diagnostic>& out) {
  if (Result<StorageLocation> loc = parse_location(dir.string()); !loc)
    add(out, path, loc.error().message);
}

void check_dataset(const DatasetSpec& d, const std::string& p, std::vector<Diagnostic>& out) {
  if (d.dir.empty()) add(out, p + ".dir", "must name a directory");
  check_location(d.dir, p + ".dir", out);
  if (d.num_files < 1) add(out, p + ".num_files", "must be >= 1");
  if (d.samples_per_file < 1) add(out, p + ".samples_per_file", "must be >= 1");
  check_distribution(d.sample_size, p + ".sample_size", out);
  if (d.sample_size.kind == DistKind::fixed && d.sample_size.value < 1)
    add(out, p + ".sample_size", "must be >= 1 byte");
  if (d.file_prefix.empty() || d.file_prefix.find('/') != std::string::npos)
    add(out, p + ".file_prefix", "must be a non-empty name without '/'");
  check_parquet(d, p, out);
  if (d.files_per_sample < 1) {
    add(out, p + ".files_per_sample", "must be >= 1");
  } else if (d.files_per_sample > 1) {
    if (d.num_files % d.files_per_sample != 0)
      add(out, p + ".num_files",
          "must be a multiple of files_per_sample (" + std::to_string(d.files_per_sample) + ")");
    if (d.samples_per_file != 1)
      add(out, p + ".files_per_sample", "needs samples_per_file = 1 (a sample is whole files)");
  }
}

}  // namespace

const Distribution& ComputeSpec::effective() const {
  if (!accelerator.empty()) {
    auto it = per_accelerator.find(accelerator);
    if (it != per_accelerator.end()) return it->second.time;
  }
  return step_time;
}

std::vector<Diagnostic> validate(const Job& job) {
  return validate(job, limits::host_memory_bytes());
}

namespace {

// Request sizes with O_DIRECT, the options each read unit takes, shuffles and read units each
// format allows.
void check_reader(const Job& job, std::vector<Diagnostic>& out) {
  const ReaderSpec& r = job.reader;
  if (r.batch_size < 1) add(out, "reader.batch_size", "must be >= 1");
  if (r.batches_vary() && r.batch_sizes.expected() < 0.5)
    add(out, "reader.batch_size", "a distribution of batch sizes needs a mean of at least 1");
  if (r.batches_vary() && r.read_unit == ReadUnit::stream)
    add(out, "reader.batch_size",
        "a distribution of batch sizes applies to read = \"file\", \"sample\" or "
        "\"row_group\" (a stream's workers cut their own batches)");
  if (r.direct && r.request_size_bytes % 4096 != 0)
    add(out, "reader.request_size", "must be a multiple of 4KiB with direct = true");
  if (r.direct && r.header_read_bytes % 4096 != 0)
    add(out, "reader.header_read", "must be a multiple of 4KiB with direct = true");
  if (r.probe_bytes > 0 && r.read_unit != ReadUnit::file)
    add(out, "reader.probe", "applies to read = \"file\" only");
  if (r.direct && r.probe_bytes % 4096 != 0)
    add(out, "reader.probe", "must be a multiple of 4KiB with direct = true");
  if (r.readahead_bytes > 0 && r.read_unit != ReadUnit::sample)
    add(out, "reader.readahead", "applies to read = \"sample\" only (a whole file is read anyway)");
  if (!r.recipe.empty()) {
    if (r.read_unit != ReadUnit::file) add(out, "reader.recipe", "applies to read = \"file\" only");
    if (r.probe_bytes > 0 || r.header_read_bytes > 0 || r.request_size_bytes > 0)
      add(out, "reader.recipe",
          "replaces probe, header_read and request_size: set those to 0 (or drop the recipe)");
    if (r.recipe.size() > kMaxRecipeSteps)
      add(out, "reader.recipe",
          "has " + std::to_string(r.recipe.size()) + " steps; at most " +
              std::to_string(kMaxRecipeSteps));
  }
  if (r.stream_granule_bytes > 0 && r.read_unit != ReadUnit::stream &&
      r.read_unit != ReadUnit::sample)
    add(out, "reader.stream_granule", "applies to read = \"stream\" or \"sample\" only");
  if (r.stream_tail_bytes > 0 && r.read_unit != ReadUnit::stream)
    add(out, "reader.stream_tail", "applies to read = \"stream\" only");
  if (r.stream_head_bytes > 0 && (r.read_unit != ReadUnit::stream || r.stream_granule_bytes == 0))
    add(out, "reader.stream_head", "applies to read = \"stream\" with a stream_granule only");
  if (r.shuffle_buffer > 0 && r.shuffle == Shuffle::none)
    add(out, "reader.shuffle_buffer", "needs shuffle = \"file\" or \"sample\"");
  if (r.shuffle_block > 0 && (r.shuffle != Shuffle::sample || r.shuffle_buffer > 0))
    add(out, "reader.shuffle_block", "needs shuffle = \"sample\" and shuffle_buffer = 0");
  if (r.shuffle_block > 0 && r.read_unit != ReadUnit::sample && r.read_unit != ReadUnit::file)
    add(out, "reader.shuffle_block", "applies to read = \"sample\" or \"file\"");
  if (r.read_unit == ReadUnit::stream && r.shuffle == Shuffle::sample)
    add(out, "reader.shuffle",
        "read = \"stream\" reads each shard front to back: shuffle \"file\" (shards) or \"none\"");
  const bool parquet = job.dataset.format == Format::parquet;
  if (r.read_unit == ReadUnit::row_group && !parquet)
    add(out, "reader.read", "\"row_group\" reads Parquet row groups: needs format = \"parquet\"");
  if (parquet && (r.read_unit == ReadUnit::sample || r.read_unit == ReadUnit::stream))
    add(out, "reader.read",
        "a Parquet file is read by row groups (\"row_group\") or whole (\"file\"), not per "
        "sample or as a stream");
  if (r.read_unit == ReadUnit::sample && job.dataset.format == Format::jpeg)
    add(out, "reader.read",
        "\"sample\" needs a multi-sample format (npz, hdf5, tfrecord, raw); jpeg holds one image "
        "per file");
}

// The accelerator named, every time distribution (the reader's start-up spread among them) and
// the AU threshold.
void check_compute(const Job& job, std::vector<Diagnostic>& out) {
  const ComputeSpec& c = job.compute;
  if (!c.accelerator.empty() && !c.per_accelerator.count(c.accelerator)) {
    std::string known;
    for (const auto& [name, _] : c.per_accelerator) known += (known.empty() ? "" : ", ") + name;
    add(out, "compute.accelerator",
        "unknown accelerator \"" + c.accelerator + "\"" +
            (known.empty() ? std::string(" (the job defines no [compute.<name>] tables)")
                           : " (known: " + known + ")"));
  }
  check_distribution(c.step_time, "compute.time", out);
  if (c.eval_time) check_distribution(*c.eval_time, "compute.eval_time", out);
  check_distribution(c.batch_overhead, "compute.batch_overhead", out);
  if (c.eval_batch_overhead)
    check_distribution(*c.eval_batch_overhead, "compute.eval_batch_overhead", out);
  check_distribution(job.reader.startup_spread, "reader.startup_spread", out);
  for (const auto& [name, p] : c.per_accelerator)
    check_distribution(p.time, "compute." + name + ".time", out);
  if (!(c.au_threshold >= 0 && c.au_threshold <= 1))
    add(out, "compute.au_threshold", "must be within [0, 1]");
}

// An explicit list of epochs: ascending, each an epoch (1-based), instead of the every_epochs rule.
void check_after_epochs(const CheckpointSpec& k, std::vector<Diagnostic>& out) {
  if (k.after_epochs.empty()) return;
  if (k.every_epochs > 0)
    add(out, "checkpoint.after_epochs", "and every_epochs are two cadences: give one");
  for (std::size_t i = 0; i < k.after_epochs.size(); ++i) {
    const std::string key = "checkpoint.after_epochs[" + std::to_string(i) + "]";
    if (k.after_epochs[i] < 1) add(out, key, "must be >= 1 (epochs count from 1)");
    if (i > 0 && k.after_epochs[i] <= k.after_epochs[i - 1])
      add(out, key, "must be above the one before it (the list is ascending)");
  }
}

// checkpoint.part_size: S3's parts are 5 MiB to 5 GiB (all but the last), on a store only.
void check_part_size(const CheckpointSpec& k, std::vector<Diagnostic>& out) {
  if (k.part_size_bytes == 0) return;
  constexpr std::uint64_t kMinPart = 5ull << 20, kMaxPart = 5ull << 30;
  if (k.part_size_bytes < kMinPart || k.part_size_bytes > kMaxPart)
    add(out, "checkpoint.part_size",
        "must be within [5MiB, 5GiB] (an S3 multipart upload's part, but the last)");
  if (!k.dir.string().starts_with("s3://"))
    add(out, "checkpoint.part_size",
        "applies to checkpoints on an object store (checkpoint.dir = \"s3://BUCKET/PREFIX\")");
}

void check_checkpoint(const CheckpointSpec& k, bool train, bool has_model,
                      std::vector<Diagnostic>& out) {
  if (k.keep && train)
    add(out, "checkpoint.keep",
        "applies to checkpoint-only jobs ([run] train = false); a training job's checkpoints "
        "overwrite one another, so its directory holds one");
  check_location(k.dir, "checkpoint.dir", out);
  if (k.serialize_s < 0) add(out, "checkpoint.serialize", "must be >= 0");
  if (k.serialize_s > 0 && !train)
    add(out, "checkpoint.serialize",
        "applies to training jobs: a checkpoint-only job measures the storage alone");
  if (!k.enabled) return;
  // A [model] sizes the checkpoints during training (core/llm.hpp training_shards).
  if (k.size_bytes < 1 && !has_model) add(out, "checkpoint.size", "must be >= 1 byte");
  if (k.files < 1) add(out, "checkpoint.files", "must be >= 1");
  if (k.write_size_bytes < 1) add(out, "checkpoint.write_size", "must be >= 1 byte");
  check_part_size(k, out);
  if (k.copy != CopyCall::none && k.copy_every < 1)
    add(out, "checkpoint.copy_every", "must be >= 1 (copy after every N-th checkpoint)");
  if (k.dir.empty()) add(out, "checkpoint.dir", "must name a directory");
  if (k.every_epochs == 0 && k.after_epochs.empty() && k.every_steps == 0 && !k.restore)
    add(out, "checkpoint", "needs every_epochs, after_epochs, every_steps or restore");
  if (k.first_epoch > 0 && k.every_epochs == 0)
    add(out, "checkpoint.first_epoch", "needs every_epochs");
  check_after_epochs(k, out);
  if (k.files > 0 && k.size_bytes > 0 && k.size_bytes < k.files)
    add(out, "checkpoint.size", "must be at least one byte per file");
  if (k.final_size_bytes > 0 && k.final_files < 1)
    add(out, "checkpoint.final_files", "must be >= 1");
  if (k.final_size_bytes > 0 && k.final_size_bytes < k.final_files)
    add(out, "checkpoint.final_size", "must be at least one byte per file (final_files)");
}

void check_run(const Job& job, std::vector<Diagnostic>& out) {
  const RunSpec& run = job.run;
  if (run.epochs < 1) add(out, "run.epochs", "must be >= 1");
  if (run.accelerators < 1) add(out, "run.accelerators", "must be >= 1");
  if (!(run.max_seconds >= 0)) add(out, "run.max_time", "must be >= 0");
  if (job.dataset.files_per_sample > 1 && job.reader.read_unit != ReadUnit::file)
    add(out, "dataset.files_per_sample", "needs reader.read = \"file\" (a sample is whole files)");
  if (run.eval_every_epochs > 0 && !job.validation)
    add(out, "run.eval_every_epochs", "needs a [validation] dataset");
  if (run.eval_every_steps > 0 && !job.validation)
    add(out, "run.eval_every_steps", "needs a [validation] dataset");
  if (run.eval_every_steps > 0 && run.eval_every_epochs > 0)
    add(out, "run.eval_every_steps", "set either eval_every_steps or eval_every_epochs, not both");
}

// A training job whose epoch holds no full step would measure nothing.
void check_one_step(const Job& job, std::vector<Diagnostic>& out) {
  const ReaderSpec& r = job.reader;
  const std::uint64_t per_step =
      std::uint64_t(r.batch_size) * std::max<std::uint32_t>(job.run.accelerators, 1);
  const std::uint64_t samples =
      limits::mul(job.dataset.num_files, job.dataset.samples_per_file).value_or(UINT64_MAX) /
      std::max<std::uint32_t>(job.dataset.files_per_sample, 1);
  if (job.run.train && r.batch_size >= 1 && job.dataset.num_files >= 1 &&
      job.dataset.samples_per_file >= 1 && samples < per_step)
    add(out, "dataset.num_files",
        "the dataset holds " + std::to_string(samples) +
            " samples, fewer than one step (batch_size " + std::to_string(r.batch_size) + " x " +
            std::to_string(job.run.accelerators) + " accelerators)");
}

}  // namespace

std::vector<Diagnostic> validate(const Job& job, std::uint64_t ram_bytes) {
  std::vector<Diagnostic> out;
  if (job.run.train)
    check_dataset(job.dataset, "dataset", out);  // a checkpoint-only job reads no dataset
  if (job.validation) check_dataset(*job.validation, "validation", out);
  check_reader(job, out);
  check_compute(job, out);
  check_checkpoint(job.checkpoint, job.run.train, job.model.has_value(), out);
  check_run(job, out);
  check_one_step(job, out);
  check_checkpoint_workflow(job, out);  // run.train = false, [model] (core/llm.cpp)
  check_sample_ranges(job, out);        // core/sample_range.cpp
  // Sane limits on every count and size, and the plan's memory, before anything is allocated.
  for (auto& d : limits::check_limits(job, ram_bytes)) out.push_back(std::move(d));
  return out;
}

const char* to_string(Format f) {
  switch (f) {
    case Format::raw:
      return "raw";
    case Format::npz:
      return "npz";
    case Format::hdf5:
      return "hdf5";
    case Format::jpeg:
      return "jpeg";
    case Format::tfrecord:
      return "tfrecord";
    case Format::parquet:
      return "parquet";
    case Format::tar:
      return "tar";
  }
  return "?";
}

std::uint32_t dtype_bytes(ParquetDtype d) {
  switch (d) {
    case ParquetDtype::int8:
    case ParquetDtype::uint8:
      return 1;
    case ParquetDtype::float16:
    case ParquetDtype::int16:
      return 2;
    case ParquetDtype::float32:
    case ParquetDtype::int32:
      return 4;
    case ParquetDtype::float64:
    case ParquetDtype::int64:
      return 8;
  }
  return 1;
}

const char* to_string(ParquetDtype d) {
  switch (d) {
    case ParquetDtype::float16:
      return "float16";
    case ParquetDtype::float32:
      return "float32";
    case ParquetDtype::float64:
      return "float64";
    case ParquetDtype::int8:
      return "int8";
    case ParquetDtype::uint8:
      return "uint8";
    case ParquetDtype::int16:
      return "int16";
    case ParquetDtype::int32:
      return "int32";
    case ParquetDtype::int64:
      return "int64";
  }
  return "?";
}

const char* to_string(ParquetCompression c) {
  switch (c) {
    case ParquetCompression::none:
      return "none";
    case ParquetCompression::zstd:
      return "zstd";
    case ParquetCompression::snappy:
      return "snappy";
  }
  return "?";
}

std::optional<ParquetDtype> parquet_dtype_from_string(std::string_view s) {
  for (ParquetDtype d :
       {ParquetDtype::float16, ParquetDtype::float32, ParquetDtype::float64, ParquetDtype::int8,
        ParquetDtype::uint8, ParquetDtype::int16, ParquetDtype::int32, ParquetDtype::int64})
    if (s == to_string(d)) return d;
  return std::nullopt;
}

Result<ParquetColumn> parse_parquet_column(std::string_view text) {
  const auto bad = [&](const std::string& why) {
    return input_error("parquet column \"" + std::string(text) + "\": " + why +
                       " (expected \"name:dtype\" or \"name:dtype[size]\")");
  };
  const std::size_t colon = text.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return bad("no name");
  ParquetColumn c;
  c.name = std::string(text.substr(0, colon));
  std::string_view type = text.substr(colon + 1);
  if (const std::size_t open = type.find('['); open != std::string_view::npos) {
    if (type.back() != ']') return bad("no closing ']'");
    const std::string_view digits = type.substr(open + 1, type.size() - open - 2);
    if (digits.empty() || digits.size() > 9 ||
        digits.find_first_not_of("0123456789") != std::string_view::npos)
      return bad("the size is not a whole number");
    c.size = static_cast<std::uint32_t>(std::stoul(std::string(digits)));
    type = type.substr(0, open);
  }
  const auto d = parquet_dtype_from_string(type);
  if (!d)
    return bad("unknown dtype \"" + std::string(type) +
               "\" (float16, float32, float64, int8, uint8, int16, int32, int64)");
  c.dtype = *d;
  return c;
}

std::string to_string(const ParquetColumn& c) {
  std::string s = c.name + ":" + to_string(c.dtype);
  if (c.size != 1) s += "[" + std::to_string(c.size) + "]";
  return s;
}

std::uint64_t columns_bytes(const std::vector<ParquetColumn>& columns) {
  std::uint64_t n = 0;
  for (const ParquetColumn& c : columns) n += std::uint64_t{c.size} * dtype_bytes(c.dtype);
  return n;
}

const char* to_string(Shuffle s) {
  switch (s) {
    case Shuffle::none:
      return "none";
    case Shuffle::file:
      return "file";
    case Shuffle::sample:
      return "sample";
  }
  return "?";
}

const char* to_string(ReadUnit r) {
  switch (r) {
    case ReadUnit::file:
      return "file";
    case ReadUnit::sample:
      return "sample";
    case ReadUnit::stream:
      return "stream";
    case ReadUnit::row_group:
      return "row_group";
  }
  return "?";
}

const char* to_string(CacheMode c) {
  switch (c) {
    case CacheMode::keep:
      return "keep";
    case CacheMode::drop_start:
      return "drop_start";
    case CacheMode::drop_epoch:
      return "drop_epoch";
  }
  return "?";
}

const char* to_string(Load l) {
  return l == Load::memory ? "memory" : "on_demand";
}

const char* to_string(DistKind k) {
  switch (k) {
    case DistKind::fixed:
      return "fixed";
    case DistKind::normal:
      return "normal";
    case DistKind::lognormal:
      return "lognormal";
    case DistKind::uniform:
      return "uniform";
    case DistKind::gamma:
      return "gamma";
    case DistKind::histogram:
      return "histogram";
  }
  return "?";
}

const char* to_string(WriteCall c) {
  switch (c) {
    case WriteCall::pwrite:
      return "pwrite";
    case WriteCall::write:
      return "write";
    case WriteCall::writev:
      return "writev";
  }
  return "?";
}

const char* to_string(CopyCall c) {
  switch (c) {
    case CopyCall::none:
      return "none";
    case CopyCall::sendfile:
      return "sendfile";
    case CopyCall::copy_file_range:
      return "copy_file_range";
  }
  return "?";
}

const char* to_string(CheckpointMode m) {
  switch (m) {
    case CheckpointMode::all:
      return "all";
    case CheckpointMode::subset:
      return "subset";
  }
  return "?";
}

std::optional<Format> format_from_string(std::string_view s) {
  for (Format f : {Format::raw, Format::npz, Format::hdf5, Format::jpeg, Format::tfrecord,
                   Format::parquet, Format::tar})
    if (s == to_string(f)) return f;
  if (s == "h5") return Format::hdf5;
  if (s == "jpg") return Format::jpeg;
  return std::nullopt;
}

}  // namespace dlgen
