// DLIO's object storage (storage.storage_type: s3, read by s3torchconnector and checkpointed by
// pt_s3_save) -> a dataset of objects: dataset.dir = "s3://BUCKET/DATA_FOLDER/train". The store's
// endpoint, region and addressing style are the AWS_* environment's when it sets them, else the
// config's (DlioJob::environment, applied by `dlgen run` before the engine starts); credentials
// only ever come from the environment. docs/dlio.md, "Object storage".
#include <string>

#include "keys.hpp"
#include "reader.hpp"

namespace dlgen::dlio {

// The keys of DLIO's storage section (its LoadConfig), and the options its S3 clients take.
const std::set<std::string, std::less<>> kStorageKeys = {
    "storage.storage_type",
    "storage.storage_root",
    "storage.storage_library",
    "storage.storage_options.endpoint_url",
    "storage.storage_options.region",
    "storage.storage_options.s3_force_path_style",
    "storage.storage_options.s3_max_attempts",
    "storage.storage_options.secure",
    "storage.storage_options.access_key_id",
    "storage.storage_options.secret_access_key",
    "storage.storage_options.storage_library"};

namespace {

// "a/./b/" -> "a/b"; "." and "./" -> "".
std::string clean_folder(std::string f) {
  while (f.rfind("./", 0) == 0) f.erase(0, 2);
  if (f == ".") f.clear();
  while (!f.empty() && f.back() == '/') f.pop_back();
  return f;
}

}  // namespace

void Reader::read_storage() {
  const Leaf* type = get("storage.storage_type");
  const std::optional<std::string> kind = type ? word(*type) : std::nullopt;
  if (!kind || *kind == "local_fs" || *kind == "parallel_fs") {
    for (const char* k : {"storage.storage_root", "storage.storage_options.endpoint_url"})
      if (const Leaf* l = get(k))
        error(*l, "applies to storage.storage_type s3 only (this config reads files)");
    return;
  }
  if (*kind != "s3") {
    error(*type, "\"" + *kind + "\" is not supported (local_fs, parallel_fs or s3)");
    return;
  }
  from("dataset.dir", *type);
  read_storage_root();
  read_storage_options();
}

// The bucket (storage_root, "BUCKET" or "BUCKET/PREFIX") and the data folder inside it; a data
// folder written as a URL ("s3://BUCKET/...", as DLIO's own unet3d_h100_s3.yaml does) is taken
// as it is. storage_root is also where checkpoints go (read_checkpoint_location); without one, the
// data folder's bucket.
void Reader::read_storage_root() {
  const Leaf* root = get("storage.storage_root");
  std::string bucket;
  if (root)
    if (auto t = text(*root)) {
      bucket = clean_folder(*t);
      if (bucket.rfind("s3://", 0) == 0) bucket.erase(0, 5);
    }
  std::string folder = folder_.string();
  if (folder.rfind("s3://", 0) == 0) {
    while (folder.size() > 5 && folder.back() == '/') folder.pop_back();
    folder_ = folder;
    s3_root_ = "s3://" + (bucket.empty() ? folder.substr(5, folder.find('/', 5) - 5) : bucket);
  } else {
    if (bucket.empty()) {
      if (root)
        error(*root, "must name the bucket (BUCKET or BUCKET/PREFIX)");
      else
        error(*get("storage.storage_type"),
              "s3 needs storage.storage_root (the bucket) or a dataset.data_folder of the form "
              "s3://BUCKET/PREFIX");
      return;
    }
    folder = clean_folder(folder);
    folder_ = "s3://" + bucket + (folder.empty() ? "" : "/" + folder);
    s3_root_ = "s3://" + bucket;
    if (root) from("dataset.dir", *root);
  }
  out_.job.dataset.dir = folder_ / "train";
}

// With storage_type s3 DLIO writes checkpoints as objects (pt_s3_save, s3torchconnector's
// S3Checkpoint, the default storage_library): a checkpoint_folder that is not a URL is a prefix
// below storage_root, s3://<storage_root>/<checkpoint_folder>/... (its PyTorchS3Checkpointing
// get_name); a URL is taken as it is. An absolute path names no object: refused.
void Reader::read_checkpoint_location(bool checkpoint) {
  if (s3_root_.empty()) return;
  CheckpointSpec& k = out_.job.checkpoint;
  const std::string dir = k.dir.string();
  if (dir.rfind("s3://", 0) == 0) return;
  const Leaf* l = get("checkpoint.checkpoint_folder");
  if (!dir.empty() && dir.front() == '/') {
    error(l ? *l : *get("storage.storage_type"),
          "is a local path, and with storage_type s3 DLIO writes checkpoints as objects below "
          "storage_root (s3://<storage_root>/<checkpoint_folder>): give a relative folder or an "
          "s3:// URL");
    return;
  }
  const std::string folder = clean_folder(dir);
  k.dir = s3_root_ + (folder.empty() ? "" : "/" + folder);
  if (checkpoint)
    note("checkpoint.checkpoint_folder " + dir +
         " with storage_type s3: checkpoints are objects "
         "below " +
         k.dir.string() + " (DLIO's pt_s3_save: s3://<storage_root>/<checkpoint_folder>)");
}

// storage_options: where the store is (endpoint, region, addressing) as environment values for
// the engine; the client library DLIO would use and its retries (notes); credentials refused as
// a source (never read from a file).
void Reader::read_storage_options() {
  auto env = [this](const char* name, const std::string& value) { out_.environment[name] = value; };
  if (const Leaf* l = get("storage.storage_options.endpoint_url")) {
    if (auto t = text(*l); t && !t->empty()) {
      const std::string first = t->substr(0, t->find(','));
      env("AWS_ENDPOINT_URL", first);
      if (first.size() != t->size())
        note(
            "storage.storage_options.endpoint_url lists several endpoints (DLIO: rank r uses "
            "endpoints[r % N]); dlgen uses the first, " +
            first);
      note("the store's endpoint is AWS_ENDPOINT_URL when the environment sets it, else " + first +
           " (a job converted to TOML does not carry it)");
    }
  }
  if (const Leaf* l = get("storage.storage_options.region"))
    if (auto t = text(*l); t && !t->empty()) env("AWS_REGION", *t);
  if (const Leaf* l = get("storage.storage_options.s3_force_path_style"))
    if (auto b = boolean(*l)) env("DLGEN_S3_ADDRESSING", *b ? "path" : "virtual");
  if (const Leaf* l = get("storage.storage_options.secure")) {
    if (boolean(*l))
      note("storage.storage_options.secure: http or https is the endpoint URL's scheme");
  }
  if (const Leaf* l = get("storage.storage_options.s3_max_attempts")) {
    if (count(*l))
      note(
          "storage.storage_options.s3_max_attempts: dlgen tries each request up to 5 times "
          "(500, 502, 503 SlowDown, 504, timeouts and resets), counted in the result's s3 "
          "figures");
  }
  for (const char* k :
       {"storage.storage_options.access_key_id", "storage.storage_options.secret_access_key"})
    if (const Leaf* l = get(k)) {
      text(*l);
      note(std::string(k) +
           ": not read (a secret is never taken from a config file); dlgen's credentials are "
           "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY");
    }
  for (const char* k : {"storage.storage_library", "storage.storage_options.storage_library"})
    if (const Leaf* l = get(k)) {
      if (auto w = word(*l))
        note(std::string(k) + " " + *w +
             ": the client DLIO reads with (s3torchconnector's reader pt_s3, checkpoints "
             "pt_s3_save); dlgen replays the same GETs and PUTs with its own client (libcurl)");
    }
}

}  // namespace dlgen::dlio
