// self_reader: a process that reads its own batches (no DataLoader workers, nothing handed over)
// and draws them with replacement, as nanoGPT's get_batch does (random windows of one token file,
// mapped afresh every call, in the training process): its passes, and the bursts of reads that
// are its batches.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "stages.hpp"
#include "stats.hpp"

namespace dlgen::analysis::stages {

bool self_reader_redraws(const trace::Trace& t, const Classified& c,
                         const std::vector<Access>& accesses) {
  std::set<std::uint32_t> pids;
  std::map<std::int32_t, std::set<std::uint32_t>> files_of;  // dataset → files read
  for (const auto& a : accesses) pids.insert(a.pid), files_of[a.dataset].insert(a.file);
  if (pids.size() != 1) return false;
  for (const auto& e : t.events)
    if (pids.count(e.pid) && is_handover(e, c.files)) return false;
  // Per dataset, the stretches between repeats: how many files each read.
  std::uint64_t short_runs = 0, runs = 0;
  std::map<std::int32_t, std::set<std::uint32_t>> seen;
  for (const auto& a : accesses) {
    auto& run = seen[a.dataset];
    if (run.count(a.file)) {
      ++runs;
      short_runs += run.size() * 2 < files_of[a.dataset].size();
      run.clear();
    }
    run.insert(a.file);
  }
  return runs >= 2 && short_runs * 2 > runs;
}

std::vector<double> access_gaps(const std::vector<const Access*>& as) {
  std::vector<double> gaps;
  for (std::size_t i = 1; i < as.size(); ++i)
    gaps.push_back(as[i]->ts > as[i - 1]->end ? static_cast<double>(as[i]->ts - as[i - 1]->end)
                                              : 0.0);
  return gaps;
}

double burst_threshold(const std::vector<double>& gaps) {
  return std::max(500000.0, 4 * detail::percentile(gaps, 0.5));
}

double consumer_burst_threshold(const std::vector<double>& gaps) {
  const double base = burst_threshold(gaps);
  std::vector<double> longer;
  for (double g : gaps)
    if (g > base) longer.push_back(g);
  return std::max(base, detail::percentile(longer, 0.2) / 4);
}

bool clear_gap_bursts(const std::vector<const Access*>& as, const std::vector<double>& gaps,
                      double threshold) {
  std::vector<double> ends, inner;
  std::set<std::int32_t> passes;
  for (std::size_t i = 1; i < as.size(); ++i) {
    passes.insert(as[i]->pass);
    if (as[i]->pass != as[i - 1]->pass) continue;
    (gaps[i - 1] > threshold ? ends : inner).push_back(gaps[i - 1]);
  }
  if (ends.size() < 2 * passes.size() || inner.empty()) return false;
  return detail::percentile(ends, 0.2) > 8 * std::max(detail::percentile(inner, 0.8), 1000.0);
}

namespace {

// One burst of the reader's accesses: [first, last] indices, and the idle gap after it (to the
// next burst's first access; 0 for the last).
struct Burst {
  std::size_t first = 0, last = 0;
  double gap_after = 0;
};

std::vector<Burst> bursts_of(const std::vector<const Access*>& as) {
  const std::vector<double> gaps = access_gaps(as);
  const double threshold = consumer_burst_threshold(gaps);
  std::vector<Burst> out;
  for (std::size_t i = 0; i < as.size(); ++i) {
    if (i == 0 || gaps[i - 1] > threshold) {
      if (!out.empty()) out.back().gap_after = gaps[i - 1];
      out.push_back({i, i, 0});
    }
    out.back().last = i;
  }
  return out;
}

// Passes numbered 0, 1, ... in the order of their first access (a pass left without accesses
// disappears).
void renumber_passes(std::vector<Access>& accesses) {
  std::map<std::int32_t, std::int32_t> number;
  for (auto& a : accesses) {
    auto [it, added] = number.try_emplace(a.pass, static_cast<std::int32_t>(number.size()));
    a.pass = it->second;
  }
}

}  // namespace

void evaluation_reads_of_training(const Classified& c, std::vector<Access>& accesses) {
  std::vector<const Access*> as;
  for (const auto& a : accesses) as.push_back(&a);
  const std::vector<Burst> bursts = bursts_of(as);
  auto eval = [&](const Burst& b) {
    return c.datasets[as[b.first]->dataset].cls == FileClass::validation;
  };
  std::vector<double> train_gaps, eval_gaps;
  for (std::size_t i = 0; i + 1 < bursts.size(); ++i)
    (eval(bursts[i]) ? eval_gaps : train_gaps).push_back(bursts[i].gap_after);
  if (train_gaps.empty() || eval_gaps.empty()) return;
  const double train_gap = detail::percentile(train_gaps, 0.5);
  const double eval_gap = detail::percentile(eval_gaps, 0.5);
  if (eval_gap * 2 > train_gap) return;  // one cadence: the reads cannot be told apart
  const double cut = std::sqrt(train_gap * eval_gap);
  std::vector<std::int32_t> pass_of(accesses.size());
  for (std::size_t i = 0; i < accesses.size(); ++i) pass_of[i] = accesses[i].pass;
  // At the evaluation's cadence; one slow gap (the run's first forward pass) between two that
  // are is the evaluation's too, and so is the run's first burst when every burst after it up to
  // the evaluation is (nanoGPT fetches its first batch and evaluates at iteration 0).
  auto joins = [&](std::size_t j) {
    if (eval(bursts[j])) return false;
    return j == 0 || bursts[j].gap_after < cut ||
           (!eval(bursts[j - 1]) && bursts[j - 1].gap_after < cut);
  };
  for (std::size_t k = 1; k < bursts.size(); ++k) {
    if (!eval(bursts[k]) || eval(bursts[k - 1])) continue;  // an evaluation pass's first burst
    const std::int32_t to = as[bursts[k].first]->pass;
    for (std::size_t j = k; j-- > 0 && joins(j);)
      for (std::size_t i = bursts[j].first; i <= bursts[j].last; ++i) pass_of[i] = to;
  }
  for (std::size_t i = 0; i < accesses.size(); ++i) accesses[i].pass = pass_of[i];
  renumber_passes(accesses);
}

}  // namespace dlgen::analysis::stages
