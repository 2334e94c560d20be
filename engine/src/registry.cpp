#include "dlgen/engine/registry.hpp"

#include <algorithm>
#include <array>
#include <functional>

#include "engines.hpp"

namespace dlgen::engine {
namespace {

// The table, built on first use. Explicit rather than self-registering from each file: a static
// library drops object files nothing refers to, and with them their registration.
const std::vector<EngineOps>& table() {
  static const std::vector<EngineOps> all = {uring_ops(), pread_ops(), null_ops(), s3_ops()};
  return all;
}

}  // namespace

std::span<const EngineOps> registry() {
  return table();
}

std::string_view default_name() {
  return table().front().name;
}

const EngineOps* find(std::string_view name) {
  for (const EngineOps& e : table())
    if (e.name == name || std::ranges::find(e.aliases, name) != e.aliases.end()) return &e;
  return nullptr;
}

std::string expected_names() {
  std::string out;
  const auto all = registry();
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (i > 0) out += i + 1 == all.size() ? " or " : ", ";
    out += all[i].name;
  }
  return out;
}

std::string help_names(bool (*keep)(const EngineOps&)) {
  std::string out;
  for (const EngineOps& e : registry()) {
    if (keep && !keep(e)) continue;
    if (!out.empty()) out += ", ";
    out += e.name;
    if (e.name == default_name()) out += " (default)";
  }
  return out;
}

Result<const EngineOps*> lookup(std::string_view name) {
  if (const EngineOps* e = find(name)) return e;
  return input_error("unknown I/O engine \"" + std::string(name) + "\": expected " +
                     expected_names());
}

Result<std::unique_ptr<IoEngine>> make(std::string_view name, const EngineOptions& options) {
  Result<const EngineOps*> ops = lookup(name);
  if (!ops) return ops.error();
  Result<std::unique_ptr<IoEngine>> engine = (*ops)->make(options);
  if (!engine) return engine;
  if (!(*engine)->pool().ok())
    return runtime_error("cannot allocate " + std::to_string(options.buffers) + " I/O buffers of " +
                         std::to_string(options.buffer_bytes) + " bytes");
  return engine;
}

Result<void> probe(std::string_view name) {
  Result<const EngineOps*> ops = lookup(name);
  if (!ops) return ops.error();
  return (*ops)->probe ? (*ops)->probe() : ok();
}

}  // namespace dlgen::engine
