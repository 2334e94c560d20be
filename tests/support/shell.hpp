#pragma once
// Running a command line from an end-to-end test: its exit code and its output (stdout and stderr
// together, as a user sees them).
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace dlgen::testing {

struct Outcome {
  int code = -1;    // exit status; -1 when killed by a signal or not started
  std::string out;  // stdout and stderr together
};

inline Outcome sh(const std::string& cmd) {
  Outcome o;
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return o;
  std::array<char, 4096> buf{};
  for (std::size_t n; (n = std::fread(buf.data(), 1, buf.size(), p)) > 0;)
    o.out.append(buf.data(), n);
  const int st = ::pclose(p);
  o.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return o;
}

}  // namespace dlgen::testing
