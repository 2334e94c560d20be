// DLIO config -> Job, pass 2: the stored leaves set the Job section by section, each dlgen key
// remembering the DLIO key it came from. The order of the steps is DLIO's order of sections; it
// is also the order of the notes and errors a user reads. Key by key: docs/dlio.md.
#include <algorithm>
#include <cmath>

#include "reader.hpp"

namespace dlgen::dlio {

void Reader::build() {
  set_dlio_defaults();
  read_model_and_framework();
  read_dataset();
  read_storage();
  read_reader();
  read_train();
  const Workflow flow = read_workflow();
  read_evaluation(flow);
  read_checkpoint_cadence(flow.checkpoint);
  read_checkpoint_location(flow.checkpoint);
  const bool llm = read_llm(flow.train, flow.checkpoint);
  read_checkpoint_size(flow.checkpoint, llm);
  read_checkpoint_workflow(flow.train, flow.checkpoint, llm);
  if (!flow.checkpoint) drop_checkpoint_out_of_force();
  note("MiB/s counts the bytes actually read (DLIO reports samples x record_length_bytes)");
}

// DLIO's defaults (its ConfigArguments), where they differ from dlgen's.
void Reader::set_dlio_defaults() {
  Job& job = out_.job;
  job.name = source_.stem().string();
  job.description = "converted from the DLIO config " + source_.filename().string();
  job.dataset.format = Format::tfrecord;
  job.dataset.num_files = 8;
  job.dataset.sample_size = Distribution::fixed_at(65536);
  job.dataset.seed = 123;
  job.reader.seed = 123;
  job.reader.shuffle = Shuffle::none;
  job.reader.prefetch = 2;
  job.compute.step_time = Distribution::fixed_at(0);
  job.checkpoint.fsync = false;
  folder_ = "data";
}

void Reader::read_model_and_framework() {
  Job& job = out_.job;
  if (const Leaf* l = get("model")) {
    if (auto t = text(*l)) job.name = *t;
  }
  if (const Leaf* l = get("model.name")) {
    if (auto t = text(*l)) job.name = *t;
    from("job.name", *l);
  }
  if (const Leaf* l = get("model.type")) text(*l);  // cnn, transformer...: no I/O meaning
  if (const Leaf* l = get("framework")) {
    auto w = word(*l);
    if (w && *w != "pytorch" && *w != "tensorflow") error(*l, "must be pytorch or tensorflow");
  }
}

void Reader::read_dataset() {
  Job& job = out_.job;
  if (const Leaf* l = get("dataset.data_folder")) {
    if (auto t = text(*l)) folder_ = *t;
    from("dataset.dir", *l);
  }
  job.dataset.dir = folder_ / "train";  // DLIO's layout: <data_folder>/train and /valid
  if (const Leaf* l = get("dataset.format")) {
    from("dataset.format", *l);
    if (auto w = word(*l)) {
      if (auto f = format_from_string(*w))
        job.dataset.format = *f;
      else if (*w == "npy") {
        job.dataset.format = Format::raw;
        note(
            "dataset.format npy: written as raw bytes of the same size (read the same way: one "
            "whole file per sample)");
      } else if (*w == "indexed_binary" || *w == "mmap_indexed_binary") {
        read_indexed_binary(*w);
        from("reader.read", *l);
      } else {
        error(*l, "format \"" + *w +
                      "\" is not supported (npz, npy, hdf5, tfrecord, jpeg, parquet, "
                      "indexed_binary, mmap_indexed_binary)");
      }
    }
  }
  if (const Leaf* l = get("dataset.num_files_train")) {
    if (auto v = count(*l)) job.dataset.num_files = *v;
    from("dataset.num_files", *l);
  }
  if (const Leaf* l = get("dataset.num_samples_per_file")) {
    if (auto v = count32(*l)) job.dataset.samples_per_file = *v;
    from("dataset.samples_per_file", *l);
  }
  read_sample_size();
  read_parquet();
  std::uint64_t subfolders = 0;
  if (const Leaf* l = get("dataset.num_subfolders_train")) {
    subfolders = count(*l).value_or(0);
    from("dataset.files_per_dir", *l);
  }
  if (const Leaf* l = get("dataset.num_subfolders_eval")) subfolders_eval_ = count(*l).value_or(0);
  read_listing();
  if (subfolders > 0)
    job.dataset.files_per_dir =
        static_cast<std::uint32_t>((job.dataset.num_files + subfolders - 1) / subfolders);
}

// DLIO's indexed binary format (its indexed_binary_generator): each file holds its samples back
// to back, and two index files beside it, <file>.off.idx and <file>.sz.idx, hold every sample's
// offset and size as 8-byte integers. dlgen writes the data files (raw, the samples back to back)
// and reads each sample as its byte range; the offsets are the samples' positions, so the index
// files are not written.
void Reader::read_indexed_binary(const std::string& format) {
  out_.job.dataset.format = Format::raw;
  out_.job.reader.read_unit = ReadUnit::sample;
  std::string how =
      format == "indexed_binary"
          ? "DLIO's reader reads each sample the same way (a seek and a read of its bytes)"
          : "DLIO's mmap reader maps the file and slices the sample out of the map without "
            "touching its pages (it reads next to nothing of the data file); a loader that uses "
            "the tokens (Megatron's) faults in each sample's pages, which is what dlgen reads";
  note("dataset.format " + format +
       ": written as raw files of the samples back to back (DLIO's data file; its .off.idx and "
       ".sz.idx index files, 8 bytes a sample, are not written: the offsets are the samples' "
       "positions), each sample read as its byte range (reader.read = \"sample\"); " +
       how);
}

// skip_listing and its validation interval (mlpstorage sets both): how DLIO finds the files,
// by listing the folder or by rebuilding their names and checking every Nth at start.
void Reader::read_listing() {
  if (const Leaf* l = get("dataset.skip_listing")) {
    if (boolean(*l))
      note(
          "dataset.skip_listing: dlgen never lists the dataset folder; file names are a function "
          "of the job, checked against the dataset's manifest");
  }
  if (const Leaf* l = get("dataset.listing_validation_interval")) {
    if (count(*l))
      note(
          "dataset.listing_validation_interval: DLIO's start-up existence checks; not replayed "
          "(dlgen checks the dataset once, before the run)");
  }
}

// record_length_bytes (and its stdev): a fixed or normal sample size, at least one byte.
void Reader::read_sample_size() {
  Job& job = out_.job;
  double mean = 65536, stdev = 0;
  if (const Leaf* l = get("dataset.record_length_bytes")) {
    if (auto v = number(*l)) mean = *v;
    from("dataset.sample_size", *l);
  }
  if (const Leaf* l = get("dataset.record_length_bytes_stdev")) {
    if (auto v = number(*l)) stdev = *v;
  }
  if (mean < 1) error_at_dlgen_key("dataset.sample_size", "record_length_bytes must be >= 1");
  if (stdev > 0) {
    job.dataset.sample_size = Distribution{};
    job.dataset.sample_size.kind = DistKind::normal;
    job.dataset.sample_size.mean = std::round(mean);
    job.dataset.sample_size.stdev = stdev;
    job.dataset.sample_size.min = 1;
  } else {
    job.dataset.sample_size = Distribution::fixed_at(std::round(mean));
  }
  if (const Leaf* l = get("dataset.record_length_bytes_resize")) {
    if (number(*l))
      note(
          "dataset.record_length_bytes_resize: the in-memory size after decoding; no I/O "
          "meaning, not replayed");
  }
}

void Reader::read_reader() {
  Job& job = out_.job;
  if (const Leaf* l = get("reader.data_loader")) {
    auto w = word(*l);
    if (w && *w != "pytorch" && *w != "tensorflow" && *w != "dali" && *w != "native_dali")
      error(*l, "must be pytorch, tensorflow, dali or native_dali");
  }
  if (const Leaf* l = get("reader.batch_size")) {
    if (auto v = count32(*l)) job.reader.batch_size = *v;
    from("reader.batch_size", *l);
  }
  if (const Leaf* l = get("reader.read_threads")) {
    if (auto v = count32(*l)) {
      job.reader.workers = *v;  // 0: the training process loads its own batches
    }
    from("reader.workers", *l);
  }
  if (const Leaf* l = get("reader.computation_threads")) {
    if (count(*l))
      note(
          "reader.computation_threads: TensorFlow's parallel decode threads; no I/O meaning, not "
          "replayed");
  }
  if (const Leaf* l = get("reader.prefetch_size")) {
    if (auto v = count32(*l)) job.reader.prefetch = std::max<std::uint32_t>(*v, 1);
    from("reader.prefetch", *l);
  }
  read_shuffle();
  if (const Leaf* l = get("reader.transfer_size")) {
    if (auto v = count(*l, true)) job.reader.request_size_bytes = *v;
    from("reader.request_size", *l);
  }
  std::optional<double> pre_stdev;
  if (const Leaf* l = get("reader.preprocess_time_stdev")) pre_stdev = number(*l);
  if (const Leaf* l = get("reader.preprocess_time")) {
    if (auto d = time(*l, pre_stdev)) job.reader.preprocess = *d;
    from("reader.preprocess", *l);
  }
  if (const Leaf* l = get("reader.odirect")) {
    if (auto b = boolean(*l)) job.reader.direct = *b;
    from("reader.direct", *l);
  }
  if (const Leaf* l = get("reader.dont_use_mmap")) {
    if (boolean(*l)) note("reader.dont_use_mmap: dlgen never maps files; it reads them");
  }
  if (const Leaf* l = get("reader.multiprocessing_context")) {
    auto w = word(*l);
    if (w && *w != "fork" && *w != "spawn" && *w != "forkserver")
      error(*l, "must be fork, spawn or forkserver");
    else if (w)
      note("reader.multiprocessing_context " + *w +
           ": how PyTorch starts its loader workers; no I/O meaning (dlgen's workers are "
           "threads), not replayed");
  }
}

// sample_shuffle before file_shuffle (a sample shuffle also shuffles files); shuffle_size only
// with a sample shuffle.
void Reader::read_shuffle() {
  Job& job = out_.job;
  auto shuffle_on = [&](const char* key) {
    const Leaf* l = get(key);
    if (!l) return false;
    auto w = word(*l);
    if (!w) return false;
    if (*w == "off" || *w == "false") return false;
    if (*w == "seed" || *w == "on" || *w == "true") return true;
    if (*w == "random") {
      note(std::string(key) +
           " random: dlgen shuffles with reader.seed (reproducible); change reader.seed for a "
           "new order");
      return true;
    }
    error(*l, "must be off, seed or random");
    return false;
  };
  if (shuffle_on("reader.sample_shuffle")) {
    job.reader.shuffle = Shuffle::sample;
    from("reader.shuffle", *get("reader.sample_shuffle"));
  } else if (shuffle_on("reader.file_shuffle")) {
    job.reader.shuffle = Shuffle::file;
    from("reader.shuffle", *get("reader.file_shuffle"));
  }
  if (const Leaf* l = get("reader.shuffle_size")) {
    if (auto v = count(*l); v && job.reader.shuffle == Shuffle::sample) {
      job.reader.shuffle_buffer = *v;
      from("reader.shuffle_buffer", *l);
    }
  }
}

// train.* and metric.au.
void Reader::read_train() {
  Job& job = out_.job;
  if (const Leaf* l = get("train.epochs")) {
    if (auto v = count32(*l)) job.run.epochs = *v;
    from("run.epochs", *l);
  }
  std::optional<double> ct_stdev;
  if (const Leaf* l = get("train.computation_time_stdev")) ct_stdev = number(*l);
  if (const Leaf* l = get("train.computation_time")) {
    if (auto d = time(*l, ct_stdev)) job.compute.step_time = *d;
    from("compute.time", *l);
  }
  if (const Leaf* l = get("train.total_training_steps")) {
    if (auto v = count(*l, true); v && *v > 0) {
      if (job.run.epochs > 1)
        error(*l, "dlgen stops each epoch after run.max_steps; a step total over " +
                      std::to_string(job.run.epochs) +
                      " epochs is not supported (set train.epochs=1)");
      job.run.max_steps = *v;
      from("run.max_steps", *l);
    }
  }
  if (const Leaf* l = get("metric.au")) {
    if (auto v = number(*l)) job.compute.au_threshold = *v;
    from("compute.au_threshold", *l);
  }
}

Reader::Workflow Reader::read_workflow() {
  Workflow flow;
  if (const Leaf* l = get("workflow.generate_data")) {
    if (boolean(*l))
      note(
          "workflow.generate_data: dlgen generates a missing dataset itself (and never "
          "overwrites files it did not write)");
  }
  if (const Leaf* l = get("workflow.evaluation")) flow.evaluation = boolean(*l).value_or(false);
  if (const Leaf* l = get("workflow.checkpoint")) {
    flow.checkpoint = boolean(*l).value_or(false);
    from("checkpoint.enabled", *l);
  }
  if (const Leaf* l = get("workflow.train")) {
    flow.train = boolean(*l).value_or(true);
    if (!flow.train) {
      from("run.train", *l);
      if (!flow.checkpoint)
        error(*l,
              "False runs nothing unless workflow.checkpoint is True (the checkpoint-only "
              "workflow); "
              "`dlgen generate` writes a dataset");
      if (flow.evaluation)
        error(*l, "False with workflow.evaluation True: evaluation needs training");
    }
  }
  return flow;
}

// The validation set (<data_folder>/valid, the training set's shape with num_files_eval files)
// and its cadence and compute time, when workflow.evaluation is True.
void Reader::read_evaluation(const Workflow& flow) {
  Job& job = out_.job;
  std::uint64_t eval_files = 0;
  if (const Leaf* l = get("dataset.num_files_eval")) eval_files = count(*l).value_or(0);
  if (!flow.evaluation) return;
  const Leaf* wl = get("workflow.evaluation");
  if (eval_files == 0) {
    error(*wl, "evaluation needs dataset.num_files_eval > 0");
  } else {
    DatasetSpec v = job.dataset;
    v.dir = folder_ / "valid";
    v.num_files = eval_files;
    v.files_per_dir =
        subfolders_eval_ > 0
            ? static_cast<std::uint32_t>((eval_files + subfolders_eval_ - 1) / subfolders_eval_)
            : 0;
    job.validation = v;
    if (const Leaf* l = get("dataset.num_files_eval")) from("validation.num_files", *l);
    job.run.eval_every_epochs = 1;
    if (const Leaf* l = get("evaluation.epochs_between_evals")) {
      if (auto n = count32(*l)) job.run.eval_every_epochs = *n;
      from("run.eval_every_epochs", *l);
    }
    std::optional<double> ev_stdev;
    if (const Leaf* l = get("evaluation.eval_time_stdev")) ev_stdev = number(*l);
    // DLIO's default eval_time is 0: an evaluation pass then only reads.
    const Leaf* et = get("evaluation.eval_time");
    const std::optional<Distribution> eval_time =
        et ? time(*et, ev_stdev) : Distribution::fixed_at(0);
    if (eval_time) job.compute.eval_time = *eval_time;
    if (et) from("compute.eval_time", *et);
  }
  if (const Leaf* l = get("reader.batch_size_eval")) {
    if (auto v = count32(*l); v && *v != job.reader.batch_size)
      error(*l,
            "dlgen evaluates with reader.batch_size; a different evaluation batch size is not "
            "supported yet");
  }
}

// When checkpoints are written during training: checkpoint_folder, epochs or steps between them,
// the first epoch, fsync.
void Reader::read_checkpoint_cadence(bool checkpoint) {
  CheckpointSpec& k = out_.job.checkpoint;
  k.enabled = checkpoint;
  k.dir = "checkpoints";
  if (const Leaf* l = get("checkpoint.checkpoint_folder")) {
    if (auto t = text(*l)) k.dir = *t;
    from("checkpoint.dir", *l);
  }
  k.every_epochs = 1;
  std::uint32_t after = 1;
  if (const Leaf* l = get("checkpoint.epochs_between_checkpoints")) {
    if (auto v = count32(*l)) k.every_epochs = *v;
    from("checkpoint.every_epochs", *l);
  }
  if (const Leaf* l = get("checkpoint.checkpoint_after_epoch")) {
    if (auto v = count32(*l)) after = std::max<std::uint32_t>(*v, 1);
    from("checkpoint.first_epoch", *l);
  }
  if (const Leaf* l = get("checkpoint.steps_between_checkpoints")) {
    if (auto v = count(*l, true); v && *v > 0) {
      k.every_steps = *v;
      k.every_epochs = 0;
      from("checkpoint.every_steps", *l);
    }
  }
  if (k.every_epochs > 0) k.first_epoch = after;
  if (const Leaf* l = get("checkpoint.fsync")) {
    if (auto b = boolean(*l)) k.fsync = *b;
    from("checkpoint.fsync", *l);
  }
}

// model.model_size: one checkpoint's bytes (a CNN); an LLM's model description sizes its shards.
void Reader::read_checkpoint_size(bool checkpoint, bool llm) {
  CheckpointSpec& k = out_.job.checkpoint;
  if (const Leaf* l = get("model.model_size")) {
    if (llm) {
      count(*l);
      note(
          "model.model_size: ignored for an LLM (DLIO ignores it for transformers too): the "
          "model description sizes the shards");
    } else {
      if (auto v = count(*l)) k.size_bytes = *v;
      from("checkpoint.size", *l);
      if (checkpoint)
        note("checkpoint size = model.model_size = " + std::to_string(k.size_bytes) +
             " bytes, written for real with fresh incompressible content (DLIO ignores "
             "model_size here)");
    }
  }
  if (checkpoint && !llm && k.size_bytes == 0)
    error_at_dlgen_key("checkpoint.enabled",
                       "a checkpoint needs model.model_size (bytes of one checkpoint)");
}

// workflow.checkpoint is not True: no checkpoints and no model, as in DLIO (with a note when the
// config has a checkpoint section that would otherwise look in force).
void Reader::drop_checkpoint_out_of_force() {
  out_.job.model.reset();
  out_.job.checkpoint = CheckpointSpec{};
  for (const char* key :
       {"checkpoint.checkpoint_folder", "checkpoint.epochs_between_checkpoints",
        "checkpoint.steps_between_checkpoints", "checkpoint.checkpoint_after_epoch"})
    if (get(key)) {
      note(
          "the checkpoint section is not in force: workflow.checkpoint is not True (as in "
          "DLIO)");
      break;
    }
}

}  // namespace dlgen::dlio
