#pragma once
// The DLIO key schema: which keys of a workload config dlgen maps (or accepts as having no I/O
// meaning), which it refuses with a reason, and which keys are time distributions given as maps.
// The reader refuses every key not listed here, so a DLIO key is never ignored silently.
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace dlgen::dlio {

// Keys dlgen maps to their I/O meaning (or accepts as having none, with a note).
extern const std::set<std::string, std::less<>> kMapped;
// The keys that describe an LLM; any of them makes the config an LLM checkpoint workload.
extern const std::vector<const char*> kLlmKeys;
// DLIO's storage section (storage_type s3: mapping_s3.cpp).
extern const std::set<std::string, std::less<>> kStorageKeys;
// Keys DLIO has that dlgen cannot honour yet: key -> why (refused, never ignored).
extern const std::map<std::string, std::string, std::less<>> kRefused;
// Distribution parameters DLIO accepts under a time key given as a map.
extern const std::set<std::string, std::less<>> kDistParams;

// A time key whose value may be a map of distribution parameters (not a section).
bool is_dist_key(std::string_view key);
// Whether `key` is a parameter of such a map ("train.computation_time.mean").
bool is_dist_param_key(std::string_view key);
// " (did you mean 'reader.batch_size'?)" for the closest mapped key, or "".
std::string did_you_mean(std::string_view key);

}  // namespace dlgen::dlio
