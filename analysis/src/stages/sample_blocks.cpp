// sample_blocks: a shuffle in blocks of consecutive samples of one file (a batch sampler handing
// out runs of records: "block shuffle", cache-friendly reads of record shards). Each reader then
// reads runs of consecutive samples of one file that begin and end on a grid of N samples (a run
// may hold two blocks that followed each other by chance; a file's last block may be shorter),
// while which block follows which changes with the shuffle.
#include <algorithm>
#include <map>

#include "../prepass/sample_files.hpp"
#include "stages.hpp"
#include "stats.hpp"

namespace dlgen::analysis::stages {
namespace {

// A run of consecutive samples of one real file read by one reader: its first sample and length.
struct Run {
  std::string file;
  std::uint64_t first = 0, length = 0;
};

// The runs of dataset `di`'s accesses, per reader and pass in the order they were made, and each
// real file's last sample read; false when an access is not a multi-sample file's virtual file.
bool runs_of(const trace::Trace& t, const std::vector<Access>& as, std::int32_t di,
             std::vector<Run>& runs, std::map<std::string, std::uint64_t>& last) {
  std::map<std::pair<std::int32_t, std::uint32_t>, std::size_t> open;  // (pass, reader) → run
  for (const Access& a : as) {
    if (a.dataset != di || a.pass < 0) continue;
    std::string file;
    std::uint64_t k = 0;
    if (!virtual_sample(t.files[a.file].path, &file, &k)) return false;
    last[file] = std::max(last[file], k);
    const auto key = std::make_pair(a.pass, a.reader);
    const auto it = open.find(key);
    if (it != open.end()) {
      Run& r = runs[it->second];
      if (r.file == file && r.first + r.length == k) {
        ++r.length;
        continue;
      }
    }
    open[key] = runs.size();
    runs.push_back({file, k, 1});
  }
  return true;
}

// The block of dataset `di` (0: none): the commonest run length N >= 2, when at least 4 runs were
// read, 9 in 10 of them begin on the grid of N samples and end on it (or at their file's last
// sample), and some file holds more than N samples (else the blocks are whole files: a file
// shuffle).
std::uint32_t block_of(const trace::Trace& t, const std::vector<Access>& as, std::int32_t di) {
  std::vector<Run> runs;
  std::map<std::string, std::uint64_t> last;
  if (!runs_of(t, as, di, runs, last) || runs.size() < 4) return 0;
  std::vector<std::uint64_t> lengths;
  for (const Run& r : runs) lengths.push_back(r.length);
  const std::uint64_t n = detail::mode(lengths);
  std::uint64_t most = 0;
  for (const auto& [file, k] : last) most = std::max(most, k + 1);
  if (n < 2 || n >= most || n > UINT32_MAX) return 0;
  std::size_t aligned = 0;
  for (const Run& r : runs) {
    const bool ends = r.length % n == 0 || r.first + r.length == last[r.file] + 1;
    aligned += r.first % n == 0 && ends;
  }
  return aligned * 10 >= runs.size() * 9 ? static_cast<std::uint32_t>(n) : 0;
}

}  // namespace

std::vector<std::uint32_t> sample_blocks(const trace::Trace& t, const Classified& c,
                                         const std::vector<Access>& as) {
  std::vector<std::uint32_t> out;
  for (std::size_t di = 0; di < c.datasets.size(); ++di)
    out.push_back(block_of(t, as, static_cast<std::int32_t>(di)));
  return out;
}

}  // namespace dlgen::analysis::stages
