#pragma once
// The stages of summarize (trace → TraceSummary), each a pure function in its own file that reads
// the previous stages' outputs (const&) and returns its own struct; summarize() chains them and
// assembles the summary. No stage changes what another stage returned, so the order is enforced by
// the types:
//
//   classify.cpp     totals, classify: run totals; files and datasets (RunTotals, Classified)
//   spooled_uploads.cpp  local files staged for an object upload (classify leaves them out)
//   listed_validation.cpp  a validation set chosen by a list in the training directory
//   listed_files.cpp  files each dataset's directories held (their listing), read or not
//   accesses.cpp     find_accesses: opens of dataset files and their reads, reader, pass (Access)
//   container_passes.cpp  datasets whose passes are their runs (a container's re-read regions)
//   self_reader.cpp  passes of a process that reads its own batches with replacement (nanoGPT)
//   readers.cpp      find_readers: accelerators, their readers, process roles (Readers)
//   passes.cpp       find_passes: epochs and evaluation passes, workers (Passes);
//                    read_patterns: how each dataset is read (DatasetReads);
//                    order_stats: read order per dataset (OrderSummary)
//   sample_blocks.cpp  a multi-sample file's samples shuffled in blocks of consecutive ones
//   batches.cpp      find_batches: from handovers or read bursts, with receipts (Batches)
//   index_queue.cpp  handovers_at_index_reads: batches of workers whose feeder thread shares them
//   sample_groups.cpp  files_per_sample: samples made of several files (image + label)
//   stream_reads.cpp  a stream's read granule and the read of a shard's tail
//   memory_training.cpp  a dataset loaded whole at start, passes and batches from memory
//   steps.cpp        find_steps: accelerator steps, compute and data wait (Steps)
//   step_launches.cpp  step_launches: the loop's steps as its CUDA kernel launches show them
//   checkpoints.cpp  find_checkpoints: checkpoint writes, steps that held one, and after how many
//                    steps each checkpoint and evaluation pass came (Checkpoints)
//   timing.cpp       utilisation, pass_startup, sample_times, step_timing, concurrency: AU,
//                    start-up gaps, per-sample times, step statistics, prefetch, reads in flight
//   startup_spread.cpp  accelerator_starts: when each accelerator began each pass
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "dlgen/analysis/summary.hpp"
#include "dlgen/trace/trace.hpp"

namespace dlgen::analysis::stages {

// ---- shared helpers (classify.cpp) ----

// A worker handing a batch over: sendmsg on a unix socket, or a /dev/shm tensor file created
// (POSIX semaphores, /dev/shm/sem.*, are locks, not tensors).
bool is_handover(const trace::Event& e, const std::vector<FileSummary>& files);
// Processes that hand batches over (is_handover) and receive none: DataLoader worker processes.
std::set<std::uint32_t> handing_workers(const trace::Trace& t,
                                        const std::vector<FileSummary>& files);

// ---- classify ----

// Whole-run totals (every regular file) and per-second buckets.
struct RunTotals {
  std::vector<std::string> command;
  std::uint64_t duration_ns = 0;
  std::uint64_t lost_events = 0;
  bool complete = true;
  std::uint64_t bytes_read = 0, bytes_written = 0;
  std::uint64_t read_ops = 0, write_ops = 0;
  std::uint64_t opens = 0, stats = 0;
  Histogram block_sizes;
  std::uint64_t block_bytes = 0, block_requests = 0;
  std::vector<SecondBucket> per_second;
};
RunTotals totals(const trace::Trace& t);

// Every file classified, and the datasets (training first, then validation) with their layout and
// format; the datasets' read pattern, order and access counts are left for later stages.
struct Classified {
  std::vector<FileSummary> files;        // one per trace file, same index
  std::vector<DatasetSummary> datasets;  // layout, sizes and format only
  bool is_dataset_file(std::uint32_t f) const {
    return f < files.size() &&
           (files[f].cls == FileClass::train || files[f].cls == FileClass::validation);
  }
};
Classified classify(const trace::Trace& t);

// Per file: a local file a process wrote, read back and sent as an object while reading it (a
// checkpoint torch.save'd to a temporary file, then upload_fileobj'd): staging, not data
// (spooled_uploads.cpp).
std::vector<bool> spooled_uploads(const trace::Trace& t);

// The files of a validation set chosen by a list among `files` (one directory's data candidates):
// the smaller of exactly two sets of files each read only in passes of its own, a pass being the
// readers whose spans of reads overlap (listed_validation.cpp). Empty: no such split.
std::vector<std::uint32_t> listed_validation(const trace::Trace& t,
                                             const std::vector<std::uint32_t>& files);

// Per dataset (Classified::datasets' order): the files its directories held, from the loader's
// listings of them (getdents64), at least the files it read (listed_files.cpp).
std::vector<std::uint64_t> listed_files(const trace::Trace& t, const Classified& c);

// ---- accesses ----

// One access to a dataset file: an open and the reads on that descriptor until close.
struct Access {
  std::uint32_t file = 0;  // trace file index
  std::int32_t dataset = -1;
  std::uint32_t rank = 0;  // position of the file in its dataset's path order
  std::uint32_t pid = 0, tid = 0;
  std::uint32_t reader = 0;  // reader key (tid for threaded readers, else pid)
  std::uint64_t ts = 0, end = 0;
  std::uint64_t bytes = 0, reads = 0;
  std::uint64_t first_read = 0;
  std::uint64_t last_read_end = 0;     // end of the last read that moved data (0: none)
  // Between its reads that moved data: when the first began, and the time from each one's end to
  // the next one's start, summed (the reader's own work inside the file: PIL parsing a JPEG's
  // header before it reads the rest; 0 when reads overlap, as io_uring's do).
  std::uint64_t first_read_ts = 0, inner_gap_ns = 0;
  std::vector<std::uint64_t> sizes;    // bytes asked per read that moved data
  std::vector<std::uint64_t> moved;    // bytes each of those reads returned
  std::vector<std::uint64_t> offsets;  // where each of those reads started
  bool direct = false, mmap = false;
  std::int32_t pass = -1;  // index into Passes::epochs
  // Reads that came right after an lseek on the descriptor (a run of seeks, then a read): a
  // reader jumping to its next member (tarfile's random access: seek to the member's header,
  // read it, seek to its data, read it).
  std::uint64_t seek_reads = 0;
  // Opens of the file merged into this access: a library that opens the file again right after
  // closing it (tarfile.open tries each compression in turn, each opening the file) reads it
  // once.
  std::uint32_t reopens = 0;
  std::uint64_t closed = 0;  // when its descriptor was closed (0: not seen)
};

// Dataset accesses in start order, each with its reader key and pass index.
std::vector<Access> find_accesses(const trace::Trace& t, const Classified& c);

// ---- datasets whose passes are their runs (container_passes.cpp) ----

// The datasets (of `accesses`, in start order) whose passes are their runs: read in runs that
// alternate with another dataset's (training epochs with evaluation passes between them), at
// least two, each reading its files at least twice on average (a container's regions that hold
// several samples each, an HDF5 chunk read once for each of its samples), by readers that live
// through the run (not `reforked`: fresh workers every pass delimit the passes themselves). A
// file repeating there does not end a pass; the other dataset's reads do.
std::set<std::int32_t> passes_are_runs(const std::vector<Access>& accesses,
                                       const std::set<std::int32_t>& reforked);

// ---- a process reading for itself, with replacement (self_reader.cpp) ----

// Whether the accesses are one process reading for itself (it hands nothing over) that draws with
// replacement: in most stretches between two repeats of a file it read fewer than half the files
// it reads over the run (a shuffled epoch reads every file before the first repeat), so its
// repeats are not epochs (nanoGPT's get_batch: random windows of a token file).
bool self_reader_redraws(const trace::Trace& t, const Classified& c,
                         const std::vector<Access>& accesses);

// Such a reader's evaluation that measures the training set's loss too (nanoGPT's estimate_loss:
// eval_iters batches of each split) reads training batches right before the validation set's, at
// the evaluation's cadence. The bursts of training reads just before an evaluation pass whose
// idle gap after them is below the geometric mean of the two cadences (the median gap after a
// training burst and after an evaluation burst, when these differ at least twofold) join that
// evaluation pass; passes are then renumbered in time order. Accesses in start order, passes set.
void evaluation_reads_of_training(const Classified& c, std::vector<Access>& accesses);

// The idle gap before each access of one reader (time order) after the previous one's end (0 when
// they overlap), and the gap over which a burst of reads ends: 4x the median, at least 0.5 ms.
std::vector<double> access_gaps(const std::vector<const Access*>& as);
double burst_threshold(const std::vector<double>& gaps);
// A consumer loading its own batches: also at least a quarter of the 20th percentile of the
// gaps over that (its shortest compute gaps), so a burst the host preempted for a few ms stays one.
double consumer_burst_threshold(const std::vector<double>& gaps);

// Whether a consumer's loading bursts stand apart from its compute by their gaps alone: a consumer
// whose batches vary in size (nanoGPT's get_batch: random windows of a mapped file, two draws
// sometimes in one window) shows no batch every B samples, but the gaps over `threshold` (each
// ends a burst) are at least 8 times the gaps inside one (their 20th percentile over the others'
// 80th, at least 1 µs), and there are at least two a pass. A per-sample loop on a loaded host
// scatters its gaps by a few times only: each sample stays a step.
bool clear_gap_bursts(const std::vector<const Access*>& as, const std::vector<double>& gaps,
                      double threshold);

// ---- readers ----

struct Readers {
  // pid, readers and reads_itself set; workers, prefetch and AU are later stages'.
  std::vector<Accelerator> accelerators;
  // Every traced process with its role and dataset read counts (handovers: counted at assembly).
  std::vector<ProcessSummary> processes;
  // The accelerator a reader key feeds (0 when it is nobody's reader).
  std::uint32_t accel_of_reader(std::uint32_t reader) const;
  // Handovers by processes that read no dataset file, and how many such processes handed over.
  std::uint64_t memory_handovers = 0;
  std::uint32_t memory_workers = 0;
};
Readers find_readers(const trace::Trace& t, const Classified& c, const std::vector<Access>& as);

// ---- passes, read patterns, order ----

struct Passes {
  std::vector<EpochSummary> epochs;    // `steps` left 0: counted from Batches
  std::vector<std::uint32_t> workers;  // per accelerator: median readers active in a training pass
  // The passes are hand-overs from memory (memory_training.cpp): the loop receives each batch
  // as it takes its step, so receipts count the steps taken.
  bool from_memory = false;
  bool evaluation(std::int32_t pass) const { return pass >= 0 && epochs[pass].evaluation; }
};
Passes find_passes(const Classified& c, const std::vector<Access>& as, const Readers& r);

// Per dataset: how its files are read, with the run's dataset request histogram and totals.
struct DatasetReads {
  struct PerDataset {
    ReadPattern read;
    LearnedRecipe recipe;  // how one access reads a file, as a template (analysis/recipe.hpp)
    std::uint64_t accesses = 0, bytes_read = 0;
  };
  std::vector<PerDataset> datasets;  // same order as Classified::datasets
  Histogram request_sizes;
  std::uint64_t dataset_bytes_read = 0, dataset_read_ops = 0;
};
DatasetReads read_patterns(const Classified& c, const std::vector<Access>& as);

// Order statistics of each dataset (same order as Classified::datasets).
std::vector<OrderSummary> order_stats(const Classified& c, const std::vector<Access>& as,
                                      const Passes& p);

// Per dataset (Classified::datasets' order): the block of a shuffle in blocks of N consecutive
// samples of one file (a batch sampler handing out runs of records), 0 when none: each reader
// reads runs of consecutive samples of a multi-sample file (virtual files, prepass/sample_files)
// that begin and end on a grid of N samples (sample_blocks.cpp).
std::vector<std::uint32_t> sample_blocks(const trace::Trace& t, const Classified& c,
                                         const std::vector<Access>& as);

// ---- batches ----

struct Batches {
  std::vector<Batch> batches;  // in ready order, with receipts
  std::uint32_t batch_size = 0;
  bool from_read_bursts = false;
  // Readers streamed shards: they handed batches over while a file was open, so a batch's samples
  // cannot be counted from its reads: from its tensors' sizes when they tell (stream_samples),
  // else each batch counts 1.
  bool stream = false;
  bool stream_samples =
      false;  // a stream's batches counted from their tensors (stream_samples.cpp)
  std::vector<double> burst_periods_s;  // read bursts only: step cadence per reader, seconds
  // Read bursts of a consumer that loads its own samples (no DataLoader workers): it loads a
  // batch, then computes, so the idle gap before each burst is its compute (seconds), and those
  // gaps are not per-sample processing. burst_starts: reader key → start of each burst's first
  // access.
  bool consumer_loads = false;
  std::vector<double> burst_gaps_s;
  std::map<std::uint32_t, std::vector<std::uint64_t>> burst_starts;
  std::vector<std::uint64_t> steps_per_pass;  // batches per pass (index into Passes::epochs)
  // The /dev/shm tensor file a worker created to hand a batch over → the batch (index into
  // `batches`): the consumer maps that very file when it receives the batch.
  std::map<std::uint32_t, std::size_t> tensor_batch;
  std::vector<std::string> notes;
  // Files per sample of the training set (sample_groups.cpp); batch_size counts samples, a
  // Batch's `samples` its file accesses.
  std::uint32_t files_per_sample = 1;
};
// mapped: the (virtual) files of memory-mapped datasets, whose readers' batches may show no reads.
Batches find_batches(const trace::Trace& t, const Classified& c, const std::vector<Access>& as,
                     const Readers& r, const Passes& p, const std::set<std::uint32_t>& mapped = {});

// ---- a stream's read granule and tail (stream_reads.cpp) ----

// Per dataset (Classified::datasets' order): its accesses' granule and tail (StreamReads), from
// each access's reads that moved data, in the order they were made.
std::vector<StreamReads> stream_reads(const Classified& c, const std::vector<Access>& as);

// ---- samples of a stream (stream_samples.cpp) ----

// The samples in a batch handed over as tensors of `bytes` (each a /dev/shm file's ftruncate size,
// 0: unknown), as PyTorch's default collate makes them: the smallest is the labels, one int64 a
// sample (n = its bytes / 8), and every other tensor is n samples of at least 64 bytes each (a
// tensor of scalars, 4n bytes of float32, could be the smallest); others of the smallest's size are
// more int64s a sample (a batch's lengths or byte counts beside its labels). 0 when the sizes do
// not say: fewer than two tensors, an unknown size, a smallest that is not whole int64s, no tensor
// larger than it, or another tensor under 8 times it or not n equal parts.
std::uint32_t samples_of_tensors(const std::vector<std::uint64_t>& bytes);
// Every /dev/shm file's size, from its ftruncate (PyTorch sizes a shared tensor's file so).
std::map<std::uint32_t, std::uint64_t> shm_tensor_bytes(const trace::Trace& t,
                                                        const std::vector<FileSummary>& files);
// A streamed batch (index into Batches::batches) and its tensors' files: the /dev/shm tensor the
// reading thread collated it into, and those the worker's other threads shared with it (the
// queue's feeder thread moves a batch's labels, made by torch.tensor, into /dev/shm as it sends
// the batch).
struct StreamBatch {
  std::size_t batch = 0;
  std::vector<std::uint32_t> tensors;
};
// Each streamed batch's samples from its tensors (samples_of_tensors), when at least 3 in 4 of
// them tell; those that do not count the commonest of the others. Otherwise nothing changes
// (each batch counts 1). Sets Batches::stream_samples when counted.
void count_stream_samples(const std::vector<StreamBatch>& made,
                          const std::map<std::uint32_t, std::uint64_t>& tensor_bytes, Batches& s);

// A worker whose batches another of its threads shares (the queue's feeder thread pickling them
// into /dev/shm tensors while the worker reads the next batch): its batches are the accesses
// between its reads of its index queue, each batch's k handovers (k whole, in order), each
// handover moved back to when the worker was done with its batch (the index read after its last
// access, or the handover when that comes first). All times sorted; the handovers unchanged when
// the counts do not pair up (index_queue.cpp).
std::vector<std::uint64_t> handovers_at_index_reads(const std::vector<std::uint64_t>& accesses,
                                                    const std::vector<std::uint64_t>& index_reads,
                                                    const std::vector<std::uint64_t>& handovers);
// Whether `e` moved data through a pipe (a DataLoader worker's index queue is one).
bool on_pipe(const trace::Trace& t, const trace::Event& e);
// Per thread of `tids`: when it read a pipe (a worker's index queue), in time order.
std::map<std::uint32_t, std::vector<std::uint64_t>> pipe_reads(const trace::Trace& t,
                                                               const std::set<std::uint32_t>& tids);

// Files per sample of the training set: the length of the chains of files one worker always read
// one right after the other in the same batch (an image, then its label), every file in one such
// chain; 1 when there are none, or when the chains are whole batches (an unshuffled order).
// sample_groups.cpp.
std::uint32_t files_per_sample(const Classified& c, const std::vector<Access>& as,
                               const std::vector<Batch>& batches, std::uint32_t files_per_batch);

// ---- training from memory (memory_training.cpp) ----

// The files of `files` (one directory's data candidates) that are a validation split loaded into
// memory: one process read them all before any child of it handed a batch over, and a word of
// their names says validation (validation.jsonl beside train-00000-of-00002.jsonl, CIFAR's
// test_batch beside data_batch_1..5), the others' do not. Empty: no such.
std::vector<std::uint32_t> loaded_validation(const trace::Trace& t, const Classified& c,
                                             const std::vector<std::uint32_t>& files);

// A dataset the one accelerator's main process read whole before any batch, then passes from
// memory: children of it that read no dataset file hand batches over (DataLoader workers that
// only collate). Its passes are the worker generations (a DataLoader's workers, forked together),
// an evaluation pass one that lives inside another or has at most half the largest's batches; a
// batch is `handovers_per_batch` hand-overs of one worker; its samples are its smallest tensor's
// size over 8 (the labels, an int64 a sample; 0: not known). Replaces the passes, batches and
// readers that reads would give (the wiring chooses); accesses renumbered to the passes.
struct MemoryTraining {
  bool found = false;
  Readers readers;
  Passes passes;
  Batches batches;  // batch_size: training batches' commonest sample count (0: not known)
  std::vector<Access> accesses;
  std::uint32_t eval_batch_size = 0;  // the same of the evaluation batches
  std::uint32_t handovers_per_batch = 0;
  std::uint64_t load_end_ns = 0;
};
MemoryTraining memory_training(const trace::Trace& t, const Classified& c,
                               const std::vector<Access>& as, const Readers& r);

// ---- steps ----

struct Steps {
  std::vector<Step> steps;  // per accelerator, in time order (checkpoint steps included)
  // The median measured compute per step (training, evaluation), for steps whose gap is not pure
  // compute.
  double typical_compute_ns = 0, typical_eval_compute_ns = 0;
  std::vector<std::string> notes;
};
Steps find_steps(const trace::Trace& t, const Readers& r, const Passes& p, const Batches& b);

// ---- GPU compute (gpu_compute.cpp) ----

// The accelerator's compute per step from the loop thread's CUDA events (GpuCompute).
GpuCompute gpu_compute(const trace::Trace& t, const Readers& r, const Passes& p, const Batches& b,
                       const Steps& st);

// ---- the loop's steps from its kernel launches ----

// The launch times (sorted) of a process's step kernels: each a kernel (thread, CUfunction) that
// was launched exactly as often as the process took training steps, so once a step. Empty when
// the trace has no CUDA launches or no such kernel (step_launches.cpp).
struct StepLaunches {
  std::vector<std::vector<std::uint64_t>> kernels;
  bool empty() const;
  // Training steps the loop had queued before `t`: the step kernels' launches before it (their
  // median count).
  std::uint64_t before(std::uint64_t t) const;
};
StepLaunches step_launches(const trace::Trace& t, std::uint32_t pid, std::uint64_t steps);
// The same clock from the loop thread's first page fault on each training batch's /dev/shm
// tensors (Batches::tensor_batch) of accelerator 0: one sorted list as the one "kernel", a touch a
// step. Empty unless the loop touched every such batch (step_touches.cpp).
StepLaunches step_touches(const trace::Trace& t, const Readers& r, const Passes& p,
                          const Batches& bt);

// ---- checkpoints ----

struct Checkpoints {
  std::vector<CheckpointWrite> checkpoints;
  bool restore = false;
  std::uint64_t restore_bytes = 0;
  std::map<std::uint64_t, std::uint64_t> restore_read_sizes;  // the restore's: request size → reads
  std::vector<Step> steps;             // Steps::steps less those whose interval held a checkpoint
  std::vector<Step> checkpoint_steps;  // ... those, compute capped at the typical one
  // Per pass (Passes::epochs): for an evaluation pass, the training steps (per accelerator)
  // completed before it began (EpochSummary::after_step); 0 for a training pass.
  std::vector<std::uint64_t> after_step;
};
Checkpoints find_checkpoints(const trace::Trace& t, const Classified& c,
                             const std::vector<Access>& as, const Readers& r, const Passes& p,
                             const Batches& b, const Steps& st);

// ---- timing and concurrency ----

struct Utilisation {
  struct PerAccelerator {
    bool measured = false;  // received a batch
    double au = 0, compute_s = 0, wall_s = 0, first_wait_s = 0;
  };
  std::vector<PerAccelerator> accelerators;
  double au = 0, au_mean = 0;
  bool measured = false;
  std::uint64_t run_begin_ns = 0, run_end_ns = 0;
};
Utilisation utilisation(std::size_t accelerators, const Passes& p, const Batches& b,
                        const Checkpoints& k);

// The original's AU measured on the GPU (GpuAu): the GPU's time over the steps, each step not
// spanned by the CUDA timeline's intervals at the GPU's median, over the AU's wall.
GpuAu gpu_utilisation(const GpuCompute& g, const Passes& p, const Checkpoints& k,
                      const Utilisation& au);

// Start-up gaps (TraceSummary::pass_startup_s): per pass after the first, and their medians.
struct PassStartup {
  std::vector<double> pass_startup_s;
  double startup_s = 0;       // training passes' median (evaluation passes' when no training)
  double eval_startup_s = 0;  // evaluation passes' median (startup_s unless eval_apart)
  bool eval_apart = false;    // gaps before both training and evaluation passes were measured
};
PassStartup pass_startup(const Passes& p, const Batches& b, const Checkpoints& k);

// Per pass, per accelerator: seconds from the pass's first dataset read to that accelerator's
// first (-1: it read nothing in that pass). startup_spread.cpp.
std::vector<std::vector<double>> accelerator_starts(const Passes& p, const Readers& r,
                                                    const std::vector<Access>& as);

struct SampleTimes {
  // Per sample (of files_per_sample files: the gaps after each of its files, summed).
  std::vector<double> preprocess_gaps_s;
  double preprocess_s = 0;
  // Per batch: from a worker's first handover event of the batch to its read of its next indices
  // (collating it into shared memory, the result queue sending it), waits for indices left out;
  // median.
  std::vector<double> collate_s;
  double collate_median_s = 0;
  std::vector<double> first_sample_spans_s;
  double sample_span_s = 0;
  // Each training reader's pace: its mean per-sample time over its pass's mean, pooled over the
  // passes (after the first when there are several), shrunk toward 1 by the sampling noise of
  // the means (worker_pace.cpp); empty when the readers do not differ beyond it.
  std::vector<double> worker_pace;
};
SampleTimes sample_times(const trace::Trace& t, const Classified& c, const Batches& b,
                         const std::vector<Access>& as);

// ---- the readers' paces (worker_pace.cpp) ----

// One clean per-sample time of a training reader in a pass.
struct ReaderSample {
  std::uint32_t pass = 0, reader = 0;
  double seconds = 0;
};
// DataLoader workers of one pass do not all go at one speed (one shares a core with the training
// process's threads, another is descheduled more): the slowest ends the pass. Per pass with two
// or more readers of at least 16 samples each (the passes after the first when there are
// several), each reader's mean per-sample time over the pass's mean of them; the spread of those
// ratios beyond what the means' own sampling noise explains is kept (each ratio shrunk toward 1
// by sqrt(1 - noise / spread)). Returns up to 8 quantiles of the pooled ratios, mean 1, sorted;
// empty when the slowest is within 3% of the mean.
std::vector<double> worker_pace(const std::vector<ReaderSample>& samples);

struct StepTiming {
  Stats step_time, compute_time, data_wait_time, consumer_time;
  std::vector<std::uint32_t> prefetch;  // per accelerator
  std::uint32_t run_prefetch = 0;
  // Per pass and accelerator: its readers' first read to its first step (Summary's field).
  std::vector<double> first_batch_s;
};
StepTiming step_timing(const Passes& p, const Batches& b, const Checkpoints& k,
                       const std::vector<Access>& accesses);

Concurrency concurrency(const trace::Trace& t, const Classified& c);

// ---- reads in flight per reader (reader_depth.cpp) ----

// Reader key → the dataset reads it had in flight at once, at most, for 90% of its busy time (1
// for a thread of plain system calls; a worker's thread pool or an io_uring reader, more).
std::map<std::uint32_t, std::uint32_t> reads_in_flight(const trace::Trace& t, const Classified& c,
                                                       const std::vector<Access>& accesses);

}  // namespace dlgen::analysis::stages
