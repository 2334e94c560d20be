// classify: trace → whole-run totals, and every file classified (dataset, checkpoint, shm, code...)
// with the datasets grouped by directory and their format detected. Also the names of the enums.
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "path_names.hpp"
#include "stages.hpp"
#include "stats.hpp"

namespace dlgen::analysis {

const char* to_string(ProcessRole r) {
  switch (r) {
    case ProcessRole::main:
      return "main";
    case ProcessRole::reader_worker:
      return "reader_worker";
    case ProcessRole::other:
      return "other";
  }
  return "?";
}

const char* to_string(FileClass c) {
  switch (c) {
    case FileClass::train:
      return "train";
    case FileClass::validation:
      return "validation";
    case FileClass::checkpoint:
      return "checkpoint";
    case FileClass::shm:
      return "shm";
    case FileClass::ignored:
      return "ignored";
    case FileClass::other:
      return "other";
  }
  return "?";
}

const char* to_string(OrderKind k) {
  switch (k) {
    case OrderKind::unknown:
      return "unknown";
    case OrderKind::sequential:
      return "sequential";
    case OrderKind::shuffled:
      return "shuffled";
    case OrderKind::buffer_shuffled:
      return "buffer_shuffled";
  }
  return "?";
}

int train_dataset(const TraceSummary& s) {
  for (std::size_t i = 0; i < s.datasets.size(); ++i)
    if (s.datasets[i].cls == FileClass::train) return static_cast<int>(i);
  return -1;
}

int validation_dataset(const TraceSummary& s) {
  for (std::size_t i = 0; i < s.datasets.size(); ++i)
    if (s.datasets[i].cls == FileClass::validation) return static_cast<int>(i);
  return -1;
}

namespace stages {
namespace {

using trace::Event;
using trace::Op;
using namespace names;  // NOLINT: the path predicates classify is made of
namespace fs = std::filesystem;

// A written file smaller than this is a log, lock or multiprocessing temp file, not model state
// (unless its name says checkpoint).
constexpr std::uint64_t kMinCheckpointBytes = 64 * 1024;

}  // namespace

bool is_handover(const Event& e, const std::vector<FileSummary>& files) {
  if (e.op == Op::sendmsg) return true;
  if (e.op != Op::shm_open && e.op != Op::open) return false;
  if (e.file == trace::kNoFile || e.file >= files.size()) return e.op == Op::shm_open;
  return files[e.file].cls == FileClass::shm && !starts_with(files[e.file].path, "/dev/shm/sem.");
}

// Processes that hand batches over and receive none: DataLoader worker processes.
std::set<std::uint32_t> handing_workers(const trace::Trace& t,
                                        const std::vector<FileSummary>& files) {
  std::set<std::uint32_t> hand, recv;
  for (const auto& e : t.events) {
    if (e.op == Op::recvmsg)
      recv.insert(e.pid);
    else if (is_handover(e, files))
      hand.insert(e.pid);
  }
  for (std::uint32_t pid : recv) hand.erase(pid);
  return hand;
}

RunTotals totals(const trace::Trace& t) {
  RunTotals s;
  s.command = t.meta.command;
  s.duration_ns = t.meta.duration_ns;
  s.lost_events = t.meta.lost_events;
  s.complete = t.meta.complete;
  std::uint64_t last = 0;
  for (const auto& e : t.events) last = std::max(last, e.ts_ns + e.dur_ns);
  if (s.duration_ns == 0) s.duration_ns = last;
  s.per_second.resize(static_cast<std::size_t>(std::max(s.duration_ns, last) / 1000000000ull) + 1);
  for (const auto& e : t.events) {
    auto& b = s.per_second[e.ts_ns / 1000000000ull];
    const std::uint64_t done = e.ret > 0 ? static_cast<std::uint64_t>(e.ret) : 0;
    if (e.op == Op::block) {
      s.block_bytes += e.size;
      ++s.block_requests;
      ++s.block_sizes[e.size];
      continue;
    }
    if (e.op == Op::open) ++s.opens;
    if (e.op == Op::stat) ++s.stats;
    if (e.op == Op::sendmsg || e.op == Op::recvmsg) continue;  // socket traffic is not file I/O
    if (trace::is_read(e.op)) {
      // A read returning 0 (Python's EOF probe after read(n)) or an error moves no data: it is
      // not a storage request, and counting it would make every replay look short of requests.
      if (done == 0) continue;
      s.bytes_read += done;
      ++s.read_ops;
      b.bytes_read += done;
      ++b.read_ops;
    } else if (trace::is_write(e.op)) {
      s.bytes_written += done;
      ++s.write_ops;
      b.bytes_written += done;
      ++b.write_ops;
    }
  }
  return s;
}

namespace {

void detect_format(const trace::Trace& t, DatasetSummary& d) {
  static const std::map<std::string, Format> kExt = {{".npz", Format::npz},
                                                     {".npy", Format::raw},
                                                     {".h5", Format::hdf5},
                                                     {".hdf5", Format::hdf5},
                                                     {".hdf", Format::hdf5},
                                                     {".jpg", Format::jpeg},
                                                     {".jpeg", Format::jpeg},
                                                     {".tfrecord", Format::tfrecord},
                                                     {".tfrecords", Format::tfrecord},
                                                     {".bin", Format::raw},
                                                     {".raw", Format::raw},
                                                     {".dat", Format::raw},
                                                     {".parquet", Format::parquet},
                                                     {".tar", Format::tar}};
  std::map<Format, std::uint64_t> magic_votes;
  std::uint64_t seen = 0;
  for (auto fi : d.files) {
    const auto& f = t.files[fi];
    if (f.magic_len == 0) continue;
    ++seen;
    if (f.magic_len >= 4 && (f.magic & 0xffffffffu) == 0x04034b50u)
      ++magic_votes[Format::npz];
    else if (f.magic_len >= 4 && (f.magic & 0xffffffffu) == 0x46444889u)
      ++magic_votes[Format::hdf5];
    else if (f.magic_len >= 4 && (f.magic & 0xffffffffu) == 0x31524150u)  // "PAR1"
      ++magic_votes[Format::parquet];
    else if (f.magic_len >= 2 && (f.magic & 0xffffu) == 0xd8ffu)
      ++magic_votes[Format::jpeg];
    else if (f.magic_len == 8 && f.magic > 0 && f.magic + 16 <= f.size_at_open)
      ++magic_votes[Format::tfrecord];  // a little-endian record length that fits the file
  }
  std::optional<Format> by_ext;
  if (auto it = kExt.find(d.extension); it != kExt.end()) by_ext = it->second;
  std::optional<Format> by_magic;
  std::uint64_t votes = 0;
  for (auto [fmt, n] : magic_votes)
    if (n > votes) by_magic = fmt, votes = n;
  const auto n = d.files.size();
  if (by_magic && votes * 2 > seen) {
    d.format = by_magic;
    d.format_evidence = "magic bytes of " + std::string(dlgen::to_string(*by_magic)) + " in " +
                        std::to_string(votes) + "/" + std::to_string(n) + " files";
    if (by_ext)
      d.format_evidence += by_ext == by_magic ? ", extension " + d.extension + " agrees"
                                              : ", extension " + d.extension + " disagrees";
  } else if (by_ext) {
    d.format = by_ext;
    d.format_evidence = "extension " + d.extension + " (magic bytes " +
                        (seen ? "not recognised" : "not captured") + ")";
  } else {
    d.format = Format::raw;
    d.format_evidence = "no known extension or magic bytes: raw bytes";
  }
}

// Classes from paths and what was done to each file: code and libraries are ignored, /dev/shm is
// the batch handover, written files are checkpoints (unless read back as data), read files are
// dataset candidates (refined by group_datasets).
void classify_files(const trace::Trace& t, Classified& s) {
  s.files.resize(t.files.size());
  for (std::size_t i = 0; i < t.files.size(); ++i) {
    s.files[i].file = static_cast<std::uint32_t>(i);
    s.files[i].path = t.files[i].path;
    s.files[i].size_bytes = t.files[i].size_at_open;
  }
  for (const auto& e : t.events) {
    if (e.file == trace::kNoFile || e.file >= s.files.size()) continue;
    auto& f = s.files[e.file];
    const std::uint64_t done = e.ret > 0 ? static_cast<std::uint64_t>(e.ret) : 0;
    if (e.op == Op::open) {
      ++f.opens;
    } else if (e.op == Op::sendfile || e.op == Op::copy_file_range) {
      continue;  // both ends are handled with checkpoints
    } else if (trace::is_read(e.op)) {
      if (done == 0) continue;  // EOF probe or error: no request reached storage
      f.bytes_read += done;
      ++f.read_ops;
      f.size_bytes = std::max(f.size_bytes, e.offset + done);
    } else if (trace::is_write(e.op)) {
      f.bytes_written += done;
      ++f.write_ops;
      f.size_bytes = std::max(f.size_bytes, e.offset + done);
    }
  }
  // Files written and afterwards read back in full by another thread (a dataset generated at
  // the start of the run) are data, not checkpoints.
  std::vector<std::uint64_t> last_write(t.files.size(), 0), first_read(t.files.size(), UINT64_MAX);
  std::vector<std::set<std::uint32_t>> writers(t.files.size()), readers(t.files.size());
  for (const auto& e : t.events) {
    if (e.file == trace::kNoFile || e.file >= t.files.size() || e.ret <= 0) continue;
    if (trace::is_write(e.op))
      last_write[e.file] = std::max(last_write[e.file], e.ts_ns), writers[e.file].insert(e.tid);
    else if (trace::is_read(e.op))
      first_read[e.file] = std::min(first_read[e.file], e.ts_ns), readers[e.file].insert(e.tid);
  }
  std::vector<bool> written_then_read(t.files.size(), false), spooled = spooled_uploads(t);
  for (std::size_t i = 0; i < t.files.size(); ++i) {
    bool other_reader = false;
    for (auto r : readers[i]) other_reader = other_reader || !writers[i].count(r);
    written_then_read[i] = s.files[i].bytes_written > 0 && first_read[i] > last_write[i] &&
                           other_reader && s.files[i].bytes_read * 2 >= s.files[i].bytes_written &&
                           !is_checkpoint_name(s.files[i].path);
  }
  // Many read-only .pt/.pth files in one directory are samples (torch.load per sample), not a
  // restored checkpoint (a few files, or names that say checkpoint, rank, model or optimizer).
  std::map<std::string, std::uint32_t> pt_in_dir;
  auto pt_sample = [](const FileSummary& f) {
    const std::string l = lower(f.path);
    return f.bytes_written == 0 && f.bytes_read > 0 && is_checkpoint_name(f.path) &&
           !contains(l, "checkpoint") && !contains(l, "ckpt") && !contains(l, "rank") &&
           !contains(l, "model") && !contains(l, "optim") && !contains(l, "state");
  };
  for (const auto& f : s.files)
    if (pt_sample(f)) ++pt_in_dir[fs::path(f.path).parent_path().string()];
  for (std::size_t i = 0; i < s.files.size(); ++i) {
    auto& f = s.files[i];
    if (pt_sample(f) && pt_in_dir[fs::path(f.path).parent_path().string()] >= 16) {
      f.cls = FileClass::train;  // candidate; refined by grouping
      continue;
    }
    if (starts_with(f.path, "/dev/shm/"))
      f.cls = FileClass::shm;
    else if (is_ignored_path(f.path) || spooled[i])  // (a checkpoint's staging for an upload)
      f.cls = FileClass::ignored;
    else if (written_then_read[i])
      f.cls = FileClass::train;  // generated, then read as data
    else if (f.bytes_written >= kMinCheckpointBytes ||
             (f.bytes_written > 0 && is_checkpoint_name(f.path)))
      f.cls = FileClass::checkpoint;
    else if (f.bytes_read > 0 && is_checkpoint_name(f.path))
      f.cls = FileClass::checkpoint;
    else if (f.bytes_read > 0)
      f.cls = FileClass::train;  // candidate; refined by grouping
    else
      f.cls = FileClass::other;
  }
}

// Candidate data files grouped by directory.
struct Group {
  std::string dir;
  std::string ext;
  std::vector<std::uint32_t> files;
  bool stop = false;  // dir is a split root: do not merge above
};

// One group per directory holding candidate (train-classed) files, with their common extension.
std::map<std::string, Group> directory_groups(const Classified& s) {
  std::map<std::string, Group> groups;
  for (auto& f : s.files) {
    if (f.cls != FileClass::train) continue;
    auto& g = groups[parent_of(f.path)];
    g.dir = parent_of(f.path);
    g.files.push_back(f.file);
  }
  for (auto& [dir, g] : groups) {
    std::set<std::string> exts;
    for (auto fi : g.files) exts.insert(extension_of(s.files[fi].path));
    g.ext = exts.size() == 1 ? *exts.begin() : "";
    bool val = false;
    g.stop = is_split_name(fs::path(dir).filename().string(), &val);
  }
  return groups;
}

// Sibling directories with files of one extension merge into their parent (ImageNet class
// folders), but never across a split name.
void merge_siblings(std::map<std::string, Group>& groups) {
  for (bool changed = true; changed;) {
    changed = false;
    std::map<std::pair<std::string, std::string>, std::vector<std::string>> by_parent;
    for (auto& [dir, g] : groups)
      if (!g.stop && fs::path(dir).has_parent_path() && fs::path(dir).parent_path() != dir)
        by_parent[{parent_of(dir), g.ext}].push_back(dir);
    for (auto& [key, dirs] : by_parent) {
      if (dirs.size() < 2) continue;
      Group merged;
      merged.dir = key.first;
      merged.ext = key.second;
      bool val = false;
      merged.stop = is_split_name(fs::path(key.first).filename().string(), &val);
      auto existing = groups.find(key.first);
      if (existing != groups.end()) {
        if (existing->second.ext != key.second) continue;
        merged.files = existing->second.files;
      }
      for (auto& d : dirs) {
        auto& g = groups[d];
        merged.files.insert(merged.files.end(), g.files.begin(), g.files.end());
        groups.erase(d);
      }
      groups[key.first] = std::move(merged);
      changed = true;
      break;  // the map changed under us; start over
    }
  }
}

// The groups by bytes read (most first), and which of them is the training and the validation
// set. Train: the most bytes read outside a validation-named tree. Validation: a validation-named
// tree, or else another multi-file group with the training set's extension.
struct Roles {
  std::vector<Group*> order;
  Group* train = nullptr;
  Group* val = nullptr;
};

Roles dataset_roles(std::map<std::string, Group>& groups, const Classified& s) {
  Roles r;
  auto& order = r.order;
  for (auto& [dir, g] : groups) order.push_back(&g);
  auto bytes_of = [&](const Group* g) {
    std::uint64_t b = 0;
    for (auto fi : g->files) b += s.files[fi].bytes_read;
    return b;
  };
  std::sort(order.begin(), order.end(),
            [&](const Group* a, const Group* b) { return bytes_of(a) > bytes_of(b); });
  std::vector<std::string> dirs;
  for (const auto* g : order) dirs.push_back(g->dir);
  for (auto* g : order)
    if (!mentions_validation(g->dir, dirs, true)) {
      r.train = g;
      break;
    }
  if (!r.train && !order.empty()) r.train = order.front();
  for (auto* g : order)
    if (g != r.train && mentions_validation(g->dir, dirs, false)) {
      r.val = g;
      break;
    }
  if (!r.val)
    for (auto* g : order)
      if (g != r.train && r.train && g->files.size() >= 2 && g->ext == r.train->ext) {
        r.val = g;
        break;
      }
  return r;
}

// Each file classed by its group's role; a dataset per training and validation group (training
// first), its files in path order.
void add_datasets(const Roles& r, Classified& s) {
  for (auto* g : r.order) {
    FileClass cls = g == r.train ? FileClass::train
                    : g == r.val ? FileClass::validation
                                 : FileClass::other;
    for (auto fi : g->files) s.files[fi].cls = cls;
    if (cls == FileClass::other) continue;
    DatasetSummary d;
    d.dir = g->dir;
    d.cls = cls;
    d.extension = g->ext;
    d.files = g->files;
    std::sort(d.files.begin(), d.files.end(),
              [&](std::uint32_t a, std::uint32_t b) { return s.files[a].path < s.files[b].path; });
    s.datasets.push_back(std::move(d));
  }
  std::sort(s.datasets.begin(), s.datasets.end(),
            [](const DatasetSummary& a, const DatasetSummary& b) { return a.cls < b.cls; });
}

// A dataset's layout (sizes, subdirectories, depth) and format.
void dataset_layout(const trace::Trace& t, std::size_t di, Classified& s) {
  auto& d = s.datasets[di];
  std::set<std::string> parents;
  std::map<std::string, std::uint32_t> per_dir;
  for (auto fi : d.files) {
    s.files[fi].dataset = static_cast<std::int32_t>(di);
    d.file_sizes.push_back(s.files[fi].size_bytes);
    d.total_bytes += s.files[fi].size_bytes;
    const std::string p = parent_of(s.files[fi].path);
    parents.insert(p);
    ++per_dir[p];
    const auto rel = fs::path(s.files[fi].path).lexically_relative(d.dir);
    d.depth = std::max<std::uint32_t>(
        d.depth, static_cast<std::uint32_t>(std::distance(rel.begin(), rel.end()) - 1));
  }
  d.dirs = static_cast<std::uint32_t>(parents.size());
  if (d.dirs > 1) {
    std::vector<std::uint64_t> counts;
    for (auto& [p, c] : per_dir) counts.push_back(c);
    std::sort(counts.begin(), counts.end());
    d.files_per_dir = static_cast<std::uint32_t>(counts.back());
  }
  std::vector<double> sizes(d.file_sizes.begin(), d.file_sizes.end());
  d.size = detail::make_stats(sizes);
  detect_format(t, d);
}

// The files of `files` (one directory) that are a validation split by their own names, when every
// file there is named by a split, both splits among them: nanoGPT's prepare.py writes train.bin
// and val.bin side by side. A multi-sample file's virtual samples ("val#0000012.bin") go by the
// name of their file. Empty: no such split.
std::vector<std::uint32_t> named_validation(const Classified& s,
                                            const std::vector<std::uint32_t>& files) {
  std::vector<std::uint32_t> val;
  bool train = false;
  for (auto fi : files) {
    std::string stem = fs::path(s.files[fi].path).stem().string();
    stem = stem.substr(0, stem.find('#'));
    bool validation = false;
    if (!is_exact_split_name(stem, &validation)) return {};
    if (validation) val.push_back(fi);
    train = train || !validation;
  }
  return train ? val : std::vector<std::uint32_t>{};
}

// Groups candidate data files by directory into the training and validation sets.
void group_datasets(const trace::Trace& t, Classified& s) {
  std::map<std::string, Group> groups = directory_groups(s);
  merge_siblings(groups);
  Roles roles = dataset_roles(groups, s);
  // No validation set by directory: one named by its files' own names, or one chosen by a list
  // among the training files.
  Group listed;
  if (roles.train && !roles.val) {
    listed.files = named_validation(s, roles.train->files);
    if (listed.files.empty()) listed.files = loaded_validation(t, s, roles.train->files);
    if (listed.files.empty()) listed.files = listed_validation(t, roles.train->files);
    if (!listed.files.empty()) {
      listed.dir = roles.train->dir;
      listed.ext = roles.train->ext;
      std::set<std::uint32_t> val(listed.files.begin(), listed.files.end());
      std::erase_if(roles.train->files, [&](std::uint32_t f) { return val.count(f) > 0; });
      roles.val = &listed;
      roles.order.push_back(&listed);
    }
  }
  add_datasets(roles, s);
  for (std::size_t di = 0; di < s.datasets.size(); ++di) dataset_layout(t, di, s);
}

}  // namespace

Classified classify(const trace::Trace& t) {
  Classified c;
  classify_files(t, c);
  group_datasets(t, c);
  return c;
}

}  // namespace stages
}  // namespace dlgen::analysis
