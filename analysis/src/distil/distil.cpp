// distil: TraceSummary → Job. Each inferred key gets a comment with its evidence; what the trace
// cannot show becomes a note instead of a silent default. This file only orders the sections; each
// is written in its own file (sections.hpp lists them).
#include "dlgen/analysis/distil.hpp"

#include <filesystem>
#include <string>

#include "sections.hpp"

namespace dlgen::analysis {

Distilled distil(const TraceSummary& s, const DistilOptions& options) {
  using namespace sections;
  JobWriter x{s, {}};
  Job& job = x.out.job;
  job.name = options.name.empty() ? default_name(s) : options.name;
  std::string cmd;
  for (const auto& a : s.command) cmd += (cmd.empty() ? "" : " ") + a;
  job.description =
      "distilled by dlgen from a trace" + (cmd.empty() ? std::string() : " of: " + cmd);
  const std::filesystem::path data_dir =
      options.dataset_dir.empty() ? default_data_dir(s, job.name) : options.dataset_dir;
  distil_datasets(x, data_dir);
  distil_run(x);
  distil_loader(x);
  if (const int ti = train_dataset(s); ti >= 0) {
    distil_shuffle(x, s.datasets[ti]);
    distil_requests(x, s.datasets[ti]);
    distil_epoch_size(x, s.datasets[ti]);
  }
  distil_memory(x);
  distil_compute(x);
  distil_checkpoint(x);
  for (const auto& n : s.notes) x.note(n);
  distil_checkpoint_only(x);
  for (const auto& dg : validate(job)) x.note("validation: " + dg.path + ": " + dg.message);
  return std::move(x.out);
}

}  // namespace dlgen::analysis
