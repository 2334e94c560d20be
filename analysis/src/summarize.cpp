// summarize: trace events → TraceSummary. The steps, in order: totals; file classes; datasets
// (grouped by directory); accesses (an open of a dataset file and the reads on that descriptor);
// readers and accelerators; batches (accesses between a worker's handovers); passes (epochs and
// evaluation passes); order statistics; steps and compute; checkpoints; concurrency.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <numeric>
#include <set>
#include <unordered_map>

#include "consumer_cost.hpp"
#include "dlgen/analysis/summary.hpp"
#include "dlgen/core/stats.hpp"
#include "sample_files.hpp"
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

namespace {

using trace::Event;
using trace::Op;
namespace fs = std::filesystem;

constexpr std::uint32_t kODirect = 040000;  // O_DIRECT on x86-64 and arm64 generic
// A written file smaller than this is a log, lock or multiprocessing temp file, not model state
// (unless its name says checkpoint).
constexpr std::uint64_t kMinCheckpointBytes = 64 * 1024;

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
  if (path.empty() || path[0] != '/') return true;
  if (path.ends_with(" (deleted)")) return true;
  static const char* kPrefixes[] = {"/proc/", "/sys/",     "/dev/",       "/usr/",
                                    "/lib",   "/etc/",     "/bin/",       "/sbin/",
                                    "/run/",  "/var/lib/", "/var/cache/", "/snap/"};
  for (auto p : kPrefixes)
    if (starts_with(path, p)) return true;
  static const char* kParts[] = {"/site-packages/", "/dist-packages/", "/__pycache__/",  "/.cache/",
                                 "/.local/lib/",    "/.git/",          "/include/python"};
  for (auto p : kParts)
    if (contains(path, p)) return true;
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
  return kExt.count(extension_of(path)) || contains(lower(path), "checkpoint") ||
         contains(lower(path), "ckpt");
}

bool is_split_name(const std::string& name, bool* validation) {
  static const std::set<std::string> kVal = {"val",        "valid", "validation", "eval",
                                             "evaluation", "test",  "testing",    "dev"};
  static const std::set<std::string> kTrain = {"train", "training"};
  const std::string n = lower(name);
  if (kVal.count(n)) {
    *validation = true;
    return true;
  }
  if (kTrain.count(n)) {
    *validation = false;
    return true;
  }
  return false;
}

// True when a path (below a dataset root) mentions a validation split.
bool mentions_validation(const std::string& path) {
  for (const auto& part : fs::path(path)) {
    bool val = false;
    if (is_split_name(part.string(), &val) && val) return true;
  }
  return false;
}

// A worker handing a batch over: sendmsg on a unix socket, or a /dev/shm tensor file created
// (POSIX semaphores, /dev/shm/sem.*, are locks, not tensors).
bool is_handover(const Event& e, const std::vector<FileSummary>& files) {
  if (e.op == Op::sendmsg) return true;
  if (e.op != Op::shm_open && e.op != Op::open) return false;
  if (e.file == trace::kNoFile || e.file >= files.size()) return e.op == Op::shm_open;
  return files[e.file].cls == FileClass::shm && !starts_with(files[e.file].path, "/dev/shm/sem.");
}

// One access to a dataset file: an open and the reads on that descriptor until close.
struct Access {
  std::uint32_t file = 0;  // trace file index
  std::int32_t dataset = -1;
  std::uint32_t rank = 0;  // position of the file in its dataset's path order
  std::uint32_t pid = 0, tid = 0;
  std::uint32_t reader = 0;  // reader key (tid for threaded readers, else pid)
  std::uint64_t ts = 0, end = 0;
  std::uint64_t bytes = 0, reads = 0;
  std::uint64_t first_read = 0;
  std::uint64_t last_read_end = 0;     // end of the last read that moved data (0: none)
  std::vector<std::uint64_t> sizes;    // bytes asked per read that moved data
  std::vector<std::uint64_t> moved;    // bytes each of those reads returned
  std::vector<std::uint64_t> offsets;  // where each of those reads started
  bool direct = false, mmap = false;
  std::int32_t pass = -1;
};

struct Builder {
  const trace::Trace& t;
  TraceSummary s;
  std::vector<Access> accesses;
  std::map<std::uint32_t, std::uint32_t> reader_key;  // tid → reader key
  std::map<std::uint32_t, const trace::Process*> procs;

  explicit Builder(const trace::Trace& tr) : t(tr) {}

  bool is_dataset_file(std::uint32_t f) const {
    return f < s.files.size() &&
           (s.files[f].cls == FileClass::train || s.files[f].cls == FileClass::validation);
  }

  void totals() {
    s.command = t.meta.command;
    s.duration_ns = t.meta.duration_ns;
    s.lost_events = t.meta.lost_events;
    s.complete = t.meta.complete;
    std::uint64_t last = 0;
    for (const auto& e : t.events) last = std::max(last, e.ts_ns + e.dur_ns);
    if (s.duration_ns == 0) s.duration_ns = last;
    s.per_second.resize(static_cast<std::size_t>(std::max(s.duration_ns, last) / 1000000000ull) +
                        1);
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
  }

  void classify_files() {
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
    std::vector<std::uint64_t> last_write(t.files.size(), 0),
        first_read(t.files.size(), UINT64_MAX);
    std::vector<std::set<std::uint32_t>> writers(t.files.size()), readers(t.files.size());
    for (const auto& e : t.events) {
      if (e.file == trace::kNoFile || e.file >= t.files.size() || e.ret <= 0) continue;
      if (trace::is_write(e.op))
        last_write[e.file] = std::max(last_write[e.file], e.ts_ns), writers[e.file].insert(e.tid);
      else if (trace::is_read(e.op))
        first_read[e.file] = std::min(first_read[e.file], e.ts_ns), readers[e.file].insert(e.tid);
    }
    std::vector<bool> written_then_read(t.files.size(), false);
    for (std::size_t i = 0; i < t.files.size(); ++i) {
      bool other_reader = false;
      for (auto r : readers[i]) other_reader = other_reader || !writers[i].count(r);
      written_then_read[i] = s.files[i].bytes_written > 0 && first_read[i] > last_write[i] &&
                             other_reader &&
                             s.files[i].bytes_read * 2 >= s.files[i].bytes_written &&
                             !is_checkpoint_name(s.files[i].path);
    }
    for (std::size_t i = 0; i < s.files.size(); ++i) {
      auto& f = s.files[i];
      if (starts_with(f.path, "/dev/shm/"))
        f.cls = FileClass::shm;
      else if (is_ignored_path(f.path))
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

  // Groups candidate data files by directory. Sibling directories with files of one extension
  // merge into their parent (ImageNet class folders), but never across a split name
  // (train/val/test), so a training and a validation tree stay apart.
  void group_datasets() {
    struct Group {
      std::string dir;
      std::string ext;
      std::vector<std::uint32_t> files;
      bool stop = false;  // dir is a split root: do not merge above
    };
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
    // Train: the most bytes read outside a validation-named tree. Validation: a validation-named
    // tree, or else another multi-file group with the training set's extension.
    std::vector<Group*> order;
    for (auto& [dir, g] : groups) order.push_back(&g);
    auto bytes_of = [&](const Group* g) {
      std::uint64_t b = 0;
      for (auto fi : g->files) b += s.files[fi].bytes_read;
      return b;
    };
    std::sort(order.begin(), order.end(),
              [&](const Group* a, const Group* b) { return bytes_of(a) > bytes_of(b); });
    Group* train = nullptr;
    Group* val = nullptr;
    for (auto* g : order)
      if (!mentions_validation(g->dir)) {
        train = g;
        break;
      }
    if (!train && !order.empty()) train = order.front();
    for (auto* g : order)
      if (g != train && mentions_validation(g->dir)) {
        val = g;
        break;
      }
    if (!val)
      for (auto* g : order)
        if (g != train && train && g->files.size() >= 2 && g->ext == train->ext) {
          val = g;
          break;
        }
    for (auto* g : order) {
      FileClass cls = g == train ? FileClass::train
                      : g == val ? FileClass::validation
                                 : FileClass::other;
      for (auto fi : g->files) s.files[fi].cls = cls;
      if (cls == FileClass::other) continue;
      DatasetSummary d;
      d.dir = g->dir;
      d.cls = cls;
      d.extension = g->ext;
      d.files = g->files;
      std::sort(d.files.begin(), d.files.end(), [&](std::uint32_t a, std::uint32_t b) {
        return s.files[a].path < s.files[b].path;
      });
      s.datasets.push_back(std::move(d));
    }
    std::sort(s.datasets.begin(), s.datasets.end(),
              [](const DatasetSummary& a, const DatasetSummary& b) { return a.cls < b.cls; });
    for (std::size_t di = 0; di < s.datasets.size(); ++di) {
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
      detect_format(d);
    }
  }

  void detect_format(DatasetSummary& d) {
    static const std::map<std::string, Format> kExt = {
        {".npz", Format::npz},   {".npy", Format::raw},           {".h5", Format::hdf5},
        {".hdf5", Format::hdf5}, {".hdf", Format::hdf5},          {".jpg", Format::jpeg},
        {".jpeg", Format::jpeg}, {".tfrecord", Format::tfrecord}, {".tfrecords", Format::tfrecord},
        {".bin", Format::raw},   {".raw", Format::raw},           {".dat", Format::raw}};
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

  void build_accesses() {
    std::map<std::pair<std::uint32_t, std::int32_t>, std::size_t> open_fd;  // (pid, fd) → access
    // (pid, file) → its latest access. io_uring completions are stamped when they finish, which can
    // be after the descriptor was closed and its number reused for the next file (header and chunk
    // requests in flight together): such a read belongs to the file's latest access, not a new one
    // (a new one would look like the file read twice and split the pass).
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> last_of_file;
    auto start_access = [&](const Event& e) {
      Access a;
      a.file = e.file;
      a.dataset = s.files[e.file].dataset;
      a.pid = e.pid;
      a.tid = e.tid;
      a.ts = e.ts_ns;
      a.end = e.ts_ns + e.dur_ns;
      a.direct = (e.flags & kODirect) != 0 && e.op == Op::open;
      accesses.push_back(a);
      last_of_file[{e.pid, e.file}] = accesses.size() - 1;
      return accesses.size() - 1;
    };
    for (const auto& e : t.events) {
      if (e.file == trace::kNoFile || !is_dataset_file(e.file)) continue;
      const auto key = std::make_pair(e.pid, e.fd);
      if (e.op == Op::open) {
        if (e.ret < 0) continue;
        open_fd[{e.pid, static_cast<std::int32_t>(e.ret)}] = start_access(e);
        continue;
      }
      if (e.op == Op::close) {
        open_fd.erase(key);
        continue;
      }
      const bool rd = trace::is_read(e.op) && e.op != Op::sendfile && e.op != Op::copy_file_range;
      if (!rd && e.op != Op::mmap) continue;
      auto it = open_fd.find(key);
      std::size_t ai;
      if (it == open_fd.end() || accesses[it->second].file != e.file) {
        const auto last = last_of_file.find({e.pid, e.file});
        if (last != last_of_file.end()) {
          ai = last->second;  // a late completion on a closed (or reused) descriptor
        } else {
          ai = start_access(e);  // descriptor opened before the trace, or not seen
          open_fd[key] = ai;
        }
      } else {
        ai = it->second;
      }
      auto& a = accesses[ai];
      a.end = std::max(a.end, e.ts_ns + e.dur_ns);
      if (e.op == Op::mmap) {
        a.mmap = true;
        continue;
      }
      if (e.ret <= 0) continue;  // EOF probe or error: moved no data
      const std::uint64_t done = static_cast<std::uint64_t>(e.ret);
      if (a.reads == 0) a.first_read = e.size;
      ++a.reads;
      a.bytes += done;
      a.sizes.push_back(e.size);
      a.moved.push_back(done);
      a.offsets.push_back(e.offset);
      a.last_read_end = e.ts_ns + e.dur_ns;
    }
    // Ranks: position in the dataset's path order.
    std::unordered_map<std::uint32_t, std::uint32_t> rank;
    for (auto& d : s.datasets)
      for (std::size_t i = 0; i < d.files.size(); ++i)
        rank[d.files[i]] = static_cast<std::uint32_t>(i);
    for (auto& a : accesses) a.rank = rank[a.file];
    std::stable_sort(accesses.begin(), accesses.end(),
                     [](const Access& a, const Access& b) { return a.ts < b.ts; });
  }

  // Readers: threads when a process reads with several threads, else the process.
  void readers_and_accelerators() {
    for (const auto& p : t.processes) procs[p.pid] = &p;
    std::map<std::uint32_t, std::set<std::uint32_t>> tids_of;
    for (const auto& a : accesses) tids_of[a.pid].insert(a.tid);
    for (auto& a : accesses) a.reader = tids_of[a.pid].size() > 1 ? a.tid : a.pid;

    std::set<std::uint32_t> handover_pids, recv_pids;
    for (const auto& e : t.events) {
      if (e.op == Op::recvmsg)
        recv_pids.insert(e.pid);
      else if (is_handover(e, s.files))
        handover_pids.insert(e.pid);
    }
    auto ppid_of = [&](std::uint32_t pid) -> std::uint32_t {
      auto it = procs.find(pid);
      return it == procs.end() ? 0 : it->second->ppid;
    };
    // Accelerator of each reading process: its parent when it hands batches over (a DataLoader
    // worker), else itself (threaded readers, or a main process that reads its own samples).
    std::map<std::uint32_t, std::uint32_t> accel_pid_of;  // reading pid → main pid
    for (auto& [pid, tids] : tids_of) {
      std::uint32_t main = pid;
      if (handover_pids.count(pid) && !recv_pids.count(pid) && ppid_of(pid) != 0)
        main = ppid_of(pid);
      accel_pid_of[pid] = main;
    }
    std::map<std::uint32_t, std::uint32_t> accel_index;
    for (auto& [pid, main] : accel_pid_of)
      if (!accel_index.count(main)) {
        accel_index[main] = 0;
      }
    std::uint32_t next = 0;
    for (auto& [main, idx] : accel_index) {
      idx = next++;
      Accelerator acc;
      acc.pid = main;
      s.accelerators.push_back(acc);
    }
    std::map<std::uint32_t, std::set<std::uint32_t>> readers_of;
    for (const auto& a : accesses) readers_of[accel_index[accel_pid_of[a.pid]]].insert(a.reader);
    for (auto& [idx, rs] : readers_of) {
      auto& acc = s.accelerators[idx];
      acc.readers.assign(rs.begin(), rs.end());
      acc.reads_itself = rs.size() == 1 && *rs.begin() == acc.pid;
    }
    // Process table with roles.
    std::map<std::uint32_t, std::uint32_t> reader_accel;
    for (const auto& a : accesses) reader_accel[a.reader] = accel_index[accel_pid_of[a.pid]];
    for (const auto& p : t.processes) {
      ProcessSummary ps;
      ps.pid = p.pid;
      ps.tgid = p.tgid;
      ps.ppid = p.ppid;
      ps.comm = p.comm;
      ps.is_thread = p.is_thread;
      ps.start_ns = p.start_ns;
      ps.end_ns = p.end_ns;
      if (accel_index.count(p.pid) && !p.is_thread) {
        ps.role = ProcessRole::main;
        ps.accelerator = accel_index[p.pid];
      }
      if (reader_accel.count(p.pid) &&
          !(ps.role == ProcessRole::main && s.accelerators[ps.accelerator].reads_itself)) {
        ps.role = ProcessRole::reader_worker;
        ps.accelerator = reader_accel[p.pid];
      }
      s.processes.push_back(ps);
    }
    std::map<std::uint32_t, ProcessSummary*> by_pid;
    for (auto& p : s.processes) by_pid[p.pid] = &p;
    for (const auto& a : accesses) {
      auto it = by_pid.find(a.reader);
      if (it == by_pid.end()) continue;
      it->second->bytes_read += a.bytes;
      it->second->read_ops += a.reads;
      ++it->second->samples_read;
    }
  }

  std::uint32_t accel_of_reader(std::uint32_t reader) const {
    for (std::size_t i = 0; i < s.accelerators.size(); ++i) {
      const auto& r = s.accelerators[i].readers;
      if (std::find(r.begin(), r.end(), reader) != r.end()) return static_cast<std::uint32_t>(i);
    }
    return 0;
  }

  // Passes: a new pass starts when the dataset changes or a file repeats within the current pass.
  void passes() {
    std::int32_t cur_ds = -2;
    std::set<std::uint32_t> seen;
    std::uint32_t train_index = 0, eval_index = 0;
    for (auto& a : accesses) {
      if (a.dataset != cur_ds || seen.count(a.file)) {
        EpochSummary e;
        e.dataset = a.dataset;
        e.evaluation = s.datasets[a.dataset].cls == FileClass::validation;
        e.index = e.evaluation ? eval_index++ : train_index++;
        e.start_ns = a.ts;
        s.epochs.push_back(e);
        seen.clear();
        cur_ds = a.dataset;
      }
      seen.insert(a.file);
      a.pass = static_cast<std::int32_t>(s.epochs.size() - 1);
    }
    std::vector<std::set<std::uint32_t>> readers(s.epochs.size()), uniq(s.epochs.size());
    for (const auto& a : accesses) {
      auto& e = s.epochs[a.pass];
      e.end_ns = std::max(e.end_ns, a.end);
      ++e.accesses;
      e.bytes_read += a.bytes;
      e.read_ops += a.reads;
      if (!e.read_counts.count(a.rank)) e.order.push_back(a.rank);
      ++e.read_counts[a.rank];
      readers[a.pass].insert(a.reader);
      uniq[a.pass].insert(a.file);
    }
    for (std::size_t i = 0; i < s.epochs.size(); ++i) {
      s.epochs[i].reader_count = static_cast<std::uint32_t>(readers[i].size());
      s.epochs[i].unique_files = uniq[i].size();
    }
    // Workers per accelerator: the median number of its readers active in a training pass.
    for (std::size_t ai = 0; ai < s.accelerators.size(); ++ai) {
      std::vector<double> counts;
      for (std::size_t pi = 0; pi < s.epochs.size(); ++pi) {
        if (s.epochs[pi].evaluation) continue;
        std::set<std::uint32_t> rs;
        for (const auto& a : accesses)
          if (a.pass == static_cast<std::int32_t>(pi) && accel_of_reader(a.reader) == ai)
            rs.insert(a.reader);
        if (!rs.empty()) counts.push_back(static_cast<double>(rs.size()));
      }
      s.accelerators[ai].workers =
          static_cast<std::uint32_t>(std::lround(detail::percentile(counts, 0.5)));
    }
  }

  void dataset_reads() {
    for (std::size_t di = 0; di < s.datasets.size(); ++di) {
      auto& d = s.datasets[di];
      auto& rp = d.read;
      std::vector<double> reads, coverage;
      std::uint64_t n = 0, direct = 0, mapped = 0;
      std::map<std::uint64_t, std::uint64_t>
          first_sizes;          // first read size asked → accesses (≥ 2 reads)
      std::uint64_t multi = 0;  // accesses with ≥ 2 reads
      for (const auto& a : accesses) {
        if (a.dataset != static_cast<std::int32_t>(di)) continue;
        ++n;
        d.bytes_read += a.bytes;
        reads.push_back(static_cast<double>(a.reads));
        const auto fsize = s.files[a.file].size_bytes;
        coverage.push_back(
            fsize ? std::min(1.0, static_cast<double>(a.bytes) / static_cast<double>(fsize)) : 1.0);
        if (a.reads >= 2) ++first_sizes[a.first_read], ++multi;
        direct += a.direct;
        mapped += a.mmap;
        // Histogram of bytes moved, not asked: Python asks a full chunk at the end of a file
        // (PIL's read(61440) returning the last 39 KiB) and a replay asks only what is left; the
        // storage sees the same request either way.
        for (auto got : a.moved) {
          ++rp.request_sizes[got];
          ++s.request_sizes[got];
        }
        s.dataset_bytes_read += a.bytes;
        s.dataset_read_ops += a.reads;
      }
      d.accesses = n;
      if (n == 0) continue;
      rp.reads_per_access =
          std::accumulate(reads.begin(), reads.end(), 0.0) / static_cast<double>(n);
      rp.coverage = std::accumulate(coverage.begin(), coverage.end(), 0.0) / static_cast<double>(n);
      rp.whole_file = detail::percentile(coverage, 0.5) >= 0.9;
      rp.direct = direct * 2 > n;
      rp.mmap = mapped * 2 > n;
      if (detail::percentile(reads, 0.5) < 2) continue;  // one request per file
      // Probe: most multi-read accesses read at offset 0, then start again inside what they read
      // (numpy.load: a 4 KiB buffered read of the magic, a seek back, the header, the data). That
      // first read is set apart, and the rest is analysed as the access's reads.
      auto probed = [](const Access& a) {
        return a.offsets.size() >= 3 && a.offsets[0] == 0 && a.offsets[1] < a.moved[0];
      };
      std::map<std::uint64_t, std::uint64_t> probe_sizes;
      std::uint64_t n_probed = 0;
      for (const auto& a : accesses)
        if (a.dataset == static_cast<std::int32_t>(di) && a.reads >= 2 && probed(a))
          ++probe_sizes[a.sizes[0]], ++n_probed;
      const bool probing = n_probed * 10 >= multi * 6 && n_probed > 0;
      if (probing) {
        std::uint64_t c = 0;
        for (auto [sz, k] : probe_sizes)
          if (k > c) rp.probe_bytes = sz, c = k;
        first_sizes.clear();
        for (const auto& a : accesses)
          if (a.dataset == static_cast<std::int32_t>(di) && a.reads >= 2)
            ++first_sizes[probed(a) ? a.sizes[1] : a.first_read];
      }
      auto skip_of = [&](const Access& a) -> std::size_t { return probing && probed(a) ? 1 : 0; };
      // The request size (asked) that moved the most bytes, over each access's reads from `skip`
      // on.
      auto dominant = [&](std::size_t skip, std::uint64_t* share_total) {
        std::map<std::uint64_t, std::uint64_t> by_size;
        std::uint64_t total = 0;
        for (const auto& a : accesses) {
          if (a.dataset != static_cast<std::int32_t>(di)) continue;
          for (std::size_t i = skip + skip_of(a); i < a.sizes.size(); ++i)
            by_size[a.sizes[i]] += a.moved[i], total += a.moved[i];
        }
        std::uint64_t best = 0, best_bytes = 0;
        for (auto [sz, b] : by_size)
          if (b > best_bytes) best = sz, best_bytes = b;
        *share_total = total;
        return std::make_pair(best, best_bytes);
      };
      // Header: most multi-read accesses start with the same small read (PIL's 4 KiB buffered
      // header parse, numpy.load's magic+header, h5py's superblock), then the data follows.
      std::uint64_t header = 0, header_count = 0;
      for (auto [sz, c] : first_sizes)
        if (c > header_count) header = sz, header_count = c;
      const bool header_like = header_count * 10 >= multi * 6 && header > 0 && header <= 65536 &&
                               static_cast<double>(header) < d.size.p50 / 4;
      std::uint64_t total = 0;
      auto [best, best_bytes] = dominant(header_like ? 1 : 0, &total);
      if (header_like && best != header) {
        rp.header_bytes = header;
      } else {
        std::tie(best, best_bytes) = dominant(0, &total);  // every read is a chunk of one size
      }
      // Chunked: one size carries most data and some file needs more than one request of it
      // (a size at least the largest file is the same as "rest in one request").
      if (best > 0 && best_bytes * 2 >= total && static_cast<double>(best) < d.size.max)
        rp.request_bytes = best;
    }
  }

  void order_stats() {
    for (std::size_t di = 0; di < s.datasets.size(); ++di) {
      auto& d = s.datasets[di];
      auto& o = d.order;
      std::vector<double> rhos, zs, ascs, sds, cross;
      std::vector<std::size_t> passes;
      o.each_file_once = true;
      for (std::size_t pi = 0; pi < s.epochs.size(); ++pi) {
        const auto& e = s.epochs[pi];
        if (e.dataset != static_cast<std::int32_t>(di)) continue;
        passes.push_back(pi);
        for (auto [r, c] : e.read_counts)
          if (c > 1) o.each_file_once = false;
        const auto n = e.order.size();
        if (n < 8) continue;
        std::vector<double> pos(n), rk(n);
        for (std::size_t i = 0; i < n; ++i) pos[i] = static_cast<double>(i), rk[i] = e.order[i];
        const double rho = detail::spearman(pos, rk);
        rhos.push_back(rho);
        zs.push_back(rho * std::sqrt(static_cast<double>(n - 1)));
        // Displacement from path order, using ranks within this pass (subset-safe).
        std::vector<std::uint32_t> sorted = e.order;
        std::sort(sorted.begin(), sorted.end());
        std::vector<double> disp;
        for (std::size_t i = 0; i < n; ++i) {
          const auto r =
              std::lower_bound(sorted.begin(), sorted.end(), e.order[i]) - sorted.begin();
          disp.push_back(static_cast<double>(i) - static_cast<double>(r));
        }
        sds.push_back(detail::make_stats(disp).stdev);
        // Per reader: fraction of consecutive first reads in increasing path order.
        std::map<std::uint32_t, std::uint32_t> last;
        std::uint64_t up = 0, pairs = 0;
        std::set<std::uint32_t> first_seen;
        for (const auto& a : accesses) {
          if (a.pass != static_cast<std::int32_t>(pi) || !first_seen.insert(a.rank).second)
            continue;
          auto it = last.find(a.reader);
          if (it != last.end()) {
            ++pairs;
            up += a.rank > it->second;
          }
          last[a.reader] = a.rank;
        }
        if (pairs) ascs.push_back(static_cast<double>(up) / static_cast<double>(pairs));
      }
      // Cross-pass: positions of common files in consecutive passes.
      for (std::size_t k = 1; k < passes.size(); ++k) {
        const auto& a = s.epochs[passes[k - 1]].order;
        const auto& b = s.epochs[passes[k]].order;
        std::map<std::uint32_t, double> pa;
        for (std::size_t i = 0; i < a.size(); ++i) pa[a[i]] = static_cast<double>(i);
        std::vector<double> x, y;
        for (std::size_t i = 0; i < b.size(); ++i)
          if (pa.count(b[i])) x.push_back(pa[b[i]]), y.push_back(static_cast<double>(i));
        if (x.size() >= 8) cross.push_back(detail::spearman(x, y));
      }
      auto mean = [](const std::vector<double>& v) {
        return v.empty() ? 0.0
                         : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
      };
      if (rhos.empty()) continue;
      o.spearman = mean(rhos);
      o.spearman_z = mean(zs);
      o.ascending_fraction = mean(ascs);
      o.cross_epoch_spearman = cross.empty() ? 1.0 : mean(cross);
      if (o.spearman >= 0.9 && o.ascending_fraction >= 0.9) {
        o.kind = OrderKind::sequential;
      } else if (std::fabs(o.spearman_z) < 3.0) {
        o.kind = OrderKind::shuffled;
      } else if (o.spearman > 0 && o.ascending_fraction < 0.8) {
        o.kind = OrderKind::buffer_shuffled;
        o.buffer_estimate = static_cast<std::uint64_t>(std::lround(mean(sds)));
      } else {
        o.kind = OrderKind::unknown;
      }
      o.reshuffled =
          !cross.empty() && o.cross_epoch_spearman < 0.9 && o.kind != OrderKind::sequential;
    }
  }

  // Batches: each reader's accesses between its handovers (sendmsg, /dev/shm tensors).
  void batches() {
    struct Ev {
      std::uint64_t ts;
      bool handover;
      std::int32_t pass;
      std::uint32_t file = trace::kNoFile;  // the /dev/shm tensor file of a handover
    };
    std::map<std::uint32_t, std::vector<Ev>> per_reader;  // reader key → events
    std::map<std::uint32_t, std::set<std::uint32_t>> keys_of_pid;
    for (const auto& a : accesses) keys_of_pid[a.pid].insert(a.reader);
    for (const auto& a : accesses) per_reader[a.reader].push_back({a.ts, false, a.pass});
    // When a reader has shm opens, they mark the batch (collate time); sendmsg may come later,
    // when the consumer asks for the descriptors, and would split the next batch.
    std::set<std::uint32_t> shm_readers;
    for (const auto& e : t.events) {
      const bool shm = e.op != Op::sendmsg && is_handover(e, s.files);
      if (!shm) continue;
      auto it = keys_of_pid.find(e.pid);
      if (it != keys_of_pid.end())
        shm_readers.insert(it->second.size() == 1 ? *it->second.begin() : e.tid);
    }
    // A handover by a process belongs to its reader when it has one reader (a worker process),
    // by a thread to that thread. The reading thread's own handovers (PyTorch collates into a
    // /dev/shm tensor right after the reads) mark batches exactly; other threads' (the queue
    // feeder sharing a label tensor, the resource sharer's sendmsg when the consumer asks) come
    // late and would split the next batch, so they count only when the reading thread has none.
    std::set<std::uint32_t> reading_tids;
    for (const auto& a : accesses) reading_tids.insert(a.tid);
    std::map<std::uint32_t, std::vector<Ev>> own, foreign;
    for (const auto& e : t.events) {
      if (!is_handover(e, s.files)) continue;
      auto it = keys_of_pid.find(e.pid);
      if (it == keys_of_pid.end()) continue;
      std::uint32_t key = it->second.size() == 1 ? *it->second.begin() : e.tid;
      if (!per_reader.count(key)) continue;
      if (e.op == Op::sendmsg && shm_readers.count(key)) continue;
      (reading_tids.count(e.tid) ? own : foreign)[key].push_back({e.ts_ns, true, -1, e.file});
    }
    for (auto& [key, evs] : per_reader) {
      const auto& src = own.count(key) ? own[key] : foreign[key];
      evs.insert(evs.end(), src.begin(), src.end());
    }
    for (auto& [reader, evs] : per_reader) {
      std::stable_sort(evs.begin(), evs.end(),
                       [](const Ev& a, const Ev& b) { return a.ts < b.ts; });
      std::uint32_t count = 0;
      std::int32_t pass = -1;
      for (const auto& ev : evs) {
        if (!ev.handover) {
          ++count;
          pass = ev.pass;
          continue;
        }
        if (count == 0) continue;
        Batch b;
        b.ready_ns = ev.ts;
        if (ev.file != trace::kNoFile) batch_shm[ev.file] = s.batches.size();
        b.worker = reader;
        b.accelerator = accel_of_reader(reader);
        b.samples = count;
        b.epoch = pass;
        s.batches.push_back(b);
        count = 0;
      }
    }
    std::vector<std::size_t> order(s.batches.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return s.batches[a].ready_ns < s.batches[b].ready_ns;
    });
    std::vector<Batch> sorted;
    std::vector<std::size_t> new_index(order.size());
    for (std::size_t i = 0; i < order.size(); ++i)
      sorted.push_back(s.batches[order[i]]), new_index[order[i]] = i;
    s.batches = std::move(sorted);
    for (auto& [f, i] : batch_shm) i = new_index[i];
    std::vector<std::uint64_t> sizes;
    for (const auto& b : s.batches) sizes.push_back(b.samples);
    s.batch_size = static_cast<std::uint32_t>(detail::mode(sizes));
    for (const auto& b : s.batches)
      if (b.epoch >= 0) ++s.epochs[b.epoch].steps;
  }

  // Without handovers, a reader's batches show as bursts of reads separated by idle gaps (it
  // waits for a free prefetch slot); a gap longer than 4× the median gap, and over 0.5 ms, ends a
  // burst. In steady state each of W workers reads one batch per W steps, so the step time is
  // the burst period divided by W (an upper bound of compute: waiting cannot be told apart).
  void bursts() {
    if (!s.batches.empty()) return;
    std::map<std::uint32_t, std::vector<const Access*>> per_reader;
    for (const auto& a : accesses)
      if (a.dataset >= 0) per_reader[a.reader].push_back(&a);
    std::vector<double> periods;
    for (auto& [reader, as] : per_reader) {
      if (as.size() < 4) continue;
      std::vector<double> gaps;
      for (std::size_t i = 1; i < as.size(); ++i)
        gaps.push_back(as[i]->ts > as[i - 1]->end ? static_cast<double>(as[i]->ts - as[i - 1]->end)
                                                  : 0.0);
      const double threshold = std::max(500000.0, 4 * detail::percentile(gaps, 0.5));
      const auto accel = accel_of_reader(reader);
      const double w =
          std::max<std::uint32_t>(1, s.accelerators.empty() ? 1 : s.accelerators[accel].workers);
      std::size_t first = 0;
      std::uint64_t prev_start = 0;
      std::int32_t prev_pass = -1;
      for (std::size_t i = 1; i <= as.size(); ++i) {
        const bool split =
            i == as.size() || gaps[i - 1] > threshold || as[i]->pass != as[first]->pass;
        if (!split) continue;
        Batch b;
        b.ready_ns = as[i - 1]->end;
        b.worker = reader;
        b.accelerator = accel;
        b.samples = static_cast<std::uint32_t>(i - first);
        b.epoch = as[first]->pass;
        s.batches.push_back(b);
        if (prev_pass == as[first]->pass && prev_start)
          periods.push_back(static_cast<double>(as[first]->ts - prev_start) / w);
        prev_start = as[first]->ts;
        prev_pass = as[first]->pass;
        first = i;
      }
    }
    if (s.batches.empty()) return;
    s.batches_from_read_bursts = true;
    std::sort(s.batches.begin(), s.batches.end(),
              [](const Batch& a, const Batch& b) { return a.ready_ns < b.ready_ns; });
    std::vector<std::uint64_t> sizes;
    for (const auto& b : s.batches) sizes.push_back(b.samples);
    s.batch_size = static_cast<std::uint32_t>(detail::mode(sizes));
    for (auto& e : s.epochs) e.steps = 0;
    for (const auto& b : s.batches)
      if (b.epoch >= 0) ++s.epochs[b.epoch].steps;
    burst_periods_s.clear();
    for (double p : periods) burst_periods_s.push_back(p * 1e-9);
    s.notes.push_back(
        "no batch handovers (sendmsg or /dev/shm): batches inferred from bursts of reads per "
        "reader, "
        "step time from their cadence (an upper bound of compute)");
  }
  std::vector<double> burst_periods_s;
  std::map<std::uint32_t, std::size_t>
      batch_shm;  // /dev/shm file → index in s.batches (before sorting)

  // Receipts: the accelerator process's recvmsg calls, grouped k per batch (k: descriptors per
  // batch, e.g. data and label tensors), matched to batches in ready order.
  void receipts() {
    // Exact: the accelerator process maps the very /dev/shm file the worker created for the
    // batch (PyTorch passes its descriptor); the first event on it by that process is the receipt.
    std::set<std::uint32_t> main_pids;
    for (const auto& a : s.accelerators) main_pids.insert(a.pid);
    std::size_t matched = 0;
    for (const auto& e : t.events) {
      if (e.file == trace::kNoFile || !main_pids.count(e.pid)) continue;
      auto it = batch_shm.find(e.file);
      if (it == batch_shm.end()) continue;
      auto& b = s.batches[it->second];
      if (b.received_ns == 0 && e.ts_ns >= b.ready_ns &&
          s.accelerators[b.accelerator].pid == e.pid) {
        b.received_ns = e.ts_ns + e.dur_ns;
        ++matched;
      }
    }
    if (matched * 2 >= s.batches.size() && matched > 0) return;
    for (auto& b : s.batches) b.received_ns = 0;
    for (std::size_t ai = 0; ai < s.accelerators.size(); ++ai) {
      const auto pid = s.accelerators[ai].pid;
      std::vector<std::uint64_t> recvs;
      for (const auto& e : t.events)
        if (e.op == Op::recvmsg && e.pid == pid) recvs.push_back(e.ts_ns + e.dur_ns);
      std::vector<Batch*> mine;
      for (auto& b : s.batches)
        if (b.accelerator == ai) mine.push_back(&b);
      if (recvs.empty() || mine.empty()) continue;
      const std::size_t k = std::max<std::size_t>(
          1, static_cast<std::size_t>(std::lround(static_cast<double>(recvs.size()) /
                                                  static_cast<double>(mine.size()))));
      for (std::size_t i = 0; i < mine.size() && (i + 1) * k <= recvs.size(); ++i)
        mine[i]->received_ns = recvs[(i + 1) * k - 1];
    }
  }

  // Steps. The main thread makes no traced syscalls while it computes (a sleep, a matmul or a
  // GPU kernel), so compute shows as the idle gaps of its syscall timeline between batch
  // receipts: in a training pass with n batches, the n−1 longest gaps. A gap is pure compute when
  // the batch the process took next was ready before the gap ended (or was already cached, so no
  // receipt follows the gap); otherwise it also holds waiting for data, and the compute in it is
  // estimated by the median measured compute. Without a main-thread timeline (threaded readers),
  // the receipt intervals stand in for the gaps.
  // The threads whose syscall timeline shows the accelerator's steps: the main thread, except in
  // a process whose readers are its own threads handing batches to a consumer thread (dlgen's
  // replay: reader threads sendmsg, the accelerator thread recvmsg), where the main thread only
  // waits; then the threads that receive the batches (the replay starts a new one each pass), and
  // each pass is read on the one that received most in it (pass_timeline).
  std::vector<std::uint32_t> timeline_threads(std::size_t ai) const {
    const auto& acc = s.accelerators[ai];
    const auto pid = acc.pid;
    if (acc.reads_itself || acc.readers.empty()) return {pid};
    for (auto r : acc.readers)
      if (r == pid) return {pid};
    std::set<std::uint32_t> reading_tids;
    for (const auto& a : accesses)
      if (a.pid == pid) reading_tids.insert(a.tid);
    for (auto r : acc.readers)
      if (!reading_tids.count(r)) return {pid};  // readers are other processes (DataLoader workers)
    std::set<std::uint32_t> receivers;
    for (const auto& e : t.events)
      if (e.op == Op::recvmsg && e.pid == pid) receivers.insert(e.tid);
    if (receivers.empty() || receivers.count(pid)) return {pid};
    return {receivers.begin(), receivers.end()};
  }
  // Of `threads`, the one with most recvmsg calls in [w0, w1] (the first when none has any).
  std::uint32_t pass_timeline(const std::vector<std::uint32_t>& threads, std::uint64_t w0,
                              std::uint64_t w1) const {
    if (threads.size() == 1) return threads.front();
    std::map<std::uint32_t, std::size_t> recvs;
    for (const auto& e : t.events)
      if (e.op == Op::recvmsg && e.ts_ns + e.dur_ns >= w0 && e.ts_ns <= w1) ++recvs[e.tid];
    std::uint32_t best = threads.front();
    std::size_t most = 0;
    for (auto tid : threads)
      if (recvs[tid] > most) best = tid, most = recvs[tid];
    return best;
  }

  void steps() {
    std::vector<double> computes_measured, eval_computes_measured;
    // Passes in which an accelerator received one batch: no gap between receipts to measure; the
    // batch is still one step (n batches are n steps, and its compute counts in AU): the main
    // thread's idle gap after the receipt when it has a typical length, else the typical length.
    struct Single {
      std::uint32_t accelerator;
      std::int32_t pass;
      std::uint64_t received_ns;
      std::uint64_t gap_end_ns;  // end of the first idle gap (≥ 0.5 ms) after the receipt, 0: none
    };
    std::vector<Single> singles;
    for (std::size_t ai = 0; ai < s.accelerators.size(); ++ai) {
      std::vector<const Batch*> got;
      for (const auto& b : s.batches)
        if (b.accelerator == ai && b.received_ns) got.push_back(&b);
      std::sort(got.begin(), got.end(),
                [](const Batch* a, const Batch* b) { return a->received_ns < b->received_ns; });
      // Idle gaps of each timeline thread: [end of one syscall, start of the next].
      const std::vector<std::uint32_t> timelines = timeline_threads(ai);
      std::map<std::uint32_t, std::vector<std::pair<std::uint64_t, std::uint64_t>>> gaps_of;
      {
        std::map<std::uint32_t, std::uint64_t> busy_until;
        const std::set<std::uint32_t> wanted(timelines.begin(), timelines.end());
        for (const auto& e : t.events) {
          if (!wanted.count(e.tid)) continue;
          auto [it, first] = busy_until.try_emplace(e.tid, 0);
          if (!first && e.ts_ns > it->second) gaps_of[e.tid].push_back({it->second, e.ts_ns});
          it->second = std::max(it->second, e.ts_ns + e.dur_ns);
        }
      }
      std::map<std::int32_t, std::vector<const Batch*>> per_pass;
      for (const Batch* b : got)
        if (b->epoch >= 0) per_pass[b->epoch].push_back(b);
      for (auto& [pass, bs] : per_pass) {
        const auto& gaps =
            gaps_of[pass_timeline(timelines, bs.front()->received_ns, bs.back()->received_ns)];
        if (bs.size() == 1) {
          // Its compute is the main thread's first idle gap after the receipt (shorter gaps are
          // the spacing of its syscalls); that gap also holds any wait that follows the compute.
          const std::uint64_t got_ns = bs.front()->received_ns;
          std::uint64_t gap_end = 0;
          for (const auto& g : gaps)
            if (g.first >= got_ns && g.second - g.first >= 500000) {
              gap_end = g.second;
              break;
            }
          singles.push_back({static_cast<std::uint32_t>(ai), pass, got_ns, gap_end});
        }
        if (bs.size() < 2) continue;
        const std::uint64_t w0 = bs.front()->received_ns, w1 = bs.back()->received_ns;
        std::vector<std::pair<std::uint64_t, std::uint64_t>> in;
        for (const auto& g : gaps)
          if (g.first >= w0 && g.second <= w1) in.push_back(g);
        std::sort(in.begin(), in.end(), [](const auto& a, const auto& b) {
          return a.second - a.first > b.second - b.first;
        });
        if (in.size() > bs.size() - 1) in.resize(bs.size() - 1);
        if (in.empty()) {  // no main-thread timeline: receipt to receipt
          std::vector<double> lens;
          for (std::size_t i = 0; i + 1 < bs.size(); ++i) {
            in.push_back({bs[i]->received_ns, bs[i + 1]->received_ns});
            lens.push_back(static_cast<double>(bs[i + 1]->received_ns - bs[i]->received_ns));
          }
          // The last batch is computed on too, after the last receipt: one more step of the
          // typical length (n batches are n steps).
          in.push_back({w1, w1 + static_cast<std::uint64_t>(detail::percentile(lens, 0.5))});
        } else {
          // The last step computes after the last receipt: the first gap after it of a typical
          // length (not the wait for the next pass's workers, which is longer).
          std::vector<double> lens;
          for (const auto& g : in) lens.push_back(static_cast<double>(g.second - g.first));
          const double typical_gap = detail::percentile(lens, 0.5);
          bool found = false;
          for (const auto& g : gaps) {
            if (g.first < w1) continue;
            const double len = static_cast<double>(g.second - g.first);
            if (len > 1.5 * typical_gap) break;
            if (len >= 0.5 * typical_gap) {
              in.push_back(g);
              found = true;
              break;
            }
          }
          // None (the last step runs into the checkpoint or the next pass's start-up): still one
          // step of the typical length, as with receipts only, so that n batches are n steps
          // on both sides of a comparison.
          if (!found && !lens.empty())
            in.push_back({w1, w1 + static_cast<std::uint64_t>(typical_gap)});
        }
        std::sort(in.begin(), in.end());
        for (std::size_t i = 0; i < in.size(); ++i) {
          Step st;
          st.accelerator = static_cast<std::uint32_t>(ai);
          st.epoch = pass;
          st.start_ns = in[i].first;
          st.end_ns = i + 1 < in.size() ? std::max(in[i].second, in[i + 1].first) : in[i].second;
          const std::uint64_t gap = in[i].second - in[i].first;
          // The batches received right after the gap: were they ready before it ended?
          std::uint64_t earliest_ready = UINT64_MAX;
          bool received = false;
          for (const Batch* b : bs)
            if (b->received_ns >= in[i].second && b->received_ns <= in[i].second + 5000000) {
              received = true;
              earliest_ready = std::min(earliest_ready, b->ready_ns);
            }
          const std::uint64_t margin = std::max<std::uint64_t>(1000000, gap / 10);
          // The gap after the pass's last receipt also holds the end of the pass (worker
          // shutdown): it counts as a step, never as a measurement.
          const bool tail = in[i].first >= w1;
          st.compute_measured = !tail && (!received || earliest_ready + margin < in[i].second);
          if (st.compute_measured) {
            st.compute_ns = gap;
            (s.epochs[pass].evaluation ? eval_computes_measured : computes_measured)
                .push_back(static_cast<double>(gap));
          }
          s.steps.push_back(st);
        }
      }
    }
    double typical = detail::percentile(computes_measured, 0.5);
    std::vector<double> single_train_gaps;
    for (const Single& one : singles)
      if (one.gap_end_ns && !s.epochs[one.pass].evaluation)
        single_train_gaps.push_back(static_cast<double>(one.gap_end_ns - one.received_ns));
    if (computes_measured.empty() && !single_train_gaps.empty()) {
      // Each gap is compute plus whatever wait follows it (the next pass's start-up, another
      // rank's checkpoint): every one is an upper bound, the smallest the tightest.
      typical = detail::percentile(single_train_gaps, 0.0);
      s.notes.push_back(
          "accelerators got one batch per training pass: compute time is the shortest idle gap of "
          "a "
          "main process after one (an upper bound)");
    } else if (computes_measured.empty()) {
      std::vector<double> all;
      for (const auto& st : s.steps) all.push_back(static_cast<double>(st.end_ns - st.start_ns));
      typical = detail::percentile(all, 0.1);
      if (!all.empty())
        s.notes.push_back(
            "every step waited for data: compute time is an upper bound (10th percentile of step "
            "time)");
    }
    // Evaluation computes less per batch (no backward pass): its own typical value when measured.
    const double typical_eval =
        eval_computes_measured.empty() ? typical : detail::percentile(eval_computes_measured, 0.5);
    auto is_eval = [&](std::int32_t pass) { return pass >= 0 && s.epochs[pass].evaluation; };
    for (const Single& one : singles) {
      Step st;
      st.accelerator = one.accelerator;
      st.epoch = one.pass;
      st.start_ns = one.received_ns;
      const double typ = is_eval(one.pass) ? typical_eval : typical;
      const double gap = static_cast<double>(one.gap_end_ns - one.received_ns);
      const bool typical_gap = one.gap_end_ns && gap >= 0.5 * typ && gap <= 1.5 * typ;
      st.end_ns = typical_gap ? one.gap_end_ns : one.received_ns + static_cast<std::uint64_t>(typ);
      s.steps.push_back(st);
    }
    if (!singles.empty())
      std::stable_sort(s.steps.begin(), s.steps.end(), [](const Step& a, const Step& b) {
        return a.accelerator != b.accelerator ? a.accelerator < b.accelerator
                                              : a.start_ns < b.start_ns;
      });
    for (auto& st : s.steps) {
      if (st.compute_measured) continue;
      const auto interval = st.end_ns - st.start_ns;
      st.compute_ns = std::min<std::uint64_t>(
          interval, static_cast<std::uint64_t>(is_eval(st.epoch) ? typical_eval : typical));
      st.wait_ns = interval - st.compute_ns;
    }
    detail::split_step_time(s.steps, is_eval);
    typical_compute_ns_ = typical;
    typical_eval_compute_ns_ = typical_eval;
  }
  // The median measured compute per step (training, evaluation), for steps whose gap is not pure
  // compute (set by steps(), read by checkpoints()).
  double typical_compute_ns_ = 0, typical_eval_compute_ns_ = 0;

  void checkpoints() {
    std::vector<const Event*> writes;
    std::set<std::uint32_t> direct_files;  // checkpoint files opened with O_DIRECT
    std::vector<std::map<Op, std::uint64_t>> bytes_by_call;  // per checkpoint
    std::uint64_t first_train = UINT64_MAX;
    for (const auto& a : accesses)
      if (s.files[a.file].cls == FileClass::train) first_train = std::min(first_train, a.ts);
    for (const auto& e : t.events) {
      if (e.file == trace::kNoFile || e.file >= s.files.size()) continue;
      if (s.files[e.file].cls != FileClass::checkpoint) continue;
      if (e.op == Op::open && (e.flags & 040000) != 0) direct_files.insert(e.file);  // O_DIRECT
      if (trace::is_write(e.op) || e.op == Op::sendfile || e.op == Op::copy_file_range ||
          e.op == Op::fsync || e.op == Op::fdatasync || e.op == Op::sync_file_range)
        writes.push_back(&e);
      else if (trace::is_read(e.op) && e.ts_ns < first_train && e.ret > 0) {
        s.checkpoint_restore = true;
        s.restore_bytes += static_cast<std::uint64_t>(e.ret);
      }
    }
    std::vector<std::uint64_t> receipts;  // every accelerator-0 batch receipt
    for (const auto& b : s.batches)
      if (b.accelerator == 0 && b.received_ns) receipts.push_back(b.received_ns);
    std::sort(receipts.begin(), receipts.end());
    CheckpointWrite* cur = nullptr;
    std::set<std::uint32_t> cur_files;
    std::uint64_t last_end = 0;
    for (const Event* e : writes) {
      const bool data =
          trace::is_write(e->op) || e->op == Op::sendfile || e->op == Op::copy_file_range;
      bool split = cur == nullptr;
      if (cur) {
        // A batch receipt between two writes means training went on: a new checkpoint.
        auto it = std::upper_bound(receipts.begin(), receipts.end(), last_end);
        if (it != receipts.end() && *it < e->ts_ns) split = true;
        if (receipts.empty() && e->ts_ns > last_end + 1000000000ull) split = true;
      }
      if (split) {
        if (!data) continue;  // an fsync with no writes before it
        if (cur) cur->files = static_cast<std::uint32_t>(cur_files.size());
        s.checkpoints.emplace_back();
        bytes_by_call.emplace_back();
        cur = &s.checkpoints.back();
        cur->start_ns = e->ts_ns;
        cur_files.clear();
      }
      cur->end_ns = std::max(cur->end_ns, e->ts_ns + e->dur_ns);
      last_end = cur->end_ns;
      const std::uint64_t done = e->ret > 0 ? static_cast<std::uint64_t>(e->ret) : 0;
      if (e->op == Op::fsync || e->op == Op::fdatasync || e->op == Op::sync_file_range) {
        cur->fsync = true;
        continue;
      }
      if (e->op == Op::sendfile || e->op == Op::copy_file_range) {
        cur->copied_bytes += done;
        if (done) cur->copy_call = e->op;
      } else {
        bytes_by_call.back()[e->op] += done;
        cur->direct = cur->direct || direct_files.count(e->file);
        cur->bytes += done;
        ++cur->write_ops;
        ++cur->write_sizes[e->size];
      }
      if (cur_files.insert(e->file).second) cur->paths.push_back(s.files[e->file].path);
    }
    if (cur) cur->files = static_cast<std::uint32_t>(cur_files.size());
    for (std::size_t i = 0; i < s.checkpoints.size(); ++i) {
      std::uint64_t most = 0;
      for (auto [op, bytes] : bytes_by_call[i])
        if (bytes > most) most = bytes, s.checkpoints[i].write_call = op;
    }
    // Place each checkpoint among epochs and training steps.
    std::vector<std::uint64_t> train_receipts;
    for (const auto& b : s.batches)
      if (b.accelerator == 0 && b.received_ns && b.epoch >= 0 && !s.epochs[b.epoch].evaluation)
        train_receipts.push_back(b.received_ns);
    std::sort(train_receipts.begin(), train_receipts.end());
    // Steps done before a checkpoint. The main thread computes each step in one idle gap of a
    // typical length T (the median measured compute); counting gaps of 0.5–1.5 T from the start of
    // the pass to the checkpoint gives its step within the pass (a receipt count would be too
    // high: PyTorch receives out-of-order batches early and caches them). Passes completed before
    // count in full. Without a main-thread timeline, batch receipts stand in.
    std::vector<double> measured;
    for (const auto& st : s.steps)
      if (st.compute_measured && st.epoch >= 0 && !s.epochs[st.epoch].evaluation)
        measured.push_back(static_cast<double>(st.compute_ns));
    const double T = detail::percentile(measured, 0.5);
    std::vector<std::pair<std::uint64_t, std::uint64_t>> compute_gaps;
    if (T > 0 && !s.accelerators.empty()) {
      const auto pid = s.accelerators[0].pid;
      std::uint64_t busy_until = 0;
      bool any = false;
      for (const auto& e : t.events) {
        if (e.tid != pid) continue;
        if (any && e.ts_ns > busy_until) {
          const double len = static_cast<double>(e.ts_ns - busy_until);
          if (len >= 0.5 * T) compute_gaps.push_back({busy_until, e.ts_ns});
        }
        busy_until = std::max(busy_until, e.ts_ns + e.dur_ns);
        any = true;
      }
    }
    struct PassSpan {
      std::uint64_t first_receipt, last_receipt, steps;
    };
    std::vector<PassSpan> spans;  // training passes of accelerator 0, in time order
    for (std::size_t pi = 0; pi < s.epochs.size(); ++pi) {
      if (s.epochs[pi].evaluation) continue;
      std::uint64_t first = UINT64_MAX, last = 0, n = 0;
      for (const auto& b : s.batches)
        if (b.accelerator == 0 && b.epoch == static_cast<std::int32_t>(pi) && b.received_ns)
          first = std::min(first, b.received_ns), last = std::max(last, b.received_ns), ++n;
      if (n) spans.push_back({first, last, n});
    }
    for (auto& c : s.checkpoints) {
      if (compute_gaps.empty() || spans.empty()) {
        c.after_step = static_cast<std::uint64_t>(
            std::lower_bound(train_receipts.begin(), train_receipts.end(), c.start_ns) -
            train_receipts.begin());
      } else {
        std::uint64_t before = 0;
        std::size_t k = 0;
        while (k + 1 < spans.size() && spans[k + 1].first_receipt < c.start_ns)
          before += spans[k++].steps;
        std::uint64_t in_pass = 0;
        // Within the pass a step is one gap of 0.5–1.5 T; after its last receipt the last step's
        // gap may be longer (PyTorch joins the workers before the loop ends), so any length counts.
        for (const auto& g : compute_gaps) {
          if (g.first < spans[k].first_receipt || g.second > c.start_ns) continue;
          const double len = static_cast<double>(g.second - g.first);
          if (len <= 1.5 * T || g.first >= spans[k].last_receipt) ++in_pass;
        }
        c.after_step = before + std::min(in_pass, spans[k].steps);
      }
      std::uint32_t done = 0;
      bool between = true;
      for (const auto& e : s.epochs) {
        if (e.evaluation) continue;
        if (e.end_ns <= c.start_ns)
          ++done;
        else if (e.start_ns < c.start_ns)
          between = false;
      }
      c.after_epoch = done;
      // At an epoch end: all of the epoch's batches were received before the checkpoint.
      std::uint64_t steps_done = 0;
      for (const auto& e : s.epochs)
        if (!e.evaluation && e.end_ns <= c.start_ns) steps_done += e.steps;
      const std::uint64_t per_acc =
          s.accelerators.empty() ? steps_done : steps_done / s.accelerators.size();
      // Or: no batch of the pass in progress is received after it, and the step count is within
      // one of the pass end (step counts from idle gaps can be off by one on a loaded machine).
      bool next_is_new_pass = true;
      for (const auto& b : s.batches)
        if (b.accelerator == 0 && b.received_ns > c.end_ns && b.epoch >= 0 &&
            !s.epochs[b.epoch].evaluation) {
          std::uint32_t pass_index = 0;
          for (std::int32_t q = 0; q < b.epoch; ++q) pass_index += !s.epochs[q].evaluation;
          if (pass_index < done) next_is_new_pass = false;
        }
      const std::uint64_t diff =
          c.after_step > per_acc ? c.after_step - per_acc : per_acc - c.after_step;
      c.at_epoch_end =
          receipts.empty()
              ? between
              : (done > 0 && (c.after_step == per_acc || (diff <= 1 && next_is_new_pass)));
    }
    // Steps that span a checkpoint are not step times: set apart (their compute still counts in
    // AU).
    auto spans_checkpoint = [&](const Step& st) {
      for (const auto& c : s.checkpoints)
        if (c.start_ns < st.end_ns && c.end_ns > st.start_ns) return true;
      return false;
    };
    const auto held = std::stable_partition(s.steps.begin(), s.steps.end(),
                                            [&](const Step& st) { return !spans_checkpoint(st); });
    s.checkpoint_steps.assign(held, s.steps.end());
    s.steps.erase(held, s.steps.end());
    // A held step's gap also holds the wait for the checkpoint (an accelerator that did not write
    // it idles until the writer is done): its compute is at most the typical one.
    for (Step& st : s.checkpoint_steps) {
      const bool eval = st.epoch >= 0 && s.epochs[st.epoch].evaluation;
      const auto typ =
          static_cast<std::uint64_t>(eval ? typical_eval_compute_ns_ : typical_compute_ns_);
      st.compute_ns = std::min(st.compute_ns, typ);
      st.compute_measured = false;
      const std::uint64_t rest = st.end_ns - st.start_ns - st.compute_ns;
      st.consumer_ns = std::min(st.consumer_ns, rest);
      st.wait_ns = rest - st.consumer_ns;
    }
  }

  // AU per accelerator and the run's (docs/metrics.md: MLPerf Storage's definition, with the
  // replay's arithmetic, dlgen::accelerator_utilisation). Each step is (its batch's arrival, its
  // compute, its end); the run begins at the first dataset read and ends at the latest step end of
  // any accelerator or the end of the last checkpoint write, whichever is later: the same instants
  // as a replay's run (its end is taken after its last pass or checkpoint).
  void utilisation() {
    std::vector<std::vector<AuStep>> per(s.accelerators.size());
    std::uint64_t end = 0;
    for (const auto* list : {&s.steps, &s.checkpoint_steps})
      for (const Step& st : *list) {
        if (st.accelerator >= per.size()) continue;
        per[st.accelerator].push_back({static_cast<std::int64_t>(st.start_ns),
                                       static_cast<std::int64_t>(st.compute_ns),
                                       static_cast<std::int64_t>(st.end_ns)});
        end = std::max(end, st.end_ns);
      }
    if (end == 0) return;  // no step: AU is not measurable
    for (const auto& c : s.checkpoints) end = std::max(end, c.end_ns);
    std::uint64_t begin = end;
    for (const auto& e : s.epochs) begin = std::min(begin, e.start_ns);
    s.run_begin_ns = begin;
    s.run_end_ns = end;
    double lowest = 1, sum = 0;
    std::size_t n = 0;
    for (std::size_t ai = 0; ai < s.accelerators.size(); ++ai) {
      bool received = !per[ai].empty();
      for (const auto& b : s.batches) received = received || (b.accelerator == ai && b.received_ns);
      if (!received) continue;  // not a consumer as far as the trace shows
      const AuParts p = accelerator_utilisation(per[ai], static_cast<std::int64_t>(begin),
                                                static_cast<std::int64_t>(end));
      auto& acc = s.accelerators[ai];
      acc.au = std::min(1.0, p.au());
      acc.au_compute_s = p.compute_s;
      acc.au_wall_s = p.wall_s;
      acc.first_wait_s = p.first_wait_s;
      lowest = std::min(lowest, acc.au);
      sum += acc.au;
      ++n;
    }
    if (n == 0) return;
    s.au = lowest;
    s.au_mean = sum / static_cast<double>(n);
    s.au_measured = true;
  }

  // Gap before each pass after the first: the previous pass's activity ends with its last step's
  // end (the main process's first syscall after computing on the last batch) or, later, a
  // checkpoint written after it; the pass starts with its first dataset read. Without steps, the
  // previous pass's last read end is used (an overestimate by the consumption of the prefetched
  // batches).
  void startup() {
    for (std::size_t pi = 1; pi < s.epochs.size(); ++pi) {
      const auto& prev = s.epochs[pi - 1];
      const auto& cur = s.epochs[pi];
      std::uint64_t end = 0;
      for (const auto& st : s.steps)
        if (st.epoch == static_cast<std::int32_t>(pi - 1)) end = std::max(end, st.end_ns);
      if (end == 0) end = prev.end_ns;
      for (const auto& c : s.checkpoints)
        if (c.end_ns > end && c.end_ns <= cur.start_ns) end = c.end_ns;
      if (cur.start_ns <= end) {
        s.pass_startup_s.push_back(0);
        continue;
      }
      s.pass_startup_s.push_back(static_cast<double>(cur.start_ns - end) * 1e-9);
    }
    s.startup_s = detail::percentile(s.pass_startup_s, 0.5);
  }

  // Per-sample worker time (decode, augmentation): per reader, the gap between the end of a train
  // sample's last data read and the open of its next sample in the same pass. Gaps that contain one
  // of the reader's handovers (collate, waiting for the consumer) are left out; overlapping
  // accesses (several samples read at once) count as 0.
  void preprocess() {
    std::map<std::uint32_t, std::set<std::uint32_t>> keys_of_pid;
    for (const auto& a : accesses) keys_of_pid[a.pid].insert(a.reader);
    std::map<std::uint32_t, std::vector<std::uint64_t>> handovers;  // reader key → times, sorted
    for (const auto& e : t.events) {
      if (!is_handover(e, s.files)) continue;
      auto it = keys_of_pid.find(e.pid);
      if (it == keys_of_pid.end()) continue;
      handovers[it->second.size() == 1 ? *it->second.begin() : e.tid].push_back(e.ts_ns);
    }
    for (auto& [key, v] : handovers) std::sort(v.begin(), v.end());
    std::map<std::uint32_t, const Access*> last;   // reader key → its previous train access
    std::map<std::uint32_t, bool> last_was_first;  // ... which was the reader's first of its pass
    std::vector<double> first_later, first_all, spans;  // sample spans (open to next open)
    for (const auto& a : accesses) {
      if (a.file >= s.files.size() || s.files[a.file].cls != FileClass::train) continue;
      auto it = last.find(a.reader);
      const bool same_pass = it != last.end() && it->second->pass == a.pass;
      if (same_pass && it->second->last_read_end > 0) {
        const std::uint64_t end = it->second->last_read_end;
        const auto& h = handovers[a.reader];
        auto no_handover = [&](std::uint64_t from) {
          const auto lo = std::lower_bound(h.begin(), h.end(), from);
          return lo == h.end() || *lo >= a.ts;
        };
        // (The gap after a reader's first sample of a pass belongs to its warm-up, below.)
        if (!last_was_first[a.reader]) {
          if (a.ts <= end)
            s.preprocess_gaps_s.push_back(0);
          else if (no_handover(end))
            s.preprocess_gaps_s.push_back(static_cast<double>(a.ts - end) * 1e-9);
        }
        if (a.ts > it->second->ts && no_handover(it->second->ts)) {
          const double span = static_cast<double>(a.ts - it->second->ts) * 1e-9;
          if (last_was_first[a.reader]) {
            first_all.push_back(span);
            if (a.pass > 0) first_later.push_back(span);
          } else {
            spans.push_back(span);
          }
        }
      }
      last_was_first[a.reader] = !same_pass;
      last[a.reader] = &a;
    }
    s.first_sample_spans_s = first_later.empty() ? first_all : first_later;
    s.sample_span_s = detail::percentile(spans, 0.5);
    s.preprocess_s = detail::percentile(s.preprocess_gaps_s, 0.5);
  }

  void timing_stats() {
    std::vector<double> step, compute, wait, consumer;
    for (const auto& st : s.steps) {
      if (st.epoch < 0 || s.epochs[st.epoch].evaluation) continue;
      step.push_back(static_cast<double>(st.end_ns - st.start_ns) * 1e-9);
      compute.push_back(static_cast<double>(st.compute_ns) * 1e-9);
      wait.push_back(static_cast<double>(st.wait_ns) * 1e-9);
      consumer.push_back(static_cast<double>(st.consumer_ns) * 1e-9);
    }
    if (step.empty() && !burst_periods_s.empty()) step = compute = burst_periods_s;
    s.step_time = detail::make_stats(step);
    s.compute_time = detail::make_stats(compute);
    s.data_wait_time = detail::make_stats(wait);
    s.consumer_time = detail::make_stats(consumer);
    // Prefetch: batches ready and not yet received when a batch is received, per worker, per
    // accelerator (each has its own loader); the run's is the largest.
    s.prefetch = 0;
    for (std::size_t ai = 0; ai < s.accelerators.size(); ++ai) {
      std::vector<double> depth;
      std::vector<std::uint64_t> ready, got;
      for (const auto& b : s.batches)
        if (b.accelerator == ai && b.received_ns)
          ready.push_back(b.ready_ns), got.push_back(b.received_ns);
      std::sort(ready.begin(), ready.end());
      std::sort(got.begin(), got.end());
      for (std::size_t i = 0; i < got.size(); ++i) {
        const auto r = std::upper_bound(ready.begin(), ready.end(), got[i]) - ready.begin();
        depth.push_back(static_cast<double>(r) - static_cast<double>(i));
      }
      const auto w = std::max<std::uint32_t>(1, s.accelerators[ai].workers);
      if (depth.empty()) continue;
      s.accelerators[ai].prefetch =
          static_cast<std::uint32_t>(std::ceil(detail::percentile(depth, 0.9) / w));
      s.prefetch = std::max(s.prefetch, s.accelerators[ai].prefetch);
    }
  }

  void concurrency() {
    struct Edge {
      std::uint64_t ts;
      int delta;
      std::uint32_t tid;
    };
    std::vector<Edge> edges;
    for (const auto& e : t.events) {
      if (e.file == trace::kNoFile || !is_dataset_file(e.file) || !trace::is_read(e.op)) continue;
      edges.push_back({e.ts_ns, +1, e.tid});
      edges.push_back({e.ts_ns + std::max<std::uint64_t>(e.dur_ns, 1), -1, e.tid});
    }
    std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) {
      return a.ts != b.ts ? a.ts < b.ts : a.delta < b.delta;
    });
    auto& c = s.concurrency;
    std::map<std::uint32_t, int> per_tid;
    int inflight = 0, readers = 0;
    std::uint64_t prev = 0, busy = 0;
    double weighted = 0;
    for (const auto& ed : edges) {
      if (inflight > 0 && ed.ts > prev) {
        const auto dt = ed.ts - prev;
        c.inflight_ns[static_cast<std::uint32_t>(inflight)] += dt;
        c.readers_ns[static_cast<std::uint32_t>(readers)] += dt;
        busy += dt;
        weighted += static_cast<double>(inflight) * static_cast<double>(dt);
      }
      prev = ed.ts;
      int& n = per_tid[ed.tid];
      if (ed.delta > 0 && n++ == 0) ++readers;
      if (ed.delta < 0 && --n == 0) --readers;
      inflight += ed.delta;
      c.max_inflight = std::max(c.max_inflight, static_cast<std::uint32_t>(std::max(inflight, 0)));
      c.max_readers = std::max(c.max_readers, static_cast<std::uint32_t>(std::max(readers, 0)));
    }
    c.mean_inflight = busy ? weighted / static_cast<double>(busy) : 0;
  }

  void handover_counts() {
    std::map<std::uint32_t, ProcessSummary*> by_pid;
    for (auto& p : s.processes) by_pid[p.pid] = &p;
    for (const auto& b : s.batches)
      if (auto it = by_pid.find(b.worker); it != by_pid.end()) ++it->second->handovers;
    for (const auto& b : s.batches)
      if (b.received_ns && b.accelerator < s.accelerators.size())
        if (auto it = by_pid.find(s.accelerators[b.accelerator].pid); it != by_pid.end())
          ++it->second->handovers;
  }

  void notes() {
    if (s.lost_events)
      s.notes.push_back(std::to_string(s.lost_events) +
                        " events were lost during capture: counts are lower bounds");
    if (!s.complete) s.notes.push_back("the capture did not finish: the last epoch may be partial");
    if (train_dataset(s) < 0)
      s.notes.push_back(
          "no training dataset found: no regular file outside code and library paths was read");
    if (s.batches.empty() && train_dataset(s) >= 0)
      s.notes.push_back(
          "no batch handovers (sendmsg or /dev/shm) and no read bursts: batch size, steps and "
          "compute time per step cannot be inferred");
  }
};

}  // namespace

TraceSummary summarize(const trace::Trace& trace) {
  std::vector<SampleFile> sample_files;
  std::map<std::uint32_t, std::uint32_t> virtual_files;
  const std::optional<trace::Trace> split = split_sample_files(trace, sample_files, virtual_files);
  Builder b(split ? *split : trace);
  b.totals();
  b.classify_files();
  b.group_datasets();
  b.build_accesses();
  b.readers_and_accelerators();
  b.passes();
  b.dataset_reads();
  b.order_stats();
  b.batches();
  b.bursts();
  b.receipts();
  b.steps();
  b.checkpoints();
  b.utilisation();
  b.startup();
  b.preprocess();
  b.timing_stats();
  b.concurrency();
  b.handover_counts();
  b.notes();
  b.s.sample_files = std::move(sample_files);
  b.s.virtual_files = std::move(virtual_files);
  return std::move(b.s);
}

}  // namespace dlgen::analysis
