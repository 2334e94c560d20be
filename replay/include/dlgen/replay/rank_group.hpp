#pragma once
// What a replay needs from the other ranks of its run, and no more. A run under mpirun is one
// rank per client host; the runner and the checkpoint workflow of one host only need to know
// which share is theirs (rank, size), whether they do the host's once-per-host work (host
// leader), to agree with the others at the boundaries of a pass or a checkpoint (so the slowest
// rank ends it for everyone and a failure stops every rank), a few one-number reductions, to
// tell the hang watchdog that they are alive, and (the checkpoint workflow) to join the hosts'
// records into one result. The cluster library (cluster/) implements this
// for one process and for MPI; replay/ never sees MPI, nor a gather of bytes.
//
// Every call but rank/size/host_leader/set_progress is collective: every rank makes the same
// calls in the same order.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "dlgen/core/result.hpp"

namespace dlgen::replay {

class RankGroup {
 public:
  virtual ~RankGroup() = default;
  virtual std::uint32_t rank() const = 0;
  virtual std::uint32_t size() const = 0;
  virtual const std::string& host() const = 0;  // this rank's host name
  // One rank per host is its leader (the lowest rank on that host): it drops the host's page
  // cache and counts the host's RAM once.
  virtual bool host_leader() const = 0;

  // Every rank passes its own status; every rank gets the same answer: ok when all are ok, else
  // an error naming the first failing rank and its host, with that rank's error kind. A rank that
  // failed calls it once where the others call it at their next agreement, so all leave together.
  virtual Result<void> agree(const Result<void>& mine) = 0;
  // True on every rank when `mine` is true on any rank / on all ranks.
  virtual bool any(bool mine) = 0;
  virtual bool all(bool mine) = 0;
  // The sum of every rank's `mine` (bytes of RAM, files), on every rank.
  virtual std::uint64_t sum(std::uint64_t mine) = 0;
  // Every rank passes its bytes; every rank gets all ranks' bytes, in rank order.
  virtual std::vector<std::string> all_gather(std::string_view mine) = 0;

  // The watchdog's sign of life: `source` says how much work this rank has completed (steps,
  // bytes; a count that only grows while the rank makes progress), so that a rank that is merely
  // slow is never taken for a hung one. Empty: none. Any thread may read it, so `source` must be
  // safe to call from another thread. Set for a run's length by ProgressScope.
  virtual void set_progress(std::function<std::uint64_t()> source) = 0;
};

// Makes `source` the group's progress while alive (nothing when `group` is nullptr).
class ProgressScope {
 public:
  ProgressScope(RankGroup* group, std::function<std::uint64_t()> source) : group_(group) {
    if (group_) group_->set_progress(std::move(source));
  }
  ProgressScope(const ProgressScope&) = delete;
  ProgressScope& operator=(const ProgressScope&) = delete;
  ~ProgressScope() {
    if (group_) group_->set_progress({});
  }

 private:
  RankGroup* group_;
};

}  // namespace dlgen::replay
