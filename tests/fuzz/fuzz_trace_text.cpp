// libFuzzer target: the text trace parser. A trace that parses must format back to text that
// parses to the same events, and inspect must summarise it.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "dlgen/trace/inspect.hpp"
#include "dlgen/trace/trace_text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto t = dlgen::trace::parse_trace_text(text);
  if (!t) {
    if (t.error().kind != dlgen::ErrorKind::bad_input || t.error().message.rfind("line ", 0) != 0)
      std::abort();
    return 0;
  }
  auto back = dlgen::trace::parse_trace_text(dlgen::trace::format_trace_text(*t));
  if (!back || back->events.size() != t->events.size() || back->files.size() != t->files.size())
    std::abort();
  const auto report = dlgen::trace::inspect(*t);
  (void)dlgen::trace::format_inspect(report);
  (void)dlgen::trace::inspect_json(report);
  return 0;
}
