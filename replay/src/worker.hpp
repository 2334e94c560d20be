#pragma once
// One reader worker of the replay and what it shares with the runner: the file table, the
// accelerator <-> worker hand-off, the phase's shared state and configuration, the worker's open
// files. Private to the replay library (pass.cpp starts the workers).
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dlgen/core/distribution.hpp"
#include "dlgen/core/job.hpp"
#include "dlgen/core/result.hpp"
#include "dlgen/datasets/layout.hpp"
#include "dlgen/datasets/parquet.hpp"
#include "dlgen/engine/backoff.hpp"
#include "dlgen/engine/engine.hpp"
#include "dlgen/engine/registry.hpp"
#include "dlgen/engine/s3.hpp"
#include "dlgen/replay/clock.hpp"
#include "dlgen/replay/plan.hpp"
#include "dlgen/replay/report.hpp"
#include "row_group_reads.hpp"

namespace dlgen::replay {

// The engine's vocabulary, spoken throughout the workers.
using engine::EngineFactory;
using engine::EngineOptions;
using engine::IoCompletion;
using engine::IoEngine;
using engine::IoOp;
using engine::IoRequest;
using engine::transient_error;

inline std::uint64_t align_down(std::uint64_t v, std::uint64_t a) {
  return v / a * a;
}
inline std::uint64_t align_up(std::uint64_t v, std::uint64_t a) {
  return (v + a - 1) / a * a;
}

// Every file of one dataset, resolved once before the threads start: paths in one blob (no
// allocation per open), sizes, and where each sample lives.
struct FileTable {
  const datasets::Layout* layout = nullptr;
  std::string paths;  // NUL-terminated paths, back to back
  std::vector<std::uint64_t> path_at;
  std::vector<std::uint64_t> size;
  std::uint64_t total_bytes = 0;
  std::uint64_t max_size = 0;
  std::uint64_t max_sample = 0;  // the longest sample extent (Layout::largest_sample_extent)
  const char* path(std::uint64_t f) const { return paths.data() + path_at[f]; }
  datasets::Extent extent(std::uint64_t f, std::uint32_t s) const {
    return layout->sample_extent(f, s);
  }
};

// The accelerator ↔ worker hand-off: the worker counts batches it finished, the accelerator the
// batches it took; the worker may run ahead by `prefetch` batches. Each on its own cache line.
struct alignas(64) Handoff {
  std::atomic<std::uint64_t> produced{0};
  alignas(64) std::atomic<std::uint64_t> consumed{0};
  int signal_fd = -1;  // the worker's end of its accelerator's BatchSignal (-1: none)
};

struct WorkerStats {
  LatencyHistogram latency;
  std::uint64_t bytes = 0, requests = 0, files = 0, samples = 0;
  // What the worker's engine did on the wire when it is an object store's (the s3 engine).
  std::optional<engine::S3Counters> s3;
};

// State shared by every thread of one phase (an epoch or an evaluation pass).
struct PhaseShared {
  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> signals_dropped{0};  // BatchSignal tokens dropped (socket full)
  std::mutex error_mu;
  std::optional<Error> error;
  // Live counters for the time series and progress, updated once per reap batch.
  std::atomic<std::uint64_t>* bytes;
  std::atomic<std::uint64_t>* requests;
  std::atomic<std::int64_t>* in_flight;
  std::atomic<std::int64_t>* ready;

  void fail(Error e) {
    {
      std::lock_guard lock(error_mu);
      if (!error) error = std::move(e);
    }
    stop.store(true);
  }
};

struct PhaseConfig {
  const FileTable* files = nullptr;
  ReadUnit read_unit = ReadUnit::file;
  // read = "row_group" in a training pass with a sample shuffle: the row groups each batch's rows
  // fall in (ShuffledRowGroups), not a stream of each file's groups in order.
  bool shuffled_rows = false;
  std::uint64_t request_bytes = 0;  // chunk size of one request (aligned when direct)
  // reader.readahead (read = "sample"): bytes read at least from each sample's start (a library's
  // read-ahead, e.g. HDF5's 64 KiB sieve buffer); 0: the sample itself.
  std::uint64_t readahead_bytes = 0;
  std::uint64_t header_bytes = 0;
  std::uint64_t probe_bytes = 0;
  // read = "stream": the reader's buffer fill (request_size): a batch's bytes are read in whole
  // fills, as a buffered reader reads; 0: exactly the batch's bytes.
  std::uint64_t stream_fill_bytes = 0;
  // reader.stream_granule: read = "stream": a batch's burst ends on it; read = "sample": a
  // sample's read ends on it (whole fills from the sample's start). read = "stream":
  // reader.stream_tail (read on its own after a shard's last batch) and reader.stream_head (the
  // granule's grid starts that many bytes before the shard). 0: none.
  std::uint64_t stream_granule_bytes = 0, stream_tail_bytes = 0, stream_head_bytes = 0;
  // read = "file": each sample file's steps (reader.recipe, or legacy_recipe of probe, header and
  // request size); null with read = "sample".
  const Recipe* recipe = nullptr;
  // A sample's requests are dependent (reader.recipe set): its next request is issued only after
  // the previous one completed, as the library issues them; other samples of the worker proceed
  // meanwhile (up to iodepth requests in flight). false: a sample's requests are issued at once.
  bool dependent = false;
  bool direct = false;
  std::uint32_t block = 4096;
  std::uint32_t iodepth = 1;
  std::uint32_t workers = 1;
  std::uint32_t prefetch = 2;
  std::string engine{engine::default_name()};  // RunOptions::engine
  const EngineFactory* factory =
      nullptr;  // RunOptions::engine_factory (empty: engine::make(engine))
  // reader.preprocess: per-sample worker time after the read (null: none).
  const Distribution* preprocess = nullptr;
  std::uint64_t preprocess_seed = 0;
  // reader.collate: per-batch worker time after its last sample is processed (null: none).
  const Distribution* collate = nullptr;
  // reader.worker_pace: worker i's factor on its preprocess and collate times (empty: 1).
  std::vector<double> pace;
  // reader.warmup: extra time on the worker's first sample of the phase.
  std::int64_t warmup_ns = 0;
  // dataset.load = "memory": the samples are in memory (the run read the files once before its
  // first epoch, load.cpp); a worker opens and reads nothing, it only preprocesses and collates.
  bool in_memory = false;
};

// Open files of one worker, reused while samples of the same file follow each other (multi-sample
// files read per sample) and closed when evicted (least recently used first). Sized once to
// iodepth + 2 entries (at most iodepth + 1 samples hold a file), linear lookup, no allocation.
// Files are opened and closed by the engine (the null engine opens none: fd -1, which is a
// valid "no file", never an error; errors come back apart, as -errno).
class FdCache {
 public:
  void init(std::size_t n, IoEngine* engine) {
    e_.resize(n);
    engine_ = engine;
  }
  // Sets `fd` to the file's fd (opening it when absent) and holds a reference: 0, or -errno when
  // the open failed.
  int acquire(std::uint64_t file, const char* path, int flags, std::uint64_t& opened, int& fd) {
    ++tick_;
    int victim = -1;
    for (int i = 0; i < static_cast<int>(e_.size()); ++i) {
      Entry& e = e_[i];
      if (e.open && e.file == file) {
        ++e.refs;
        e.used = tick_;
        fd = e.fd;
        return 0;
      }
      if (e.refs == 0 && (victim < 0 || e_[victim].used > e.used)) victim = i;
    }
    if (victim < 0) return -EMFILE;  // cannot happen: at most iodepth+1 samples hold references
    Entry& v = e_[victim];
    close(v);
    if (const int rc = engine_->open_file(path, flags, fd); rc < 0) return rc;
    ++opened;
    v = {file, fd, true, 1, tick_};
    return 0;
  }
  void release(std::uint64_t file) {
    for (Entry& e : e_)
      if (e.open && e.file == file && e.refs > 0) {
        --e.refs;
        return;
      }
  }
  // Closes every file (before the engine goes).
  void close_all() {
    for (Entry& e : e_) close(e);
  }
  ~FdCache() { close_all(); }

 private:
  struct Entry {
    std::uint64_t file = 0;
    int fd = -1;
    bool open = false;
    std::uint32_t refs = 0;
    std::uint64_t used = 0;
  };
  void close(Entry& e) {
    if (e.open) engine_->close_file(e.fd);
    e.open = false;
    e.fd = -1;
  }
  std::vector<Entry> e_;
  IoEngine* engine_ = nullptr;
  std::uint64_t tick_ = 0;
};

// One reader worker: reads batches w, w+W, w+2W... of one accelerator's plan with up to iodepth
// requests in flight, and publishes finished batches in order. Allocation-free after set-up.
class Worker {
 public:
  Worker(const PhaseConfig& cfg, const AcceleratorPlan& plan, std::uint32_t index, Handoff& handoff,
         PhaseShared& shared, Clock& clock, WorkerStats& stats)
      : cfg_(cfg),
        plan_(plan),
        index_(index),
        handoff_(handoff),
        shared_(shared),
        clock_(clock),
        stats_(stats) {}

  void run();

 private:
  // A request slot (and its buffer): the read [offset, end) of one sample.
  struct Slot {
    std::uint32_t open = 0;
    std::uint64_t offset = 0, end = 0;
    std::uint64_t useful_begin = 0, useful_end = 0;  // the bytes of this read that count
  };
  // One byte range of a sample (a recipe step, or probe/header/data) and how far it is issued.
  struct Segment {
    std::uint64_t next = 0, end = 0;  // the next request's offset; the range's end (block-aligned
                                      // when direct)
    std::uint64_t cut = 0;            // a request starting before it ends there (~BLOCK); else end
    std::uint64_t chunk = 0;          // requests of at most this (0: the buffer's size)
    std::uint64_t align = 0, head = 0;  // @ALIGN pieces, each started with a ~BLOCK head
    std::uint64_t useful_begin = 0, useful_end = 0;  // the bytes that count
  };
  struct Open {
    int fd = -1;
    std::uint32_t pending = 0;
    bool issued_all = false;
    std::uint64_t batch = 0;  // local batch index
    std::uint64_t file = 0;
    std::uint32_t sample = 0;
    Segment* segment = nullptr;                  // the sample's ranges, in order (in segments_)
    std::uint32_t segments = 0, segment_at = 0;  // how many; the one being issued
  };

  void finish();

  // Begins the next sample of the current batch: opens its file, sets up the byte range to read.
  bool start_sample();
  bool start_in_memory(const SampleRef& ref);
  // read = "stream": the range sample `ref` of global batch `k` needs read (stream_end_).
  void stream_segment(Open& op, const SampleRef& ref, std::uint64_t k);
  std::uint64_t stream_burst_end(std::uint64_t end) const;

  // Adds the byte range [begin, end) to the sample's ranges to read, with its cut and chunk size
  // (O_DIRECT: whole blocks around it; only the range's own bytes count as read).
  void add_segment(Open& o, std::uint64_t begin, std::uint64_t end, std::uint64_t cut = ~0ull,
                   const RecipeStep* step = nullptr);

  // The next request of sample `oi` into `r`: at most request_bytes (the buffer's size) and the
  // range's chunk, ending at its cut; marks the sample fully issued after its last request.
  void next_request(std::uint32_t oi, IoRequest& r, Slot& s);

  void complete_sample(std::uint32_t oi);

  // Counts the samples whose preprocessing has ended by now for their batches.
  void finish_preprocessing();
  std::int64_t collate_ns(std::uint64_t batch) const;
  // This worker's reader.worker_pace factor (1 without one).
  double pace() const { return cfg_.pace.empty() ? 1.0 : cfg_.pace[index_ % cfg_.pace.size()]; }

  void loop();

  // Builds requests for the free slots into pending_; false after a failure (stop).
  bool fill();

  // Hands pending requests to the engine. It may take fewer (its queue is full: they wait for the
  // next round) or refuse for now (-EAGAIN, -EBUSY, -EINTR: retried); false after a hard error.
  bool submit_pending();

  // After an engine refused with nothing in flight: waits (engine::Backoff: yields, then sleeps in
  // real time, since the engine's resources are real) and gives up after kMaxRefusals refusals
  // in a row.
  bool back_off(const char* what, int rc);

  // Takes the completions there are (waiting for at least one); false after a hard error or a
  // failed read (stop).
  bool reap();

  std::uint64_t file_size_of(const Open& o) const;

  // Publishes finished batches, in order.
  void deliver();

  // Before the engine goes (after the last batch, a stop or a failure): waits for every request
  // it holds, since the kernel may still write into their buffers. Requests never handed over
  // are dropped. Leaves in_flight_ > 0 only when the engine cannot tell (a hard reap error, or
  // refusals without end): then run() keeps the engine alive.
  void drain();

  static constexpr std::uint32_t kNone = ~std::uint32_t{0};
  const PhaseConfig& cfg_;
  const AcceleratorPlan& plan_;
  const std::uint64_t index_;
  Handoff& handoff_;
  PhaseShared& shared_;
  Clock& clock_;
  WorkerStats& stats_;
  std::unique_ptr<IoEngine> engine_;
  FdCache fds_;
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_slots_;
  std::vector<Open> opens_;
  std::vector<std::uint32_t> free_opens_;
  std::vector<std::uint64_t> batch_left_;  // samples not yet read, per batch in the window
  std::vector<IoRequest> pending_;         // built (or to retry), not yet taken by the engine
  std::vector<IoCompletion> completions_;
  std::uint64_t in_flight_ = 0;  // taken by the engine, not yet reaped
  engine::Backoff backoff_;      // transient refusals in a row
  std::uint64_t my_batches_ = 0;
  std::uint64_t started_ = 0;    // local batches begun
  std::uint64_t delivered_ = 0;  // local batches published
  std::uint64_t sample_in_batch_ = 0;
  std::uint32_t cur_open_ = kNone;
  std::int64_t busy_until_ = 0;  // reader.preprocess: the worker processes samples until then
  bool warmed_ = false;          // reader.warmup spent (on the phase's first sample)
  std::vector<std::pair<std::int64_t, std::uint64_t>>
      preprocessing_;  // (ends at, local batch), in order
  // Every open's ranges, back to back: segments_per_open_ each (the recipe's steps, or 2).
  std::vector<Segment> segments_;
  std::uint32_t segments_per_open_ = 0;
  std::vector<datasets::parquet::Range> ranges_;  // read = "row_group": one sample's reads
  ShuffledRowGroups shuffled_;                    // cfg.shuffled_rows: what this worker read
  // cfg.dependent: samples begun whose requests are not all issued (at most iodepth + 1).
  std::vector<std::uint32_t> active_;
  std::uint64_t file_size_ = 0;
  // read = "stream": the shard being streamed and how far it has been read.
  std::uint64_t stream_file_ = ~std::uint64_t{0}, stream_end_ = 0;
};

}  // namespace dlgen::replay
