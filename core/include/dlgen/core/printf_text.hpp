#pragma once
// Text built piece by piece with printf formats, as the reports' fixed-width lines are:
//   std::string out;
//   PrintfText add(out);
//   add("  %-4u %10s\n", rank, host.c_str());
// One call appends at most 1023 characters (a longer piece is cut there).
#include <cstdio>
#include <string>

namespace dlgen {

class PrintfText {
 public:
  explicit PrintfText(std::string& out) : out_(out) {}
  template <class... Args>
  void operator()(const char* fmt, Args... args) {
    char line[1024];
    std::snprintf(line, sizeof line, fmt, args...);
    out_ += line;
  }

 private:
  std::string& out_;
};

}  // namespace dlgen
