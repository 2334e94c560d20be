// summarize: trace events → TraceSummary. First the pre-passes (prepass/: trace → trace rewrites
// that put the run in the shape the stages expect: threaded accelerators as processes, page faults
// on mapped files as reads, the samples of multi-sample files as files of their own), then the
// chain of stages (stages/stages.hpp), each a pure function of the previous stages' outputs:
// classify files and datasets → accesses, readers, passes, read patterns and order → batches →
// steps → checkpoints → timing and concurrency. This file only chains them and assembles the
// summary; distil/ turns the summary into a job.
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "dlgen/analysis/summary.hpp"
#include "hosts.hpp"
#include "prepass/mapped_files.hpp"
#include "prepass/mapped_touches.hpp"
#include "prepass/object_writes.hpp"
#include "prepass/objects.hpp"
#include "prepass/sample_files.hpp"
#include "prepass/thread_accelerators.hpp"
#include "stages/stages.hpp"

namespace dlgen::analysis {
namespace {

// Handovers sent (workers) and received (accelerator processes), per process.
std::map<std::uint32_t, std::uint64_t> handover_counts(const std::vector<Batch>& batches,
                                                       const std::vector<Accelerator>& accs) {
  std::map<std::uint32_t, std::uint64_t> n;
  for (const auto& b : batches) ++n[b.worker];
  for (const auto& b : batches)
    if (b.received_ns && b.accelerator < accs.size()) ++n[accs[b.accelerator].pid];
  return n;
}

// The median over `readers` of the most reads each had in flight (0: none read).
std::uint32_t median_depth(const std::vector<std::uint32_t>& readers,
                           const std::map<std::uint32_t, std::uint32_t>& depths) {
  std::vector<std::uint32_t> seen;
  for (const std::uint32_t r : readers)
    if (const auto it = depths.find(r); it != depths.end()) seen.push_back(it->second);
  if (seen.empty()) return 0;
  std::sort(seen.begin(), seen.end());
  return seen[(seen.size() - 1) / 2];
}

// What the summary cannot tell, and why.
std::vector<std::string> final_notes(const TraceSummary& s) {
  std::vector<std::string> notes;
  if (s.lost_events)
    notes.push_back(std::to_string(s.lost_events) +
                    " events were lost during capture: counts are lower bounds");
  if (!s.complete) notes.push_back("the capture did not finish: the last epoch may be partial");
  if (train_dataset(s) < 0)
    notes.push_back(
        "no training dataset found: no regular file outside code and library paths was read");
  if (s.batches.empty() && train_dataset(s) >= 0)
    notes.push_back(
        "no batch handovers (sendmsg or /dev/shm) and no read bursts: batch size, steps and "
        "compute time per step cannot be inferred");
  return notes;
}

// The outputs of every stage, in the order they run; each reads only those above it.
struct Staged {
  stages::RunTotals totals;
  stages::Classified classified;
  std::vector<std::uint64_t> listed;
  std::vector<stages::Access> accesses;
  stages::Readers readers;
  bool in_memory = false;  // MemoryTraining::found
  std::uint32_t eval_batch_size = 0;
  stages::Passes passes;
  stages::DatasetReads reads;
  std::vector<OrderSummary> orders;
  std::vector<std::uint32_t> blocks;  // per dataset: its shuffle's block of samples (0: none)
  stages::Batches batches;
  std::vector<StreamReads> streams;  // per dataset, when batches.stream
  stages::Steps steps;
  GpuCompute gpu;
  stages::Checkpoints checkpoints;
  stages::Utilisation au;
  GpuAu au_gpu;
  stages::PassStartup startup;
  stages::SampleTimes samples;
  stages::StepTiming timing;
  std::vector<std::vector<double>> accelerator_starts;
  Concurrency concurrency;
  std::map<std::uint32_t, std::uint32_t> depths;  // reader key → its most reads in flight
};

// mapped: the files of memory-mapped datasets (virtual sample files), see find_batches.
Staged run_stages(const trace::Trace& t, const std::set<std::uint32_t>& mapped) {
  using namespace stages;
  Staged x;
  x.totals = totals(t);
  x.classified = classify(t);
  x.listed = listed_files(t, x.classified);
  x.accesses = find_accesses(t, x.classified);
  x.readers = find_readers(t, x.classified, x.accesses);
  // A dataset loaded whole at start: passes, batches and workers from the hand-overs.
  MemoryTraining memory = memory_training(t, x.classified, x.accesses, x.readers);
  x.in_memory = memory.found;
  x.eval_batch_size = memory.eval_batch_size;
  if (x.in_memory) x.readers = std::move(memory.readers), x.accesses = std::move(memory.accesses);
  x.passes = x.in_memory ? std::move(memory.passes)
                         : find_passes(x.classified, x.accesses, x.readers);
  x.reads = read_patterns(x.classified, x.accesses);
  x.orders = order_stats(x.classified, x.accesses, x.passes);
  x.blocks = sample_blocks(t, x.classified, x.accesses);
  x.batches = x.in_memory
                  ? std::move(memory.batches)
                  : find_batches(t, x.classified, x.accesses, x.readers, x.passes, mapped);
  if (x.batches.stream) x.streams = stream_reads(x.classified, x.accesses);
  x.steps = find_steps(t, x.readers, x.passes, x.batches);
  x.gpu = gpu_compute(t, x.readers, x.passes, x.batches, x.steps);
  x.checkpoints =
      find_checkpoints(t, x.classified, x.accesses, x.readers, x.passes, x.batches, x.steps);
  x.au = utilisation(x.readers.accelerators.size(), x.passes, x.batches, x.checkpoints);
  x.au_gpu = gpu_utilisation(x.gpu, x.passes, x.checkpoints, x.au);
  x.startup = pass_startup(x.passes, x.batches, x.checkpoints);
  x.samples = sample_times(t, x.classified, x.batches, x.accesses);
  x.timing = step_timing(x.passes, x.batches, x.checkpoints, x.accesses);
  x.accelerator_starts = accelerator_starts(x.passes, x.readers, x.accesses);
  x.concurrency = concurrency(t, x.classified);
  x.depths = reads_in_flight(t, x.classified, x.accesses);
  return x;
}

// The run's totals.
void put_totals(const stages::RunTotals& totals, TraceSummary& s) {
  s.command = totals.command;
  s.duration_ns = totals.duration_ns;
  s.lost_events = totals.lost_events;
  s.complete = totals.complete;
  s.bytes_read = totals.bytes_read;
  s.bytes_written = totals.bytes_written;
  s.read_ops = totals.read_ops;
  s.write_ops = totals.write_ops;
  s.opens = totals.opens;
  s.stats = totals.stats;
  s.block_sizes = totals.block_sizes;
  s.block_bytes = totals.block_bytes;
  s.block_requests = totals.block_requests;
  s.per_second = totals.per_second;
}

// Files, and the datasets with how they were read and in what order.
void put_datasets(const Staged& x, TraceSummary& s) {
  s.files = x.classified.files;
  s.datasets = x.classified.datasets;
  for (std::size_t di = 0; di < s.datasets.size(); ++di) {
    s.datasets[di].read = x.reads.datasets[di].read;
    if (di < x.streams.size()) s.datasets[di].stream = x.streams[di];
    s.datasets[di].recipe = x.reads.datasets[di].recipe;
    s.datasets[di].accesses = x.reads.datasets[di].accesses;
    s.datasets[di].bytes_read = x.reads.datasets[di].bytes_read;
    s.datasets[di].order = x.orders[di];
    s.datasets[di].order.block_samples = x.blocks[di];
    s.datasets[di].listed_files = x.listed[di];
    // The validation set's samples are made alike when its files split into them.
    const std::uint32_t k = x.batches.files_per_sample;
    if (k > 1 && s.datasets[di].files.size() % k == 0) s.datasets[di].files_per_sample = k;
  }
  s.request_sizes = x.reads.request_sizes;
  s.dataset_bytes_read = x.reads.dataset_bytes_read;
  s.dataset_read_ops = x.reads.dataset_read_ops;
}

// Processes, accelerators (with their workers, prefetch and AU), passes and batches.
void put_readers_and_batches(const Staged& x, TraceSummary& s) {
  s.processes = x.readers.processes;
  s.dataset_in_memory = x.in_memory;
  s.eval_batch_size = x.eval_batch_size;
  s.memory_handovers = x.readers.memory_handovers;
  s.memory_workers = x.readers.memory_workers;
  s.accelerators = x.readers.accelerators;
  for (std::size_t ai = 0; ai < s.accelerators.size(); ++ai) {
    auto& acc = s.accelerators[ai];
    acc.workers = x.passes.workers[ai];
    acc.prefetch = x.timing.prefetch[ai];
    acc.au = x.au.accelerators[ai].au;
    acc.au_compute_s = x.au.accelerators[ai].compute_s;
    acc.au_wall_s = x.au.accelerators[ai].wall_s;
    acc.first_wait_s = x.au.accelerators[ai].first_wait_s;
    acc.reader_depth = median_depth(acc.readers, x.depths);
  }
  s.epochs = x.passes.epochs;
  for (std::size_t pi = 0; pi < s.epochs.size(); ++pi) {
    s.epochs[pi].steps = x.batches.steps_per_pass[pi];
    s.epochs[pi].after_step = x.checkpoints.after_step[pi];
  }

  s.batches = x.batches.batches;
  s.batch_size = x.batches.batch_size;
  s.batches_from_read_bursts = x.batches.from_read_bursts;
  s.burst_gaps_s = x.batches.burst_gaps_s;
  s.stream_shards = x.batches.stream;
  s.stream_samples = x.batches.stream_samples;
  const auto handovers = handover_counts(s.batches, s.accelerators);
  for (auto& p : s.processes)
    if (auto it = handovers.find(p.pid); it != handovers.end()) p.handovers = it->second;
}

// Steps and checkpoints, AU, start-up and per-sample times, step statistics, concurrency, GPU.
void put_timing(const Staged& x, TraceSummary& s) {
  s.steps = x.checkpoints.steps;
  s.checkpoint_steps = x.checkpoints.checkpoint_steps;
  s.checkpoints = x.checkpoints.checkpoints;
  s.checkpoint_restore = x.checkpoints.restore;
  s.restore_bytes = x.checkpoints.restore_bytes;
  s.restore_read_sizes = x.checkpoints.restore_read_sizes;

  s.au = x.au.au;
  s.au_mean = x.au.au_mean;
  s.au_measured = x.au.measured;
  s.run_begin_ns = x.au.run_begin_ns;
  s.run_end_ns = x.au.run_end_ns;
  s.pass_startup_s = x.startup.pass_startup_s;
  s.startup_s = x.startup.startup_s;
  s.eval_startup_s = x.startup.eval_startup_s;
  s.eval_startup_apart = x.startup.eval_apart;
  s.accelerator_starts_s = x.accelerator_starts;
  s.preprocess_gaps_s = x.samples.preprocess_gaps_s;
  s.preprocess_s = x.samples.preprocess_s;
  s.collate_times_s = x.samples.collate_s;
  s.collate_s = x.samples.collate_median_s;
  s.worker_pace = x.samples.worker_pace;
  s.first_sample_spans_s = x.samples.first_sample_spans_s;
  s.sample_span_s = x.samples.sample_span_s;
  s.first_batch_s = x.timing.first_batch_s;
  s.prefetch = x.timing.run_prefetch;
  s.step_time = x.timing.step_time;
  s.compute_time = x.timing.compute_time;
  s.data_wait_time = x.timing.data_wait_time;
  s.consumer_time = x.timing.consumer_time;
  s.concurrency = x.concurrency;
  s.gpu = x.gpu;
  s.au_gpu = x.au_gpu;
}

// The stages, then the summary assembled from their outputs.
TraceSummary summarize_split(const trace::Trace& t, const std::set<std::uint32_t>& mapped) {
  const Staged x = run_stages(t, mapped);
  TraceSummary s;
  put_totals(x.totals, s);
  put_datasets(x, s);
  put_readers_and_batches(x, s);
  put_timing(x, s);
  s.notes = x.batches.notes;
  s.notes.insert(s.notes.end(), x.steps.notes.begin(), x.steps.notes.end());
  for (auto& n : final_notes(s)) s.notes.push_back(std::move(n));
  return s;
}

}  // namespace

TraceSummary summarize(const trace::Trace& captured) {
  // Objects read over HTTP (an S3 dataset): each GET a read of a file named by its URL.
  const std::optional<trace::Trace> objects = objects_as_reads(captured);
  const trace::Trace& read_objects = objects ? *objects : captured;
  // Objects written over HTTP (a checkpoint PUT, a multipart upload): writes of their files.
  const std::optional<trace::Trace> written = objects_as_writes(read_objects);
  const trace::Trace& original = written ? *written : read_objects;
  // dlgen's replay runs several accelerators as threads of one process: one process each first.
  const std::optional<trace::Trace> threaded = split_thread_accelerators(original);
  const trace::Trace& trace = threaded ? *threaded : original;
  // A dataset file read through a memory mapping: its page faults become reads.
  std::vector<MappedFile> mapped;
  const std::optional<trace::Trace> faulted = faults_as_reads(trace, mapped);
  const trace::Trace& read = faulted ? *faulted : trace;
  std::vector<SampleFile> sample_files;
  std::map<std::uint32_t, std::uint32_t> virtual_files;
  const std::optional<trace::Trace> split = split_sample_files(read, sample_files, virtual_files);
  const std::map<std::string, MappedTouches> touches = mapped_touches(trace, mapped);
  for (auto& sf : sample_files)
    for (const auto& m : mapped)
      if (trace.files[m.file].path == sf.path) {
        sf.mapped = true;
        sf.faults = m.faults;
        sf.fault_window = m.window;
        const auto it = touches.find(std::filesystem::path(sf.path).parent_path().string());
        if (it == touches.end()) continue;
        sf.batch_items = it->second.per_batch;
        sf.touch_batches = it->second.batches;
        sf.shown = it->second.shown;
      }
  std::set<std::uint32_t> mapped_samples;
  for (const auto& [f, row] : virtual_files)
    if (sample_files[row].mapped) mapped_samples.insert(f);
  TraceSummary s = summarize_split(split ? *split : read, mapped_samples);
  assign_hosts(trace, s);  // pids and paths are the same in the split trace
  // The kernel maps a 2 MiB page-cache folio (a file still cached from being written) with one
  // PMD entry and no filemap tracepoint: those reads are unseen.
  for (const auto& m : mapped) {
    const auto& f = trace.files[m.file];
    if (m.bytes * 10 < f.size_at_open * 9)
      s.notes.push_back(f.path + ": page faults on the memory-mapped file showed " +
                        std::to_string(m.bytes) + " of its " + std::to_string(f.size_at_open) +
                        " bytes over the whole run: the kernel maps pages cached in 2 MiB folios "
                        "(a file still cached from being written) without a tracepoint, so reads, "
                        "batches and epochs are missing; drop the file from the page cache "
                        "before capturing");
  }
  s.sample_files = std::move(sample_files);
  s.virtual_files = std::move(virtual_files);
  return s;
}

}  // namespace dlgen::analysis
