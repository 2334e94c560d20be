// distil: a trace → a commented job file. The work lives in dlgen_analysis (summarize, distil);
// this file only wires arguments to it. The job's dataset directory defaults to data/<name>, a
// new directory for the synthetic copy, never the traced run's data directory, so `dlgen run` on a
// distilled job can never overwrite the user's real data.
#include <cstdio>
#include <fstream>
#include <iostream>

#include "commands.hpp"
#include "dlgen/analysis/distil.hpp"
#include "dlgen/analysis/summary.hpp"
#include "dlgen/core/job_io.hpp"
#include "dlgen/trace/trace_io.hpp"

namespace dlgen::cli {
namespace {

struct DistilArgs {
  std::vector<std::string> traces;  // one, or one per host of a multi-host capture
  std::string output, name, dataset_dir;
  bool explain = false, json = false;
};

int run_distil(const DistilArgs& a) {
  auto t = read_host_traces(a.traces);
  if (!t) return report_error(t.error());
  const std::string from = join_paths(a.traces);
  const analysis::TraceSummary summary = analysis::summarize(*t);
  analysis::DistilOptions opt;
  opt.name = a.name;
  opt.dataset_dir = a.dataset_dir;
  const analysis::Distilled d = analysis::distil(summary, opt);
  const std::string toml =
      "# Distilled by dlgen from " + from +
      ". Comments give each value's evidence; dataset.dir is a new directory for\n"
      "# synthetic data (the traced data is never written).\n" +
      to_toml(d.job, d.comments);

  // Where each output goes: the job to -o (stdout without -o); --json and --explain to stdout
  // when the job went to a file, else to stderr so that stdout stays one document. `--json`
  // without -o prints only the summary, for scripts.
  if (a.json && a.output.empty()) {
    const std::string j = analysis::to_json(summary) + "\n";
    std::fwrite(j.data(), 1, j.size(), stdout);
    return 0;
  }
  const bool job_to_stdout = a.output.empty() || a.output == "-";
  std::FILE* side = job_to_stdout ? stderr : stdout;
  if (job_to_stdout) {
    std::fwrite(toml.data(), 1, toml.size(), stdout);
  } else {
    if (Result<void> w = write_text_file(a.output, toml); !w) return report_error(w.error());
  }
  if (a.json) {
    const std::string j = analysis::to_json(summary) + "\n";
    std::fwrite(j.data(), 1, j.size(), side);
  }
  if (a.explain) {
    std::fprintf(side, "How the job was inferred from %s:\n", from.c_str());
    for (const auto& r : d.reasoning) std::fprintf(side, "  %s\n", r.c_str());
    for (const auto& [key, why] : d.comments)
      std::fprintf(side, "  %-28s %s\n", key.c_str(), why.c_str());
  }
  for (const auto& n : d.notes) std::fprintf(stderr, "dlgen distil: note: %s\n", n.c_str());
  if (!job_to_stdout)
    std::fprintf(
        stderr,
        "wrote %s (%llu files, %u workers, batch %u, %u epochs); run it with: dlgen run %s\n",
        a.output.c_str(), static_cast<unsigned long long>(d.job.dataset.num_files),
        d.job.reader.workers, d.job.reader.batch_size, d.job.run.epochs, a.output.c_str());
  return 0;
}

}  // namespace

void add_distil_command(CLI::App& app, Action& action) {
  auto a = std::make_shared<DistilArgs>();
  auto* cmd =
      app.add_subcommand("distil", "Turn a captured trace into a replayable, commented job file");
  cmd->add_option("trace", a->traces,
                  "trace file (.h5) from dlgen capture; or one per host of a run captured with "
                  "mpirun -np N dlgen capture -o run-%r.h5 (run-*.h5)")
      ->required();
  cmd->add_option("-o,--output", a->output, "job file to write ('-' or absent: stdout)");
  cmd->add_flag("--explain", a->explain, "print the reasoning behind every inferred value");
  cmd->add_flag("--json", a->json, "print the raw trace summary as JSON");
  cmd->add_option("--name", a->name,
                  "job name (default: from the dataset directory or the script)");
  cmd->add_option(
      "--dataset-dir", a->dataset_dir,
      "directory for the synthetic dataset (default: data/<name>; never the traced data)");
  cmd->callback([a, &action] { action = [a] { return run_distil(*a); }; });
}

}  // namespace dlgen::cli
