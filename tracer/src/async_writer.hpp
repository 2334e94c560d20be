#pragma once
// A TraceWriter that hands appends and flushes to a writer thread, so that the thread polling the
// ring buffer never waits for the HDF5 writer's deflate. Blocks are queued in order; the queue is
// bounded (`max_blocks`): when the writer falls that far behind, the producer waits, and the ring
// buffer (then the lost-event counter) absorbs the burst instead of unbounded memory.
// The first error of the underlying writer is returned by the next call, and by finish().
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>

#include "dlgen/trace/trace_io.hpp"

namespace dlgen::capture {

class AsyncWriter : public trace::TraceWriter {
 public:
  AsyncWriter(trace::TraceWriter& inner, std::size_t max_blocks);
  ~AsyncWriter() override;
  AsyncWriter(const AsyncWriter&) = delete;
  AsyncWriter& operator=(const AsyncWriter&) = delete;

  Result<void> append(const std::vector<trace::Event>& events) override;
  // Takes the events without copying them.
  Result<void> append(std::vector<trace::Event>&& events);
  Result<void> append_http(std::vector<trace::HttpRequest> rows) override;
  Result<void> flush(const trace::Meta& meta, const std::vector<trace::File>& files,
                     const std::vector<trace::Process>& processes) override;
  // Drains the queue, stops the thread, then finishes the underlying writer on this thread.
  Result<void> finish(const trace::Meta& meta, const std::vector<trace::File>& files,
                      const std::vector<trace::Process>& processes) override;

 private:
  struct Block {
    bool is_flush = false;
    std::vector<trace::Event> events;
    std::vector<trace::HttpRequest> http;
    trace::Meta meta;
    std::vector<trace::File> files;
    std::vector<trace::Process> processes;
  };
  Result<void> push(Block&& block);
  void stop();
  void run();

  trace::TraceWriter& inner_;
  const std::size_t max_blocks_;
  std::mutex mu_;
  std::condition_variable changed_;
  std::deque<Block> queue_;
  bool busy_ = false;  // the writer thread is working on a block taken from the queue
  bool stopping_ = false;
  std::optional<Error> error_;
  std::thread thread_;
};

}  // namespace dlgen::capture
