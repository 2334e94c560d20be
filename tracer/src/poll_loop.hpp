#pragma once
// The ring-buffer poll loop of a capture: drain records into the interpreter (through the ring's
// callback), hand them to the recorder in chunks and flush it on time, until the traced run ends.
#include <cstdint>

#include "bpf_session.hpp"
#include "interpreter.hpp"
#include "recorder.hpp"
#include "traced_command.hpp"

namespace dlgen::capture {

// What is traced: the command dlgen started (held and released), or an attached process (-p).
struct TracedRun {
  HeldCommand& command;  // empty when attached
  std::uint32_t attach_pid = 0;
};

// Polls until the command exits (its status into result.exit_status), the attached process is
// gone, Ctrl-C ends an attached capture, or --duration passes (result.interrupted). A failure of
// the loop itself kills the command and keeps the trace so far (Recorder::keep_partial).
Result<void> poll_until_done(const CaptureOptions& o, BpfSession& bpf, const Interpreter& interp,
                             Recorder& recorder, TracedRun run, CaptureResult& result);

// Consumes what is left in the ring buffer once the run is over.
void drain_remaining(BpfSession& bpf);

}  // namespace dlgen::capture
