#pragma once
// A job's dataset as objects of an S3 store: dataset.dir = "s3://BUCKET/PREFIX", object i at
// PREFIX/<the layout's relative path of file i> with the bytes the generator writes to a file
// (datasets/codec.hpp), and a manifest object PREFIX/.dlgen-manifest.json recording what dlgen
// wrote (the dataset's fingerprint). The root-safety rules hold for buckets: a prefix that holds
// objects but no dlgen manifest is never written to; objects dlgen did not write are never
// overwritten or deleted. Written through the "s3" engine (engine/s3.cpp), several threads of
// PUTs at once.
#include <cstdint>
#include <string>
#include <vector>

#include "dlgen/core/job.hpp"
#include "dlgen/core/result.hpp"

namespace dlgen::objects {

struct ObjectWrite {
  bool reused = false;  // the manifest matched: nothing written
  std::uint64_t files = 0, bytes = 0;
  double seconds = 0;
};

// What keeps the location from holding this dataset, in a few words ("no dlgen manifest", "its
// manifest is another dataset's", "3 objects are missing or of another size (s3://...)"); empty
// when its manifest matches (same fingerprint, complete) and a LIST finds every object at its
// size. A store that cannot be asked is an error.
Result<std::string> dataset_gap(const DatasetSpec& spec);
// True when dataset_gap is empty.
bool dataset_ready(const DatasetSpec& spec);

// Which objects a rank writes: those whose index is `rank` modulo `ranks` (every object once over
// the ranks of `mpirun -np ranks dlgen generate`; {0, 1}: all of them).
struct ObjectShare {
  std::uint32_t rank = 0, ranks = 1;
};
// The steps of writing a dataset, for several ranks sharing it (ensure_dataset runs them in one
// process): `claim_dataset` on one rank reads the manifest and, unless it matches with every
// object present, claims the prefix (writes the manifest as incomplete; a prefix holding
// objects that are not dlgen's is refused, nothing written) and says which objects to write;
// `write_objects` on every rank writes its share of them; `finish_dataset` on one rank, after
// all, marks the manifest complete.
struct DatasetClaim {
  bool reused = false;               // the manifest matched and every object was there
  std::vector<std::uint64_t> files;  // the objects to write (their layout indexes)
};
Result<DatasetClaim> claim_dataset(const DatasetSpec& spec);
Result<ObjectWrite> write_objects(const DatasetSpec& spec, const std::vector<std::uint64_t>& files,
                                  ObjectShare share, std::uint32_t threads = 0);
Result<void> finish_dataset(const DatasetSpec& spec);

// Writes the dataset's objects, then the manifest, unless the manifest already matches and every
// object is there (a LIST); objects missing under a matching manifest are written alone.
// `threads`: objects written at once (0: 16).
Result<ObjectWrite> ensure_dataset(const DatasetSpec& spec, std::uint32_t threads = 0);

}  // namespace dlgen::objects
