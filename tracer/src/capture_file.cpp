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
    writer.reset();  // close the file before removing it
    std::error_code ec;
    std::filesystem::remove(options.output, ec);
  }
  return result;
}

}  // namespace dlgen::capture
