// dlgen convert: a DLIO workload config (YAML) as a commented dlgen job (TOML), or with --to dlio
// a job as a DLIO config.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "dlgen/dlio/config.hpp"
#include "dlgen/core/job_io.hpp"
#include "job_args.hpp"

namespace dlgen::cli {
namespace {

// dlgen convert CONFIG.yaml -o job.toml: the DLIO config as a commented dlgen job.
// dlgen convert JOB.toml --to dlio: a training job as a DLIO workload config.
Result<std::string> convert_to_dlio(const JobArgs& a) {
  Result<Job> job = load(a);
  if (!job) return job.error();
  std::vector<std::string> notes;
  Result<std::string> yaml = to_dlio_yaml(*job, &notes);
  if (!yaml) return yaml.error();
  std::string text = "# Converted by `dlgen convert --to dlio` from " + a.job + "\n";
  for (const auto& n : notes) text += "# note: " + n + "\n";
  return text + *yaml;
}

int do_convert(const JobArgs& a, const std::string& output, const std::string& to) {
  std::string text;
  if (to == "dlio") {
    Result<std::string> t = convert_to_dlio(a);
    if (!t) return report_error(t.error());
    text = *t;
  } else if (to != "toml") {
    return report_error(
        input_error("--to " + to + ": expected toml (from a DLIO config) or dlio (from a job)"));
  } else {
    if (!is_dlio_config(a.job))
      return report_error(
          input_error(a.job + ": convert reads a DLIO config (.yaml, .yml); --to dlio writes one"));
    Result<DlioJob> d = load_dlio(a.job, a.hydra);
    if (!d) return report_error(d.error());
    text = "# Converted by `dlgen convert` from the DLIO config " + a.job;
    for (const auto& h : a.hydra) text += " " + h;
    text += "\n# Each key says which DLIO key it came from.\n";
    for (const auto& n : d->notes) text += "# note: " + n + "\n";
    text += "\n" + to_toml(d->job, d->comments);
  }
  if (output.empty() || output == "-") {
    std::fputs(text.c_str(), stdout);
    return 0;
  }
  if (Result<void> w = write_text_file(output, text); !w) return report_error(w.error());
  return 0;
}

}  // namespace

void add_convert_command(CLI::App& app, Action& action) {
  auto conv_args = std::make_shared<JobArgs>();
  auto conv_out = std::make_shared<std::string>();
  auto conv_to = std::make_shared<std::string>("toml");
  CLI::App* conv = app.add_subcommand("convert",
                                      "Write a DLIO workload config (YAML) as a commented dlgen "
                                      "job (TOML), or with --to dlio a job as a "
                                      "DLIO config");
  conv->add_option("config", conv_args->job, "DLIO config (YAML), or a job with --to dlio")
      ->required();
  conv->add_option("overrides", conv_args->hydra,
                   "Hydra-style overrides: ++workload.dataset.num_files_train=64");
  conv->add_option("--set", conv_args->sets,
                   "With --to dlio: override a job key first (repeatable)")
      ->allow_extra_args(false);
  conv->add_option("--scale", conv_args->scale,
                   "With --to dlio: apply the job's [scales.NAME] first");
  conv->add_option("--to", *conv_to, "toml (default: from a DLIO config) or dlio (from a job)");
  conv->add_option("--output,-o", *conv_out, "The file to write (default: stdout)");
  conv->callback([&action, conv_args, conv_out, conv_to] {
    action = [conv_args, conv_out, conv_to] { return do_convert(*conv_args, *conv_out, *conv_to); };
  });
}

}  // namespace dlgen::cli
