#pragma once
// A compact text form of a Trace, for hand-written test traces and for debugging (grammar and
// examples: docs/trace-format.md, "Text form"). One line per record:
//   meta command="python3 train.py" host=h1 duration=2s exit=0 lost=0 complete=1
//   file path=/data/a.npz size=1MiB dev=2049 ino=12
//   proc pid=100 comm=python3 start=0 end=2s
//   proc pid=101 ppid=100 comm=pt_data_worker start=5ms
//   ts=1.000ms dur=20us pid=101 op=pread file=/data/a.npz off=0 size=4096 ret=4096
// Times take ns/us/ms/s (bare: ns); sizes take K/KiB/M/MiB/G/GiB (binary) or KB/MB/GB (decimal).
#include <optional>
#include <string>
#include <string_view>

#include "dlgen/core/result.hpp"
#include "dlgen/trace/trace.hpp"

namespace dlgen::trace {

// Errors name the line: "line 3: unknown op 'preed'".
Result<Trace> parse_trace_text(std::string_view text);
// Writes every field exactly (times in ns), so parse_trace_text(format_trace_text(t)) == t.
std::string format_trace_text(const Trace& trace);
// "pread" -> Op::pread; the names are those of to_string(Op).
std::optional<Op> op_from_string(std::string_view name);

}  // namespace dlgen::trace
