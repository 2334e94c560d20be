#pragma once
// HDF5 trace files: whole-trace read and write, plus a streaming writer that the capture loop
// appends to in chunks, so a killed capture still leaves a readable file.
#include <filesystem>
#include <memory>

#include "dlgen/core/result.hpp"
#include "dlgen/trace/trace.hpp"

namespace dlgen::trace {

// Files keep every field exactly except two times, at a declared resolution finer than the
// tracer's jitter: ts_ns to the nearest 125 ns, dur_ns to 7 significant bits (<= 0.78 %).
// read_trace returns events sorted by ts_ns (each thread's own order kept). A corrupt file is an
// input error with the reason ("x.h5: corrupt trace: event 17 names file 90 but /files has 3
// rows"), never a crash: every index, length and count read from the file is checked, and since
// HDF5 1.10 itself can crash on corrupt metadata, the tables are read in a child process with
// time and memory limits (docs/trace-format.md, "What the reader checks").
Result<Trace> read_trace(const std::filesystem::path& path);
// The same checks, in this process only (a crash inside libhdf5 takes the process with it).
Result<Trace> read_trace_in_process(const std::filesystem::path& path);
Result<void> write_trace(const std::filesystem::path& path, const Trace& trace);

// Appends events in chunks; files and processes are rewritten on each flush. `finish` writes
// the final metadata. Destroying an unfinished writer flushes what it has (meta.complete = false).
class TraceWriter {
 public:
  static Result<std::unique_ptr<TraceWriter>> create(const std::filesystem::path& path);
  virtual ~TraceWriter() = default;
  virtual Result<void> append(const std::vector<Event>& events) = 0;
  // Rows of the /http table, each once it is complete; written at the next flush or finish.
  virtual Result<void> append_http(std::vector<HttpRequest> rows) = 0;
  virtual Result<void> flush(const Meta& meta, const std::vector<File>& files,
                             const std::vector<Process>& processes) = 0;
  virtual Result<void> finish(const Meta& meta, const std::vector<File>& files,
                              const std::vector<Process>& processes) = 0;
};

}  // namespace dlgen::trace
