// Job files: TOML (toml++) <-> Job, the entry points. Reading is a pipeline over the TOML tree:
// parse -> [scales.*] read and the chosen scale merged (job_overrides.cpp) -> --set overrides
// applied -> the tree converted to a Job (job_reader.cpp) -> validate(), every problem reported at
// once with its file line or the override that caused it. The key schema is job_schema.cpp, the
// writer job_writer.cpp. Format spec: docs/job-format.md.
#include "dlgen/core/job_io.hpp"

#include <toml++/toml.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "job_overrides.hpp"
#include "toml_reader.hpp"

namespace dlgen {
namespace {

using namespace detail;

Result<toml::table> parse_tree(std::string_view text, const std::string& source) {
  try {
    return toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    return input_error(source + ":" + std::to_string(e.source().begin.line) + ":" +
                       std::to_string(e.source().begin.column) + ": " +
                       std::string(e.description()));
  }
}

std::string join_errors(const Ctx& ctx, const std::vector<Diagnostic>& diags) {
  std::string out;
  for (const auto& d : diags) out += (out.empty() ? "" : "\n") + ctx.format(d);
  return out;
}

// The reading problems, then validate()'s, leaving out a rule's problem about a key that already
// has one (a key that failed to read would otherwise be judged at its default).
std::vector<Diagnostic> with_validation(const Ctx& ctx, const Job& job) {
  std::set<std::string> reported;
  for (const auto& d : ctx.diags) reported.insert(d.path);
  std::vector<Diagnostic> all = ctx.diags;
  for (auto d : validate(job)) {
    bool shadowed = false;
    for (const auto& r : reported)
      if (d.path == r || d.path.starts_with(r + ".") || r.starts_with(d.path + "."))
        shadowed = true;
    if (shadowed) continue;
    all.push_back(d);
  }
  return all;
}

}  // namespace

Result<Job> parse_job(std::string_view toml_text, const std::filesystem::path& source_name,
                      const JobLoadOptions& options) {
  const std::string source = source_name.string();
  auto tree = parse_tree(toml_text, source);
  if (!tree) return tree.error();
  toml::table& root = *tree;
  Ctx ctx;
  ctx.source = source;

  Scales scales = read_scales(ctx, root);
  if (!ctx.diags.empty()) return input_error(join_errors(ctx, ctx.diags));
  Result<bool> builtin_small = apply_scale(root, options.scale, scales, source);
  if (!builtin_small) return builtin_small.error();
  root.erase("scales");
  if (Result<void> r = apply_overrides(root, options, ctx); !r) return r.error();

  Job job = job_from_tree(ctx, root, source_name);
  job.scales = std::move(scales);
  if (*builtin_small) shrink_small(job);

  const std::vector<Diagnostic> all = with_validation(ctx, job);
  if (!all.empty()) return input_error(join_errors(ctx, all));
  return job;
}

Result<Job> load_job(const std::filesystem::path& path, const JobLoadOptions& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return input_error(path.string() + ": cannot open job file: " + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad())
    return input_error(path.string() + ": cannot read job file: " + std::strerror(errno));
  return parse_job(ss.str(), path, options);
}

}  // namespace dlgen
