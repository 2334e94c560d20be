// capture() into an HDF5 trace file, created only once the BPF side is loaded.
#include "capture_impl.hpp"

namespace dlgen::capture {

Result<CaptureResult> capture(const CaptureOptions& options) {
  if (options.output.empty()) return input_error("capture: no output file (-o)");
  std::unique_ptr<trace::TraceWriter> writer;
  auto result = capture_with(options, [&]() -> Result<trace::TraceWriter*> {
    auto w = trace::TraceWriter::create(options.output);
    if (!w) return w.error();
    writer = std::move(*w);
    return writer.get();
  });
  if (!result && writer) {
    writer.reset();  // close the file before moving or removing it
    std::error_code ec;
    // What was flushed stays readable (trace files are made whole at each flush): keep it apart,
    // so that nobody takes it for a complete trace. Nothing readable: remove it.
    std::filesystem::path partial = options.output;
    partial.replace_extension(".partial" + options.output.extension().string());
    if (trace::read_trace(options.output)) {
      std::filesystem::rename(options.output, partial, ec);
      if (!ec) {
        Error e = result.error();
        e.message += "; the trace so far is in " + partial.string();
        return e;
      }
    }
    std::filesystem::remove(options.output, ec);
  }
  return result;
}

}  // namespace dlgen::capture
