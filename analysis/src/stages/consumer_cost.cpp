#include "consumer_cost.hpp"

#include <algorithm>

#include "stats.hpp"

namespace dlgen::analysis::detail {

void split_step_time(std::vector<Step>& steps, const std::function<bool(std::int32_t)>& is_eval) {
  std::vector<double> train, eval;
  for (Step& st : steps) {
    const std::uint64_t interval = st.end_ns - std::min(st.end_ns, st.start_ns);
    st.compute_ns = std::min(st.compute_ns, interval);
    st.consumer_ns = 0;
    st.wait_ns = interval - st.compute_ns;
    if (!st.compute_measured) continue;
    st.consumer_ns = st.wait_ns;
    st.wait_ns = 0;
    (is_eval(st.epoch) ? eval : train).push_back(static_cast<double>(st.consumer_ns));
  }
  const double typical_train = percentile(train, 0.5);
  const double typical_eval = eval.empty() ? typical_train : percentile(eval, 0.5);
  for (Step& st : steps) {
    if (st.compute_measured) continue;
    const auto typical =
        static_cast<std::uint64_t>(is_eval(st.epoch) ? typical_eval : typical_train);
    st.consumer_ns = std::min(st.wait_ns, typical);
    st.wait_ns -= st.consumer_ns;
  }
}

std::uint64_t loop_finish(const std::vector<std::uint64_t>& arrivals, std::uint64_t c) {
  std::uint64_t take = arrivals.front();
  for (std::size_t i = 1; i < arrivals.size(); ++i) take = std::max(take + c, arrivals[i]);
  return take + c;
}

std::uint64_t fitted_compute(const std::vector<std::uint64_t>& arrivals, std::uint64_t end) {
  std::uint64_t lo = 0, hi = end > arrivals.front() ? end - arrivals.front() : 0;
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo + 1) / 2;
    if (loop_finish(arrivals, mid) <= end)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

}  // namespace dlgen::analysis::detail
