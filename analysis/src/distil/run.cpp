// [run] of a distilled job (sections.hpp).
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "dlgen/core/units.hpp"
#include "sections.hpp"
#include "stats.hpp"

namespace dlgen::analysis::sections {

namespace {

// run.eval_every_steps when some evaluation pass came in the middle of an epoch (nanoGPT's
// `eval_interval`: every N optimizer steps): the median distance between consecutive passes'
// training steps (EpochSummary::after_step, from step 0), as checkpoint.every_steps is found.
// False when every pass came at an epoch's end (within a step: an idle-gap count can be off by
// one), where eval_every_epochs says it.
bool eval_step_cadence(JobWriter& x) {
  const TraceSummary& s = x.s;
  std::vector<std::uint64_t> per_pass(s.epochs.size(), 0);  // accelerator 0's batches
  for (const auto& b : s.batches)
    if (b.accelerator == 0 && b.epoch >= 0 && static_cast<std::size_t>(b.epoch) < per_pass.size())
      ++per_pass[b.epoch];
  std::vector<std::uint64_t> ends, after;
  std::uint64_t done = 0;
  for (std::size_t pi = 0; pi < s.epochs.size(); ++pi)
    if (s.epochs[pi].evaluation)
      after.push_back(s.epochs[pi].after_step);
    else
      ends.push_back(done += per_pass[pi]);
  bool mid_epoch = false;
  std::vector<double> gaps;
  for (std::size_t i = 0; i < after.size(); ++i) {
    // (A pass before the first step, a validation file read before training, is no cadence.)
    mid_epoch = mid_epoch || (after[i] > 0 && std::none_of(ends.begin(), ends.end(),
                                                           [&](std::uint64_t e) {
                                                             return e + 1 >= after[i] &&
                                                                    after[i] + 1 >= e;
                                                           }));
    const std::uint64_t prev = i ? after[i - 1] : 0;
    if (after[i] > prev) gaps.push_back(static_cast<double>(after[i] - prev));
  }
  const auto every = static_cast<std::uint64_t>(std::llround(detail::percentile(gaps, 0.5)));
  if (!mid_epoch || every == 0) return false;
  x.out.job.run.eval_every_steps = every;
  x.evidence("run.eval_every_steps", std::to_string(after.size()) +
                                         " evaluation passes after training steps " +
                                         comma_list(after) + " (per accelerator)");
  if (!after.empty() && after.front() == 0)
    x.note(
        "run.eval_every_steps: an evaluation pass before the first training step is not "
        "replayed (the job evaluates after every N steps)");
  return true;
}

}  // namespace

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
  // A container holding both sets (sample_range): its regions are re-read within a pass, whose
  // ends the validation set's reads mark (stages/container_passes.cpp).
  const bool container = job.validation && reads_sample_range(job.dataset);
  x.evidence(
      "run.epochs",
      std::to_string(epochs) + " passes over the training files (a pass ends " +
          (container ? "with the training set's run of reads in the container; the validation "
                       "set's reads come between)"
                     : "when a file repeats)"));
  if (evals > 0 && epochs > 0 && eval_step_cadence(x)) {
    // run.eval_every_steps, with its evidence
  } else if (evals > 0 && epochs > 0) {
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
