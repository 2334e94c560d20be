#pragma once
// A job's dataset as objects of an S3 store: dataset.dir = "s3://BUCKET/PREFIX", object i at
// PREFIX/<the layout's relative path of file i> with the bytes the generator writes to a file
// (datasets/codec.hpp), and a manifest object PREFIX/.dlgen-manifest.json recording what dlgen
// wrote (the dataset's fingerprint). The root-safety rules hold for buckets: a prefix that holds
// objects but no dlgen manifest is never written to; objects dlgen did not write are never
// overwritten or deleted. Written through the "s3" engine (engine/s3.cpp), several threads of
// PUTs at once.
#include <cstdint>

#include "dlgen/core/job.hpp"
#include "dlgen/core/result.hpp"

namespace dlgen::objects {

struct ObjectWrite {
  bool reused = false;  // the manifest matched: nothing written
  std::uint64_t files = 0, bytes = 0;
  double seconds = 0;
};

// True when the location's manifest object says it holds this dataset (same fingerprint).
bool dataset_ready(const DatasetSpec& spec);
// Writes the dataset's objects, then the manifest, unless the manifest already matches.
// `threads`: objects written at once (0: 16).
Result<ObjectWrite> ensure_dataset(const DatasetSpec& spec, std::uint32_t threads = 0);

}  // namespace dlgen::objects
