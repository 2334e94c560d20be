#pragma once
// Each verb family registers its subcommands on the app and, when chosen, stores the function
// that does the work in `action`. main() parses, runs the action and returns its exit code:
// 0 ok, 1 runtime failure, 2 bad usage or bad input, 77 cannot run here.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "dlgen/core/result.hpp"
#include "dlgen/trace/trace.hpp"

namespace dlgen::cli {

using Action = std::function<int()>;

void add_run_command(CLI::App& app, Action& action);       // run (cmd_run.cpp)
void add_generate_command(CLI::App& app, Action& action);  // generate (cmd_generate.cpp)
void add_mlperf_command(CLI::App& app, Action& action);    // mlperf (cmd_mlperf.cpp)
void add_convert_command(CLI::App& app, Action& action);   // convert (cmd_convert.cpp)
void add_validate_command(CLI::App& app, Action& action);  // validate (cmd_validate.cpp)
void add_capture_commands(CLI::App& app, Action& action);  // capture (cmd_capture.cpp)
void add_trace_commands(CLI::App& app, Action& action);    // inspect, export (cmd_trace.cpp)
void add_distil_command(CLI::App& app, Action& action);    // distil (cmd_distil.cpp)
void add_compare_commands(CLI::App& app, Action& action);  // compare, fidelity (cmd_compare.cpp)

// Reads one trace, or the traces of one run captured one per host, merged (traces.cpp).
Result<trace::Trace> read_host_traces(const std::vector<std::string>& paths);
std::string join_paths(const std::vector<std::string>& paths);  // "a.h5 b.h5"

// Prints "dlgen: <message>" to stderr and returns the error's exit code.
int report_error(const Error& error);

// Writes (replaces) a result file; "PATH: cannot write: <why>" on failure.
Result<void> write_text_file(const std::filesystem::path& path, const std::string& text);

}  // namespace dlgen::cli
