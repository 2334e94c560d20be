// Placeholder until the trace verbs land.
#include "commands.hpp"

namespace dlgen::cli {
void add_trace_commands(CLI::App&, Action&) {}
}  // namespace dlgen::cli
