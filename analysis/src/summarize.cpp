// summarize: trace events → TraceSummary, as a chain of stages (stages.hpp), each a pure function
// of the previous stages' outputs: classify files and datasets → accesses, readers, passes, read
// patterns and order → batches → steps → checkpoints → timing and concurrency. This file only
// chains them and assembles the summary.
#include <map>
#include <set>

#include "dlgen/analysis/summary.hpp"
#include "hosts.hpp"
#include "mapped_files.hpp"
#include "sample_files.hpp"
#include "stages.hpp"
#include "thread_accelerators.hpp"

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

// mapped: the files of memory-mapped datasets (virtual sample files), see find_batches.
TraceSummary summarize_split(const trace::Trace& t, const std::set<std::uint32_t>& mapped) {
  using namespace stages;
  const RunTotals totals = stages::totals(t);
  const Classified classified = classify(t);
  const std::vector<Access> accesses = find_accesses(t, classified);
  const Readers readers = find_readers(t, classified, accesses);
  const Passes passes = find_passes(classified, accesses, readers);
  const DatasetReads reads = read_patterns(classified, accesses);
  const std::vector<OrderSummary> orders = order_stats(classified, accesses, passes);
  const Batches batches = find_batches(t, classified, accesses, readers, passes, mapped);
  const Steps steps = find_steps(t, accesses, readers, passes, batches);
  const GpuCompute gpu = gpu_compute(t, readers, passes, batches, steps);
  const Checkpoints checkpoints =
      find_checkpoints(t, classified, accesses, readers, passes, batches, steps);
  const Utilisation au = utilisation(readers.accelerators.size(), passes, batches, checkpoints);
  const GpuAu au_gpu = gpu_utilisation(gpu, passes, checkpoints, au);
  const PassStartup startup = pass_startup(passes, checkpoints);
  const SampleTimes samples = sample_times(t, classified, batches, accesses);
  const StepTiming timing = step_timing(passes, batches, checkpoints, accesses);

  TraceSummary s;
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

  s.files = classified.files;
  s.datasets = classified.datasets;
  for (std::size_t di = 0; di < s.datasets.size(); ++di) {
    s.datasets[di].read = reads.datasets[di].read;
    s.datasets[di].recipe = reads.datasets[di].recipe;
    s.datasets[di].accesses = reads.datasets[di].accesses;
    s.datasets[di].bytes_read = reads.datasets[di].bytes_read;
    s.datasets[di].order = orders[di];
  }
  s.request_sizes = reads.request_sizes;
  s.dataset_bytes_read = reads.dataset_bytes_read;
  s.dataset_read_ops = reads.dataset_read_ops;

  s.processes = readers.processes;
  s.accelerators = readers.accelerators;
  for (std::size_t ai = 0; ai < s.accelerators.size(); ++ai) {
    auto& acc = s.accelerators[ai];
    acc.workers = passes.workers[ai];
    acc.prefetch = timing.prefetch[ai];
    acc.au = au.accelerators[ai].au;
    acc.au_compute_s = au.accelerators[ai].compute_s;
    acc.au_wall_s = au.accelerators[ai].wall_s;
    acc.first_wait_s = au.accelerators[ai].first_wait_s;
  }
  s.epochs = passes.epochs;
  for (std::size_t pi = 0; pi < s.epochs.size(); ++pi)
    s.epochs[pi].steps = batches.steps_per_pass[pi];

  s.batches = batches.batches;
  s.batch_size = batches.batch_size;
  s.batches_from_read_bursts = batches.from_read_bursts;
  s.burst_gaps_s = batches.burst_gaps_s;
  s.stream_shards = batches.stream;
  const auto handovers = handover_counts(s.batches, s.accelerators);
  for (auto& p : s.processes)
    if (auto it = handovers.find(p.pid); it != handovers.end()) p.handovers = it->second;

  s.steps = checkpoints.steps;
  s.checkpoint_steps = checkpoints.checkpoint_steps;
  s.checkpoints = checkpoints.checkpoints;
  s.checkpoint_restore = checkpoints.restore;
  s.restore_bytes = checkpoints.restore_bytes;

  s.au = au.au;
  s.au_mean = au.au_mean;
  s.au_measured = au.measured;
  s.run_begin_ns = au.run_begin_ns;
  s.run_end_ns = au.run_end_ns;
  s.pass_startup_s = startup.pass_startup_s;
  s.startup_s = startup.startup_s;
  s.accelerator_starts_s = accelerator_starts(passes, readers, accesses);
  s.preprocess_gaps_s = samples.preprocess_gaps_s;
  s.preprocess_s = samples.preprocess_s;
  s.first_sample_spans_s = samples.first_sample_spans_s;
  s.sample_span_s = samples.sample_span_s;
  s.first_batch_s = timing.first_batch_s;
  s.prefetch = timing.run_prefetch;
  s.step_time = timing.step_time;
  s.compute_time = timing.compute_time;
  s.data_wait_time = timing.data_wait_time;
  s.consumer_time = timing.consumer_time;
  s.concurrency = concurrency(t, classified);
  s.gpu = gpu;
  s.au_gpu = au_gpu;

  s.notes = batches.notes;
  s.notes.insert(s.notes.end(), steps.notes.begin(), steps.notes.end());
  for (auto& n : final_notes(s)) s.notes.push_back(std::move(n));
  return s;
}

}  // namespace

TraceSummary summarize(const trace::Trace& original) {
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
  for (auto& sf : sample_files)
    for (const auto& m : mapped)
      if (trace.files[m.file].path == sf.path) {
        sf.mapped = true;
        sf.faults = m.faults;
        sf.fault_window = m.window;
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
