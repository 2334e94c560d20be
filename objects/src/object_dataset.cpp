#include "dlgen/objects/object_dataset.hpp"

#include <fcntl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>
#include <unordered_map>

#include "dlgen/core/storage_location.hpp"
#include "dlgen/datasets/codec.hpp"
#include "dlgen/datasets/layout.hpp"
#include "dlgen/engine/registry.hpp"
#include "dlgen/engine/run_one.hpp"
#include "dlgen/engine/s3.hpp"
#include "dlgen/generator/generator.hpp"

namespace dlgen::objects {
namespace {

using json = nlohmann::ordered_json;
constexpr std::uint64_t kWriteBytes = 4u << 20;  // write request size (the engine's parts: 8 MiB)
constexpr std::uint32_t kDefaultThreads = 16;    // PUTs in flight: the store, not one, is the limit

Result<std::unique_ptr<engine::IoEngine>> make_engine() {
  engine::EngineOptions o;
  o.depth = 2;
  o.buffers = 2;
  o.buffer_bytes = kWriteBytes;
  return engine::make("s3", o);
}

using engine::run_one;

Error failed(const engine::IoEngine& e, const std::string& url, const char* what, std::int64_t rc) {
  const std::string detail = engine::s3_last_error(e);
  return runtime_error(
      detail.empty() ? url + ": " + what + ": " + std::strerror(static_cast<int>(-rc)) : detail);
}

// A small object's bytes (at most one buffer), or nullopt when there is none.
Result<std::optional<std::string>> read_small(const std::string& url) {
  Result<std::unique_ptr<engine::IoEngine>> e = make_engine();
  if (!e) return e.error();
  int t = -1;
  if (const int rc = (*e)->open_file(url.c_str(), O_RDONLY, t); rc < 0)
    return failed(**e, url, "open", rc);
  const std::int64_t n = run_one(**e, {t, engine::IoOp::read, 0, kWriteBytes, 0, 0});
  (void)(*e)->close_file(t);
  if (n == -ENOENT) return std::optional<std::string>();
  if (n < 0) return failed(**e, url, "read", n);
  return std::optional<std::string>(
      std::string(reinterpret_cast<const char*>((*e)->buffer(0)), static_cast<std::size_t>(n)));
}

// Writes `bytes` as object `url`, front to back in requests of the engine's buffer size.
Result<void> write_object(engine::IoEngine& e, const std::string& url,
                          std::span<const std::uint8_t> bytes) {
  int t = -1;
  if (const int rc = e.open_file(url.c_str(), O_WRONLY | O_CREAT | O_TRUNC, t); rc < 0)
    return failed(e, url, "open", rc);
  for (std::uint64_t off = 0; off < bytes.size();) {
    const auto n =
        static_cast<std::uint32_t>(std::min<std::uint64_t>(kWriteBytes, bytes.size() - off));
    std::memcpy(e.buffer(0), bytes.data() + off, n);
    if (const std::int64_t rc = run_one(e, {t, engine::IoOp::write, 0, n, off, 0}); rc != n) {
      (void)e.close_file(t);
      return failed(e, url, "write", rc < 0 ? rc : -EIO);
    }
    off += n;
  }
  if (const int rc = e.close_file(t); rc < 0) return failed(e, url, "close", rc);
  return ok();
}

struct ManifestState {
  bool present = false, ours = false, matches = false;
};

Result<ManifestState> read_manifest(const StorageLocation& loc, const std::string& fp) {
  const std::string url = "s3://" + loc.bucket + "/" + loc.key(generator::kManifestName);
  Result<std::optional<std::string>> text = read_small(url);
  if (!text) return text.error();
  ManifestState m;
  if (!*text) return m;
  m.present = true;
  try {
    const json j = json::parse(**text);
    m.ours = j.value("writer", "") == "dlgen";
    m.matches = m.ours && j.value("fingerprint", "") == fp && j.value("complete", false);
  } catch (const std::exception&) {
    m.ours = false;
  }
  if (!m.ours)
    return runtime_error(url + ": not a dlgen manifest; dlgen writes no object below " +
                         loc.text());
  return m;
}

Result<void> write_manifest(const StorageLocation& loc, const datasets::Layout& layout,
                            const std::string& fp, bool complete) {
  Result<std::unique_ptr<engine::IoEngine>> e = make_engine();
  if (!e) return e.error();
  json j;
  j["writer"] = "dlgen";
  j["fingerprint"] = fp;
  j["num_files"] = layout.num_files();
  j["bytes"] = layout.total_bytes();
  j["complete"] = complete;
  const std::string text = j.dump(2) + "\n";
  return write_object(**e, "s3://" + loc.bucket + "/" + loc.key(generator::kManifestName),
                      std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

// Of `files` (layout indexes), those this share writes, `threads` at once (thread k writes the
// share's k-th, k + threads-th, ...).
Result<void> write_share(const StorageLocation& loc, const datasets::Layout& layout,
                         const std::vector<std::uint64_t>& files, ObjectShare share,
                         std::uint32_t threads, ObjectWrite& out) {
  std::vector<std::uint64_t> mine;
  for (std::size_t i = share.rank; i < files.size(); i += std::max<std::uint32_t>(share.ranks, 1))
    mine.push_back(files[i]);
  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> written{0}, bytes{0};
  std::mutex m;
  std::optional<Error> first;
  const auto fail = [&](Error e) {
    const std::lock_guard lock(m);
    if (!first) first = std::move(e);
    stop = true;
  };
  std::vector<std::thread> pool;
  threads = static_cast<std::uint32_t>(
      std::min<std::size_t>(threads, std::max<std::size_t>(mine.size(), 1)));
  for (std::uint32_t k = 0; k < threads; ++k)
    pool.emplace_back([&, k] {
      Result<std::unique_ptr<engine::IoEngine>> e = make_engine();
      if (!e) return fail(e.error());
      for (std::size_t i = k; i < mine.size() && !stop; i += threads) {
        const std::uint64_t f = mine[i];
        Result<std::vector<std::uint8_t>> data = datasets::encode_to_memory(layout, f);
        if (!data) return fail(data.error());
        const std::string url =
            "s3://" + loc.bucket + "/" + loc.key(layout.relative_path(f).string());
        if (Result<void> w = write_object(**e, url, *data); !w) return fail(w.error());
        written += 1;
        bytes += data->size();
      }
    });
  for (std::thread& t : pool) t.join();
  if (first) return *first;
  out.files = written;
  out.bytes = bytes;
  return ok();
}

// The layout indexes of the objects a LIST of the prefix lacks or holds at another size.
Result<std::vector<std::uint64_t>> absent_objects(const StorageLocation& loc,
                                                  const datasets::Layout& layout) {
  Result<std::vector<engine::S3Object>> listing =
      engine::s3_list_objects(loc.bucket, loc.prefix.empty() ? "" : loc.prefix + "/");
  if (!listing) return listing.error();
  std::unordered_map<std::string, std::uint64_t> sizes;
  for (const engine::S3Object& o : *listing) sizes[o.key] = o.size;
  std::vector<std::uint64_t> absent;
  for (std::uint64_t f = 0; f < layout.num_files(); ++f) {
    const auto it = sizes.find(loc.key(layout.relative_path(f).string()));
    if (it == sizes.end() || it->second != layout.file_size(f)) absent.push_back(f);
  }
  return absent;
}

Result<StorageLocation> object_location(const DatasetSpec& spec) {
  Result<StorageLocation> loc = parse_location(spec.dir.string());
  if (!loc) return loc.error();
  if (loc->kind != StorageKind::s3)
    return input_error(spec.dir.string() + ": not an object location (s3://BUCKET/PREFIX)");
  return loc;
}

}  // namespace

Result<std::string> dataset_gap(const DatasetSpec& spec) {
  Result<StorageLocation> loc = object_location(spec);
  if (!loc) return loc.error();
  Result<ManifestState> m = read_manifest(*loc, generator::fingerprint(spec));
  if (!m) return m.error();
  if (!m->present) return std::string("no dlgen manifest (") + generator::kManifestName + ")";
  if (!m->matches)
    return std::string("its manifest is another dataset's, or one whose writing did not end");
  const datasets::Layout layout(spec);
  Result<std::vector<std::uint64_t>> absent = absent_objects(*loc, layout);
  if (!absent) return absent.error();
  if (absent->empty()) return std::string();
  std::string named;
  for (std::size_t i = 0; i < absent->size() && i < 2; ++i)
    named += (i ? ", " : "") + loc->key(layout.relative_path((*absent)[i]).string());
  if (absent->size() > 2) named += " and " + std::to_string(absent->size() - 2) + " more";
  return std::to_string(absent->size()) + " of its " + std::to_string(layout.num_files()) +
         " objects are missing or of another size (" + named + ")";
}

bool dataset_ready(const DatasetSpec& spec) {
  Result<std::string> gap = dataset_gap(spec);
  return gap && gap->empty();
}

Result<DatasetClaim> claim_dataset(const DatasetSpec& spec) {
  Result<StorageLocation> loc = object_location(spec);
  if (!loc) return loc.error();
  const std::string fp = generator::fingerprint(spec);
  Result<ManifestState> m = read_manifest(*loc, fp);
  if (!m) return m.error();
  const datasets::Layout layout(spec);
  DatasetClaim claim;
  if (m->matches) {  // dlgen's and complete: only what a LIST does not find is written again
    Result<std::vector<std::uint64_t>> absent = absent_objects(*loc, layout);
    if (!absent) return absent.error();
    claim.reused = absent->empty();
    claim.files = std::move(*absent);
    return claim;
  }
  if (!m->present) {
    // No manifest: the prefix must hold nothing at all, or the objects are someone else's.
    Result<std::vector<std::string>> keys =
        engine::s3_list(loc->bucket, loc->prefix.empty() ? "" : loc->prefix + "/", 1);
    if (!keys) return keys.error();
    if (!keys->empty())
      return runtime_error(loc->text() + ": holds objects (" + keys->front() +
                           ") and no dlgen manifest; dlgen writes datasets only below an empty "
                           "prefix or one holding a dataset it wrote");
  }
  // Claim the prefix first: a run cut short leaves a manifest saying the dataset is dlgen's and
  // incomplete, so the next run rewrites it rather than refusing it.
  if (Result<void> w = write_manifest(*loc, layout, fp, false); !w) return w.error();
  for (std::uint64_t f = 0; f < layout.num_files(); ++f) claim.files.push_back(f);
  return claim;
}

Result<ObjectWrite> write_objects(const DatasetSpec& spec, const std::vector<std::uint64_t>& files,
                                  ObjectShare share, std::uint32_t threads) {
  const auto start = std::chrono::steady_clock::now();
  Result<StorageLocation> loc = object_location(spec);
  if (!loc) return loc.error();
  ObjectWrite out;
  const datasets::Layout layout(spec);
  if (Result<void> w =
          write_share(*loc, layout, files, share, threads > 0 ? threads : kDefaultThreads, out);
      !w)
    return w.error();
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

Result<void> finish_dataset(const DatasetSpec& spec) {
  Result<StorageLocation> loc = object_location(spec);
  if (!loc) return loc.error();
  return write_manifest(*loc, datasets::Layout(spec), generator::fingerprint(spec), true);
}

Result<ObjectWrite> ensure_dataset(const DatasetSpec& spec, std::uint32_t threads) {
  const auto start = std::chrono::steady_clock::now();
  Result<DatasetClaim> claim = claim_dataset(spec);
  if (!claim) return claim.error();
  if (claim->reused) return ObjectWrite{true};
  Result<ObjectWrite> out = write_objects(spec, claim->files, {}, threads);
  if (!out) return out;
  if (Result<void> w = finish_dataset(spec); !w) return w.error();
  out->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace dlgen::objects
