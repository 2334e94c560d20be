#pragma once
// An access recipe: how a loading library reads one sample file, as a sequence of read steps
// relative to the file (offsets from its start or its end, sizes fixed or "the rest"), so that it
// applies to files of any size. Learned by distil from a trace (analysis/recipe.hpp), written in a
// job as `reader.recipe` (docs/job-format.md), applied per sample by the replay.
//
// Text form of one step: OFFSET "+" LENGTH [ "/" CHUNK ] [ "@" ALIGN ] [ "~" BLOCK ], where
//   OFFSET  a size from the file's start ("4KiB", "30") or "end-" a size back from its end;
//   LENGTH  a size, "rest" (up to the end of the file) or "rest-N" (up to N bytes before the end:
//           torch.load reading a tensor's record, which the zip's central directory follows);
//   /CHUNK  the length is read in requests of at most CHUNK bytes (PIL's 64 KiB reads);
//   ~BLOCK  the length is read as one request up to the last BLOCK boundary (counted from the
//           file's start), then the tail in one more request: Python's buffered reader serving a
//           large read(n) (the whole blocks straight into the caller's memory, the tail through
//           its BLOCK-byte buffer).
//   @ALIGN  the length is read in pieces between multiples of ALIGN (from the file's start); with
//           ~BLOCK, a piece that starts on such a multiple starts with a BLOCK-byte request:
//           numpy reading an .npz member in 256 KiB reads through Python's 4 KiB buffer
//           ("8KiB+rest@256KiB~4KiB": 4 KiB, 252 KiB, 4 KiB, 252 KiB, ..., the tail).
// Examples: "0+4KiB", "end-22+22", "4KiB+rest/60KiB", "8KiB+rest~4KiB", "0+rest", "4KiB+rest-357".
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "dlgen/core/result.hpp"

namespace dlgen {

struct RecipeStep {
  bool from_end = false;      // offset counts back from the end of the file
  std::uint64_t offset = 0;   // bytes from the start (or back from the end)
  bool to_end = false;        // length: the rest of the file
  std::uint64_t length = 0;   // bytes when !to_end (> 0)
  std::uint64_t chunk = 0;    // requests of at most this many bytes; 0: one request
  std::uint64_t block = 0;    // aligned bulk then tail (see above); 0: none
  std::uint64_t align = 0;    // pieces between multiples of this (see above); 0: none
  std::uint64_t end_gap = 0;  // to_end: stop this many bytes before the end ("rest-N")
  bool operator==(const RecipeStep&) const = default;
};

using Recipe = std::vector<RecipeStep>;

// Steps a job may hold (the replay keeps each sample's steps in a fixed array).
constexpr std::size_t kMaxRecipeSteps = 64;

// The step's bytes in a file of `file_size` bytes: [begin, end), both clamped to the file (an
// offset past the end, or back past the start, reads nothing / starts at 0). `cut`: a request that
// starts before it ends at it (the ~BLOCK boundary); == end when the step has none.
struct StepRange {
  std::uint64_t begin = 0, end = 0, cut = 0;
};
StepRange step_range(const RecipeStep& step, std::uint64_t file_size);

// The end of the request that starts at `at` in `range` (before any buffer limit): at most a
// chunk, never across a multiple of align, a BLOCK head at such a multiple, never across the cut.
std::uint64_t request_end(const RecipeStep& step, const StepRange& range, std::uint64_t at);

// One read request.
struct RecipeRequest {
  std::uint64_t offset = 0, length = 0;
  bool operator==(const RecipeRequest&) const = default;
};

// The requests a recipe makes on a file of `file_size` bytes, in order: each step's range split at
// its cut and into chunks, and every request limited to `max_request` bytes (the replay's buffer;
// 0: no limit). Empty steps make none.
std::vector<RecipeRequest> recipe_requests(const Recipe& recipe, std::uint64_t file_size,
                                           std::uint64_t max_request = 0);

Result<RecipeStep> parse_recipe_step(std::string_view text);
std::string to_string(const RecipeStep& step);

// The recipe that the older per-library keys of reader.* (read = "file") stand for: probe at 0,
// header at 0, then the data from the end of the header in request_size requests.
Recipe legacy_recipe(std::uint64_t probe_bytes, std::uint64_t header_bytes,
                     std::uint64_t request_bytes);

}  // namespace dlgen
