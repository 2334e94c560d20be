#pragma once
// What `dlgen inspect` shows about a trace: a plain summary struct computed by a pure function,
// printed as text for people or JSON for scripts. Times are seconds, sizes bytes.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "dlgen/core/result.hpp"
#include "dlgen/trace/trace.hpp"

namespace dlgen::trace {

// What a process or thread is in a PyTorch-style training run.
enum class Role : std::uint8_t {
  main,               // the traced command (root of the tree)
  dataloader_worker,  // comm starts with "pt_data_worker"
  pin_memory,         // comm contains "pin_mem" (the DataLoader's pin-memory thread)
  thread,             // any other thread
  child,              // any other process
};
const char* to_string(Role role);
// `main_pid` is the traced command's pid (see main_pid()).
Role role_of(const Process& p, std::uint32_t main_pid);
// The root of the traced tree: the first non-thread process whose parent is not in the trace.
std::uint32_t main_pid(const Trace& trace);

struct ProcessSummary {
  Process process;
  Role role = Role::child;
  std::uint64_t ops = 0;  // I/O events (read/write family)
  std::uint64_t bytes_read = 0, bytes_written = 0;
};

struct DirSummary {
  std::string dir;
  std::uint64_t files = 0;  // distinct files touched by any event
  std::uint64_t reads = 0, writes = 0;
  std::uint64_t bytes_read = 0, bytes_written = 0;
};

struct OpSummary {
  Op op = Op::read;
  std::uint64_t count = 0;
  std::uint64_t errors = 0;  // ret < 0
  std::uint64_t bytes = 0;   // bytes done (ret > 0) for reads and writes
  double busy_s = 0;         // summed duration
};

// Requests of size in [lo, hi): hi = 2*lo, and lo = 0, hi = 1 for zero-byte requests.
struct SizeBucket {
  std::uint64_t lo = 0, hi = 0;
  std::uint64_t reads = 0, writes = 0;
};

// I/O started in [t_s, t_s + 1).
struct SecondRow {
  std::uint64_t t_s = 0;
  std::uint64_t ops = 0, bytes_read = 0, bytes_written = 0;
};

// The CUDA driver calls in the trace (capture's uprobes on libcuda.so.1; docs/trace-format.md).
struct CudaSummary {
  std::uint64_t syncs = 0;                 // cuda_sync events
  double sync_wait_s = 0;                  // their summed duration: the CPU waiting for the GPU
  std::uint64_t htod = 0, htod_bytes = 0;  // host-to-device copies and the bytes they asked for
  std::uint64_t dtoh = 0, dtoh_bytes = 0;  // device-to-host copies
  std::uint64_t launches = 0;              // kernel launches
  std::uint64_t errors = 0;                // calls that returned a CUresult other than success
  std::uint64_t calls() const { return syncs + htod + dtoh + launches; }
};

// The HTTP requests of the trace (/http: a program reading objects from an S3 store over plain
// HTTP). Latencies are from the request's send: to the response's first byte and to its last.
struct HttpSummary {
  std::uint64_t requests = 0;
  std::uint64_t gets = 0, ranged = 0;  // GETs; requests with a Range header
  std::uint64_t errors = 0;            // no response, or a status of 400 and above
  std::uint64_t objects = 0;           // distinct host + path of the GETs
  std::uint64_t body_bytes = 0;        // summed Content-Length of 2xx responses
  std::uint64_t streamed = 0;          // responses whose body came in bursts (/http_body)
  std::uint64_t bursts = 0;            // their bursts (/http_body rows)
  std::vector<std::string> peers;      // the servers' addresses, in order of first use
  double first_byte_p50_s = 0, first_byte_p99_s = 0;
  double last_byte_p50_s = 0, last_byte_p99_s = 0;
};
HttpSummary summarize_http(const std::vector<HttpRequest>& http);

struct InspectReport {
  Meta meta;
  double duration_s = 0;
  std::uint64_t events = 0, files = 0;
  std::uint64_t bytes_read = 0, bytes_written = 0;
  std::vector<ProcessSummary> processes;
  std::vector<DirSummary> dirs;       // by bytes read + written, largest first
  std::vector<OpSummary> ops;         // ops that occur, by count, largest first
  std::vector<SizeBucket> sizes;      // non-empty buckets, ascending
  std::vector<SecondRow> throughput;  // every second of the trace, empty ones included
  CudaSummary cuda;
  HttpSummary http;
};

InspectReport inspect(const Trace& trace);
std::string format_inspect(const InspectReport& report);  // human-readable text
std::string inspect_json(
    const InspectReport& report);  // one JSON object, keys in docs/trace-format.md

// Chrome trace-event JSON (opens in ui.perfetto.dev and chrome://tracing): one track per
// process/thread named by process_name/thread_name metadata, one complete ("X") slice per event
// with args path, offset, size, ret; process events (fork, exec, exit, ...) as instant events.
void export_perfetto(const Trace& trace, std::ostream& out);
Result<void> export_perfetto(const Trace& trace, const std::string& path);

}  // namespace dlgen::trace
