// The names classify judges files by (path_names.hpp).
#include "path_names.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>

namespace dlgen::analysis::stages::names {

namespace fs = std::filesystem;

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string extension_of(const std::string& path) {
  return lower(fs::path(path).extension().string());
}

std::string parent_of(const std::string& path) {
  return fs::path(path).parent_path().string();
}

bool starts_with(const std::string& s, std::string_view p) {
  return s.rfind(p, 0) == 0;
}
bool contains(const std::string& s, std::string_view p) {
  return s.find(p) != std::string::npos;
}

// Code, libraries, configs and kernel files: never data, whatever the program does with them.
bool is_ignored_path(const std::string& path) {
  // Sockets, pipes and anonymous inodes ("socket:[123]", "pipe:[4]", "<dev 0:9 ino 5>") and
  // relative names the tracer could not resolve are never data.
  // An object read over HTTP (prepass/objects.hpp) is judged by its name as a file is.
  const bool object = path.starts_with("s3://");
  if (!object && (path.empty() || path[0] != '/')) return true;
  if (path.ends_with(" (deleted)")) return true;
  static const char* kPrefixes[] = {"/proc/", "/sys/",     "/dev/",       "/usr/",
                                    "/lib",   "/etc/",     "/bin/",       "/sbin/",
                                    "/run/",  "/var/lib/", "/var/cache/", "/snap/"};
  for (auto p : kPrefixes)
    if (starts_with(path, p)) return true;
  // GPU toolchains' kernel caches are written while a program trains (the CUDA driver's JIT cache
  // ~/.nv/ComputeCache during the first steps; Triton's and TorchInductor's compiled kernels): they
  // are neither data nor checkpoints.
  static const char* kParts[] = {"/site-packages/", "/dist-packages/", "/__pycache__/",
                                 "/.cache/",        "/.local/lib/",    "/.git/",
                                 "/include/python", "/.nv/",           "/.triton/",
                                 "/torchinductor_"};
  for (auto p : kParts)
    if (contains(path, p)) return true;
  // Objects are no code or configs (a label KEY.json beside KEY.jpg is data); dlgen's manifests are.
  if (object) return fs::path(path).filename().string().starts_with(".dlgen");
  const std::string ext = extension_of(path);
  static const std::set<std::string> kExt = {
      ".py",  ".pyc", ".pyo", ".pyd",  ".so",    ".a",    ".json", ".yaml",
      ".yml", ".cfg", ".ini", ".toml", ".txt",   ".log",  ".md",   ".pth_",
      ".pyi", ".egg", ".whl", ".conf", ".cache", ".lock", ".pem",  ".crt",
      ".mo",  ".pc",  ".h",   ".hpp",  ".c",     ".cpp",  ".sh",   ".ipynb"};
  if (kExt.count(ext)) return true;
  if (contains(path, ".so.")) return true;
  return false;
}

bool is_checkpoint_name(const std::string& path) {
  static const std::set<std::string> kExt = {".pt",     ".pth",        ".ckpt", ".safetensors",
                                             ".distcp", ".checkpoint", ".chkpt"};
  // An object's name is its key: its bucket ("s3://ckpt-lab/imagenet/...") says nothing of it.
  std::string name = lower(path);
  if (name.starts_with("s3://")) {
    const auto slash = name.find('/', 5);
    name = slash == std::string::npos ? "" : name.substr(slash);
  }
  return kExt.count(extension_of(path)) || contains(name, "checkpoint") || contains(name, "ckpt");
}

// A directory name that is exactly a split's name ("val", "train").
bool is_exact_split_name(const std::string& name, bool* validation) {
  static const std::set<std::string> kVal = {"val",        "valid", "validation", "eval",
                                             "evaluation", "test",  "testing",    "dev"};
  static const std::set<std::string> kTrain = {"train", "training"};
  const std::string n = lower(name);
  if (!kVal.count(n) && !kTrain.count(n)) return false;
  *validation = kVal.count(n) > 0;
  return true;
}

// A directory name that names a dataset split: exactly, or as one of its words with any
// trailing digits dropped ("imagenet-val", "val2017", "train_images"; dlgen's distilled jobs put
// the validation set in "<name>-val" beside "<name>"). A name with words of both splits
// ("train_val") names neither.
bool is_split_name(const std::string& name, bool* validation) {
  if (is_exact_split_name(name, validation)) return true;
  bool val = false, train = false;
  std::string word;
  for (std::size_t i = 0; i <= name.size(); ++i) {
    if (i < name.size() && std::isalnum(static_cast<unsigned char>(name[i]))) {
      word += name[i];
      continue;
    }
    while (!word.empty() && std::isdigit(static_cast<unsigned char>(word.back()))) word.pop_back();
    bool v = false;
    if (!word.empty() && is_exact_split_name(word, &v)) (v ? val : train) = true;
    word.clear();
  }
  if (val == train) return false;
  *validation = val;
  return true;
}

// True when a dataset directory is a validation set's by name. Strictly (for choosing the training
// set, which must not be lost to a word in a directory above it: "/home/dev/test-runs/data"): a
// path component named exactly so, or a validation word in the directory's own name. Loosely (for
// choosing the validation set among the other groups): also a validation word in any component
// below the deepest directory it shares with `others`, the other groups' directories ("x-val/c0"
// beside "x/c0..c3": a validation tree with one class folder).
bool mentions_validation(const std::string& path, const std::vector<std::string>& others,
                         bool strict) {
  const fs::path p(path);
  std::size_t shared = 0;
  for (const auto& o : others) {
    if (o == path) continue;
    const fs::path q(o);
    std::size_t n = 0;
    for (auto a = p.begin(), b = q.begin(); a != p.end() && b != q.end() && *a == *b; ++a, ++b) ++n;
    shared = std::max(shared, n);
  }
  bool val = false;
  if (is_split_name(p.filename().string(), &val) && val) return true;
  std::size_t i = 0;
  for (const auto& part : p) {
    if (is_exact_split_name(part.string(), &val) && val) return true;
    if (!strict && i >= shared && is_split_name(part.string(), &val) && val) return true;
    ++i;
  }
  return false;
}

}  // namespace dlgen::analysis::stages::names
