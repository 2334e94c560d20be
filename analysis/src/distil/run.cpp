// [run] of a distilled job (sections.hpp).
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "dlgen/core/units.hpp"
#include "sections.hpp"

namespace dlgen::analysis::sections {

// [run]: epochs, evaluation cadence, accelerators.
void distil_run(JobWriter& x) {
  const TraceSummary& s = x.s;
  Job& job = x.out.job;
  // Passes.
  std::uint32_t epochs = 0, evals = 0;
  std::vector<const EpochSummary*> train_epochs;
  for (const auto& e : s.epochs) {
    if (e.evaluation)
      ++evals;
    else
      ++epochs, train_epochs.push_back(&e);
  }
  job.run.epochs = std::max<std::uint32_t>(1, epochs);
  x.evidence("run.epochs", std::to_string(epochs) +
                               " passes over the training files (a pass ends when a file repeats)");
  if (evals > 0 && epochs > 0) {
    job.run.eval_every_epochs = std::max<std::uint32_t>(
        1, static_cast<std::uint32_t>(std::lround(static_cast<double>(epochs) / evals)));
    x.evidence("run.eval_every_epochs", std::to_string(evals) + " evaluation passes over " +
                                            std::to_string(epochs) + " epochs");
  } else {
    x.evidence("run.eval_every_epochs", "no evaluation passes seen");
  }
  // Accelerators per host: a job runs run.accelerators on each host (mpirun -np H dlgen run);
  // a trace merged from one capture per host has them on H hosts.
  const std::uint32_t hosts =
      std::max<std::uint32_t>(1, static_cast<std::uint32_t>(s.hosts.size()));
  job.run.accelerators =
      std::max<std::uint32_t>(1, static_cast<std::uint32_t>(s.accelerators.size()));
  {
    std::string pids;
    for (const auto& a : s.accelerators) pids += (pids.empty() ? "" : ",") + std::to_string(a.pid);
    // Each accelerator's share of the first training pass (DistributedSampler gives each rank a
    // disjoint 1/N of the files).
    std::string share;
    if (s.accelerators.size() > 1 && !train_epochs.empty()) {
      const auto first = static_cast<std::int32_t>(train_epochs.front() - s.epochs.data());
      std::vector<std::uint64_t> per(s.accelerators.size(), 0);
      for (const auto& b : s.batches)
        if (b.epoch == first && b.accelerator < per.size()) per[b.accelerator] += b.samples;
      std::string list;
      for (auto n : per) list += (list.empty() ? "" : ",") + std::to_string(n);
      share = "; each read its share of epoch 0's " +
              std::to_string(train_epochs.front()->unique_files) + " files (" + list + ")";
    }
    if (hosts > 1) {
      std::uint32_t most = 0, least = UINT32_MAX;
      std::string per_host;
      for (const auto& h : s.hosts) {
        most = std::max(most, h.accelerators), least = std::min(least, h.accelerators);
        per_host += (per_host.empty() ? "" : ", ") + h.host +
                    (h.rank >= 0 ? " rank " + std::to_string(h.rank) : "") + ": " +
                    std::to_string(h.accelerators);
      }
      job.run.accelerators = std::max<std::uint32_t>(1, most);
      x.evidence("run.accelerators", std::to_string(job.run.accelerators) +
                                         " per host: " + std::to_string(s.accelerators.size()) +
                                         " process(es) consuming data on " + std::to_string(hosts) +
                                         " hosts (" + per_host + "); run on " +
                                         std::to_string(hosts) + " hosts with mpirun -np " +
                                         std::to_string(hosts) + share);
      if (most != least)
        x.note("run.accelerators: the hosts ran different numbers of accelerators (" + per_host +
               "); the job runs " + std::to_string(most) + " on every host");
    } else {
      x.evidence("run.accelerators", std::to_string(s.accelerators.size()) +
                                         " process(es) consuming data (pid " + pids + ")" + share);
    }
  }
}

}  // namespace dlgen::analysis::sections
