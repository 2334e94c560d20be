#include "dlgen/replay/checkpoint_objects.hpp"

#include <nlohmann/json.hpp>

#include "dlgen/core/storage_location.hpp"
#include "dlgen/engine/s3.hpp"

namespace dlgen::replay {
namespace {

std::string manifest_text() {
  nlohmann::ordered_json j;
  j["writer"] = "dlgen";
  j["kind"] = "checkpoints";
  return j.dump(2) + "\n";
}

// "PREFIX/" (or "" for a whole bucket): what a LIST below the prefix asks for.
std::string list_prefix(const StorageLocation& loc) {
  return loc.prefix.empty() ? "" : loc.prefix + "/";
}

}  // namespace

bool is_object_dir(const std::filesystem::path& dir) {
  Result<StorageLocation> loc = parse_location(dir.string());
  return loc && loc->kind == StorageKind::s3;
}

Result<void> claim_checkpoint_prefix(const std::filesystem::path& dir) {
  Result<StorageLocation> loc = parse_location(dir.string());
  if (!loc) return loc.error();
  const std::string key = loc->key(kCheckpointManifest);
  const std::string url = "s3://" + loc->bucket + "/" + key;
  Result<std::optional<std::string>> text = engine::s3_get_text(loc->bucket, key);
  if (!text) return text.error();
  if (*text) {
    const nlohmann::json j = nlohmann::json::parse(**text, nullptr, false);
    if (j.is_object() && j.value("writer", "") == "dlgen" && j.value("kind", "") == "checkpoints")
      return ok();
    return runtime_error(url +
                         ": not a dlgen checkpoint manifest; dlgen writes no checkpoint "
                         "below " +
                         loc->text());
  }
  Result<std::vector<std::string>> keys = engine::s3_list(loc->bucket, list_prefix(*loc), 1);
  if (!keys) return keys.error();
  if (!keys->empty())
    return runtime_error(loc->text() + ": holds objects (" + keys->front() +
                         ") and no dlgen checkpoint manifest; dlgen writes checkpoints only "
                         "below an empty prefix or one holding checkpoints it wrote (" +
                         kCheckpointManifest + ")");
  return engine::s3_put_text(loc->bucket, key, manifest_text());
}

Result<ObjectSizes> list_checkpoint_objects(const std::filesystem::path& dir) {
  Result<StorageLocation> loc = parse_location(dir.string());
  if (!loc) return loc.error();
  Result<std::vector<engine::S3Object>> objects =
      engine::s3_list_objects(loc->bucket, list_prefix(*loc));
  if (!objects) return objects.error();
  ObjectSizes out;
  for (const engine::S3Object& o : *objects) out["s3://" + loc->bucket + "/" + o.key] = o.size;
  return out;
}

std::vector<std::string> missing_objects(
    const ObjectSizes& listing,
    const std::vector<std::pair<std::filesystem::path, std::uint64_t>>& files) {
  std::vector<std::string> out;
  for (const auto& [path, bytes] : files) {
    const auto it = listing.find(path.string());
    if (it == listing.end() || it->second != bytes) out.push_back(path.string());
  }
  return out;
}

std::string name_some(const std::vector<std::string>& urls) {
  constexpr std::size_t kShown = 2;
  std::string s;
  for (std::size_t i = 0; i < urls.size() && i < kShown; ++i) s += (i ? ", " : "") + urls[i];
  if (urls.size() > kShown) s += " and " + std::to_string(urls.size() - kShown) + " more";
  return s;
}

Result<void> delete_checkpoint_object(const std::filesystem::path& url) {
  Result<StorageLocation> loc = parse_object_url(url.string());
  if (!loc) return loc.error();
  return engine::s3_delete(loc->bucket, loc->prefix);
}

}  // namespace dlgen::replay
