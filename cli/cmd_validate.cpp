// dlgen validate: load a job (or DLIO config) with its overrides and print every problem
// (file:line: key: message), or ok.
#include <cstdio>
#include <memory>

#include "commands.hpp"
#include "job_args.hpp"

namespace dlgen::cli {
namespace {

int do_validate(const JobArgs& a) {
  Result<Job> job = load(a);
  if (!job) {
    std::fprintf(stderr, "%s\n", job.error().message.c_str());
    return job.error().exit_code();
  }
  // Where the dataset and checkpoints are, as `run` checks it: validate and run agree.
  if (Result<void> where = check_locations(*job); !where) {
    std::fprintf(stderr, "%s\n", where.error().message.c_str());
    return where.error().exit_code();
  }
  std::printf("ok: %s\n", job->name.empty() ? a.job.c_str() : job->name.c_str());
  return 0;
}

}  // namespace

void add_validate_command(CLI::App& app, Action& action) {
  auto args = std::make_shared<JobArgs>();
  CLI::App* val = app.add_subcommand(
      "validate", "Check a job file: prints every problem (file:line: key: message) or ok");
  add_job_options(val, *args);
  val->callback([&action, args] { action = [args] { return do_validate(*args); }; });
}

}  // namespace dlgen::cli
