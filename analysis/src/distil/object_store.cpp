// Where a distilled job's dataset goes: data/NAME for files, and for a dataset of objects read
// from an S3 store (prepass/objects.hpp) a new prefix of the same bucket, s3://BUCKET/dlgen/NAME:
// the replay then meets the same store, and, as for files, never writes where the traced data is
// (the store's root-safety rules refuse a prefix holding others' objects anyway).
#include <string>

#include "sections.hpp"

namespace dlgen::analysis::sections {

std::filesystem::path default_data_dir(const TraceSummary& s, const std::string& name) {
  if (const int ti = train_dataset(s); ti >= 0) {
    const std::string& dir = s.datasets[ti].dir;
    if (dir.starts_with("s3://")) {
      const std::size_t slash = dir.find('/', 5);
      return dir.substr(0, slash) + "/dlgen/" + name;
    }
  }
  return std::filesystem::path("data") / name;
}

}  // namespace dlgen::analysis::sections
