// Placeholder until the capture verbs land.
#include "commands.hpp"

namespace dlgen::cli {
void add_capture_commands(CLI::App&, Action&) {}
}  // namespace dlgen::cli
