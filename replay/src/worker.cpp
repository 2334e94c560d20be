#include "worker.hpp"

#include <fcntl.h>
#include <time.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <thread>

#include "batch_signal.hpp"
#include "dlgen/datasets/parquet.hpp"
#include "dlgen/engine/registry.hpp"
#include "dlgen/engine/s3.hpp"

namespace dlgen::replay {

void Worker::run() {
  EngineOptions eo;
  eo.depth = cfg_.iodepth;
  eo.buffers = cfg_.iodepth;
  eo.buffer_bytes = cfg_.request_bytes;
  eo.alignment = cfg_.block;
  eo.clock = &clock_;
  auto made = cfg_.factory && *cfg_.factory ? (*cfg_.factory)(eo) : engine::make(cfg_.engine, eo);
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
  segments_per_open_ = static_cast<std::uint32_t>(
      cfg_.read_unit == ReadUnit::file ? std::max<std::size_t>(cfg_.recipe->size(), 1)
      : cfg_.read_unit == ReadUnit::row_group
          ? datasets::parquet::max_row_group_reads(*cfg_.files->layout->parquet())
          : 2);
  if (cfg_.read_unit == ReadUnit::row_group) ranges_.resize(segments_per_open_);
  if (cfg_.shuffled_rows) {
    std::uint64_t largest = 1;
    for (std::size_t k = 0; k < plan_.num_batches(); ++k)
      largest = std::max(largest, plan_.batch_size(k));
    shuffled_.init(*cfg_.files->layout->parquet(), cfg_.files->size.size(), largest);
  }
  segments_.resize(opens_.size() * segments_per_open_);
  for (std::size_t i = 0; i < opens_.size(); ++i)
    opens_[i].segment = segments_.data() + i * segments_per_open_;
  for (std::uint32_t i = static_cast<std::uint32_t>(opens_.size()); i > 0; --i)
    free_opens_.push_back(i - 1);
  batch_left_.assign(cfg_.prefetch + 1, 0);
  if (cfg_.preprocess || cfg_.collate || cfg_.warmup_ns > 0) {
    preprocessing_.reserve(cfg_.iodepth + 3);  // samples in flight when processing began, plus one
    clock_.prepare_thread();
  }
  pending_.reserve(cfg_.iodepth);
  active_.reserve(opens_.size());
  completions_.resize(cfg_.iodepth);
  const std::uint64_t nb = plan_.num_batches();
  my_batches_ = nb > index_ ? (nb - index_ + cfg_.workers - 1) / cfg_.workers : 0;
  loop();
  drain();
  // Files, then the engine (its buffers with it): nothing is in flight any more, unless drain()
  // had to give up; then the engine and its buffers stay allocated (leaked on purpose: the
  // kernel may still write into them).
  fds_.close_all();
  if (const engine::S3Counters* wire = engine::s3_counters(*engine_)) stats_.s3 = *wire;
  if (in_flight_ > 0) (void)engine_.release();
  engine_.reset();
  finish();
}

void Worker::finish() {
  // Wake the accelerator even when we stopped early; it checks `stop`.
  handoff_.produced.store(shared_.stop.load() ? ~std::uint64_t{0} : delivered_);
  clock_.notify(handoff_.produced);
}

bool Worker::start_sample() {
  const std::uint64_t k = index_ + started_ * cfg_.workers - cfg_.workers;  // current global batch
  const SampleRef ref = plan_.sample(k, sample_in_batch_);
  ++sample_in_batch_;
  if (cfg_.in_memory) return start_in_memory(ref);
  const char* path = cfg_.files->path(ref.file);
  // The null engine touches no file (tests run it on datasets that were never written).
  int fd = -1;
  if (const int rc = fds_.acquire(
          ref.file, path, O_RDONLY | O_CLOEXEC | (cfg_.direct ? O_DIRECT : 0), stats_.files, fd);
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
  Open& op = opens_[o];
  op.fd = fd;
  op.pending = 0;
  op.issued_all = false;
  op.batch = started_ - 1;
  op.file = ref.file;
  op.sample = ref.sample;
  op.segments = 0;
  op.segment_at = 0;
  cur_open_ = o;
  file_size_ = cfg_.files->size[ref.file];
  if (cfg_.read_unit == ReadUnit::file) {
    // The recipe's steps, in order (reader.recipe, or probe, header and data).
    for (const RecipeStep& st : *cfg_.recipe) {
      const StepRange r = step_range(st, file_size_);
      add_segment(op, r.begin, r.end, r.cut, &st);
    }
    return true;
  }
  if (cfg_.read_unit == ReadUnit::row_group) {
    // A Parquet reader: the row group's selected column chunks when this row starts the group
    // (the footer first in the file's first group); the group's other rows cost no read. With a
    // sample shuffle: the row's group unless this batch read it already (row_group_reads.hpp).
    const std::size_t n = cfg_.shuffled_rows
                              ? shuffled_.reads(ref.file, ref.sample, k, ranges_.data())
                              : datasets::parquet::row_group_reads(*cfg_.files->layout->parquet(),
                                                                   ref.sample, ranges_.data());
    for (std::size_t i = 0; i < n; ++i)
      add_segment(op, ranges_[i].offset, ranges_[i].offset + ranges_[i].length);
    return true;
  }
  if (cfg_.read_unit == ReadUnit::stream) {
    stream_segment(op, ref, k);
    return true;
  }
  // One sample of a multi-sample file: the header at 0, then the sample's byte range (at least
  // readahead bytes of it; with stream_granule, to the granule's first multiple from the sample's
  // start at or past its end, as a buffered reader fills), each split into requests of at most
  // request_bytes (the buffer size).
  const datasets::Extent e = cfg_.files->extent(ref.file, ref.sample);
  const std::uint64_t begin = e.offset;
  std::uint64_t end = e.offset + e.length;
  if (cfg_.readahead_bytes > e.length) end = std::min(file_size_, begin + cfg_.readahead_bytes);
  if (const std::uint64_t g = cfg_.stream_granule_bytes; g > 0 && end > begin)
    end = std::min(file_size_, begin + (end - begin + g - 1) / g * g);
  const std::uint64_t header = std::min(cfg_.header_bytes, file_size_);
  add_segment(op, 0, header);
  add_segment(op, begin, end);
  return true;
}

// read = "stream": a worker reads its shard front to back as a streaming reader pulls it, the bytes
// of a batch's samples before it hands the batch over (tarfile over a file or an HTTP body): a
// sample past what the worker read of its shard reads from there to the end of the batch's last
// sample in this shard (to the shard's end after its last sample), in whole request_size fills
// as a buffered reader does (the last one at the shard's end shorter), or, with request_size 0,
// those bytes in one request (the s3 engine: a ranged GET of a batch's bytes, as the original's
// body came in a burst a batch); a sample read with an earlier one needs no request. With
// reader.stream_granule the burst ends on the reader's granule past the batch's last sample
// instead, and with reader.stream_tail the shard's last batch leaves its tail to a read of its
// own (stream_burst_end). A shard's first sample reads from its start; a sample met first in
// mid-shard (a worker taking another's tail) from its own offset.
void Worker::stream_segment(Open& op, const SampleRef& ref, std::uint64_t k) {
  const datasets::Extent e = cfg_.files->extent(ref.file, ref.sample);
  if (ref.file != stream_file_ || ref.sample == 0) {
    stream_file_ = ref.file;
    stream_end_ = ref.sample == 0 ? 0 : e.offset;
  }
  if (e.offset + e.length <= stream_end_) return;
  const std::uint32_t per_file = cfg_.files->layout->spec().samples_per_file;
  std::uint64_t end = e.offset + e.length;
  for (std::uint64_t j = sample_in_batch_ - 1; j < plan_.batch_size(k); ++j) {
    const SampleRef s = plan_.sample(k, j);
    if (s.file != ref.file) break;
    if (s.sample + 1 >= per_file) {
      end = file_size_;
      break;
    }
    const datasets::Extent x = cfg_.files->extent(s.file, s.sample);
    end = std::max(end, x.offset + x.length);
  }
  const std::uint64_t burst = stream_burst_end(end);
  add_segment(op, stream_end_, burst);
  add_segment(op, std::max(burst, stream_end_), end == file_size_ ? file_size_ : burst);
  stream_end_ = std::max(stream_end_, end == file_size_ ? file_size_ : burst);
}

// Where a stream's burst that reads up to `end` (a batch's last sample, or the shard's end)
// stops: the shard's end less reader.stream_tail when it is the shard's end (the tail is read on
// its own), then the first multiple of reader.stream_granule from the shard's start at or past
// that (the shard's end at most), or whole request_size fills from where the shard's reading
// stands; `end` itself without either. A tar shard read through a granule is pulled in whole
// 10 KiB records first (tarfile's `r|` stream reads RECORDSIZE at a time), the granule's reads
// (an HTTP body's socket reads) then reaching past the record; their grid starts
// reader.stream_head bytes before the shard (the response's head came in the first of them).
std::uint64_t Worker::stream_burst_end(std::uint64_t end) const {
  if (end == file_size_ && cfg_.stream_tail_bytes > 0)
    end = file_size_ - std::min(file_size_, cfg_.stream_tail_bytes);
  if (const std::uint64_t g = cfg_.stream_granule_bytes; g > 0) {
    if (cfg_.files->layout->spec().format == Format::tar) {
      constexpr std::uint64_t record = datasets::Layout::kTarRecordBytes;
      end = (end + record - 1) / record * record;
    }
    const std::uint64_t h = cfg_.stream_head_bytes;
    return std::min(file_size_, (end + h + g - 1) / g * g - h);
  }
  if (const std::uint64_t fill = cfg_.stream_fill_bytes; fill > 0 && end > stream_end_)
    return std::min(file_size_, stream_end_ + (end - stream_end_ + fill - 1) / fill * fill);
  return end;
}

// A sample already in memory: an open without a file or a segment (fill() completes it at once,
// so it counts and is processed as a read sample would be).
bool Worker::start_in_memory(const SampleRef& ref) {
  const std::uint32_t o = free_opens_.back();
  free_opens_.pop_back();
  Open& op = opens_[o];
  op.fd = -1;
  op.pending = 0;
  op.issued_all = false;
  op.segments = 0;
  op.segment_at = 0;
  op.batch = started_ - 1;
  op.file = ref.file;
  op.sample = ref.sample;
  cur_open_ = o;
  return true;
}

void Worker::add_segment(Open& o, std::uint64_t begin, std::uint64_t end, std::uint64_t cut,
                         const RecipeStep* step) {
  if (begin >= end || o.segments == segments_per_open_) return;
  Segment& g = o.segment[o.segments++];
  g.useful_begin = begin;
  g.useful_end = end;
  g.next = cfg_.direct ? align_down(begin, cfg_.block) : begin;
  g.end = cfg_.direct ? align_up(end, cfg_.block) : end;
  g.cut = g.end;
  if (cut < end) g.cut = cfg_.direct ? std::max(g.next, align_down(cut, cfg_.block)) : cut;
  if (g.cut <= g.next) g.cut = g.end;
  const std::uint64_t chunk = step ? step->chunk : 0;
  g.chunk = cfg_.direct && chunk > 0 ? align_up(chunk, cfg_.block) : chunk;
  g.align = step ? step->align : 0;
  g.head = step ? step->block : 0;
}

void Worker::next_request(std::uint32_t oi, IoRequest& r, Slot& s) {
  Open& o = opens_[oi];
  Segment& g = o.segment[o.segment_at];
  r.target = o.fd;
  r.op = IoOp::read;
  std::uint64_t len = g.end - g.next;
  len = std::min(len, cfg_.request_bytes);
  if (g.chunk > 0) len = std::min(len, g.chunk);
  if (g.align > 0) {
    len = std::min(len, (g.next / g.align + 1) * g.align - g.next);
    if (g.head > 0 && g.next % g.align == 0) len = std::min(len, g.head);
  }
  if (g.next < g.cut) len = std::min(len, g.cut - g.next);
  s.offset = g.next;
  s.end = g.next + len;
  s.useful_begin = g.useful_begin;
  s.useful_end = g.useful_end;
  g.next = s.end;
  s.open = oi;
  r.offset = s.offset;
  r.length = static_cast<std::uint32_t>(s.end - s.offset);
  ++o.pending;
  if (g.next >= g.end && ++o.segment_at == o.segments) o.issued_all = true;
}

void Worker::complete_sample(std::uint32_t oi) {
  Open& o = opens_[oi];
  if (!cfg_.in_memory) fds_.release(o.file);
  o.fd = -1;
  free_opens_.push_back(oi);
  ++stats_.samples;
  // reader.warmup: the phase's first sample of this (freshly started) worker takes longer.
  const std::int64_t warmup = warmed_ ? 0 : cfg_.warmup_ns;
  warmed_ = true;
  if (!cfg_.preprocess && !cfg_.collate && warmup == 0) {
    --batch_left_[o.batch % batch_left_.size()];
    return;
  }
  // reader.preprocess: the worker processes its samples one after another, each after its data
  // arrived; the sample counts for its batch when its processing ends. Sampled per (file, sample),
  // so every epoch and run draws the same time for the same sample.
  const double p = cfg_.preprocess ? pace() * sample_at(*cfg_.preprocess, cfg_.preprocess_seed,
                                                        o.file * 0x100000001b3ull + o.sample)
                                   : 0.0;
  busy_until_ = std::max(busy_until_, clock_.now_ns()) +
                static_cast<std::int64_t>(std::max(0.0, p) * 1e9) + warmup + collate_ns(o.batch);
  preprocessing_.push_back({busy_until_, o.batch});
}

// reader.collate: the batch's last sample to be processed carries the batch's collate time, so
// the batch is handed over only after it and the worker processes nothing else meanwhile (a
// DataLoader worker collates a batch before it takes its next indices). Sampled per batch.
std::int64_t Worker::collate_ns(std::uint64_t batch) const {
  if (!cfg_.collate) return 0;
  std::uint64_t processing = 0;  // the batch's samples read and waiting for processing to end
  for (const auto& [until, b] : preprocessing_) processing += b == batch;
  if (batch_left_[batch % batch_left_.size()] != processing + 1) return 0;
  const double c =
      pace() * sample_at(*cfg_.collate, cfg_.preprocess_seed ^ 0x636f6c6c617465ull, batch);
  return static_cast<std::int64_t>(std::max(0.0, c) * 1e9);
}

void Worker::finish_preprocessing() {
  if (preprocessing_.empty()) return;
  const std::int64_t now = clock_.now_ns();
  std::size_t i = 0;
  while (i < preprocessing_.size() && preprocessing_[i].first <= now)
    --batch_left_[preprocessing_[i++].second % batch_left_.size()];
  preprocessing_.erase(preprocessing_.begin(),
                       preprocessing_.begin() + static_cast<std::ptrdiff_t>(i));
}

void Worker::loop() {
  while (!shared_.stop.load(std::memory_order_relaxed)) {
    // A batch whose last sample's processing just ended is handed over before the next sample
    // is begun, as a DataLoader worker puts a batch before it takes the next index (a trace of
    // the replay would otherwise show the next sample's open before the handover).
    finish_preprocessing();
    deliver();
    // 1. Fill every free slot: the current sample's next request, the next sample, the next
    //    batch while the prefetch window allows; then hand what is pending to the engine.
    if (!fill()) return;
    if (!submit_pending()) return;
    deliver();
    if (in_flight_ == 0) {
      if (!pending_.empty()) continue;  // the engine took nothing yet (submit_pending backs off)
      if (!preprocessing_.empty()) {    // nothing to reap: wait for the sample being processed
        clock_.sleep_until(preprocessing_.front().first);
        continue;
      }
      if (delivered_ >= my_batches_) return;
      // Nothing to read until the accelerator takes a batch: wait for it.
      const std::uint64_t c = handoff_.consumed.load(std::memory_order_acquire);
      if (started_ >= c + cfg_.prefetch && !shared_.stop.load()) clock_.wait(handoff_.consumed, c);
      continue;
    }
    // 2. Reap: wait for at least one completion, take all that are there.
    if (!reap()) return;
    deliver();
  }
}

bool Worker::fill() {
  while (!free_slots_.empty()) {
    // The sample to issue from: the one being issued, or (dependent requests) the first begun
    // sample whose previous request has completed.
    std::uint32_t oi = cur_open_;
    std::size_t ai = 0;
    if (cfg_.dependent)
      for (oi = kNone; ai < active_.size(); ++ai)
        if (opens_[active_[ai]].pending == 0) {
          oi = active_[ai];
          break;
        }
    if (oi == kNone) {
      const std::uint64_t k = index_ + started_ * cfg_.workers - cfg_.workers;
      if (started_ > 0 && sample_in_batch_ < plan_.batch_size(k)) {
        if (free_opens_.empty()) break;
        if (!preprocessing_.empty()) break;  // the worker is still processing its last sample
        if (!start_sample()) return false;
        if (opens_[cur_open_].segments == 0) {  // an empty sample
          opens_[cur_open_].issued_all = true;
          const std::uint32_t done = cur_open_;
          cur_open_ = kNone;
          complete_sample(done);
        } else if (cfg_.dependent) {
          active_.push_back(cur_open_);
          cur_open_ = kNone;
        }
        continue;
      }
      if (started_ >= my_batches_ || shared_.stop.load(std::memory_order_relaxed) ||
          started_ >= handoff_.consumed.load(std::memory_order_acquire) + cfg_.prefetch)
        break;
      batch_left_[started_ % batch_left_.size()] =
          plan_.batch_size(index_ + started_ * cfg_.workers);
      ++started_;
      sample_in_batch_ = 0;
      continue;
    }
    const std::uint32_t si = free_slots_.back();
    free_slots_.pop_back();
    IoRequest& r = pending_.emplace_back();
    next_request(oi, r, slots_[si]);
    r.buffer = si;
    r.user_data = si;
    if (opens_[oi].issued_all) {
      if (cfg_.dependent)
        active_.erase(active_.begin() + static_cast<std::ptrdiff_t>(ai));
      else
        cur_open_ = kNone;
    }
  }
  return true;
}

bool Worker::submit_pending() {
  if (pending_.empty()) return true;
  const int taken = engine_->submit(pending_);
  if (taken < 0 && !transient_error(taken)) {
    shared_.fail(runtime_error(std::string("I/O engine (") + engine_->name() +
                               "): submit: " + std::strerror(-taken)));
    return false;
  }
  if (taken > 0) {
    pending_.erase(pending_.begin(), pending_.begin() + taken);
    in_flight_ += static_cast<std::uint64_t>(taken);
    shared_.in_flight->fetch_add(taken, std::memory_order_relaxed);
    backoff_.reset();
    return true;
  }
  // Nothing taken. With requests in flight, reaping makes room; with none, back off and retry.
  if (in_flight_ == 0) return back_off("submit", taken < 0 ? taken : -EAGAIN);
  return true;
}

bool Worker::back_off(const char* what, int rc) {
  if (!backoff_.wait()) {
    shared_.fail(runtime_error(std::string("I/O engine (") + engine_->name() + "): " + what + ": " +
                               std::strerror(-rc) + " (" +
                               std::to_string(engine::Backoff::kMaxRefusals) + " times in a row)"));
    return false;
  }
  return true;
}

bool Worker::reap() {
  const int got = engine_->reap({completions_.data(), completions_.size()}, 1);
  if (got < 0) {
    if (transient_error(got)) return back_off("reap", got);
    shared_.fail(runtime_error(std::string("I/O engine (") + engine_->name() +
                               "): reap: " + std::strerror(-got)));
    return false;
  }
  if (got > 0) backoff_.reset();
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
    stats_.latency.record(
        static_cast<std::uint64_t>(std::max<std::int64_t>(0, c.completed_ns - c.issued_ns)));
    ++stats_.requests;
    if (c.result < 0) {
      // An object store says more than -errno: the request and its answer (HTTP 503 SlowDown).
      const std::string store = engine::s3_last_error(*engine_);
      shared_.fail(runtime_error(
          std::string(cfg_.files->path(o.file)) + ": read at " + std::to_string(s.offset) + ": " +
          std::strerror(static_cast<int>(-c.result)) + (store.empty() ? "" : " (" + store + ")")));
      ok = false;
      continue;
    }
    const std::uint64_t got_end = s.offset + static_cast<std::uint64_t>(c.result);
    const std::uint64_t lo = std::max(s.offset, s.useful_begin);
    const std::uint64_t hi = std::min(got_end, s.useful_end);
    if (hi > lo) bytes += hi - lo;
    if (got_end < std::min(s.end, file_size_of(o))) {
      if (c.result == 0) {
        shared_.fail(runtime_error(
            std::string(cfg_.files->path(o.file)) + ": read at " + std::to_string(s.offset) +
            ": unexpected end of file (the file is shorter than the job's layout says; "
            "regenerate the dataset)"));
        ok = false;
        continue;
      }
      // A short read before the end: ask again for the rest, in the same slot. The bytes up to
      // got_end are counted; O_DIRECT re-reads from the block that holds got_end.
      s.useful_begin = std::max(s.useful_begin, got_end);
      s.offset = cfg_.direct ? align_down(got_end, cfg_.block) : got_end;
      pending_.push_back(
          {o.fd, IoOp::read, si, static_cast<std::uint32_t>(s.end - s.offset), s.offset, si});
      continue;
    }
    free_slots_.push_back(si);
    if (--o.pending == 0 && o.issued_all) complete_sample(s.open);
  }
  stats_.bytes += bytes;
  shared_.bytes->fetch_add(bytes, std::memory_order_relaxed);
  return ok;
}

std::uint64_t Worker::file_size_of(const Open& o) const {
  return cfg_.files->size[o.file];
}

void Worker::deliver() {
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
    clock_.notify(handoff_.produced);
  }
}

void Worker::drain() {
  pending_.clear();
  backoff_.reset();
  while (in_flight_ > 0) {
    const int got = engine_->reap({completions_.data(), completions_.size()}, 1);
    if (got < 0) {
      if (!transient_error(got) || !backoff_.wait()) break;
      continue;
    }
    in_flight_ -= std::min<std::uint64_t>(in_flight_, static_cast<std::uint64_t>(got));
    shared_.in_flight->fetch_sub(got, std::memory_order_relaxed);
  }
}
}  // namespace dlgen::replay
