#include "writer.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "dlgen/datasets/codec.hpp"
#include "safety.hpp"

namespace dlgen::generator {
namespace {

constexpr std::uint64_t kBlock = 4096;  // O_DIRECT's unit on every device here
constexpr std::uint32_t kBuffers = 16;  // per thread: writes in flight at most
constexpr std::uint64_t kMaxBuffer = 1 << 20;
// A request's user data for the one read the writer makes (the head of an hdf5 file's first block).
constexpr std::uint64_t kReadTag = ~std::uint64_t{0};

std::uint64_t round_up(std::uint64_t n, std::uint64_t to) {
  return (n + to - 1) / to * to;
}

// What the threads share: the files to write, handed out in runs of consecutive files (a thread's
// files then share directories), the first failure, the totals.
struct Shared {
  Shared(const WriteConfig& c, std::span<const std::uint64_t> t) : config(c), todo(t) {}
  const WriteConfig& config;
  std::span<const std::uint64_t> todo;
  std::uint64_t run = 1;
  std::atomic<std::uint64_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex mu;
  std::optional<Error> first_error;
  std::atomic<std::uint64_t> files{0}, bytes{0};
  std::atomic<bool> all_synced{true};
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();

  void fail(Error e) {
    std::lock_guard lock(mu);
    if (!first_error) first_error = std::move(e);
    failed = true;
  }
  // A file made final: totals, the watchdog's sign of life, the progress line.
  void done(std::uint64_t size, bool synced) {
    const std::uint64_t n = files.fetch_add(1) + 1, b = bytes.fetch_add(size) + size;
    if (!synced) all_synced.store(false, std::memory_order_relaxed);
    if (config.written) config.written->fetch_add(size);
    if (!config.progress) return;
    if (n % 64 == 1) {
      const double s =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      char note[64];
      std::snprintf(note, sizeof note, "%.0f MiB/s", s > 0 ? double(b) / (1 << 20) / s : 0.0);
      config.progress->note(note);
    }
    config.progress->add(1);
  }
};

// One thread's writer, and the sink its codecs encode into. Files are written one after another
// into the engine's buffers; a buffer is sent (one write request) once the next one fills, so the
// last two are still in memory when a codec holds bytes it will patch (Sink::hold: a zip's CRC).
// A file's writes may still be in flight while the next file is encoded: the file becomes final
// (Destination::commit) when its last write completes. Single-threaded; nothing here allocates
// per request.
class ThreadWriter final : public datasets::Sink {
 public:
  ThreadWriter(Shared& shared, engine::IoEngine& e, Destination& dest, std::uint32_t open_files)
      : shared_(shared),
        layout_(*shared.config.layout),
        engine_(e),
        dest_(dest),
        direct_ok_(shared.config.engine->caps.direct_io && shared.config.engine->caps.posix_fd),
        cap_(e.options().buffer_bytes),
        slots_(open_files),
        buffer_slot_(e.options().buffers),
        requests_(e.options().buffers),
        completions_(e.options().buffers) {
    for (std::uint32_t b = e.options().buffers; b > 0; --b) free_buffers_.push_back(b - 1);
    for (std::uint32_t s = open_files; s > 0; --s) free_slots_.push_back(s - 1);
  }

  // Creates and encodes `file`; its last writes may still be in flight on return.
  Result<void> write(std::uint64_t file) {
    Result<std::uint32_t> slot = take_slot();
    if (!slot) return slot.error();
    const std::uint64_t size = layout_.file_size(file);
    Result<OpenFile> f = dest_.create(file, direct_ok_ && size >= datasets::kDirectMinBytes);
    if (!f) {
      free_slots_.push_back(*slot);
      return f.error();
    }
    slots_[*slot] = Slot{*f, 0, false, f->direct, std::nullopt};
    Result<void> r = encode(*slot);
    end_file(r.has_value());
    if (!r && !slots_[*slot].error) slots_[*slot].error = r.error();
    finish_if_done(*slot);
    if (!r) return r;
    if (Result<void> p = reap(0); !p) return p;  // sends what is queued
    return take_error();
  }

  // Waits for every write; files complete without error are made final, the others removed (all
  // of them when `abandon`, after a failure elsewhere). The engine may be destroyed afterwards.
  Result<void> drain(bool abandon) {
    abandon_ = abandon_ || abandon;
    while (in_flight_ > 0) {
      if (Result<void> r = reap(1); !r) {
        // The engine lost track of its requests: their buffers die with it, so nothing else is
        // safe to do.
        std::fprintf(stderr, "dlgen: bug: %s\n", r.error().message.c_str());
        std::abort();
      }
    }
    return take_error();
  }

  // Sink: windows in the engine's buffers.
  Result<std::span<std::uint8_t>> acquire(std::size_t max) override {
    if (cur_.buffer < 0 || cur_.length == cap_) {
      if (cur_.buffer >= 0) seal();
      Result<std::uint32_t> b = take_buffer();
      if (!b) return b.error();
      buffer_slot_[*b] = slot_;
      cur_ = {static_cast<std::int32_t>(*b), next_base_, 0};
    }
    const std::size_t n = std::min<std::size_t>(std::max<std::size_t>(max, 1), cap_ - cur_.length);
    return std::span<std::uint8_t>(data(cur_) + cur_.length, n);
  }
  void commit(std::size_t n) override { cur_.length += n; }
  std::uint64_t position() const override {
    return cur_.buffer >= 0 ? cur_.base + cur_.length : next_base_;
  }
  void hold(std::uint64_t offset, std::size_t n) override {
    const std::uint64_t oldest = prev_.buffer >= 0 ? prev_.base : cur_.base;
    if (offset < oldest) hold_missed_ = true;  // already sent: the patch will fail
    hold_ = {offset, offset + n};
  }
  Result<void> patch(std::uint64_t offset, std::span<const std::uint8_t> bytes) override {
    std::size_t copied = 0;
    auto into = [&](Block& b) {
      if (b.buffer < 0) return;
      const std::uint64_t lo = std::max(offset, b.base);
      const std::uint64_t hi = std::min(offset + bytes.size(), b.base + b.length);
      if (lo >= hi) return;
      std::memcpy(data(b) + (lo - b.base), bytes.data() + (lo - offset), hi - lo);
      copied += hi - lo;
    };
    into(cur_);
    into(prev_);
    for (Block& b : held_) into(b);
    if (copied != bytes.size() || hold_missed_)
      return runtime_error(path(slots_[slot_].f.file) + ": bug: a codec patched " +
                           std::to_string(bytes.size()) + " bytes at " + std::to_string(offset) +
                           " that were already sent (hold them first: datasets::Sink::hold)");
    if (offset <= hold_.lo && offset + bytes.size() >= hold_.hi) {
      hold_ = {};
      for (Block& b : held_) send(b);
      held_.clear();
    }
    return ok();
  }

 private:
  // A buffer's bytes: file range [base, base + length).
  struct Block {
    std::int32_t buffer = -1;
    std::uint64_t base = 0;
    std::uint64_t length = 0;
  };
  struct Slot {
    OpenFile f;
    std::uint32_t outstanding = 0;  // writes in flight
    bool encoded = false;           // every write has been sent (or the file failed)
    bool opened_direct = false;
    std::optional<Error> error;
  };
  struct Range {
    std::uint64_t lo = 0, hi = 0;
  };

  std::uint8_t* data(const Block& b) const {
    return reinterpret_cast<std::uint8_t*>(engine_.buffer(static_cast<std::uint32_t>(b.buffer)));
  }
  std::string path(std::uint64_t file) const {
    return (layout_.spec().dir / layout_.relative_path(file)).string();
  }

  // The file's bytes, from the codec; hdf5's metadata comes from the library first.
  Result<void> encode(std::uint32_t slot) {
    slot_ = slot;
    cur_ = prev_ = {};
    held_.clear();
    hold_ = {};
    hold_missed_ = false;
    next_base_ = 0;
    OpenFile& f = slots_[slot].f;
    if (layout_.spec().format != Format::hdf5) return datasets::encode_file(layout_, f.file, *this);
    Result<std::uint64_t> rows = dest_.hdf5_skeleton(f);
    if (!rows) return rows.error();
    if (Result<void> r = start_at(*rows); !r) return r;
    return datasets::encode_hdf5_rows(layout_, f.file, *this);
  }

  // The sink starts at `offset`. A direct file's requests are whole blocks, so the first one starts
  // at the block boundary below `offset`, its head read back from the file (the library's
  // metadata, written through its own descriptor).
  Result<void> start_at(std::uint64_t offset) {
    const OpenFile& f = slots_[slot_].f;
    next_base_ = offset;
    if (!f.direct || offset % kBlock == 0) return ok();
    Result<std::uint32_t> b = take_buffer();
    if (!b) return b.error();
    buffer_slot_[*b] = slot_;
    cur_ = {static_cast<std::int32_t>(*b), offset / kBlock * kBlock, 0};
    const engine::IoRequest r{
        f.target, engine::IoOp::read, *b, static_cast<std::uint32_t>(kBlock), cur_.base, kReadTag};
    read_result_.reset();
    if (Result<void> s = submit(r); !s) return s;
    while (!read_result_)
      if (Result<void> p = reap(1); !p) return p;
    if (*read_result_ < static_cast<std::int64_t>(offset - cur_.base))
      return runtime_error(path(f.file) + ": read at " + std::to_string(cur_.base) + ": " +
                           (*read_result_ < 0 ? errno_text(static_cast<int>(-*read_result_))
                                              : std::string("short read")));
    cur_.length = offset - cur_.base;
    return ok();
  }

  // The current buffer is full: the previous one is sent (or held), this one waits one more.
  void seal() {
    if (prev_.buffer >= 0) send_or_hold(prev_);
    prev_ = cur_;
    next_base_ = cur_.base + cur_.length;
    cur_ = {};
  }
  void send_or_hold(const Block& b) {
    if (b.base < hold_.hi && hold_.lo < b.base + b.length)
      held_.push_back(b);
    else
      send(b);
  }

  // The codec is done (`ok`) or failed: the remaining buffers are sent, or given back unsent.
  void end_file(bool ok) {
    Slot& s = slots_[slot_];
    for (Block* b : {&prev_, &cur_})
      if (b->buffer >= 0 && (!ok || b->length == 0)) free_buffers_.push_back(b->buffer), *b = {};
    for (Block& b : held_)
      if (!ok) free_buffers_.push_back(b.buffer);
    if (ok) {
      if (prev_.buffer >= 0) send(prev_);
      if (cur_.buffer >= 0) send(cur_);
      for (Block& b : held_) send(b);
    }
    prev_ = cur_ = {};
    held_.clear();
    s.encoded = true;
  }

  // One write request for block `b`. A direct file's last block is written whole (its tail past
  // the file's end is cut off at commit).
  void send(const Block& b) {
    Slot& s = slots_[slot_];
    std::uint64_t length = b.length;
    if (s.f.direct && length % kBlock != 0) {
      length = round_up(length, kBlock);
      s.f.padded = true;
    }
    const auto buffer = static_cast<std::uint32_t>(b.buffer);
    requests_[buffer] = {s.f.target, engine::IoOp::write,
                         buffer,     static_cast<std::uint32_t>(length),
                         b.base,     buffer};
    ++s.outstanding;
    if (Result<void> r = submit(requests_[buffer]); !r) {
      --s.outstanding;
      free_buffers_.push_back(buffer);
      if (!s.error) s.error = r.error();
    }
  }

  Result<void> submit(const engine::IoRequest& r) {
    for (;;) {
      const int n = engine_.submit(std::span(&r, 1));
      if (n == 1) {
        ++in_flight_;
        return ok();
      }
      if (n < 0 && !engine::transient_error(n))
        return runtime_error(path(slots_[buffer_slot_[r.buffer]].f.file) + ": " + engine_.name() +
                             ": submit: " + errno_text(-n));
      // Every request holds a buffer and the engine takes as many as there are buffers: a
      // refusal is transient (or the queue is full of requests not yet sent): send, take, retry.
      if (Result<void> p = reap(in_flight_ > 0 ? 1 : 0); !p) return p;
    }
  }

  // Sends what is queued and takes completions (waiting for `min` of them).
  Result<void> reap(unsigned min) {
    const int n = engine_.reap(completions_, min);
    if (n < 0 && !engine::transient_error(n))
      return runtime_error(std::string(engine_.name()) + ": reap: " + errno_text(-n));
    for (int i = 0; i < n; ++i) complete(completions_[static_cast<std::size_t>(i)]);
    while (!retry_.empty()) {
      const std::uint32_t b = retry_.back();
      retry_.pop_back();
      if (Result<void> r = submit(requests_[b]); !r) {
        Slot& s = slots_[buffer_slot_[b]];
        if (!s.error) s.error = r.error();
        free_buffers_.push_back(b);
        --s.outstanding;
        finish_if_done(buffer_slot_[b]);
      }
    }
    return ok();
  }

  void complete(const engine::IoCompletion& c) {
    --in_flight_;
    if (c.user_data == kReadTag) {
      read_result_ = c.result;
      return;
    }
    const auto b = static_cast<std::uint32_t>(c.user_data);
    const std::uint32_t slot = buffer_slot_[b];
    Slot& s = slots_[slot];
    engine::IoRequest& r = requests_[b];
    if (c.result > 0 && c.result < r.length) {  // short: the rest moves to the buffer's start
      auto* p = reinterpret_cast<std::uint8_t*>(engine_.buffer(b));
      std::memmove(p, p + c.result, r.length - static_cast<std::uint64_t>(c.result));
      r.offset += static_cast<std::uint64_t>(c.result);
      r.length -= static_cast<std::uint32_t>(c.result);
      retry_.push_back(b);
      return;
    }
    // The filesystem takes O_DIRECT at open but not these writes: buffered from now on.
    const bool refused_direct =
        c.result == -EINVAL && s.opened_direct && (!s.f.direct || dest_.drop_direct(s.f));
    if (refused_direct || engine::transient_error(static_cast<int>(c.result))) {
      retry_.push_back(b);
      return;
    }
    if (c.result <= 0 && !s.error)
      s.error = runtime_error(path(s.f.file) + ": write at " + std::to_string(r.offset) + ": " +
                              (c.result < 0 ? errno_text(static_cast<int>(-c.result))
                                            : std::string("nothing written")));
    free_buffers_.push_back(b);
    --s.outstanding;
    finish_if_done(slot);
  }

  // The file's last write completed: final (commit), or removed after a failure.
  void finish_if_done(std::uint32_t slot) {
    Slot& s = slots_[slot];
    if (!s.encoded || s.outstanding > 0) return;
    if (s.error || abandon_) {
      dest_.abandon(s.f);
      if (s.error && !error_) error_ = std::move(s.error);
    } else {
      bool synced = false;
      if (Result<void> r = dest_.commit(s.f, &synced); !r) {
        if (!error_) error_ = r.error();
      } else {
        shared_.done(layout_.file_size(s.f.file), synced);
      }
    }
    s = Slot{};
    free_slots_.push_back(slot);
  }

  Result<std::uint32_t> take_buffer() {
    while (free_buffers_.empty()) {
      if (in_flight_ == 0) return runtime_error("bug: every buffer is held and none in flight");
      if (Result<void> r = reap(1); !r) return r.error();
    }
    const std::uint32_t b = free_buffers_.back();
    free_buffers_.pop_back();
    return b;
  }
  Result<std::uint32_t> take_slot() {
    while (free_slots_.empty()) {
      if (in_flight_ == 0) return runtime_error("bug: every file is open and no write in flight");
      if (Result<void> r = reap(1); !r) return r.error();
    }
    const std::uint32_t s = free_slots_.back();
    free_slots_.pop_back();
    return s;
  }
  Result<void> take_error() {
    if (!error_) return ok();
    Error e = std::move(*error_);
    error_.reset();
    return e;
  }

  Shared& shared_;
  const datasets::Layout& layout_;
  engine::IoEngine& engine_;
  Destination& dest_;
  const bool direct_ok_;
  const std::uint64_t cap_;
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_slots_;
  std::vector<std::uint32_t> buffer_slot_;   // buffer -> the slot of the file it holds bytes of
  std::vector<engine::IoRequest> requests_;  // buffer -> its request (resent when short)
  std::vector<engine::IoCompletion> completions_;
  std::vector<std::uint32_t> free_buffers_, retry_;
  std::uint32_t in_flight_ = 0;
  std::optional<Error> error_;
  bool abandon_ = false;
  std::optional<std::int64_t> read_result_;
  // The file being encoded.
  std::uint32_t slot_ = 0;
  Block cur_, prev_;
  std::vector<Block> held_;
  Range hold_;
  bool hold_missed_ = false;
  std::uint64_t next_base_ = 0;  // file offset of the next buffer
};

// How many files one thread keeps open: its buffers, within the descriptors the process may open.
std::uint32_t open_files_per_thread(std::uint32_t threads, std::uint32_t buffers) {
  rlimit lim{};
  std::uint64_t fds = 1024;
  if (::getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY) fds = lim.rlim_cur;
  const std::uint64_t spare = fds > 128 ? (fds - 128) / threads : 1;
  return static_cast<std::uint32_t>(std::clamp<std::uint64_t>(spare / 2, 1, buffers));
}

void run_thread(Shared& shared, std::uint32_t threads) {
  const WriteConfig& c = shared.config;
  Result<std::unique_ptr<engine::IoEngine>> e =
      engine::make(c.engine->name, writer_engine_options(*c.layout, shared.todo));
  if (!e) return shared.fail(e.error());
  std::unique_ptr<Destination> dest = c.destination(**e);
  ThreadWriter writer(shared, **e, *dest, open_files_per_thread(threads, (*e)->options().buffers));
  Result<void> r = ok();
  while (r && !shared.failed.load(std::memory_order_relaxed)) {
    const std::uint64_t at = shared.next.fetch_add(shared.run);
    if (at >= shared.todo.size()) break;
    const std::uint64_t end = std::min<std::uint64_t>(at + shared.run, shared.todo.size());
    for (std::uint64_t k = at; k < end && r; ++k) r = writer.write(shared.todo[k]);
  }
  if (!r) shared.fail(r.error());
  if (Result<void> d = writer.drain(!r || shared.failed.load()); !d) shared.fail(d.error());
}

}  // namespace

engine::EngineOptions writer_engine_options(const datasets::Layout& layout,
                                            std::span<const std::uint64_t> todo) {
  std::uint64_t largest = 0;
  for (std::uint64_t i : todo) largest = std::max(largest, layout.file_size(i));
  engine::EngineOptions o;
  o.depth = o.buffers = kBuffers;
  o.buffer_bytes = std::clamp<std::uint64_t>(round_up(largest, kBlock), kBlock, kMaxBuffer);
  o.alignment = static_cast<std::uint32_t>(kBlock);
  return o;
}

Result<WriteTotals> write_files(const WriteConfig& config, std::span<const std::uint64_t> todo) {
  Shared shared(config, todo);
  const std::uint64_t total = todo.empty() ? 0 : config.layout->total_bytes();
  const std::uint64_t average = config.layout->num_files() ? total / config.layout->num_files() : 1;
  // Runs of about 16 MiB: few enough hand-outs to share, large enough to keep a directory.
  shared.run = std::clamp<std::uint64_t>((16u << 20) / std::max<std::uint64_t>(average, 1), 1, 256);
  const std::uint32_t threads = static_cast<std::uint32_t>(
      std::clamp<std::uint64_t>(config.threads, 1, std::max<std::size_t>(todo.size(), 1)));
  std::vector<std::thread> pool;
  for (std::uint32_t t = 1; t < threads; ++t)
    pool.emplace_back([&shared, threads] { run_thread(shared, threads); });
  run_thread(shared, threads);
  for (std::thread& t : pool) t.join();
  if (shared.first_error) return *shared.first_error;
  return WriteTotals{shared.files.load(), shared.bytes.load(), shared.all_synced.load()};
}

}  // namespace dlgen::generator
