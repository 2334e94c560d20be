#include "phase_config.hpp"

#include <algorithm>
#include <random>
#include <vector>

#include "dlgen/core/limits.hpp"
#include "dlgen/datasets/parquet.hpp"

namespace dlgen::replay {
namespace {

// The window of batches a worker may run ahead: reader.prefetch, widened so that iodepth requests
// can be in flight even when batches are small (batch 1 with iodepth 32 would otherwise cap a
// worker at `prefetch` requests; the data is discarded, so this costs no memory).
std::uint32_t phase_prefetch(const ReaderSpec& rd, std::uint32_t iodepth) {
  const std::uint32_t batch = std::max<std::uint32_t>(rd.batch_size, 1);
  return synchronous_loading(rd)
             ? 1
             : std::max<std::uint32_t>({rd.prefetch, 1, (iodepth + batch - 1) / batch + 1});
}

// The largest request the workers make, before the memory budget: a whole file (read = "file")
// or the longest sample's extent (read = "sample": one sample of a multi-sample file, not the
// file), unless the job sets a request size (larger reads then take several requests).
// read = "file" with reader.recipe: the recipe's largest request (a step's chunk, its fixed
// length, or a whole file for "rest"). read = "row_group": the largest range a Parquet reader
// reads at once (a row group's coalesced selected chunks, or a piece of the footer), in pieces of
// at most Arrow's range_size_limit (32 MiB): a column chunk larger than that (flux's 512 MiB T5
// encodings) is read in 32 MiB requests into 32 MiB buffers, not into one buffer its size.
std::uint64_t largest_request(const ReaderSpec& rd, const FileTable& files) {
  if (rd.read_unit == ReadUnit::row_group && files.layout && files.layout->parquet()) {
    const std::uint64_t range =
        std::min(datasets::parquet::largest_row_group_read(*files.layout->parquet()),
                 datasets::parquet::kRangeSizeLimit);
    return std::max<std::uint64_t>(
        rd.request_size_bytes > 0 ? std::min(range, rd.request_size_bytes) : range, 1);
  }
  const std::uint64_t unit = rd.read_unit == ReadUnit::sample ? files.max_sample : files.max_size;
  std::uint64_t want =
      rd.request_size_bytes > 0 ? rd.request_size_bytes : std::max<std::uint64_t>(unit, 1);
  want = std::max({want, rd.header_read_bytes, rd.probe_bytes,
                   rd.read_unit == ReadUnit::sample ? rd.readahead_bytes : 0});
  if (rd.read_unit != ReadUnit::file || rd.recipe.empty()) return want;
  want = 1;
  const std::uint64_t whole = std::max<std::uint64_t>(files.max_size, 1);
  for (const RecipeStep& st : rd.recipe) {
    std::uint64_t need = st.to_end || st.block > 0 ? whole : std::min(st.length, whole);
    if (st.chunk > 0) need = std::min(need, st.chunk);
    if (st.align > 0) need = std::min(need, st.align);
    want = std::max(want, need);
  }
  return want;
}

// One buffer per request in flight, within the per-worker memory budget (limits.hpp); aligned to
// the block with O_DIRECT.
std::uint64_t request_bytes(const ReaderSpec& rd, const PhaseConfig& cfg, const RunOptions& options,
                            const EpochPlan& plan, const FileTable& files) {
  ReaderSpec sized = rd;
  sized.workers = cfg.workers;
  sized.iodepth = cfg.iodepth;
  const std::uint64_t want = std::min(
      largest_request(rd, files),
      limits::request_buffer_bytes(
          sized, static_cast<std::uint32_t>(std::max<std::size_t>(plan.accelerators.size(), 1)),
          limits::host_memory_bytes(), options.buffer_budget_bytes));
  std::uint64_t bytes = cfg.direct ? align_up(want, cfg.block) : want;
  // A whole unaligned sample read with O_DIRECT may straddle one more block than its length.
  if (cfg.direct && rd.read_unit != ReadUnit::file && rd.request_size_bytes == 0)
    bytes += cfg.block;
  return bytes;
}

// reader.worker_pace for a pass's n workers: the factors at quantiles (i + 0.5) / n of the job's
// (sorted; between two, the nearer), dealt to the workers in a seeded order drawn per pass, so
// every pass has its slow and fast workers and which one is slow changes.
std::vector<double> worker_paces(const ReaderSpec& rd, std::uint32_t n, const EpochPlan& plan) {
  if (rd.worker_pace.empty()) return {};
  std::vector<double> sorted = rd.worker_pace;
  std::sort(sorted.begin(), sorted.end());
  std::vector<double> out(n);
  for (std::uint32_t i = 0; i < n; ++i)
    out[i] = sorted[std::min<std::size_t>(sorted.size() - 1, (2 * i + 1) * sorted.size() / (2 * n))];
  std::mt19937_64 rng(rd.seed ^ 0x70616365ull ^ (std::uint64_t{plan.epoch} << 1) ^
                      static_cast<std::uint64_t>(plan.phase));
  std::shuffle(out.begin(), out.end(), rng);
  return out;
}

}  // namespace

PhaseConfig phase_config(const ReaderSpec& rd, const RunOptions& options, const EpochPlan& plan,
                         const FileTable& files, const Recipe& legacy) {
  PhaseConfig cfg;
  cfg.files = &files;
  cfg.read_unit = rd.read_unit;
  cfg.shuffled_rows = rd.read_unit == ReadUnit::row_group && rd.shuffle == Shuffle::sample &&
                      plan.phase == Phase::train && files.layout && files.layout->parquet();
  cfg.header_bytes = rd.header_read_bytes;
  cfg.probe_bytes = rd.probe_bytes;
  cfg.direct = rd.direct;
  cfg.block = std::max<std::uint32_t>(options.block_size, 512);
  cfg.iodepth = reader_iodepth(rd);
  cfg.workers = std::max<std::uint32_t>(rd.workers, 1);
  cfg.preprocess_seed = rd.seed ^ 0x70726570726f63ull;  // reader.preprocess and reader.collate
  if (rd.preprocess.expected() > 0 || rd.preprocess.max > 0) cfg.preprocess = &rd.preprocess;
  if (rd.collate.expected() > 0 || rd.collate.max > 0) cfg.collate = &rd.collate;
  cfg.warmup_ns = static_cast<std::int64_t>(rd.warmup_s * 1e9);
  cfg.pace = worker_paces(rd, cfg.workers, plan);
  cfg.prefetch = phase_prefetch(rd, cfg.iodepth);
  cfg.engine = options.engine;
  cfg.factory = &options.engine_factory;
  // read = "file": the recipe's steps (reader.recipe, or what probe/header/request_size stand for).
  if (rd.read_unit == ReadUnit::file) {
    cfg.recipe = rd.recipe.empty() ? &legacy : &rd.recipe;
    cfg.dependent = !rd.recipe.empty();
  }
  cfg.request_bytes = request_bytes(rd, cfg, options, plan, files);
  if (rd.read_unit == ReadUnit::sample) {
    cfg.readahead_bytes = rd.readahead_bytes;
    cfg.stream_granule_bytes = rd.stream_granule_bytes;
  }
  if (rd.read_unit == ReadUnit::stream) {
    cfg.stream_fill_bytes = rd.request_size_bytes;
    cfg.stream_granule_bytes = rd.stream_granule_bytes;
    cfg.stream_tail_bytes = rd.stream_tail_bytes;
    cfg.stream_head_bytes = rd.stream_head_bytes;
  }
  return cfg;
}

}  // namespace dlgen::replay
