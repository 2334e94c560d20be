#pragma once
// Hydra-style overrides on a DLIO config's YAML tree: `key=value`, `+key=value`, `++key=value`
// (set or add) and `~key` (remove), with or without the `workload.` prefix; values are YAML. They
// edit the tree before it is read, so their errors read like the file's.
#include <map>
#include <string>

#include "dlgen/core/result.hpp"

namespace YAML {
class Node;
}

namespace dlgen::dlio {

// Applies one override word to `root` (the workload mapping). A key it sets is recorded in
// `overridden` (key below `workload` -> the word), so errors about it name the override.
Result<void> apply_hydra_override(YAML::Node& root, const std::string& word,
                                  std::map<std::string, std::string>& overridden);

}  // namespace dlgen::dlio
