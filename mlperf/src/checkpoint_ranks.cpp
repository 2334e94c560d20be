// The checkpoint-only workflow's simulated ranks (checkpoint_ranks.hpp).
#include "checkpoint_ranks.hpp"

#include <chrono>
#include <string>
#include <system_error>

#include "checkpoint_files.hpp"

namespace dlgen::mlperf {

namespace own = replay::own;
using namespace checkpoint_files;
using replay::checkpoint_salt;
using replay::CheckpointFile;
using replay::CheckpointIo;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

Result<CheckpointPass> Workflow::pass(std::uint32_t index, bool write) {
  index_ = index;
  write_ = write;
  records_.assign(shards_.size(), RankPass{});
  sync_.arrive_and_wait();  // start together
  sync_.arrive_and_wait();  // all done
  if (first_error_) return *first_error_;
  CheckpointPass p;
  p.index = index;
  p.ranks = records_;
  return p;
}

Result<void> Workflow::start() {
  try {
    for (std::size_t i = 0; i < shards_.size(); ++i)
      threads_.emplace_back([this, i] { rank_loop(i); });
  } catch (const std::system_error& e) {
    // The barrier counts every rank: the missing ones arrive (and leave) here, so the ranks
    // already started pass it once, see stop_ and end.
    const std::size_t started = threads_.size();
    stop_ = true;
    for (std::size_t i = started; i < shards_.size(); ++i) sync_.arrive_and_drop();
    sync_.arrive_and_wait();
    for (auto& t : threads_) t.join();
    threads_.clear();
    return runtime_error("cannot start simulated rank " + std::to_string(started) + " of " +
                         std::to_string(shards_.size()) + " (one thread each): " + e.what());
  }
  return ok();
}

void Workflow::stop() {
  stop_ = true;
  sync_.arrive_and_wait();
  for (auto& t : threads_) t.join();
}

void Workflow::rank_loop(std::size_t i) {
  // The rank's engine, made on its own thread (an engine serves one thread); a failure is
  // this rank's error in every pass.
  Result<CheckpointIo> io = CheckpointIo::open(io_);
  for (;;) {
    sync_.arrive_and_wait();
    if (stop_) return;
    const auto t0 = std::chrono::steady_clock::now();
    RankPass rec;
    rec.rank = shards_[i].rank;
    Result<void> r = !io      ? Result<void>(io.error())
                     : write_ ? write_rank(i, *io, rec)
                              : read_rank(i, *io, rec);
    rec.seconds = seconds_since(t0);
    records_[i] = rec;
    if (io) take_requests(*io);
    if (!r) {
      std::lock_guard lock(mu_);
      if (!first_error_) first_error_ = r.error();
    }
    sync_.arrive_and_wait();
  }
}

// The pass's requests (outside its timing) into its phase's: the engine counts afresh for the
// next pass, which may be of the other phase.
void Workflow::take_requests(CheckpointIo& io) {
  const std::optional<engine::S3Counters> k = io.take_s3_counters();
  if (!k) return;
  std::lock_guard lock(mu_);
  engine::merge_into(write_ ? write_s3_ : read_s3_, k);
}

Result<void> Workflow::write_rank(std::size_t i, CheckpointIo& io, RankPass& rec) {
  const RankShard& s = shards_[i];
  const std::filesystem::path dir = checkpoint_dir(job_, index_);
  Result<own::Fd> dfd = step_dir(dir);
  if (!dfd) return dfd.error();
  for (std::size_t f = 0; f < s.files.size(); ++f) {
    // A fresh stream per checkpoint, rank and file: nothing repeats within or across checkpoints.
    const CheckpointFile file{dfd->get(), s.files[f].name, dir / s.files[f].name, s.files[f].bytes};
    if (Result<void> r =
            io.write(file, checkpoint_salt() ^ (std::uint64_t{index_} * 0x9e3779b97f4a7c15ull),
                     (std::uint64_t{s.rank} << 20) | f, &progress_);
        !r)
      return r;
    rec.bytes += s.files[f].bytes;
  }
  return ok();
}

Result<void> Workflow::read_rank(std::size_t i, CheckpointIo& io, RankPass& rec) {
  const RankShard& s = shards_[i];
  const std::filesystem::path dir = checkpoint_dir(job_, index_);
  Result<own::Fd> dfd = step_dir(dir);
  if (!dfd) return dfd.error();
  for (const ShardFile& f : s.files) {
    Result<std::uint64_t> n =
        io.read({dfd->get(), f.name, dir / f.name, f.bytes}, direct_, &buffered_, &progress_);
    if (!n) return n.error();
    rec.bytes += *n;
  }
  return ok();
}

Result<own::Fd> Workflow::step_dir(const std::filesystem::path& dir) const {
  if (root_ < 0) return own::Fd();
  return own::open_subdir(root_, step_name(index_), dir, false);
}

}  // namespace dlgen::mlperf
