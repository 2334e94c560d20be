#include "archive_members.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <string>

namespace dlgen::analysis {
namespace {

using trace::Event;

constexpr std::uint64_t kZipMagic = 0x04034b50;  // "PK\3\4", a local file header

bool is_zip(const trace::File& file) {
  const std::string& p = file.path;
  const bool named = p.size() > 4 && (p.ends_with(".zip") || p.ends_with(".ZIP") ||
                                      p.ends_with(".npz"));
  return named || (file.magic_len >= 4 && (file.magic & 0xffffffffu) == kZipMagic);
}

// A run: a read that does not continue where the same thread's previous read of the file ended
// (a seek to a member's header), and the reads that continue it.
struct Run {
  std::uint32_t pid = 0;
  std::uint64_t start = 0, end = 0, bytes = 0;
  std::uint64_t first_request = 0;
};

std::vector<Run> runs_of(const std::vector<const Event*>& reads) {
  std::vector<Run> runs;
  std::map<std::uint32_t, std::size_t> open_run;  // tid → its current run
  for (const Event* e : reads) {
    const std::uint64_t got = static_cast<std::uint64_t>(e->ret);
    auto it = open_run.find(e->tid);
    if (it != open_run.end() && runs[it->second].end == e->offset) {
      runs[it->second].end += got;
      runs[it->second].bytes += got;
      continue;
    }
    runs.push_back({e->pid, e->offset, e->offset + got, got, e->size});
    open_run[e->tid] = runs.size() - 1;
  }
  return runs;
}

// The archive's index: the run starts every process that read the file has (each ZipFile reads
// the end record and the central directory when it opens; the main process that lists the
// members reads nothing else). Empty with one process: its index runs are kept as members.
std::set<std::uint64_t> index_offsets(const std::vector<Run>& runs) {
  std::map<std::uint32_t, std::set<std::uint64_t>> starts;  // pid → its run starts
  for (const auto& r : runs) starts[r.pid].insert(r.start);
  if (starts.size() < 2) return {};
  std::set<std::uint64_t> common = starts.begin()->second;
  for (const auto& [pid, s] : starts) {
    std::set<std::uint64_t> both;
    std::set_intersection(common.begin(), common.end(), s.begin(), s.end(),
                          std::inserter(both, both.end()));
    common = std::move(both);
  }
  return common;
}

}  // namespace

std::optional<SampleFile> archive_member_layout(const trace::Trace& t, std::uint32_t f,
                                                const std::vector<const Event*>& reads,
                                                std::uint64_t opens) {
  constexpr std::size_t kMinMembers = 16;
  if (!is_zip(t.files[f]) || reads.size() < 64 || opens == 0 || opens * 16 > reads.size())
    return std::nullopt;
  const std::vector<Run> runs = runs_of(reads);
  const std::set<std::uint64_t> index = index_offsets(runs);
  std::map<std::uint64_t, std::uint64_t> longest;  // member start → its longest run, bytes
  std::map<std::uint64_t, std::uint64_t> first_requests;
  std::uint64_t all = 0, in_members = 0;
  for (const auto& r : runs) {
    all += r.bytes;
    if (index.count(r.start)) continue;
    in_members += r.bytes;
    longest[r.start] = std::max(longest[r.start], r.end - r.start);
    ++first_requests[r.first_request];
  }
  if (longest.size() < kMinMembers || in_members * 2 <= all) return std::nullopt;
  SampleFile sf;
  sf.path = t.files[f].path;
  sf.size = t.files[f].size_at_open;
  for (const Event* e : reads)
    sf.size = std::max(sf.size, e->offset + static_cast<std::uint64_t>(e->ret));
  for (const auto& [start, len] : longest) sf.offsets.push_back(start);
  // A member ends where the next begins; the last where the index begins (the central directory
  // follows the members), else where its longest run ended.
  for (std::size_t i = 0; i < sf.offsets.size(); ++i) {
    std::uint64_t end = sf.offsets[i] + longest[sf.offsets[i]];
    if (i + 1 < sf.offsets.size()) {
      end = sf.offsets[i + 1];
    } else if (auto above = index.upper_bound(sf.offsets[i]); above != index.end()) {
      end = *above;
    }
    sf.extents.push_back(end - sf.offsets[i]);
  }
  std::vector<std::uint64_t> sorted = sf.extents;
  std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
  sf.stride = sorted[sorted.size() / 2];
  sf.base = sf.offsets.front();
  sf.samples = sf.offsets.size();
  // The request a member's reading starts with: a buffered reader's fill when at least half the
  // member runs start with it (zipfile through Python's 4 KiB buffer); else none (one read a
  // member of its own size, as dlgen's replay reads).
  std::uint64_t most = 0, member_runs = 0;
  for (const auto& [size, n] : first_requests) {
    member_runs += n;
    if (n > most) sf.request = size, most = n;
  }
  if (most * 2 < member_runs) sf.request = 0;
  sf.reads = reads.size();
  return sf;
}

}  // namespace dlgen::analysis
