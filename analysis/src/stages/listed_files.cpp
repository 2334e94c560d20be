// listed_files: how many files the directories of each dataset held, from the loader's own
// listing of them (getdents64: os.listdir, os.scandir, glob). A loader that samples with
// replacement (WeightedRandomSampler over a ConcatDataset of folders) or stops early reads only
// some of the files it listed; the dataset is all of them.
#include <map>
#include <set>
#include <string>

#include "stages.hpp"

namespace dlgen::analysis::stages {
namespace {

using trace::Op;

// Bytes of a linux_dirent64 record for a name: 8 + 8 + 2 + 1 header bytes, the name and its NUL,
// rounded up to 8.
std::uint64_t record_bytes(std::size_t name_length) {
  return (19 + name_length + 1 + 7) & ~7ull;
}

std::string parent_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

// Per directory path: the most bytes one listing of it returned (a listing: one process's
// getdents64 calls on a descriptor until the one that returns 0).
std::map<std::string, std::uint64_t> listing_bytes(const trace::Trace& t) {
  std::map<std::pair<std::uint32_t, std::int32_t>, std::uint64_t> running;  // (pid, fd) → bytes
  std::map<std::string, std::uint64_t> most;
  for (const auto& e : t.events) {
    if (e.op != Op::getdents || e.file == trace::kNoFile || e.ret < 0) continue;
    auto& sum = running[{e.pid, e.fd}];
    if (e.ret > 0) {
      sum += static_cast<std::uint64_t>(e.ret);
      continue;
    }
    auto& m = most[t.files[e.file].path];
    m = std::max(m, sum);
    sum = 0;
  }
  return most;
}

// One directory of a dataset: the files the dataset read there, every dataset file read there,
// and the entries its listing held (at least those read).
struct DirCount {
  std::uint64_t mine = 0, read = 0, entries = 0;
};

// The entries of directory `dir` that the loader listed: "." and ".." (24 bytes each) and records
// as long as those of the names read there, when all of those are as long (else the count is not
// exact: the files read).
std::uint64_t listed_entries(const std::map<std::string, std::uint64_t>& listed,
                             const std::string& dir, const std::vector<std::uint32_t>& read_there,
                             const Classified& c) {
  std::set<std::uint64_t> lengths;
  for (auto f : read_there) {
    const std::string& p = c.files[f].path;
    lengths.insert(record_bytes(p.size() - p.rfind('/') - 1));
  }
  const auto it = listed.find(dir);
  std::uint64_t entries = read_there.size();
  if (it != listed.end() && lengths.size() == 1 && it->second > 48 &&
      (it->second - 48) % *lengths.begin() == 0)
    entries = std::max<std::uint64_t>(entries, (it->second - 48) / *lengths.begin());
  return entries;
}

}  // namespace

std::vector<std::uint64_t> listed_files(const trace::Trace& t, const Classified& c) {
  const auto listed = listing_bytes(t);
  // Per directory: the files each dataset read there, and every dataset file read there.
  std::map<std::string, std::vector<std::uint32_t>> in_dir;
  for (std::uint32_t f = 0; f < c.files.size(); ++f)
    if (c.is_dataset_file(f)) in_dir[parent_of(c.files[f].path)].push_back(f);
  std::vector<std::uint64_t> out(c.datasets.size(), 0);
  for (std::size_t di = 0; di < c.datasets.size(); ++di) {
    std::set<std::string> dirs;
    for (auto f : c.datasets[di].files) dirs.insert(parent_of(c.files[f].path));
    std::vector<DirCount> counts;
    std::uint64_t read = 0, unread = 0;
    for (const auto& dir : dirs) {
      DirCount d;
      for (auto f : in_dir[dir]) d.mine += c.files[f].dataset == static_cast<std::int32_t>(di);
      d.read = in_dir[dir].size();
      d.entries = listed_entries(listed, dir, in_dir[dir], c);
      read += d.read;
      unread += d.entries - d.read;
      counts.push_back(d);
    }
    // Files listed but not read belong to the training set (those other datasets read are
    // theirs), and only when they are at least a tenth of those read, over all the set's
    // directories, and more than one a directory: a few more entries are a directory's other
    // files (a case list, a README, dlgen's own `.dlgen-manifest.json` beside 6 Parquet files).
    // Over the set, not per directory: a WeightedRandomSampler over a ConcatDataset of two folders
    // draws nearly every file of the folder it favours (119 of 120) and a few of the other's, and
    // the one left undrawn in the favoured folder was a file of the set all the same.
    const bool with_unread =
        c.datasets[di].cls == FileClass::train && unread * 10 >= read && unread > counts.size();
    std::uint64_t total = 0;
    for (const auto& d : counts) total += d.mine + (with_unread ? d.entries - d.read : 0);
    out[di] = total;
  }
  return out;
}

}  // namespace dlgen::analysis::stages
