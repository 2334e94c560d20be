// Hydra-style overrides (hydra.hpp) and the public test of a command-line word.
#include "hydra.hpp"

#include <yaml-cpp/yaml.h>

#include <string_view>
#include <vector>

#include "dlgen/dlio/config.hpp"

namespace dlgen {
namespace dlio {

Result<void> apply_hydra_override(YAML::Node& root, const std::string& word,
                                  std::map<std::string, std::string>& overridden) {
  std::string_view w = word;
  bool remove = false;
  if (w.rfind("++", 0) == 0)
    w.remove_prefix(2);
  else if (w.rfind("+", 0) == 0)
    w.remove_prefix(1);
  else if (w.rfind("~", 0) == 0)
    w.remove_prefix(1), remove = true;
  const std::size_t eq = w.find('=');
  if (!remove && eq == std::string_view::npos)
    return input_error(
        "override '" + word +
        "': expected key=value (Hydra style, e.g. ++workload.reader.read_threads=8)");
  std::string key(remove ? w.substr(0, eq) : w.substr(0, eq));
  if (key.rfind("workload.", 0) == 0) key.erase(0, 9);
  if (key.empty()) return input_error("override '" + word + "': empty key");
  std::vector<std::string> parts;
  for (std::size_t b = 0;;) {
    const std::size_t e = key.find('.', b);
    parts.push_back(key.substr(b, e == std::string::npos ? std::string::npos : e - b));
    if (e == std::string::npos) break;
    b = e + 1;
  }
  YAML::Node cur;
  cur.reset(root);
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    YAML::Node next = cur[parts[i]];
    if (!next.IsDefined() || next.IsNull()) {
      if (remove) return ok();
      cur[parts[i]] = YAML::Node(YAML::NodeType::Map);
      next.reset(cur[parts[i]]);
    } else if (!next.IsMap()) {
      return input_error("override '" + word + "': " + parts[i] + " is not a section");
    }
    cur.reset(next);
  }
  if (remove) {
    cur.remove(parts.back());
    return ok();
  }
  YAML::Node value;
  try {
    value = YAML::Load(std::string(w.substr(eq + 1)));
  } catch (const YAML::Exception& e) {
    return input_error("override '" + word + "': not a YAML value: " + e.msg);
  }
  cur[parts.back()] = value;
  overridden[key] = word;
  return ok();
}

}  // namespace dlio

bool is_hydra_override(std::string_view w) {
  if (w.rfind("--", 0) == 0 || w.empty()) return false;
  if (w.front() == '~') return w.size() > 1;
  const std::size_t eq = w.find('=');
  return eq != std::string_view::npos && eq > (w.rfind("++", 0) == 0 ? 2u
                                               : w.front() == '+'    ? 1u
                                                                     : 0u);
}

}  // namespace dlgen
