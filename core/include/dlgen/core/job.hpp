#pragma once
// The Job model: a plain struct tree, one struct per concept, defaults in the class. It is what a
// job file (TOML, docs/job-format.md) says; `validate` checks rules across fields. Sizes are bytes
// (`_bytes`), times seconds (`_s`) or Distributions whose unit is named by the field.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "dlgen/core/distribution.hpp"
#include "dlgen/core/llm.hpp"
#include "dlgen/core/recipe.hpp"
#include "dlgen/core/result.hpp"

namespace dlgen {

// `tar`: a POSIX (ustar) tar archive a file, one member a sample (a 512-byte header, the
// sample's bytes padded to 512), ended by two zero blocks and padded to tar's 10 KiB record, as
// GNU tar and Python's tarfile write it (WebDataset shards).
enum class Format { raw, npz, hdf5, jpeg, tfrecord, parquet, tar };
enum class Shuffle { none, file, sample };
// How a sample is fetched: `file` reads the whole file holding it; `sample` reads only the sample's
// byte range inside a multi-sample file (npz member, hdf5 chunk, tfrecord record); `stream`: each
// reader worker owns whole files (shards: tar, WebDataset, record files) and reads them front to
// back through a buffer, its batches the next samples of its own stream (PyTorch IterableDataset);
// `row_group` (Parquet): a sample that starts a row group reads that row group's column chunks of
// the selected columns (and, in a file's first row group, the footer first), as pyarrow's
// iter_batches does; the group's other rows are in the reader's memory already.
enum class ReadUnit { file, sample, stream, row_group };
enum class CacheMode { keep, drop_start, drop_epoch };
// How the dataset reaches the readers. `on_demand`: the reader workers read each sample's bytes
// when its batch is due, every epoch. `memory`: the main process reads every file of the set
// once, whole, before the first epoch (a map-style dataset that json.loads or pickle.loads its
// files in __init__: Hugging Face's in-memory datasets, torchvision's CIFAR10); every epoch then
// takes its samples from memory, with no I/O: the workers only preprocess and collate.
enum class Load { on_demand, memory };  // page cache handling between epochs
// Which ranks of an LLM's world this host simulates in the checkpoint-only workflow: all of them,
// or (MLPerf Storage's subset mode) the first `ranks_per_host`, each writing its own share.
enum class CheckpointMode { all, subset };
// The system call a checkpoint's data is written with (torch.save: write for its header, then one
// writev per tensor; many C++ savers: pwrite).
enum class WriteCall { pwrite, write, writev };
// How a checkpoint is copied after it is written (shutil.copyfile of model_best: sendfile).
enum class CopyCall { none, sendfile, copy_file_range };

// Parquet element types of a column's values (little-endian, PLAIN encoding).
enum class ParquetDtype { float16, float32, float64, int8, uint8, int16, int32, int64 };
enum class ParquetCompression { none, zstd, snappy };

// One column of a Parquet dataset: every row holds `size` values of `dtype`.
struct ParquetColumn {
  std::string name;
  ParquetDtype dtype = ParquetDtype::float32;
  std::uint32_t size = 1;  // values per row (a fixed-size list)
  bool operator==(const ParquetColumn&) const = default;
};

// format = "parquet" ([dataset.parquet]): the schema, row groups and compression of every file.
struct ParquetSpec {
  // Empty: one column "data" of sample_size bytes (uint8 values).
  std::vector<ParquetColumn> columns;
  std::uint64_t row_group_size = 0;  // rows per row group; 0: one row group per file
  ParquetCompression compression = ParquetCompression::none;
  // Columns a reader reads (read = "row_group"); empty: all. DLIO's per-column `read: false`.
  std::vector<std::string> read_columns;
  bool operator==(const ParquetSpec&) const = default;
};

// The most bytes one row's value of one column may hold (a Parquet page's size is an int32).
constexpr std::uint64_t kMaxParquetValueBytes = 1u << 30;

// Bytes of one value of `d`.
std::uint32_t dtype_bytes(ParquetDtype d);

struct DatasetSpec {
  std::filesystem::path dir;  // root directory of the files
  Format format = Format::raw;
  std::uint64_t num_files = 1;
  std::uint32_t samples_per_file = 1;
  Distribution sample_size;         // bytes of one sample's payload (with 1 sample/file: the file)
  std::uint64_t seed = 0;           // sizes and contents are a pure function of (seed, file index)
  std::uint32_t files_per_dir = 0;  // 0: flat; N: N files per subdirectory (ImageNet classes)
  std::string file_prefix = "file";
  ParquetSpec parquet;  // format = "parquet" only
  // Files one sample is made of (an image and its label: 2), read back to back by one worker:
  // sample i is files i*files_per_sample ... +files_per_sample-1, and a batch holds batch_size
  // samples. num_files is a multiple of it; with more than 1, samples_per_file is 1.
  std::uint32_t files_per_sample = 1;
  Load load = Load::on_demand;
  // The samples of each file this set reads: [sample_begin, sample_end) of its samples_per_file
  // (`sample_range`); 0, 0: all of them. A training set and a validation set kept in one
  // container file (an HDF5 file's /train and /val groups, one zip split by a sampler) each read
  // their own range of the same files.
  std::uint32_t sample_begin = 0, sample_end = 0;
  bool operator==(const DatasetSpec&) const = default;
};

// The samples of each of `d`'s files its set reads (sample_range), and the first of them.
std::uint32_t samples_read_per_file(const DatasetSpec& d);
std::uint32_t first_sample_read(const DatasetSpec& d);
// Whether `d` reads a range of its files' samples, not all of them.
bool reads_sample_range(const DatasetSpec& d);

struct ReaderSpec {
  std::uint32_t batch_size = 1;  // samples per step per accelerator
  std::uint32_t workers = 1;     // reader workers per accelerator
  std::uint32_t prefetch = 2;    // batches each worker may hold ready ahead of the accelerator
  Shuffle shuffle = Shuffle::file;
  std::uint64_t shuffle_buffer = 0;  // samples; 0: full permutation, N: DLIO-style buffer of N
  // With shuffle = sample: samples shuffled in blocks of this many consecutive samples of one
  // file (a batch sampler handing out runs of records); 0: each sample on its own.
  std::uint32_t shuffle_block = 0;
  std::uint64_t seed = 0;
  ReadUnit read_unit = ReadUnit::file;
  std::uint64_t request_size_bytes = 0;  // 0: one request per sample/file; else chunk size
  std::uint64_t header_read_bytes = 0;   // a small first read before the data (npz/hdf5 metadata)
  std::uint32_t iodepth = 0;             // requests in flight per worker; 0: engine default
  bool direct = false;                   // O_DIRECT
  bool drop_last = false;
  double startup_s =
      0;  // delay at each epoch start before readers begin (DataLoader worker start-up)
  // Extra seconds on each worker's first sample of every pass (a freshly forked DataLoader worker's
  // first-use costs: imports, decoder set-up), after its reads, before its next sample.
  double warmup_s = 0;
  // Seconds a worker spends on each sample after reading it (decode, augmentation: DLIO's
  // preprocess_time); the worker reads its next sample only afterwards. Default fixed 0.
  Distribution preprocess;
  // (Fields added later go last: tests and callers initialise the ones above by position.)
  // read = "sample": read at least this many bytes from each sample's start (a library's
  // read-ahead, e.g. HDF5's 64 KiB sieve buffer reading small samples); 0: the sample itself.
  std::uint64_t readahead_bytes = 0;
  // read = "file": a first read of this many bytes at offset 0 after which the file is read again
  // from its start (numpy.load probes the magic through a 4 KiB buffer, then seeks back); 0: none.
  std::uint64_t probe_bytes = 0;
  // read = "file": how each sample file is read, step by step (core/recipe.hpp), as distil learns
  // it from a trace; a sample's steps are issued in order, each after the previous completed, as
  // the library issues them. Empty: the steps that probe, header_read and request_size stand for
  // (legacy_recipe), issued as today.
  Recipe recipe;
  // Seconds between the first and the last accelerator's start of each pass, after `startup_s`:
  // DDP ranks each fork their DataLoader workers at every epoch start, on a shared host one after
  // another. Drawn once per pass (seeded); the accelerators start evenly spaced over it, in a
  // seeded order that changes every pass. Default fixed 0: every accelerator starts together.
  Distribution startup_spread;
  // Samples per step of an evaluation pass, when it differs from batch_size (MLPerf's UNet3D
  // trains in batches of 2 and evaluates one case a step); 0: batch_size.
  std::uint32_t eval_batch_size = 0;
  // Seconds a worker spends on each batch after its samples are read and preprocessed, before the
  // batch is handed over (PyTorch's default_collate stacking the samples into a shared-memory
  // tensor, the result queue pickling it); the worker processes nothing else meanwhile. Default
  // fixed 0.
  Distribution collate;
  // Each worker's pace: the per-sample and per-batch times (preprocess, collate) of a pass's
  // workers are multiplied by these factors (mean 1, as distil writes them), the n workers of a
  // pass taking the factors at quantiles (i + 0.5) / n in a seeded order that changes every pass.
  // Real workers do not go at one speed and the slowest ends the pass. Empty: all at 1.
  std::vector<double> worker_pace;
  // read = "stream": the reader's own read granule, bytes. A streaming reader pulls a shard
  // through its buffers (an HTTP body through http.client's 8 KiB socket reads, tarfile's 10 KiB
  // records), so the burst of reads before it hands a batch over ends at the first multiple of
  // the granule, from the shard's start, at or past the batch's last sample (the shard's end at
  // most); 0: at the batch's last sample (or in whole request_size fills).
  std::uint64_t stream_granule_bytes = 0;
  // read = "stream", with stream_granule: bytes the reader's stream holds before the shard's
  // first byte (an HTTP response's head, read through the same socket reads as the body), so
  // the granule's multiples are counted from that many bytes before the shard's start: a burst
  // ends at a multiple of the granule less these bytes. 0: from the shard's start.
  std::uint64_t stream_head_bytes = 0;
  // read = "stream": the bytes at a shard's end after its last sample that the reader reads on
  // their own, after the burst of the shard's last batch (a tar archive's end-of-archive blocks
  // and record padding): that burst ends at the shard's size less these bytes (on the granule at
  // or past it), and the rest of the shard is one more read; 0: the last batch's burst reads to
  // the shard's end.
  std::uint64_t stream_tail_bytes = 0;
  // Seconds of start-up before each evaluation pass's readers begin, when it differs from
  // `startup_s` (a program's test DataLoader forks its workers later after a training pass than
  // its training DataLoader does after the evaluation); unset: startup_s.
  std::optional<double> eval_startup_s;
  // The start-up in force before a pass: eval_startup_s for an evaluation pass when set.
  // Training batches of varying size (`batch_size = { dist = ... }`: a token-budget batch
  // sampler): each training batch's sample count is drawn from this, and `batch_size` holds its
  // mean, rounded (evaluation passes and the figures that need one batch use it). Default (fixed
  // 0): every batch holds batch_size samples. The plan draws an epoch's sizes by strata and makes
  // them add up to the epoch's samples (replay/plan.hpp, batch_cuts).
  Distribution batch_sizes;
  double startup(bool eval) const { return eval && eval_startup_s ? *eval_startup_s : startup_s; }
  // Whether training batches vary in size (batch_sizes set).
  bool batches_vary() const { return !(batch_sizes == Distribution{}); }
  bool operator==(const ReaderSpec&) const = default;
};

// One accelerator's profile (`[compute.<name>]`): its step time and, where the workload gives the
// accelerator a batch of its own (MLPerf Storage v3.0's retinanet: 24 on b200, 32 on mi355), that
// batch. The batch of the profile in force becomes reader.batch_size when the job is read.
struct AcceleratorProfile {
  Distribution time;             // seconds per step
  std::uint32_t batch_size = 0;  // samples per step on this accelerator; 0: reader.batch_size
  bool operator==(const AcceleratorProfile&) const = default;
};

struct ComputeSpec {
  std::string accelerator;  // key into `per_accelerator`, empty: use `step_time`
  Distribution step_time;   // seconds per step when no accelerator is chosen
  std::map<std::string, AcceleratorProfile> per_accelerator;  // "a100", "h100", ...
  double au_threshold = 0.90;  // a run passes when every accelerator's AU ≥ this
  // The step time in force: per_accelerator[accelerator] when set, else step_time.
  const Distribution& effective() const;
  // Seconds per evaluation step (a validation pass: forward only, DLIO's eval_time); unset: the
  // training step time.
  std::optional<Distribution> eval_time;
  // The step time of an evaluation step (eval_time when set) or of a training step.
  const Distribution& effective(bool eval) const {
    return eval && eval_time ? *eval_time : effective();
  }
  // The consumer's own cost per batch, seconds (TOML `batch_overhead`): what the training process
  // spends on each batch outside compute and data wait (PyTorch's main process receiving it from
  // /dev/shm, unpickling, collating). The replay spends it on the accelerator thread after the
  // batch arrives and before compute; it is host time, not accelerator compute, so it counts in
  // AU's wall time and not in its compute time (docs/metrics.md). Default: none.
  Distribution batch_overhead;
  // The consumer's own cost per evaluation batch (TOML `eval_batch_overhead`), when it differs
  // from batch_overhead (a test loop that takes its batches with less work a batch than the
  // training loop does); unset: batch_overhead.
  std::optional<Distribution> eval_batch_overhead;
  // The consumer's cost per batch in force: eval_batch_overhead for an evaluation step when set.
  const Distribution& overhead(bool eval) const {
    return eval && eval_batch_overhead ? *eval_batch_overhead : batch_overhead;
  }
  bool operator==(const ComputeSpec&) const = default;
};

struct CheckpointSpec {
  bool enabled = false;
  std::uint32_t every_epochs = 0;               // write after every N epochs (0: not by epoch)
  std::uint64_t every_steps = 0;                // write after every N steps (0: not by step)
  std::uint64_t size_bytes = 0;                 // total size of one checkpoint
  std::uint32_t files = 1;                      // shards per checkpoint
  std::uint64_t write_size_bytes = 4ull << 20;  // request size for writes
  // Request size for reading checkpoints back (a restore, a checkpoint-only job's reads); 0: the
  // write size.
  std::uint64_t read_size_bytes = 0;
  std::uint64_t read_request_bytes() const {
    return read_size_bytes ? read_size_bytes : write_size_bytes;
  }
  bool fsync = true;
  std::filesystem::path dir;
  bool restore = false;  // read the latest checkpoint before training
  // every_epochs: the first epoch (1-based) after which one is written, then every N epochs
  // (DLIO's checkpoint_after_epoch); 0: after epoch N.
  std::uint32_t first_epoch = 0;
  // The (1-based) epochs after which one is written, ascending, when no every_epochs rule says
  // which: a program saving only when the validation loss improved. Empty: the rule decides.
  std::vector<std::uint32_t> after_epochs;
  // A last save after the run's last step, apart from the cadence's: the final weights
  // (model_final.pt, a Trainer's save_model), `final_files` files of `final_size_bytes` in all.
  // 0: none.
  std::uint64_t final_size_bytes = 0;
  std::uint32_t final_files = 1;
  // Whether a checkpoint is written after (1-based) epoch `epoch` by the epoch rule or list.
  bool after_epoch(std::uint32_t epoch) const {
    if (!enabled) return false;
    if (!after_epochs.empty())
      return std::binary_search(after_epochs.begin(), after_epochs.end(), epoch);
    if (every_epochs == 0) return false;
    const std::uint32_t first = first_epoch > 0 ? first_epoch : every_epochs;
    return epoch >= first && (epoch - first) % every_epochs == 0;
  }
  // The checkpoint-only workflow (run.train = false; DLIO's workflow.train: False): simulated
  // ranks write `writes` checkpoints one after another, then read `reads` of them back. Each rank
  // writes the shard files Job::model gives it, or (without a model) one of `files` shards of
  // `size_bytes`.
  std::uint32_t writes = 0;
  std::uint32_t reads = 0;
  double pause_s =
      0;  // before each checkpoint written or read, untimed (DLIO's time_between_checkpoints)
  CheckpointMode mode = CheckpointMode::all;
  std::uint32_t ranks_per_host =
      8;  // mode = subset: ranks 0 .. ranks_per_host-1 of the model's world
  // How the data is written (issue 12: as the original wrote it).
  WriteCall write_call = WriteCall::pwrite;  // the system call of each write request
  bool direct = false;  // O_DIRECT: aligned buffers and requests, the unaligned tail buffered
  // After every `copy_every`-th checkpoint (the 1st, 1 + copy_every, ...), each shard is copied to
  // a "-best" file with `copy` (shutil.copyfile of a best model); part of the checkpoint's time.
  CopyCall copy = CopyCall::none;
  std::uint32_t copy_every = 1;
  // Checkpoint-only jobs: how many of the checkpoints this run wrote are left in `dir` when it
  // ends (the newest); the others' files are deleted. Unset: all (MLPerf's workflow reads back, in
  // a later read-only run, the ten its write run left).
  std::optional<std::uint32_t> keep;
  // On an object store: the part size of a checkpoint's multipart upload (a shard larger than a
  // part goes as one); 0: the s3 engine's own, 8 MiB or write_size when larger.
  std::uint64_t part_size_bytes = 0;
  // Training jobs: the time the saving program spends per checkpoint outside its write calls
  // (torch.save pickling the state, copying GPU tensors to the host), spent between the write
  // requests in proportion to their bytes, by one serializer at a time; 0: none.
  double serialize_s = 0;
  bool operator==(const CheckpointSpec&) const = default;
};

struct RunSpec {
  std::uint32_t epochs = 1;
  std::uint32_t accelerators = 1;       // simulated accelerators on this host (under mpirun:
                                        // on each host, one rank per host)
  std::uint64_t max_steps = 0;          // 0: no limit; else stop each epoch after N steps
  std::uint32_t eval_every_epochs = 0;  // 0: no evaluation passes by epoch
  CacheMode cache = CacheMode::keep;
  double max_seconds = 0;  // 0: no limit
  // false: no training, no dataset: the checkpoint-only workflow (CheckpointSpec::writes/reads).
  bool train = true;
  // Every step ends when every accelerator of the host has finished it (DDP: the gradient
  // all-reduce makes each rank wait for the slowest); false: accelerators run independently, as
  // DLIO's and MLPerf Storage's simulated accelerators do.
  bool sync_steps = false;
  // An evaluation pass after every N training steps (accelerator 0's, counted over the run, as
  // checkpoint.every_steps): in the middle of an epoch, while its workers live on (nanoGPT's
  // eval_interval); 0: none by step. At most one of the two cadences is set.
  std::uint64_t eval_every_steps = 0;
  bool evaluates() const { return eval_every_epochs > 0 || eval_every_steps > 0; }
  bool operator==(const RunSpec&) const = default;
};

struct Job {
  std::string name;
  std::string description;
  std::filesystem::path source;  // the file it was read from, for messages
  DatasetSpec dataset;
  std::optional<DatasetSpec> validation;  // evaluation set; unset fields follow `dataset`
  ReaderSpec reader;
  ComputeSpec compute;
  CheckpointSpec checkpoint;
  RunSpec run;
  // Named scales (`[scales.small]`): dotted key → TOML value text, applied like `--set`.
  std::map<std::string, std::map<std::string, std::string>> scales;
  // An LLM described as DLIO does ([model]): sizes every rank's checkpoint shards (core/llm.hpp).
  std::optional<LlmModel> model;
  bool operator==(const Job&) const = default;
};

// A problem found in a job, located by its TOML path (and file line when known).
struct Diagnostic {
  std::string path;  // "reader.batch_size"
  std::string message;
  std::uint32_t line = 0;  // 0: unknown
};

// Every rule over several fields, all problems at once, and the limits of dlgen/core/limits.hpp
// (the plan's memory against this host's RAM; the second form takes the RAM, 0: not checked).
std::vector<Diagnostic> validate(const Job& job);
std::vector<Diagnostic> validate(const Job& job, std::uint64_t ram_bytes);
// validate's rules for sample_range (core/sample_range.cpp): within the files' samples, read a
// sample or a file at a time, and a validation set in dataset.dir keeps the dataset's files.
void check_sample_ranges(const Job& job, std::vector<Diagnostic>& out);

// Enum ⇄ name, as written in job files.
const char* to_string(Format f);
const char* to_string(Shuffle s);
const char* to_string(ReadUnit r);
const char* to_string(CacheMode c);
const char* to_string(Load l);
const char* to_string(DistKind k);
const char* to_string(CheckpointMode m);
const char* to_string(WriteCall c);
const char* to_string(CopyCall c);
const char* to_string(ParquetDtype d);
const char* to_string(ParquetCompression c);
std::optional<Format> format_from_string(std::string_view s);
std::optional<ParquetDtype> parquet_dtype_from_string(std::string_view s);
// A column as job files write it: "name:dtype" or "name:dtype[size]" ("t5:float32[524328]").
Result<ParquetColumn> parse_parquet_column(std::string_view text);
std::string to_string(const ParquetColumn& c);
// The bytes of one row of `columns`: the sum of size x dtype bytes.
std::uint64_t columns_bytes(const std::vector<ParquetColumn>& columns);

}  // namespace dlgen
