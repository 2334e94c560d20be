// [dataset] and [validation] kept in one container file: the training and the validation set are
// the virtual samples of the same multi-sample file(s) (an HDF5 file's /train and /val groups,
// one zip split by a sampler), so each set is a range of those files' samples (sample_range), and
// the validation set lies in the training set's files.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "sections.hpp"

namespace dlgen::analysis::sections {
namespace {

// The real files (rows of TraceSummary::sample_files) whose virtual samples `d`'s files are; empty
// when one of them is an ordinary file.
std::set<std::uint32_t> container_rows(const TraceSummary& s, const DatasetSummary& d) {
  std::set<std::uint32_t> rows;
  for (auto f : d.files) {
    const auto it = s.virtual_files.find(f);
    if (it == s.virtual_files.end()) return {};
    rows.insert(it->second);
  }
  return rows;
}

// The sample indices of `d`'s virtual files ("data#0000064.h5": 64), sorted.
std::vector<std::uint64_t> sample_indices(const TraceSummary& s, const DatasetSummary& d) {
  std::vector<std::uint64_t> out;
  for (auto f : d.files) {
    const std::string stem = std::filesystem::path(s.files[f].path).stem().string();
    const auto hash = stem.rfind('#');
    if (hash != std::string::npos)
      out.push_back(std::strtoull(stem.c_str() + hash + 1, nullptr, 10));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Whether `k` is a run of consecutive indices.
bool contiguous(const std::vector<std::uint64_t>& k) {
  return !k.empty() && k.back() - k.front() + 1 == k.size();
}

std::string range_text(std::uint32_t begin, std::uint32_t end) {
  return "[" + std::to_string(begin) + ", " + std::to_string(end) + ")";
}

}  // namespace

void shared_container(JobWriter& x, int ti, int vi) {
  const TraceSummary& s = x.s;
  Job& job = x.out.job;
  if (ti < 0 || vi < 0 || !job.validation) return;
  const auto train_rows = container_rows(s, s.datasets[ti]);
  if (train_rows.size() != 1 || container_rows(s, s.datasets[vi]) != train_rows) return;
  DatasetSpec& t = job.dataset;
  DatasetSpec& v = *job.validation;
  const auto tk = sample_indices(s, s.datasets[ti]), vk = sample_indices(s, s.datasets[vi]);
  const auto n_train = static_cast<std::uint32_t>(tk.size());
  const auto n_val = static_cast<std::uint32_t>(vk.size());
  const std::uint32_t all = t.samples_per_file;
  if (n_train == 0 || n_val == 0 || n_train + n_val > all) return;
  // The regions as they lie when each set is one run of samples (an HDF5 group's chunks);
  // otherwise (a sampler's subsets, interleaved) as many samples, training first.
  const bool runs = contiguous(tk) && contiguous(vk) && vk.back() < all && tk.back() < all;
  t.sample_begin = runs ? static_cast<std::uint32_t>(tk.front()) : 0;
  t.sample_end = t.sample_begin + n_train;
  v.sample_begin = runs ? static_cast<std::uint32_t>(vk.front()) : n_train;
  v.sample_end = v.sample_begin + n_val;
  v.dir = t.dir;
  v.seed = t.seed;
  const std::string& path = s.sample_files[*train_rows.begin()].path;
  const std::string how =
      runs ? "the samples lie in one run each"
           : "the original's samples of the two sets were interleaved (a sampler's index lists); "
             "the job keeps how many each reads";
  x.evidence("dataset.sample_range", std::to_string(n_train) + " of the " + std::to_string(all) +
                                         " samples of " + path + " read in the training passes, " +
                                         range_text(t.sample_begin, t.sample_end) +
                                         (runs ? "" : " here"));
  x.evidence("validation.sample_range", "the other " + std::to_string(n_val) +
                                            " samples of the same file, read in the "
                                            "evaluation passes by their own workers, " +
                                            range_text(v.sample_begin, v.sample_end) + "; " + how);
  x.evidence("validation.dir", "the training set's files: one container holds both sets");
  x.why("training and validation are " + std::to_string(n_train) + " and " + std::to_string(n_val) +
        " samples of one container, " + path);
}

}  // namespace dlgen::analysis::sections
