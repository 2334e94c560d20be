#pragma once
// Accelerators that are threads of one process (dlgen's own replay: run.accelerators > 1 runs each
// accelerator as a thread with its own reader threads, in one process). The rest of summarize
// finds one accelerator per consuming process, so such a trace is rewritten first: each
// accelerator's threads (the consumer that receives batch tokens with recvmsg, and the readers
// that send them with sendmsg) become one process of their own, a child of the real one, named by
// the pid of its first consumer thread. A reader belongs to the consumer at the other end of its
// socket: the replay makes one socketpair per accelerator, in accelerator order, so within one
// phase (threads that run at the same time) the k-th lowest sending descriptor pairs with the k-th
// lowest receiving one; phase after phase, the k-th accelerator keeps one process. A reader joins
// the phase nearest in time (it may be done before its consumer's first receipt: a short share
// under mpirun); threads that both send and receive, or send without reading a file (MPI's own
// threads under mpirun), are neither consumers nor readers.
#include <optional>

#include "dlgen/trace/trace.hpp"

namespace dlgen::analysis {

// The rewritten trace when some process runs two or more consumer threads at once, each fed by its
// own sending threads; else nullopt (PyTorch traces, one-accelerator replays).
std::optional<trace::Trace> split_thread_accelerators(const trace::Trace& t);

}  // namespace dlgen::analysis
