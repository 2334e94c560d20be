// The simulated ranks of the checkpoint-only workflow (checkpoint_workflow.cpp): one thread per
// rank, all starting each checkpoint together on a barrier, each writing or reading its shard
// files through an engine of its own (the one checkpoint writer, replay/checkpoint_io.hpp).
#pragma once

#include <atomic>
#include <barrier>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "dlgen/core/job.hpp"
#include "dlgen/core/llm.hpp"
#include "dlgen/core/result.hpp"
#include "dlgen/engine/s3.hpp"
#include "dlgen/mlperf/checkpoint_workflow.hpp"
#include "dlgen/replay/checkpoint_io.hpp"
#include "dlgen/replay/own_files.hpp"

namespace dlgen::mlperf {

// The simulated ranks and the passes they run.
class Workflow {
 public:
  // `root`: the checkpoint directory (job.checkpoint.dir), open for the whole run; -1 on an object
  // store (the engine opens every object by its URL) or with a diskless engine.
  // `io`: how every rank writes and reads (each rank makes its own engine).
  Workflow(const Job& job, std::vector<RankShard> shards, int root, replay::CheckpointIoOptions io)
      : job_(job),
        shards_(std::move(shards)),
        root_(root),
        io_(std::move(io)),
        sync_(static_cast<std::ptrdiff_t>(shards_.size() + 1)) {}

  // Reads from here on use O_DIRECT (the page cache could not be dropped for them).
  void read_direct(bool on) { direct_ = on; }
  // Whether a filesystem refused O_DIRECT, so some reads went through the page cache.
  bool direct_refused() const { return buffered_; }

  // Runs one pass (write or read of checkpoint `index`) on every rank; returns its records.
  Result<CheckpointPass> pass(std::uint32_t index, bool write);

  Result<void> start();
  bool started() const { return !threads_.empty(); }
  // Bytes written and read so far, all passes (RankGroup::set_progress).
  std::uint64_t progress() const { return progress_.load(std::memory_order_relaxed); }
  void stop();

  // The HTTP requests every rank's engine sent for the writes and for the reads, when the engine
  // is the s3 engine (each rank takes its engine's counters after every pass); none else.
  const std::optional<engine::S3Counters>& write_requests() const { return write_s3_; }
  const std::optional<engine::S3Counters>& read_requests() const { return read_s3_; }

 private:
  void rank_loop(std::size_t i);
  void take_requests(replay::CheckpointIo& io);
  Result<void> write_rank(std::size_t i, replay::CheckpointIo& io, RankPass& rec);
  Result<void> read_rank(std::size_t i, replay::CheckpointIo& io, RankPass& rec);
  // The checkpoint's directory, open (no descriptor on an object store).
  Result<replay::own::Fd> step_dir(const std::filesystem::path& dir) const;

  const Job& job_;
  std::vector<RankShard> shards_;
  int root_;
  replay::CheckpointIoOptions io_;
  bool direct_ = false;
  std::atomic<bool> buffered_{false};
  std::barrier<> sync_;
  std::vector<std::thread> threads_;
  std::vector<RankPass> records_;
  std::uint32_t index_ = 0;
  bool write_ = true;
  std::atomic<bool> stop_{false};
  std::atomic<std::uint64_t> progress_{0};
  std::mutex mu_;  // guards first_error_, write_s3_, read_s3_
  std::optional<Error> first_error_;
  std::optional<engine::S3Counters> write_s3_, read_s3_;
};

}  // namespace dlgen::mlperf
