#include "manifest.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include "dlgen/core/json.hpp"
#include <string_view>

#include "dlgen/generator/generator.hpp"
#include "safety.hpp"

namespace dlgen::generator {
namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

namespace {

json dataset_json(const DatasetSpec& s) {
  const Distribution& d = s.sample_size;
  json dist = {{"kind", to_string(d.kind)}, {"value", d.value}, {"mean", d.mean},
               {"stdev", d.stdev},          {"min", d.min},     {"max", d.max}};
  if (!d.bins.empty()) {
    json bins = json::array();
    for (const auto& b : d.bins) bins.push_back({b.lo, b.hi, b.weight});
    dist["bins"] = bins;
  }
  return {{"format", to_string(s.format)},
          {"num_files", s.num_files},
          {"samples_per_file", s.samples_per_file},
          {"sample_size", dist},
          {"seed", s.seed},
          {"files_per_dir", s.files_per_dir},
          {"file_prefix", s.file_prefix}};
}

}  // namespace

namespace {

// Reads a manifest as a stream of SAX events, keeping only what dlgen needs (the fingerprint,
// whether it is complete, and each file's path and size): a dataset of a million files has a
// manifest of tens of MB, whose DOM would take several hundred MB and seconds to build.
class ManifestReader final : public nlohmann::json_sax<nlohmann::json> {
 public:
  explicit ManifestReader(bool keep_files) : keep_files_(keep_files) {}
  Manifest manifest;
  std::string problem;         // the first reason this is not a dlgen manifest
  bool names_outside = false;  // the problem is a path that leaves the directory

  bool finish() {
    if (problem.empty() && !has_fingerprint_) problem = "no \"fingerprint\"";
    if (problem.empty() && !has_files_) problem = "no \"files\"";
    return problem.empty();
  }

  bool null() override { return scalar("null"); }
  bool boolean(bool v) override {
    if (depth_ == 1 && key_ == "complete") {
      manifest.complete = v;
      return true;
    }
    return scalar("a boolean");
  }
  bool number_integer(number_integer_t v) override {
    if (v < 0) return scalar("a negative number");
    return number_unsigned(static_cast<number_unsigned_t>(v));
  }
  bool number_unsigned(number_unsigned_t v) override {
    if (in_entry_ && depth_ == 3 && entry_key_ == "size") {
      size_ = v;
      has_size_ = true;
      return true;
    }
    return scalar("a number");
  }
  bool number_float(number_float_t, const string_t&) override { return scalar("a number"); }
  bool string(string_t& v) override {
    if (depth_ == 1 && key_ == "fingerprint") {
      manifest.fingerprint = std::move(v);
      has_fingerprint_ = true;
      return true;
    }
    if (in_entry_ && depth_ == 3 && entry_key_ == "path") {
      path_ = std::move(v);
      has_path_ = true;
      return true;
    }
    return scalar("a string");
  }
  bool binary(binary_t&) override { return scalar("binary"); }
  bool start_object(std::size_t) override {
    if (depth_ == 0) {
      top_ = true;
    } else if (in_files_ && depth_ == 2) {
      in_entry_ = true;
      has_path_ = has_size_ = false;
      entry_key_.clear();
    } else if (!scalar("an object")) {
      return false;
    }
    ++depth_;
    return true;
  }
  bool key(string_t& k) override {
    if (depth_ == 1) key_ = k;
    if (in_entry_ && depth_ == 3) entry_key_ = k;
    return true;
  }
  bool end_object() override {
    --depth_;
    if (in_entry_ && depth_ == 2) {
      in_entry_ = false;
      if (!has_path_ || !has_size_)
        return fail("files[" + std::to_string(entries_) + "] lacks " +
                    (has_path_ ? "\"size\"" : "\"path\""));
      // dlgen deletes what its manifest lists: a path that is absolute or climbs out with ".."
      // names someone else's file, so the whole manifest is refused before anything is touched.
      if (!plain_relative(path_))
        return fail("files[" + std::to_string(entries_) + "].path \"" + path_ +
                        "\" is not a plain relative path below the dataset directory (absolute, "
                        "empty, or with a \".\" or \"..\" component)",
                    true);
      ++entries_;
      if (keep_files_) manifest.files.emplace_back(std::move(path_), size_);
    }
    return true;
  }
  bool start_array(std::size_t) override {
    if (depth_ == 1 && key_ == "files") {
      in_files_ = has_files_ = true;
    } else if (!scalar("an array")) {
      return false;
    }
    ++depth_;
    return true;
  }
  bool end_array() override {
    --depth_;
    if (depth_ == 1) in_files_ = false;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    return fail(e.what());
  }

 private:
  // A value where dlgen's own keys expect another kind, or a value of a key dlgen does not read
  // (fine: the manifest also records the dataset's spec).
  bool scalar(const char* what) {
    if (depth_ == 0) return fail(std::string("the document is ") + what + ", not an object");
    if (depth_ == 1 && (key_ == "fingerprint" || key_ == "complete" || key_ == "files"))
      return fail("\"" + key_ + "\" is " + what);
    if (in_files_ && depth_ == 2)
      return fail("files[" + std::to_string(entries_) + "] is " + what + ", not an object");
    if (in_entry_ && depth_ == 3 && (entry_key_ == "path" || entry_key_ == "size"))
      return fail("files[" + std::to_string(entries_) + "]." + entry_key_ + " is " + what);
    return true;
  }
  bool fail(std::string why, bool outside = false) {
    if (problem.empty()) problem = std::move(why), names_outside = outside;
    return false;
  }

  bool keep_files_;
  std::size_t entries_ = 0;
  std::size_t depth_ = 0;
  bool top_ = false, in_files_ = false, in_entry_ = false;
  bool has_fingerprint_ = false, has_files_ = false, has_path_ = false, has_size_ = false;
  std::string key_, entry_key_, path_;
  std::uint64_t size_ = 0;
};

// Writes `text` whole to `fd`.
bool write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t w = ::write(fd, text.data(), text.size());
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) return false;
    text.remove_prefix(static_cast<std::size_t>(w));
  }
  return true;
}

// `s` as a JSON string; paths are almost always plain, and escaped by the library otherwise.
void append_json_string(std::string& out, const std::string& s) {
  const bool plain = std::ranges::none_of(s, [](char c) {
    return c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20 ||
           static_cast<unsigned char>(c) >= 0x80;
  });
  if (!plain) {
    out += json(s).dump();
    return;
  }
  out += '"';
  out += s;
  out += '"';
}

}  // namespace

Result<std::optional<Manifest>> read_manifest(int root, const fs::path& dir, bool with_files) {
  const fs::path p = dir / kManifestName;
  const int fd = ::openat(root, kManifestName, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0 && errno == ENOENT) return std::optional<Manifest>{};
  if (fd < 0 && errno == ELOOP)
    return input_error(p.string() +
                       ": is a symbolic link, not a dlgen manifest; refusing to touch " +
                       dir.string());
  if (fd < 0) return runtime_error(p.string() + ": cannot read: " + errno_text());
  std::FILE* file = ::fdopen(fd, "r");
  if (!file) {
    const std::string err = errno_text();
    ::close(fd);
    return runtime_error(p.string() + ": read: " + err);
  }
  ManifestReader reader(with_files);
  try {
    (void)nlohmann::json::sax_parse(file, &reader);
  } catch (const std::exception& e) {
    if (reader.problem.empty()) reader.problem = e.what();
  }
  const bool read_failed = std::ferror(file) != 0;
  std::fclose(file);
  if (read_failed) return runtime_error(p.string() + ": read failed");
  if (!reader.finish() && reader.names_outside)
    return input_error(p.string() + ": " + reader.problem + "; refusing to touch " + dir.string());
  if (!reader.finish())
    return input_error(p.string() + ": not a dlgen manifest (" + reader.problem +
                       "); refusing to touch " + dir.string());
  Manifest& m = reader.manifest;
  return std::optional<Manifest>(std::move(m));
}

Result<void> write_manifest(int root, const datasets::Layout& layout, const std::string& fp,
                            bool complete) {
  const fs::path dir = layout.spec().dir;
  const std::string tmp_name = std::string(kManifestName) + kTempSuffix;
  const fs::path tmp = dir / tmp_name;
  // The temporary is dlgen's own name: unlinked (a link planted there goes, its target stays),
  // then created afresh; O_EXCL | O_NOFOLLOW never opens what someone put there meanwhile.
  if (::unlinkat(root, tmp_name.c_str(), 0) != 0 && errno != ENOENT)
    return runtime_error(tmp.string() + ": unlink: " + errno_text());
  const int raw =
      ::openat(root, tmp_name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (raw < 0) return runtime_error(tmp.string() + ": create: " + errno_text());
  Fd fd(raw);
  // The head is the library's; the file list is streamed in pieces of about 1 MiB, one file per
  // line, so a million files need no document in memory. "complete" is the last key: a manifest
  // cut short never parses as complete.
  json head;
  head["dlgen_version"] = DLGEN_VERSION;
  head["fingerprint"] = fp;
  head["dataset"] = dataset_json(layout.spec());
  head["total_bytes"] = layout.total_bytes();
  std::string text = head.dump(1);
  text.resize(text.size() - 2);  // the closing "\n}"
  text += ",\n \"files\": [";
  for (std::uint64_t i = 0; i < layout.num_files(); ++i) {
    text += i == 0 ? "\n  {\"path\": " : ",\n  {\"path\": ";
    append_json_string(text, layout.relative_path(i).string());
    text += ", \"size\": ";
    text += std::to_string(layout.file_size(i));
    text += '}';
    if (text.size() >= (1u << 20)) {
      if (!write_all(fd.get(), text))
        return runtime_error(tmp.string() + ": write: " + errno_text());
      text.clear();
    }
  }
  text += std::string("\n ],\n \"complete\": ") + (complete ? "true" : "false") + "\n}\n";
  if (!write_all(fd.get(), text)) return runtime_error(tmp.string() + ": write: " + errno_text());
  if (::fsync(fd.get()) != 0) return runtime_error(tmp.string() + ": fsync: " + errno_text());
  if (::close(fd.release()) != 0) return runtime_error(tmp.string() + ": close: " + errno_text());
  if (::renameat(root, tmp_name.c_str(), root, kManifestName) != 0)
    return runtime_error((dir / kManifestName).string() + ": rename: " + errno_text());
  if (::fsync(root) != 0)  // the rename itself, durable
    return runtime_error(dir.string() + ": fsync: " + errno_text());
  return ok();
}

std::string fingerprint(const DatasetSpec& spec) {
  // FNV-1a over a canonical text of the spec; doubles in hex-float form so nothing rounds.
  std::string text = std::string(kCodecVersion) + "|" + dataset_json(spec).dump();
  char buf[64];
  const Distribution& d = spec.sample_size;
  for (double v : {d.value, d.mean, d.stdev, d.min, d.max}) {
    std::snprintf(buf, sizeof buf, "|%a", v);
    text += buf;
  }
  for (const auto& b : d.bins) {
    std::snprintf(buf, sizeof buf, "|%a,%a,%a", b.lo, b.hi, b.weight);
    text += buf;
  }
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  std::snprintf(buf, sizeof buf, "%016" PRIx64, h);
  return buf;
}

}  // namespace dlgen::generator
