#include "load.hpp"

#include <fcntl.h>

#include <algorithm>
#include <cstring>
#include <span>

#include "dlgen/engine/registry.hpp"

namespace dlgen::replay {
namespace {

// One request to completion, its stamps kept: bytes, or -errno.
std::int64_t read_one(IoEngine& e, const IoRequest& r, LoadRecord& into) {
  for (;;) {
    const int n = e.submit(std::span(&r, 1));
    if (n == 1) break;
    if (n < 0 && !engine::transient_error(n)) return n;
  }
  IoCompletion c;
  for (;;) {
    const int got = e.reap(std::span(&c, 1), 1);
    if (got == 1) break;
    if (got < 0 && !engine::transient_error(got)) return got;
  }
  into.latency.record(
      static_cast<std::uint64_t>(std::max<std::int64_t>(0, c.completed_ns - c.issued_ns)));
  ++into.requests;
  return c.result;
}

Result<void> load_file(IoEngine& e, const FileTable& files, std::uint64_t f,
                       std::uint64_t request, LoadRecord& into) {
  const char* path = files.path(f);
  int target = -1;
  if (const int rc = e.open_file(path, O_RDONLY | O_CLOEXEC, target); rc < 0)
    return runtime_error(std::string(path) + ": open: " + std::strerror(-rc) +
                         (rc == -ENOENT ? " (generate the dataset with `dlgen generate JOB.toml`)"
                                        : ""));
  ++into.files;
  const std::uint64_t size = files.size[f];
  std::uint64_t at = 0;
  Result<void> out = ok();
  while (at < size) {
    const auto len = static_cast<std::uint32_t>(std::min(request, size - at));
    const std::int64_t got = read_one(e, {target, engine::IoOp::read, 0, len, at, f}, into);
    if (got <= 0) {
      out = runtime_error(std::string(path) + ": read at " + std::to_string(at) + ": " +
                          (got < 0 ? std::strerror(static_cast<int>(-got))
                                   : "unexpected end of file (regenerate the dataset)"));
      break;
    }
    at += static_cast<std::uint64_t>(got);
    into.bytes += static_cast<std::uint64_t>(got);
  }
  (void)e.close_file(target);
  return out;
}

}  // namespace

Result<void> load_files(const FileTable& files, const LoadOptions& options, LoadRecord& into) {
  const std::uint64_t request = std::max<std::uint64_t>(
      1, std::min(options.request_bytes > 0 ? options.request_bytes
                                            : std::max<std::uint64_t>(files.max_size, 1),
                  kMaxLoadRequest));
  EngineOptions eo;
  eo.depth = 1;
  eo.buffers = 1;
  eo.buffer_bytes = request;
  eo.clock = options.clock;
  auto made = options.factory && *options.factory ? (*options.factory)(eo)
                                                  : engine::make(options.engine, eo);
  if (!made) return made.error();
  for (std::uint64_t f = 0; f < files.size.size(); ++f)
    if (Result<void> r = load_file(**made, files, f, request, into); !r) return r;
  return ok();
}

}  // namespace dlgen::replay
