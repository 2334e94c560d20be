#include "dlgen/core/job.hpp"

#include <string>

#include "dlgen/core/limits.hpp"
#include "dlgen/core/llm.hpp"
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

void check_dataset(const DatasetSpec& d, const std::string& p, std::vector<Diagnostic>& out) {
  if (d.dir.empty()) add(out, p + ".dir", "must name a directory");
  if (d.num_files < 1) add(out, p + ".num_files", "must be >= 1");
  if (d.samples_per_file < 1) add(out, p + ".samples_per_file", "must be >= 1");
  check_distribution(d.sample_size, p + ".sample_size", out);
  if (d.sample_size.kind == DistKind::fixed && d.sample_size.value < 1)
    add(out, p + ".sample_size", "must be >= 1 byte");
  if (d.file_prefix.empty() || d.file_prefix.find('/') != std::string::npos)
    add(out, p + ".file_prefix", "must be a non-empty name without '/'");
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
    if (it != per_accelerator.end()) return it->second;
  }
  return step_time;
}

std::vector<Diagnostic> validate(const Job& job) {
  return validate(job, limits::host_memory_bytes());
}

std::vector<Diagnostic> validate(const Job& job, std::uint64_t ram_bytes) {
  std::vector<Diagnostic> out;
  if (job.run.train)
    check_dataset(job.dataset, "dataset", out);  // a checkpoint-only job reads no dataset
  if (job.validation) check_dataset(*job.validation, "validation", out);

  const ReaderSpec& r = job.reader;
  if (r.batch_size < 1) add(out, "reader.batch_size", "must be >= 1");
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
  if (r.shuffle_buffer > 0 && r.shuffle == Shuffle::none)
    add(out, "reader.shuffle_buffer", "needs shuffle = \"file\" or \"sample\"");
  if (r.read_unit == ReadUnit::stream && r.shuffle == Shuffle::sample)
    add(out, "reader.shuffle",
        "read = \"stream\" reads each shard front to back: shuffle \"file\" (shards) or \"none\"");
  if (r.read_unit == ReadUnit::sample && job.dataset.format == Format::jpeg)
    add(out, "reader.read",
        "\"sample\" needs a multi-sample format (npz, hdf5, tfrecord, raw); jpeg holds one image "
        "per file");

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
  check_distribution(job.reader.startup_spread, "reader.startup_spread", out);
  for (const auto& [name, d] : c.per_accelerator)
    check_distribution(d, "compute." + name + ".time", out);
  if (!(c.au_threshold >= 0 && c.au_threshold <= 1))
    add(out, "compute.au_threshold", "must be within [0, 1]");

  const CheckpointSpec& k = job.checkpoint;
  if (k.keep && job.run.train)
    add(out, "checkpoint.keep",
        "applies to checkpoint-only jobs ([run] train = false); a training job's checkpoints "
        "overwrite one another, so its directory holds one");
  if (k.enabled) {
    if (k.size_bytes < 1) add(out, "checkpoint.size", "must be >= 1 byte");
    if (k.files < 1) add(out, "checkpoint.files", "must be >= 1");
    if (k.write_size_bytes < 1) add(out, "checkpoint.write_size", "must be >= 1 byte");
    if (k.copy != CopyCall::none && k.copy_every < 1)
      add(out, "checkpoint.copy_every", "must be >= 1 (copy after every N-th checkpoint)");
    if (k.dir.empty()) add(out, "checkpoint.dir", "must name a directory");
    if (k.every_epochs == 0 && k.every_steps == 0 && !k.restore)
      add(out, "checkpoint", "needs every_epochs, every_steps or restore");
    if (k.first_epoch > 0 && k.every_epochs == 0)
      add(out, "checkpoint.first_epoch", "needs every_epochs");
    if (k.files > 0 && k.size_bytes > 0 && k.size_bytes < k.files)
      add(out, "checkpoint.size", "must be at least one byte per file");
  }

  const RunSpec& run = job.run;
  if (run.epochs < 1) add(out, "run.epochs", "must be >= 1");
  if (run.accelerators < 1) add(out, "run.accelerators", "must be >= 1");
  if (!(run.max_seconds >= 0)) add(out, "run.max_time", "must be >= 0");
  if (job.dataset.files_per_sample > 1 && r.read_unit != ReadUnit::file)
    add(out, "dataset.files_per_sample", "needs reader.read = \"file\" (a sample is whole files)");
  if (run.eval_every_epochs > 0 && !job.validation)
    add(out, "run.eval_every_epochs", "needs a [validation] dataset");

  // A job whose epoch holds no full step would measure nothing.
  const std::uint64_t per_step =
      std::uint64_t(r.batch_size) * std::max<std::uint32_t>(run.accelerators, 1);
  const std::uint64_t samples =
      limits::mul(job.dataset.num_files, job.dataset.samples_per_file).value_or(UINT64_MAX) /
      std::max<std::uint32_t>(job.dataset.files_per_sample, 1);
  if (job.run.train && r.batch_size >= 1 && job.dataset.num_files >= 1 &&
      job.dataset.samples_per_file >= 1 && samples < per_step)
    add(out, "dataset.num_files",
        "the dataset holds " + std::to_string(samples) +
            " samples, fewer than one step (batch_size " + std::to_string(r.batch_size) + " x " +
            std::to_string(run.accelerators) + " accelerators)");
  check_checkpoint_workflow(job, out);  // run.train = false, [model] (core/llm.cpp)

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
  }
  return "?";
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
  for (Format f : {Format::raw, Format::npz, Format::hdf5, Format::jpeg, Format::tfrecord})
    if (s == to_string(f)) return f;
  if (s == "h5") return Format::hdf5;
  if (s == "jpg") return Format::jpeg;
  return std::nullopt;
}

}  // namespace dlgen
