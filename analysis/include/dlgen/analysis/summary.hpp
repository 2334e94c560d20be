#pragma once
// TraceSummary: what a captured training run did, reduced from the raw events to the facts that the
// distiller (trace → job) and the comparer (trace vs trace) both need. One `summarize` feeds both,
// so they cannot disagree about a trace. Plain data only; times are nanoseconds since the trace
// start
// (`_ns`), sizes bytes (`_bytes`). Indices into the trace's tables are kept where a caller may want
// to look an item up again (`file`, `pid`).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "dlgen/analysis/recipe.hpp"
#include "dlgen/core/job.hpp"
#include "dlgen/trace/trace.hpp"

namespace dlgen::analysis {

// What a process or thread does in the run.
enum class ProcessRole {
  main,           // an accelerator process: consumes batches (one per simulated accelerator)
  reader_worker,  // reads dataset samples (a DataLoader worker process, or a reader thread)
  other,          // launcher, compiler, resource-sharer thread, ...
};

// What a file is to the run.
enum class FileClass {
  train,       // a training-dataset file
  validation,  // an evaluation-dataset file
  checkpoint,  // written model state (or read back as a restore)
  shm,         // /dev/shm: tensors handed from workers to the main process
  ignored,     // code, libraries, configs, Python imports, /proc, /sys, /dev, logs
  other,       // read or written but not recognised as any of the above
};

const char* to_string(ProcessRole r);
const char* to_string(FileClass c);

struct ProcessSummary {
  std::uint32_t pid = 0;   // tid for threads
  std::uint32_t tgid = 0;  // owning process
  std::uint32_t ppid = 0;
  std::string comm;
  bool is_thread = false;
  ProcessRole role = ProcessRole::other;
  std::uint32_t accelerator = 0;  // index into TraceSummary::accelerators (main and its readers)
  std::uint64_t start_ns = 0, end_ns = 0;
  std::uint64_t bytes_read = 0, read_ops = 0;  // dataset reads only
  std::uint64_t samples_read = 0;              // dataset file accesses (opens) it made
  std::uint64_t handovers = 0;                 // batch handovers it sent (workers) or got (main)
};

struct FileSummary {
  std::uint32_t file = trace::kNoFile;  // index into Trace::files
  std::string path;
  FileClass cls = FileClass::other;
  std::int32_t dataset = -1;     // index into TraceSummary::datasets, -1: none
  std::uint64_t size_bytes = 0;  // i_size at open, or the furthest byte read/written
  std::uint64_t opens = 0;
  std::uint64_t bytes_read = 0, read_ops = 0;
  std::uint64_t bytes_written = 0, write_ops = 0;
};

// An exact empirical histogram of a quantity: value → count (sizes in bytes, times in ns).
using Histogram = std::map<std::uint64_t, std::uint64_t>;

// Summary statistics of a sample of doubles (seconds, bytes, ...).
struct Stats {
  std::uint64_t count = 0;
  double min = 0, max = 0, mean = 0, stdev = 0;
  double p50 = 0, p90 = 0, p99 = 0;
};

// How one sample (one file access: an open and the reads on that descriptor) is read.
struct ReadPattern {
  double reads_per_access = 0;  // read syscalls per access (zero-byte EOF reads excluded)
  double coverage = 0;          // mean fraction of the file's bytes read per access
  bool whole_file = true;       // accesses read (nearly) the whole file
  std::uint64_t request_bytes =
      0;  // dominant chunk size when files are read in chunks; 0: one read
  std::uint64_t header_bytes =
      0;  // a small first read before the data (npz/hdf5 metadata), 0: none
  std::uint64_t probe_bytes =
      0;                // a first read at 0 after which the file is read from 0 again (numpy.load)
  bool direct = false;  // opened with O_DIRECT
  bool mmap = false;    // mapped instead of (or as well as) read
  Histogram request_sizes;  // reads that moved data: bytes moved (ret > 0) → count
};

// How a streaming reader pulled its shards (TraceSummary::stream_shards; stages/stream_reads.cpp):
// each burst of reads before a batch handover ends on the reader's own granule (an HTTP body read
// through http.client's 8 KiB socket reads, tarfile's 10 KiB records), and a shard's archive end
// may come as a small read of its own after its last batch.
struct StreamReads {
  // The granule, bytes (0: not found): among 1 KiB x 2^k and 10 KiB x 2^k, the one the reads
  // inside shard accesses (neither an access's first nor its last; 8 of them at least) are whole
  // multiples of: ascending, the first that divides a quarter of them, then each larger one that
  // divides at least half as many as the best so far and 1.5 times its count x granule (reads
  // spread over many granules are multiples of a k times larger one 1 in k by chance).
  std::uint64_t granule_bytes = 0;
  std::uint64_t inner_reads = 0;    // reads inside shard accesses
  std::uint64_t granule_reads = 0;  // ... of them whole multiples of the granule
  // The tail, bytes (0: none): the median of the shards' last reads that end at the shard's end
  // and are shorter than the granule, when at least a quarter of the shard accesses end so.
  std::uint64_t tail_bytes = 0;
  std::uint64_t accesses = 0;  // shard accesses of two reads or more
  std::uint64_t tails = 0;     // ... of them ending in such a read
  // The head, bytes (0: none): where the granule's grid starts before a shard's first byte (an
  // HTTP response's head read through the same socket reads as the body): g less the commonest
  // end offset of the inner reads modulo g, when at least half of them end there.
  std::uint64_t head_bytes = 0;
  std::uint64_t head_reads = 0;  // inner reads that end on that grid
};

// Order in which a dataset's files were read.
enum class OrderKind {
  unknown,          // too few accesses to say
  sequential,       // in path order every epoch
  shuffled,         // a random permutation (see `reshuffled` for per-epoch change)
  buffer_shuffled,  // globally ordered, locally random: a shuffle buffer
};
const char* to_string(OrderKind k);

struct OrderSummary {
  OrderKind kind = OrderKind::unknown;
  double spearman = 0;    // rank correlation of read position vs path order (mean over epochs)
  double spearman_z = 0;  // its test statistic rho·sqrt(n−1) (|z| < 3: consistent with random)
  double ascending_fraction =
      0;  // per reader, fraction of consecutive reads in increasing path order
  double cross_epoch_spearman = 0;    // order of epoch e vs e+1 (1: same order each epoch)
  bool reshuffled = false;            // the order changed between epochs
  std::uint64_t buffer_estimate = 0;  // buffer_shuffled: estimated buffer size in samples
  bool each_file_once = false;        // every epoch read every file at most once
  // Samples of a multi-sample file shuffled in blocks of this many consecutive ones
  // (stages/sample_blocks.cpp); 0: none seen.
  std::uint32_t block_samples = 0;
};

// One pass over a dataset (a training epoch or an evaluation pass).
struct EpochSummary {
  std::uint32_t index = 0;
  std::int32_t dataset = 0;  // index into TraceSummary::datasets
  bool evaluation = false;
  std::uint64_t start_ns = 0, end_ns = 0;  // first access start to last read end
  std::uint64_t accesses = 0;              // file accesses (opens)
  std::uint64_t unique_files = 0;          // distinct files read
  std::uint64_t bytes_read = 0, read_ops = 0;
  std::uint64_t steps = 0;  // batches handed over in this pass (all accelerators)
  // An evaluation pass: the training steps (per accelerator) completed before it began, counted
  // as checkpoints' are (CheckpointWrite::after_step); 0 for a training pass.
  std::uint64_t after_step = 0;
  std::uint32_t reader_count = 0;    // distinct reader processes/threads active in the pass
  std::vector<std::uint32_t> order;  // dataset file ranks (path order) in order of first read
  std::map<std::uint32_t, std::uint32_t> read_counts;  // dataset file rank → accesses in this pass
};

struct DatasetSummary {
  std::string dir;  // deepest directory holding every file of the set
  FileClass cls = FileClass::train;
  std::vector<std::uint32_t> files;       // trace file indices, in path order (rank = position)
  std::vector<std::uint64_t> file_sizes;  // bytes, same order as `files`
  Stats size;                             // file sizes in bytes
  std::uint64_t total_bytes = 0;
  std::string extension;            // ".npz", "" when mixed or absent
  std::optional<Format> format;     // from extension and magic bytes
  std::string format_evidence;      // "extension .npz and magic PK\\x03\\x04 in 480/480 files"
  std::uint32_t dirs = 1;           // distinct parent directories
  std::uint32_t files_per_dir = 0;  // 0: flat; else typical files per subdirectory
  std::uint32_t depth = 0;          // subdirectory levels below `dir`
  ReadPattern read;
  StreamReads stream;    // a stream's granule and tail (TraceSummary::stream_shards only)
  LearnedRecipe recipe;  // how one access reads a file, as a template (analysis/recipe.hpp)
  OrderSummary order;
  std::uint64_t accesses = 0;  // file accesses over the whole run
  std::uint64_t bytes_read = 0;
  // Files one sample is made of (an image and its label), read back to back by one worker
  // (stages/sample_groups.cpp); 1: a sample per file.
  std::uint32_t files_per_sample = 1;
  // Files its directories held by the loader's listing of them (getdents64), at least `files`:
  // more when some listed files were never read (a sampler drawing with replacement).
  std::uint64_t listed_files = 0;
};

// A file of many samples read one sample at a time (see TraceSummary::sample_files).
struct SampleFile {
  std::string path;                // the real file
  std::uint64_t size = 0;          // its size, bytes
  std::uint64_t base = 0;          // offset of sample 0 (header/metadata before it)
  std::uint64_t stride = 0;        // bytes per sample: the commonest step between sample reads
  std::uint64_t samples = 0;       // (size - base) / stride
  std::uint64_t request = 0;       // the commonest request size at sample offsets
  std::uint64_t reads = 0;         // data-moving reads of the file
  std::uint64_t sample_reads = 0;  // ... of them inside the samples' area
  std::uint64_t aux_reads = 0;     // ... outside it (metadata, a label array), per current sample
  std::uint64_t aux_request = 0;   // the median request size of those
  // An irregular layout: each sample's offset, sorted (HDF5 chunks with B-tree nodes allocated
  // between them break the base + k x stride grid); empty: samples lie on that grid.
  std::vector<std::uint64_t> offsets;
  // The members of an archive (a zip of images: prepass/archive_members.hpp): each sample's bytes
  // from its offset, same order as `offsets` (members differ in size); empty: `stride` bytes each.
  std::vector<std::uint64_t> extents;
  // Read through a shared memory mapping: its reads are the page faults of the processes that
  // touched it (first touch per process and fault-around window), not the program's samples.
  bool mapped = false;
  std::uint64_t faults = 0;        // fault events on it
  std::uint64_t fault_window = 0;  // the commonest fault-around extent, bytes (0: none seen)
  // The program's items per batch, from its workers' faults between their hand-overs
  // (prepass/mapped_touches.hpp; 0: none estimated), over `touch_batches` batches; `shown`: the
  // share of its directory's mapped windows in 2 MiB blocks some fault showed.
  double batch_items = 0;
  std::uint64_t touch_batches = 0;
  double shown = 0;
};

// A batch handed from a reader worker to an accelerator process (sendmsg on a unix socket and
// /dev/shm tensors in PyTorch; reconstructed from reads between handovers).
struct Batch {
  std::uint64_t ready_ns = 0;     // the worker finished it (its handover started)
  std::uint64_t received_ns = 0;  // the accelerator process received it (0: not seen)
  std::uint32_t worker = 0;       // pid (tid for thread readers) of the worker that read it
  std::uint32_t accelerator = 0;  // index into TraceSummary::accelerators
  // Dataset file accesses the worker made for it; a stream's batch: its samples counted from its
  // tensors (TraceSummary::stream_samples), else 1.
  std::uint32_t samples = 0;
  std::int32_t epoch = -1;  // index into TraceSummary::epochs
};

// One accelerator step: from the start of the main thread's compute gap on batch i to the start of
// that on batch i+1 (receipt to receipt where the trace has no main-thread timeline). Its
// interval is exactly compute_ns + consumer_ns + wait_ns (split_step_time,
// analysis/src/stages/consumer_cost.hpp; docs/metrics.md).
struct Step {
  std::uint32_t accelerator = 0;
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
  std::uint64_t compute_ns = 0;  // busy with the batch (estimated when the process had to wait)
  std::uint64_t wait_ns = 0;     // waited for data
  // The consumer's own per-batch cost: receiving the next batch (from /dev/shm), unpickling,
  // collating, anything of the main thread's outside compute and data wait.
  std::uint64_t consumer_ns = 0;
  bool compute_measured = false;  // true: the next batch was ready early, so compute = interval
  std::int32_t epoch = -1;
};

// One checkpoint: a burst of writes to checkpoint files.
struct CheckpointWrite {
  std::uint64_t start_ns = 0, end_ns = 0;
  std::uint64_t bytes = 0;
  std::uint32_t files = 0;
  std::uint64_t write_ops = 0;
  // The writers' time outside their write and sync calls, from each one's open to its last write
  // (torch.save pickling, GPU tensors copied to the host), summed over writer threads.
  std::uint64_t serialize_ns = 0;
  bool fsync = false;
  std::uint64_t copied_bytes = 0;             // sendfile/copy_file_range
  trace::Op copy_call = trace::Op::sendfile;  // the call that copied them (when copied_bytes > 0)
  trace::Op write_call = trace::Op::write;    // the write call that carried the most bytes
  bool direct = false;                        // a file it wrote was opened with O_DIRECT
  std::uint32_t after_epoch = 0;              // epochs completed before it
  std::uint64_t after_step = 0;               // steps (per accelerator) completed before it
  bool at_epoch_end = false;  // between the end of an epoch and the start of the next
  std::vector<std::string> paths;
  // Accelerators (indices into TraceSummary::accelerators) whose process or reader wrote it; empty
  // when another process did (DDP: rank 0 alone saves).
  std::vector<std::uint32_t> writers;
  Histogram write_sizes;  // write request sizes asked, bytes → count
};

// I/Os in flight over time for dataset reads (time-weighted).
struct Concurrency {
  std::map<std::uint32_t, std::uint64_t> inflight_ns;  // in-flight count → ns spent at it
  std::map<std::uint32_t, std::uint64_t> readers_ns;   // concurrently reading threads → ns
  std::uint32_t max_inflight = 0;
  double mean_inflight = 0;  // over time with at least one read in flight
  std::uint32_t max_readers = 0;
};

// Totals over one second of the run.
struct SecondBucket {
  std::uint64_t bytes_read = 0, bytes_written = 0;
  std::uint64_t read_ops = 0, write_ops = 0;
};

struct Accelerator {
  std::uint32_t pid = 0;               // the main process
  std::uint32_t host = 0;              // index into TraceSummary::hosts (0 with one host)
  std::vector<std::uint32_t> readers;  // its reader workers (pids or tids), over the whole run
  std::uint32_t workers = 0;           // concurrent readers per epoch (median over epochs)
  bool reads_itself = false;           // no separate workers: the main process reads samples
  std::uint32_t prefetch = 0;  // its batches ready ahead of consumption, per worker; 0: unknown
  // Dataset reads one of its readers keeps in flight at once: the median over its readers of the
  // count each spent 90% of its busy time at or under (stages/reader_depth.cpp); 0: none seen.
  std::uint32_t reader_depth = 0;
  // AU (docs/metrics.md; the replay's definition and arithmetic, dlgen::accelerator_utilisation):
  // au = au_compute_s / au_wall_s. Compute: every step it took, training and evaluation (steps
  // that held a checkpoint included); wall: from its first batch's arrival to the run's end
  // (TraceSummary::run_end_ns), so epoch boundaries, evaluation and checkpoints count.
  double au = 0;
  double au_compute_s = 0, au_wall_s = 0;
  double first_wait_s = 0;  // the run's first pass start → its first batch (left out of au_wall_s)
};

// One client host of a run captured with one trace per host (trace::merge_host_traces).
struct HostSummary {
  std::string host;                // host name
  std::int32_t rank = -1;          // MPI rank of its capture, -1: none
  std::string source;              // the trace it came from
  std::uint32_t accelerators = 0;  // accelerator processes found on it
};

// The accelerator's own compute per step, measured on the GPU's timeline: from the CUDA driver
// calls of the training loop's thread (trace ops cuda_sync, cuda_htod, cuda_dtoh), the time between
// two blocking synchronisations, less the loop's data waits inside, over the steps whose batches
// were copied in between (docs/distil.md, "GPU compute"; analysis/src/stages/gpu_compute.hpp). Not
// measured: no CUDA events, or no interval between synchronisations spans whole steps (the CPU's
// own figures stand).
struct GpuCompute {
  bool measured = false;  // some training interval was measured
  // The median over the steps of the intervals (GPU-bound), or the steps' mean period (loop-bound:
  // `periods` > 0, stages/gpu_compute.hpp step_period); 0: none.
  double step_s = 0, eval_step_s = 0;
  std::uint64_t periods = 0, eval_periods = 0;  // loop-bound: the step periods averaged
  std::vector<double> intervals_s;              // per-step figure of each training interval used
  std::vector<double> eval_intervals_s;         // ... of each evaluation interval
  std::uint64_t steps = 0, eval_steps = 0;      // steps those intervals span
  std::uint32_t copies_per_step = 0;            // host-to-device copies per training step
  // GPU-bound: the closing synchronisation found the GPU busy in intervals holding at least half
  // the steps, and only those intervals count; else (loop-bound) every interval counts: the
  // loop's own work per step was as long as the GPU's or longer.
  bool gpu_bound = false, eval_gpu_bound = false;
  std::uint64_t busy_steps = 0, eval_busy_steps = 0;  // steps of intervals with a busy GPU
  double data_wait_s = 0;                             // data waits taken out of the intervals
  std::vector<std::string> devices;                   // the trace's GPUs (gpu_devices), index order
  std::string driver;                                 // gpu_driver
  // Per accelerator (TraceSummary::accelerators' order): the GPU's time over the steps its
  // timeline shows, by kind: the spans of GpuStepTimes (every interval between two anchors of a
  // pass that holds whole steps, from its first copy, the first of a kind and those the median
  // leaves out included; a pass's first steps and its tail), less the data waits inside.
  // cuda: the accelerator's main thread made CUDA calls. For the measured AU (GpuAu).
  struct Seen {
    bool cuda = false;
    double s = 0, eval_s = 0;
    std::uint64_t steps = 0, eval_steps = 0;
  };
  std::vector<Seen> seen;
};

// The original's AU measured on the GPU (docs/metrics.md, "AU of the original measured on the
// GPU"): per accelerator whose main thread made CUDA calls, GPU busy / the AU's wall
// (Accelerator::au_wall_s: its first batch's arrival to the run's end), where GPU busy = the GPU's
// time over the steps its timeline shows (GpuCompute::seen) + each other step at the GPU's step
// (GpuCompute::step_s) of its kind (evaluation: training's when none). The run's is the lowest
// accelerator's. Absent (measured = false) without CUDA events, steps or a GPU step time.
struct GpuAu {
  bool measured = false;
  std::string source;  // "cuda": the CUDA driver calls of the trace
  double au = 0, au_mean = 0;
  struct PerAccelerator {
    bool measured = false;
    double au = 0, busy_s = 0, wall_s = 0;
    std::uint64_t steps = 0, eval_steps = 0;  // every step it took, by kind
    std::uint64_t seen_steps = 0;             // ... of which the timeline's intervals span
    double seen_s = 0;                        // ... their GPU time
  };
  std::vector<PerAccelerator> accelerators;
};

struct TraceSummary {
  std::vector<std::string> command;
  // The hosts of a merged trace, in host order (pids of host h are h << 22 + pid); one entry, the
  // trace's own host, for a single capture.
  std::vector<HostSummary> hosts;
  std::uint64_t duration_ns = 0;
  std::uint64_t lost_events = 0;
  bool complete = true;

  std::vector<ProcessSummary> processes;
  // The dataset was read whole by the main process before training, and the passes ran from
  // memory (stages/memory_training.cpp): their batches are the hand-overs of workers that read
  // nothing. eval_batch_size: the evaluation batches' samples (0: not known or none).
  bool dataset_in_memory = false;
  std::uint32_t eval_batch_size = 0;
  // Batches handed over (sendmsg, /dev/shm tensors) by processes that read no dataset file, and
  // those processes: DataLoader workers serving a dataset loaded into memory before they started
  // (torchvision's CIFAR10 unpickles every batch file in its __init__). Their batches carry no
  // I/O the job could replay.
  std::uint64_t memory_handovers = 0;
  std::uint32_t memory_workers = 0;
  std::vector<FileSummary> files;  // every file with any event, classified
  std::vector<Accelerator> accelerators;
  std::vector<DatasetSummary> datasets;  // datasets[0]: training (when found), then validation
  std::vector<EpochSummary> epochs;      // training epochs and evaluation passes, in time order
  std::vector<Batch> batches;            // in ready order
  std::vector<Step> steps;               // per accelerator, in time order
  // Steps whose interval held a checkpoint write: left out of `steps` (their interval is not a step
  // time) but computed on like the others, so they count in AU.
  std::vector<Step> checkpoint_steps;
  std::vector<CheckpointWrite> checkpoints;
  bool checkpoint_restore = false;  // checkpoint files read before the first training read
  std::uint64_t restore_bytes = 0;
  // The restore's reads by request size (bytes → reads): a ranged GET's bytes for an object.
  Histogram restore_read_sizes;

  // Whole-run totals (all regular files; ignored files included in opens/stats).
  std::uint64_t bytes_read = 0, bytes_written = 0;
  std::uint64_t read_ops = 0, write_ops = 0;
  std::uint64_t opens = 0, stats = 0;
  std::uint64_t dataset_bytes_read = 0, dataset_read_ops = 0;
  Histogram request_sizes;  // dataset reads that moved data: bytes moved (ret > 0) → count
  Histogram block_sizes;    // block-layer requests (with --block): bytes → count
  std::uint64_t block_bytes = 0, block_requests = 0;
  Concurrency concurrency;
  std::vector<SecondBucket> per_second;  // index = second since trace start

  // Per-run inferences shared by distil and compare.
  std::uint32_t batch_size = 0;  // samples per handover (mode), 0: not seen
  // No handovers in the trace (threaded readers, dlgen's own replay): batches were inferred from
  // each reader's bursts of reads separated by idle gaps, and step time from their cadence.
  bool batches_from_read_bursts = false;
  // Batches ready ahead of consumption, per worker: the largest accelerator's estimate (one loader
  // setting for every rank; a rank sees fewer ahead only when it consumes as fast as they come).
  std::uint32_t prefetch = 0;  // 0: unknown
  Stats step_time;             // seconds per step (interval between batches)
  Stats compute_time;          // seconds of compute per step
  Stats data_wait_time;        // seconds waited for data per step
  Stats consumer_time;         // seconds of the consumer's own per-batch cost per step
  // The original run's AU, MLPerf Storage's: the lowest accelerator's (Accelerator::au), and their
  // mean. The run begins at its first dataset read and ends at the latest step end of any
  // accelerator or the end of the last checkpoint write, whichever is later. Accelerators that
  // received no batch are left out. au_measured: false when no step was found (AU is then 0).
  double au = 0, au_mean = 0;
  bool au_measured = false;
  std::uint64_t run_begin_ns = 0, run_end_ns = 0;

  // Start-up gap of each pass after the first: from the end of the last step before it (of another
  // pass that began earlier, or of a checkpoint written after that step) to the pass's first
  // dataset read (a pass from memory: its loader's start). PyTorch's DataLoader re-forks its
  // workers there (persistent_workers=False). The first pass is left out: its gap holds the
  // imports.
  std::vector<double> pass_startup_s;  // seconds, one per pass from the second on
  // Median of the training passes' gaps (the evaluation passes' when no training pass follows the
  // first); 0: fewer than two passes.
  double startup_s = 0;
  // Median of the evaluation passes' gaps when both kinds were measured (eval_startup_apart), else
  // startup_s: a program's test DataLoader starts up unlike its training one.
  double eval_startup_s = 0;
  bool eval_startup_apart = false;
  // Per pass (index into `epochs`), per accelerator: seconds from the pass's first dataset read to
  // that accelerator's readers' first (-1: none in that pass). DDP ranks fork their DataLoader
  // workers at every epoch start each on its own, so they begin a pass apart.
  std::vector<std::vector<double>> accelerator_starts_s;
  // Per-sample reader time: gaps between a train sample's last data read and the same reader's next
  // sample open (gaps spanning a handover left out; a sample of several files: the gaps after each
  // of its files, summed), seconds; preprocess_s is their median.
  std::vector<double> preprocess_gaps_s;
  // Per batch: from a reader's first handover event of the batch to its read of its next indices,
  // where those were not written within 2 ms before (collating it into shared memory and sending
  // it), seconds; collate_s is their median.
  std::vector<double> collate_times_s;
  double collate_s = 0;
  // The training readers' paces: each one's mean per-sample time over its pass's mean, beyond the
  // means' sampling noise, as up to 8 sorted quantiles of mean 1 (empty: they go at one speed).
  std::vector<double> worker_pace;
  // A consumer that loads its own samples (no handovers): the idle gap before each of its loading
  // bursts, seconds, in trace order; its compute per step.
  // Readers streamed shards (tar/WebDataset, record files through a buffer): batches were
  // handed over while a file was open, so their reads show no sample boundaries.
  // stream_samples: each batch's samples (Batch::samples) were counted from the sizes of the
  // /dev/shm tensors it was handed over in (its labels: one int64 a sample); false: each batch
  // counts as one sample (a batch's worth).
  bool stream_shards = false;
  bool stream_samples = false;
  std::vector<double> burst_gaps_s;
  double preprocess_s = 0;
  // Sample spans: a reader's open of a sample to its open of the next one in the same pass (no
  // handover between), seconds. first_sample_spans_s: after each reader's first sample of a pass
  // (a fresh DataLoader worker's first-use costs: imports, decoder set-up), from passes after the
  // first when there are any; sample_span_s: the median of all the others.
  std::vector<double> first_sample_spans_s;
  double sample_span_s = 0;
  // A pass's first batch: per pass and accelerator, from the first dataset read of its readers to
  // its first step (the consumer's first receipt), seconds; from passes after the first when there
  // are any. Fresh DataLoader workers pay first-use costs that later batches do not: imports, the
  // library's first open (h5py), the worker queue's feeder thread, the consumer's connection to
  // receive shared-memory descriptors.
  std::vector<double> first_batch_s;

  // Multi-sample files (one big HDF5/TFRecord/.npy file read a sample at a time at scattered
  // offsets): summarized as one virtual file per sample, so passes, order, batches and workers are
  // inferred exactly as for one-file-per-sample datasets. `virtual_files` maps those virtual
  // files (FileSummary::file) to the real file they are part of.
  std::vector<SampleFile> sample_files;
  std::map<std::uint32_t, std::uint32_t> virtual_files;  // file index → index into sample_files

  GpuCompute gpu;  // the accelerator's own compute per step, from CUDA events
  GpuAu au_gpu;    // the original's AU measured on the GPU, from CUDA events

  std::vector<std::string> notes;  // what could not be inferred, and why
};

// Reduces a trace to its summary. Pure: no I/O.
TraceSummary summarize(const trace::Trace& trace);

// Indices of the training and validation datasets, -1 when absent.
int train_dataset(const TraceSummary& s);
int validation_dataset(const TraceSummary& s);

}  // namespace dlgen::analysis
