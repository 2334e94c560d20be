// Job -> DLIO workload config (`dlgen convert JOB --to dlio`): the reverse of the reader's mapping.
// What DLIO cannot express is refused with the dlgen key and the reason, all at once; what DLIO
// will do differently is noted. The sections are written in DLIO's order.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "dlgen/dlio/config.hpp"

namespace dlgen {
namespace {

// Emits a time or size distribution as DLIO writes it: a number, or a map with a type.
bool emit_dist(YAML::Emitter& y, const Distribution& d) {
  switch (d.kind) {
    case DistKind::fixed:
      y << d.value;
      return true;
    case DistKind::normal:
      y << YAML::BeginMap << YAML::Key << "mean" << YAML::Value << d.mean << YAML::Key << "stdev"
        << YAML::Value << d.stdev << YAML::EndMap;
      return true;
    case DistKind::uniform:
      y << YAML::BeginMap << YAML::Key << "type" << YAML::Value << "uniform" << YAML::Key << "min"
        << YAML::Value << d.min << YAML::Key << "max" << YAML::Value << d.max << YAML::EndMap;
      return true;
    case DistKind::gamma: {  // mean k*theta, stdev sqrt(k)*theta
      if (d.mean <= 0 || d.stdev <= 0) return false;
      const double theta = d.stdev * d.stdev / d.mean;
      y << YAML::BeginMap << YAML::Key << "type" << YAML::Value << "gamma" << YAML::Key << "shape"
        << YAML::Value << d.mean / theta << YAML::Key << "scale" << YAML::Value << theta
        << YAML::EndMap;
      return true;
    }
    default:
      return false;
  }
}

// One conversion: the emitter, what is refused and what is noted, in the order a user reads them.
class DlioWriter {
 public:
  DlioWriter(const Job& job, std::vector<std::string>* notes)
      : job_(job), notes_(notes), eval_(job.validation && job.run.eval_every_epochs > 0) {
    y_.SetDoublePrecision(12);
  }

  Result<std::string> write() {
    check_expressible();
    y_ << YAML::BeginMap;
    emit_model_and_workflow();
    emit_dataset();
    emit_reader();
    emit_train();
    if (eval_) emit_evaluation();
    if (job_.checkpoint.enabled) emit_checkpoint();
    y_ << YAML::Key << "metric" << YAML::Value << YAML::BeginMap << YAML::Key << "au" << YAML::Value
       << job_.compute.au_threshold << YAML::EndMap;
    y_ << YAML::EndMap;
    if (!refused_.empty()) {
      std::string msg = "cannot write " + job_.name + " as a DLIO config:";
      for (const auto& s : refused_) msg += "\n  " + s;
      return input_error(msg);
    }
    return std::string(y_.c_str()) + "\n";
  }

 private:
  void refuse(const std::string& key, const std::string& why) {
    refused_.push_back(key + ": " + why);
  }
  void note(const std::string& n) {
    if (notes_) notes_->push_back(n);
  }
  // A distribution under `key`, or 0 and a refusal when DLIO has no form for it.
  void emit_time(const char* key, const Distribution& d, const char* dlgen_key) {
    y_ << YAML::Key << key << YAML::Value;
    if (!emit_dist(y_, d)) {
      y_ << 0;
      refuse(dlgen_key, "a histogram has no DLIO form");
    }
  }

  void check_expressible();
  void check_reader_expressible();
  void emit_model_and_workflow();
  void emit_dataset();
  void emit_parquet();
  void emit_reader();
  void emit_train();
  void emit_evaluation();
  void emit_checkpoint();

  const Job& job_;
  std::vector<std::string>* notes_;
  const bool eval_;  // a validation set that is evaluated: DLIO's evaluation workflow
  YAML::Emitter y_;
  std::vector<std::string> refused_;
};

// What DLIO cannot express at all, before anything is written.
void DlioWriter::check_expressible() {
  const DatasetSpec& d = job_.dataset;
  if (!job_.run.train)
    refuse("run.train", "checkpoint-only workloads are not written as DLIO configs yet");
  if (job_.model) refuse("model", "LLM models are not written as DLIO configs yet");
  if (d.format == Format::raw || d.format == Format::tar)
    refuse("dataset.format", std::string(to_string(d.format)) +
                                 " files have no DLIO format (npz, hdf5, tfrecord, jpeg)");
  if (d.sample_size.kind != DistKind::fixed && d.sample_size.kind != DistKind::normal)
    refuse("dataset.sample_size",
           std::string("DLIO sizes records as a fixed size or mean and stdev, not ") +
               to_string(d.sample_size.kind));
  check_reader_expressible();
  for (const auto& [key, set] :
       {std::pair{"dataset.sample_range", &job_.dataset},
        std::pair{"validation.sample_range", job_.validation ? &*job_.validation : nullptr}})
    if (set && reads_sample_range(*set))
      refuse(key, "DLIO reads every sample of its files (train and eval sets in folders apart)");
  if (job_.run.cache != CacheMode::keep) refuse("run.cache", "DLIO does not drop the page cache");
  if (job_.run.max_seconds > 0) refuse("run.max_time", "DLIO has no time limit");
  if (job_.run.eval_every_steps > 0)
    refuse("run.eval_every_steps", "DLIO evaluates only between epochs (epochs_between_evals)");
  if (job_.checkpoint.enabled && !job_.checkpoint.after_epochs.empty())
    refuse("checkpoint.after_epochs",
           "DLIO checkpoints every N epochs (epochs_between_checkpoints), not after listed ones");
  if (job_.checkpoint.enabled && job_.checkpoint.final_size_bytes > 0)
    refuse("checkpoint.final_size",
           "DLIO writes every checkpoint at one size (model_size), no final save of another");
  if (job_.checkpoint.enabled && job_.checkpoint.part_size_bytes > 0)
    note(
        "checkpoint.part_size is not carried: DLIO's object checkpoints upload in its S3 "
        "client's part size");
  if (job_.checkpoint.enabled && job_.checkpoint.serialize_s > 0)
    note(
        "checkpoint.serialize is not carried: DLIO writes a checkpoint's bytes without the "
        "saving program's time between its writes");
  if (job_.checkpoint.enabled && job_.checkpoint.read_size_bytes > 0)
    note("checkpoint.read_size is not carried: DLIO reads checkpoints back in its own requests");
  if (job_.run.sync_steps)
    refuse("run.sync_steps", "DLIO's simulated accelerators never wait for each other per step");
  if (job_.run.max_steps > 0 && job_.run.epochs > 1)
    refuse("run.max_steps",
           "DLIO's total_training_steps counts the whole run; dlgen's limit is per epoch");
  if (job_.run.accelerators > 1)
    note("run.accelerators = " + std::to_string(job_.run.accelerators) +
         ": in DLIO the accelerators are MPI ranks (mpirun -np " +
         std::to_string(job_.run.accelerators) + ")");
  if (job_.checkpoint.enabled && job_.checkpoint.files > 1)
    refuse("checkpoint.files", "DLIO writes a CNN checkpoint as one file per rank");
  if (!(job_.compute.batch_overhead == Distribution{}) ||
      !(job_.compute.overhead(true) == Distribution{}))
    refuse("compute.batch_overhead", "DLIO has no consumer cost per batch outside compute");
  if (job_.checkpoint.enabled && (job_.checkpoint.direct || job_.checkpoint.copy != CopyCall::none))
    refuse("checkpoint.direct/copy",
           "DLIO writes checkpoints through its framework, never copies them");
}

// The reader's library access pattern and timing, which DLIO's readers do not have.
void DlioWriter::check_reader_expressible() {
  const ReaderSpec& r = job_.reader;
  if (r.header_read_bytes || r.probe_bytes || r.readahead_bytes)
    refuse("reader.header_read/probe/readahead",
           "DLIO's readers have no library access pattern to replay");
  if (r.startup_s > 0 || r.startup(true) > 0 || r.warmup_s > 0)
    refuse("reader.startup/warmup", "DLIO has no worker start-up or warm-up time");
  if (!(r.collate == Distribution{})) refuse("reader.collate", "DLIO has no worker time per batch");
  if (!r.worker_pace.empty()) refuse("reader.worker_pace", "DLIO's readers all go at one speed");
  if (r.shuffle_block > 0)
    refuse("reader.shuffle_block", "DLIO shuffles samples one by one, not in blocks");
  if (r.batches_vary())
    refuse("reader.batch_size", "DLIO's batches all hold batch_size samples; these vary in size");
  if (!(r.startup_spread == Distribution{}))
    refuse("reader.startup_spread", "DLIO's accelerators start every epoch together");
  if (r.read_unit == ReadUnit::stream)
    refuse("reader.read", "DLIO's readers index samples; they do not stream shards per worker");
  if (r.read_unit == ReadUnit::sample && job_.dataset.samples_per_file > 1)
    note("reader.read = sample: DLIO's reader for the format decides how a sample is read");
  if (r.iodepth > 1) refuse("reader.iodepth", "a DLIO reader has one request in flight per thread");
  if (r.drop_last) note("reader.drop_last: DLIO always drops the last partial batch");
}

void DlioWriter::emit_model_and_workflow() {
  y_ << YAML::Key << "model" << YAML::Value << YAML::BeginMap << YAML::Key << "name" << YAML::Value
     << job_.name;
  if (job_.checkpoint.enabled)
    y_ << YAML::Key << "model_size" << YAML::Value << job_.checkpoint.size_bytes;
  y_ << YAML::EndMap;
  y_ << YAML::Key << "framework" << YAML::Value << "pytorch";
  y_ << YAML::Key << "workflow" << YAML::Value << YAML::BeginMap << YAML::Key << "generate_data"
     << YAML::Value << "False" << YAML::Key << "train" << YAML::Value << "True" << YAML::Key
     << "evaluation" << YAML::Value << (eval_ ? "True" : "False") << YAML::Key << "checkpoint"
     << YAML::Value << (job_.checkpoint.enabled ? "True" : "False") << YAML::EndMap;
}

// DLIO reads <data_folder>/train and <data_folder>/valid: other directories are noted.
void DlioWriter::emit_dataset() {
  const DatasetSpec& d = job_.dataset;
  y_ << YAML::Key << "dataset" << YAML::Value << YAML::BeginMap;
  std::filesystem::path folder = d.dir;
  if (d.dir.filename() == "train")
    folder = d.dir.parent_path();
  else
    note("dataset.dir " + d.dir.string() + ": DLIO reads " + (d.dir / "train").string() +
         " (data_folder/train)");
  if (eval_ && job_.validation->dir != folder / "valid")
    note("validation.dir " + job_.validation->dir.string() + ": DLIO reads " +
         (folder / "valid").string());
  y_ << YAML::Key << "data_folder" << YAML::Value << folder.string();
  y_ << YAML::Key << "format" << YAML::Value << to_string(d.format);
  y_ << YAML::Key << "num_files_train" << YAML::Value << d.num_files;
  if (eval_) y_ << YAML::Key << "num_files_eval" << YAML::Value << job_.validation->num_files;
  y_ << YAML::Key << "num_samples_per_file" << YAML::Value << d.samples_per_file;
  if (d.sample_size.kind == DistKind::normal) {
    y_ << YAML::Key << "record_length_bytes" << YAML::Value << d.sample_size.mean;
    y_ << YAML::Key << "record_length_bytes_stdev" << YAML::Value << d.sample_size.stdev;
  } else {
    y_ << YAML::Key << "record_length_bytes" << YAML::Value << d.sample_size.value;
  }
  if (d.files_per_dir > 0)
    y_ << YAML::Key << "num_subfolders_train" << YAML::Value
       << (d.num_files + d.files_per_dir - 1) / d.files_per_dir;
  if (eval_ && job_.validation->files_per_dir > 0)
    y_ << YAML::Key << "num_subfolders_eval" << YAML::Value
       << (job_.validation->num_files + job_.validation->files_per_dir - 1) /
              job_.validation->files_per_dir;
  if (d.format == Format::parquet) emit_parquet();
  y_ << YAML::EndMap;
}

// dataset.compression and dataset.parquet (mapping_parquet.cpp reads them back).
void DlioWriter::emit_parquet() {
  const ParquetSpec& q = job_.dataset.parquet;
  y_ << YAML::Key << "compression" << YAML::Value << to_string(q.compression);
  y_ << YAML::Key << "parquet" << YAML::Value << YAML::BeginMap;
  y_ << YAML::Key << "row_group_size" << YAML::Value
     << (q.row_group_size > 0 ? q.row_group_size : job_.dataset.samples_per_file);
  y_ << YAML::Key << "read_mode" << YAML::Value
     << (job_.reader.read_unit == ReadUnit::row_group ? "row_group" : "default");
  if (!q.columns.empty()) {
    y_ << YAML::Key << "columns" << YAML::Value << YAML::BeginSeq;
    for (const ParquetColumn& c : q.columns) {
      const bool read =
          q.read_columns.empty() ||
          std::find(q.read_columns.begin(), q.read_columns.end(), c.name) != q.read_columns.end();
      y_ << YAML::BeginMap << YAML::Key << "name" << YAML::Value << c.name << YAML::Key << "dtype"
         << YAML::Value << to_string(c.dtype) << YAML::Key << "size" << YAML::Value << c.size;
      if (!read) y_ << YAML::Key << "read" << YAML::Value << "false";
      y_ << YAML::EndMap;
    }
    y_ << YAML::EndSeq;
  }
  y_ << YAML::EndMap;
}

void DlioWriter::emit_reader() {
  const ReaderSpec& r = job_.reader;
  y_ << YAML::Key << "reader" << YAML::Value << YAML::BeginMap;
  y_ << YAML::Key << "data_loader" << YAML::Value << "pytorch";
  y_ << YAML::Key << "batch_size" << YAML::Value << r.batch_size;
  if (eval_) y_ << YAML::Key << "batch_size_eval" << YAML::Value << r.batch_size;
  y_ << YAML::Key << "read_threads" << YAML::Value << r.workers;
  y_ << YAML::Key << "prefetch_size" << YAML::Value << r.prefetch;
  const char* shuffle = r.shuffle == Shuffle::none ? "off" : "seed";
  y_ << YAML::Key << "file_shuffle" << YAML::Value << shuffle;
  y_ << YAML::Key << "sample_shuffle" << YAML::Value
     << (r.shuffle == Shuffle::sample ? "seed" : "off");
  if (r.shuffle_buffer > 0) y_ << YAML::Key << "shuffle_size" << YAML::Value << r.shuffle_buffer;
  if (r.request_size_bytes > 0)
    y_ << YAML::Key << "transfer_size" << YAML::Value << r.request_size_bytes;
  if (r.direct) y_ << YAML::Key << "odirect" << YAML::Value << "True";
  if (!(r.preprocess == Distribution::fixed_at(0)))
    emit_time("preprocess_time", r.preprocess, "reader.preprocess");
  y_ << YAML::EndMap;
}

void DlioWriter::emit_train() {
  y_ << YAML::Key << "train" << YAML::Value << YAML::BeginMap;
  y_ << YAML::Key << "epochs" << YAML::Value << job_.run.epochs;
  emit_time("computation_time", job_.compute.effective(), "compute.time");
  if (job_.run.max_steps > 0 && job_.run.epochs == 1)
    y_ << YAML::Key << "total_training_steps" << YAML::Value << job_.run.max_steps;
  y_ << YAML::EndMap;
}

void DlioWriter::emit_evaluation() {
  y_ << YAML::Key << "evaluation" << YAML::Value << YAML::BeginMap;
  emit_time("eval_time", job_.compute.effective(true), "compute.eval_time");
  y_ << YAML::Key << "epochs_between_evals" << YAML::Value << job_.run.eval_every_epochs
     << YAML::EndMap;
}

void DlioWriter::emit_checkpoint() {
  const CheckpointSpec& k = job_.checkpoint;
  y_ << YAML::Key << "checkpoint" << YAML::Value << YAML::BeginMap;
  y_ << YAML::Key << "checkpoint_folder" << YAML::Value << k.dir.string();
  if (k.every_steps > 0)
    y_ << YAML::Key << "steps_between_checkpoints" << YAML::Value << k.every_steps;
  if (k.every_epochs > 0) {
    y_ << YAML::Key << "checkpoint_after_epoch" << YAML::Value
       << (k.first_epoch > 0 ? k.first_epoch : k.every_epochs);
    y_ << YAML::Key << "epochs_between_checkpoints" << YAML::Value << k.every_epochs;
  }
  y_ << YAML::Key << "fsync" << YAML::Value << (k.fsync ? "True" : "False");
  y_ << YAML::EndMap;
}

}  // namespace

Result<std::string> to_dlio_yaml(const Job& job, std::vector<std::string>* notes) {
  return DlioWriter(job, notes).write();
}

}  // namespace dlgen
