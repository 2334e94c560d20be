// Placeholder until the compare verbs land.
#include "commands.hpp"

namespace dlgen::cli {
void add_compare_commands(CLI::App&, Action&) {}
}  // namespace dlgen::cli
