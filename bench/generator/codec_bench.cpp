// Encode speed per format into memory (no disk): bytes/s and files/s of one thread.
#include <benchmark/benchmark.h>

#include "dlgen/datasets/codec.hpp"

namespace {

void encode(benchmark::State& state, dlgen::Format format, double bytes, std::uint32_t per_file) {
  dlgen::DatasetSpec spec;
  spec.dir = "/nonexistent";
  spec.format = format;
  spec.num_files = 1 << 20;
  spec.samples_per_file = per_file;
  spec.sample_size = dlgen::Distribution::fixed_at(bytes);
  const dlgen::datasets::Layout layout(spec);
  std::uint64_t file = 0, total = 0;
  for (auto _ : state) {
    dlgen::datasets::MemorySink sink;
    auto r = dlgen::datasets::encode_file(layout, file++ % layout.num_files(), sink);
    if (!r) state.SkipWithError(r.error().message.c_str());
    total += sink.position();
    benchmark::DoNotOptimize(sink);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(total));
  state.SetItemsProcessed(static_cast<std::int64_t>(file));
}

}  // namespace

BENCHMARK_CAPTURE(encode, raw_4MiB, dlgen::Format::raw, 4 << 20, 1);
BENCHMARK_CAPTURE(encode, npz_140MB, dlgen::Format::npz, 146600628, 1);
BENCHMARK_CAPTURE(encode, tfrecord_1251x112KiB, dlgen::Format::tfrecord, 114660, 1251);
BENCHMARK_CAPTURE(encode, jpeg_110KiB, dlgen::Format::jpeg, 112640, 1);
