#include "load.hpp"

#include <fcntl.h>

#include <algorithm>
#include <cstring>
#include <span>

#include "dlgen/engine/registry.hpp"
#include "dlgen/engine/run_one.hpp"

namespace dlgen::replay {
namespace {

// One request to completion (engine::complete_one: a blocking wait, transient refusals tried
// again after a back-off), its stamps kept: bytes, or -errno.
std::int64_t read_one(IoEngine& e, const IoRequest& r, LoadRecord& into) {
  IoCompletion c;
  if (const int rc = engine::complete_one(e, r, c); rc != 1) return rc;
  into.latency.record(
      static_cast<std::uint64_t>(std::max<std::int64_t>(0, c.completed_ns - c.issued_ns)));
  ++into.requests;
  return c.result;
}

// The error of a read of `path` at `at` that returned `got` (-errno, or 0: the file ended).
Error read_error(const char* path, std::uint64_t at, std::int64_t got) {
  return runtime_error(std::string(path) + ": read at " + std::to_string(at) + ": " +
                       (got < 0 ? std::strerror(static_cast<int>(-got))
                                : "unexpected end of file (regenerate the dataset)"));
}

// The requests of one file, in the recipe's order; a short read asks again for the rest of its
// request.
Result<void> read_file(IoEngine& e, int target, const char* path, std::uint64_t f,
                       const std::vector<RecipeRequest>& requests, LoadRecord& into) {
  for (const RecipeRequest& q : requests) {
    for (std::uint64_t at = q.offset, end = q.offset + q.length; at < end;) {
      const auto len = static_cast<std::uint32_t>(end - at);
      const std::int64_t got = read_one(e, {target, engine::IoOp::read, 0, len, at, f}, into);
      if (got <= 0) return read_error(path, at, got);
      at += static_cast<std::uint64_t>(got);
      into.bytes += static_cast<std::uint64_t>(got);
    }
  }
  return ok();
}

Result<void> load_file(IoEngine& e, const FileTable& files, std::uint64_t f,
                       const LoadOptions& options, std::uint64_t request, LoadRecord& into) {
  const char* path = files.path(f);
  int target = -1;
  if (const int rc = e.open_file(path, O_RDONLY | O_CLOEXEC, target); rc < 0)
    return runtime_error(std::string(path) + ": open: " + std::strerror(-rc) +
                         (rc == -ENOENT ? " (generate the dataset with `dlgen generate JOB.toml`)"
                                        : ""));
  ++into.files;
  Result<void> out =
      read_file(e, target, path, f, recipe_requests(*options.recipe, files.size[f], request), into);
  (void)e.close_file(target);
  return out;
}

}  // namespace

Result<void> load_files(const FileTable& files, const LoadOptions& options, LoadRecord& into) {
  // A recipe's request never passes the end of its file.
  const std::uint64_t request =
      std::max<std::uint64_t>(1, std::min(files.max_size, kMaxLoadRequest));
  EngineOptions eo;
  eo.depth = 1;
  eo.buffers = 1;
  eo.buffer_bytes = request;
  eo.clock = options.clock;
  auto made = options.factory && *options.factory ? (*options.factory)(eo)
                                                  : engine::make(options.engine, eo);
  if (!made) return made.error();
  for (std::uint64_t f = 0; f < files.size.size(); ++f)
    if (Result<void> r = load_file(**made, files, f, options, request, into); !r) return r;
  return ok();
}

}  // namespace dlgen::replay
