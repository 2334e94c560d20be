#pragma once
// The sections of distil (TraceSummary → Job), each written by the functions of its own file, in
// the order distil() (distil.cpp) calls them:
//
//   dataset.cpp     [dataset] and [validation]: the synthetic copy of each dataset
//   shared_file.cpp  ... both kept in one container file: a range of its samples each
//   run.cpp         [run]: epochs, evaluation cadence, accelerators per host
//   reader.cpp      [reader]: workers, batch size, prefetch, shuffle, drop_last/max_steps
//   reads.cpp       [reader]: how each file is read (requests, recipe, sample reads) and the
//                   readers' times (start-up, start-up spread, per-sample, warm-up)
//   compute.cpp     [compute]: step time, evaluation time, batch overhead, GPU compute
//   checkpoint.cpp  [checkpoint], and the checkpoint-only job
//
// Shared by them: the JobWriter (below: the job being written, with each key's evidence, the
// notes and the reasoning), the fits of measured values to distributions (fit.hpp) and the
// names of the job and its files (names.cpp).
//
// A section reads the summary and the keys earlier sections wrote (the reader's batch size, the
// run's accelerators, the multi-sample file the dataset section found), so the order in distil()
// matters: notes come out in the order they are said.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "dlgen/analysis/distil.hpp"
#include "dlgen/analysis/summary.hpp"

namespace dlgen::analysis::sections {

// The distilled job being written: its keys, a comment per key with the evidence it came from, the
// notes (what the trace could not show: said, not guessed) and the reasoning for --explain.
struct JobWriter {
  const TraceSummary& s;
  Distilled out;
  const SampleFile* sample_file = nullptr;  // the training set is samples of multi-sample files
  void evidence(const std::string& key, std::string text) { out.comments[key] = std::move(text); }
  void note(std::string text) { out.notes.push_back(std::move(text)); }
  void why(std::string text) { out.reasoning.push_back(std::move(text)); }
};

// Whether a memory-mapped file's items per batch, estimated from its workers' touches
// (SampleFile::batch_items), stand: the blocks some fault showed hold at least 90% of its
// windows. Fewer: it was cached in large folios, which the kernel maps whole around a fault while
// the tracepoint reports the 64 KiB window asked for, hiding touches the estimate cannot correct
// (reader.cpp, mapped_items).
inline bool mapped_items_stand(const SampleFile& sf) {
  return sf.mapped && sf.batch_items >= 0.5 && sf.shown >= 0.9;
}

// ---- text of the evidence ----

// One number printed with a printf format ("%.2f").
inline std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// part / whole as a whole percentage ("42%"), "n/a" when whole is 0.
inline std::string pct(double part, double whole) {
  return whole > 0 ? fmt("%.0f%%", 100.0 * part / whole) : "n/a";
}

// "1,2,3".
inline std::string comma_list(const std::vector<std::uint64_t>& v) {
  std::string l;
  for (auto e : v) l += (l.empty() ? "" : ",") + std::to_string(e);
  return l;
}

// ---- names (names.cpp) ----

// A name safe for paths and job names: lower-case letters, digits, '-' and '_'.
std::string sanitize(std::string s);

// The job's name when none is given: the training set's directory (or its parent's, when the
// directory's own name is generic such as "train"), else the traced script's name.
std::string default_name(const TraceSummary& s);

// The name prefix all files of a dataset share (up to their first digit), "" when they differ.
std::string file_prefix_of(const DatasetSummary& d, const TraceSummary& s);

// ---- batches that vary in size (batch_sizes.cpp) ----

// The training passes' samples per handover when they vary (a batch sampler of the program's own:
// a token budget): at least 3 sizes, more than half the batches off the commonest size beyond
// one a pass and accelerator (a DataLoader's last partial batch), and the upper quartile at least
// 1.5 times the lower (not a fixed batch's accesses scattered around it). `sizes` is then the
// histogram of the exact sizes (weight: batches); otherwise it stays the default (one size).
struct VaryingBatches {
  Distribution sizes;
  std::uint64_t batches = 0;  // training handovers counted
  std::uint64_t commonest = 0, commonest_batches = 0;
  std::uint64_t smallest = 0, largest = 0, median = 0;
  double mean = 0;
};
VaryingBatches varying_batches(const TraceSummary& s, std::uint32_t files_per_sample);
// reader.batch_size as that histogram (and its rounded mean), with its evidence, when the
// batches vary; false (nothing written) when they are of one size.
bool write_varying_batches(JobWriter& x, std::uint32_t files_per_sample);

// ---- the sections, in distil()'s order ----

// The training passes (epochs), in time order.
std::vector<const EpochSummary*> training_passes(const TraceSummary& s);

// Where the synthetic copy goes when no --dataset-dir is given (object_store.cpp).
std::filesystem::path default_data_dir(const TraceSummary& s, const std::string& name);
void distil_datasets(JobWriter& x, const std::filesystem::path& data_dir);  // dataset.cpp
// Training set `ti` and validation set `vi` (datasets of the summary) as ranges of one container
// file's samples (sample_range), the validation set in the training set's files, when both are
// the virtual samples of the same multi-sample file (shared_file.cpp).
void shared_container(JobWriter& x, int ti, int vi);
void distil_run(JobWriter& x);                                              // run.cpp
void distil_loader(JobWriter& x);                                           // reader.cpp
void distil_shuffle(JobWriter& x, const DatasetSummary& train);             // reader.cpp
void distil_requests(JobWriter& x, const DatasetSummary& train);            // reads.cpp
void distil_epoch_size(JobWriter& x, const DatasetSummary& train);          // reader.cpp
void distil_memory(JobWriter& x);                                           // memory.cpp
void distil_compute(JobWriter& x);                                          // compute.cpp
void distil_checkpoint(JobWriter& x);                                       // checkpoint.cpp
void distil_checkpoint_only(JobWriter& x);                                  // checkpoint.cpp

}  // namespace dlgen::analysis::sections
