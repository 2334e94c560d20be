// Reading the traces of one run: one file, or one per host (`mpirun -np N dlgen capture -o
// run-%r.h5`), merged into one trace (trace::merge_host_traces) for distil and compare.
#include "commands.hpp"
#include "dlgen/trace/merge.hpp"
#include "dlgen/trace/trace_io.hpp"

namespace dlgen::cli {

Result<trace::Trace> read_host_traces(const std::vector<std::string>& paths) {
  std::vector<trace::Trace> traces;
  for (const auto& p : paths) {
    auto t = trace::read_trace(p);
    if (!t) return t.error();
    traces.push_back(std::move(*t));
  }
  return trace::merge_host_traces(std::move(traces), paths);
}

std::string join_paths(const std::vector<std::string>& paths) {
  std::string out;
  for (const auto& p : paths) out += (out.empty() ? "" : " ") + p;
  return out;
}

}  // namespace dlgen::cli
