#pragma once
// Edits of a job's TOML tree before it becomes a Job: named scales ([scales.NAME] tables, and the
// built-in "small") and `--set key=value` overrides. Both act on the tree, so their errors read
// the same as the file's; a value put there by --set remembers the override that set it.
#include <toml++/toml.h>

#include <map>
#include <string>

#include "dlgen/core/job.hpp"
#include "dlgen/core/job_io.hpp"
#include "dlgen/core/result.hpp"
#include "toml_reader.hpp"

namespace dlgen::detail {

// scale name -> dotted key -> value text, as the writer writes them back.
using Scales = std::map<std::string, std::map<std::string, std::string>>;

// The [scales.*] tables as written in the file, their keys checked against the schema even when
// no scale is applied; problems go to ctx.
Scales read_scales(Ctx& ctx, const toml::table& root);

// Applies `scale` ("" for none): merges [scales.<scale>] into the tree. Returns true for the
// built-in "small" when the file has no scale of that name (shrink_small applies it to the Job).
Result<bool> apply_scale(toml::table& root, const std::string& scale, const Scales& scales,
                         const std::string& source);

// The options' --set overrides in order, then --accelerator.
Result<void> apply_overrides(toml::table& root, const JobLoadOptions& options, Ctx& ctx);

// The built-in "small" scale: the dataset shrinks (same sizes and pattern) to about 1 GiB or
// less, keeping at least two steps per epoch; the validation set likewise; checkpoints capped at
// 256 MiB; an LLM keeps its parallelism and its layers shrink to a few MiB.
void shrink_small(Job& job);

}  // namespace dlgen::detail
