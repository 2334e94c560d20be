#pragma once
// The job file's key schema: which sections exist and which keys each accepts. Used for
// unknown-key errors (with a "did you mean"), for checking `--set` keys before they touch the
// tree, and for [scales.*] tables. The defaults live in the structs (job.hpp); rules over several
// fields in validate() (job.cpp).
#include <string>
#include <string_view>
#include <vector>

namespace dlgen::detail {

extern const std::vector<std::string_view> kSections;
extern const std::vector<std::string_view> kJobKeys;
extern const std::vector<std::string_view> kDatasetKeys;  // [dataset] and [validation]
extern const std::vector<std::string_view> kParquetKeys;  // [dataset.parquet]
extern const std::vector<std::string_view> kReaderKeys;
extern const std::vector<std::string_view> kComputeKeys;
extern const std::vector<std::string_view> kAcceleratorKeys;  // [compute.<accelerator>]
extern const std::vector<std::string_view> kCheckpointKeys;
extern const std::vector<std::string_view> kRunKeys;
extern const std::vector<std::string_view> kModelKeys;
extern const std::vector<std::string_view> kDistKeys;  // a distribution given as a table

// The keys of a section, or nullptr for one that has no fixed keys (scales) or does not exist.
const std::vector<std::string_view>* keys_of(std::string_view section);
// " (did you mean 'batch_size'?)" for the closest known key, or the list of known keys when none
// is close.
std::string suggestion(std::string_view key, const std::vector<std::string_view>& known);
std::vector<std::string> split_dots(std::string_view s);
// Whether section.key takes a distribution (a value, or a table of dist, mean, stdev...).
bool is_dist_key(std::string_view section, std::string_view key);
// Checks a dotted key path against the schema; returns "" when it names a settable key, else
// what is wrong with it.
std::string check_key_path(std::string_view dotted);
// Whether a dotted key's value is text, so that `--set job.name=2024` names the job "2024".
bool is_text_key(const std::string& dotted);

}  // namespace dlgen::detail
