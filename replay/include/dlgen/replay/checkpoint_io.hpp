#pragma once
// The one checkpoint writer and reader-back, used by the training replay's checkpoints
// (checkpoint.hpp) and the checkpoint-only workflow (checkpoint_workflow.hpp). Every byte moves
// through an I/O engine (engine/registry.hpp), so --engine and O_DIRECT apply to checkpoints as to
// the training reads.
//
// Files: with an engine whose targets are POSIX descriptors (Capabilities::posix_fd) a file is
// created in its directory's descriptor as own_files.hpp describes (never through a link:
// O_CREAT | O_EXCL | O_NOFOLLOW after unlinking dlgen's own earlier file), fsync'd when asked, and
// its close checked; the engine then writes to that descriptor. Any other engine (the null
// engine, an object store) opens and closes the file itself (IoEngine::open_file by path), and its
// close is where the write becomes durable or is reported lost.
//
// Content: a fresh pseudo-random stream per (seed, stream) (datasets::ContentStream, the dataset
// generator's), so no block repeats and nothing compresses, as with a model's weights.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "dlgen/core/result.hpp"
#include "dlgen/engine/engine.hpp"
#include "dlgen/engine/registry.hpp"
#include "dlgen/engine/s3.hpp"

namespace dlgen::replay {

// A salt drawn once per process, shared by every checkpoint dlgen writes: two runs (or two
// checkpoints of one run, mixed with their index) never write the same bytes, so storage that
// deduplicates across files or over time is not flattered.
std::uint64_t checkpoint_salt();

struct CheckpointIoOptions {
  std::string engine{engine::default_name()};  // a registered engine's name
  std::uint64_t request_bytes = 1 << 20;       // bytes per write request (at least 4 KiB)
  std::uint64_t read_bytes = 0;  // bytes per read request (checkpoint.read_size); 0: request_bytes
  std::uint64_t part_bytes =
      0;  // an object store's multipart part (checkpoint.part_size); 0: its own
  // Writes with O_DIRECT: requests and buffers aligned to 4 KiB (the logical block size of every
  // device here); a file's unaligned tail is written buffered, after clearing O_DIRECT.
  bool direct_writes = false;
  bool fsync = false;  // fsync each written file before its close
  // Synchronous engines: the system call of a write (the job's checkpoint.write_call).
  engine::SyncWrite call = engine::SyncWrite::pwrite;
};

// checkpoint.serialize: the time a checkpointing program spends outside its write calls (torch.save
// pickling the state, copying GPU tensors to the host), owed in proportion to the bytes handed to
// the writes, each request's share before it. One writer spends at a time (one interpreter
// pickles), so a checkpoint takes at least `seconds` however many threads write its shards, while
// their writes overlap another's serializing. A sleep that overran is paid back from the next, and
// the writer's own time making a request's fresh content counts as spent (it is time between the
// writes too), so a replay traced and distilled again finds the same serialize time.
class Serializer {
 public:
  Serializer(double seconds, std::uint64_t bytes) : seconds_(seconds), bytes_(bytes) {}
  // Spends what the next `len` bytes owe, less `made_ns` already spent making them (nothing with
  // no time to spend).
  void before_write(std::uint64_t len, std::int64_t made_ns);
  double spent_s() const;

 private:
  mutable std::mutex mu_;
  double seconds_;
  std::uint64_t bytes_;
  std::uint64_t claimed_ = 0;
  std::int64_t spent_ns_ = 0;
};

// One checkpoint file: `name` in the directory whose descriptor is `dirfd` (POSIX engines);
// `path` is its full path (other engines open it by path; every error names it).
struct CheckpointFile {
  int dirfd = -1;
  std::string name;
  std::filesystem::path path;
  std::uint64_t bytes = 0;
  Serializer* serializer = nullptr;  // checkpoint.serialize, shared by the checkpoint's writers
};

// One thread's checkpoint I/O: an engine of its own (an engine serves one thread) with one
// request in flight, as a checkpointing program writes: sequentially, one request at a time.
class CheckpointIo {
 public:
  // Makes the engine: an unknown name is an input error listing the registered engines; an
  // engine that cannot run here is `unsupported` (exit 77).
  static Result<CheckpointIo> open(const CheckpointIoOptions& options);

  // Writes `file` afresh with the content stream (seed, stream). `progress`, when set, grows by
  // each write's bytes as it completes (the MPI watchdog's sign of life: cluster.hpp).
  Result<void> write(const CheckpointFile& file, std::uint64_t seed, std::uint64_t stream,
                     std::atomic<std::uint64_t>* progress);
  // Reads `file` back to its end and returns the bytes read; a size other than file.bytes is an
  // error (a torn checkpoint). `direct`: with O_DIRECT, past the page cache; a filesystem that
  // refuses it (tmpfs) is read buffered and `*buffered` set.
  Result<std::uint64_t> read(const CheckpointFile& file, bool direct, std::atomic<bool>* buffered,
                             std::atomic<std::uint64_t>* progress);

  const engine::Capabilities& capabilities() const { return ops_->caps; }
  // The HTTP requests this writer's engine sent so far when it is the s3 engine; nullptr else.
  const engine::S3Counters* s3_counters() const { return engine::s3_counters(*engine_); }
  // The same, taken: the engine counts afresh from here (a writer used for several phases);
  // nullopt for the file engines.
  std::optional<engine::S3Counters> take_s3_counters() {
    return engine::take_s3_counters(*engine_);
  }
  const CheckpointIoOptions& options() const { return options_; }

 private:
  CheckpointIo(const CheckpointIoOptions& options, const engine::EngineOps* ops,
               std::unique_ptr<engine::IoEngine> engine)
      : options_(options), ops_(ops), engine_(std::move(engine)) {}

  CheckpointIoOptions options_;
  const engine::EngineOps* ops_;
  std::unique_ptr<engine::IoEngine> engine_;
};

}  // namespace dlgen::replay
