// capture() into an HDF5 trace file. Kept apart from capture.cpp so that tests capturing into an
// in-memory writer do not need the HDF5 writer.
#include "dlgen/capture/capture.hpp"

namespace dlgen::capture {

Result<CaptureResult> capture(const CaptureOptions& options) {
  if (options.output.empty()) return input_error("capture: no output file (-o)");
  // Load the BPF side first, so that a host without BPF privilege gets no empty trace file.
  if (auto probe = probe_bpf(); !probe) return probe.error();
  auto writer = trace::TraceWriter::create(options.output);
  if (!writer) return writer.error();
  auto result = capture(options, **writer);
  if (!result) {
    writer->reset();  // close the file before removing it
    std::error_code ec;
    std::filesystem::remove(options.output, ec);
  }
  return result;
}

}  // namespace dlgen::capture
