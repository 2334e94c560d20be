#pragma once
// Checkpoints on an object store (checkpoint.dir = "s3://BUCKET/PREFIX"): every shard an object
// below the prefix, written by the s3 engine (a multipart upload past 8 MiB) and read back with
// ranged GETs (checkpoint_io.hpp). What a directory's descriptor gives the POSIX writer (its
// files, their sizes, that they are dlgen's) comes here from the store's control requests
// (engine/s3.hpp):
// - a prefix is claimed before anything is written to it: its manifest object
//   PREFIX/.dlgen-checkpoints.json says the checkpoints below it are dlgen's; a prefix that holds
//   objects and no such manifest is never written to (the root-safety rules, for buckets);
// - a restore or a read phase LISTs first, so that a missing checkpoint is named (and written, or
//   refused with the command that writes it), never met as a stack of 404s;
// - only objects of dlgen's names below a claimed prefix are ever deleted (checkpoint.keep).
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "dlgen/core/result.hpp"

namespace dlgen::replay {

// The manifest object's name below a checkpoint prefix.
inline constexpr const char* kCheckpointManifest = ".dlgen-checkpoints.json";

// Whether checkpoints in `dir` are objects (an s3:// location).
bool is_object_dir(const std::filesystem::path& dir);

// Claims `dir` (s3://BUCKET/PREFIX) for dlgen's checkpoints: its manifest says so already (ok),
// or the prefix is empty and the manifest is written now. A manifest that is not dlgen's, or
// objects below the prefix without one, are an error naming one of them; nothing is written then.
Result<void> claim_checkpoint_prefix(const std::filesystem::path& dir);

// The objects below `dir` (their URLs, "s3://BUCKET/KEY", and sizes): one paged LIST.
using ObjectSizes = std::map<std::string, std::uint64_t>;
Result<ObjectSizes> list_checkpoint_objects(const std::filesystem::path& dir);

// Of `files` (URLs and the bytes they must hold), those `listing` lacks or holds at another size.
std::vector<std::string> missing_objects(
    const ObjectSizes& listing,
    const std::vector<std::pair<std::filesystem::path, std::uint64_t>>& files);

// "s3://B/P/a, s3://B/P/b and 3 more": the first few of `urls`, for messages.
std::string name_some(const std::vector<std::string>& urls);

// Deletes one object dlgen wrote (checkpoint.keep); one already gone is not an error.
Result<void> delete_checkpoint_object(const std::filesystem::path& url);

}  // namespace dlgen::replay
