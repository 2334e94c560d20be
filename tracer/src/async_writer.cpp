#include "async_writer.hpp"

#include <utility>

namespace dlgen::capture {

AsyncWriter::AsyncWriter(trace::TraceWriter& inner, std::size_t max_blocks)
    : inner_(inner), max_blocks_(max_blocks > 0 ? max_blocks : 1), thread_([this] { run(); }) {}

AsyncWriter::~AsyncWriter() {
  stop();
}

void AsyncWriter::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void AsyncWriter::run() {
  std::unique_lock lock(mu_);
  for (;;) {
    changed_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, and everything queued is written
    Block b = std::move(queue_.front());
    queue_.pop_front();
    busy_ = true;
    const bool skip = error_.has_value();  // after a failure the rest is dropped
    lock.unlock();
    changed_.notify_all();
    Result<void> r = ok();
    if (!skip && b.is_flush)
      r = inner_.flush(b.meta, b.files, b.processes);
    else if (!skip)
      r = b.http.empty() ? inner_.append(b.events) : inner_.append_http(std::move(b.http));
    lock.lock();
    busy_ = false;
    if (!r && !error_) error_ = r.error();
    changed_.notify_all();
  }
}

Result<void> AsyncWriter::push(Block&& block) {
  std::unique_lock lock(mu_);
  changed_.wait(lock, [this] { return queue_.size() < max_blocks_ || error_.has_value(); });
  if (error_) return *error_;
  queue_.push_back(std::move(block));
  lock.unlock();
  changed_.notify_all();
  return ok();
}

Result<void> AsyncWriter::append(const std::vector<trace::Event>& events) {
  return append(std::vector<trace::Event>(events));
}

Result<void> AsyncWriter::append(std::vector<trace::Event>&& events) {
  Block b;
  b.events = std::move(events);
  return push(std::move(b));
}

Result<void> AsyncWriter::append_http(std::vector<trace::HttpRequest> rows) {
  if (rows.empty()) return ok();
  Block b;
  b.http = std::move(rows);
  return push(std::move(b));
}

Result<void> AsyncWriter::flush(const trace::Meta& meta, const std::vector<trace::File>& files,
                                const std::vector<trace::Process>& processes) {
  Block b;
  b.is_flush = true;
  b.meta = meta;
  b.files = files;
  b.processes = processes;
  return push(std::move(b));
}

Result<void> AsyncWriter::finish(const trace::Meta& meta, const std::vector<trace::File>& files,
                                 const std::vector<trace::Process>& processes) {
  stop();
  if (error_) return *error_;
  return inner_.finish(meta, files, processes);
}

}  // namespace dlgen::capture
