#include "dlgen/core/progress.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace dlgen {

bool progress_enabled() {
  if (std::getenv("CI") || std::getenv("DLGEN_NO_PROGRESS")) return false;
  return ::isatty(STDERR_FILENO) == 1;
}

Progress::Progress(std::string label, std::uint64_t total, std::string unit)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      total_(total),
      start_(std::chrono::steady_clock::now()),
      last_(start_),
      enabled_(progress_enabled()) {}

Progress::~Progress() {
  if (enabled_) std::fprintf(stderr, "\r\033[K");
}

void Progress::add(std::uint64_t n) {
  done_.fetch_add(n, std::memory_order_relaxed);
  draw(false);
}

void Progress::set(std::uint64_t done) {
  done_.store(done, std::memory_order_relaxed);
  draw(false);
}

void Progress::note(std::string text) {
  std::lock_guard lock(mu_);
  note_ = std::move(text);
}

void Progress::draw(bool force) {
  if (!enabled_) return;
  std::unique_lock lock(mu_, std::try_to_lock);
  if (!lock.owns_lock()) return;
  auto now = std::chrono::steady_clock::now();
  if (!force && now - last_ < std::chrono::milliseconds(200)) return;
  last_ = now;
  const std::uint64_t done = done_.load(std::memory_order_relaxed);
  const double pct = total_ ? 100.0 * double(done) / double(total_) : 0.0;
  std::fprintf(stderr, "\r\033[K%s %llu/%llu%s%s (%.0f%%) %s", label_.c_str(),
               static_cast<unsigned long long>(done), static_cast<unsigned long long>(total_),
               unit_.empty() ? "" : " ", unit_.c_str(), pct, note_.c_str());
  std::fflush(stderr);
}

}  // namespace dlgen
