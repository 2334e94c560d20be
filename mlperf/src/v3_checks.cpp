// MLPerf Storage v3.0's rules on a results folder's records (v3_checks.hpp): the dataset size
// (Rules.md 3.1.2), the steps' file counts (3.2.1, 3.3.1), the checkpointing phases and their
// window (Table 3, 4.7.1), the page-cache flush (4.3.1), the checkpointing parameters (4.3.2 -
// 4.6.4, through check_checkpoint_division_v3) and O_DIRECT outside unet3d.
#include "dlgen/mlperf/v3_checks.hpp"

#include <algorithm>
#include <cstdio>

#include "dlgen/core/units.hpp"
#include "dlgen/dlio/summary.hpp"
#include "dlgen/mlperf/checkpoint_workflow.hpp"
#include "dlgen/mlperf/mlperf_checkpoint.hpp"
#include "dlgen/mlperf/rules.hpp"

namespace dlgen::mlperf {
namespace {

std::string count(std::uint64_t n) {
  std::string s = std::to_string(n);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(std::size_t(i), ",");
  return s;
}

// Table 3 and 2.1.23: the order and the counts of the invocations' checkpoints.
void check_phases(const CheckpointRecord& r, std::vector<RuleProblem>& out) {
  const char* rule = "Table 3 num_checkpoints";
  if (r.division != Division::closed) return;  // OPEN may change the counts (Table 3)
  std::uint64_t writes = 0, reads = 0;
  for (const CheckpointInvocation& i : r.invocations) {
    writes += i.writes;
    reads += i.reads;
  }
  const std::string got = std::to_string(writes) + " written and " + std::to_string(reads) +
                          " read over " + std::to_string(r.invocations.size()) + " invocation(s)";
  if (writes != 10 || reads != 10) {
    out.push_back({rule, got + "; CLOSED writes 10 then reads 10"});
    return;
  }
  const bool combined = r.invocations.size() == 1;
  const bool split =
      r.invocations.size() == 2 && r.invocations[0].reads == 0 && r.invocations[1].writes == 0;
  if (!combined && !split)
    out.push_back({rule, got + "; CLOSED runs them in one invocation, or a write phase "
                               "(num_checkpoints_read=0) then a read phase "
                               "(num_checkpoints_write=0)"});
}

// Rule 4.7.1: the read-phase invocation begins within 30 s of the write phase's end.
void check_window(const CheckpointRecord& r, std::vector<RuleProblem>& out) {
  for (std::size_t k = 1; k < r.invocations.size(); ++k) {
    const CheckpointInvocation &w = r.invocations[k - 1], &rd = r.invocations[k];
    if (w.writes == 0 || w.reads != 0 || rd.writes != 0 || rd.reads == 0) continue;
    const char* rule = "4.7.1 checkpointCacheFlushValidation";
    if (w.end_unix_s <= 0 || rd.start_unix_s <= 0) {
      out.push_back({rule,
                     "the write phase's end or the read phase's start is not recorded "
                     "(provenance.json end_unix_s, invocation_start_unix_s)"});
      continue;
    }
    const double gap = rd.start_unix_s - w.end_unix_s;
    if (gap > kV3PhaseGapLimitS) {
      char buf[200];
      std::snprintf(buf, sizeof buf,
                    "the read phase began %.1f s after the write phase ended; %.0f s at most", gap,
                    kV3PhaseGapLimitS);
      out.push_back({rule, buf});
    }
  }
}

// Rule 4.3.1: under 3x the host's RAM written per host, the cache is dropped before the reads.
void check_page_cache(const CheckpointRecord& r, std::vector<RuleProblem>& out) {
  const std::uint32_t hosts = std::max<std::uint32_t>(r.hosts, 1);
  for (const CheckpointInvocation& i : r.invocations) {
    if (i.writes == 0 || i.reads == 0 || i.cache_dropped) continue;
    const std::uint64_t per_host = r.checkpoint_bytes * i.writes / hosts;
    if (!drop_cache_between(per_host, r.ram_bytes_per_host)) continue;
    out.push_back({"4.3.1 checkpointDataSizeRatio",
                   format_size(per_host) + " written per host, under 3 x its " +
                       format_size(r.ram_bytes_per_host) +
                       " of RAM, and the page cache was not dropped between the writes and "
                       "the reads"});
  }
}

}  // namespace

std::vector<RuleProblem> check_v3_dataset_size(const Job& job, const ClientInfo& c) {
  const std::uint64_t ram = std::max(c.ram_bytes, c.measured_ram_bytes);
  const MlperfSizing s = mlperf_cluster_dataset_size(job, c.ranks, ram);
  if (job.dataset.num_files >= s.files) return {};
  char record[64];
  std::snprintf(record, sizeof record, "%.0f B",
                dlio::nominal_record_bytes(job.dataset.sample_size));
  return {{"3.1.2 trainingRecalculateDatasetSize",
           "dataset.num_files " + count(job.dataset.num_files) + " is below the " + count(s.files) +
               " files the rules ask: 500 steps x batch " + std::to_string(job.reader.batch_size) +
               " x " + std::to_string(job.run.accelerators) + " accelerator(s) x " +
               std::to_string(c.ranks) + " rank(s) = " + count(s.samples_for_steps) +
               " samples; 5 x " + format_size(ram) + " of RAM (" + std::to_string(c.hosts) +
               " host(s)) / " + record + " a sample = " + count(s.samples_for_memory) +
               " samples; " + std::to_string(std::max(job.dataset.samples_per_file, 1u)) +
               " sample(s) a file"}};
}

std::vector<RuleProblem> check_v3_datagen_size(const TrainingStepFiles& f) {
  if (!f.datasize || !f.datagen || *f.datagen >= *f.datasize) return {};
  return {{"3.2.1 trainingDatagenMinimumSize", "datagen wrote " + count(*f.datagen) +
                                                   " files, below the " + count(*f.datasize) +
                                                   " the datasize step asks"}};
}

std::vector<RuleProblem> check_v3_training_steps(const TrainingStepFiles& f) {
  std::vector<RuleProblem> out;
  if (f.datasize && f.run < *f.datasize)
    out.push_back({"3.3.1 trainingRunDataMatchesDatasize",
                   "the run reads " + count(f.run) + " files, below the " + count(*f.datasize) +
                       " the datasize step asks"});
  if (f.datagen && f.run > *f.datagen)
    out.push_back({"3.3.1 trainingRunDataMatchesDatasize",
                   "the run reads " + count(f.run) + " files, more than the " + count(*f.datagen) +
                       " datagen wrote"});
  return out;
}

std::vector<RuleProblem> check_v3_checkpointing(const CheckpointRecord& r, const Job* reference) {
  std::vector<RuleProblem> out;
  check_phases(r, out);
  check_window(r, out);
  check_page_cache(r, out);
  if (!reference || r.division == Division::invalid) return out;
  // A write phase and a read phase are two invocations of one run each, not two runs of one.
  const bool split =
      r.invocations.size() == 2 && r.invocations[0].reads == 0 && r.invocations[1].writes == 0;
  const DivisionCheck d =
      check_checkpoint_division_v3(*reference, r.job, split ? 1 : r.runs, r.accelerator, r.hosts);
  const bool closed_broken = r.division == Division::closed && d.division != Division::closed;
  if (!closed_broken && d.division != Division::invalid) return out;
  std::string why;
  for (const std::string& s : d.reasons) why += (why.empty() ? "" : "; ") + s;
  out.push_back(
      {closed_broken ? "4.6.3 checkpointClosedCheckpointParameters" : "4.3 checkpointParameters",
       std::string("results.json says ") + to_string(r.division) + " but the run's job is " +
           to_string(d.division) + " against the v3.0 reference of " + r.workload + " on " +
           (r.accelerator.empty() ? "no accelerator" : r.accelerator) + ": " + why});
  return out;
}

void apply_v3_direct(const Job& job, Division& division, std::vector<std::string>& reasons) {
  if (!job.reader.direct || job.name == "unet3d") return;
  division = Division::invalid;
  reasons.push_back("reader.direct: yes on " + job.name +
                    ": MLPerf Storage v3.0's run checker allows O_DIRECT (reader.odirect) for "
                    "unet3d only (INVALID; under --rules v2.0 it is OPEN)");
}

}  // namespace dlgen::mlperf
