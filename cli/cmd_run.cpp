// Placeholder until the run verbs land.
#include "commands.hpp"

namespace dlgen::cli {
void add_run_commands(CLI::App&, Action&) {}
}  // namespace dlgen::cli
