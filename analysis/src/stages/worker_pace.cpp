// The readers' paces: how much slower or faster than its pass's typical reader each DataLoader
// worker processes its samples (stages.hpp).
#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "stages.hpp"

namespace dlgen::analysis::stages {
namespace {

constexpr std::size_t kMinSamples = 16;  // per reader and pass, for its mean to say anything
constexpr std::size_t kQuantiles = 8;

struct Moments {
  double n = 0, sum = 0, sq = 0;
  double mean() const { return sum / n; }
  double variance() const { return n > 1 ? std::max(0.0, (sq - sum * sum / n) / (n - 1)) : 0; }
};

// Each kept pass's readers: (ratio of its mean to the pass's, the ratio's sampling variance).
std::vector<std::vector<std::pair<double, double>>> pass_ratios(
    const std::vector<ReaderSample>& samples) {
  std::map<std::uint32_t, std::map<std::uint32_t, Moments>> by_pass;
  for (const auto& s : samples) {
    Moments& m = by_pass[s.pass][s.reader];
    m.n += 1, m.sum += s.seconds, m.sq += s.seconds * s.seconds;
  }
  std::vector<std::vector<std::pair<double, double>>> out;
  for (const auto& [pass, readers] : by_pass) {
    std::vector<const Moments*> kept;
    for (const auto& [reader, m] : readers)
      if (m.n >= kMinSamples && m.mean() > 0) kept.push_back(&m);
    if (kept.size() < 2) continue;
    double mean = 0;
    for (const Moments* m : kept) mean += m->mean();
    mean /= static_cast<double>(kept.size());
    std::vector<std::pair<double, double>> ratios;
    for (const Moments* m : kept)
      ratios.push_back({m->mean() / mean, m->variance() / (m->n * mean * mean)});
    out.push_back(std::move(ratios));
  }
  if (out.size() >= 2) out.erase(out.begin());  // the first pass holds the workers' imports
  return out;
}

}  // namespace

std::vector<double> worker_pace(const std::vector<ReaderSample>& samples) {
  const auto passes = pass_ratios(samples);
  double spread = 0, noise = 0, dof = 0, n = 0;
  for (const auto& ratios : passes) {
    for (const auto& [r, v] : ratios) spread += (r - 1) * (r - 1), noise += v, n += 1;
    dof += static_cast<double>(ratios.size()) - 1;
  }
  if (dof <= 0 || spread <= 0) return {};
  spread /= dof;
  noise /= n;
  if (noise >= spread) return {};
  const double shrink = std::sqrt(1 - noise / spread);
  std::vector<double> paces;
  for (const auto& ratios : passes)
    for (const auto& [r, v] : ratios) paces.push_back(1 + shrink * (r - 1));
  std::sort(paces.begin(), paces.end());
  const std::size_t q = std::min(paces.size(), kQuantiles);
  std::vector<double> out;
  for (std::size_t i = 0; i < q; ++i)
    out.push_back(paces[std::min(paces.size() - 1, (2 * i + 1) * paces.size() / (2 * q))]);
  double mean = 0;
  for (double x : out) mean += x;
  mean /= static_cast<double>(q);
  for (double& x : out) x = std::round(x / mean * 100) / 100;
  if (out.back() < 1.03) return {};
  return out;
}

}  // namespace dlgen::analysis::stages
