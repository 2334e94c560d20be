// Job files: TOML (toml++) ⇄ Job. This is the only translation unit that includes toml++ (it is
// slow to compile and its types stay out of public headers). Format spec: docs/job-format.md.
#include "dlgen/core/job_io.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "dlgen/core/closest_key.hpp"
#include "dlgen/core/units.hpp"
#include "units_internal.hpp"

namespace dlgen {
namespace {

using namespace std::string_view_literals;

// ---------------------------------------------------------------------------------------------
// The key schema: which keys each section accepts. Used for unknown-key errors (with a "did you
// mean"), for checking `--set` keys before they touch the tree, and for [scales.*] tables.

const std::vector<std::string_view> kSections = {
    "job", "dataset", "validation", "reader", "compute", "checkpoint", "run", "model", "scales"};
const std::vector<std::string_view> kJobKeys = {"name", "description"};
const std::vector<std::string_view> kDatasetKeys = {
    "dir",       "format", "num_files",     "samples_per_file", "sample_size",
    "file_size", "seed",   "files_per_dir", "file_prefix"};
const std::vector<std::string_view> kReaderKeys = {
    "batch_size",   "workers",     "prefetch", "shuffle", "shuffle_buffer", "seed",    "read",
    "request_size", "header_read", "iodepth",  "direct",  "drop_last",      "startup", "preprocess",
    "warmup",       "readahead",   "probe",    "recipe",  "startup_spread"};
const std::vector<std::string_view> kComputeKeys = {"accelerator", "time", "eval_time",
                                                    "batch_overhead", "au_threshold"};
const std::vector<std::string_view> kAcceleratorKeys = {"time"};
const std::vector<std::string_view> kCheckpointKeys = {
    "enabled",    "every_epochs", "first_epoch", "every_steps", "size",
    "files",      "write_size",   "fsync",       "dir",         "restore",
    "writes",     "reads",        "pause",       "mode",        "ranks_per_host",
    "write_call", "direct",       "copy",        "copy_every",  "keep"};
const std::vector<std::string_view> kRunKeys = {
    "epochs", "accelerators", "max_steps", "eval_every_epochs",
    "cache",  "max_time",     "train",     "sync_steps"};
// [model]: an LLM as DLIO describes it (core/llm.hpp); the names are model_problems()' keys.
const std::vector<std::string_view> kModelKeys = {
    "num_layers",      "hidden_size",       "ffn_hidden_size", "vocab_size",
    "attention_heads", "kv_heads",          "datatype",        "optimizer_datatype",
    "tensor_parallel", "pipeline_parallel", "data_parallel",   "zero_stage"};
const std::vector<std::string_view> kDistKeys = {"dist", "value", "mean", "stdev",
                                                 "min",  "max",   "bins"};

const std::vector<std::string_view>* keys_of(std::string_view section) {
  if (section == "job") return &kJobKeys;
  if (section == "dataset" || section == "validation") return &kDatasetKeys;
  if (section == "reader") return &kReaderKeys;
  if (section == "compute") return &kComputeKeys;
  if (section == "checkpoint") return &kCheckpointKeys;
  if (section == "run") return &kRunKeys;
  if (section == "model") return &kModelKeys;
  return nullptr;
}

// " (did you mean 'batch_size'?)" for the closest known key, or "" when none is close.
std::string suggestion(std::string_view key, const std::vector<std::string_view>& known) {
  const std::string_view best = closest_key(key, known);
  if (best.empty()) {
    std::string list;
    for (auto k : known) list += (list.empty() ? "" : ", ") + std::string(k);
    return " (known keys: " + list + ")";
  }
  return " (did you mean '" + std::string(best) + "'?)";
}

std::vector<std::string> split_dots(std::string_view s) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t dot = s.find('.', start);
    parts.emplace_back(
        s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return parts;
}

bool is_dist_key(std::string_view section, std::string_view key) {
  return ((section == "dataset" || section == "validation") &&
          (key == "sample_size" || key == "file_size")) ||
         (section == "compute" && (key == "time" || key == "eval_time" || key == "batch_overhead"));
}

// Checks a dotted key path against the schema; returns "" when it names a settable key.
std::string check_key_path(std::string_view dotted) {
  const auto parts = split_dots(dotted);
  for (const auto& p : parts)
    if (p.empty()) return "is not a valid dotted key";
  const std::string& section = parts[0];
  if (std::find(kSections.begin(), kSections.end(), section) == kSections.end() ||
      section == "scales")
    return "unknown section '" + section + "'" + suggestion(section, kSections);
  if (parts.size() == 1) return "is a table; set one of its keys (e.g. " + section + ".<key>)";
  const auto* known = keys_of(section);
  const std::string& key = parts[1];
  std::size_t next = 2;
  if (section == "compute" && std::find(known->begin(), known->end(), key) == known->end()) {
    // compute.<accelerator>.time
    if (parts.size() < 3)
      return "unknown key '" + key + "'" + suggestion(key, *known) +
             "; per-accelerator step times are compute.<name>.time";
    if (parts[2] != "time")
      return "unknown key '" + parts[2] + "'" + suggestion(parts[2], kAcceleratorKeys);
    if (parts.size() == 3) return "";
    if (parts.size() == 4 &&
        std::find(kDistKeys.begin(), kDistKeys.end(), parts[3]) != kDistKeys.end())
      return "";
    return parts.size() == 4 ? "unknown key '" + parts[3] + "'" + suggestion(parts[3], kDistKeys)
                             : "is too deep";
  }
  if (std::find(known->begin(), known->end(), key) == known->end())
    return "unknown key '" + key + "'" + suggestion(key, *known);
  if (parts.size() == next) return "";
  if (is_dist_key(section, key) && parts.size() == next + 1) {
    if (std::find(kDistKeys.begin(), kDistKeys.end(), parts[next]) != kDistKeys.end()) return "";
    return "unknown key '" + parts[next] + "'" + suggestion(parts[next], kDistKeys);
  }
  return "'" + key + "' is not a table";
}

// ---------------------------------------------------------------------------------------------
// TOML value text (for [scales.*] entries and the writer).

std::string quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string float_text(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  std::string s = shortest_double(v);
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}

std::string bare_or_quoted_key(std::string_view k) {
  const bool bare = !k.empty() && std::all_of(k.begin(), k.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
  return bare ? std::string(k) : quote(k);
}

std::string node_text(const toml::node& n) {
  if (auto s = n.as_string()) return quote(s->get());
  if (auto i = n.as_integer()) return std::to_string(i->get());
  if (auto f = n.as_floating_point()) return float_text(f->get());
  if (auto b = n.as_boolean()) return b->get() ? "true" : "false";
  if (auto a = n.as_array()) {
    std::string out = "[";
    for (std::size_t i = 0; i < a->size(); ++i) out += (i ? ", " : "") + node_text(*a->get(i));
    return out + "]";
  }
  if (auto t = n.as_table()) {
    std::string out = "{";
    bool first = true;
    for (auto&& [k, v] : *t) {
      out += (first ? " " : ", ") + bare_or_quoted_key(k.str()) + " = " + node_text(v);
      first = false;
    }
    return out + (first ? "}" : " }");
  }
  std::ostringstream os;  // dates and times: toml++'s own rendering
  n.visit([&](auto&& v) { os << v; });
  return os.str();
}

// ---------------------------------------------------------------------------------------------
// Conversion TOML tree → Job, collecting every problem.

std::uint32_t line_of(const toml::node& n) {
  return n.source().begin.line;
}

struct Ctx {
  std::string source;
  std::vector<Diagnostic> diags;
  std::map<std::string, std::uint32_t> lines;  // dotted path → line in the file
  std::map<std::string, std::string> origins;  // dotted path → "--set k=v" that put it there

  void error(const std::string& path, std::uint32_t line, std::string message) {
    diags.push_back({path, std::move(message), line});
  }
  std::uint32_t line_for(std::string path) const {
    for (;;) {
      auto it = lines.find(path);
      if (it != lines.end() && it->second) return it->second;
      const auto dot = path.find_last_of(".[");
      if (dot == std::string::npos) return 0;
      path.resize(dot);
    }
  }
  std::string origin_for(std::string path) const {
    for (;;) {
      auto it = origins.find(path);
      if (it != origins.end()) return it->second;
      const auto dot = path.find_last_of(".[");
      if (dot == std::string::npos) return "";
      path.resize(dot);
    }
  }
  std::string format(const Diagnostic& d) const {
    std::string where = source;
    // A value put there by --set has no line: name the override instead of its section's line.
    const std::string o = origin_for(d.path);
    std::uint32_t line = d.line;
    if (!line && o.empty()) line = line_for(d.path);
    if (line) where += ":" + std::to_string(line);
    std::string from;
    if (!line && !o.empty()) from = " (from " + o + ")";
    return where + ": " + d.path + from + ": " + d.message;
  }
};

enum class Unit { bytes, seconds };

// Reads one section table, remembering which keys it consumed.
class Section {
 public:
  Section(Ctx& ctx, const toml::table* t, std::string prefix)
      : ctx_(ctx), t_(t), prefix_(std::move(prefix)) {}

  std::string path(std::string_view key) const { return prefix_ + "." + std::string(key); }
  bool has(std::string_view key) const { return t_ && t_->contains(key); }

  const toml::node* get(std::string_view key) {
    if (!t_) return nullptr;
    const toml::node* n = t_->get(key);
    if (n) ctx_.lines[path(key)] = line_of(*n);
    return n;
  }

  template <class Int>
  void integer(std::string_view key, Int& out) {
    const toml::node* n = get(key);
    if (!n) return;
    // Only an integer node is asked for its value: toml++ converts a float to int64 with a cast,
    // which is undefined beyond int64's range (found by fuzzing: workers = 5.5e39).
    if (!n->is_integer()) return type_error(key, *n, "a whole number");
    auto v = n->value<std::int64_t>();
    if (!v) return type_error(key, *n, "a whole number");
    if (*v < 0) return ctx_.error(path(key), line_of(*n), "must be >= 0");
    if (static_cast<std::uint64_t>(*v) > std::numeric_limits<Int>::max())
      return ctx_.error(
          path(key), line_of(*n),
          "is too large (at most " + std::to_string(std::numeric_limits<Int>::max()) + ")");
    out = static_cast<Int>(*v);
  }

  void size(std::string_view key, std::uint64_t& out) {
    const toml::node* n = get(key);
    if (!n) return;
    auto v = scalar(*n, path(key), Unit::bytes);
    // Beyond 2^64 saturates (llround would overflow); limits::check_limits names the limit.
    if (v) out = *v < 0x1p64 ? static_cast<std::uint64_t>(std::round(*v)) : UINT64_MAX;
  }

  void duration(std::string_view key, double& out) {
    const toml::node* n = get(key);
    if (!n) return;
    auto v = scalar(*n, path(key), Unit::seconds);
    if (v) out = *v;
  }

  void number(std::string_view key, double& out) {
    const toml::node* n = get(key);
    if (!n) return;
    if (!n->is_number()) return type_error(key, *n, "a number");
    out = *n->value<double>();
  }

  void boolean(std::string_view key, bool& out) {
    const toml::node* n = get(key);
    if (!n) return;
    if (!n->is_boolean()) return type_error(key, *n, "true or false");
    out = *n->value<bool>();
  }

  void string(std::string_view key, std::string& out) {
    const toml::node* n = get(key);
    if (!n) return;
    if (!n->is_string()) return type_error(key, *n, "a string");
    out = *n->value<std::string>();
  }

  void path_value(std::string_view key, std::filesystem::path& out) {
    std::string s;
    bool present = has(key);
    string(key, s);
    if (present && !s.empty())
      out = s;
    else if (present)
      ctx_.error(path(key), ctx_.lines[path(key)], "must not be empty");
  }

  template <class E>
  void choice(std::string_view key, E& out,
              std::initializer_list<std::pair<std::string_view, E>> options) {
    const toml::node* n = get(key);
    if (!n) return;
    std::string list;
    for (auto& [name, _] : options)
      list += (list.empty() ? "\"" : ", \"") + std::string(name) + "\"";
    if (!n->is_string()) return type_error(key, *n, "one of " + list);
    const std::string s = *n->value<std::string>();
    for (auto& [name, value] : options)
      if (s == name) {
        out = value;
        return;
      }
    ctx_.error(path(key), line_of(*n),
               "unknown value \"" + s + "\" (expected one of " + list + ")");
  }

  void distribution(std::string_view key, Distribution& out, Unit unit) {
    const toml::node* n = get(key);
    if (!n) return;
    read_distribution(*n, path(key), out, unit);
  }

  void read_distribution(const toml::node& n, const std::string& p, Distribution& out, Unit unit) {
    if (!n.is_table()) {
      auto v = scalar(n, p, unit);
      if (v) out = Distribution::fixed_at(*v);
      return;
    }
    const toml::table& t = *n.as_table();
    Distribution d;
    Section s(ctx_, &t, p);
    std::string kind_name;
    s.string("dist", kind_name);
    if (kind_name.empty()) {
      if (t.contains("bins"))
        kind_name = "histogram";
      else if (t.contains("mean"))
        kind_name = "normal";
      else if (t.contains("value"))
        kind_name = "fixed";
      else if (t.contains("min") && t.contains("max"))
        kind_name = "uniform";
      else {
        ctx_.error(p, line_of(n),
                   "a distribution table needs dist = \"fixed\", \"normal\", \"lognormal\", "
                   "\"uniform\", \"gamma\" or \"histogram\"");
        return;
      }
    }
    bool known = false;
    for (DistKind k : {DistKind::fixed, DistKind::normal, DistKind::lognormal, DistKind::uniform,
                       DistKind::gamma, DistKind::histogram})
      if (kind_name == to_string(k)) {
        d.kind = k;
        known = true;
      }
    if (!known) {
      ctx_.error(p + ".dist", ctx_.lines[p + ".dist"],
                 "unknown distribution \"" + kind_name +
                     "\" (expected fixed, normal, lognormal, uniform, gamma or histogram)");
      return;
    }
    auto param = [&](std::string_view k, double& field, bool required) {
      const toml::node* pn = s.get(k);
      if (!pn) {
        if (required)
          ctx_.error(p + "." + std::string(k), line_of(n),
                     "is required for dist = \"" + kind_name + "\"");
        return;
      }
      auto v = scalar(*pn, p + "." + std::string(k), unit);
      if (v) field = *v;
    };
    std::vector<std::string_view> used = {"dist", "min", "max"};
    switch (d.kind) {
      case DistKind::fixed:
        param("value", d.value, true);
        used.push_back("value");
        break;
      case DistKind::normal:
      case DistKind::lognormal:
      case DistKind::gamma:
        param("mean", d.mean, true);
        param("stdev", d.stdev, true);
        used.insert(used.end(), {"mean", "stdev"});
        break;
      case DistKind::uniform:
        break;
      case DistKind::histogram: {
        used.push_back("bins");
        const toml::node* bn = s.get("bins");
        if (!bn) {
          ctx_.error(p + ".bins", line_of(n), "is required for dist = \"histogram\"");
          break;
        }
        read_bins(*bn, p + ".bins", d, unit);
        break;
      }
    }
    param("min", d.min, d.kind == DistKind::uniform);
    param("max", d.max, d.kind == DistKind::uniform);
    for (auto&& [k, v] : t) {
      const std::string_view ks = k.str();
      if (std::find(used.begin(), used.end(), ks) != used.end()) continue;
      if (std::find(kDistKeys.begin(), kDistKeys.end(), ks) != kDistKeys.end())
        ctx_.error(p + "." + std::string(ks), line_of(v),
                   "is not used by dist = \"" + kind_name + "\"");
      else
        ctx_.error(p + "." + std::string(ks), line_of(v),
                   "unknown key" + suggestion(ks, kDistKeys));
    }
    out = d;
  }

  // An access recipe: an array of step strings (core/recipe.hpp), each error with its index.
  void recipe(std::string_view key, Recipe& out) {
    const toml::node* n = get(key);
    if (!n) return;
    const toml::array* a = n->as_array();
    if (!a) return type_error(key, *n, "an array of steps such as [\"0+4KiB\", \"4KiB+rest\"]");
    Recipe r;
    for (std::size_t i = 0; i < a->size(); ++i) {
      const toml::node& e = *a->get(i);
      const std::string p = path(key) + "[" + std::to_string(i) + "]";
      if (!e.is_string()) {
        ctx_.error(p, line_of(e), "expected a step such as \"0+4KiB\", got " + node_text(e));
        continue;
      }
      auto st = parse_recipe_step(*e.value<std::string>());
      if (!st) {
        ctx_.error(p, line_of(e), st.error().message);
        continue;
      }
      r.push_back(*st);
    }
    out = std::move(r);
  }

  // Unknown keys in this section: every key not consumed and not in `known`.
  void check_unknown(const std::vector<std::string_view>& known) {
    if (!t_) return;
    for (auto&& [k, v] : *t_) {
      if (std::find(known.begin(), known.end(), k.str()) != known.end()) continue;
      const std::string p = path(k.str());
      std::uint32_t line = k.source().begin.line ? k.source().begin.line : line_of(v);
      ctx_.error(p, line, "unknown key" + suggestion(k.str(), known));
    }
  }

 private:
  void type_error(std::string_view key, const toml::node& n, const std::string& expected) {
    ctx_.error(path(key), line_of(n), "expected " + expected + ", got " + node_text(n));
  }

  // A size (bytes) or a duration (seconds): a number >= 0, or a string with a unit ("146MiB",
  // "0.3s").
  std::optional<double> scalar(const toml::node& n, const std::string& p, Unit unit) {
    const bool bytes = unit == Unit::bytes;
    if (n.is_number()) {
      const double v =
          n.is_integer() ? static_cast<double>(*n.value<std::int64_t>()) : *n.value<double>();
      if (!(v >= 0)) {
        ctx_.error(p, line_of(n), "must be >= 0");
        return std::nullopt;
      }
      return v;
    }
    if (n.is_string()) {
      const std::string text = *n.value<std::string>();
      auto r = bytes ? parse_size_value(text) : parse_duration_s(text);
      if (!r) {
        ctx_.error(p, line_of(n), r.error().message);
        return std::nullopt;
      }
      return *r;
    }
    ctx_.error(
        p, line_of(n),
        bytes
            ? "expected a size such as \"146MiB\" or a number of bytes, got " + node_text(n)
            : "expected a duration such as \"0.323s\" or a number of seconds, got " + node_text(n));
    return std::nullopt;
  }

  void read_bins(const toml::node& bn, const std::string& p, Distribution& d, Unit unit) {
    const toml::array* a = bn.as_array();
    if (!a) {
      ctx_.error(p, line_of(bn), "expected an array of [lo, hi, weight] bins");
      return;
    }
    for (std::size_t i = 0; i < a->size(); ++i) {
      const toml::node& e = *a->get(i);
      const std::string bp = p + "[" + std::to_string(i) + "]";
      const toml::array* b = e.as_array();
      if (!b || (b->size() != 3 && b->size() != 2)) {
        ctx_.error(bp, line_of(e), "expected [lo, hi, weight] or [value, weight]");
        continue;
      }
      HistogramBin bin;
      auto lo = scalar(*b->get(0), bp, unit);
      auto hi = b->size() == 3 ? scalar(*b->get(1), bp, unit) : lo;
      const toml::node& w = *b->get(b->size() - 1);
      if (!w.is_number()) {
        ctx_.error(bp, line_of(e), "weight must be a number, got " + node_text(w));
        continue;
      }
      if (!lo || !hi) continue;
      bin.lo = *lo;
      bin.hi = *hi;
      bin.weight = *w.value<double>();
      d.bins.push_back(bin);
    }
  }

  Ctx& ctx_;
  const toml::table* t_;
  std::string prefix_;
};

const toml::table* subtable(Ctx& ctx, const toml::table& root, std::string_view name) {
  const toml::node* n = root.get(name);
  if (!n) return nullptr;
  ctx.lines[std::string(name)] = line_of(*n);
  if (!n->is_table()) {
    ctx.error(std::string(name), line_of(*n), "expected a table ([" + std::string(name) + "])");
    return nullptr;
  }
  return n->as_table();
}

void read_dataset(Ctx& ctx, const toml::table* t, const std::string& prefix, DatasetSpec& d) {
  Section s(ctx, t, prefix);
  s.path_value("dir", d.dir);
  if (const toml::node* n = s.get("format")) {
    if (auto v = n->value<std::string>(); n->is_string() && format_from_string(*v))
      d.format = *format_from_string(*v);
    else
      ctx.error(prefix + ".format", line_of(*n),
                "unknown format " + node_text(*n) +
                    " (expected one of \"raw\", \"npz\", \"hdf5\", \"jpeg\", \"tfrecord\")");
  }
  s.integer("num_files", d.num_files);
  s.integer("samples_per_file", d.samples_per_file);
  s.distribution("sample_size", d.sample_size, Unit::bytes);
  if (s.has("file_size")) {
    if (s.has("sample_size"))
      ctx.error(prefix + ".file_size", ctx.lines[prefix + ".sample_size"],
                "give either sample_size or file_size, not both");
    else if (d.samples_per_file != 1)
      ctx.error(prefix + ".file_size", 0,
                "is a synonym of sample_size only when samples_per_file = 1");
    s.distribution("file_size", d.sample_size, Unit::bytes);
    ctx.lines[prefix + ".sample_size"] = ctx.lines[prefix + ".file_size"];
  }
  s.integer("seed", d.seed);
  s.integer("files_per_dir", d.files_per_dir);
  s.string("file_prefix", d.file_prefix);
  s.check_unknown(kDatasetKeys);
}

Job convert(Ctx& ctx, const toml::table& root, const std::filesystem::path& source) {
  Job job;
  job.source = source;
  for (auto&& [k, v] : root) {
    if (std::find(kSections.begin(), kSections.end(), k.str()) == kSections.end())
      ctx.error(std::string(k.str()), k.source().begin.line ? k.source().begin.line : line_of(v),
                "unknown section" + suggestion(k.str(), kSections));
  }

  {
    Section s(ctx, subtable(ctx, root, "job"), "job");
    s.string("name", job.name);
    s.string("description", job.description);
    s.check_unknown(kJobKeys);
    if (job.name.empty()) job.name = source.stem().string();
  }

  const toml::table* dataset = subtable(ctx, root, "dataset");
  // A checkpoint-only job ([run] train = false) reads no dataset.
  const toml::node* train_node = root.at_path("run.train").node();
  const bool checkpoint_only = train_node && train_node->value<bool>() == false;
  if (!dataset && !checkpoint_only)
    ctx.error("dataset", 0, "is required ([dataset] with at least dir and sample_size)");
  read_dataset(ctx, dataset, "dataset", job.dataset);
  if (dataset && !dataset->contains("sample_size") && !dataset->contains("file_size"))
    ctx.error("dataset.sample_size", ctx.lines["dataset"],
              "is required (a size such as \"146MiB\" or a distribution)");

  if (const toml::table* v = subtable(ctx, root, "validation")) {
    // Unset keys follow [dataset]; the directory and seed differ so the two sets never collide.
    DatasetSpec vs = job.dataset;
    vs.dir = job.dataset.dir.empty() ? std::filesystem::path()
                                     : std::filesystem::path(job.dataset.dir.string() + "-valid");
    vs.seed = job.dataset.seed + 1;
    read_dataset(ctx, v, "validation", vs);
    job.validation = vs;
  }

  {
    ReaderSpec& r = job.reader;
    Section s(ctx, subtable(ctx, root, "reader"), "reader");
    s.integer("batch_size", r.batch_size);
    s.integer("workers", r.workers);
    s.integer("prefetch", r.prefetch);
    s.choice("shuffle", r.shuffle,
             {{"none", Shuffle::none}, {"file", Shuffle::file}, {"sample", Shuffle::sample}});
    s.integer("shuffle_buffer", r.shuffle_buffer);
    s.integer("seed", r.seed);
    s.choice(
        "read", r.read_unit,
        {{"file", ReadUnit::file}, {"sample", ReadUnit::sample}, {"stream", ReadUnit::stream}});
    s.size("request_size", r.request_size_bytes);
    s.size("header_read", r.header_read_bytes);
    s.size("readahead", r.readahead_bytes);
    s.size("probe", r.probe_bytes);
    s.recipe("recipe", r.recipe);
    s.integer("iodepth", r.iodepth);
    s.boolean("direct", r.direct);
    s.boolean("drop_last", r.drop_last);
    s.duration("startup", r.startup_s);
    s.distribution("startup_spread", r.startup_spread, Unit::seconds);
    s.duration("warmup", r.warmup_s);
    s.distribution("preprocess", r.preprocess, Unit::seconds);
    s.check_unknown(kReaderKeys);
  }

  {
    ComputeSpec& c = job.compute;
    const toml::table* t = subtable(ctx, root, "compute");
    Section s(ctx, t, "compute");
    s.string("accelerator", c.accelerator);
    s.distribution("time", c.step_time, Unit::seconds);
    if (s.has("eval_time")) {
      Distribution e;
      s.distribution("eval_time", e, Unit::seconds);
      c.eval_time = e;
    }
    s.distribution("batch_overhead", c.batch_overhead, Unit::seconds);
    s.number("au_threshold", c.au_threshold);
    std::vector<std::string_view> known = kComputeKeys;
    if (t) {
      for (auto&& [k, v] : *t) {
        if (std::find(kComputeKeys.begin(), kComputeKeys.end(), k.str()) != kComputeKeys.end())
          continue;
        if (!v.is_table() || v.as_table()->is_inline()) continue;  // reported as unknown below
        known.push_back(k.str());
        const std::string name(k.str());
        ctx.lines["compute." + name] = line_of(v);
        Section a(ctx, v.as_table(), "compute." + name);
        Distribution d;
        if (!a.has("time"))
          ctx.error("compute." + name + ".time", line_of(v),
                    "is required ([compute." + name + "] time = \"0.3s\")");
        a.distribution("time", d, Unit::seconds);
        a.check_unknown(kAcceleratorKeys);
        c.per_accelerator[name] = d;
      }
    }
    s.check_unknown(known);
  }

  {
    CheckpointSpec& k = job.checkpoint;
    const toml::table* t = subtable(ctx, root, "checkpoint");
    Section s(ctx, t, "checkpoint");
    s.integer("every_epochs", k.every_epochs);
    s.integer("first_epoch", k.first_epoch);
    s.integer("every_steps", k.every_steps);
    s.size("size", k.size_bytes);
    s.integer("files", k.files);
    s.size("write_size", k.write_size_bytes);
    s.choice("write_call", k.write_call,
             {{"pwrite", WriteCall::pwrite},
              {"write", WriteCall::write},
              {"writev", WriteCall::writev}});
    s.boolean("direct", k.direct);
    s.boolean("fsync", k.fsync);
    s.choice("copy", k.copy,
             {{"none", CopyCall::none},
              {"sendfile", CopyCall::sendfile},
              {"copy_file_range", CopyCall::copy_file_range}});
    s.integer("copy_every", k.copy_every);
    s.path_value("dir", k.dir);
    s.boolean("restore", k.restore);
    s.integer("writes", k.writes);
    s.integer("reads", k.reads);
    s.duration("pause", k.pause_s);
    s.choice("mode", k.mode, {{"all", CheckpointMode::all}, {"subset", CheckpointMode::subset}});
    s.integer("ranks_per_host", k.ranks_per_host);
    std::uint32_t keep = std::numeric_limits<std::uint32_t>::max();  // not given: keep every one
    s.integer("keep", keep);
    if (keep != std::numeric_limits<std::uint32_t>::max()) k.keep = keep;
    // A [checkpoint] table is in force when it says when to write or to restore; `enabled`
    // overrides that (so `--set checkpoint.enabled=false` turns checkpoints off).
    k.enabled = t && (k.every_epochs > 0 || k.every_steps > 0 || k.restore);
    s.boolean("enabled", k.enabled);
    if (t && k.dir.empty()) k.dir = std::filesystem::path("checkpoints") / job.name;
    s.check_unknown(kCheckpointKeys);
  }

  {
    RunSpec& r = job.run;
    Section s(ctx, subtable(ctx, root, "run"), "run");
    s.integer("epochs", r.epochs);
    s.integer("accelerators", r.accelerators);
    s.integer("max_steps", r.max_steps);
    s.integer("eval_every_epochs", r.eval_every_epochs);
    s.choice("cache", r.cache,
             {{"keep", CacheMode::keep},
              {"drop_start", CacheMode::drop_start},
              {"drop_epoch", CacheMode::drop_epoch}});
    s.duration("max_time", r.max_seconds);
    s.boolean("train", r.train);
    s.boolean("sync_steps", r.sync_steps);
    s.check_unknown(kRunKeys);
  }

  if (const toml::table* t = subtable(ctx, root, "model")) {
    LlmModel m;
    Section s(ctx, t, "model");
    s.integer("num_layers", m.num_layers);
    s.integer("hidden_size", m.hidden_size);
    s.integer("ffn_hidden_size", m.ffn_hidden_size);
    s.integer("vocab_size", m.vocab_size);
    s.integer("attention_heads", m.attention_heads);
    m.kv_heads = m.attention_heads;  // default: multi-head attention
    s.integer("kv_heads", m.kv_heads);
    const std::initializer_list<std::pair<std::string_view, DataType>> types = {
        {"int8", DataType::int8},
        {"fp16", DataType::fp16},
        {"bf16", DataType::bf16},
        {"fp32", DataType::fp32},
        {"fp64", DataType::fp64}};
    s.choice("datatype", m.datatype, types);
    s.choice("optimizer_datatype", m.optimizer_datatype, types);
    s.integer("tensor_parallel", m.tensor);
    s.integer("pipeline_parallel", m.pipeline);
    s.integer("data_parallel", m.data);
    s.integer("zero_stage", m.zero_stage);
    s.check_unknown(kModelKeys);
    job.model = m;
  }
  return job;
}

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

// The built-in "small" scale: the dataset shrinks (same sizes and pattern) to about 1 GiB or less,
// keeping at least two steps per epoch; the validation set likewise; checkpoints capped at 256 MiB.
void shrink_small(Job& job) {
  const std::uint64_t per_step =
      std::uint64_t(std::max(job.reader.batch_size, 1u)) * std::max(job.run.accelerators, 1u);
  auto shrink = [&](DatasetSpec& d) {
    const std::uint64_t spf = std::max(d.samples_per_file, 1u);
    const double file_bytes = std::max(1.0, d.sample_size.expected() * double(spf));
    const std::uint64_t min_files = (2 * per_step + spf - 1) / spf;
    const std::uint64_t fit = static_cast<std::uint64_t>(double(1ull << 30) / file_bytes);
    d.num_files = std::min(d.num_files, std::max<std::uint64_t>({min_files, fit, 1}));
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

Result<toml::table> parse_tree(std::string_view text, const std::string& source) {
  try {
    return toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    return input_error(source + ":" + std::to_string(e.source().begin.line) + ":" +
                       std::to_string(e.source().begin.column) + ": " +
                       std::string(e.description()));
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
  static const std::set<std::string> text_keys = {"job.name",
                                                  "job.description",
                                                  "dataset.dir",
                                                  "dataset.format",
                                                  "dataset.file_prefix",
                                                  "validation.dir",
                                                  "validation.format",
                                                  "validation.file_prefix",
                                                  "reader.shuffle",
                                                  "reader.read",
                                                  "compute.accelerator",
                                                  "checkpoint.dir",
                                                  "run.cache",
                                                  "checkpoint.mode",
                                                  "model.datatype",
                                                  "model.optimizer_datatype"};
  if (!n->is_string() && text_keys.count(key)) {
    holder.insert_or_assign("v", value);
    n = holder.get("v");
  }
  if (auto r = put(root, split_dots(key), *n); !r)
    return input_error("--set " + text + ": " + r.error().message);
  ctx.origins[key] = "--set " + text;
  return ok();
}

std::string join_errors(const Ctx& ctx, const std::vector<Diagnostic>& diags) {
  std::string out;
  for (const auto& d : diags) out += (out.empty() ? "" : "\n") + ctx.format(d);
  return out;
}

// --- writer helpers ---

std::string size_text(double bytes) {
  return format_size_exact(bytes);
}
std::string time_text(double s) {
  return format_duration_exact(s);
}

std::string dist_text(const Distribution& d, Unit unit) {
  auto v = [&](double x) { return unit == Unit::bytes ? size_text(x) : time_text(x); };
  if (d.kind == DistKind::fixed && d.min == 0 && d.max == 0) return v(d.value);
  std::string out = "{ dist = \"" + std::string(to_string(d.kind)) + "\"";
  switch (d.kind) {
    case DistKind::fixed:
      out += ", value = " + v(d.value);
      break;
    case DistKind::normal:
    case DistKind::lognormal:
    case DistKind::gamma:
      out += ", mean = " + v(d.mean) + ", stdev = " + v(d.stdev);
      break;
    case DistKind::uniform:
      break;
    case DistKind::histogram: {
      out += ", bins = [";
      for (std::size_t i = 0; i < d.bins.size(); ++i) {
        const auto& b = d.bins[i];
        out += (i ? ", [" : "[") + v(b.lo) + ", " + v(b.hi) + ", " + float_text(b.weight) + "]";
      }
      out += "]";
      break;
    }
  }
  if (d.kind == DistKind::uniform || d.min != 0) out += ", min = " + v(d.min);
  if (d.kind == DistKind::uniform || d.max != 0) out += ", max = " + v(d.max);
  return out + " }";
}

class Writer {
 public:
  explicit Writer(const std::map<std::string, std::string>& comments) : comments_(comments) {}
  void section(const std::string& name) {
    if (!out_.empty()) out_ += "\n";
    section_ = name;
    out_ += "[" + name + "]";
    comment(name);
  }
  void kv(const std::string& key, const std::string& value) {
    out_ += key + " = " + value;
    comment(section_.empty() ? key : section_ + "." + key);
  }
  std::string str() && { return std::move(out_); }

 private:
  void comment(const std::string& path) {
    auto it = comments_.find(path);
    if (it != comments_.end() && !it->second.empty()) {
      std::string text = it->second;
      std::replace(text.begin(), text.end(), '\n', ' ');
      out_ += "  # " + text;
    }
    out_ += "\n";
  }
  const std::map<std::string, std::string>& comments_;
  std::string out_, section_;
};

void write_dataset(Writer& w, const DatasetSpec& d) {
  w.kv("dir", quote(d.dir.string()));
  w.kv("format", quote(to_string(d.format)));
  w.kv("num_files", std::to_string(d.num_files));
  w.kv("samples_per_file", std::to_string(d.samples_per_file));
  w.kv("sample_size", dist_text(d.sample_size, Unit::bytes));
  w.kv("seed", std::to_string(d.seed));
  w.kv("files_per_dir", std::to_string(d.files_per_dir));
  w.kv("file_prefix", quote(d.file_prefix));
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

  // Named scales, as written in the file (checked against the schema even when not applied).
  std::map<std::string, std::map<std::string, std::string>> scales;
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
  if (!ctx.diags.empty()) return input_error(join_errors(ctx, ctx.diags));

  bool builtin_small = false;
  if (!options.scale.empty()) {
    if (scales.count(options.scale)) {
      toml::table* st = root["scales"][options.scale].as_table();
      merge(root, std::move(*st));
    } else if (options.scale == "small") {
      builtin_small = true;
    } else {
      std::string known = "built-in: small";
      for (const auto& [name, _] : scales) known = name + ", " + known;
      return input_error(source + ": unknown scale \"" + options.scale + "\" (known: " + known +
                         ")");
    }
  }
  root.erase("scales");

  for (const auto& o : options.overrides)
    if (auto r = apply_override(root, o, ctx); !r) return r.error();
  if (!options.accelerator.empty())
    if (auto r = apply_override(root, "compute.accelerator=" + quote(options.accelerator), ctx); !r)
      return r.error();
  if (!options.accelerator.empty())
    ctx.origins["compute.accelerator"] = "--accelerator " + options.accelerator;

  Job job = convert(ctx, root, source_name);
  job.scales = std::move(scales);
  if (builtin_small) shrink_small(job);

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

std::string to_toml(const Job& job, const std::map<std::string, std::string>& comments) {
  Writer w(comments);
  w.section("job");
  w.kv("name", quote(job.name));
  if (!job.description.empty()) w.kv("description", quote(job.description));

  if (job.run.train || !(job.dataset == DatasetSpec{})) {  // a checkpoint-only job may have none
    w.section("dataset");
    write_dataset(w, job.dataset);
  }
  if (job.validation) {
    w.section("validation");
    write_dataset(w, *job.validation);
  }

  const ReaderSpec& r = job.reader;
  w.section("reader");
  w.kv("batch_size", std::to_string(r.batch_size));
  w.kv("workers", std::to_string(r.workers));
  w.kv("prefetch", std::to_string(r.prefetch));
  w.kv("shuffle", quote(to_string(r.shuffle)));
  w.kv("shuffle_buffer", std::to_string(r.shuffle_buffer));
  w.kv("seed", std::to_string(r.seed));
  w.kv("read", quote(to_string(r.read_unit)));
  w.kv("request_size", size_text(double(r.request_size_bytes)));
  w.kv("header_read", size_text(double(r.header_read_bytes)));
  w.kv("readahead", size_text(double(r.readahead_bytes)));
  w.kv("probe", size_text(double(r.probe_bytes)));
  if (!r.recipe.empty()) {
    std::string steps;
    for (const RecipeStep& st : r.recipe)
      steps += (steps.empty() ? "" : ", ") + quote(to_string(st));
    w.kv("recipe", "[" + steps + "]");
  }
  w.kv("iodepth", std::to_string(r.iodepth));
  w.kv("direct", r.direct ? "true" : "false");
  w.kv("drop_last", r.drop_last ? "true" : "false");
  w.kv("startup", time_text(r.startup_s));
  if (!(r.startup_spread == Distribution{}))
    w.kv("startup_spread", dist_text(r.startup_spread, Unit::seconds));
  w.kv("warmup", time_text(r.warmup_s));
  w.kv("preprocess", dist_text(r.preprocess, Unit::seconds));

  const ComputeSpec& c = job.compute;
  w.section("compute");
  if (!c.accelerator.empty()) w.kv("accelerator", quote(c.accelerator));
  w.kv("time", dist_text(c.step_time, Unit::seconds));
  if (c.eval_time) w.kv("eval_time", dist_text(*c.eval_time, Unit::seconds));
  if (!(c.batch_overhead == Distribution{}))
    w.kv("batch_overhead", dist_text(c.batch_overhead, Unit::seconds));
  w.kv("au_threshold", float_text(c.au_threshold));
  for (const auto& [name, d] : c.per_accelerator) {
    w.section("compute." + bare_or_quoted_key(name));
    w.kv("time", dist_text(d, Unit::seconds));
  }

  const CheckpointSpec& k = job.checkpoint;
  if (!(k == CheckpointSpec{})) {
    w.section("checkpoint");
    const bool derived = k.every_epochs > 0 || k.every_steps > 0 || k.restore;
    if (k.enabled != derived) w.kv("enabled", k.enabled ? "true" : "false");
    w.kv("every_epochs", std::to_string(k.every_epochs));
    if (k.first_epoch > 0) w.kv("first_epoch", std::to_string(k.first_epoch));
    w.kv("every_steps", std::to_string(k.every_steps));
    w.kv("size", size_text(double(k.size_bytes)));
    w.kv("files", std::to_string(k.files));
    w.kv("write_size", size_text(double(k.write_size_bytes)));
    if (k.write_call != WriteCall::pwrite) w.kv("write_call", quote(to_string(k.write_call)));
    if (k.direct) w.kv("direct", "true");
    w.kv("fsync", k.fsync ? "true" : "false");
    if (k.copy != CopyCall::none) {
      w.kv("copy", quote(to_string(k.copy)));
      w.kv("copy_every", std::to_string(k.copy_every));
    }
    if (!k.dir.empty()) w.kv("dir", quote(k.dir.string()));
    w.kv("restore", k.restore ? "true" : "false");
    if (k.writes > 0) w.kv("writes", std::to_string(k.writes));
    if (k.reads > 0) w.kv("reads", std::to_string(k.reads));
    if (k.pause_s > 0) w.kv("pause", time_text(k.pause_s));
    if (k.mode != CheckpointMode::all) w.kv("mode", quote(to_string(k.mode)));
    if (k.ranks_per_host != CheckpointSpec{}.ranks_per_host)
      w.kv("ranks_per_host", std::to_string(k.ranks_per_host));
    if (k.keep) w.kv("keep", std::to_string(*k.keep));
  }

  const RunSpec& run = job.run;
  w.section("run");
  w.kv("epochs", std::to_string(run.epochs));
  w.kv("accelerators", std::to_string(run.accelerators));
  w.kv("max_steps", std::to_string(run.max_steps));
  w.kv("eval_every_epochs", std::to_string(run.eval_every_epochs));
  w.kv("cache", quote(to_string(run.cache)));
  w.kv("max_time", time_text(run.max_seconds));
  if (!run.train) w.kv("train", "false");
  if (run.sync_steps) w.kv("sync_steps", "true");

  if (job.model) {
    const LlmModel& m = *job.model;
    w.section("model");
    w.kv("num_layers", std::to_string(m.num_layers));
    w.kv("hidden_size", std::to_string(m.hidden_size));
    w.kv("ffn_hidden_size", std::to_string(m.ffn_hidden_size));
    w.kv("vocab_size", std::to_string(m.vocab_size));
    w.kv("attention_heads", std::to_string(m.attention_heads));
    w.kv("kv_heads", std::to_string(m.kv_heads));
    w.kv("datatype", quote(to_string(m.datatype)));
    w.kv("optimizer_datatype", quote(to_string(m.optimizer_datatype)));
    w.kv("tensor_parallel", std::to_string(m.tensor));
    w.kv("pipeline_parallel", std::to_string(m.pipeline));
    w.kv("data_parallel", std::to_string(m.data));
    w.kv("zero_stage", std::to_string(m.zero_stage));
  }

  for (const auto& [name, entries] : job.scales) {
    w.section("scales." + bare_or_quoted_key(name));
    for (const auto& [key, text] : entries) {
      std::string k2;
      for (const auto& part : split_dots(key))
        k2 += (k2.empty() ? "" : ".") + bare_or_quoted_key(part);
      w.kv(k2, text);
    }
  }
  return std::move(w).str();
}

}  // namespace dlgen
