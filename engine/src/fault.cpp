#include "dlgen/engine/fault.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "dlgen/engine/registry.hpp"

namespace dlgen::engine {
namespace {

// Wraps another engine (whose buffers it uses). Every request taken holds a tag (the user data the
// wrapped engine sees) with the caller's user data and the request's delay; completions wait in
// `held_` until their release time (issue + delay) has come on the clock.
class FaultEngine final : public IoEngine {
 public:
  FaultEngine(const EngineOptions& o, std::unique_ptr<IoEngine> inner,
              std::shared_ptr<FaultInjection> f)
      : IoEngine(o, 0),
        inner_(std::move(inner)),
        f_(std::move(f)),
        name_(std::string("fault+") + inner_->name()) {
    const std::uint32_t depth = std::max<std::uint32_t>(1, o.depth);
    tags_.resize(depth);
    free_tags_.reserve(depth);
    for (std::uint32_t i = depth; i > 0; --i) free_tags_.push_back(i - 1);
    held_.reserve(depth);
    scratch_.resize(depth);
    f_->counters.engines.fetch_add(1);
  }

  ~FaultEngine() override {
    f_->counters.destroyed_in_flight.fetch_add(in_flight_);
    // Counted as the caller's bug above; still wait for what the wrapped engine holds, so that a
    // failing test does not also corrupt memory.
    int tries = 0;
    while (in_inner_ > 0 && tries < 1000) {
      const int n = inner_->reap(scratch_, 1);
      if (n < 0 && !transient_error(n)) break;
      if (n <= 0) ++tries;
      in_inner_ -= static_cast<std::uint64_t>(std::max(n, 0));
    }
    f_->counters.destroyed.fetch_add(1);
  }

  const char* name() const override { return name_.c_str(); }
  std::byte* buffer(std::uint32_t i) const override { return inner_->buffer(i); }
  const std::vector<IoRequest>& recorded() const override { return inner_->recorded(); }

  int submit(std::span<const IoRequest> requests) override {
    const FaultPlan& plan = f_->plan;
    FaultCounters& n = f_->counters;
    const std::uint64_t call = n.submit_calls.fetch_add(1);
    if (plan.submit_error)
      if (const int rc = plan.submit_error(call); rc < 0) {
        n.submit_refused.fetch_add(1);
        return rc;
      }
    std::size_t limit = requests.size();
    if (plan.submit_at_most > 0) limit = std::min<std::size_t>(limit, plan.submit_at_most);
    int taken = 0;
    for (std::size_t i = 0; i < limit; ++i) {
      const IoRequest& r = requests[i];
      check(r);
      if (free_tags_.empty()) break;
      const File* file = find(r.target);
      FaultRequest q{0, file ? std::string_view(file->path) : std::string_view(), r.offset,
                     r.length};
      q.index = n.requests.fetch_add(1);
      const int error = plan.fail ? plan.fail(q) : 0;
      const std::int64_t delay = plan.delay_ns ? std::max<std::int64_t>(0, plan.delay_ns(q)) : 0;
      const std::uint32_t tag = free_tags_.back();
      if (error < 0) {
        const std::int64_t now = clock().now_ns();
        held_.push_back({{tag, error, now, now}, now + delay});
        n.failed.fetch_add(1);
      } else {
        IoRequest in = r;
        in.target = file && file->fake ? -1 : r.target;
        in.user_data = tag;
        if (plan.short_read)
          if (const std::uint32_t most = plan.short_read(q); most > 0 && most < in.length) {
            in.length = most;
            n.shortened.fetch_add(1);
          }
        const int rc = inner_->submit({&in, 1});
        if (rc != 1) {  // the wrapped engine is full or refused: not taken
          n.requests.fetch_sub(1);
          if (taken == 0 && rc < 0) return rc;
          break;
        }
        ++in_inner_;
      }
      free_tags_.pop_back();
      tags_[tag] = {r.user_data, delay};
      if (delay > 0) n.delayed.fetch_add(1);
      ++taken;
      ++in_flight_;
    }
    std::uint64_t seen = n.max_in_flight.load();
    while (in_flight_ > seen && !n.max_in_flight.compare_exchange_weak(seen, in_flight_)) {
    }
    return taken;
  }

  int reap(std::span<IoCompletion> out, unsigned min_complete) override {
    FaultCounters& n = f_->counters;
    const std::uint64_t call = n.reap_calls.fetch_add(1);
    if (f_->plan.reap_error)
      if (const int rc = f_->plan.reap_error(call); rc < 0) {
        n.reap_refused.fetch_add(1);
        return rc;
      }
    const std::uint64_t wanted = min_complete > 0 && f_->plan.reap_all_together
                                     ? in_flight_
                                     : std::min<std::uint64_t>(min_complete, in_flight_);
    std::int64_t now = 0;
    for (;;) {
      if (const int rc = collect(0); rc < 0 && !transient_error(rc)) return rc;
      now = clock().now_ns();
      std::uint64_t ready = 0;
      std::int64_t next = INT64_MAX;
      for (const Held& h : held_) {
        if (h.release_ns <= now)
          ++ready;
        else
          next = std::min(next, h.release_ns);
      }
      if (ready >= wanted) break;
      if (in_inner_ > 0) {  // real I/O still running: wait for it (briefly) first
        if (const int rc = collect(1); rc < 0 && !transient_error(rc)) return rc;
      } else {
        clock().sleep_until(next);
      }
    }
    int got = 0;
    for (std::size_t i = 0; i < held_.size() && got < static_cast<int>(out.size());) {
      if (held_[i].release_ns > now) {
        ++i;
        continue;
      }
      IoCompletion c = held_[i].c;
      const auto tag = static_cast<std::uint32_t>(c.user_data);
      c.user_data = tags_[tag].user_data;
      c.completed_ns = std::max(c.completed_ns, held_[i].release_ns);
      out[got++] = c;
      free_tags_.push_back(tag);
      held_.erase(held_.begin() + static_cast<std::ptrdiff_t>(i));
      --in_flight_;
    }
    return got;
  }

  int open_file(const char* path, int flags, int& fd) override {
    if (f_->plan.open_error)
      if (const int rc = f_->plan.open_error(path); rc < 0) {
        f_->counters.opens_failed.fetch_add(1);
        return rc;
      }
    if (const int rc = inner_->open_file(path, flags, fd); rc < 0) return rc;
    // The null engine opens nothing (fd -1): give the file a number of its own so that requests
    // still name it.
    const bool fake = fd < 0;
    if (fake) fd = next_fake_fd_++;
    forget(fd);
    files_.push_back({fd, fake, path});
    return 0;
  }

  int close_file(int fd) override {
    const File* f = find(fd);
    const int rc = !f || !f->fake ? inner_->close_file(fd) : 0;
    forget(fd);
    return rc;
  }

 private:
  struct Tag {
    std::uint64_t user_data = 0;
    std::int64_t delay_ns = 0;
  };
  struct Held {
    IoCompletion c;  // user_data: the tag
    std::int64_t release_ns = 0;
  };
  struct File {
    int fd = -1;
    bool fake = false;
    std::string path;
  };

  // Takes what the wrapped engine completed (waiting for at least `min`).
  int collect(unsigned min) {
    const int got = inner_->reap(scratch_, min);
    if (got < 0) return got;
    for (int i = 0; i < got; ++i) {
      IoCompletion c = scratch_[i];
      held_.push_back({c, c.issued_ns + tags_[c.user_data].delay_ns});
    }
    in_inner_ -= static_cast<std::uint64_t>(got);
    return got;
  }

  const File* find(int fd) const {
    for (const File& f : files_)
      if (f.fd == fd) return &f;
    return nullptr;
  }
  void forget(int fd) {
    std::erase_if(files_, [fd](const File& f) { return f.fd == fd; });
  }

  std::unique_ptr<IoEngine> inner_;
  std::shared_ptr<FaultInjection> f_;
  std::string name_;
  std::vector<Tag> tags_;
  std::vector<std::uint32_t> free_tags_;
  std::vector<Held> held_;
  std::vector<IoCompletion> scratch_;
  std::vector<File> files_;
  std::uint64_t in_flight_ = 0;  // taken, not yet reaped by the caller
  std::uint64_t in_inner_ = 0;   // inside the wrapped engine
  int next_fake_fd_ = 1 << 30;
};

}  // namespace

Result<std::unique_ptr<IoEngine>> make_fault_engine(std::string_view inner,
                                                    const EngineOptions& options,
                                                    std::shared_ptr<FaultInjection> injection) {
  auto made = make(inner, options);
  if (!made) return made.error();
  return std::unique_ptr<IoEngine>(
      std::make_unique<FaultEngine>(options, std::move(*made), std::move(injection)));
}

EngineFactory fault_engine_factory(std::string_view inner,
                                   std::shared_ptr<FaultInjection> injection) {
  return [inner = std::string(inner), injection](const EngineOptions& options) {
    return make_fault_engine(inner, options, injection);
  };
}

}  // namespace dlgen::engine
