#include "row_group_reads.hpp"

#include <algorithm>
#include <bit>

namespace dlgen::replay {

void ShuffledRowGroups::init(const datasets::parquet::FileGeometry& g, std::uint64_t files,
                             std::uint64_t batch_size) {
  g_ = &g;
  // At most batch_size distinct groups a batch; a table at least twice that keeps probes short.
  const std::uint64_t slots = std::bit_ceil(std::max<std::uint64_t>(2 * batch_size, 16));
  keys_.assign(slots, 0);
  stamps_.assign(slots, 0);
  mask_ = slots - 1;
  footer_read_.assign(files, false);
}

bool ShuffledRowGroups::first_in_batch(std::uint64_t key, std::uint64_t batch) {
  const std::uint64_t stamp = batch + 1;
  // Fibonacci hashing spreads consecutive keys (a file's groups) over the table.
  for (std::uint64_t i = (key * 0x9E3779B97F4A7C15ull) >> 20;; ++i) {
    const std::uint64_t s = i & mask_;
    if (stamps_[s] != stamp) {  // free in this batch: the key was not seen
      keys_[s] = key;
      stamps_[s] = stamp;
      return true;
    }
    if (keys_[s] == key) return false;
  }
}

std::size_t ShuffledRowGroups::reads(std::uint64_t file, std::uint64_t row, std::uint64_t batch,
                                     datasets::parquet::Range* out) {
  const std::uint64_t group = row / g_->rows_per_group;
  if (!first_in_batch(file * g_->row_groups.size() + group, batch)) return 0;
  const bool footer = !footer_read_[file];
  footer_read_[file] = true;
  return datasets::parquet::group_reads(*g_, group, footer, out);
}

datasets::parquet::FileReads shuffled_plan_reads(const EpochPlan& plan,
                                                 const datasets::parquet::FileGeometry& g,
                                                 std::uint64_t files, std::uint32_t workers) {
  datasets::parquet::FileReads total;
  std::vector<datasets::parquet::Range> ranges(datasets::parquet::max_row_group_reads(g));
  const std::uint32_t w = std::max<std::uint32_t>(workers, 1);
  for (const AcceleratorPlan& acc : plan.accelerators) {
    std::uint64_t largest = 0;
    for (std::size_t k = 0; k < acc.num_batches(); ++k)
      largest = std::max(largest, acc.batch_size(k));
    std::vector<ShuffledRowGroups> readers(w);
    for (ShuffledRowGroups& r : readers) r.init(g, files, largest);
    for (std::size_t k = 0; k < acc.num_batches(); ++k) {
      ShuffledRowGroups& r = readers[k % w];
      for (std::uint64_t j = 0; j < acc.batch_size(k); ++j) {
        const SampleRef s = acc.sample(k, j);
        const std::size_t n = r.reads(s.file, s.sample, k, ranges.data());
        for (std::size_t i = 0; i < n; ++i) total.bytes += ranges[i].length;
        total.requests += n;
      }
    }
  }
  return total;
}

}  // namespace dlgen::replay
