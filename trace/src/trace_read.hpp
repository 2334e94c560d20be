#pragma once
// Private to the trace module: the in-process reader with a meta-only mode, used by read_trace
// (trace_read.cpp) to read the attributes itself once its child has read and shipped the tables.
#include <filesystem>

#include "dlgen/core/result.hpp"
#include "dlgen/trace/trace.hpp"

namespace dlgen::trace {

// `meta_only`: the format checks and Trace::meta; files, processes and events stay empty.
Result<Trace> read_trace_in_process(const std::filesystem::path& path, bool meta_only);

}  // namespace dlgen::trace
