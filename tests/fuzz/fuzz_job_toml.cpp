// libFuzzer target: the job reader (TOML text -> Job, with every limit of validate). A job that
// parses must also write back as TOML that parses to the same Job.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "dlgen/core/job_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  dlgen::JobLoadOptions options;
  auto job = dlgen::parse_job(text, "fuzz.toml", options);
  if (!job) {
    // Refusals are bad input with a message that names the file.
    if (job.error().kind != dlgen::ErrorKind::bad_input ||
        job.error().message.find("fuzz.toml") == std::string::npos)
      std::abort();
    return 0;
  }
  auto back = dlgen::parse_job(dlgen::to_toml(*job), "fuzz.toml");
  if (!back) std::abort();
  // Overrides and the built-in scale go through the same reader.
  options.scale = "small";
  options.overrides = {"reader.batch_size=2", "run.epochs=1"};
  (void)dlgen::parse_job(text, "fuzz.toml", options);
  return 0;
}
