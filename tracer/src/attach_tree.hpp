#pragma once
// -p: tracing a process tree that is already running. Its processes, their threads and their
// existing descendants are found through /proc, added to the traced set and to the process table
// before any of their events arrive.
#include <cstdint>
#include <string>
#include <vector>

#include "bpf_session.hpp"
#include "interpreter.hpp"

namespace dlgen::capture {

// Traces `pid` and its descendants; returns how many descendants the traced set had no room for
// (lost, counted in trace::LostEvents::process_map). An error when `pid` itself cannot be added.
Result<std::uint64_t> trace_running_tree(std::uint32_t pid, BpfSession& bpf, Interpreter& interp);

// /proc/PID/cmdline as arguments (the command an attached trace records).
std::vector<std::string> command_line_of(std::uint32_t pid);

}  // namespace dlgen::capture
