// libFuzzer target: the HDF5 trace reader (bytes of a trace file -> Trace, through a temporary
// file: read_trace reads paths, and reads them first in a child process), then inspect.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "dlgen/trace/inspect.hpp"
#include "dlgen/trace/trace_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const char* tmp = std::getenv("TMPDIR");
  static const std::filesystem::path path = std::filesystem::path(tmp && *tmp ? tmp : "/tmp") /
                                            ("dlgen-fuzz-" + std::to_string(::getpid()) + ".h5");
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    if (!out) std::abort();
  }
  auto t = dlgen::trace::read_trace(path);
  std::error_code ec;
  std::filesystem::remove(path, ec);
  if (!t) {
    if (t.error().kind != dlgen::ErrorKind::bad_input ||
        t.error().message.find(path.string()) == std::string::npos)
      std::abort();
    return 0;
  }
  const auto report = dlgen::trace::inspect(*t);
  (void)dlgen::trace::format_inspect(report);
  return 0;
}
