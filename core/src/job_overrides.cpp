// Scales and --set overrides on a job's TOML tree (job_overrides.hpp).
#include "job_overrides.hpp"

#include <algorithm>

#include "job_schema.hpp"
#include "toml_text.hpp"

namespace dlgen::detail {
namespace {

// [scales.NAME] tables flattened to dotted key → value text (inline tables are values).
void flatten(const toml::table& t, const std::string& prefix,
             std::map<std::string, std::string>& out, std::map<std::string, std::uint32_t>& lines) {
  for (auto&& [k, v] : t) {
    const std::string key =
        prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
    if (v.is_table() && !v.as_table()->is_inline()) {
      flatten(*v.as_table(), key, out, lines);
    } else {
      out[key] = node_text(v);
      lines[key] = line_of(v);
    }
  }
}

// Puts a copy of `value` at dotted `key` in `root`, creating tables on the way. toml++ copies drop
// source positions, so the override's line 1 (of its own "v = ..." snippet) never reaches a
// message.
Result<void> put(toml::table& root, const std::vector<std::string>& parts,
                 const toml::node& value) {
  toml::table* t = &root;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    toml::node* n = t->get(parts[i]);
    if (!n) {
      t->insert(parts[i], toml::table{});
      n = t->get(parts[i]);
    }
    if (!n->is_table()) return input_error("'" + parts[i] + "' is not a table");
    t = n->as_table();
  }
  t->insert_or_assign(parts.back(), value);
  return ok();
}

// Deep-merges `from` into `into` (tables that are not inline merge; anything else replaces).
void merge(toml::table& into, toml::table&& from) {
  for (auto&& [k, v] : from) {
    toml::node* existing = into.get(k.str());
    if (v.is_table() && !v.as_table()->is_inline() && existing && existing->is_table() &&
        !existing->as_table()->is_inline()) {
      merge(*existing->as_table(), std::move(*v.as_table()));
    } else {
      into.insert_or_assign(k, std::move(v));
    }
  }
}

Result<void> apply_override(toml::table& root, const std::string& text, Ctx& ctx) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    return input_error("--set " + text + ": expected key=value, e.g. reader.batch_size=8");
  auto trim = [](std::string s) {
    const auto b = s.find_first_not_of(" \t");
    const auto e = s.find_last_not_of(" \t");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
  };
  const std::string key = trim(text.substr(0, eq));
  const std::string value = trim(text.substr(eq + 1));
  if (auto problem = check_key_path(key); !problem.empty())
    return input_error("--set " + text + ": " + key + ": " + problem);
  // The value is TOML when it parses as such ("8", "true", "{dist=\"normal\", ...}"), else a
  // string.
  toml::table holder;
  try {
    holder = toml::parse("v = " + value);
  } catch (const toml::parse_error&) {
    holder = toml::table{};
    holder.insert("v", value);
  }
  toml::node* n = holder.get("v");
  // A key whose value is text takes the text as written: `--set job.name=2024` names it "2024".
  if (!n->is_string() && is_text_key(key)) {
    holder.insert_or_assign("v", value);
    n = holder.get("v");
  }
  if (auto r = put(root, split_dots(key), *n); !r)
    return input_error("--set " + text + ": " + r.error().message);
  ctx.origins[key] = "--set " + text;
  return ok();
}

}  // namespace

Scales read_scales(Ctx& ctx, const toml::table& root) {
  Scales scales;
  if (const toml::node* sn = root.get("scales")) {
    if (!sn->is_table()) {
      ctx.error("scales", line_of(*sn), "expected tables [scales.<name>]");
    } else {
      for (auto&& [name, v] : *sn->as_table()) {
        const std::string sp = "scales." + std::string(name.str());
        if (!v.is_table()) {
          ctx.error(sp, line_of(v), "expected a table [" + sp + "] of dotted keys");
          continue;
        }
        std::map<std::string, std::uint32_t> lines;
        flatten(*v.as_table(), "", scales[std::string(name.str())], lines);
        for (const auto& [key, text] : scales[std::string(name.str())])
          if (auto problem = check_key_path(key); !problem.empty())
            ctx.error(sp + "." + key, lines[key], problem);
      }
    }
  }
  return scales;
}

Result<bool> apply_scale(toml::table& root, const std::string& scale, const Scales& scales,
                         const std::string& source) {
  if (scale.empty()) return false;
  if (scales.count(scale)) {
    toml::table* st = root["scales"][scale].as_table();
    merge(root, std::move(*st));
    return false;
  }
  if (scale == "small") return true;
  std::string known = "built-in: small";
  for (const auto& [name, _] : scales) known = name + ", " + known;
  return input_error(source + ": unknown scale \"" + scale + "\" (known: " + known + ")");
}

Result<void> apply_overrides(toml::table& root, const JobLoadOptions& options, Ctx& ctx) {
  for (const auto& o : options.overrides)
    if (auto r = apply_override(root, o, ctx); !r) return r.error();
  if (!options.accelerator.empty())
    if (auto r = apply_override(root, "compute.accelerator=" + quote(options.accelerator), ctx); !r)
      return r.error();
  if (!options.accelerator.empty())
    ctx.origins["compute.accelerator"] = "--accelerator " + options.accelerator;
  return ok();
}

void shrink_small(Job& job) {
  const std::uint64_t per_step =
      std::uint64_t(std::max(job.reader.batch_size, 1u)) * std::max(job.run.accelerators, 1u);
  auto shrink = [&](DatasetSpec& d) {
    const std::uint64_t spf = std::max(d.samples_per_file, 1u);
    const double file_bytes = std::max(1.0, d.sample_size.expected() * double(spf));
    const std::uint64_t min_files = (2 * per_step + spf - 1) / spf;
    const std::uint64_t fit = static_cast<std::uint64_t>(double(1ull << 30) / file_bytes);
    d.num_files = std::min(d.num_files, std::max<std::uint64_t>({min_files, fit, 1}));
    // Whole samples of several files: per_step samples take per_step groups.
    if (const std::uint64_t k = std::max(d.files_per_sample, 1u); k > 1)
      d.num_files = std::max(d.num_files / k, 2 * per_step) * k;
  };
  shrink(job.dataset);
  if (job.validation) shrink(*job.validation);
  job.checkpoint.size_bytes = std::min<std::uint64_t>(job.checkpoint.size_bytes, 256ull << 20);
  if (job.model) {  // an LLM keeps its parallelism and ZeRO stage; its layers shrink to a few MiB
    LlmModel& m = *job.model;
    m.num_layers = std::min(m.num_layers, std::max(2u, m.pipeline));
    m.hidden_size = std::min<std::uint64_t>(m.hidden_size, 256);
    m.ffn_hidden_size = std::min<std::uint64_t>(m.ffn_hidden_size, 896);
    m.vocab_size = std::min<std::uint64_t>(m.vocab_size, 2000);
    m.attention_heads = std::min(m.attention_heads, 8u);
    m.kv_heads = std::min(m.kv_heads, m.attention_heads);
  }
  if (!job.run.train) {
    job.checkpoint.writes = std::min(job.checkpoint.writes, 2u);
    job.checkpoint.reads = std::min(job.checkpoint.reads, 2u);
    job.checkpoint.pause_s = 0;
  }
}

}  // namespace dlgen::detail
