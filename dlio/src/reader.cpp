// DLIO workload configs (YAML) -> Job: the reader's first pass (the tree as dotted leaves, every
// key stored or refused), its value parsers and its error locations, and the public entry points.
// The key by key mapping (pass 2) is in mapping.cpp; where dlgen departs from DLIO, docs/dlio.md.
// yaml-cpp stays inside this module's src/.
#include "reader.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "hydra.hpp"
#include "keys.hpp"

namespace dlgen {
namespace dlio {

Result<DlioJob> Reader::read(std::string_view text, const std::vector<std::string>& overrides) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    return input_error(source_.string() + ":" + std::to_string(e.mark.line + 1) +
                       ": not valid YAML: " + e.msg);
  }
  if (root.IsNull()) root = YAML::Node(YAML::NodeType::Map);
  if (!root.IsMap())
    return input_error(source_.string() +
                       ":1: a DLIO config is a YAML mapping (model:, dataset:, reader: ...)");
  // Hydra composes the workload under `workload`; a config may be given either way.
  if (root.size() == 1 && root["workload"] && root["workload"].IsMap())
    root.reset(root["workload"]);
  for (const std::string& o : overrides)
    if (Result<void> r = apply_hydra_override(root, o, overridden_); !r) return r.error();
  flatten(root, "");
  for (const Leaf& l : leaves_) take(l);
  build();
  for (const Diagnostic& d : validate(out_.job)) error_at_dlgen_key(d.path, d.message);
  if (!errors_.empty()) return input_error(join_errors());
  return std::move(out_);
}

void Reader::flatten(const YAML::Node& node, const std::string& prefix) {
  for (const auto& kv : node) {
    const std::string name = kv.first.as<std::string>("");
    const std::string key = prefix.empty() ? name : prefix + "." + name;
    const int mark = kv.first.Mark().line;
    const std::uint32_t line = mark >= 0 ? static_cast<std::uint32_t>(mark + 1) : 0;
    if (kv.second.IsMap() && !is_dist_key(key)) {
      flatten(kv.second, key);
    } else {
      leaves_.push_back({key, kv.second, overridden_.count(key) ? 0 : line});
    }
  }
}

std::string Reader::where(const Leaf& l) const {
  if (l.line == 0) {
    auto it = overridden_.find(l.key);
    return "override '" + (it != overridden_.end() ? it->second : l.key) + "'";
  }
  return source_.string() + ":" + std::to_string(l.line);
}
void Reader::error(const Leaf& l, const std::string& msg) {
  errors_.push_back(where(l) + ": " + l.key + ": " + msg);
}
void Reader::from(const std::string& dk, const Leaf& l) {
  origin_[dk] = l;
  out_.comments[dk] =
      "DLIO " + l.key + (l.line ? " (line " + std::to_string(l.line) + ")" : " (command line)");
}
void Reader::error_at_dlgen_key(const std::string& dk, const std::string& msg) {
  // "reader.batch_size" or a prefix of a known key ("checkpoint")
  for (std::string k = dk;; k = k.substr(0, k.rfind('.'))) {
    if (auto it = origin_.find(k); it != origin_.end()) {
      errors_.push_back(where(it->second) + ": " + it->second.key + " (dlgen " + dk + "): " + msg);
      return;
    }
    if (k.find('.') == std::string::npos) break;
  }
  errors_.push_back(source_.string() + ": dlgen " + dk + ": " + msg);
}
std::string Reader::join_errors() const {
  std::string s;
  for (const auto& e : errors_) s += (s.empty() ? "" : "\n") + e;
  return s;
}

std::optional<std::string> Reader::text(const Leaf& l) {
  if (!l.node.IsScalar()) {
    error(l, "must be a single value");
    return std::nullopt;
  }
  return l.node.Scalar();
}
std::optional<double> Reader::number(const Leaf& l) {
  auto t = text(l);
  if (!t) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(t->c_str(), &end);
  if (t->empty() || *end != '\0' || errno == ERANGE || !std::isfinite(v)) {
    error(l, "must be a number, not \"" + *t + "\"");
    return std::nullopt;
  }
  return v;
}
std::optional<std::uint64_t> Reader::count(const Leaf& l, bool allow_negative) {
  auto v = number(l);
  if (!v) return std::nullopt;
  if (*v < 0 && allow_negative) return std::nullopt;
  if (*v < 0 || *v != std::floor(*v) || *v > 9.0e15) {
    error(l, "must be a whole number >= 0");
    return std::nullopt;
  }
  return static_cast<std::uint64_t>(*v);
}
std::optional<std::uint32_t> Reader::count32(const Leaf& l) {
  auto v = count(l);
  if (v && *v > 0xffffffffull) {
    error(l, "is too large");
    return std::nullopt;
  }
  return v ? std::optional<std::uint32_t>(static_cast<std::uint32_t>(*v)) : std::nullopt;
}
std::optional<bool> Reader::boolean(const Leaf& l) {
  auto t = text(l);
  if (!t) return std::nullopt;
  std::string s = *t;
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  if (s == "true" || s == "yes" || s == "on" || s == "1") return true;
  if (s == "false" || s == "no" || s == "off" || s == "0") return false;
  error(l, "must be True or False, not \"" + *t + "\"");
  return std::nullopt;
}
std::optional<std::string> Reader::word(const Leaf& l) {
  auto t = text(l);
  if (!t) return std::nullopt;
  std::string s = *t;
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::optional<Distribution> Reader::time(const Leaf& l, std::optional<double> stdev) {
  Distribution d;
  if (l.node.IsScalar()) {
    auto v = number(l);
    if (!v) return std::nullopt;
    if (*v < 0) return error(l, "must be >= 0 seconds"), std::nullopt;
    if (stdev && *stdev > 0) {
      d.kind = DistKind::normal;
      d.mean = *v;
      d.stdev = *stdev;
    } else {
      d = Distribution::fixed_at(*v);
    }
    return d;
  }
  if (!l.node.IsMap())
    return error(l, "must be a number of seconds or a map (mean, stdev, type...)"), std::nullopt;
  return time_from_map(l);
}

// DLIO's map form: a type (normal by default) and its parameters; gamma and exponential become
// dlgen's gamma by their mean and standard deviation.
std::optional<Distribution> Reader::time_from_map(const Leaf& l) {
  Distribution d;
  std::map<std::string, double> p;
  std::string type = "normal";
  for (const auto& kv : l.node) {
    const std::string k = kv.first.as<std::string>("");
    const int mark = kv.first.Mark().line;
    Leaf sub{l.key + "." + k, kv.second,
             l.line == 0 ? 0 : static_cast<std::uint32_t>(std::max(mark, 0) + 1)};
    if (!kDistParams.count(k)) {
      error(sub,
            "unknown distribution parameter (known: mean, stdev, type, min, max, shape, scale, "
            "lam)");
      continue;
    }
    if (k == "type") {
      if (auto w = word(sub)) type = *w;
      continue;
    }
    if (auto v = number(sub)) p[k] = *v;
  }
  auto need = [&](const char* k) {
    if (!p.count(k)) error(l, std::string("a ") + type + " time needs '" + k + "'");
    return p.count(k) ? p[k] : 0.0;
  };
  if (type == "normal") {
    d.kind = DistKind::normal;
    d.mean = need("mean");
    d.stdev = p.count("stdev") ? p["stdev"] : 0;
    if (d.stdev == 0) d = Distribution::fixed_at(d.mean);
  } else if (type == "uniform") {
    d.kind = DistKind::uniform;
    d.min = need("min");
    d.max = need("max");
  } else if (type == "gamma") {  // shape k, scale theta: mean k*theta, stdev sqrt(k)*theta
    const double k = need("shape"), th = need("scale");
    d.kind = DistKind::gamma;
    d.mean = k * th;
    d.stdev = std::sqrt(std::max(k, 0.0)) * th;
  } else if (type == "exponential") {  // gamma with shape 1
    d.kind = DistKind::gamma;
    d.mean = d.stdev = need("scale");
  } else if (type == "poisson") {
    error(l,
          "a poisson time draws whole seconds; dlgen does not model it (give normal, uniform, "
          "gamma or exponential)");
    return std::nullopt;
  } else {
    error(l, "unknown distribution type \"" + type + "\" (normal, uniform, gamma, exponential)");
    return std::nullopt;
  }
  if (p.count("min") && type != "uniform") d.min = p["min"];
  if (p.count("max") && type != "uniform") d.max = p["max"];
  return d;
}

void Reader::take(const Leaf& l) {
  if (auto r = kRefused.find(l.key); r != kRefused.end())
    return error(l, "not supported: " + r->second);
  if (!kMapped.count(l.key) && !kStorageKeys.count(l.key) && !is_dist_param_key(l.key))
    return error(l, "not a DLIO key dlgen knows" + did_you_mean(l.key) +
                        " (dlgen refuses what it cannot honour rather than ignoring it)");
  values_[l.key] = l;
}
const Leaf* Reader::get(const char* key) const {
  auto it = values_.find(key);
  return it == values_.end() ? nullptr : &it->second;
}

}  // namespace dlio

bool is_dlio_config(const std::filesystem::path& path) {
  const std::string ext = path.extension().string();
  return ext == ".yaml" || ext == ".yml";
}

Result<DlioJob> parse_dlio(std::string_view yaml_text, const std::filesystem::path& source_name,
                           const std::vector<std::string>& overrides, const DlioContext& context) {
  dlio::Reader r(source_name, context);
  Result<DlioJob> out = r.read(yaml_text, overrides);
  if (out) out->job.source = source_name;
  return out;
}

Result<DlioJob> load_dlio(const std::filesystem::path& path,
                          const std::vector<std::string>& overrides, const DlioContext& context) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return input_error(path.string() + ": cannot open DLIO config: " + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_dlio(ss.str(), path, overrides, context);
}

}  // namespace dlgen
