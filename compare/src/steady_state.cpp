#include "steady_state.hpp"

namespace dlgen::compare {

std::size_t first_steady(std::size_t epochs) {
  return epochs >= 2 ? 1 : 0;
}

std::vector<double> steady(const Profile& p, const std::vector<double>& per_step) {
  if (p.step_steady.size() != per_step.size()) return per_step;
  std::vector<double> out;
  for (std::size_t i = 0; i < per_step.size(); ++i)
    if (p.step_steady[i]) out.push_back(per_step[i]);
  return out;
}

double steady_duration(const Profile& p) {
  if (p.epochs.empty()) return p.duration_s;
  double d = 0;
  for (std::size_t e = first_steady(p.epochs.size()); e < p.epochs.size(); ++e)
    d += p.epochs[e].duration_s;
  return d;
}

double steady_bytes(const Profile& p) {
  if (p.epochs.empty()) return p.bytes_read;
  double b = 0;
  for (std::size_t e = first_steady(p.epochs.size()); e < p.epochs.size(); ++e)
    b += p.epochs[e].bytes_read;
  return b;
}

}  // namespace dlgen::compare
