// When each accelerator began each pass (stages.hpp, accelerator_starts).
#include <algorithm>
#include <map>

#include "stages.hpp"

namespace dlgen::analysis::stages {

std::vector<std::vector<double>> accelerator_starts(const Passes& p, const Readers& r,
                                                    const std::vector<Access>& as) {
  const std::size_t na = r.accelerators.size();
  if (na == 0) return std::vector<std::vector<double>>(p.epochs.size());
  std::vector<std::vector<std::uint64_t>> first(p.epochs.size(),
                                                std::vector<std::uint64_t>(na, UINT64_MAX));
  std::map<std::uint32_t, std::size_t> accelerator_of;  // reader key → accelerator
  for (std::size_t a = 0; a < na; ++a)
    for (std::uint32_t reader : r.accelerators[a].readers) accelerator_of[reader] = a;
  for (const Access& a : as) {
    if (a.pass < 0 || static_cast<std::size_t>(a.pass) >= first.size()) continue;
    const auto it = accelerator_of.find(a.reader);
    if (it == accelerator_of.end()) continue;
    std::uint64_t& f = first[static_cast<std::size_t>(a.pass)][it->second];
    f = std::min(f, a.ts);
  }
  std::vector<std::vector<double>> out(p.epochs.size(), std::vector<double>(na, -1));
  for (std::size_t pi = 0; pi < first.size(); ++pi) {
    const std::uint64_t begin = *std::min_element(first[pi].begin(), first[pi].end());
    for (std::size_t a = 0; a < na; ++a)
      if (first[pi][a] != UINT64_MAX) out[pi][a] = static_cast<double>(first[pi][a] - begin) * 1e-9;
  }
  return out;
}

}  // namespace dlgen::analysis::stages
