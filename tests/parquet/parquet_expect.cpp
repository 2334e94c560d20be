// What dlgen wrote into the Parquet files of a job, for the independent readers' checks
// (check.mjs, check-arrow.mjs): expected.json (each file's path, rows, row groups, schema, codec)
// and each column's value bytes over all rows (<file>.<column>.bin), from the same content stream
// the codec writes. Usage: parquet_expect JOB.toml OUTDIR [KEY=VALUE...] (job overrides, as --set).
#include <fstream>
#include <iostream>
#include "dlgen/core/json.hpp"

#include "dlgen/core/job_io.hpp"
#include "dlgen/datasets/layout.hpp"
#include "dlgen/datasets/parquet.hpp"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: parquet_expect JOB.toml OUTDIR [KEY=VALUE...]\n";
    return 2;
  }
  dlgen::JobLoadOptions options;
  for (int i = 3; i < argc; ++i) options.overrides.emplace_back(argv[i]);
  auto job = dlgen::load_job(argv[1], options);
  if (!job) {
    std::cerr << job.error().message << "\n";
    return 2;
  }
  const std::filesystem::path out = argv[2];
  std::filesystem::create_directories(out);
  const dlgen::datasets::Layout layout(job->dataset);
  const dlgen::datasets::parquet::FileGeometry* g = layout.parquet();
  if (!g) {
    std::cerr << "not a parquet job\n";
    return 2;
  }
  nlohmann::json files = nlohmann::json::array();
  for (std::uint64_t f = 0; f < layout.num_files(); ++f) {
    nlohmann::json file;
    file["path"] = std::filesystem::absolute(layout.path(f)).string();
    file["bytes"] = layout.file_size(f);
    file["rows"] = g->rows;
    file["codec"] = g->compression == dlgen::ParquetCompression::zstd     ? "ZSTD"
                    : g->compression == dlgen::ParquetCompression::snappy ? "SNAPPY"
                                                                          : "UNCOMPRESSED";
    for (const auto& rg : g->row_groups) file["row_groups"].push_back(rg.rows);
    for (std::size_t c = 0; c < g->columns.size(); ++c) {
      const std::string bin = std::to_string(f) + "." + std::to_string(c) + ".bin";
      file["columns"].push_back(
          {{"name", g->columns[c].name}, {"type_length", g->value_bytes(c)}, {"values", bin}});
      const auto bytes = dlgen::datasets::parquet::column_values(job->dataset, f, c);
      std::ofstream(out / bin, std::ios::binary)
          .write(reinterpret_cast<const char*>(bytes.data()),
                 static_cast<std::streamsize>(bytes.size()));
    }
    files.push_back(file);
  }
  std::ofstream(out / "expected.json") << nlohmann::json{{"files", files}}.dump(1) << "\n";
  return 0;
}
