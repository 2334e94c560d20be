#pragma once
// Progress for long work: a single self-rewriting line on stderr when stderr is a terminal and
// CI is not set; silent otherwise (pipes, CI logs). Thread-safe; updates are rate limited.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace dlgen {

bool progress_enabled();  // isatty(stderr) && no CI variable && no DLGEN_NO_PROGRESS

class Progress {
 public:
  Progress(std::string label, std::uint64_t total, std::string unit = "");
  ~Progress();  // clears the line
  void add(std::uint64_t n);
  void set(std::uint64_t done);
  void note(std::string text);  // extra text after the counter ("312 MiB/s")

 private:
  void draw(bool force);
  std::string label_, unit_, note_;
  std::uint64_t total_;
  std::atomic<std::uint64_t> done_{0};
  std::chrono::steady_clock::time_point start_, last_;
  std::mutex mu_;
  bool enabled_;
};

}  // namespace dlgen
