#pragma once
// A Profile is what `dlgen compare` measures in one trace: the semantics of its I/O (bytes, sizes,
// order, concurrency, timing, checkpoints), independent of the syscalls used. The original run
// reads with read()/pread() from forked DataLoader workers; the replay with io_uring from threads
// of one process — both become the same Profile fields. Sizes are bytes, times seconds.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dlgen/compare/stats.hpp"
#include "dlgen/trace/trace.hpp"

namespace dlgen::analysis {
struct TraceSummary;
}

namespace dlgen::compare {

// One training epoch (or, in Profile::eval_passes, one evaluation pass) as seen in the trace.
struct EpochProfile {
  double start_s = 0;
  double duration_s = 0;
  double bytes_read = 0;  // data files only
  double read_ops = 0;
  double files_read = 0;      // distinct data files touched
  double reads_per_file = 0;  // bytes read / bytes of the distinct files read: 1.0 = each file once
  double steps = 0;
  std::vector<std::uint32_t> order;  // data file index (rank in path order) by first read
};

struct Profile {
  std::string label;  // "original", "replay" or the trace's path

  // Volume (data files only, except bytes_written which counts checkpoints and other outputs).
  double bytes_read = 0;
  double bytes_written = 0;
  // Bytes read from files that are neither the datasets nor code, libraries or checkpoints (a mask
  // or annotation per sample in another directory, a label file): data the job does not model.
  double other_bytes_read = 0;
  double files_read = 0;
  double read_ops = 0;
  double opens = 0;                   // opens of data files
  double stats = 0;                   // stat-family calls (metadata load), any path
  std::vector<double> request_sizes;  // bytes per data read request

  // Access order.
  double sequential_fraction = 0;  // reads starting where the previous read of that file ended
  double order_vs_path =
      0;  // Spearman correlation of first-read order with path order (mean over epochs): 1 = sorted
  double epoch_order_similarity =
      1;  // Spearman correlation between consecutive epochs' orders: 1 = no reshuffle
  double reads_per_file = 0;  // mean over epochs of EpochProfile::reads_per_file

  // Concurrency.
  std::vector<WeightedValue>
      inflight;        // I/Os in flight → seconds spent at that count (busy or not)
  double readers = 0;  // tasks (processes or threads) that issue data reads

  // Timing.
  double duration_s = 0;             // first to last data read
  std::vector<double> step_times_s;  // per training step, batch to batch at the consumer
  // Steps whose interval held a checkpoint (set apart from step_times_s and eval_step_times_s):
  // the steps taken (batches consumed) are those and these.
  std::uint64_t held_steps = 0, held_eval_steps = 0;
  std::vector<double> data_wait_s;   // per training step, time the consumer waited for data
  std::vector<double> compute_s;     // per training step, gap between batches computing
  std::vector<double> consumer_s;  // per training step, the consumer's own cost (receive, collate)
  // Per training step, whether it is in a steady-state training pass (all but the first, when
  // there are two or more: the first holds one-time costs such as worker start-up, the CUDA
  // context, cuDNN's autotuning and kernel loading). The timing rows judge those steps; empty:
  // every step is.
  std::vector<char> step_steady;
  std::vector<double> throughput_t_s;    // bin start times since the first data read
  std::vector<double> throughput_mib_s;  // data MiB/s per bin
  double throughput_bin_s = 0;
  // AU, as `dlgen run` and `dlgen distil` define it (docs/metrics.md): per accelerator, compute /
  // wall from its first batch to the run's end; `au` is the lowest accelerator's. Measured only
  // when the trace shows steps (batch handovers).
  double au = 0;
  bool au_measured = false;
  std::vector<double> accelerator_au;  // per accelerator that received batches
  // AU over the steady state (docs/fidelity.md): the same arithmetic from the start of the second
  // training pass to the run's end, over the steps from there on; unset with fewer than two
  // training passes (then `au` is the steady state's). What the au row judges.
  std::optional<double> au_steady;
  // The original's AU measured on the GPU (TraceSummary::au_gpu, docs/metrics.md): only where the
  // trace has CUDA events; reported beside the AU row, never judged.
  double au_gpu = 0;
  bool au_gpu_measured = false;

  // Objects read over HTTP (a trace's /http rows: an S3 store's GETs, a program's through boto3
  // or a replay's through dlgen's s3 engine): per GET answered 2xx, its time to first byte and
  // to last byte, seconds from the send that began it (docs/trace-format.md). Empty in a trace
  // without HTTP, and in a Profile made from a summary alone.
  std::vector<double> s3_first_byte_s, s3_last_byte_s;

  // Checkpoints.
  double checkpoints = 0;
  double checkpoint_bytes = 0;             // mean bytes per checkpoint
  std::vector<double> checkpoint_start_s;  // when each checkpoint began
  std::vector<double>
      checkpoint_write_s;  // how long each took (first write to last write/fsync end)
  double fsyncs = 0;       // fsync/fdatasync calls on checkpoint files
  // Bytes copied between checkpoint files over the run (sendfile/copy_file_range: a best model
  // copied with shutil.copyfile), a step of their own next to the checkpoints' writes.
  double checkpoint_copy_bytes = 0;

  // Device level (only with --block on both sides).
  // With a trace whose block events name their file (dlgen >= 0.9: the page owner), block_bytes
  // and block_requests count only the dataset's files (what a replay must reproduce; the program's
  // own libraries and the interpreter loading from a cold cache are left out) and
  // block_attributed is set; older traces count every block request of the traced processes.
  bool has_block = false;
  bool block_attributed = false;
  double block_bytes = 0;
  double block_requests = 0;
  double block_all_bytes = 0;  // every block request of the traced processes, attributed or not
  // Dataset bytes the device moved per dataset byte the program read: 0 all from the page cache,
  // about 1 all from the device (more with readahead beyond what was read). Needs attribution.
  double device_read_fraction = 0;

  // Events the capture lost (every count above is then a lower bound): the total, and by reason
  // where the trace recorded them (profile_of(trace, ...)).
  std::uint64_t lost_events = 0;
  trace::LostEvents lost;

  std::vector<EpochProfile> epochs;  // training epochs, in time order

  // Evaluation (validation passes), compared on their own rows: the training figures above leave
  // them out.
  std::vector<EpochProfile> eval_passes;  // in time order
  double eval_files_read = 0;             // distinct validation files read
  std::vector<double> eval_step_times_s;  // per evaluation step, batch to batch
  std::vector<double> eval_compute_s;     // per evaluation step, computing

  std::vector<std::string> notes;  // what could not be measured and why
};

// Measures a trace from its shared summary (also used by `dlgen distil`), which decides which files
// are data, where epochs and steps are and what is a checkpoint.
Profile profile_of(const analysis::TraceSummary& summary);
// As above, refined with what the summary does not hold, measured from the events: the sequential
// fraction, stat calls on data files, and throughput in bins finer than a second.
Profile profile_of(const trace::Trace& trace, const analysis::TraceSummary& summary);

}  // namespace dlgen::compare
