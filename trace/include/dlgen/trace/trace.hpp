#pragma once
// The Trace model: what `dlgen capture` recorded, in memory. One home (this header), one writer and
// one reader (trace_io.hpp, HDF5 on disk, spec in docs/trace-format.md). Times are nanoseconds
// since the trace start (CLOCK_MONOTONIC based), sizes bytes.
#include <cstdint>
#include <string>
#include <vector>

namespace dlgen::trace {

// What an event is. Values are stored in trace files: append only, never renumber.
enum class Op : std::uint8_t {
  open = 0,
  close = 1,
  read = 2,
  pread = 3,
  readv = 4,
  preadv = 5,
  write = 6,
  pwrite = 7,
  writev = 8,
  pwritev = 9,
  lseek = 10,
  mmap = 11,
  munmap = 12,
  fsync = 13,
  fdatasync = 14,
  sync_file_range = 15,
  fallocate = 16,
  ftruncate = 17,
  rename = 18,
  unlink = 19,
  mkdir = 20,
  getdents = 21,
  stat = 22,
  sendfile = 23,
  copy_file_range = 24,
  uring_read = 25,
  uring_write = 26,
  uring_other = 27,
  sendmsg = 28,
  recvmsg = 29,   // on unix sockets: batch handover between workers and main
  shm_open = 30,  // a /dev/shm file opened (PyTorch tensor sharing); no payload
  block = 31,     // a block-layer request (with --block): offset = sector*512
  fork = 32,
  exec = 33,
  exit = 34,
  task_rename = 35,
  thread = 36,
  fault = 37,  // pages of a memory-mapped file made present in a traced process (page fault)
  // CUDA driver API calls of a traced process (uprobes on libcuda.so.1; docs/trace-format.md).
  cuda_sync = 38,    // the CPU waits for the GPU: dur_ns is the wait; flags: which call
  cuda_htod = 39,    // a host-to-device copy: size bytes; flags bit 0: async (queued)
  cuda_dtoh = 40,    // a device-to-host copy (loss.item()): size bytes; flags bit 0: async
  cuda_launch = 41,  // a kernel launch queued; offset: the CUfunction handle
};
constexpr int kOpCount = 42;
const char* to_string(Op op);
bool is_read(
    Op op);  // read, pread, readv, preadv, uring_read, sendfile/copy_file_range source side
bool is_write(Op op);  // write, pwrite, writev, pwritev, uring_write
bool is_cuda(Op op);   // cuda_sync, cuda_htod, cuda_dtoh, cuda_launch

constexpr std::uint32_t kNoFile = 0xffffffffu;
// Times (ts_ns, dur_ns, process start/end, duration) beyond 31 days are refused by the readers as
// corrupt: no capture runs that long, and inspect and summarize lay a trace out per second.
constexpr std::uint64_t kMaxTraceNs = 31ull * 86400 * 1'000'000'000;

// One event. For I/O: offset is the file position used, size the bytes asked for, ret the bytes
// done or -errno. For open: flags are the open flags, ret the fd. For process events: `arg` holds
// the child pid (fork/thread), exit code (exit); the name lives in the processes table.
struct Event {
  std::uint64_t ts_ns = 0;   // entry time since trace start
  std::uint64_t dur_ns = 0;  // entry to exit
  std::uint32_t pid = 0;     // process (tgid)
  std::uint32_t tid = 0;     // thread
  Op op = Op::read;
  std::uint32_t file = kNoFile;  // index into Trace::files
  std::int32_t fd = -1;
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
  std::int64_t ret = 0;
  std::uint32_t flags = 0;
  std::uint64_t arg = 0;
};

// A file, interned once: identity (dev, ino) and the path it was first opened by.
struct File {
  std::string path;
  std::uint64_t dev = 0;
  std::uint64_t ino = 0;
  std::uint64_t size_at_open = 0;  // i_size when first opened (0: unknown)
  std::uint64_t magic = 0;  // first up-to-8 bytes read at offset 0, little-endian (0: unseen)
  std::uint8_t magic_len = 0;
};

// A process or thread seen in the traced tree.
struct Process {
  std::uint32_t pid = 0;   // tid for threads
  std::uint32_t tgid = 0;  // == pid for processes
  std::uint32_t ppid = 0;  // parent (process) pid
  std::string comm;        // last name (after exec / task_rename)
  std::string first_comm;  // name at creation
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;  // 0: still alive at the end of the trace
  std::int32_t exit_code = 0;
  bool is_thread = false;
};

// A burst of a response's body: a run of receives of the program with no pause between one's
// exit and the next's entry longer than the capture's gap (kHttpBurstGapNs, tracer/src/
// http_tracker.hpp). A program that streams an object (a tar shard read by tarfile as it goes)
// takes its body in bursts between its other work; one that reads the body at once takes it in
// one. The body bytes that came in the receive that completed the response's head (read ahead
// by the client's buffer) belong to the first burst. docs/trace-format.md, "/http_body".
struct HttpBurst {
  std::uint64_t start_ns = 0;  // entry of its first receive
  std::uint64_t end_ns = 0;    // exit of its last receive
  std::uint64_t offset = 0;    // body bytes before it (0 for the first)
  std::uint64_t bytes = 0;     // body bytes in it
  bool operator==(const HttpBurst&) const = default;
};

// One HTTP/1.x request of a traced thread and its response, seen in the bytes of a TCP socket
// (sendto/recvfrom/sendmsg/recvmsg): how a program reads objects from an S3 store over plain
// HTTP. Paired in user space: a request is a send that starts with a request line; its response
// is every byte received on that connection until the response's head and Content-Length bytes
// of body have arrived (or the next request, or the connection's end). Only the fields below are
// kept from the bytes: never a header value other than Host and Range, never the query string's
// values (Authorization headers and presigned URLs carry credentials). docs/trace-format.md.
struct HttpRequest {
  std::uint32_t pid = 0;  // process (tgid)
  std::uint32_t tid = 0;  // the thread that sent the request
  std::int32_t fd = -1;
  std::string peer;    // the server's address, "127.0.0.1:8080" or "[::1]:8080"
  std::string method;  // GET, PUT, HEAD, POST, DELETE
  std::string host;    // the Host header ("" when absent or beyond the copied head)
  std::string path;    // the request target without its query: "/BUCKET/KEY" (path style)
  std::string query;   // the query's parameter names only, '&'-separated ("uploadId&partNumber")
  // The Range header's first range, bytes [range_first, range_last] inclusive; kNoRange in both
  // when the request has none (a whole object) or it is not of the form bytes=A-B.
  std::uint64_t range_first = kNoRange;
  std::uint64_t range_last = kNoRange;
  std::uint16_t status = 0;          // the response's status code; 0: no response seen
  std::uint64_t content_length = 0;  // the response's Content-Length (body bytes)
  std::uint64_t object_size = 0;  // from Content-Range ".../TOTAL", else a 200's length; 0 unknown
  std::uint64_t request_bytes = 0;   // bytes sent: request head and body
  std::uint64_t response_bytes = 0;  // bytes received: response head and body
  std::uint64_t request_ns = 0;      // entry of the send that began the request
  std::uint64_t first_byte_ns = 0;   // exit of the first receive of the response (0: none)
  std::uint64_t last_byte_ns = 0;    // exit of the receive that completed it (0: none)
  // The body's bursts in order when it came in more than one; empty when it came in one (or
  // the trace predates them, or the head or length was not seen: no offsets to place them).
  std::vector<HttpBurst> body;
  static constexpr std::uint64_t kNoRange = ~0ull;
  bool operator==(const HttpRequest&) const = default;
};

// Events dropped during a capture, by reason. Each drop is counted under exactly one reason, so
// total() is the number of events known to be missing (a lower bound: a process left out of the
// traced set counts once, though all its events are missing). Stored as the `lost_*` attributes
// (docs/trace-format.md); traces written before the breakdown read as all 0.
struct LostEvents {
  std::uint64_t ring_buffer = 0;  // kernel: the ring buffer was full (user space fell behind)
  std::uint64_t uring_map = 0;    // kernel: an io_uring request not tracked (in-flight map full)
  std::uint64_t block_map = 0;    // kernel: a block request not tracked (in-flight map full)
  std::uint64_t process_map = 0;  // a new process not added to the traced set (map full): once each
  std::uint64_t task_storage = 0;  // kernel: a syscall not recorded (no per-thread slot allocated)
  std::uint64_t cuda_map = 0;      // kernel: a CUDA driver call not recorded (in-call map full)
  std::uint64_t missed =
      0;  // kernel: a tracepoint hit skipped (program already running on the CPU)
  std::uint64_t malformed = 0;  // user space: a record too short, or of an unknown kind or op
  std::uint64_t total() const {
    return ring_buffer + uring_map + block_map + process_map + task_storage + cuda_map + missed +
           malformed;
  }
  bool operator==(const LostEvents&) const = default;
};

// The reasons in a fixed order, with their names (the attribute is "lost_" + name), for
// printing and for the reader and writer.
struct LostReason {
  const char* name;
  std::uint64_t LostEvents::*count;
  const char* what;
  const char* remedy;  // the `dlgen capture` option that avoids it, or ""
};
inline constexpr LostReason kLostReasons[] = {
    {"ring_buffer", &LostEvents::ring_buffer, "ring buffer full", "a larger --ring-mib"},
    {"uring_map", &LostEvents::uring_map, "io_uring in-flight map full",
     "a larger --inflight-map-entries"},
    {"block_map", &LostEvents::block_map, "block in-flight map full",
     "a larger --inflight-map-entries"},
    {"process_map", &LostEvents::process_map, "process map full (processes untraced)",
     "a larger --process-map-entries"},
    {"task_storage", &LostEvents::task_storage, "no per-thread slot", ""},
    {"cuda_map", &LostEvents::cuda_map, "CUDA in-call map full", ""},
    {"missed", &LostEvents::missed, "tracepoint hits skipped by the kernel", ""},
    {"malformed", &LostEvents::malformed, "malformed records", ""},
};
// The reasons with a count, as "2 ring_buffer (ring buffer full), 3 uring_map (io_uring in-flight
// map full)"; events in `total` under no reason (traces written before the breakdown, summaries
// that keep the total only) are "unattributed". Empty when total and every reason are 0.
std::string describe_lost(std::uint64_t total, const LostEvents& by_reason);
// The capture options that would avoid the counted reasons, as "a larger --ring-mib, a larger
// --inflight-map-entries" (each once); empty when none applies.
std::string lost_remedies(const LostEvents& by_reason);

// What a capture learned of the machine's GPUs (NVML) and of the CUDA driver library whose API
// it probed. Empty: not known (no NVML or no libcuda.so.1 there, or a trace from before dlgen
// recorded them).
struct GpuInfo {
  std::vector<std::string> devices;      // NVML device names in index order: the count is the size
  std::string driver;                    // NVML's driver version, e.g. "580.82.07"
  std::string cuda_lib;                  // the libcuda.so.1 whose driver API was probed (uprobes)
  std::vector<std::string> cuda_probes;  // the driver functions probed in it
  std::string note;  // why something is missing, e.g. "no libcuda.so.1 found (...)"
  bool operator==(const GpuInfo&) const = default;
};

struct Meta {
  std::vector<std::string> command;
  std::int64_t start_wall_ns = 0;   // CLOCK_REALTIME at trace start
  std::uint64_t start_mono_ns = 0;  // CLOCK_MONOTONIC at trace start (event ts are relative to it)
  std::uint64_t duration_ns = 0;
  std::string host;
  // The MPI rank and world size of the capturing process (`mpirun -np N dlgen capture`): from
  // OMPI_COMM_WORLD_RANK/SIZE, PMIX_RANK or PMI_RANK/SIZE. -1 and 0: not launched by MPI.
  std::int32_t rank = -1;
  std::int32_t world_size = 0;
  std::string kernel;
  std::string dlgen_version;
  std::uint64_t lost_events = 0;  // total events lost (lost.total(), or more in older traces)
  LostEvents lost;                // ... by reason
  std::int32_t exit_status = 0;
  bool block_layer = false;  // --block was on
  bool complete = true;      // false when the capture was killed before finishing
  GpuInfo gpu;
};

// One host's trace inside a merged trace (merge.hpp): which host and rank it came from, how its
// pids were moved (pid + pid_base) and its times (ts + offset_ns) in the merged trace.
struct HostPart {
  std::string source;  // where it was read from (a file name), for messages
  std::string host;
  std::int32_t rank = -1;
  std::uint32_t pid_base = 0;  // host index << kHostPidShift
  std::uint64_t offset_ns = 0;
};
// Pids of one host fit in 22 bits (Linux's PID_MAX_LIMIT on 64-bit is 2^22): a merged trace moves
// host h's pids and tids to h << 22 + pid, so up to 1023 hosts keep distinct ids.
constexpr std::uint32_t kHostPidShift = 22;

struct Trace {
  Meta meta;
  std::vector<File> files;
  std::vector<Process> processes;
  std::vector<Event> events;      // sorted by ts_ns
  std::vector<HttpRequest> http;  // sorted by request_ns; empty when no HTTP was seen
  // Empty for one capture. A trace merged from one capture per host (merge_host_traces) lists
  // them, in host order; not stored in trace files (merging is done when they are read).
  std::vector<HostPart> hosts;
};

}  // namespace dlgen::trace
