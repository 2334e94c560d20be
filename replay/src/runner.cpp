#include "dlgen/replay/runner.hpp"

#include <fcntl.h>
#include <sched.h>
#include <sys/socket.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <barrier>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "dlgen/core/progress.hpp"
#include "dlgen/core/units.hpp"
#include "dlgen/datasets/layout.hpp"
#include "dlgen/replay/checkpoint.hpp"
#include "dlgen/replay/metrics.hpp"
#include "batch_signal.hpp"

namespace dlgen::replay {
namespace {

std::uint64_t align_down(std::uint64_t v, std::uint64_t a) { return v / a * a; }
std::uint64_t align_up(std::uint64_t v, std::uint64_t a) { return (v + a - 1) / a * a; }

// Every file of one dataset, resolved once before the threads start: paths in one blob (no
// allocation per open), sizes, and where each sample lives.
struct FileTable {
  const datasets::Layout* layout = nullptr;
  std::string paths;  // NUL-terminated paths, back to back
  std::vector<std::uint64_t> path_at;
  std::vector<std::uint64_t> size;
  std::uint64_t total_bytes = 0;
  std::uint64_t max_size = 0;
  const char* path(std::uint64_t f) const { return paths.data() + path_at[f]; }
  datasets::Extent extent(std::uint64_t f, std::uint32_t s) const {
    return layout->sample_extent(f, s);
  }
};

FileTable make_table(const datasets::Layout& layout) {
  FileTable t;
  t.layout = &layout;
  const std::uint64_t n = layout.num_files();
  t.path_at.resize(n);
  t.size.resize(n);
  for (std::uint64_t f = 0; f < n; ++f) {
    t.path_at[f] = t.paths.size();
    t.paths += layout.path(f).string();
    t.paths.push_back('\0');
    t.size[f] = layout.file_size(f);
    t.total_bytes += t.size[f];
    t.max_size = std::max(t.max_size, t.size[f]);
  }
  return t;
}

// The accelerator ↔ worker hand-off: the worker counts batches it finished, the accelerator the
// batches it took; the worker may run ahead by `prefetch` batches. Each on its own cache line.
struct alignas(64) Handoff {
  std::atomic<std::uint64_t> produced{0};
  alignas(64) std::atomic<std::uint64_t> consumed{0};
  int signal_fd = -1;  // the worker's end of its accelerator's BatchSignal (-1: none)
};

// Wakes every thread of a phase that may wait on a hand-off (after `stop` was set, when some thread
// that would have woken it never started): accelerators see their batches "produced", workers their
// window released; both then see `stop` and end.
void stop_all(const std::vector<std::unique_ptr<Handoff[]>>& handoffs, std::uint32_t workers) {
  for (const auto& per : handoffs)
    for (std::uint32_t w = 0; w < workers; ++w) {
      per[w].produced.store(~std::uint64_t{0}, std::memory_order_release);
      per[w].produced.notify_all();
      per[w].consumed.store(~std::uint64_t{0} / 2, std::memory_order_release);
      per[w].consumed.notify_all();
    }
}

struct WorkerStats {
  LatencyHistogram latency;
  std::uint64_t bytes = 0, requests = 0, files = 0, samples = 0;
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
  std::uint64_t request_bytes = 0;  // chunk size of one request (aligned when direct)
  // reader.readahead (read = "sample"): bytes read at least from each sample's start (a library's
  // read-ahead, e.g. HDF5's 64 KiB sieve buffer); 0: the sample itself.
  std::uint64_t readahead_bytes = 0;
  std::uint64_t header_bytes = 0;
  std::uint64_t probe_bytes = 0;  // reader.probe: a read at offset 0 before the header and data
  bool direct = false;
  std::uint32_t block = 4096;
  std::uint32_t iodepth = 1;
  std::uint32_t workers = 1;
  std::uint32_t prefetch = 2;
  EngineKind engine = EngineKind::uring;
  const EngineFactory* factory = nullptr;  // RunOptions::engine_factory (empty: make_engine(engine))
  // reader.preprocess: per-sample worker time after the read (null: none).
  const Distribution* preprocess = nullptr;
  std::uint64_t preprocess_seed = 0;
  // reader.warmup: extra time on the worker's first sample of the phase.
  std::int64_t warmup_ns = 0;
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
      : cfg_(cfg), plan_(plan), index_(index), handoff_(handoff), shared_(shared), clock_(clock), stats_(stats) {}

  void run() {
    EngineOptions eo;
    eo.depth = cfg_.iodepth;
    eo.buffers = cfg_.iodepth;
    eo.buffer_bytes = cfg_.request_bytes;
    eo.alignment = cfg_.block;
    eo.clock = &clock_;
    auto made = cfg_.factory && *cfg_.factory ? (*cfg_.factory)(eo) : make_engine(cfg_.engine, eo);
    if (!made) {
      shared_.fail(made.error());
      finish();
      return;
    }
    engine_ = std::move(made.value());
    slots_.resize(cfg_.iodepth);
    fds_.init(cfg_.iodepth + 2, engine_.get());
    free_slots_.reserve(cfg_.iodepth);
    for (std::uint32_t i = cfg_.iodepth; i > 0; --i) free_slots_.push_back(i - 1);
    opens_.resize(cfg_.iodepth + 1);
    free_opens_.reserve(opens_.size());
    for (std::uint32_t i = static_cast<std::uint32_t>(opens_.size()); i > 0; --i) free_opens_.push_back(i - 1);
    batch_left_.assign(cfg_.prefetch + 1, 0);
    if (cfg_.preprocess || cfg_.warmup_ns > 0) {
      preprocessing_.reserve(cfg_.iodepth + 3);  // samples in flight when processing began, plus one
      clock_.prepare_thread();
    }
    pending_.reserve(cfg_.iodepth);
    completions_.resize(cfg_.iodepth);
    const std::uint64_t nb = plan_.num_batches();
    my_batches_ = nb > index_ ? (nb - index_ + cfg_.workers - 1) / cfg_.workers : 0;
    loop();
    drain();
    // Files, then the engine (its buffers with it): nothing is in flight any more, unless drain()
    // had to give up; then the engine and its buffers stay allocated (leaked on purpose: the
    // kernel may still write into them).
    fds_.close_all();
    if (in_flight_ > 0) (void)engine_.release();
    engine_.reset();
    finish();
  }

 private:
  // A request slot (and its buffer): the read [offset, end) of one sample.
  struct Slot {
    std::uint32_t open = 0;
    std::uint64_t offset = 0, end = 0;
    std::uint64_t useful_begin = 0, useful_end = 0;  // the bytes of this read that count
  };
  struct Open {
    int fd = -1;
    std::uint32_t pending = 0;
    bool issued_all = false;
    std::uint64_t batch = 0;  // local batch index
    std::uint64_t file = 0;
    std::uint32_t sample = 0;
  };

  void finish() {
    // Wake the accelerator even when we stopped early; it checks `stop`.
    handoff_.produced.store(shared_.stop.load() ? ~std::uint64_t{0} : delivered_);
    handoff_.produced.notify_all();
  }

  // Begins the next sample of the current batch: opens its file, sets up the byte range to read.
  bool start_sample() {
    const std::uint64_t k = index_ + started_ * cfg_.workers - cfg_.workers;  // current global batch
    const SampleRef ref = plan_.samples[plan_.batch_begin[k] + sample_in_batch_];
    ++sample_in_batch_;
    const char* path = cfg_.files->path(ref.file);
    // The null engine touches no file (tests run it on datasets that were never written).
    int fd = -1;
    if (const int rc = fds_.acquire(ref.file, path, O_RDONLY | O_CLOEXEC | (cfg_.direct ? O_DIRECT : 0), stats_.files, fd);
        rc < 0) {
      const int err = -rc;
      std::string msg = std::string(path) + ": open: " + std::strerror(err);
      if (err == ENOENT) msg += " (generate the dataset with `dlgen generate JOB.toml`)";
      if (err == EINVAL && cfg_.direct) msg += " (this file system does not support O_DIRECT)";
      shared_.fail(runtime_error(msg));
      return false;
    }
    const std::uint32_t o = free_opens_.back();
    free_opens_.pop_back();
    opens_[o] = {fd, 0, false, started_ - 1, ref.file, ref.sample};
    cur_open_ = o;
    file_size_ = cfg_.files->size[ref.file];
    std::uint64_t begin = 0, end = file_size_;
    if (cfg_.read_unit == ReadUnit::sample) {
      const datasets::Extent e = cfg_.files->extent(ref.file, ref.sample);
      begin = e.offset;
      end = e.offset + e.length;
      if (cfg_.readahead_bytes > e.length) end = std::min(file_size_, begin + cfg_.readahead_bytes);
    }
    // The sample's byte ranges, read in order, each split into requests of at most request_bytes
    // (the buffer size): reader.probe at 0, the header at 0, then the data.
    const std::uint64_t header = std::min(cfg_.header_bytes, file_size_);
    const std::uint64_t probe = cfg_.read_unit == ReadUnit::file ? std::min(cfg_.probe_bytes, file_size_) : 0;
    if (cfg_.read_unit == ReadUnit::file) begin = std::min(header, end);
    segments_ = 0;
    segment_at_ = 0;
    add_segment(0, probe);
    add_segment(0, header);
    add_segment(begin, end);
    return true;
  }

  // Adds the byte range [begin, end) of the current sample to read (O_DIRECT: whole blocks around
  // it; only the range's own bytes count as read).
  void add_segment(std::uint64_t begin, std::uint64_t end) {
    if (begin >= end) return;
    Segment& g = segment_[segments_++];
    g.useful_begin = begin;
    g.useful_end = end;
    g.next = cfg_.direct ? align_down(begin, cfg_.block) : begin;
    g.end = cfg_.direct ? align_up(end, cfg_.block) : end;
  }

  // The next request of the current sample into `r`: at most request_bytes (the buffer's size)
  // of the current range; marks the sample fully issued after its last range's last request.
  void next_request(IoRequest& r, Slot& s) {
    Open& o = opens_[cur_open_];
    Segment& g = segment_[segment_at_];
    r.fd = o.fd;
    r.op = IoOp::read;
    s.offset = g.next;
    s.end = g.next + std::min(cfg_.request_bytes, g.end - g.next);
    s.useful_begin = g.useful_begin;
    s.useful_end = g.useful_end;
    g.next = s.end;
    s.open = cur_open_;
    r.offset = s.offset;
    r.length = static_cast<std::uint32_t>(s.end - s.offset);
    ++o.pending;
    if (g.next >= g.end && ++segment_at_ == segments_) {
      o.issued_all = true;
      cur_open_ = kNone;
    }
  }

  void complete_sample(std::uint32_t oi) {
    Open& o = opens_[oi];
    fds_.release(o.file);
    o.fd = -1;
    free_opens_.push_back(oi);
    ++stats_.samples;
    // reader.warmup: the phase's first sample of this (freshly started) worker takes longer.
    const std::int64_t warmup = warmed_ ? 0 : cfg_.warmup_ns;
    warmed_ = true;
    if (!cfg_.preprocess && warmup == 0) {
      --batch_left_[o.batch % batch_left_.size()];
      return;
    }
    // reader.preprocess: the worker processes its samples one after another, each after its data
    // arrived; the sample counts for its batch when its processing ends. Sampled per (file, sample),
    // so every epoch and run draws the same time for the same sample.
    const double p = cfg_.preprocess ? sample_at(*cfg_.preprocess, cfg_.preprocess_seed, o.file * 0x100000001b3ull + o.sample) : 0.0;
    busy_until_ = std::max(busy_until_, clock_.now_ns()) + static_cast<std::int64_t>(std::max(0.0, p) * 1e9) + warmup;
    preprocessing_.push_back({busy_until_, o.batch});
  }

  // Counts the samples whose preprocessing has ended by now for their batches.
  void finish_preprocessing() {
    if (preprocessing_.empty()) return;
    const std::int64_t now = clock_.now_ns();
    std::size_t i = 0;
    while (i < preprocessing_.size() && preprocessing_[i].first <= now)
      --batch_left_[preprocessing_[i++].second % batch_left_.size()];
    preprocessing_.erase(preprocessing_.begin(), preprocessing_.begin() + static_cast<std::ptrdiff_t>(i));
  }

  void loop() {
    while (!shared_.stop.load(std::memory_order_relaxed)) {
      finish_preprocessing();
      // 1. Fill every free slot: the current sample's next request, the next sample, the next
      //    batch while the prefetch window allows; then hand what is pending to the engine.
      if (!fill()) return;
      if (!submit_pending()) return;
      deliver();
      if (in_flight_ == 0) {
        if (!pending_.empty()) continue;  // the engine took nothing yet (submit_pending backs off)
        if (!preprocessing_.empty()) {  // nothing to reap: wait for the sample being processed
          clock_.sleep_until(preprocessing_.front().first);
          continue;
        }
        if (delivered_ >= my_batches_) return;
        // Nothing to read until the accelerator takes a batch: wait for it.
        const std::uint64_t c = handoff_.consumed.load(std::memory_order_acquire);
        if (started_ >= c + cfg_.prefetch && !shared_.stop.load()) handoff_.consumed.wait(c);
        continue;
      }
      // 2. Reap: wait for at least one completion, take all that are there.
      if (!reap()) return;
      deliver();
    }
  }

  // Builds requests for the free slots into pending_; false after a failure (stop).
  bool fill() {
    while (!free_slots_.empty()) {
      if (cur_open_ == kNone) {
        const std::uint64_t k = index_ + started_ * cfg_.workers - cfg_.workers;
        if (started_ > 0 && sample_in_batch_ < plan_.batch(k).size()) {
          if (free_opens_.empty()) break;
          if (!preprocessing_.empty()) break;  // the worker is still processing its last sample
          if (!start_sample()) return false;
          if (segments_ == 0) {  // an empty sample
            opens_[cur_open_].issued_all = true;
            const std::uint32_t oi = cur_open_;
            cur_open_ = kNone;
            complete_sample(oi);
          }
          continue;
        }
        if (started_ >= my_batches_ || shared_.stop.load(std::memory_order_relaxed) ||
            started_ >= handoff_.consumed.load(std::memory_order_acquire) + cfg_.prefetch)
          break;
        batch_left_[started_ % batch_left_.size()] = plan_.batch(index_ + started_ * cfg_.workers).size();
        ++started_;
        sample_in_batch_ = 0;
        continue;
      }
      const std::uint32_t si = free_slots_.back();
      free_slots_.pop_back();
      IoRequest& r = pending_.emplace_back();
      next_request(r, slots_[si]);
      r.buffer = si;
      r.user_data = si;
    }
    return true;
  }

  // Hands pending requests to the engine. It may take fewer (its queue is full: they wait for the
  // next round) or refuse for now (-EAGAIN, -EBUSY, -EINTR: retried); false after a hard error.
  bool submit_pending() {
    if (pending_.empty()) return true;
    const int taken = engine_->submit(pending_);
    if (taken < 0 && !transient_error(taken)) {
      shared_.fail(runtime_error(std::string("I/O engine (") + engine_->name() + "): submit: " + std::strerror(-taken)));
      return false;
    }
    if (taken > 0) {
      pending_.erase(pending_.begin(), pending_.begin() + taken);
      in_flight_ += static_cast<std::uint64_t>(taken);
      shared_.in_flight->fetch_add(taken, std::memory_order_relaxed);
      refusals_ = 0;
      return true;
    }
    // Nothing taken. With requests in flight, reaping makes room; with none, back off and retry.
    if (in_flight_ == 0) return back_off("submit", taken < 0 ? taken : -EAGAIN);
    return true;
  }

  // After an engine refused with nothing in flight: yields, then sleeps (real time: the engine's
  // resources are real) and gives up after kMaxRefusals refusals in a row.
  bool back_off(const char* what, int rc) {
    if (++refusals_ > kMaxRefusals) {
      shared_.fail(runtime_error(std::string("I/O engine (") + engine_->name() + "): " + what + ": " +
                                 std::strerror(-rc) + " (" + std::to_string(kMaxRefusals) + " times in a row)"));
      return false;
    }
    if (refusals_ < 16) {
      std::this_thread::yield();
    } else {
      timespec ts{0, 1'000'000};
      ::nanosleep(&ts, nullptr);
    }
    return true;
  }

  // Takes the completions there are (waiting for at least one); false after a hard error or a
  // failed read (stop).
  bool reap() {
    const int got = engine_->reap({completions_.data(), completions_.size()}, 1);
    if (got < 0) {
      if (transient_error(got)) return back_off("reap", got);
      shared_.fail(runtime_error(std::string("I/O engine (") + engine_->name() + "): reap: " + std::strerror(-got)));
      return false;
    }
    if (got > 0) refusals_ = 0;
    in_flight_ -= static_cast<std::uint64_t>(got);
    shared_.in_flight->fetch_sub(got, std::memory_order_relaxed);
    shared_.requests->fetch_add(static_cast<std::uint64_t>(got), std::memory_order_relaxed);
    std::uint64_t bytes = 0;
    bool ok = true;
    for (int i = 0; i < got; ++i) {
      const IoCompletion& c = completions_[i];
      const auto si = static_cast<std::uint32_t>(c.user_data);
      Slot& s = slots_[si];
      Open& o = opens_[s.open];
      // Per request: the engine stamped its issue and completion (docs/metrics.md, Latency).
      stats_.latency.record(static_cast<std::uint64_t>(std::max<std::int64_t>(0, c.completed_ns - c.issued_ns)));
      ++stats_.requests;
      if (c.result < 0) {
        shared_.fail(runtime_error(std::string(cfg_.files->path(o.file)) + ": read at " + std::to_string(s.offset) +
                                   ": " + std::strerror(static_cast<int>(-c.result))));
        ok = false;
        continue;
      }
      const std::uint64_t got_end = s.offset + static_cast<std::uint64_t>(c.result);
      const std::uint64_t lo = std::max(s.offset, s.useful_begin);
      const std::uint64_t hi = std::min(got_end, s.useful_end);
      if (hi > lo) bytes += hi - lo;
      if (got_end < std::min(s.end, file_size_of(o))) {
        if (c.result == 0) {
          shared_.fail(runtime_error(std::string(cfg_.files->path(o.file)) + ": read at " + std::to_string(s.offset) +
                                     ": unexpected end of file (the file is shorter than the job's layout says; "
                                     "regenerate the dataset)"));
          ok = false;
          continue;
        }
        // A short read before the end: ask again for the rest, in the same slot. The bytes up to
        // got_end are counted; O_DIRECT re-reads from the block that holds got_end.
        s.useful_begin = std::max(s.useful_begin, got_end);
        s.offset = cfg_.direct ? align_down(got_end, cfg_.block) : got_end;
        pending_.push_back({o.fd, IoOp::read, si, static_cast<std::uint32_t>(s.end - s.offset), s.offset, si});
        continue;
      }
      free_slots_.push_back(si);
      if (--o.pending == 0 && o.issued_all) complete_sample(s.open);
    }
    stats_.bytes += bytes;
    shared_.bytes->fetch_add(bytes, std::memory_order_relaxed);
    return ok;
  }

  std::uint64_t file_size_of(const Open& o) const { return cfg_.files->size[o.file]; }

  // Publishes finished batches, in order.
  void deliver() {
    std::uint64_t d = delivered_;
    // A batch's count starts at its size and reaches 0 only when its last sample completed.
    while (d < started_ && batch_left_[d % batch_left_.size()] == 0) ++d;
    if (d != delivered_) {
      for (std::uint64_t j = delivered_; j < d; ++j)
        if (!BatchSignal::send(handoff_.signal_fd, index_ + j * cfg_.workers))
          shared_.signals_dropped.fetch_add(1, std::memory_order_relaxed);
      shared_.ready->fetch_add(static_cast<std::int64_t>(d - delivered_), std::memory_order_relaxed);
      delivered_ = d;
      handoff_.produced.store(d, std::memory_order_release);
      handoff_.produced.notify_one();
    }
  }

  // Before the engine goes (after the last batch, a stop or a failure): waits for every request
  // it holds, since the kernel may still write into their buffers. Requests never handed over
  // are dropped. Leaves in_flight_ > 0 only when the engine cannot tell (a hard reap error, or
  // refusals without end): then run() keeps the engine alive.
  void drain() {
    pending_.clear();
    refusals_ = 0;
    while (in_flight_ > 0) {
      const int got = engine_->reap({completions_.data(), completions_.size()}, 1);
      if (got < 0) {
        if (!transient_error(got) || ++refusals_ > kMaxRefusals) break;
        if (refusals_ >= 16) {
          timespec ts{0, 1'000'000};
          ::nanosleep(&ts, nullptr);
        }
        continue;
      }
      in_flight_ -= std::min<std::uint64_t>(in_flight_, static_cast<std::uint64_t>(got));
      shared_.in_flight->fetch_sub(got, std::memory_order_relaxed);
    }
  }

  static constexpr std::uint32_t kMaxRefusals = 2000;
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
  std::vector<IoRequest> pending_;  // built (or to retry), not yet taken by the engine
  std::vector<IoCompletion> completions_;
  std::uint64_t in_flight_ = 0;   // taken by the engine, not yet reaped
  std::uint32_t refusals_ = 0;    // transient refusals in a row
  std::uint64_t my_batches_ = 0;
  std::uint64_t started_ = 0;    // local batches begun
  std::uint64_t delivered_ = 0;  // local batches published
  std::uint64_t sample_in_batch_ = 0;
  std::uint32_t cur_open_ = kNone;
  std::int64_t busy_until_ = 0;  // reader.preprocess: the worker processes samples until then
  bool warmed_ = false;          // reader.warmup spent (on the phase's first sample)
  std::vector<std::pair<std::int64_t, std::uint64_t>> preprocessing_;  // (ends at, local batch), in order
  // The current sample's byte ranges (probe, header, data) and the one being issued.
  struct Segment {
    std::uint64_t next = 0, end = 0;  // the next request's offset; the range's end (block-aligned when direct)
    std::uint64_t useful_begin = 0, useful_end = 0;  // the bytes that count
  };
  std::array<Segment, 3> segment_{};
  std::uint32_t segments_ = 0, segment_at_ = 0;
  std::uint64_t file_size_ = 0;
};

// Runs checkpoints at step boundaries: every accelerator arrives, the last one in writes.
// The barrier also completes when the last accelerators leave it at the end of the phase; only a
// phase some accelerator entered for a checkpoint writes one.
struct CheckpointCompletion {
  std::function<void()>* fn;
  std::atomic<bool>* requested;
  void operator()() noexcept {
    if (requested->exchange(false)) (*fn)();
  }
};

struct PhaseOutcome {
  std::vector<std::vector<StepRecord>> steps;  // per accelerator
  WorkerStats stats;
  std::int64_t begin_ns = 0, end_ns = 0;
  std::uint64_t samples = 0;
  std::uint64_t signals_dropped = 0;
};

class Runner {
 public:
  Runner(const Job& job, const RunOptions& options, Clock& clock) : job_(job), options_(options), clock_(clock) {}

  Result<Report> run();

 private:
  Result<PhaseOutcome> run_phase(const EpochPlan& plan, const FileTable& files, bool eval, Progress* progress);
  void sampler();
  void drop_cache(const FileTable& files, std::vector<std::string>& warnings);

  const Job& job_;
  const RunOptions& options_;
  Clock& clock_;
  CheckpointResult checkpoint_;
  std::atomic<bool> realtime_{true};  // every accelerator thread got SCHED_FIFO
  std::int64_t deadline_ns_ = 0;   // run.max_time as a clock deadline (0: none)
  std::uint64_t global_step_ = 0;  // steps taken by accelerator 0, all epochs (checkpoint cadence)
  std::atomic<std::uint64_t> bytes_{0}, samples_{0}, requests_{0};
  std::atomic<std::int64_t> in_flight_{0}, ready_{0};
  std::mutex series_mu_;
  std::condition_variable series_cv_;
  bool series_stop_ = false;
  std::vector<SeriesPoint> series_;
};

Result<PhaseOutcome> Runner::run_phase(const EpochPlan& plan, const FileTable& files, bool eval, Progress* progress) {
  const ReaderSpec& rd = job_.reader;
  PhaseConfig cfg;
  cfg.files = &files;
  cfg.read_unit = rd.read_unit;
  cfg.header_bytes = rd.header_read_bytes;
  cfg.probe_bytes = rd.probe_bytes;
  cfg.direct = rd.direct;
  cfg.block = std::max<std::uint32_t>(options_.block_size, 512);
  cfg.iodepth = rd.iodepth > 0 ? rd.iodepth : kDefaultIodepth;
  cfg.workers = std::max<std::uint32_t>(rd.workers, 1);
  if (rd.preprocess.expected() > 0 || rd.preprocess.max > 0) {
    cfg.preprocess = &rd.preprocess;
    cfg.preprocess_seed = rd.seed ^ 0x70726570726f63ull;
  }
  cfg.warmup_ns = static_cast<std::int64_t>(rd.warmup_s * 1e9);
  // The window of batches a worker may run ahead: reader.prefetch, widened so that iodepth
  // requests can be in flight even when batches are small (batch 1 with iodepth 32 would
  // otherwise cap a worker at `prefetch` requests; the data is discarded, so this costs no memory).
  const std::uint32_t batch = std::max<std::uint32_t>(rd.batch_size, 1);
  cfg.prefetch = std::max<std::uint32_t>({rd.prefetch, 1, (cfg.iodepth + batch - 1) / batch + 1});
  cfg.engine = options_.engine;
  cfg.factory = &options_.engine_factory;
  // One request reads a whole sample unless the job sets a request size; a buffer per request in
  // flight, within the per-worker memory budget (larger samples take several requests).
  std::uint64_t want = rd.request_size_bytes > 0 ? rd.request_size_bytes : std::max<std::uint64_t>(files.max_size, 1);
  want = std::max({want, rd.header_read_bytes, rd.probe_bytes, rd.read_unit == ReadUnit::sample ? rd.readahead_bytes : 0});
  std::uint64_t budget = options_.buffer_budget_bytes;
  struct sysinfo si{};
  if (::sysinfo(&si) == 0) {
    const std::uint64_t threads = std::uint64_t{cfg.workers} * std::max<std::size_t>(plan.accelerators.size(), 1);
    budget = std::min<std::uint64_t>(budget, std::uint64_t{si.totalram} * si.mem_unit / 4 / threads);
  }
  const std::uint64_t cap = std::max<std::uint64_t>(budget / cfg.iodepth, 128 << 10);
  want = std::min<std::uint64_t>({want, cap, 1ull << 30});
  cfg.request_bytes = cfg.direct ? align_up(want, cfg.block) : want;
  if (rd.read_unit == ReadUnit::sample) cfg.readahead_bytes = rd.readahead_bytes;
  // A whole unaligned sample read with O_DIRECT may straddle one more block than its length.
  if (cfg.direct && rd.read_unit == ReadUnit::sample && rd.request_size_bytes == 0) cfg.request_bytes += cfg.block;

  PhaseShared shared;
  shared.bytes = &bytes_;
  shared.requests = &requests_;
  shared.in_flight = &in_flight_;
  shared.ready = &ready_;

  const std::size_t na = plan.accelerators.size();
  PhaseOutcome out;
  out.steps.resize(na);
  std::vector<std::unique_ptr<Handoff[]>> handoffs(na);
  std::vector<std::vector<WorkerStats>> stats(na, std::vector<WorkerStats>(cfg.workers));
  for (auto& h : handoffs) h = std::make_unique<Handoff[]>(cfg.workers);
  // Tokens that can wait on one accelerator's signal: every worker's window of batches, full.
  std::vector<std::unique_ptr<BatchSignal>> signals(na);
  for (auto& s : signals) s = std::make_unique<BatchSignal>(std::uint64_t{cfg.workers} * (cfg.prefetch + 1));
  for (std::size_t a = 0; a < na; ++a)
    for (std::uint32_t w = 0; w < cfg.workers; ++w) handoffs[a][w].signal_fd = signals[a]->send_fd();

  // Step-cadence checkpoints: a barrier over the accelerators; its completion writes.
  const CheckpointSpec& ck = job_.checkpoint;
  const bool step_ckpt = !eval && ck.enabled && ck.every_steps > 0;
  std::function<void()> write_fn = [&] {
    if (Result<void> r = write_checkpoint(ck, checkpoint_); !r) shared.fail(r.error());
  };
  std::atomic<bool> ckpt_requested{false};
  std::barrier<CheckpointCompletion> ckpt_barrier(static_cast<std::ptrdiff_t>(na),
                                                  CheckpointCompletion{&write_fn, &ckpt_requested});
  const std::uint64_t step_base = global_step_;
  const Distribution& dist = job_.compute.effective();
  const std::int64_t deadline = deadline_ns_;

  auto accelerator = [&](std::size_t a) {
    clock_.prepare_thread();
    if (::sched_getscheduler(0) != SCHED_FIFO) realtime_ = false;
    const AcceleratorPlan& ap = plan.accelerators[a];
    Handoff* h = handoffs[a].get();
    std::vector<StepRecord>& recs = out.steps[a];
    recs.reserve(ap.num_batches());
    Rng rng(mix_seed(mix_seed(mix_seed(rd.seed, 0xc0de), plan.epoch * 2 + (eval ? 1 : 0)), ap.global_id));
    for (std::uint64_t k = 0; k < ap.num_batches(); ++k) {
      Handoff& w = h[k % cfg.workers];
      const std::uint64_t j = k / cfg.workers;
      StepRecord r;
      r.wait_begin = clock_.now_ns();
      for (std::uint64_t p; (p = w.produced.load(std::memory_order_acquire)) <= j;) {
        if (shared.stop.load()) break;
        w.produced.wait(p);
      }
      if (shared.stop.load()) break;
      signals[a]->receive();
      r.ready = clock_.now_ns();
      w.consumed.store(j + 1, std::memory_order_release);
      w.consumed.notify_one();
      ready_.fetch_sub(1, std::memory_order_relaxed);
      r.compute_ns = static_cast<std::int64_t>(sample(dist, rng) * 1e9);
      if (r.compute_ns > 0) clock_.sleep_until(r.ready + r.compute_ns);
      r.end = clock_.now_ns();
      r.samples = static_cast<std::uint32_t>(ap.batch(k).size());
      samples_.fetch_add(ap.batch(k).size(), std::memory_order_relaxed);
      if (progress) progress->add(1);
      if (step_ckpt && (step_base + k + 1) % ck.every_steps == 0) {
        ckpt_requested.store(true);
        ckpt_barrier.arrive_and_wait();
        const std::int64_t t = clock_.now_ns();
        r.excluded_ns = t - r.end;
        r.end = t;
      }
      recs.push_back(r);
      if (deadline > 0 && r.end >= deadline) shared.stop.store(true);
    }
    if (step_ckpt) ckpt_barrier.arrive_and_drop();
    // Release workers blocked on a full prefetch window.
    for (std::uint32_t i = 0; i < cfg.workers; ++i) {
      h[i].consumed.store(~std::uint64_t{0} / 2, std::memory_order_release);
      h[i].consumed.notify_all();
    }
  };

  const std::int64_t t0 = clock_.now_ns();
  std::vector<std::thread> threads;
  threads.reserve(na * (cfg.workers + 1));
  std::vector<std::unique_ptr<Worker>> workers;
  for (std::size_t a = 0; a < na; ++a)
    for (std::uint32_t w = 0; w < cfg.workers; ++w)
      workers.push_back(std::make_unique<Worker>(cfg, plan.accelerators[a], w, handoffs[a][w], shared, clock_,
                                                 stats[a][w]));
  // reader.startup: readers begin that long after the phase starts (PyTorch re-forks DataLoader workers
  // each epoch); the accelerators wait for their first batch meanwhile, so the gap counts as data wait.
  const std::int64_t startup_ns = static_cast<std::int64_t>(rd.startup_s * 1e9);
  // Every worker, then every accelerator. std::thread throws when the system cannot start one
  // (threads or memory for stacks run out: many accelerators x workers); then the threads already
  // started are stopped and joined, and the run fails saying how many threads it needed.
  const std::size_t needed = workers.size() + na;
  std::size_t accelerators_started = 0;
  auto start = [&](auto&& body) {
    if (options_.before_thread_start) options_.before_thread_start(threads.size());
    threads.emplace_back(std::forward<decltype(body)>(body));
  };
  try {
    for (auto& w : workers)
      start([&w, this, t0, startup_ns] {
        if (startup_ns > 0) {
          clock_.prepare_thread();
          clock_.sleep_until(t0 + startup_ns);
        }
        w->run();
      });
    for (std::size_t a = 0; a < na; ++a, ++accelerators_started) start([&accelerator, a] { accelerator(a); });
  } catch (const std::system_error& e) {
    shared.fail(runtime_error("cannot start thread " + std::to_string(threads.size() + 1) + " of " +
                              std::to_string(needed) + ": " + e.code().message() +
                              "; lower run.accelerators or reader.workers"));
    stop_all(handoffs, cfg.workers);
    // Accelerators never started never reach the checkpoint barrier: leave it for them.
    if (step_ckpt)
      for (std::size_t a = accelerators_started; a < na; ++a) ckpt_barrier.arrive_and_drop();
  }
  for (auto& t : threads) t.join();
  out.begin_ns = t0;
  out.end_ns = clock_.now_ns();
  ready_.store(0);
  if (shared.error) return *shared.error;

  for (auto& per : stats)
    for (auto& s : per) {
      out.stats.latency.merge(s.latency);
      out.stats.bytes += s.bytes;
      out.stats.requests += s.requests;
      out.stats.files += s.files;
    }
  for (std::size_t a = 0; a < na; ++a)
    for (std::size_t k = 0; k < out.steps[a].size(); ++k) out.samples += plan.accelerators[a].batch(k).size();
  if (!eval && !out.steps.empty()) global_step_ += out.steps[0].size();
  out.signals_dropped = shared.signals_dropped.load();
  return out;
}

void Runner::sampler() {
  using namespace std::chrono;
  const auto start = steady_clock::now();
  std::uint64_t last_b = 0, last_s = 0, last_r = 0;
  std::unique_lock lock(series_mu_);
  for (int i = 1; !series_stop_; ++i) {
    if (series_cv_.wait_until(lock, start + seconds(i), [&] { return series_stop_; })) break;
    SeriesPoint p;
    p.t_s = duration<double>(steady_clock::now() - start).count();
    const std::uint64_t b = bytes_.load(), s = samples_.load(), r = requests_.load();
    p.bytes = b - last_b;
    p.samples = s - last_s;
    p.requests = r - last_r;
    last_b = b;
    last_s = s;
    last_r = r;
    p.in_flight = static_cast<std::uint32_t>(std::max<std::int64_t>(0, in_flight_.load()));
    p.ready_batches = static_cast<std::uint32_t>(std::max<std::int64_t>(0, ready_.load()));
    series_.push_back(p);
  }
}

void Runner::drop_cache(const FileTable& files, std::vector<std::string>& warnings) {
  for (std::uint64_t f = 0; f < files.size.size(); ++f) {
    const int fd = ::open(files.path(f), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    ::close(fd);
  }
  if (options_.drop_caches_globally && ::geteuid() == 0) {
    ::sync();
    const int fd = ::open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
    if (fd < 0 || ::write(fd, "1", 1) != 1) {
      if (warnings.empty() || warnings.back().find("drop_caches") == std::string::npos)
        warnings.push_back("cannot write /proc/sys/vm/drop_caches; dropped the dataset's pages with fadvise only");
    }
    if (fd >= 0) ::close(fd);
  }
}

Result<Report> Runner::run() {
  Report rep;
  rep.job_name = job_.name.empty() ? job_.source.stem().string() : job_.name;
  rep.engine = to_string(options_.engine);
  rep.accelerator = job_.compute.accelerator;
  rep.accelerators = job_.run.accelerators;
  rep.workers = job_.reader.workers;
  rep.iodepth = job_.reader.iodepth > 0 ? job_.reader.iodepth : kDefaultIodepth;
  rep.epochs = job_.run.epochs;
  rep.direct = job_.reader.direct;
  rep.cache_mode = to_string(job_.run.cache);

  if (Result<void> p = probe_engine(options_.engine); !p) return p.error();

  const datasets::Layout layout(job_.dataset);
  const FileTable train = make_table(layout);
  std::optional<datasets::Layout> eval_layout;
  FileTable eval_files;
  const bool do_eval = job_.validation.has_value() && job_.run.eval_every_epochs > 0;
  if (do_eval) {
    eval_layout.emplace(*job_.validation);
    eval_files = make_table(*eval_layout);
  }
  rep.dataset_bytes = train.total_bytes;
  struct sysinfo si{};
  if (::sysinfo(&si) == 0) rep.ram_bytes = std::uint64_t{si.totalram} * si.mem_unit;
  rep.dataset_fits_in_ram = rep.ram_bytes > 0 && rep.dataset_bytes < 5 * rep.ram_bytes;
  if (rep.dataset_fits_in_ram)
    rep.warnings.push_back("the dataset (" + format_size(rep.dataset_bytes) + ") is smaller than 5x RAM (" +
                           format_size(rep.ram_bytes) + "): " +
                           (job_.reader.direct ? "O_DIRECT bypasses the page cache, but MLPerf Storage still"
                                               : "reads after the first may come from the page cache; MLPerf Storage") +
                           " requires a dataset of at least 5x RAM for a valid result");

  std::thread sampler_thread;
  if (options_.series) {
    try {
      sampler_thread = std::thread([this] { sampler(); });
    } catch (const std::system_error& e) {
      return runtime_error(std::string("cannot start the time-series thread: ") + e.code().message());
    }
  }
  auto stop_sampler = [&] {
    if (!sampler_thread.joinable()) return;
    {
      std::lock_guard lock(series_mu_);
      series_stop_ = true;
    }
    series_cv_.notify_all();
    sampler_thread.join();
  };
  auto fail = [&](const Error& e) -> Result<Report> {
    stop_sampler();
    return e;
  };

  // The runner records; compute_report (metrics.cpp) computes every figure from the record.
  RunRecord rec;
  rec.au_threshold = job_.compute.au_threshold;
  rec.cpus = online_cpus();
  rec.cpu_begin = read_cpu_sample();
  rec.begin_ns = clock_.now_ns();
  if (job_.run.max_seconds > 0) deadline_ns_ = rec.begin_ns + static_cast<std::int64_t>(job_.run.max_seconds * 1e9);
  auto record = [&](PhaseOutcome&& ph, std::uint32_t epoch, bool eval, const EpochPlan& plan) {
    if (rec.accelerator_ids.empty())
      for (const auto& a : plan.accelerators) rec.accelerator_ids.push_back(a.global_id);
    PhaseRecord pr;
    pr.epoch = epoch;
    pr.eval = eval;
    pr.begin_ns = ph.begin_ns;
    pr.end_ns = ph.end_ns;
    pr.steps = std::move(ph.steps);
    pr.samples = ph.samples;
    pr.bytes = ph.stats.bytes;
    pr.requests = ph.stats.requests;
    pr.files = ph.stats.files;
    pr.latency = ph.stats.latency;
    rec.phases.push_back(std::move(pr));
    rep.batch_signals_dropped += ph.signals_dropped;
  };

  if (job_.checkpoint.enabled && job_.checkpoint.restore)
    if (Result<void> r = restore_checkpoint(job_.checkpoint, checkpoint_); !r) return fail(r.error());
  if (job_.run.cache == CacheMode::drop_start || job_.run.cache == CacheMode::drop_epoch) drop_cache(train, rep.warnings);

  for (std::uint32_t e = 0; e < job_.run.epochs; ++e) {
    if (job_.run.cache == CacheMode::drop_epoch && e > 0) drop_cache(train, rep.warnings);
    const EpochPlan plan = plan_epoch(job_, e, options_.topology);
    std::optional<Progress> progress;
    if (options_.progress)
      progress.emplace("epoch " + std::to_string(e + 1) + "/" + std::to_string(job_.run.epochs),
                       plan.num_steps() * plan.accelerators.size(), "steps");
    Result<PhaseOutcome> r = run_phase(plan, train, false, progress ? &*progress : nullptr);
    progress.reset();
    if (!r) return fail(r.error());
    record(std::move(*r), e + 1, false, plan);

    if (job_.checkpoint.enabled && job_.checkpoint.every_epochs > 0 && (e + 1) % job_.checkpoint.every_epochs == 0)
      if (Result<void> w = write_checkpoint(job_.checkpoint, checkpoint_); !w) return fail(w.error());

    if (do_eval && (e + 1) % job_.run.eval_every_epochs == 0) {
      const EpochPlan ep = plan_eval(job_, e, options_.topology);
      Result<PhaseOutcome> ev = run_phase(ep, eval_files, true, nullptr);
      if (!ev) return fail(ev.error());
      record(std::move(*ev), e + 1, true, ep);
    }
    if (deadline_ns_ > 0 && clock_.now_ns() >= deadline_ns_) {
      rep.warnings.push_back("stopped at run.max_time (" + format_duration(job_.run.max_seconds) + ")");
      break;
    }
  }
  rec.end_ns = clock_.now_ns();
  rec.cpu_end = read_cpu_sample();
  stop_sampler();
  rep.series = std::move(series_);
  rec.checkpoint = checkpoint_;
  rec.realtime = realtime_.load() && !rec.accelerator_ids.empty();
  if (rep.batch_signals_dropped > 0)
    rep.warnings.push_back(std::to_string(rep.batch_signals_dropped) +
                           " batch hand-over tokens were dropped (their socket was full): a trace of this replay "
                           "misses that many batch boundaries");
  compute_report(rec, rep);
  return rep;
}

}  // namespace

Result<Report> run_job(const Job& job, const RunOptions& options) {
  RealClock real;
  Clock& clock = options.clock ? *options.clock : real;
  Runner runner(job, options, clock);
  return runner.run();
}

}  // namespace dlgen::replay
