// Placeholder until the distil verbs land.
#include "commands.hpp"

namespace dlgen::cli {
void add_distil_command(CLI::App&, Action&) {}
}  // namespace dlgen::cli
