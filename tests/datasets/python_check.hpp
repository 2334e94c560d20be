#pragma once
// Runs a Python snippet with Debian's python3 (numpy, h5py, PIL) on a file; returns its exit
// status.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace dlgen::testing {

inline bool python_has(const std::string& modules) {
  const std::string cmd = std::string(DLGEN_PYTHON) + " -c 'import " + modules + "' 2>/dev/null";
  return std::system(cmd.c_str()) == 0;
}

// `script` reads its arguments from sys.argv[1:]; non-zero status (assert) means failure.
inline int run_python(const std::filesystem::path& dir, const std::string& script,
                      const std::string& args) {
  const auto file = dir / "check.py";
  std::ofstream(file) << script;
  const std::string cmd = std::string(DLGEN_PYTHON) + " " + file.string() + " " + args;
  return std::system(cmd.c_str());
}

}  // namespace dlgen::testing
