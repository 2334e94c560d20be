#pragma once
// Sane limits for every count and size a job may hold, checked by validate() before anything is
// allocated, so an absurd value ("num_files = 99999999999999", "sample_size = 1PiB") is refused
// with file:line: key and a reason instead of dying of std::bad_alloc. The limits and their
// reasons are listed in docs/job-format.md ("Limits"); the arithmetic here is pure and every
// product is overflow-checked.
#include <cstdint>
#include <optional>
#include <vector>

#include "dlgen/core/job.hpp"

namespace dlgen::limits {

// Counts.
inline constexpr std::uint64_t kMaxFiles = 1'000'000'000;           // per dataset
inline constexpr std::uint64_t kMaxSamplesPerFile = 1'000'000'000;  // per file
inline constexpr std::uint64_t kMaxBatchSize = 1u << 20;            // samples per step
inline constexpr std::uint64_t kMaxWorkers = 256;                   // per accelerator
inline constexpr std::uint64_t kMaxAccelerators = 1024;             // per host
inline constexpr std::uint64_t kMaxThreads = 8192;                  // accelerators x (workers + 1)
inline constexpr std::uint64_t kMaxPrefetch = 1024;                 // batches per worker
inline constexpr std::uint64_t kMaxIodepth = 1024;                  // requests in flight per worker
inline constexpr std::uint64_t kMaxEpochs = 100'000;
inline constexpr std::uint64_t kMaxCheckpointFiles = 65'536;
// Sizes.
inline constexpr std::uint64_t kMaxSampleBytes = 1ull << 40;      // 1 TiB: one sample
inline constexpr std::uint64_t kMaxDatasetBytes = 1ull << 60;     // 1 EiB: one dataset
inline constexpr std::uint64_t kMaxRequestBytes = 1ull << 30;     // 1 GiB: one read request
inline constexpr std::uint64_t kMaxCheckpointBytes = 1ull << 50;  // 1 PiB: one checkpoint
// Times (seconds).
inline constexpr double kMaxWorkerPace = 100;  // reader.worker_pace: a factor of a worker's times
inline constexpr double kMaxStepSeconds = 3600;         // compute per step, preprocess per sample
inline constexpr double kMaxRunSeconds = 30 * 86400.0;  // run.max_time
// The plan, the dataset layout and the file table of a run may use at most this fraction of RAM.
inline constexpr double kPlanMemoryFraction = 0.5;
// The replay's I/O buffers: at most this much per worker, all workers together at most a quarter
// of RAM, each request in flight at least kMinRequestBuffer (replay::RunOptions, runner.cpp).
inline constexpr std::uint64_t kWorkerBufferBudget = 256ull << 20;
inline constexpr std::uint64_t kMinRequestBuffer = 128ull << 10;

// a * b and a + b, or nullopt when the result does not fit 64 bits.
std::optional<std::uint64_t> mul(std::uint64_t a, std::uint64_t b);
std::optional<std::uint64_t> add(std::uint64_t a, std::uint64_t b);

// This host's RAM in bytes (sysinfo), 0 when unknown.
std::uint64_t host_memory_bytes();

// Bytes of the buffer each request in flight gets in the replay (replay/src/runner.cpp sizes its
// buffers with this function): the per-worker budget (`budget_bytes`), at most a quarter of
// `ram_bytes` over all worker threads, split over iodepth requests, never below kMinRequestBuffer,
// never above kMaxRequestBytes. A header_read or probe is one request, so it must fit this buffer.
std::uint64_t request_buffer_bytes(const ReaderSpec& reader, std::uint32_t accelerators,
                                   std::uint64_t ram_bytes,
                                   std::uint64_t budget_bytes = kWorkerBufferBudget);

// Whether the replay plans a pass over `dataset` by arithmetic (replay::OrderShard) instead of
// listing every sample: read = "row_group" (one sample per Parquet row; a row group's rows are
// consecutive samples), one file per sample, and a file-level order (shuffle "none", or "file"
// without a shuffle buffer) and batches of one size. Its plan memory is O(files), not O(samples).
bool plans_by_arithmetic(const DatasetSpec& dataset, const ReaderSpec& reader);

// The memory a run's per-epoch plan needs at its peak, in bytes (nullopt: the count overflows):
// per dataset (train, and validation when evaluation passes run) the epoch order (8 bytes per
// sample, 8 more with a shuffle buffer), the per-accelerator sample lists (16 bytes per sample:
// replay::SampleRef) and batch offsets, the file order, the layout's per-sample tables when sizes
// vary (16 bytes per sample) and the runner's file table (sizes and paths). A pass planned by
// arithmetic (plans_by_arithmetic) holds none of the per-sample lists, only the file order.
std::optional<std::uint64_t> plan_memory_bytes(const Job& job);

// Every limit above, as diagnostics with the TOML path of the key at fault. `ram_bytes` 0: the
// memory checks that need it are skipped.
std::vector<Diagnostic> check_limits(const Job& job, std::uint64_t ram_bytes);

}  // namespace dlgen::limits
