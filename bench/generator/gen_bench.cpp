// Generates one dataset shape with the real generator (engine writes, syncfs, manifest) and prints
// its throughput:
//   gen_bench DIR FORMAT FILES SIZE [THREADS [SAMPLES_PER_FILE [FILES_PER_DIR [ENGINE]]]]
// SIZE per sample ("16MiB"); ENGINE a registry name ("" or absent: the default). Always
// regenerates (force), so repeated rounds measure writing, not reuse. DIR "-" writes nothing and
// prints the dataset's total bytes (framing included).
#include <cstdio>
#include <cstdlib>
#include <string>

#include "dlgen/core/units.hpp"
#include "dlgen/datasets/layout.hpp"
#include "dlgen/generator/generator.hpp"

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr,
                 "usage: %s DIR FORMAT FILES SIZE [THREADS [SAMPLES_PER_FILE [FILES_PER_DIR "
                 "[ENGINE]]]]\n",
                 argv[0]);
    return 2;
  }
  dlgen::DatasetSpec spec;
  spec.dir = argv[1];
  const auto format = dlgen::format_from_string(argv[2]);
  const auto size = dlgen::parse_size(argv[4]);
  if (!format || !size) {
    std::fprintf(stderr, "bad format or size\n");
    return 2;
  }
  spec.format = *format;
  spec.num_files = std::strtoull(argv[3], nullptr, 10);
  spec.sample_size = dlgen::Distribution::fixed_at(static_cast<double>(*size));
  spec.samples_per_file =
      argc > 6 ? static_cast<std::uint32_t>(std::strtoul(argv[6], nullptr, 10)) : 1;
  spec.files_per_dir =
      argc > 7 ? static_cast<std::uint32_t>(std::strtoul(argv[7], nullptr, 10)) : 0;
  if (spec.dir == "-") {
    std::printf("bytes=%llu\n",
                static_cast<unsigned long long>(dlgen::datasets::Layout(spec).total_bytes()));
    return 0;
  }
  dlgen::generator::GenerateOptions options;
  options.threads = argc > 5 ? static_cast<std::uint32_t>(std::strtoul(argv[5], nullptr, 10)) : 0;
  options.force = true;
  if (argc > 8) options.engine = argv[8];
  auto r = dlgen::generator::ensure_dataset(spec, options);
  if (!r) {
    std::fprintf(stderr, "gen_bench: %s\n", r.error().message.c_str());
    return r.error().exit_code();
  }
  std::printf("files=%llu bytes=%llu seconds=%.3f mib_s=%.1f files_s=%.0f\n",
              static_cast<unsigned long long>(r->files_written),
              static_cast<unsigned long long>(r->bytes_written), r->seconds,
              double(r->bytes_written) / (1 << 20) / r->seconds,
              double(r->files_written) / r->seconds);
  return 0;
}
