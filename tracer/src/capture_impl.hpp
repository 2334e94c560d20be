#pragma once
// capture() with the sink opened only once the BPF programs are loaded and attached, so that a
// failure to load (no privilege) leaves no trace file behind.
#include <functional>

#include "dlgen/capture/capture.hpp"

namespace dlgen::capture {

using SinkOpener = std::function<Result<trace::TraceWriter*>()>;
Result<CaptureResult> capture_with(const CaptureOptions& options, const SinkOpener& open_sink);

}  // namespace dlgen::capture
