// dlgen: one binary, one subcommand per verb. main only parses, dispatches and maps the result
// to an exit code.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "commands.hpp"

namespace dlgen::cli {
int report_error(const Error& error) {
  std::fprintf(stderr, "dlgen: %s\n", error.message.c_str());
  return error.exit_code();
}

Result<void> write_text_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return runtime_error(path.string() + ": cannot write: " + std::strerror(errno));
  return ok();
}
}  // namespace dlgen::cli

int main(int argc, char** argv) {
  CLI::App app{
      "dlgen: deep-learning I/O workloads for storage benchmarking — capture, distil, run, "
      "compare"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("dlgen ") + DLGEN_VERSION);
  dlgen::cli::Action action;
  // The order of the verbs in --help.
  dlgen::cli::add_run_command(app, action);
  dlgen::cli::add_generate_command(app, action);
  dlgen::cli::add_mlperf_command(app, action);
  dlgen::cli::add_convert_command(app, action);
  dlgen::cli::add_validate_command(app, action);
  dlgen::cli::add_capture_commands(app, action);
  dlgen::cli::add_trace_commands(app, action);
  dlgen::cli::add_distil_command(app, action);
  dlgen::cli::add_compare_commands(app, action);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  return action ? action() : 2;
}
